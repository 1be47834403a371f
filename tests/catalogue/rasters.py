"""Fair rasterisations of an exact curve, and the defects a person would see, from geometry alone.

The property tests of the verdicts (``tests/validity``) draw an exact shape's parameters from the
prompt, rasterise it by any fair method here, and expect a pass; then they put one defect at a
random place and size and expect a fail. Like the rest of the catalogue, nothing here imports the
project's scorers or rasterisers: a method the project's code wrote cannot prove that code right.

A cell ``(i, j)`` is the unit square centred on the integer point ``(i, j)``. A *curve* is a list of
float points, dense along the exact shape in drawing order (start first, the asked direction):
:func:`circle_curve`, :func:`polyline_curve` and friends make one. Every method returns integer
cells in drawing order with no cell repeated twice in a row.

Methods, each a way a careful person (or program) could draw the curve on the grid:

* ``supercover`` — every cell the curve passes through (4-connected stair steps);
* ``rounded`` — points one cell apart along the curve, each rounded to its cell; a jump is filled
  by a straight run of cells;
* ``thin`` — the supercover with every L-corner cell dropped (8-connected, no corner cut twice);
* ``keypoints`` — the curve's points every ``k``-th of its length, rounded, joined by straight
  runs of cells (Bresenham): a polygon inscribed in a curve, as a person plotting every 10° does;
* ``dda`` — the keypoints joined by a DDA line (each step rounded along the longer axis).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Cell = tuple[int, int]
Pt = tuple[float, float]

METHODS = ("supercover", "rounded", "thin", "keypoints", "dda")

#: Half a cell's diagonal: how far the centre of a cell the curve passes through can lie from it.
HALF_DIAGONAL = math.sqrt(2) / 2


def _round(v: float) -> int:
    """Half away from zero would favour one side of the grid; half up is the PHP/JS habit."""
    return math.floor(v + 0.5)


def _cell(p: Pt) -> Cell:
    return (_round(p[0]), _round(p[1]))


def _dedupe(cells: Sequence[Cell]) -> list[Cell]:
    out: list[Cell] = []
    for c in cells:
        if not out or out[-1] != c:
            out.append(c)
    return out


# --- exact curves ------------------------------------------------------------------------------


def circle_curve(cx: float, cy: float, r: float, start_deg: float, clockwise: bool, *, step: float = 0.02) -> list[Pt]:
    """The circle from its start angle (screen degrees: 0 right, 90 down) round once, ``step`` cells apart."""
    n = max(8, math.ceil(2 * math.pi * r / step))
    sign = 1 if clockwise else -1  # y points down: clockwise on screen is a growing angle
    a0 = math.radians(start_deg)
    out = [
        (cx + r * math.cos(a0 + sign * 2 * math.pi * k / n), cy + r * math.sin(a0 + sign * 2 * math.pi * k / n))
        for k in range(n)
    ]
    # closed on the very start point: a start half a cell from two cells must round the same both times
    return out + [out[0]]


def ellipse_curve(
    cx: float, cy: float, a: float, b: float, tilt_deg: float, start_deg: float, clockwise: bool, *, step: float = 0.02
) -> list[Pt]:
    """The ellipse (semi-axes ``a`` along ``tilt_deg``, ``b`` across) from parameter angle ``start_deg`` round once."""
    n = max(8, math.ceil(2 * math.pi * max(a, b) / step))
    sign = 1 if clockwise else -1
    c, s = math.cos(math.radians(tilt_deg)), math.sin(math.radians(tilt_deg))
    out = []
    for k in range(n):
        t = math.radians(start_deg) + sign * 2 * math.pi * k / n
        u, v = a * math.cos(t), b * math.sin(t)
        out.append((cx + u * c - v * s, cy + u * s + v * c))
    # closed on the very start point (as the circle's): a 5-wide ellipse turned 30° starts at x + 2.5
    return out + [out[0]]


def polyline_curve(vertices: Sequence[Pt], *, closed: bool, step: float = 0.02) -> list[Pt]:
    """The straight sides through ``vertices`` in order (back to the first when ``closed``)."""
    verts = list(vertices) + ([vertices[0]] if closed else [])
    out: list[Pt] = [verts[0]]
    for (x0, y0), (x1, y1) in zip(verts, verts[1:]):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(1, n + 1)]
    return out


def spiral_curve(
    cx: float,
    cy: float,
    r0: float,
    pitch: float,
    turns: float,
    end_deg: float,
    clockwise: bool,
    outward: bool,
    *,
    step: float = 0.02,
) -> list[Pt]:
    """The Archimedean spiral r = r0 + pitch·θ/2π over ``turns`` laps, ending (outward) or starting
    (inward) at the outer end at screen angle ``end_deg``."""
    total = 2 * math.pi * turns
    sign = 1 if clockwise else -1
    length = math.pi * turns * (2 * r0 + pitch * turns)  # mean radius × angle swept
    n = max(16, math.ceil(length / step))
    outer = math.radians(end_deg)
    pts = []
    for k in range(n + 1):
        theta = total * k / n  # angle swept from the centre end
        r = r0 + pitch * theta / (2 * math.pi)
        a = outer - sign * (total - theta)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts if outward else pts[::-1]


# --- fair rasterisations -----------------------------------------------------------------------


def line_cells(a: Cell, b: Cell) -> list[Cell]:
    """Bresenham's cells from ``a`` to ``b``, both included."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err = dx + dy
    out = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        out.append((x0, y0))
    return out


