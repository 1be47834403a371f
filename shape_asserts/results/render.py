"""Pictures of a drawing: ASCII art for terminals, SVG for files and reports, PNG for chats.

All three mark the start, the direction of travel and the gaps, and can overlay the ideal shape.
SVG and PNG draw the same picture from the same layout helpers. Everything here only reads
numbers; text that came from a model never reaches the output (an SVG title is escaped).
PNG needs Pillow (the ``png`` extra), imported only when a PNG is drawn.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np

from shape_asserts.geometry.distances import chebyshev
from shape_asserts.geometry.points import as_points

__all__ = ["ascii_art", "svg", "png", "PNG_INSTALL_HINT"]

#: Largest grid drawn as ASCII; bigger drawings are cropped to their bounding box.
MAX_ASCII_SIDE = 100
#: At most about this many grid lines per axis in SVG/PNG (every 5 cells up to a 500-cell grid).
MAX_GRID_LINES = 100
#: Default longest side of a PNG in pixels, margin included.
PNG_SIDE = 800
#: What to run when Pillow is missing.
PNG_INSTALL_HINT = "pip install 'shape-asserts[png]'"

# One palette for SVG and PNG.
_INK = "#1f4e9c"  # path and arrowheads
_GAP = "#d62728"  # gap steps, gap rings, points outside the grid
_START = "#2ca02c"
_END = "#333"
_POINT = "#9ecae1"
_IDEAL = "#7fc97f"
_IDEAL_OPACITY = 0.35
_FRAME = "#999"
_GRID_MAJOR = "#bbb"
_GRID_MINOR = "#ddd"


def ascii_art(
    points: np.ndarray,
    grid_size: int = 50,
    *,
    ideal: np.ndarray | None = None,
    gaps: Sequence[int] = (),
) -> str:
    """The drawing on its grid, one character per cell.

    ``S`` start, ``E`` end, ``#`` drawn point, ``2`` a cell drawn more than once, ``!`` a point
    just before a gap, ``·`` the ideal shape where nothing was drawn, ``X`` outside the grid (shown
    on the border). Rows are y (down), columns x, with a ruler every 10 cells.
    """
    pts = as_points(points)
    side = max(1, min(int(grid_size), MAX_ASCII_SIDE))
    grid = [["." for _ in range(side)] for _ in range(side)]
    if ideal is not None:
        for x, y in np.rint(np.clip(as_points(ideal), -1, side)).astype(np.int64):
            if 0 <= x < side and 0 <= y < side:
                grid[y][x] = "·"
    seen: dict[tuple[int, int], int] = {}
    gap_set = set(int(i) for i in gaps)
    # clipped first: a far-off point (1e308) stays outside the grid instead of an invalid integer cast
    cells = np.rint(np.clip(pts, -1, side)).astype(np.int64) if len(pts) else np.zeros((0, 2), np.int64)
    for i, (x, y) in enumerate(cells):
        inside = 0 <= x < side and 0 <= y < side
        cx, cy = (int(min(max(x, 0), side - 1)), int(min(max(y, 0), side - 1)))
        if not inside:
            grid[cy][cx] = "X"
            continue
        seen[(cx, cy)] = seen.get((cx, cy), 0) + 1
        grid[cy][cx] = "2" if seen[(cx, cy)] > 1 else ("!" if i in gap_set else "#")
    if len(cells):
        for idx, ch in ((-1, "E"), (0, "S")):
            x, y = cells[idx]
            cx, cy = int(min(max(x, 0), side - 1)), int(min(max(y, 0), side - 1))
            grid[cy][cx] = ch
    ruler = "    " + "".join(str((x // 10) % 10) if x % 10 == 0 else " " for x in range(side))
    lines = [ruler]
    for y, row in enumerate(grid):
        lines.append(f"{y:3d} " + "".join(row))
    return "\n".join(lines)


# Characters XML 1.0 cannot hold even escaped (controls, lone surrogates from undecodable file
# names, U+FFFE/U+FFFF): dropped so the SVG always parses.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _esc(text: str) -> str:
    return (
        _NOT_XML.sub("", str(text))
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _grid_step(g: int) -> int:
    """Cells between grid lines: 5, coarser on big grids so the picture stays readable."""
    return 5 * max(1, math.ceil(g / (5 * MAX_GRID_LINES)))


def _on_canvas(pts: np.ndarray, g: int) -> np.ndarray:
    """Points clamped to the one-cell margin round the grid, so far-off points show at the edge."""
    # also keeps huge coordinates (1e300) from becoming inf or overflowing a rasteriser
    return np.clip(pts, -1.0, float(max(g, 0)))


def _outside(pts: np.ndarray, g: int) -> np.ndarray:
    return np.flatnonzero(np.any((pts < 0) | (pts > g - 1), axis=1))


def _steps(pts: np.ndarray, gap_steps: Collection[int] | None = None) -> list[tuple[int, bool, bool]]:
    """``(i, is_gap, has_arrow)`` for each step from point ``i`` to ``i + 1``.

    A gap is a step longer than one cell, or, when ``gap_steps`` is given (the points are a thinned
    sample of a drawing, whose steps are long by construction), a step it names; about a dozen
    ordinary steps carry an arrowhead.
    """
    if len(pts) < 2:
        return []
    if gap_steps is None:
        gap = chebyshev(pts[1:], pts[:-1]) > 1
    else:
        gap = np.zeros(len(pts) - 1, dtype=bool)
        named = [i for i in gap_steps if 0 <= i < len(gap)]
        gap[named] = True
    every = max(1, len(pts) // 12)
    return [(i, bool(gap[i]), bool(not gap[i] and i % every == every // 2)) for i in range(len(pts) - 1)]


def _subpaths(coords: list[tuple[float, float]], pts: np.ndarray) -> list[str]:
    """SVG path commands for ``pts``, a new subpath at every jump, closed where a part closes."""
    if not coords:
        return []
    steps = chebyshev(pts[1:], pts[:-1]) if len(pts) > 1 else np.zeros(0)
    out, begin = [], 0
    for i in range(len(coords)):
        jump = i > 0 and steps[i - 1] > 1
        if jump:
            if chebyshev(pts[i - 1], pts[begin]) <= 1:
                out.append("Z")
            begin = i
        x, y = coords[i]
        out.append(f"{'M' if i == 0 or jump else 'L'}{x:.1f},{y:.1f}")
    if chebyshev(pts[-1], pts[begin]) <= 1:
        out.append("Z")
    return out


def svg(
    points: np.ndarray,
    grid_size: int = 50,
    *,
    ideal: np.ndarray | None = None,
    gaps: Sequence[int] = (),
    cell: int = 10,
    title: str = "",
    contours: Iterable[Sequence[int]] | None = None,
    breaks: Sequence[int] = (),
    gap_steps: Collection[int] | None = None,
) -> str:
    """A self-contained SVG of the drawing: grid, ideal overlay, path, start, direction, gaps.

    The path is one line through the points; steps longer than one cell (gaps) are dashed red. The
    start is a green ring, the end a small square, and arrowheads show the direction of travel.
    Points outside the grid get a red cross; far-off ones are drawn on the margin. ``breaks`` are
    the indices where a new contour begins (multi-contour shapes): the pen lift before each is a
    faint dotted line, not a gap, and the ideal overlay is drawn contour by contour. For a thinned
    drawing (:func:`shape_asserts.results.thin.thin`), whose steps are long by construction,
    ``gap_steps`` names the steps that hold a gap; their lengths then say nothing.

    The cells, the grid and the ordinary steps are one path each, so a page of many drawings stays
    light. Long because it is one picture painted back to front (frame and grid, ideal, cells,
    steps, marks): each block is one layer, and splitting them would pass the canvas through every call.
    """
    pts = as_points(points)
    g = int(grid_size)
    size = g * cell
    half = cell / 2
    canvas = _on_canvas(pts, g)

    def xy(p: np.ndarray) -> tuple[float, float]:
        return (float(p[0]) * cell + half, float(p[1]) * cell + half)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-cell} {-cell} {size + 2 * cell} {size + 2 * cell}" '
        f'width="{size + 2 * cell}" height="{size + 2 * cell}" role="img">',
    ]
    if title:
        out.append(f"<title>{_esc(title)}</title>")
    out.append(
        '<defs><marker id="arr" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{_INK}"/>'
        "</marker></defs>"
    )
    out.append(f'<rect x="0" y="0" width="{size}" height="{size}" fill="#fff" stroke="{_FRAME}"/>')
    out += _grid_paths(g, cell)
    if ideal is not None and len(ideal):
        ip = _on_canvas(as_points(ideal), g)
        d = " ".join(_subpaths([xy(p) for p in ip], ip))
        out.append(
            f'<path d="{d}" fill="none" stroke="{_IDEAL}" stroke-width="{cell * 0.8:.1f}" '
            f'stroke-opacity="{_IDEAL_OPACITY}"/>'
        )
    if len(canvas):
        # every cell in one path: a page of many drawings stays light (a <rect> each was ~70 bytes)
        side = cell - 2
        cells = "".join(f"M{_n(x - half + 1)} {_n(y - half + 1)}h{side}v{side}h-{side}z" for x, y in map(xy, canvas))
        out.append(f'<path class="cells" d="{cells}" fill="{_POINT}"/>')
    for i in _outside(pts, g):
        x, y = xy(canvas[i])
        r = cell * 0.4
        out.append(
            f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} '
            f'L{x + r:.1f},{y - r:.1f}" stroke="{_GAP}" stroke-width="2"/>'
        )
    out += _step_marks(pts, canvas, xy, breaks, gap_steps)
    for i in gaps:
        if 0 <= i < len(pts):
            x, y = xy(canvas[i])
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.45:.1f}" fill="none" stroke="{_GAP}" stroke-width="1.5"/>'
            )
    if len(pts):
        x, y = xy(canvas[-1])
        out.append(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{_END}"/>')
        x, y = xy(canvas[0])
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.6:.1f}" fill="none" stroke="{_START}" stroke-width="2.5"/>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _n(v: float) -> str:
    """A coordinate in as few characters as it needs (``135``, ``135.5``)."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _grid_paths(g: int, cell: int) -> list[str]:
    """The grid's lines every :func:`_grid_step` cells, as one path per shade (major, minor)."""
    size = g * cell
    step = _grid_step(g)
    shades: dict[str, list[str]] = {_GRID_MAJOR: [], _GRID_MINOR: []}
    for k in range(0, g + 1, step):
        shade = _GRID_MAJOR if k % (2 * step) == 0 else _GRID_MINOR
        shades[shade].append(f"M{k * cell} 0V{size}M0 {k * cell}H{size}")
    return [f'<path d="{"".join(d)}" stroke="{shade}" fill="none"/>' for shade, d in shades.items() if d]


