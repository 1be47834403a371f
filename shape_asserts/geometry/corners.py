"""Corners of a closed contour: the polygon families' corner search.

:func:`simplify_closed` cuts a closed drawn contour at two far-apart points, simplifies both halves
by Ramer–Douglas–Peucker to the *segment* in one pass per depth (:func:`_rdp_ring`), then cleans
the kept points up: drops the shallow ones, moves each onto the drawing's real corner, merges pairs
that straddle one blunt corner. Every distance is measured on a :class:`~.runs.Ring`, which
measures all pending stretches at once and remembers what it measured. Used by
:class:`~shape_asserts.geometry.fit.PolygonModel`; the open strokes of the scenes are simplified
by :mod:`shape_asserts.geometry.simplify`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import segment_step_xy
from shape_asserts.geometry.points import IntArray, as_points
from shape_asserts.geometry.runs import Ring, Run, first_min

__all__ = ["simplify_closed", "Along"]

#: Given the corners held at a pass that measures ahead (:func:`_rdp_ring`), more runs to measure
#: in it: what a caller will ask of the ring if those are the corners found.
Along = Callable[[list[int]], list[Run]]


def simplify_closed(
    points: ArrayLike,
    epsilon: float,
    *,
    min_side: float = 0.0,
    max_corners: int = 64,
    ahead: int = 0,
    ring: Ring | None = None,
    along: Along | None = None,
) -> IntArray:
    """Indices of the corners of a closed contour, in drawing order.

    The contour is cut at its first point and at the point farthest from it (squared distances,
    exact for grid points), each half is simplified with :func:`~shape_asserts.geometry.simplify.rdp` (to the segment), and then any kept point
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
        Largest deviation, in grid cells, that a straight side may have.
    min_side : float
        Shortest side kept, in cells (0: any).
    max_corners : int
        A contour with more RDP corners than this is no polygon (a scribble, a filled area): its
        corners are returned as found, without the clean-up, which grows with their square.
    ahead : int
        The corners expected (0: no guess). It decides when work is done, never what is found: while
        about that many points are kept, RDP's passes also measure what the clean-up first asks
        (:func:`_rdp_ring`).
    ring : Ring, optional
        A :class:`~shape_asserts.geometry.runs.Ring` of ``points`` to measure on (it remembers what
        it measured, for a caller that measures the same points again).
    along : callable, optional
        Given the sorted corners held when a pass measures ahead, the runs of ``ring`` that the
        caller will measure if those are the corners found: measured in that pass too. Like
        ``ahead``, it decides what is measured when, never what is found.

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
    ring = Ring(pts) if ring is None else ring
    rel = ring.rows() - ring.rows()[:, :1]  # x and y less point 0's, as two rows
    rel *= rel
    far = int(np.add(rel[0], rel[1], out=rel[0]).argmax())  # the squared distances from point 0
    if far == 0:
        return np.array([0])
    # the two halves, 0..far and far..n (n is 0 again), by one RDP over both
    inner, fetched = _rdp_ring(ring, [(0, far), (far, n)], epsilon, ahead, along)
    idx = sorted(inner | {0, far})
    if len(idx) > max_corners:
        return np.array(idx, dtype=np.int64)
    if not fetched:
        ring.farthest(_first_runs(n, idx))
    if not _settled(ring, idx, epsilon):  # (the usual fair drawing is: told at once from what was measured)
        kept = _drop_shallow(ring, idx, epsilon)
        idx = _refine(ring, kept)
        # moving the corners onto the drawing's real corners can leave a cut point flat between two
        # of them (the point farthest from the start lies mid-side when the start is a corner): drop
        # again (when none moved, that was just done: a drop leaves none to drop)
        if idx != kept:
            idx = _refine(ring, _drop_shallow(ring, idx, epsilon))
    # (every side clearly longer: the shortest is no shorter, as Ring.sides would measure it)
    while min_side > 0 and len(idx) > 3 and not _sides_longer(ring, idx, min_side):
        side = ring.sides(idx)
        j = first_min(side)
        if side[j] >= min_side:
            break
        k = len(idx)
        ms = (j, (j + 1) % k)
        dev = ring.point_dist([(idx[m], idx[m - 1], idx[(m + 1) % k]) for m in ms])
        del idx[j if dev[0] <= dev[1] else (j + 1) % k]
        idx = _refine(ring, idx)
    return np.array(_merge_pairs(ring, idx, epsilon), dtype=np.int64)