def dda_cells(a: Cell, b: Cell) -> list[Cell]:
    """A DDA line: one cell per step along the longer axis, the other coordinate rounded."""
    (x0, y0), (x1, y1) = a, b
    n = max(abs(x1 - x0), abs(y1 - y0))
    if n == 0:
        return [a]
    return [(_round(x0 + (x1 - x0) * k / n), _round(y0 + (y1 - y0) * k / n)) for k in range(n + 1)]


def _joined(points: Sequence[Pt], join=line_cells) -> list[Cell]:
    cells = [_cell(p) for p in points]
    out: list[Cell] = [cells[0]]
    for a, b in zip(cells, cells[1:]):
        out += join(a, b)[1:]
    return _dedupe(out)


def _every(curve: Sequence[Pt], spacing: float) -> list[Pt]:
    """Points along the curve about ``spacing`` apart (by arc length), first and last included."""
    out = [curve[0]]
    run = 0.0
    for p, q in zip(curve, curve[1:]):
        run += math.dist(p, q)
        if run >= spacing:
            out.append(q)
            run = 0.0
    if out[-1] != curve[-1]:
        out.append(curve[-1])
    return out


def _without_l_corners(cells: list[Cell]) -> list[Cell]:
    out = list(cells)
    i = 1
    while i < len(out) - 1:
        (ax, ay), (bx, by) = out[i - 1], out[i + 1]
        if abs(ax - bx) == 1 and abs(ay - by) == 1:
            del out[i]  # the corner of an L: its neighbours touch diagonally
        else:
            i += 1
    return out


def without_out_and_back(cells: list[Cell], *, closed: bool = False) -> list[Cell]:
    """``cells`` without a step out and back: where the curve enters a cell and turns back into the
    cell it came from (a tip sharper than a cell: a thin ellipse's, a star's), the path goes on
    from the tip cell when the next cell touches it (the return is left out), else it leaves the
    tip out; a tip of two cells entered and left back the same way is left out. Every cell is
    still one the curve passes through. For a contour that must not come back over its cells (an
    ellipse's); a polygon's vertex cell is drawn, whichever way back. When ``closed``, the ring is
    cleaned across its seam too and still starts on its first cell (repeated at the end or not).
    """
    if not closed:
        return _cleaned(cells)
    repeated = len(cells) > 1 and cells[-1] == cells[0]
    ring = list(cells[:-1] if repeated else cells)
    start = ring[0] if ring else None
    # cleaned as a run closed on its start, then from half way round (the first run's seam then
    # lies inside the second), then turned back to start where it did
    for _ in range(2):
        if len(ring) < 4:
            return list(cells)
        half = len(ring) // 2
        ring = _cleaned(ring[half:] + ring[:half] + ring[half : half + 1])[:-1]
    at = ring.index(start) if start in ring else 0
    out = ring[at:] + ring[:at]
    return out + [out[0]] if repeated else out


def _cleaned(cells: Sequence[Cell]) -> list[Cell]:
    out: list[Cell] = []
    for k, c in enumerate(cells):
        if len(out) >= 3 and out[-3] == c:
            del out[-2:]  # two cells stepped into and back out of: left out
            continue
        if len(out) >= 2 and out[-2] == c:
            after = cells[k + 1] if k + 1 < len(cells) else None
            tip = out[-1]
            if after is not None and max(abs(tip[0] - after[0]), abs(tip[1] - after[1])) <= 1:
                continue  # go on from the tip
            out.pop()  # leave the tip out
        else:
            out.append(c)
    return out


def rasterise(
    curve: Sequence[Pt], method: str, *, keypoints: int = 36, closed: bool = True, repeat_start: bool = False
) -> list[Cell]:
    """``curve`` on the grid by ``method`` (one of :data:`METHODS`).

    ``keypoints`` is how many points the ``keypoints`` and ``dda`` methods take round the curve.
    For a closed curve the last cell is dropped when it repeats the first, unless ``repeat_start``.
    """
    if method == "supercover":
        cells = _dedupe([_cell(p) for p in curve])
    elif method == "rounded":
        cells = _joined(_every(curve, 1.0))
    elif method == "thin":
        cells = _without_l_corners(_dedupe([_cell(p) for p in curve]))
    elif method in ("keypoints", "dda"):
        length = sum(math.dist(p, q) for p, q in zip(curve, curve[1:]))
        cells = _joined(_every(curve, length / keypoints), line_cells if method == "keypoints" else dda_cells)
    else:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if closed and len(cells) > 1:
        if cells[-1] == cells[0] and not repeat_start:
            cells = cells[:-1]
        elif cells[-1] != cells[0] and repeat_start:
            cells = cells + [cells[0]]
    return cells


