"""Polygons: vertices found by simplification, and the measures polygon scorers compare.

A drawn polygon is a run of grid cells; its corners are found with the Ramer–Douglas–Peucker
simplification (:func:`rdp`, :func:`simplify_closed`) and wrapped in a :class:`PolygonModel`, which
gives interior angles, side lengths, distances to its outline and samples along it, in the style
of :mod:`shape_asserts.geometry.fit`. Target shapes are made by :func:`regular_polygon` and
:func:`star_polygon`. Everything takes ``(N, 2)`` arrays of ``(x, y)`` with y pointing down, and
"clockwise" always means clockwise as seen on screen (:func:`shape_asserts.geometry.checks.signed_area` > 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shape_asserts.geometry.checks import as_points, signed_area
from shape_asserts.geometry.fit import FitFailure

__all__ = [
    "rdp",
    "simplify_closed",
    "segment_distances",
    "distance_to_polyline",
    "sample_polyline",
    "interior_angles",
    "side_lengths",
    "regular_polygon",
    "star_polygon",
    "PolygonModel",
    "vertex_cells",
    "corner_depths",
    "ROUNDING_REACH",
]


def _point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of each row of ``p`` (N, 2) from the segment ``a``–``b``, shape (N,)."""
    ab = b - a
    ap = p - a
    den = float(ab @ ab)
    if den == 0.0:
        return np.hypot(ap[:, 0], ap[:, 1])
    t = np.clip((ap @ ab) / den, 0.0, 1.0)
    d = ap - t[:, None] * ab
    return np.hypot(d[:, 0], d[:, 1])


def rdp(points: np.ndarray, epsilon: float) -> np.ndarray:
    """Indices of the points an open polyline keeps under Ramer–Douglas–Peucker simplification.

    A point is kept when it lies more than ``epsilon`` from the segment joining the kept points on
    either side. The first and last points are always kept. Ties go to the earlier point, so the
    result is the same for any isometry of integer input.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
    epsilon : float
        Largest deviation, in grid cells, that a straight side may have.

    Returns
    -------
    ndarray of int, shape (K,), ascending

    Examples
    --------
    >>> rdp(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]]), 0.5).tolist()
    [0, 2, 4]
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return np.arange(n)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        d = _point_segment_distance(pts[i + 1:j], pts[i], pts[j])
        k = int(np.argmax(d))
        if d[k] > epsilon:
            k += i + 1
            keep[k] = True
            stack.extend([(i, k), (k, j)])
    return np.flatnonzero(keep)


def simplify_closed(points: np.ndarray, epsilon: float, *, min_side: float = 0.0,
                    max_corners: int = 64) -> np.ndarray:
    """Indices of the corners of a closed contour, in drawing order.

    The contour is cut at its first point and at the point farthest from it (squared distances,
    exact for grid points), each half is simplified with :func:`rdp`, and then any kept point
    within ``epsilon`` of the segment joining its neighbours is dropped — so the cut points are
    corners only if the shape has corners there. Two corners closer than ``min_side`` are one
    corner cut off by the raster (a digital line meets a vertex in a short flat run): the flatter
    of the two goes. Each corner is finally moved to the point between its neighbours that lies
    farthest from their segment.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        A closed contour without its closing point (the last point joins the first implicitly).
    epsilon : float
    min_side : float
        Shortest side kept, in cells (0: any).
    max_corners : int
        A contour with more RDP corners than this is no polygon (a scribble, a filled area): its
        corners are returned as found, without the clean-up, which grows with their square.

    Returns
    -------
    ndarray of int, shape (K,), ascending
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 3:
        return np.arange(n)
    rel = pts - pts[0]
    far = int(np.argmax(rel[:, 0] ** 2 + rel[:, 1] ** 2))
    if far == 0:
        return np.array([0])
    first = rdp(pts[: far + 1], epsilon)
    second = rdp(np.vstack([pts[far:], pts[:1]]), epsilon) + far
    idx = [int(i) for i in np.concatenate([first, second[1:-1]])]
    if len(idx) > max_corners:
        return np.array(idx, dtype=np.int64)
    idx = _refine(pts, _drop_shallow(pts, idx, epsilon))
    # moving the corners onto the drawing's real corners can leave a cut point flat between two of
    # them (the point farthest from the start lies mid-side when the start is a corner): drop again
    idx = _refine(pts, _drop_shallow(pts, idx, epsilon))
    while min_side > 0 and len(idx) > 3:
        v = pts[idx]
        nxt = np.roll(v, -1, axis=0)
        side = np.hypot(*(nxt - v).T)
        j = int(np.argmin(side))
        if side[j] >= min_side:
            break
        k = len(idx)
        dev = [float(_point_segment_distance(pts[idx[m]:idx[m] + 1], pts[idx[m - 1]], pts[idx[(m + 1) % k]])[0])
               for m in (j, (j + 1) % k)]
        del idx[j if dev[0] <= dev[1] else (j + 1) % k]
        idx = _refine(pts, idx)
    return np.array(_merge_pairs(pts, idx, epsilon), dtype=np.int64)