def _rdp_ring(
    ring: Ring, spans: list[tuple[int, int]], epsilon: float, ahead: int = 0, along: Along | None = None
) -> tuple[set[int], bool]:
    """:func:`rdp` (to the segment) of the stretches ``i..j`` of ``ring``, all pending ones in one
    pass (each split depends only on its own stretch): the points kept inside them. While ``ahead`` to
    twice as many are kept (ends included; never a scribble's thousands), a pass also measures their
    :func:`_first_runs`, and ``along``'s runs for them, in case it is the last (the ring keeps them);
    also: whether the last did."""
    keep: set[int] = set()
    ends, fetched = {e for span in spans for e in span}, False
    ends.discard(ring.n)  # index n is point 0 again
    todo = [(i, j) for i, j in spans if j - i >= 2]
    while todo:
        nxt, kept = [], len(keep)
        runs = [(i, j, i + 1, j - i - 1) for i, j in todo]
        corners = keep | ends
        fetched = 0 < ahead <= len(corners) <= 2 * ahead
        if fetched:
            held = sorted(corners)
            runs += _first_runs(ring.n, held) + (along(held) if along is not None else [])
        for (i, j), (d, k) in zip(todo, ring.farthest(runs)):
            if d > epsilon:  # inner points lie before n: their index is their place
                keep.add(k)
                nxt += [s for s in ((i, k), (k, j)) if s[1] - s[0] >= 2]
        fetched = fetched and len(keep) == kept
        todo = nxt
    return keep, fetched


Pair = tuple[int, int, int, int]  # (j, a, m, d) of _merge_pairs: corner j, a before, d after the pair, m between


def _merge_pairs(ring: Ring, idx: list[int], epsilon: float) -> list[int]:
    """Two neighbouring corners that one corner between them explains within ``epsilon``, made one.

    RDP can straddle a blunt corner with two kept points a few cells either side of it, each deep
    enough to stay and each the other's neighbour: moved one at a time they never find the real
    corner, the pair together does. All pairs are measured at once, the first that merges merged."""
    n = ring.n
    while len(idx) > 3:
        k = len(idx)
        js = pairs(idx, n)
        if not js:
            break
        a, d = [idx[j - 1] for j in js], [idx[(j + 2) % k] for j in js]
        found = ring.farthest(pair_runs(idx, n, js))
        deep = [(j, aj, m, dj) for j, aj, dj, (x, m) in zip(js, a, d, found) if x > epsilon]
        # a pair whose corner lies off a side through the one corner keeps (a point, not a side, measured)
        deep = _corners_fit(ring, idx, deep, epsilon)
        if not deep:
            break
        sides = ring.farthest(  # the two sides through the one corner, ends included
            [(aj, m, aj, (m - aj) % n + 1) for _, aj, m, _ in deep]
            + [(m, dj, m, (dj - m) % n + 1) for *_, m, dj in deep]
        )
        fits = [left[0] <= epsilon and right[0] <= epsilon for left, right in zip(sides, sides[len(deep) :])]
        hit = next((g for g, ok in enumerate(fits) if ok), None)
        if hit is None:
            break
        j, _, m, _ = deep[hit]
        b, c = idx[j], idx[(j + 1) % k]
        idx = sorted([i for i in idx if i not in (b, c)] + [m])
    return idx


def _corners_fit(ring: Ring, idx: list[int], deep: list[Pair], epsilon: float) -> list[Pair]:
    """The pairs ``(j, a, m, d)`` of :func:`_merge_pairs` whose corners ``j`` and ``j + 1`` each lie
    within ``epsilon`` of the side through ``m`` that passes them (``a`` to ``m``, or ``m`` to ``d``):
    a side's farthest point is as far as either (a nan too), so no other pair can fit."""
    n, k = ring.n, len(idx)
    xl, yl = ring.x.data, ring.y.data  # memoryviews of float64: item i is a float
    lo, hi = _square_band(epsilon)
    lookup = ring.lookup
    out = []
    for pair in deep:
        j, a, m, d = pair
        # both must fit, so either may be looked at first: the one that is not m (m itself lies
        # exactly 0 from a side it ends, and m is often one of them: it settles the pair at once)
        one, other = idx[j], idx[(j + 1) % k]
        for b in (one, other) if other == m else (other, one):  # a to m holds the points up to m; m to d those after
            triple = (b, a, m) if (b - a) % n <= (m - a) % n else (b, m, d)
            # measured before (m the pair's other corner: b's own neighbours, as _settled asks):
            # Ring.point_dist, the np.hypot of _offset's step
            got = lookup((triple[1], triple[2], b, 1))
            if got is not None:
                if got[0] <= epsilon:  # (a nan does not fit)
                    continue
                break
            qx, qy = _offset(xl, yl, triple)
            sq = qx * qx + qy * qy
            if sq < lo:  # within epsilon, as np.hypot would say (_square_band)
                continue
            # beyond it, or too near to tell (a nan too): np.hypot itself (``<=``: a nan does not fit)
            if sq > hi or not np.hypot(np.array([qx]), np.array([qy]))[0] <= epsilon:
                break
        else:  # both corners fit
            out.append(pair)
    return out