def _step_marks(
    pts: np.ndarray,
    canvas: np.ndarray,
    xy: Callable[[np.ndarray], tuple[float, float]],
    breaks: Sequence[int],
    gap_steps: Collection[int] | None,
) -> list[str]:
    """The steps between points: ordinary ones as one path, with a dozen arrowheads on their own
    short paths; gaps dashed red and pen lifts dotted grey, one line each."""
    lifts = {int(b) for b in breaks}
    ink: list[str] = []
    marks: list[str] = []
    at: int | None = None  # the point the ink path last reached
    for i, is_gap, arrow in _steps(pts, gap_steps):
        (x1, y1), (x2, y2) = xy(canvas[i]), xy(canvas[i + 1])
        if i + 1 in lifts:
            marks.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{_FRAME}" '
                f'stroke-width="1" stroke-dasharray="1 3"/>'
            )
        elif is_gap:
            marks.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{_GAP}" '
                f'stroke-width="2" stroke-dasharray="4 3"/>'
            )
        else:
            if at != i:
                ink.append(f"M{_n(x1)} {_n(y1)}")
            ink.append(f"L{_n(x2)} {_n(y2)}")
            at = i + 1
            if arrow:
                marks.append(
                    f'<path d="M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}" stroke="{_INK}" stroke-width="1.5" '
                    'marker-end="url(#arr)"/>'
                )
    out = [f'<path d="{"".join(ink)}" fill="none" stroke="{_INK}" stroke-width="1.5"/>'] if ink else []
    return out + marks


