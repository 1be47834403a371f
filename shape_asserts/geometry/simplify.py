"""Simplification: a drawn run of cells reduced to its corners and straight edges.

One Ramer–Douglas–Peucker (:func:`rdp`) serves two callers that measure a point's deviation
differently, each as it was calibrated: the polygon families find corners with the distance to
the *segment* between kept points (:func:`simplify_closed`, behind
:class:`~shape_asserts.geometry.fit.PolygonModel`), the free scenes cut strokes into edges with the
distance to the *line* through them (:func:`simplify`, :func:`segments`). Everything takes
``(N, 2)`` arrays of ``(x, y)`` with y pointing down.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry import runs
from shape_asserts.geometry.distances import closure_distance, segment_distance
from shape_asserts.geometry.nearest import seg_dist
from shape_asserts.geometry.points import FloatArray, IntArray, as_points, roll_rows
from shape_asserts.geometry.runs import Ring, Run, first_min, pair_runs, pairs

__all__ = ["rdp", "simplify", "simplify_closed", "corner_depths", "segments", "segment_angles"]


def _line_distance(mid: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distance of each row of ``mid`` from the line through ``a`` and ``b`` (from ``a`` if they meet)."""
    ab = b - a
    norm = float(np.hypot(*ab))
    d: FloatArray
    if norm == 0.0:  # the stretch returns to where it began: measure from that point
        d = np.hypot(mid[:, 0] - a[0], mid[:, 1] - a[1])
    else:
        d = np.abs(ab[0] * (mid[:, 1] - a[1]) - ab[1] * (mid[:, 0] - a[0])) / norm
    return d


def rdp(points: ArrayLike, epsilon: float, *, to: Literal["segment", "line"] = "segment") -> IntArray:
    """Indices of the points an open polyline keeps under Ramer–Douglas–Peucker simplification.

    A point is kept when it lies more than ``epsilon`` from the chord joining the kept points on
    either side: from the segment (``to="segment"``) or from the whole line through it
    (``to="line"``, which forgives a point beyond the chord's ends). The first and last points are
    always kept. Ties go to the earlier point, so the result is the same for any isometry of
    integer input. ``points``: (N, 2); ``epsilon``: the largest deviation, in grid cells, that a
    straight side may have. Returns the indices kept, ascending.

    Examples
    --------
    >>> rdp(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]]), 0.5).tolist()
    [0, 2, 4]
    >>> back = np.array([[0, 0], [3, 0], [1, 0]])  # the middle point lies beyond the chord's end
    >>> rdp(back, 1.0).tolist(), rdp(back, 1.0, to="line").tolist()
    ([0, 1, 2], [0, 2])
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return np.arange(n)
    if to == "line" and runs.plain(pts):
        xl, yl = pts.T.tolist()
        return np.array(sorted([0, n - 1, *runs.line_rdp(xl, yl, pts[:, 0], pts[:, 1], [(0, n - 1)], epsilon)]))
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        mid = pts[i + 1 : j]
        d = segment_distance(mid, pts[i], pts[j]) if to == "segment" else _line_distance(mid, pts[i], pts[j])
        k = int(np.argmax(d))
        if d[k] > epsilon:
            k += i + 1
            keep[k] = True
            stack.extend([(i, k), (k, j)])
    return np.flatnonzero(keep)


def simplify(points: ArrayLike, tolerance: float = 1.0) -> list[int]:
    """Indices of the corners that keep a stroke within ``tolerance`` cells of its edges.

    Ramer–Douglas–Peucker against the line through the kept points. A closed stroke (last point
    next to the first) is first cut at the point farthest from its start, so that both halves
    have distinct ends; the closing step is then an edge of its own.

    Examples
    --------
    >>> simplify(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]]))
    [0, 2, 4]
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return list(range(n))
    if runs.plain(pts):
        return runs.plain_corners(pts, tolerance)
    if closure_distance(pts) <= 1.0 and n >= 4:
        far = int(np.argmax(np.max(np.abs(pts - pts[0]), axis=1)))
        if 0 < far < n - 1:
            first: list[int] = rdp(pts[: far + 1], tolerance, to="line").tolist()
            second = [far + i for i in rdp(pts[far:], tolerance, to="line").tolist()]
            return first + second[1:]
    return [int(i) for i in rdp(pts, tolerance, to="line")]