#: How far (relatively) a squared distance must lie from a limit's square to be compared with it in
#: its place: the square's rounding (a few units in the last place) and ``np.hypot``'s (under one)
#: lie far within it, so its root compares the same way with the limit.
_MARGIN = 1e-9


def _square_band(limit: float) -> tuple[float, float]:
    """Squares below the first number have ``np.hypot`` of their terms at most ``limit``, above the
    second more (when both lie in range: the limit's square normal, well clear of overflow and of
    the subnormals); between them, or for a nan, it has to be worked out."""
    if 1e-100 <= limit <= 1e100:
        sq = limit * limit
        return sq * (1.0 - _MARGIN), sq * (1.0 + _MARGIN)
    return -math.inf, math.inf  # (no square compares: every one is worked out)


def _offset(xl: Sequence[float], yl: Sequence[float], triple: tuple[int, int, int]) -> tuple[float, float]:
    """For ``(i, a, b)``: the step to point ``i`` from the nearest point of the segment joining points
    ``a`` and ``b``, whose ``np.hypot`` is :meth:`.runs.Ring.point_dist`'s: the double operations of
    :func:`.runs._seg_dist` in plain floats (:func:`.distances.segment_step_xy`)."""
    i, a, b = triple
    dx, dy, _ = segment_step_xy(xl[i], yl[i], xl[a], yl[a], xl[b], yl[b])
    return dx, dy


def _sides_longer(ring: Ring, idx: list[int], limit: float) -> bool:
    """Whether every side of the polygon through points ``idx`` is surely longer than ``limit``
    (:meth:`.runs.Ring.sides` each above it), told from their squared lengths (:func:`_square_band`);
    ``False`` also when that cannot be told that way."""
    xl, yl = ring.x.data, ring.y.data
    hi = _square_band(limit)[1]
    for p, q in zip(idx, idx[1:] + idx[:1]):
        dx, dy = xl[q] - xl[p], yl[q] - yl[p]
        if not dx * dx + dy * dy > hi:
            return False
    return True


def _point_dists(ring: Ring, triples: list[tuple[int, int, int]]) -> list[float]:
    """``ring.point_dist(triples)`` of a few points not measured yet: :func:`_offset` of each in plain
    floats and one ``np.hypot`` (what the tests hold :func:`_offset` to)."""
    xl, yl = ring.x.data, ring.y.data  # memoryviews of float64: item i is a float
    qx, qy = zip(*[_offset(xl, yl, triple) for triple in triples]) if triples else ((), ())
    out: list[float] = np.hypot(qx, qy).tolist()
    return out


def pairs(idx: list[int], n: int) -> list[int]:
    """The corners ``j`` whose pair with ``j + 1`` has points between its neighbours (:func:`_merge_pairs`)."""
    k = len(idx)
    return [j for j in range(k) if (idx[(j + 2) % k] - idx[j - 1]) % n >= 2]


def pair_runs(idx: list[int], n: int, js: list[int] | None = None) -> list[Run]:
    """For each of :func:`pairs` (``js``, when the caller has them): the points strictly between its
    neighbours, against their segment."""
    k = len(idx)
    return [
        (idx[j - 1], idx[(j + 2) % k], idx[j - 1] + 1, (idx[(j + 2) % k] - idx[j - 1]) % n - 1)
        for j in (pairs(idx, n) if js is None else js)
    ]


def _first_runs(n: int, idx: list[int]) -> list[Run]:
    """What :func:`_drop_shallow` and :func:`_refine` first ask of corners ``idx`` of a ring of ``n``
    (each corner, and the points between its neighbours, against their segment; the pair runs)."""
    k = len(idx)
    if k < 3:
        return []
    around = [(idx[j - 1], idx[(j + 1) % k]) for j in range(k)]
    return (
        [(p, q, i, 1) for i, (p, q) in zip(idx, around)]
        + [(p, q, p + 1, (q - p) % n - 1) for p, q in around if (q - p) % n >= 2]
        + (pair_runs(idx, n) if k > 3 else [])
    )


