"""Corners of a closed contour: the polygon families' corner search.

:func:`simplify_closed` cuts a closed drawn contour at two far-apart points, simplifies both halves
by Ramer–Douglas–Peucker to the *segment* (:func:`.simplify.rdp`), then cleans the kept points up:
drops the shallow ones, moves each onto the drawing's real corner, drops a corner that makes a side
too short, and merges pairs that straddle one blunt corner. Used by
:class:`~shape_asserts.geometry.fit.PolygonModel`; the open strokes of the scenes are simplified by
:mod:`shape_asserts.geometry.simplify`.

The contour is a ring: index ``n`` is point 0 again, and a run of points between two corners may
wrap round past the last point. Every distance is :func:`.distances.segment_distance`; a tie goes
to the first point (``np.argmax``/``np.argmin``), so integer input stays isometry-invariant.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import segment_distance
from shape_asserts.geometry.points import FloatArray, IntArray, as_points
from shape_asserts.geometry.simplify import rdp

__all__ = ["simplify_closed", "farthest"]


def simplify_closed(
    points: ArrayLike,
    epsilon: float,
    *,
    min_side: float = 0.0,
    max_corners: int = 64,
    fewest: int = 0,
) -> IntArray:
    """Indices of the corners of a closed contour, in drawing order.

    The contour is cut at its first point and at the point farthest from it (squared distances,
    exact for grid points), each half is simplified with :func:`~shape_asserts.geometry.simplify.rdp`
    (to the segment), and then any kept point within ``epsilon`` of the segment joining its
    neighbours is dropped — so the cut points are corners only if the shape has corners there. Two
    corners closer than ``min_side`` are one corner cut off by the raster (a digital line meets a
    vertex in a short flat run): the flatter of the two goes. Each corner is finally moved to the
    point between its neighbours that lies farthest from their segment.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        A closed contour without its closing point (the last point joins the first implicitly).
    epsilon : float
        Largest deviation, in grid cells, that a straight side may have.
    min_side : float
        Shortest side kept, in cells (0: any).
    fewest : int
        The corners asked for (0: none): when one or two more are found, corners the others
        explain within ``epsilon`` are dropped, down to this many (:func:`_drop_needless`).
    max_corners : int
        A contour with more RDP corners than this is no polygon (a scribble, a filled area): its
        corners are returned as found, without the clean-up, which grows with their square.

    Returns
    -------
    ndarray of int, shape (K,), ascending

    Examples
    --------
    >>> square = [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3], [2, 3], [1, 3], [0, 3], [0, 2], [0, 1]]
    >>> simplify_closed(square, 0.5).tolist()
    [0, 3, 6, 9]
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 3:
        return np.arange(n)
    rel = pts - pts[0]
    far = int(np.argmax(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1]))
    if far == 0:
        return np.array([0])
    idx = _rdp_halves(pts, far, epsilon)
    if len(idx) > max_corners:
        return np.array(idx, dtype=np.int64)
    kept = _drop_shallow(pts, idx, epsilon)
    idx = _refine(pts, kept)
    # moving the corners onto the drawing's real corners can leave a cut point flat between two
    # of them (the point farthest from the start lies mid-side when the start is a corner): drop
    # again (when none moved, that was just done: a drop leaves none to drop)
    if idx != kept:
        idx = _refine(pts, _drop_shallow(pts, idx, epsilon))
    idx = _drop_short_sides(pts, idx, min_side)
    idx = _merge_pairs(pts, idx, epsilon)
    return np.array(_drop_needless(pts, idx, epsilon, fewest), dtype=np.int64)


def _rdp_halves(pts: FloatArray, far: int, epsilon: float) -> list[int]:
    """The points RDP keeps on the two halves of the ring, ``0..far`` and ``far..n`` (point 0
    again), sorted: the cut points and what each half keeps."""
    n = len(pts)
    closed = np.concatenate((pts, pts[:1]))
    first = rdp(closed[: far + 1], epsilon)
    second = far + rdp(closed[far:], epsilon)
    return sorted({0, far, *first.tolist(), *(second % n).tolist()})


def farthest(pts: FloatArray, a: int, b: int, first: int, count: int) -> tuple[float, int]:
    """Of ``count`` points from index ``first`` on, round the ring: the largest distance from the
    segment joining points ``a`` and ``b``, and the index of the first point at it (a nan counts
    as farthest, as ``np.argmax`` takes it)."""
    at, d = _run_distances(pts, a, b, first, count)
    k = int(np.argmax(d))
    return float(d[k]), int(at[k])