def simplify_closed(
    points: ArrayLike,
    epsilon: float,
    *,
    min_side: float = 0.0,
    max_corners: int = 64,
    ahead: int = 0,
    ring: Ring | None = None,
) -> IntArray:
    """Indices of the corners of a closed contour, in drawing order.

    The contour is cut at its first point and at the point farthest from it (squared distances,
    exact for grid points), each half is simplified with :func:`rdp`, and then any kept point
    within ``epsilon`` of the segment joining its neighbours is dropped — so the cut points are
    corners only if the shape has corners there. Two corners closer than ``min_side`` are one
    corner cut off by the raster (a digital line meets a vertex in a short flat run): the flatter
    of the two goes. Each corner is finally moved to the point between its neighbours that lies
    farthest from their segment. Returns the corners' indices, ascending.

    ``points`` (N, 2) is a closed contour without its closing point (the last point joins the first
    implicitly); ``min_side`` the shortest side kept, in cells (0: any). A contour with more RDP
    corners than ``max_corners`` is no polygon (a scribble, a filled area): its corners are returned
    as found, without the clean-up. ``ahead``: the corners expected (0: no guess), which decides when
    work is done (:func:`_rdp_ring`); ``ring``: a :class:`.runs.Ring` of ``points`` to measure on.

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
    dx, dy = pts[:, 0] - pts[0, 0], pts[:, 1] - pts[0, 1]
    far = int(np.add(dx * dx, dy * dy, out=dx).argmax())  # the squared distances from point 0
    if far == 0:
        return np.array([0])
    ring = Ring(pts) if ring is None else ring
    # the two halves, 0..far and far..n (n is 0 again), by one RDP over both
    inner, fetched = _rdp_ring(ring, [(0, far), (far, n)], epsilon, ahead)
    idx = sorted(inner | {0, far})
    if len(idx) > max_corners:
        return np.array(idx, dtype=np.int64)
    if not fetched:
        ring.farthest(_first_runs(n, idx))
    kept = _drop_shallow(ring, idx, epsilon)
    idx = _refine(ring, kept)
    # moving the corners onto the drawing's real corners can leave a cut point flat between two of
    # them (the point farthest from the start lies mid-side when the start is a corner): drop again
    # (when none moved, that was just done: a drop leaves none to drop)
    if idx != kept:
        idx = _refine(ring, _drop_shallow(ring, idx, epsilon))
    while min_side > 0 and len(idx) > 3:
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


def _rdp_ring(ring: Ring, spans: list[tuple[int, int]], epsilon: float, ahead: int = 0) -> tuple[set[int], bool]:
    """:func:`rdp` (to the segment) of the stretches ``i..j`` of ``ring``, all pending ones in one
    pass (each split depends only on its own stretch): the points kept inside them. While ``ahead`` to
    twice as many are kept (ends included; never a scribble's thousands), a pass also measures their
    :func:`_first_runs`, in case it is the last (the ring keeps them); also: whether the last did."""
    keep: set[int] = set()
    ends, fetched = {e for span in spans for e in span if e < ring.n}, False
    todo = [(i, j) for i, j in spans if j - i >= 2]
    while todo:
        nxt, kept = [], len(keep)
        runs = [(i, j, i + 1, j - i - 1) for i, j in todo]
        fetched = 0 < ahead <= len(keep | ends) <= 2 * ahead
        runs += _first_runs(ring.n, sorted(keep | ends)) if fetched else []
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
        found = ring.farthest(pair_runs(idx, n))
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
    triples = []
    for j, a, m, d in deep:
        for b in (idx[j], idx[(j + 1) % k]):  # a to m holds the points up to m; m to d those after
            triples.append((b, a, m) if (b - a) % n <= (m - a) % n else (b, m, d))
    dev = _point_dists(ring, triples)  # (``<=``: a nan does not fit)
    return [pair for g, pair in enumerate(deep) if dev[2 * g] <= epsilon and dev[2 * g + 1] <= epsilon]


def _point_dists(ring: Ring, triples: list[tuple[int, int, int]]) -> list[float]:
    """``ring.point_dist(triples)`` of a few points not measured yet, in plain floats (the double
    operations of :func:`.runs._seg_dist`; a zero's sign only reaches ``hypot``) and one ``np.hypot``."""
    xl, yl = ring.x.data, ring.y.data  # memoryviews of float64: item i is a float
    qx, qy = [], []
    for i, a, b in triples:
        ax, ay = xl[a], yl[a]
        abx, aby = xl[b] - ax, yl[b] - ay
        den = abx * abx + aby * aby
        apx, apy = xl[i] - ax, yl[i] - ay
        t = (apx * abx + apy * aby) / (den if den > 0 else 1.0)
        t = min(max(t, 0.0), 1.0)  # np.maximum then np.minimum: a nan stays
        qx.append(apx - t * abx)
        qy.append(apy - t * aby)
    out: list[float] = np.hypot(qx, qy).tolist()
    return out


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


def corner_depths(vertices: ArrayLike) -> FloatArray:
    """Distance of each vertex of a closed polygon from the segment joining its two neighbours, (K,):
    how far each corner stands out (a regular ``n``-gon's is ``R (1 − cos(2π/n))``).

    Examples
    --------
    >>> corner_depths(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])).round(3).tolist()
    [7.071, 7.071, 7.071, 7.071]
    """
    v = as_points(vertices)
    x, y = v[:, 0], v[:, 1]
    return seg_dist(x, y, roll_rows(x, 1), roll_rows(y, 1), roll_rows(x, -1), roll_rows(y, -1))


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
        pre = _refine_moves(ring, idx, range(k), also=pair_runs(idx, n) if k > 3 else [])
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
    ring: Ring, idx: list[int], js: Iterable[int], also: list[Run] | None = None
) -> dict[int, tuple[tuple[int, int], int | None]]:
    """For each corner ``j`` with points between its neighbours: those neighbours, and where it
    moves (``None``: it stays) — the point between them farthest from their segment, when it
    lies farther than the corner itself. ``also``: runs measured in the same pass, for later."""
    n, k = ring.n, len(idx)
    js = [j for j in js if (idx[(j + 1) % k] - idx[j - 1]) % n >= 2]
    if not js:
        return {}
    p = [idx[j - 1] for j in js]
    q = [idx[(j + 1) % k] for j in js]
    found = ring.farthest([(pj, qj, pj + 1, (qj - pj) % n - 1) for pj, qj in zip(p, q)] + (also or []))
    here = ring.point_dist([(idx[j], pj, qj) for j, pj, qj in zip(js, p, q)])
    return {
        j: ((pj, qj), best if top > h and best != idx[j] else None)
        for j, pj, qj, (top, best), h in zip(js, p, q, found, here)
    }


def segments(
    points: ArrayLike, tolerance: float = 1.0, *, min_length: float = 0.0, closed: bool | None = None
) -> FloatArray:
    """The straight edges of a simplified stroke, shape (M, 2, 2): ``[[x0, y0], [x1, y1]]`` rows.

    Edges shorter than ``min_length`` cells are dropped. ``closed`` adds the closing edge from the
    last corner to the first (default: when the stroke ends next to its start).

    Examples
    --------
    >>> segments(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]])).tolist()
    [[[0.0, 0.0], [2.0, 0.0]], [[2.0, 0.0], [2.0, 2.0]]]
    """
    pts = as_points(points)
    n = len(pts)
    if n >= 3 and runs.plain(pts):
        return runs.plain_segments(pts, tolerance, min_length, closed)
    idx = simplify(pts, tolerance)
    corners = pts[idx]
    if closed is None:
        closed = len(pts) >= 4 and closure_distance(pts) <= 1.0
    if closed and len(corners) >= 3 and closure_distance(corners) > 0:
        corners = np.vstack([corners, corners[:1]])
    if len(corners) < 2:
        return np.zeros((0, 2, 2))
    segs = np.stack([corners[:-1], corners[1:]], axis=1)
    lengths = np.hypot(*(segs[:, 1] - segs[:, 0]).T)
    kept: FloatArray = segs[lengths >= min_length] if min_length > 0 else segs[lengths > 0]
    return kept


def segment_angles(segs: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Direction (degrees in [0, 180), as on screen: 0 is horizontal, 90 vertical, 26.6 a 2:1
    line going down to the right) and length of each segment of :func:`segments`.

    Examples
    --------
    >>> [a.round(1).tolist() for a in segment_angles([[[0, 0], [2, 1]], [[0, 0], [0, -3]]])]
    [[26.6, 90.0], [2.2, 3.0]]
    """
    s = np.asarray(segs, dtype=float).reshape(-1, 2, 2)
    d = s[:, 1] - s[:, 0]
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180.0
    return ang, np.hypot(d[:, 0], d[:, 1])