def _settled(ring: Ring, idx: list[int], epsilon: float) -> bool:
    """Whether :func:`_drop_shallow` and then :func:`_refine` would leave the sorted corners ``idx``
    (three or more) as they are, told from runs the ring remembers (``False`` when one is not):
    every corner lies beyond ``epsilon`` from the segment of its neighbours (none dropped, a nan
    not beyond; three are never dropped), and none would move (its neighbours' farthest point
    between them is the corner itself, or no farther); then neither measures anything new either."""
    k, n = len(idx), ring.n
    if k < 3:
        return False
    around = list(zip(idx[-1:] + idx[:-1], idx[1:] + idx[:1]))
    # :func:`_first_runs`' first two kinds: each corner, then the points between its neighbours
    got = ring.known(
        [(p, q, i, 1) for i, (p, q) in zip(idx, around)] + [(p, q, p + 1, (q - p) % n - 1) for p, q in around]
    )
    return got is not None and all(
        (k == 3 or here > epsilon) and not (top > here and best != i)
        for i, (here, _), (top, best) in zip(idx, got[:k], got[k:])
    )


def _drop_shallow(ring: Ring, idx: list[int], epsilon: float) -> list[int]:
    """Drop kept points that sit within ``epsilon`` of the segment of their neighbours, flattest first."""
    idx = list(idx)
    while len(idx) > 3:
        dev = ring.point_dist(list(zip(idx, idx[-1:] + idx[:-1], idx[1:] + idx[:1])))
        k = first_min(dev)
        if dev[k] > epsilon:
            break
        del idx[k]
    return sorted(idx)


def _refine(ring: Ring, idx: list[int], rounds: int = 4) -> list[int]:
    """Move each corner to the point between its neighbours farthest from their segment.

    RDP keeps the farthest point from the chord of *its* split, which on a side with two true
    corners can be a point beside one of them; measuring against the neighbouring corners puts it
    back on the corner. A tie keeps the current corner, so integer input stays isometry-invariant.
    Corners are moved in turn, each measured between its neighbours as they then are: all at once
    at the start of the round, again only when a neighbour has moved before its turn.
    """
    n, k = ring.n, len(idx)
    if k < 3:
        return idx
    idx = list(idx)
    for _ in range(rounds):
        moved = False
        # what _merge_pairs measures first, asked along: when no corner moves it is these corners
        pre = _refine_moves(ring, idx, range(k), pairs_along=k > 3)
        if all(to is None for _, to in pre.values()):  # none moves, so none has a moved neighbour: done
            break
        for j in range(k):
            p, q = idx[j - 1], idx[(j + 1) % k]
            if (q - p) % n < 2:
                continue
            got = pre.get(j)
            if got is None or got[0] != (p, q):
                got = _refine_moves(ring, idx, [j])[j]
            if got[1] is not None:
                idx[j], moved = got[1], True
        if not moved:
            break
    # corners keep their cyclic order; report them ascending from the smallest index
    return sorted(idx)


def _refine_moves(
    ring: Ring, idx: list[int], js: Iterable[int], pairs_along: bool = False
) -> dict[int, tuple[tuple[int, int], int | None]]:
    """For each corner ``j`` with points between its neighbours: those neighbours, and where it
    moves (``None``: it stays) — the point between them farthest from their segment, when it
    lies farther than the corner itself. ``pairs_along``: :func:`_merge_pairs`' first runs
    (:func:`pair_runs`) measured in the same pass, for later, when a pass is needed."""
    n, k = ring.n, len(idx)
    js = [j for j in js if (idx[(j + 1) % k] - idx[j - 1]) % n >= 2]
    if not js:
        return {}
    p = [idx[j - 1] for j in js]
    q = [idx[(j + 1) % k] for j in js]
    own = [(pj, qj, pj + 1, (qj - pj) % n - 1) for pj, qj in zip(p, q)]
    found = ring.known(own)  # all remembered: no pass, and none for the pairs to ride along
    if found is None:
        found = ring.farthest(own + (pair_runs(idx, n) if pairs_along else []))
    here = ring.point_dist([(idx[j], pj, qj) for j, pj, qj in zip(js, p, q)])
    return {
        j: ((pj, qj), best if top > h and best != idx[j] else None)
        for j, pj, qj, (top, best), h in zip(js, p, q, found, here)
    }
