"""Distances: between points, from points to segments and polylines, and between whole drawings.

Each distance is written once here and used by every check, fit and family that needs it. Grid
distances are Chebyshev (8-connectivity: a diagonal neighbour is 1 away); distances to a shape
are Euclidean, in cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.nearest import CellIndex, nearest_both, nearest_sq, on_segment, to_segments
from shape_asserts.geometry.points import FloatArray, as_points

__all__ = [
    "mean_root",
    "chebyshev",
    "closure_distance",
    "segment_distance",
    "nearest_on_segment",
    "segment_step_xy",
    "segment_distances",
    "distance_to_polyline",
    "sample_polyline",
    "nearest_distance",
    "min_distance",
    "distinct_cells",
    "cell_distance",
    "chamfer_distance",
    "chamfer_distances",
    "likeness",
    "similarity",
]


def chebyshev(a: ArrayLike, b: ArrayLike) -> FloatArray:
    """Chebyshev (8-connectivity) distance between rows of ``a`` and ``b``.

    Examples
    --------
    >>> chebyshev([[0, 0], [1, 1]], [[3, 1], [1, 1]]).tolist()
    [3.0, 0.0]
    """
    diff = np.asarray(a, float) - np.asarray(b, float)
    d: FloatArray
    if diff.shape[-1:] == (2,):
        # points: the larger of |dx| and |dy|, the same float (and NaN) the maximum over the last
        # axis gives, without reducing over an axis of two
        d = np.maximum(np.abs(diff[..., 0]), np.abs(diff[..., 1]))
    else:
        d = np.max(np.abs(diff), axis=-1)
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
    segment's nearest point and that point's place ``t`` (0..1) along it — :func:`.nearest.on_segment`'s
    expression term by term (its sums over the axis of two are the two products added: the same
    floats but, where that makes a zero, perhaps the zero's sign, which ``hypot`` ignores)."""
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    den = abx * abx + aby * aby
    # a segment of no length is its one point; clipped to 0..1 as ndarray.clip: a nan stays nan
    t = (apx * abx + apy * aby) / (den if den > 0 else 1.0)
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    return apx - t * abx, apy - t * aby, t


