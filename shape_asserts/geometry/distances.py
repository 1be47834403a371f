"""Distances: between points, from points to segments and polylines, and between whole drawings.

Each distance is written once here and used by every check, fit and family that needs it. Grid
distances are Chebyshev (8-connectivity: a diagonal neighbour is 1 away); distances to a shape
are Euclidean, in cells.

Nearest distances are exact. Both drawings are cut into small compact groups, each with its
bounding box; a group of rows is held to the other drawing's groups nearest first, and stops once
the next group's box lies farther than every row's least distance found (:func:`_near_first`).
A path's neighbours are near, and a far row finds its nearest group soon: an exact spiral of
10,000 cells, or 10,000 random points held to a spiral of thousands of sides, is measured in a
fraction of a second instead of tens of seconds. Pairs are taken in blocks of rows
(:data:`_BLOCK_PAIRS` at a time) so that memory stays bounded: a hostile answer of 10,000 points
is scored in well under a second (``bench/hostile_cost.py``), and needs no more than a few
megabytes at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points

__all__ = [
    "chebyshev",
    "closure_distance",
    "point_chebyshev",
    "segment_step_xy",
    "nearest_on_segment",
    "segment_distance",
    "distance_to_polyline",
    "sample_polyline",
    "nearest_sq",
    "nearest_distance",
    "min_distance",
    "cell_distance",
    "chamfer_distance",
    "likeness",
    "similarity",
    "Outline",
]

#: Pairs measured at once by the all-pairs searches: each temporary array of a block is 512 KB,
#: so a search of 10,000 × 1,000 pairs holds a few MB at a time, never the whole 80 MB.
_BLOCK_PAIRS = 65_536
#: Rows of a nearest search held together to the other drawing (:func:`_near_first`).
_RUN_ROWS = 64
#: Rows (or sides) of the other drawing in one of its groups, each group with its bounding box.
_GROUP_ROWS = 256


def chebyshev(a: ArrayLike, b: ArrayLike) -> FloatArray:
    """Chebyshev (8-connectivity) distance between rows of ``a`` and ``b``.

    Examples
    --------
    >>> chebyshev([[0, 0], [1, 1]], [[3, 1], [1, 1]]).tolist()
    [3.0, 0.0]
    """
    diff = np.asarray(a, float) - np.asarray(b, float)
    d: FloatArray = np.max(np.abs(diff), axis=-1)
    return d


def closure_distance(points: ArrayLike) -> float:
    """Chebyshev distance from the last point back to the first (≤ 1 means closed); ``inf`` when empty.

    Examples
    --------
    >>> closure_distance([[0, 0], [5, 0], [1, 1]])
    1.0
    """
    pts = as_points(points)
    if len(pts) == 0:
        return float("inf")
    return point_chebyshev(pts[-1].tolist(), pts[0].tolist())


def point_chebyshev(p: Sequence[float], q: Sequence[float]) -> float:
    """:func:`chebyshev` of two points in Python floats, the same number: the same IEEE differences,
    the larger of the two, NaN when either is (as numpy's maximum gives it; Python's max would not)."""
    dx, dy = abs(float(p[0]) - float(q[0])), abs(float(p[1]) - float(q[1]))
    return float("nan") if dx != dx or dy != dy else max(dx, dy)


def segment_step_xy(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> tuple[float, float, float]:
    """One point and one segment in plain floats: the step ``(dx, dy)`` to ``(px, py)`` from the
    segment's nearest point and that point's place ``t`` (0..1) along it — :func:`nearest_on_segment`'s
    expression term by term (so the same floats, but perhaps a zero's sign, which ``hypot`` ignores)."""
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    den = abx * abx + aby * aby
    # a segment of no length is its one point; clipped to 0..1 as np.clip: a nan stays nan
    t = (apx * abx + apy * aby) / (den if den > 0 else 1.0)
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    return apx - t * abx, apy - t * aby, t


def nearest_on_segment(points: ArrayLike, a: ArrayLike, b: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Distance of each point from the segment ``a``–``b`` and where its nearest point lies on it.

    Parameters
    ----------
    points : array_like, shape (..., 2)
    a, b : array_like, shape (..., 2)
        The segments' ends, broadcast against ``points`` (one segment, or one per point, or
        every point against every segment with ``points[:, None]`` and ``a[None]``).

    Returns
    -------
    distance, t : ndarray, shape (...)
        ``t`` in [0, 1] from ``a`` to ``b`` (0 for a segment of no length).

    Examples
    --------
    >>> d, t = nearest_on_segment([[1, 1], [5, 0]], [0, 0], [2, 0])
    >>> d.tolist(), t.tolist()
    ([1.0, 3.0], [0.5, 1.0])
    """
    p = np.asarray(points, dtype=float)
    start = np.asarray(a, dtype=float)
    end = np.asarray(b, dtype=float)
    abx, aby = end[..., 0] - start[..., 0], end[..., 1] - start[..., 1]
    apx, apy = p[..., 0] - start[..., 0], p[..., 1] - start[..., 1]
    den = abx * abx + aby * aby
    # a segment of no length is its one point: every projection lands on its start
    t = np.clip((apx * abx + apy * aby) / np.where(den > 0, den, 1.0), 0.0, 1.0)
    dist: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
    return dist, t


def segment_distance(points: ArrayLike, a: ArrayLike, b: ArrayLike) -> FloatArray:
    """Distance of each row of ``points`` (M, 2) from the segment ``a``–``b``, shape (M,).

    Examples
    --------
    >>> segment_distance([[1, 1], [5, 0], [-3, 4]], [0, 0], [2, 0]).tolist()
    [1.0, 3.0, 5.0]
    """
    return nearest_on_segment(points, a, b)[0]


def _block_rows(columns: int) -> int:
    """Rows of a block of about :data:`_BLOCK_PAIRS` pairs, each row against ``columns`` others."""
    return max(1, _BLOCK_PAIRS // max(1, columns))


def distance_to_polyline(points: ArrayLike, vertices: ArrayLike, *, closed: bool = True) -> FloatArray:
    """Distance of each point from the nearest point of a polyline's outline, shape (N,).

    Exact (:func:`_near_first`): the sides are grouped by where they lie, and no point of a side
    is nearer to a point than the gap between their groups' bounding boxes; a block of points at
    a time (bounded memory). Held to every side, an answer to a spiral of thousands of sides on a
    grid of 1,000 took tens of seconds to score.

    Examples
    --------
    >>> distance_to_polyline([[5, 5], [12, 0]], [[0, 0], [10, 0], [10, 10], [0, 10]]).tolist()
    [5.0, 2.0]
    """
    pts = as_points(points)
    v = as_points(vertices)
    ends = np.vstack([v, v[:1]]) if closed else v
    if len(ends) < 2:
        # one vertex: a side of no length, which measures the distance to that point
        ends = np.vstack([v[:1], v[:1]])
    a, b = ends[:-1], ends[1:]
    low_side, high_side = np.minimum(a, b), np.maximum(a, b)
    groups = [(low_side[k].min(axis=0), high_side[k].max(axis=0), k) for k in _compact_groups((a + b) / 2, _GROUP_ROWS)]
    return _near_first(pts, groups, lambda rows, k: _to_sides(rows, a[k], b[k]), np.hypot)


def _to_sides(pts: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Each point's least distance to the sides ``a[k]``–``b[k]`` (``inf`` for none), a block of
    points at a time."""
    if len(a) == 0:
        return np.full(len(pts), np.inf)
    out = np.empty(len(pts))
    rows = _block_rows(len(a))
    for i in range(0, len(pts), rows):
        out[i : i + rows] = nearest_on_segment(pts[i : i + rows, None, :], a[None], b[None])[0].min(axis=1)
    return out


def sample_polyline(vertices: ArrayLike, *, closed: bool = True, step: float = 1.0) -> FloatArray:
    """Points along a polyline at most ``step`` apart, vertices included, shape (M, 2).

    Examples
    --------
    >>> sample_polyline([[0, 0], [2, 0]], closed=False).tolist()
    [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    """
    v = as_points(vertices)
    if len(v) == 0:
        return v
    ends = np.concatenate((v, v[:1])) if closed else v
    a, b = ends[:-1], ends[1:]
    ab = b - a
    # pieces per side; the slack keeps a side of 10.000000000000002 cells from getting 11 pieces
    k = np.maximum(1, np.ceil(np.hypot(ab[:, 0], ab[:, 1]) / step - 1e-9)).astype(int)
    side = np.arange(len(a)).repeat(k)
    kk = k.cumsum()
    frac = (np.arange(int(kk[-1]) if len(kk) else 0) - (kk - k).repeat(k)) / k.repeat(k)
    out = a[side] + frac[:, None] * ab[side]
    return out if closed else np.concatenate((out, ends[-1:]))


def _squared(dx: FloatArray, dy: FloatArray) -> FloatArray:
    out: FloatArray = dx * dx + dy * dy
    return out


def _larger_step(dx: FloatArray, dy: FloatArray) -> FloatArray:
    out: FloatArray = np.maximum(np.abs(dx), np.abs(dy))
    return out


def _all_pairs(q: FloatArray, b: FloatArray, measure: Callable[[FloatArray, FloatArray], FloatArray]) -> FloatArray:
    """Each row of ``q``'s least ``measure(dx, dy)`` over every row of ``b``, a block of rows at a
    time (``inf`` when ``b`` is empty)."""
    if len(b) == 0:
        return np.full(len(q), np.inf)
    bx, by = b[None, :, 0], b[None, :, 1]
    out = np.empty(len(q))
    rows = _block_rows(len(b))
    for i in range(0, len(q), rows):
        dx = q[i : i + rows, 0, None] - bx
        dy = q[i : i + rows, 1, None] - by
        out[i : i + rows] = measure(dx, dy).min(axis=1)
    return out


def _nearest(q: FloatArray, b: FloatArray, measure: Callable[[FloatArray, FloatArray], FloatArray]) -> FloatArray:
    """Each row of ``q``'s least ``measure(dx, dy)`` over the rows of ``b`` (``inf`` when ``b`` is empty).

    Exact (:func:`_near_first`): a row of ``b`` in a group whose box lies ``gx``, ``gy`` cells
    from a row's box is ``measure(gx, gy)`` or more from it (both measures grow with either step).
    """
    if len(b) == 0:
        return np.full(len(q), np.inf)
    groups = [(b[k].min(axis=0), b[k].max(axis=0), b[k]) for k in _compact_groups(b, _GROUP_ROWS)]
    return _near_first(q, groups, lambda rows, part: _all_pairs(rows, part, measure), measure)


def _compact_groups(points: FloatArray, size: int) -> list[IntArray]:
    """The indices of ``points`` in groups of at most ``size`` that lie close together: the set
    is halved at the median of its longer extent until each part is small enough (the leaves of
    a k-d tree). Rows with NaN go where the sort puts them; every row is in one group."""
    groups: list[IntArray] = []
    todo = [np.arange(len(points))]
    while todo:
        idx = todo.pop()
        if len(idx) <= size:
            groups.append(idx)
            continue
        pts = points[idx]
        with np.errstate(invalid="ignore"):  # inf - inf is NaN: split along x, halved all the same
            extent = pts.max(axis=0) - pts.min(axis=0)
        axis = 1 if extent[1] > extent[0] else 0
        order = np.argsort(pts[:, axis], kind="stable")
        half = len(idx) // 2
        todo += [idx[order[:half]], idx[order[half:]]]
    return groups


def _near_first(
    q: FloatArray,
    groups: Sequence[tuple[FloatArray, FloatArray, Any]],
    least_to: Callable[[FloatArray, Any], FloatArray],
    bound: Callable[[FloatArray, FloatArray], FloatArray],
) -> FloatArray:
    """Each row of ``q``'s least ``least_to(rows, part)`` over the ``part`` of every group, found
    nearest first.

    ``groups`` are ``(low, high, part)``: the corners of the box holding a part of the other
    drawing. ``q`` is taken in compact runs of :data:`_RUN_ROWS` rows (:func:`_compact_groups`).
    Between a run's box and a group's lie gaps ``gx`` and ``gy`` (0 where they overlap), and
    nothing in the group is nearer to a row of the run than ``bound(gx, gy)``. The run is held
    to the groups in order of that bound; a row whose least value found is no more than the
    next group's bound is decided, as every group after it is as far or farther. A run no row
    of which is decided sooner is held to every group.
    """
    out = np.full(len(q), np.inf)
    if len(q) == 0 or not groups:
        return out
    lows = np.array([g[0] for g in groups])
    highs = np.array([g[1] for g in groups])
    for rows in _compact_groups(q, _RUN_ROWS):
        run = q[rows]
        with np.errstate(invalid="ignore"):  # a NaN row: its gaps are NaN, and it is held to all
            gaps = np.maximum(lows - run.max(axis=0), run.min(axis=0) - highs).clip(min=0)
            least_there = bound(gaps[:, 0], gaps[:, 1])
        least = np.full(len(run), np.inf)
        left = np.arange(len(run))  # the rows whose least value is not known yet
        for g in np.argsort(least_there, kind="stable"):
            left = left[~(least[left] <= least_there[g])]
            if not len(left):
                break
            least[left] = np.minimum(least[left], least_to(run[left], groups[g][2]))
        out[rows] = least
    return out


def nearest_sq(a: ArrayLike, b: ArrayLike) -> FloatArray:
    """Squared Euclidean distance from each row of ``a`` (M, 2) to the nearest row of ``b`` (N, 2),
    shape (M,); ``inf`` everywhere when ``b`` is empty. For callers that order by it: squares are
    exact where their roots may round two of them to one.

    >>> nearest_sq([[0, 0], [4, 3]], [[0, 1], [1, 3]]).tolist()
    [1.0, 9.0]
    """
    return _nearest(as_points(a), as_points(b), _squared)


def nearest_distance(a: ArrayLike, b: ArrayLike, *, metric: str = "euclidean") -> FloatArray:
    """Distance from each row of ``a`` (M, 2) to the nearest row of ``b`` (N, 2), shape (M,).

    ``metric`` is ``"euclidean"`` or ``"chebyshev"``; ``inf`` everywhere when ``b`` is empty.

    Examples
    --------
    >>> nearest_distance([[0, 0], [4, 3]], [[0, 1], [1, 3]]).tolist()
    [1.0, 3.0]
    >>> nearest_distance([[0, 0]], [[2, 1]], metric="chebyshev").tolist()
    [2.0]
    """
    if metric == "chebyshev":
        return _nearest(as_points(a), as_points(b), _larger_step)
    out: FloatArray = np.sqrt(nearest_sq(a, b))
    return out


def min_distance(a: ArrayLike, b: ArrayLike) -> float:
    """Smallest Chebyshev distance between a cell of ``a`` and one of ``b`` (points rounded to
    their cells: 0 = a shared cell, 1 = touching cells); ``inf`` when either is empty.

    Examples
    --------
    >>> min_distance([[0, 0], [1, 0]], [[3, 1], [9, 9]])
    2.0
    """
    return cell_distance(np.rint(as_points(a)), np.rint(as_points(b)))


def cell_distance(a: ArrayLike, b: ArrayLike) -> float:
    """Smallest Chebyshev distance between a point of ``a`` and one of ``b`` (cells, as
    :func:`min_distance` rounds them); ``inf`` when either is empty.

    >>> cell_distance([[0, 0], [1, 0]], [[3, 1]])
    2.0
    """
    pa, pb = as_points(a), as_points(b)
    if len(pa) == 0 or len(pb) == 0:
        return float("inf")
    return float(nearest_distance(pa, pb, metric="chebyshev").min())


def chamfer_distance(a: ArrayLike, b: ArrayLike) -> float:
    """Mean symmetric Chamfer distance in cells: the mean, over both drawings, of each point's
    Euclidean distance to the nearest point of the other drawing, the two means averaged.

    0 for the same set of cells; ``inf`` when either drawing is empty. Point order and repeats do
    not matter beyond their weight in the means.

    Examples
    --------
    >>> chamfer_distance([[0, 0], [0, 5]], [[1, 0], [1, 5]])
    1.0
    """
    pa, pb = as_points(a), as_points(b)
    if len(pa) == 0 or len(pb) == 0:
        return float("inf")
    there = float(nearest_distance(pa, pb).mean())
    back = float(nearest_distance(pb, pa).mean())
    return 0.5 * (there + back)


def likeness(d: float, scale: float) -> float:
    """:func:`similarity` from the Chamfer distance ``d``: 100 at 0, falling linearly to 0 at ``scale``.

    >>> likeness(1.0, scale=4.0)
    75.0
    """
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    if not np.isfinite(d):
        return 0.0
    return float(100.0 * max(0.0, 1.0 - d / scale))


def similarity(a: ArrayLike, b: ArrayLike, scale: float) -> float:
    """A 0–100 likeness from :func:`chamfer_distance`: 100 for the same cells, falling linearly
    to 0 at a mean distance of ``scale`` cells.

    Examples
    --------
    >>> similarity([[0, 0], [0, 5]], [[1, 0], [1, 5]], scale=4.0)
    75.0
    """
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    return likeness(chamfer_distance(a, b), scale)


class Outline:
    """An asked outline, prepared once per case and shared (read-only) by every answer scored
    against it: its polyline, the points it is sampled at every cell (``ref``) and their mean
    distance from ``center`` (``scale``, what an answer's distance from it is weighed against).

    >>> square = Outline([[0, 0], [4, 0], [4, 4], [0, 4]], closed=True, center=(2.0, 2.0))
    >>> len(square.ref), square.distance([[2, 1]]).tolist()
    (16, [1.0])
    """

    def __init__(self, vertices: ArrayLike, *, closed: bool, center: Point) -> None:
        v = as_points(vertices)
        self.vertices, self.closed = v, closed
        self.ref = sample_polyline(v, closed=closed, step=1.0)
        self.scale = float(np.mean(np.hypot(self.ref[:, 0] - center[0], self.ref[:, 1] - center[1])))
        for arr in (self.vertices, self.ref):
            arr.flags.writeable = False

    def nearest_sq(self, pts: ArrayLike) -> FloatArray:
        """Each outline sample's squared distance to the nearest of ``pts`` (how much is missed)."""
        return nearest_sq(self.ref, pts)

    def distance(self, pts: ArrayLike) -> FloatArray:
        """Each of ``pts``' distance to the outline (how far off it is drawn)."""
        return distance_to_polyline(pts, self.vertices, closed=self.closed)