def png(
    points: np.ndarray,
    grid_size: int = 50,
    *,
    ideal: np.ndarray | None = None,
    gaps: Sequence[int] = (),
    side: int = PNG_SIDE,
) -> bytes:
    """The :func:`svg` picture as PNG bytes, about ``side`` pixels square.

    Needs Pillow; raises ``ImportError`` naming :data:`PNG_INSTALL_HINT` when it is missing.
    Drawn at 3× and scaled down, which anti-aliases the lines. Long because, like :func:`svg`, it
    paints one picture back to front, one block per layer.

    Examples
    --------
    >>> png(np.array([[1, 1], [2, 1], [2, 2]]), 5)[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:
        raise ImportError(f"PNG output needs Pillow: {PNG_INSTALL_HINT}") from exc

    pts = as_points(points)
    g = max(int(grid_size), 1)
    canvas = _on_canvas(pts, g)
    ss = 3  # supersampling factor
    cell = min(24.0, side / (g + 2)) * ss  # pixels per cell while drawing
    full = int(math.ceil((g + 2) * cell))
    u = cell / 10  # one SVG user unit (the SVG draws cells 10 units wide)

    def xy(p: np.ndarray) -> tuple[float, float]:
        # the SVG's coordinates shifted by the one-cell margin
        return (float(p[0]) * cell + cell * 1.5, float(p[1]) * cell + cell * 1.5)

    def width(units: float) -> int:
        return max(1, int(round(units * u)))

    img = Image.new("RGB", (full, full), "#fff")
    draw = ImageDraw.Draw(img)
    size = g * cell
    step = _grid_step(g)
    for k in range(0, g + 1, step):
        color = _GRID_MAJOR if k % (2 * step) == 0 else _GRID_MINOR
        o = cell + k * cell
        draw.line((o, cell, o, cell + size), fill=color, width=width(1))
        draw.line((cell, o, cell + size, o), fill=color, width=width(1))
    draw.rectangle((cell, cell, cell + size, cell + size), outline=_FRAME, width=width(1))  # frame over grid

    if ideal is not None and len(ideal):
        ip = [xy(p) for p in _on_canvas(as_points(ideal), g)]
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        ImageDraw.Draw(layer).line(ip + ip[:1], fill=_rgba(_IDEAL, _IDEAL_OPACITY), width=width(8), joint="curve")
        img = Image.alpha_composite(img.convert("RGBA"), layer).convert("RGB")
        draw = ImageDraw.Draw(img)

    half = cell / 2
    for x, y in map(xy, canvas):
        draw.rectangle((x - half + u, y - half + u, x + half - u, y + half - u), fill=_POINT)
    for i in _outside(pts, g):
        x, y = xy(canvas[i])
        r = cell * 0.4
        draw.line((x - r, y - r, x + r, y + r), fill=_GAP, width=width(2))
        draw.line((x - r, y + r, x + r, y - r), fill=_GAP, width=width(2))
    for i, is_gap, arrow in _steps(pts):
        a, b = xy(canvas[i]), xy(canvas[i + 1])
        if is_gap:
            _dashed(draw, a, b, dash=4 * u, space=3 * u, fill=_GAP, width=width(2))
        else:
            draw.line((a, b), fill=_INK, width=width(1.5))
            if arrow:
                _arrowhead(draw, a, b, length=6 * u, fill=_INK)
    for i in gaps:
        if 0 <= i < len(pts):
            x, y = xy(canvas[i])
            r = cell * 0.45
            draw.ellipse((x - r, y - r, x + r, y + r), outline=_GAP, width=width(1.5))
    if len(pts):
        x, y = xy(canvas[-1])
        draw.rectangle((x - 3 * u, y - 3 * u, x + 3 * u, y + 3 * u), fill=_END)
        x, y = xy(canvas[0])
        r = cell * 0.6
        draw.ellipse((x - r, y - r, x + r, y + r), outline=_START, width=width(2.5))

    out_side = max(1, int(round(full / ss)))
    img = img.resize((out_side, out_side), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _rgba(color: str, opacity: float) -> tuple[int, int, int, int]:
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), int(round(opacity * 255)))


def _dashed(
    draw, a: tuple[float, float], b: tuple[float, float], *, dash: float, space: float, fill: str, width: int
) -> None:
    """A dashed line (Pillow has none), like SVG's ``stroke-dasharray``."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        draw.line((a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e), fill=fill, width=width)
        t = e + space


def _arrowhead(draw, a: tuple[float, float], b: tuple[float, float], *, length: float, fill: str) -> None:
    """A triangle centred on ``b`` pointing from ``a`` to ``b``, like the SVG marker."""
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    if d == 0:
        return
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    h = length / 2
    tip = (b[0] + ux * h, b[1] + uy * h)
    back = (b[0] - ux * h, b[1] - uy * h)
    left = (back[0] - uy * h, back[1] + ux * h)
    right = (back[0] + uy * h, back[1] - ux * h)
    draw.polygon([tip, left, right], fill=fill)