def _run_distances(pts: FloatArray, a: int, b: int, first: int, count: int) -> tuple[IntArray, FloatArray]:
    """The indices of ``count`` points from index ``first`` on, round the ring, and their
    distances from the segment joining points ``a`` and ``b``."""
    n = len(pts)
    at = (first + np.arange(count)) % n
    return at, segment_distance(pts[at], pts[a % n], pts[b % n])


def _point_distance(pts: FloatArray, i: int, a: int, b: int) -> float:
    """The distance of point ``i`` from the segment joining points ``a`` and ``b``."""
    return farthest(pts, a, b, i, 1)[0]


def _depths(pts: FloatArray, idx: list[int]) -> FloatArray:
    """How far each corner ``idx[j]`` lies from the segment joining its two neighbours."""
    before, after = idx[-1:] + idx[:-1], idx[1:] + idx[:1]
    return segment_distance(pts[idx], pts[before], pts[after])


def _drop_shallow(pts: FloatArray, idx: list[int], epsilon: float) -> list[int]:
    """Drop kept points that sit within ``epsilon`` of the segment of their neighbours, flattest first."""
    idx = list(idx)
    while len(idx) > 3:
        depth = _depths(pts, idx)
        k = int(np.argmin(depth))
        if depth[k] > epsilon:
            break
        del idx[k]
    return sorted(idx)


def _refine(pts: FloatArray, idx: list[int], rounds: int = 4) -> list[int]:
    """Move each corner to the point between its neighbours farthest from their segment.

    RDP keeps the farthest point from the chord of *its* split, which on a side with two true
    corners can be a point beside one of them; measuring against the neighbouring corners puts it
    back on the corner. A tie keeps the current corner, so integer input stays isometry-invariant.
    Corners are moved in turn, each measured between its neighbours as they then are.
    """
    n, k = len(pts), len(idx)
    if k < 3:
        return idx
    idx = list(idx)
    for _ in range(rounds):
        moved = False
        for j in range(k):
            p, q = idx[j - 1], idx[(j + 1) % k]
            if (q - p) % n < 2:
                continue
            # the points between the neighbours, the corner among them
            at, d = _run_distances(pts, p, q, p + 1, (q - p) % n - 1)
            best = int(np.argmax(d))
            if d[best] > d[(idx[j] - p - 1) % n] and at[best] != idx[j]:
                idx[j], moved = int(at[best]), True
        if not moved:
            break
    # corners keep their cyclic order; report them ascending from the smallest index
    return sorted(idx)


def _side_lengths(pts: FloatArray, idx: list[int]) -> FloatArray:
    """Lengths of the sides of the polygon through points ``idx``, the last back to the first."""
    v = pts[idx]
    step = pts[idx[1:] + idx[:1]] - v
    return np.hypot(step[:, 0], step[:, 1])


def _drop_short_sides(pts: FloatArray, idx: list[int], min_side: float) -> list[int]:
    """While the shortest side is shorter than ``min_side``, drop the flatter of its two corners
    (and move the rest onto the drawing's corners again)."""
    while min_side > 0 and len(idx) > 3:
        side = _side_lengths(pts, idx)
        j = int(np.argmin(side))
        if side[j] >= min_side:
            break
        k = len(idx)
        ends = (j, (j + 1) % k)
        dev = [_point_distance(pts, idx[m], idx[m - 1], idx[(m + 1) % k]) for m in ends]
        del idx[j if dev[0] <= dev[1] else (j + 1) % k]
        idx = _refine(pts, idx)
    return idx


def _drop_needless(pts: FloatArray, idx: list[int], epsilon: float, fewest: int) -> list[int]:
    """Drop a corner whenever the others, each moved a few points to where its two sides are
    straightest (:func:`_settle`), leave every side straight within ``epsilon``.

    RDP and :func:`_refine` place each corner against its neighbours as they stand, so one
    misplaced corner holds the next: where a raster blunts a polygon's corners and bends its sides
    by a cell (rounded points along a short side), the search may end on an extra corner whose
    neighbours all stand deep against each other, while the polygon without it fits the drawing
    within ``epsilon`` (hypothesis found fair 8 × 31 and 8 × 32 rectangles given five corners at
    ε = 2). A drawing is given the fewest corners that fit it.

    Only tried when the search found one or two (:data:`_MOST_EXTRA`) corners more than the
    ``fewest`` asked, only down to that many, and only for the few shallowest corners: each try
    settles the other corners, ``2 × _SETTLE_REACH + 1`` pairs of sides per corner and round,
    every side one look along its points (``k × 18`` looks for ``k`` corners, each of the
    ``2 × 9 × n`` point distances per round), which keeps a hostile 10,000-point answer within
    its second (``bench/hostile_cost.py``)."""
    if not 0 < len(idx) - fewest <= _MOST_EXTRA:
        return idx
    dropped = True
    while dropped and len(idx) > max(fewest, 3):
        dropped = False
        # the shallowest corners first, as many as there are extra corners and one more: an
        # extra corner stands out least against its neighbours, or beside one that does
        depth = _depths(pts, idx)
        tries = [idx[j] for j in np.argsort(depth, kind="stable")[: len(idx) - fewest + 1].tolist()]
        for cut in tries:
            fewer = _settle(pts, [i for i in idx if i != cut])
            if _worst_bend(pts, fewer) <= epsilon:
                idx, dropped = fewer, True
                break
    return idx