def _merge_pairs(pts: np.ndarray, idx: list[int], epsilon: float) -> list[int]:
    """Two neighbouring corners that one corner between them explains within ``epsilon``, made one.

    RDP can straddle a blunt corner with two kept points a few cells either side of it, each deep
    enough to stay and each the other's neighbour, so moving them one at a time never finds the
    real corner; trying the pair together does.
    """
    n = len(pts)
    changed = True
    while changed and len(idx) > 3:
        changed = False
        k = len(idx)
        for j in range(k):
            a, d = idx[j - 1], idx[(j + 2) % k]
            span = (d - a) % n
            if span < 2:
                continue
            run = (a + np.arange(span + 1)) % n
            inner = run[1:-1]
            depth = _point_segment_distance(pts[inner], pts[a], pts[d])
            m = int(inner[int(np.argmax(depth))])
            left = (a + np.arange((m - a) % n + 1)) % n
            right = (m + np.arange((d - m) % n + 1)) % n
            fits = (_point_segment_distance(pts[left], pts[a], pts[m]).max() <= epsilon
                    and _point_segment_distance(pts[right], pts[m], pts[d]).max() <= epsilon)
            if fits and depth.max() > epsilon:
                b, c = idx[j], idx[(j + 1) % k]
                idx = sorted([i for i in idx if i not in (b, c)] + [m])
                changed = True
                break
    return idx


def _drop_shallow(pts: np.ndarray, idx: list[int], epsilon: float) -> list[int]:
    """Drop kept points that sit within ``epsilon`` of the segment of their neighbours, flattest first."""
    idx = list(idx)
    while len(idx) > 3:
        dev = corner_depths(pts[idx])
        k = int(np.argmin(dev))
        if dev[k] > epsilon:
            break
        del idx[k]
    return sorted(idx)


def corner_depths(v: np.ndarray) -> np.ndarray:
    """Distance of each vertex of a closed polygon from the segment joining its two neighbours, (K,).

    How far each corner stands out: a regular ``n``-gon's is ``R (1 − cos(2π/n))``.

    Examples
    --------
    >>> corner_depths(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])).round(3).tolist()
    [7.071, 7.071, 7.071, 7.071]
    """
    prev, nxt = np.roll(v, 1, axis=0), np.roll(v, -1, axis=0)
    ab, ap = nxt - prev, v - prev
    den = np.sum(ab * ab, axis=1)
    t = np.clip(np.sum(ap * ab, axis=1) / np.where(den > 0, den, 1.0), 0.0, 1.0)
    d = ap - t[:, None] * ab
    return np.hypot(d[:, 0], d[:, 1])


def _refine(pts: np.ndarray, idx: list[int], rounds: int = 4) -> list[int]:
    """Move each corner to the point between its neighbours farthest from their segment.

    RDP keeps the farthest point from the chord of *its* split, which on a side with two true
    corners can be a point beside one of them; measuring against the neighbouring corners puts it
    back on the corner. A tie keeps the current corner, so integer input stays isometry-invariant.
    """
    n, k = len(pts), len(idx)
    if k < 3:
        return idx
    idx = list(idx)
    for _ in range(rounds):
        moved = False
        for j in range(k):
            p, q = idx[j - 1], idx[(j + 1) % k]
            span = (q - p) % n
            if span < 2:
                continue
            cand = (p + 1 + np.arange(span - 1)) % n
            d = _point_segment_distance(pts[cand], pts[p], pts[q])
            best = int(cand[int(np.argmax(d))])
            here = float(_point_segment_distance(pts[idx[j]:idx[j] + 1], pts[p], pts[q])[0])
            if float(d.max()) > here and best != idx[j]:
                idx[j] = best
                moved = True
        if not moved:
            break
    # corners keep their cyclic order; report them ascending from the smallest index
    return sorted(idx)


