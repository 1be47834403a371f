"""Ideal drawings: what a perfect answer looks like, as ordered 8-connected grid points.

One function per shape, used everywhere an ideal is needed: the reference drawer answers with it,
the report overlays it, calibration and property tests start from it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import SupportsInt

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import nearest_sq
from shape_asserts.geometry.points import IntArray, Point
from shape_asserts.geometry.samples import ellipse_xy, spiral_samples

__all__ = [
    "raster_circle",
    "circle_pixels",
    "angle_of",
    "point_on_circle",
    "bresenham",
    "raster_polyline",
    "raster_curve",
    "raster_ellipse",
    "raster_spiral",
]

#: One grid cell, ``(x, y)``.
Cell = tuple[int, int]


def angle_of(point: Point, center: Point) -> float:
    """Angle of ``point`` about ``center`` in degrees, the seed post's convention.

    Measured in grid coordinates (y down): 0° points right and angles grow *clockwise on screen*,
    so the seed's starts about (25, 25) sit at (25, 1) → 270°, (46, 13) → ~330° ("~330°" in the
    post) and (4, 37) → ~150°. Result in [0, 360).
    """
    return math.degrees(math.atan2(point[1] - center[1], point[0] - center[0])) % 360.0


def point_on_circle(center: Point, radius: float, angle_deg: float) -> tuple[int, int]:
    """The grid point nearest to the circle point at ``angle_deg`` (see :func:`angle_of`)."""
    a = math.radians(angle_deg)
    return (
        int(round(center[0] + radius * math.cos(a))),
        int(round(center[1] + radius * math.sin(a))),
    )


def circle_pixels(center: tuple[int, int], radius: int) -> IntArray:
    """The midpoint-circle pixels of an integer circle, unordered, shape (M, 2)."""
    cx, cy = int(center[0]), int(center[1])
    r = int(radius)
    if r < 1:
        raise ValueError(f"radius must be at least 1, got {radius}")
    pts = set()
    x, y, d = r, 0, 1 - r
    while x >= y:
        for px, py in ((x, y), (y, x), (-y, x), (-x, y), (-x, -y), (-y, -x), (y, -x), (x, -y)):
            pts.add((cx + px, cy + py))
        y += 1
        if d < 0:
            d += 2 * y + 1
        else:
            x -= 1
            d += 2 * (y - x) + 1
    return np.array(sorted(pts), dtype=np.int64)


def raster_circle(
    center: tuple[int, int],
    radius: int,
    start: Point | None = None,
    direction: str = "cw",
) -> IntArray:
    """An ideal circle drawing: ordered, 8-connected, closed, one lap, no repeats.

    Parameters
    ----------
    center : (int, int)
        Integer grid center.
    radius : int
        Integer radius, at least 1.
    start : (float, float), optional
        The drawing starts at the raster point nearest to it (default: the top point).
    direction : {"cw", "ccw"}
        Direction of travel as seen on screen (y down).

    Returns
    -------
    ndarray, shape (N, 2), int64

    Examples
    --------
    >>> pts = raster_circle((25, 25), 24, start=(25, 1), direction="cw")
    >>> pts[0].tolist(), pts[1].tolist()
    ([25, 1], [26, 1])
    """
    if direction not in ("cw", "ccw"):
        raise ValueError(f"direction must be 'cw' or 'ccw', got {direction!r}")
    pix = circle_pixels(center, radius)
    # With y down the angle grows clockwise on screen, so ascending angle walks clockwise.
    ang = np.degrees(np.arctan2(pix[:, 1] - center[1], pix[:, 0] - center[0])) % 360.0
    order = np.argsort(ang, kind="stable")
    ring = pix[order]
    if direction == "ccw":
        ring = ring[::-1]
    return _roll_to(ring, start if start is not None else (center[0], center[1] - radius))


# --- lines, polygons and sampled curves (ellipse, spiral: geometry/samples.py) ------------------------


def bresenham(p0: Sequence[SupportsInt], p1: Sequence[SupportsInt]) -> IntArray:
    """The cells of the digital line from ``p0`` to ``p1``, both included, 8-connected, shape (K, 2).

    Examples
    --------
    >>> bresenham((0, 0), (4, 2)).tolist()
    [[0, 0], [1, 1], [2, 1], [3, 2], [4, 2]]
    """
    x0, y0 = int(p0[0]), int(p0[1])
    x1, y1 = int(p1[0]), int(p1[1])
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 >= x0 else -1), (1 if y1 >= y0 else -1)
    err = dx + dy
    out = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy and x0 != x1:
            err += dy
            x0 += sx
        if e2 <= dx and y0 != y1:
            err += dx
            y0 += sy
        out.append((x0, y0))
    return np.array(out, dtype=np.int64)


def raster_polyline(vertices: ArrayLike, *, closed: bool = True) -> IntArray:
    """An ordered 8-connected drawing through integer ``vertices`` along digital lines.

    Each vertex appears once, at its place in the order; a closed polyline ends one step before its
    first vertex (the closing step is implied, as in :func:`raster_circle`).

    Parameters
    ----------
    vertices : array_like, shape (K, 2)
        Integer grid vertices in drawing order (rounded if they are not integers).
    closed : bool
        Whether the last vertex joins the first.

    Returns
    -------
    ndarray, shape (N, 2), int64

    Examples
    --------
    >>> raster_polyline([(0, 0), (2, 0), (2, 2), (0, 2)]).tolist()
    [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2], [0, 1]]
    """
    v = np.rint(np.asarray(vertices, dtype=float)).astype(np.int64)
    if v.ndim != 2 or v.shape[1] != 2 or len(v) < 2:
        raise ValueError(f"vertices must have shape (K, 2) with K ≥ 2, got {v.shape}")
    ends = np.vstack([v, v[:1]]) if closed else v
    parts = [bresenham(tuple(a), tuple(b))[:-1] for a, b in zip(ends[:-1], ends[1:]) if tuple(a) != tuple(b)]
    if not closed:
        parts.append(v[-1:])
    return np.vstack(parts)


def raster_curve(xy: ArrayLike, *, closed: bool) -> IntArray:
    """A densely sampled float curve as an ideal drawing: ordered, 8-connected, thin, no revisits.

    Samples are rounded to cells; jumps are bridged with digital lines; a cell reached again cuts
    out the loop in between; a cell whose two neighbours touch each other (a staircase corner) is
    dropped. A closed curve ends next to its first cell.

    Parameters
    ----------
    xy : ndarray, shape (M, 2)
        Curve samples in drawing order, a fraction of a cell apart.
    closed : bool
        Whether the curve returns to its first sample.

    Returns
    -------
    ndarray, shape (N, 2), int64
    """
    cells = np.rint(np.asarray(xy, dtype=float)).astype(np.int64)
    if cells.ndim != 2 or cells.shape[1] != 2 or len(cells) == 0:
        raise ValueError(f"xy must have shape (M, 2) with M ≥ 1, got {cells.shape}")
    seq: list[Cell] = [(int(cells[0][0]), int(cells[0][1]))]
    for x, y in cells[1:].tolist():
        p = (x, y)
        if p == seq[-1]:
            continue
        if max(abs(p[0] - seq[-1][0]), abs(p[1] - seq[-1][1])) > 1:
            seq.extend((bx, by) for bx, by in bresenham(seq[-1], p)[1:].tolist())
        else:
            seq.append(p)
    if closed:
        if max(abs(seq[0][0] - seq[-1][0]), abs(seq[0][1] - seq[-1][1])) > 1:
            seq.extend((bx, by) for bx, by in bresenham(seq[-1], seq[0])[1:-1].tolist())
        while len(seq) > 1 and seq[-1] == seq[0]:
            seq.pop()
    # a cell met again closes a loop of rounding noise: cut the loop out. On a closed curve the lap
    # itself may come back round to an early cell (a thin ellipse's end rounds to two cells, met
    # at its start and again before its end): then the cells before that one are the noise
    out: list[Cell] = []
    where: dict[Cell, int] = {}
    for p in seq:
        if p in where and closed and 2 * (len(out) - where[p]) > len(out):
            out = out[where[p] :]
            where = {q: k for k, q in enumerate(out)}
        elif p in where:
            for q in out[where[p] + 1 :]:
                del where[q]
            del out[where[p] + 1 :]
        else:
            where[p] = len(out)
            out.append(p)
    # how far each cell is from the curve decides which of two staircase corners goes
    samples = np.asarray(xy, dtype=float)
    arr = np.array(out, dtype=float)
    far = nearest_sq(arr, samples)  # each cell's squared distance to the nearest sample, exact
    out = _thin(out, closed=closed, far=far.tolist())
    return np.array(out, dtype=np.int64)


def _touch(a: Cell, b: Cell) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


def _thin(seq: list[Cell], *, closed: bool, far: list[float]) -> list[Cell]:
    """Drop staircase corners (cells whose neighbours along the path already touch), farthest first.

    ``far[i]`` is how far cell ``i`` lies from the curve. Of two corners either of which could go,
    the one farther from the curve goes (ties: the earlier), so the result does not depend on
    where the path starts and a symmetric curve gives a symmetric drawing.
    """
    n = len(seq)
    prev = list(range(-1, n - 1))
    nxt = list(range(1, n + 1))
    if closed and n:
        prev[0], nxt[n - 1] = n - 1, 0
    alive = [True] * n
    count = n

    def removable(i: int) -> bool:
        if prev[i] < 0 or nxt[i] >= n:
            return False  # an open curve keeps its ends
        return _touch(seq[prev[i]], seq[nxt[i]])

    heap = [(-far[i], i) for i in range(n) if removable(i)]
    heapq.heapify(heap)
    while heap and not (closed and count <= 4):
        _, i = heapq.heappop(heap)
        if not alive[i] or not removable(i):
            continue
        alive[i] = False
        count -= 1
        p, q = prev[i], nxt[i]
        nxt[p], prev[q] = q, p
        for j in (p, q):
            if removable(j):
                heapq.heappush(heap, (-far[j], j))
    return [seq[i] for i in range(n) if alive[i]]


def _roll_to(ring: IntArray, start: Point | None) -> IntArray:
    if start is None:
        return ring
    d = np.hypot(ring[:, 0] - start[0], ring[:, 1] - start[1])
    return np.roll(ring, -int(np.argmin(d)), axis=0)


def raster_ellipse(
    center: Point,
    a: float,
    b: float,
    rotation: float = 0.0,
    start: Point | None = None,
    direction: str = "cw",
) -> IntArray:
    """An ideal ellipse drawing: ordered, 8-connected, closed, one lap, no repeats.

    Parameters
    ----------
    center : (float, float)
    a, b : float
        Semi-axes, ``a`` along ``rotation``; both at least 1.
    rotation : float
        Direction of the ``a`` axis in degrees (0° right, clockwise on screen).
    start : (float, float), optional
        The drawing starts at the cell nearest to it (default: the end of the ``a`` axis).
    direction : {"cw", "ccw"}

    Returns
    -------
    ndarray, shape (N, 2), int64

    Examples
    --------
    >>> pts = raster_ellipse((25, 25), 20, 10, start=(45, 25))
    >>> pts[0].tolist(), pts[1].tolist()
    ([45, 25], [45, 26])
    """
    if direction not in ("cw", "ccw"):
        raise ValueError(f"direction must be 'cw' or 'ccw', got {direction!r}")
    if a < 1 or b < 1:
        raise ValueError(f"semi-axes must be at least 1, got a={a}, b={b}")
    m = int(max(64, 16 * math.pi * (a + b)))  # ~8 samples per cell of perimeter
    ring = raster_curve(ellipse_xy(center, a, b, rotation, np.linspace(0, 2 * math.pi, m, endpoint=False)), closed=True)
    if direction == "ccw":
        ring = ring[::-1]
    ex, ey = ellipse_xy(center, a, b, rotation, [0.0])[0].tolist()
    return _roll_to(ring, start if start is not None else (ex, ey))


def raster_spiral(
    center: Point,
    spacing: float,
    turns: float,
    angle: float = 0.0,
    direction: str = "cw",
    *,
    inward: bool = False,
) -> IntArray:
    """An ideal Archimedean spiral drawing: ordered, 8-connected, open, no revisits.

    Parameters
    ----------
    center : (float, float)
        Where the spiral starts (outward) or ends (inward).
    spacing : float
        Distance between neighbouring laps, in cells (``2π b`` for ``r = bθ``).
    turns : float
        Number of laps.
    angle : float
        Polar angle of the outer end, degrees (0° right, clockwise on screen).
    direction : {"cw", "ccw"}
        The way the drawing turns as it travels, seen on screen.
    inward : bool
        Start at the outer end and wind in to the center.

    Returns
    -------
    ndarray, shape (N, 2), int64

    Examples
    --------
    >>> pts = raster_spiral((25, 25), 6, 3, angle=0)
    >>> pts[0].tolist(), pts[-1].tolist()
    ([25, 25], [43, 25])
    """
    if spacing <= 0 or turns <= 0:
        raise ValueError(f"spacing and turns must be positive, got {spacing}, {turns}")
    length = math.pi * spacing * turns * turns + 1.0  # ≈ arc length of r = bθ
    samples = spiral_samples(center, spacing, turns, angle, direction, int(max(200, 8 * length)), inward=inward)
    pts = raster_curve(samples, closed=False)
    return pts[::-1].copy() if inward else pts