#: Most extra corners :func:`_drop_needless` tries to explain away, for its cost: a fair raster
#: of the asked polygon adds one or two (a blunted corner, a bent side), a drawing with more is
#: not that polygon, and each try costs a settling of every corner.
_MOST_EXTRA = 2

#: Points a corner may move either way in :func:`_settle`: a blunted or rounded corner's cell
#: lies a point or three from where a misplaced neighbour left it.
_SETTLE_REACH = 4


def _settle(pts: FloatArray, idx: list[int], rounds: int = 4) -> list[int]:
    """Move each corner, in turn and up to :data:`_SETTLE_REACH` points either way, to where the
    worse of its two sides is straightest (a tie keeps the corner where it is, then the earlier
    point)."""
    n, k = len(pts), len(idx)
    idx = list(idx)
    for _ in range(rounds):
        moved = False
        for j in range(k):
            before, after = idx[j - 1], idx[(j + 1) % k]
            best, best_at = _bend_through(pts, before, idx[j], after), idx[j]
            for step in range(-_SETTLE_REACH, _SETTLE_REACH + 1):
                c = (idx[j] + step) % n
                # the corner stays strictly between its neighbours
                if step == 0 or not 0 < (c - before) % n < (after - before) % n:
                    continue
                bend = _bend_through(pts, before, c, after)
                if bend < best:
                    best, best_at = bend, c
            if best_at != idx[j]:
                idx[j], moved = best_at, True
        if not moved:
            break
    return sorted(idx)


def _bend_through(pts: FloatArray, a: int, c: int, b: int) -> float:
    """The worse of the two sides ``a``–``c`` and ``c``–``b``: how far its farthest point lies from it."""
    n = len(pts)
    first = farthest(pts, a, c, a, (c - a) % n + 1)[0]
    second = farthest(pts, c, b, c, (b - c) % n + 1)[0]
    return max(first, second)


def _worst_bend(pts: FloatArray, idx: list[int]) -> float:
    """How far the drawn point farthest from its side lies from it, the sides joining the corners ``idx``."""
    n, k = len(pts), len(idx)
    worst = 0.0
    for j in range(k):
        a, b = idx[j], idx[(j + 1) % k]
        worst = max(worst, farthest(pts, a, b, a, (b - a) % n + 1)[0])
    return worst


def _merge_pairs(pts: FloatArray, idx: list[int], epsilon: float) -> list[int]:
    """Two neighbouring corners that one corner between them explains within ``epsilon``, made one.

    RDP can straddle a blunt corner with two kept points a few cells either side of it, each deep
    enough to stay and each the other's neighbour: moved one at a time they never find the real
    corner, the pair together does. The first pair (in corner order) that merges is merged, and
    the pairs are looked at again."""
    while len(idx) > 3:
        merged = _first_merge(pts, idx, epsilon)
        if merged is None:
            break
        idx = merged
    return idx


def _first_merge(pts: FloatArray, idx: list[int], epsilon: float) -> list[int] | None:
    """The corners with the first pair that merges made one (:func:`_merge_pairs`), else ``None``.

    Corners ``j`` and ``j + 1`` merge when the point ``m`` between their neighbours ``a`` and ``d``
    farthest from segment ``a``–``d`` stands out beyond ``epsilon`` (a corner is there) and both
    sides through it, ``a``–``m`` and ``m``–``d``, are straight within ``epsilon``."""
    n, k = len(pts), len(idx)
    for j in range(k):
        a, d = idx[j - 1], idx[(j + 2) % k]
        if (d - a) % n < 2:
            continue
        top, m = farthest(pts, a, d, a + 1, (d - a) % n - 1)
        if not top > epsilon:
            continue
        # both sides through m, ends included (the second only when the first is straight)
        if (
            farthest(pts, a, m, a, (m - a) % n + 1)[0] <= epsilon
            and farthest(pts, m, d, m, (d - m) % n + 1)[0] <= epsilon
        ):
            b, c = idx[j], idx[(j + 1) % k]
            return sorted([i for i in idx if i not in (b, c)] + [m])
    return None