def segment_distances(points: np.ndarray, vertices: np.ndarray, *, closed: bool = True) -> np.ndarray:
    """Distance of each point from each side of a polyline, shape (N, K) (K sides)."""
    pts = as_points(points)
    v = as_points(vertices)
    ends = np.vstack([v, v[:1]]) if closed else v
    if len(ends) < 2:
        d = pts - v[0]
        return np.hypot(d[:, 0], d[:, 1])[:, None]
    a, b = ends[:-1], ends[1:]  # (K, 2)
    ab = b - a
    den = np.sum(ab * ab, axis=1)
    ap = pts[:, None, :] - a[None, :, :]  # (N, K, 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(den > 0, np.sum(ap * ab[None], axis=2) / np.where(den > 0, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    d = ap - t[..., None] * ab[None]
    return np.hypot(d[..., 0], d[..., 1])


def distance_to_polyline(points: np.ndarray, vertices: np.ndarray, *, closed: bool = True,
                         chunk: int = 512) -> np.ndarray:
    """Distance of each point from the nearest point of a polyline's outline, shape (N,).

    Computed in chunks of points so a long curve sampled densely stays within memory.
    """
    pts = as_points(points)
    if len(pts) == 0:
        return np.zeros(0)
    out = [segment_distances(pts[i:i + chunk], vertices, closed=closed).min(axis=1)
           for i in range(0, len(pts), chunk)]
    return np.concatenate(out)


def sample_polyline(vertices: np.ndarray, *, closed: bool = True, step: float = 1.0) -> np.ndarray:
    """Points along a polyline at most ``step`` apart, vertices included, shape (M, 2)."""
    v = as_points(vertices)
    if len(v) == 0:
        return v
    ends = np.vstack([v, v[:1]]) if closed else v
    a, b = ends[:-1], ends[1:]
    # pieces per side; the slack keeps a side of 10.000000000000002 cells from getting 11 pieces
    k = np.maximum(1, np.ceil(np.hypot(*(b - a).T) / step - 1e-9)).astype(int)
    side = np.repeat(np.arange(len(a)), k)
    frac = (np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)) / np.repeat(k, k)
    out = a[side] + frac[:, None] * (b - a)[side]
    return out if closed else np.vstack([out, ends[-1:]])


def side_lengths(vertices: np.ndarray) -> np.ndarray:
    """Lengths of the sides of a closed polygon, side ``i`` joining vertex ``i`` to ``i + 1``, (K,)."""
    v = as_points(vertices)
    d = np.roll(v, -1, axis=0) - v
    return np.hypot(d[:, 0], d[:, 1])


def interior_angles(vertices: np.ndarray) -> np.ndarray:
    """Interior angle at each vertex of a closed polygon, degrees, shape (K,).

    Measured on the polygon's inside whichever way it is drawn, so a convex corner is below 180°
    and the inner corners of a star above it.

    Examples
    --------
    >>> interior_angles(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])).tolist()
    [90.0, 90.0, 90.0, 90.0]
    """
    v = as_points(vertices)
    if len(v) < 3:
        return np.zeros(len(v))
    e1 = v - np.roll(v, 1, axis=0)
    e2 = np.roll(v, -1, axis=0) - v
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    dot = np.sum(e1 * e2, axis=1)
    turn = np.degrees(np.arctan2(cross, dot))
    # clockwise on screen turns positively; a counter-clockwise polygon turns the other way
    sign = 1.0 if signed_area(v) >= 0 else -1.0
    return 180.0 - sign * turn


def regular_polygon(center: tuple[float, float], radius: float, n: int, rotation: float = 270.0) -> np.ndarray:
    """Vertices of a regular ``n``-gon, clockwise on screen from the one at ``rotation``, (n, 2).

    ``rotation`` is the polar angle of vertex 0 in degrees (0° right, growing clockwise on screen;
    270° is straight up).

    Examples
    --------
    >>> np.round(regular_polygon((25, 25), 10, 4), 6).tolist()
    [[25.0, 15.0], [35.0, 25.0], [25.0, 35.0], [15.0, 25.0]]
    """
    ang = np.radians(rotation + 360.0 * np.arange(n) / n)
    return np.column_stack([center[0] + radius * np.cos(ang), center[1] + radius * np.sin(ang)])


def star_polygon(center: tuple[float, float], outer: float, inner: float, n: int,
                 rotation: float = 270.0) -> np.ndarray:
    """Vertices of an ``n``-pointed star, alternating outer tip and inner corner, (2n, 2).

    Vertex 0 is the tip at polar angle ``rotation``; the order is clockwise on screen.
    """
    ang = np.radians(rotation + 180.0 * np.arange(2 * n) / n)
    r = np.where(np.arange(2 * n) % 2 == 0, outer, inner)
    return np.column_stack([center[0] + r * np.cos(ang), center[1] + r * np.sin(ang)])