def nearest_on_segment(points: ArrayLike, a: ArrayLike, b: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Distance of each point from the segment ``a``–``b`` and where its nearest point lies on it.

    Parameters
    ----------
    points : array_like, shape (..., 2)
    a, b : array_like, shape (..., 2)
        The segments' ends, broadcast against ``points`` (one segment, or one per point).

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
    return on_segment(np.asarray(points, dtype=float), np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def segment_distance(points: ArrayLike, a: ArrayLike, b: ArrayLike) -> FloatArray:
    """Distance of each row of ``points`` (M, 2) from the segment ``a``–``b``, shape (M,).

    Examples
    --------
    >>> segment_distance([[1, 1], [5, 0], [-3, 4]], [0, 0], [2, 0]).tolist()
    [1.0, 3.0, 5.0]
    """
    return nearest_on_segment(points, a, b)[0]


def segment_distances(points: ArrayLike, vertices: ArrayLike, *, closed: bool = True) -> FloatArray:
    """Distance of each point from each side of a polyline, shape (N, K) (K sides)."""
    pts = as_points(points)
    v = as_points(vertices)
    ends = np.vstack([v, v[:1]]) if closed else v
    if len(ends) < 2:
        d = pts - v[0]
        one: FloatArray = np.hypot(d[:, 0], d[:, 1])[:, None]
        return one
    return nearest_on_segment(pts[:, None, :], ends[None, :-1], ends[None, 1:])[0]


def distance_to_polyline(
    points: ArrayLike, vertices: ArrayLike, *, closed: bool = True, chunk: int = 512
) -> FloatArray:
    """Distance of each point from the nearest point of a polyline's outline, shape (N,).

    Exact, without comparing every point with every side when the polyline is a curve sampled in
    short chords (:func:`shape_asserts.geometry.nearest.to_segments`); ``chunk`` bounds the memory
    of the all-pairs form.

    Examples
    --------
    >>> distance_to_polyline([[5, 5], [12, 0]], [[0, 0], [10, 0], [10, 10], [0, 10]]).tolist()
    [5.0, 2.0]
    """
    pts = as_points(points)
    if len(pts) == 0:
        return np.zeros(0)
    v = as_points(vertices)
    ends = np.vstack([v, v[:1]]) if closed else v
    if len(ends) < 2:
        return np.concatenate(
            [segment_distances(pts[i : i + chunk], v, closed=closed).min(axis=1) for i in range(0, len(pts), chunk)]
        )
    return to_segments(pts, ends[:-1], ends[1:])


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


def nearest_distance(a: ArrayLike, b: ArrayLike, *, metric: str = "euclidean") -> FloatArray:
    """Distance from each row of ``a`` (M, 2) to the nearest row of ``b`` (N, 2), shape (M,).

    ``metric`` is ``"euclidean"`` or ``"chebyshev"``; ``inf`` everywhere when ``b`` is empty. Exact,
    in near-linear time for drawings (:func:`shape_asserts.geometry.nearest.nearest_sq`).

    Examples
    --------
    >>> nearest_distance([[0, 0], [4, 3]], [[0, 1], [1, 3]]).tolist()
    [1.0, 3.0]
    >>> nearest_distance([[0, 0]], [[2, 1]], metric="chebyshev").tolist()
    [2.0]
    """
    pa, pb = as_points(a), as_points(b)
    near = nearest_sq(pa, pb, metric)
    return near if metric == "chebyshev" else np.sqrt(near)


def min_distance(a: ArrayLike, b: ArrayLike) -> float:
    """Smallest Chebyshev distance between a point of ``a`` and one of ``b`` (0 = a shared cell,
    1 = touching cells); ``inf`` when either is empty.

    Examples
    --------
    >>> min_distance([[0, 0], [1, 0]], [[3, 1], [9, 9]])
    2.0
    """
    pa, pb = as_points(a), as_points(b)
    if len(pa) == 0 or len(pb) == 0:
        return float("inf")
    return cell_distance(distinct_cells(pa), distinct_cells(pb))


def distinct_cells(points: ArrayLike) -> FloatArray:
    """The cells a path visits (points rounded), each once, sorted: what :func:`min_distance`
    compares, built once per contour when one contour is compared with several.

    >>> distinct_cells([[0.2, 0], [1, 0], [0, 0]]).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    # duplicates change nothing in a minimum, and dropping them keeps the search small
    cells: FloatArray = np.unique(np.rint(as_points(points)), axis=0)
    return cells


def cell_distance(a: FloatArray, b: FloatArray) -> float:
    """:func:`min_distance` of two :func:`distinct_cells` lists (``inf`` when either is empty)."""
    if len(a) == 0 or len(b) == 0:
        return float("inf")
    return float(nearest_distance(a, b, metric="chebyshev").min())


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
    return chamfer_distances([a], b)[0]


def chamfer_distances(drawings: Sequence[ArrayLike], b: ArrayLike, index: CellIndex | None = None) -> list[float]:
    """:func:`chamfer_distance` of each drawing to ``b``, the same floats, from one search
    (:func:`shape_asserts.geometry.nearest.nearest_both`, through ``b``'s ``index`` when given):
    a scene is held to its reference as drawn and fitted onto the reference's box.

    >>> chamfer_distances([[[0, 0], [0, 5]], [[1, 0]]], [[1, 0], [1, 5]])
    [1.0, 1.25]
    """
    pb = as_points(b)
    parts = [as_points(a) for a in drawings]
    out = [float("inf")] * len(parts)
    some = [i for i, pa in enumerate(parts) if len(pa)]
    if len(pb) == 0 or not some:
        return out
    # each way the same arrays as nearest_distance(pa, pb) and nearest_distance(pb, pa)
    for i, (near_a, near_b) in zip(some, nearest_both([parts[i] for i in some], pb, index)):
        out[i] = 0.5 * (mean_root(near_a) + mean_root(near_b))
    return out


def mean_root(sq: FloatArray) -> float:
    """``float(np.sqrt(sq).mean())`` for a 1-D float array ``sq``: the same float without the
    mean's wrapper (``ndarray.mean`` is ``np.add.reduce`` over the array, the same pairwise sum,
    divided by the count; a Python float over an int is the same IEEE division). An empty ``sq``
    takes the expression itself (NaN, with numpy's warning).

    >>> mean_root(np.array([1.0, 4.0, 0.0]))
    1.0
    """
    n = len(sq)
    if n == 0:
        return float(np.sqrt(sq).mean())
    return float(np.add.reduce(np.sqrt(sq))) / n


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