# --- defects a person would see ----------------------------------------------------------------


def _normal(cells: Sequence[Cell], at: int) -> Cell:
    """The grid step across the path at ``at`` (left of the direction of travel), one of the eight:
    on a diagonal stretch the diagonal step, so a defect stands straight off the path, never along it."""
    (x0, y0), (x1, y1) = cells[max(0, at - 1)], cells[min(len(cells) - 1, at + 1)]
    nx, ny = y1 - y0, -(x1 - x0)
    # tan 22.5° ≈ 0.414: within that of an axis the step is along the axis, else diagonal
    sx = (1 if nx > 0 else -1) if abs(nx) > 0.414 * abs(ny) else 0
    sy = (1 if ny > 0 else -1) if abs(ny) > 0.414 * abs(nx) else 0
    return (sx, sy)


def spike(cells: Sequence[Cell], at: int, length: int, *, outward: bool = True) -> list[Cell]:
    """A spike ``length`` cells straight out from ``cells[at]`` and back along the same cells."""
    nx, ny = _normal(cells, at)
    s = 1 if outward else -1
    x, y = cells[at]
    out_cells = [(x + s * nx * k, y + s * ny * k) for k in range(1, length + 1)]
    return list(cells[: at + 1]) + out_cells + out_cells[-2::-1] + [cells[at]] + list(cells[at + 1 :])


def tab(cells: Sequence[Cell], at: int, width: int, height: int, *, outward: bool = True) -> list[Cell]:
    """A rectangular detour: ``height`` cells out, ``width`` along, back in, replacing the path between."""
    nx, ny = _normal(cells, at)
    s = 1 if outward else -1
    end = min(len(cells) - 1, at + width)
    (x, y), (ex, ey) = cells[at], cells[end]
    up = [(x + s * nx * k, y + s * ny * k) for k in range(1, height + 1)]
    top = line_cells(up[-1], (ex + s * nx * height, ey + s * ny * height))[1:]
    down = [(ex + s * nx * k, ey + s * ny * k) for k in range(height - 1, 0, -1)]
    return _dedupe(list(cells[: at + 1]) + up + top + down + list(cells[end:]))


def gap(cells: Sequence[Cell], at: int, length: int) -> list[Cell]:
    """``length`` cells left out from ``at`` on (a hole in the outline)."""
    return list(cells[:at]) + list(cells[at + length :])


def shifted(cells: Sequence[Cell], dx: int, dy: int) -> list[Cell]:
    """The same cells moved by ``(dx, dy)`` (a detached or misplaced part)."""
    return [(x + dx, y + dy) for x, y in cells]


# --- polygons drawn through keypoints ----------------------------------------------------------


def polygon_keypoints(vertices: Sequence[Pt], per_side: int) -> list[Pt]:
    """Every vertex and ``per_side`` points evenly along each side, in order, back to the first
    vertex: what a person plotting a polygon's corners (and a few points on each side) marks."""
    m = len(vertices)
    out: list[Pt] = []
    for i in range(m):
        (x0, y0), (x1, y1) = vertices[i], vertices[(i + 1) % m]
        out += [(x0 + (x1 - x0) * k / (per_side + 1), y0 + (y1 - y0) * k / (per_side + 1)) for k in range(per_side + 1)]
    return out + [vertices[0]]


def ellipse_keypoints(
    cx: float, cy: float, a: float, b: float, tilt_deg: float, start_deg: float, clockwise: bool, count: int
) -> list[Pt]:
    """``count`` points evenly spaced in the parametric angle from ``start_deg`` round once, back to
    the first: what a person plotting an ellipse "every 10°" computes, ``(a cos t, b sin t)`` turned.

    Points evenly spaced along the *length* (``rasterise``'s ``keypoints``) are fair on a circle but
    not on a thin ellipse: 24 of them on 22 × 6 are 4 cells apart, and the chord across the tip
    (curvature radius b²/a = 1.6) cuts it by 1.3 cells. Spaced in ``t``, they crowd at the tips.
    """
    sign = 1 if clockwise else -1
    c, s = math.cos(math.radians(tilt_deg)), math.sin(math.radians(tilt_deg))
    out = []
    for k in range(count):
        t = math.radians(start_deg) + sign * 2 * math.pi * k / count
        u, v = a * math.cos(t), b * math.sin(t)
        out.append((cx + u * c - v * s, cy + u * s + v * c))
    return out + [out[0]]


def keypoint_cells(points: Sequence[Pt], method: str = "keypoints", *, repeat_start: bool = False) -> list[Cell]:
    """Closed ``points`` (the first repeated last) rounded and joined by Bresenham (``keypoints``)
    or DDA (``dda``) lines; the start cell repeated at the end only when ``repeat_start``."""
    cells = _joined(points, line_cells if method == "keypoints" else dda_cells)
    if cells[-1] == cells[0] and not repeat_start:
        cells = cells[:-1]
    elif cells[-1] != cells[0] and repeat_start:
        cells = cells + [cells[0]]
    return cells
