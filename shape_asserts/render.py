"""Pictures of a drawing: ASCII art for terminals, SVG for files and reports.

Both mark the start, the direction of travel and the gaps, and can overlay the ideal shape.
Everything here only reads numbers; text that came from a model never reaches the output.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .checks import as_points, chebyshev

__all__ = ["ascii_art", "svg"]

#: Largest grid drawn as ASCII; bigger drawings are cropped to their bounding box.
MAX_ASCII_SIDE = 100


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
        for x, y in np.rint(as_points(ideal)).astype(int):
            if 0 <= x < side and 0 <= y < side:
                grid[y][x] = "·"
    seen: dict[tuple[int, int], int] = {}
    gap_set = set(int(i) for i in gaps)
    cells = np.rint(pts).astype(np.int64) if len(pts) else np.zeros((0, 2), np.int64)
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


def _esc(text: str) -> str:
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def svg(
    points: np.ndarray,
    grid_size: int = 50,
    *,
    ideal: np.ndarray | None = None,
    gaps: Sequence[int] = (),
    cell: int = 10,
    title: str = "",
    contours: Iterable[Sequence[int]] | None = None,
) -> str:
    """A self-contained SVG of the drawing: grid, ideal overlay, path, start, direction, gaps.

    The path is drawn segment by segment; steps longer than one cell (gaps) are dashed red. The
    start is a green ring, the end a small square, and arrowheads show the direction of travel.
    """
    pts = as_points(points)
    g = int(grid_size)
    size = g * cell
    half = cell / 2

    def xy(p: np.ndarray) -> tuple[float, float]:
        return (float(p[0]) * cell + half, float(p[1]) * cell + half)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-cell} {-cell} {size + 2 * cell} {size + 2 * cell}" '
        f'width="{size + 2 * cell}" height="{size + 2 * cell}" role="img">',
    ]
    if title:
        out.append(f"<title>{_esc(title)}</title>")
    out.append(
        "<defs><marker id=\"arr\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"4\" "
        "markerHeight=\"4\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f4e9c\"/>"
        "</marker></defs>"
    )
    out.append(f'<rect x="0" y="0" width="{size}" height="{size}" fill="#fff" stroke="#999"/>')
    grid_lines = []
    for k in range(0, g + 1, 5):
        w = "#ddd" if k % 10 else "#bbb"
        grid_lines.append(f'<line x1="{k * cell}" y1="0" x2="{k * cell}" y2="{size}" stroke="{w}"/>')
        grid_lines.append(f'<line x1="0" y1="{k * cell}" x2="{size}" y2="{k * cell}" stroke="{w}"/>')
    out.extend(grid_lines)
    if ideal is not None and len(ideal):
        ip = as_points(ideal)
        d = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(map(xy, ip)))
        out.append(f'<path d="{d} Z" fill="none" stroke="#7fc97f" stroke-width="{cell * 0.8:.1f}" stroke-opacity="0.35"/>')
    for x, y in map(xy, pts):
        out.append(f'<rect x="{x - half + 1:.1f}" y="{y - half + 1:.1f}" width="{cell - 2}" height="{cell - 2}" fill="#9ecae1"/>')
    if len(pts) > 1:
        steps = chebyshev(pts[1:], pts[:-1])
        arrow_every = max(1, len(pts) // 12)
        for i in range(len(pts) - 1):
            (x1, y1), (x2, y2) = xy(pts[i]), xy(pts[i + 1])
            if steps[i] > 1:
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#d62728" '
                           f'stroke-width="2" stroke-dasharray="4 3"/>')
            else:
                marker = ' marker-end="url(#arr)"' if i % arrow_every == arrow_every // 2 else ""
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#1f4e9c" stroke-width="1.5"{marker}/>')
    for i in gaps:
        if 0 <= i < len(pts):
            x, y = xy(pts[i])
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.45:.1f}" fill="none" stroke="#d62728" stroke-width="1.5"/>')
    if len(pts):
        x, y = xy(pts[-1])
        out.append(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="#333"/>')
        x, y = xy(pts[0])
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.6:.1f}" fill="none" stroke="#2ca02c" stroke-width="2.5"/>')
    out.append("</svg>")
    return "\n".join(out)