@dataclass(frozen=True, eq=False)
class PolygonModel:
    """A closed polygon: ``vertices`` (K, 2) in drawing order, and where they came from.

    ``indices`` are the positions of the vertices in the drawing they were estimated from (empty
    for a polygon built from named geometry).

    Examples
    --------
    >>> from shape_asserts.geometry.raster import raster_polyline
    >>> m = PolygonModel.from_estimate(raster_polyline([(10, 10), (40, 10), (40, 40), (10, 40)]))
    >>> m.vertices.tolist(), m.angles().tolist()
    ([[10.0, 10.0], [40.0, 10.0], [40.0, 40.0], [10.0, 40.0]], [90.0, 90.0, 90.0, 90.0])
    """

    vertices: np.ndarray
    indices: tuple[int, ...] = ()

    @classmethod
    def from_estimate(cls, points: np.ndarray, epsilon: float = 1.5,
                      min_side: float | None = None) -> "PolygonModel | FitFailure":
        """The corners of a closed drawing by :func:`simplify_closed`.

        ``min_side`` defaults to ``3 × epsilon``: a side shorter than that is a raster's cut corner.

        Consecutive repeated points and a closing point equal to the first are dropped first, so
        they cannot become corners. A falsy :class:`~shape_asserts.geometry.fit.FitFailure` when fewer than
        3 corners remain.
        """
        pts = as_points(points)
        if len(pts) == 0:
            return FitFailure("no points")
        keep = np.ones(len(pts), dtype=bool)
        keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
        idx = np.flatnonzero(keep)
        if len(idx) > 1 and np.all(pts[idx[-1]] == pts[idx[0]]):
            idx = idx[:-1]
        side = 3.0 * epsilon if min_side is None else min_side
        corners = idx[simplify_closed(pts[idx], epsilon, min_side=side)]
        if len(corners) < 3:
            return FitFailure(f"only {len(corners)} corner(s): the points lie along a line")
        return cls(vertices=pts[corners].copy(), indices=tuple(int(i) for i in corners))

    @property
    def n(self) -> int:
        return int(len(self.vertices))

    def angles(self) -> np.ndarray:
        """Interior angles in degrees (see :func:`interior_angles`)."""
        return interior_angles(self.vertices)

    def sides(self) -> np.ndarray:
        """Side lengths (see :func:`side_lengths`)."""
        return side_lengths(self.vertices)

    def residuals(self, points: np.ndarray) -> np.ndarray:
        """Distance of each point from the outline, shape (N,)."""
        return distance_to_polyline(points, self.vertices, closed=True)

    def predict_xy(self, t: np.ndarray) -> np.ndarray:
        """Points of the outline at ``t`` ∈ [0, 1) of the perimeter from vertex 0, shape (len(t), 2)."""
        t = np.asarray(t, dtype=float) % 1.0
        sides = self.sides()
        cum = np.concatenate([[0.0], np.cumsum(sides)])
        s = t * cum[-1]
        k = np.clip(np.searchsorted(cum, s, side="right") - 1, 0, self.n - 1)
        frac = np.where(sides[k] > 0, (s - cum[k]) / np.where(sides[k] > 0, sides[k], 1.0), 0.0)
        a = self.vertices[k]
        b = self.vertices[(k + 1) % self.n]
        return a + frac[:, None] * (b - a)

    def __bool__(self) -> bool:
        return True



#: How far from an exact coordinate a cell may lie and still be a fair rounding of it: both the
#: floor and the ceiling of 3.4 are (0.4 and 0.6 away), only 3 is for 3.2 (4 is 0.8 away).
ROUNDING_REACH = 0.75


def vertex_cells(vertices: np.ndarray, reach: float = ROUNDING_REACH) -> list[np.ndarray]:
    """The cells each exact vertex may fairly be rounded to: one, two or four per vertex.

    Per coordinate, the floor and the ceiling each count when they lie within ``reach`` of the
    exact value (the nearest integer always counts); a vertex's cells are their combinations.

    Parameters
    ----------
    vertices : ndarray, shape (K, 2)
    reach : float

    Returns
    -------
    list of K ndarrays, each of shape (M, 2), M in {1, 2, 4}

    Examples
    --------
    >>> [c.tolist() for c in vertex_cells(np.array([[10.0, 10.2], [10.5, 3.0]]))]
    [[[10.0, 10.0]], [[10.0, 3.0], [11.0, 3.0]]]
    """
    v = as_points(vertices).astype(float)
    out = []
    for x, y in v:
        xs = [c for c in (np.floor(x), np.ceil(x)) if abs(c - x) <= reach] or [float(np.rint(x))]
        ys = [c for c in (np.floor(y), np.ceil(y)) if abs(c - y) <= reach] or [float(np.rint(y))]
        out.append(np.unique(np.array([(a, b) for a in xs for b in ys], dtype=float), axis=0))
    return out
