"""Nearest neighbours without every pair: the exact minimum distances behind :mod:`.distances`.

A drawing and the curve it is held to lie in a grid tens of cells wide, and a point's nearest
neighbour is a cell or two away; comparing every point with every other costs ``N × M`` all the
same. Here the targets are sorted by ``x`` once, and each query looks only at the targets in a
vertical strip ``|dx| ≤ w`` about it; when the nearest one found is closer than ``w`` no target
outside the strip can be nearer (it is more than ``w`` away along ``x`` alone), so the query is
done, else its strip widens to the nearest distance it saw (or ``w × 4`` when it saw none) and it
is tried again, which settles it. A fair drawing settles in the first strip: the work is
``O((N + M) log M + pairs in the strips)``, near-linear; a query that finds nothing near costs no
more than comparing it with every target.

Exact, not approximate: each pair's distance is the same float expression, on the same values,
as the all-pairs form (:func:`brute_nearest`, :func:`brute_to_segments`), and the minimum over a
set that provably holds the minimum is that minimum. Small inputs (where sorting costs more than
it saves), coordinates beyond ``±1e6`` (a float's rounding could blur the strip's edge) and
non-finite ones take the all-pairs form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from shape_asserts.geometry.nearest_kernels import (
    WholeTables,
    _safe,
    brute_nearest,
    brute_to_segments,
    on_segment,
    seg_dist,
)
from shape_asserts.geometry.points import FloatArray, IntArray

__all__ = [
    "nearest_sq",
    "nearest_both",
    "CellIndex",
    "to_segments",
    "on_segment",
    "seg_dist",
    "brute_nearest",
    "brute_to_segments",
]

#: Below this many pairs the all-pairs form is the faster one (``_SMALL_ONE_WAY``: :func:`nearest_sq`'s
#: own, its ``(q, b)`` differences under 64 KB: 8,000 pairs ~30 µs all-pairs, 38-67 µs by strips; at
#: 16,000, 128 KB, each array is mapped afresh and all pairs take ~150 µs).
_SMALL, _SMALL_ONE_WAY = 4_096, 8_192
#: Lists at least this long are searched once per distinct point.
_DEDUPE = 512
#: First strip half-width, cells: a fair drawing's nearest neighbours are within a cell or two.
_FIRST_STRIP = 2.0
#: A strip that found its minimum closer than ``w - _EDGE`` is settled (float rounding at the edge).
_EDGE = 1e-6


def _pairs(lo: IntArray, hi: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """For ranges ``[lo_i, hi_i)``: each pair's query index and target index, and each query's count."""
    counts = hi - lo
    ends = counts.cumsum()
    qi = np.arange(len(lo)).repeat(counts)
    ti = np.arange(int(ends[-1]) if len(ends) else 0) - (ends - counts - lo).repeat(counts)
    return qi, ti, counts


def _group_min(values: FloatArray, counts: IntArray) -> FloatArray:
    """The minimum of each query's run of ``values`` (``inf`` for a query with none)."""
    out = np.full(len(counts), np.inf)
    if values.size:
        has = counts > 0
        starts = (counts.cumsum() - counts)[has]
        out[has] = np.minimum.reduceat(values, starts)
    return out


def _distinct(p: FloatArray) -> tuple[FloatArray, IntArray] | None:
    """The distinct rows of a long point list and where each row went (``None``: not worth it).

    A point written many times has one distance: a hostile answer repeating a few cells costs
    only those cells.
    """
    if len(p) < _DEDUPE:
        return None
    keys, inverse = np.unique(np.ascontiguousarray(p).view(np.complex128).ravel(), return_inverse=True)
    if len(keys) > len(p) // 2:
        return None
    return np.column_stack([keys.real, keys.imag]), inverse.ravel()


def _widen(w: FloatArray, found: FloatArray) -> FloatArray:
    """The next strip of a point not yet settled: just past the nearest target seen (which the
    next strip then holds, settling the point), else four times as wide."""
    out: FloatArray = np.where(np.isfinite(found), np.maximum(found + 2 * _EDGE, w), w * 4.0)
    return out


def nearest_sq(q: FloatArray, b: FloatArray, metric: str = "euclidean", *, distinct: bool = False) -> FloatArray:
    """Each row of ``q``'s smallest distance to a row of ``b``: squared for ``"euclidean"``, plain
    for ``"chebyshev"``; shape ``(len(q),)``, ``inf`` when ``b`` is empty. Exact (module docstring).

    ``distinct``: the caller knows ``q``'s rows are distinct (an outline's samples), so a long
    ``q`` is not searched for repeats first.

    >>> nearest_sq(np.array([[0.0, 0.0], [4, 3]]), np.array([[0.0, 1.0], [1, 3]])).tolist()
    [1.0, 9.0]
    """
    if len(b) == 0:
        return np.full(len(q), np.inf)
    if len(q) * len(b) <= _SMALL_ONE_WAY or not _safe(q, b):
        return brute_nearest(q, b, metric)
    once = None if distinct else _distinct(q)
    if once is not None:
        return nearest_sq(once[0], b, metric)[once[1]]
    once = _distinct(b)  # a target written twice is as near the second time
    if once is not None:
        b = once[0]
    bs = b[np.argsort(b[:, 0], kind="stable")]
    # x and y apart: a pair's |dx| and |dy| (their larger, or dx² + dy², what a sum over the last
    # axis of two adds) without reducing over an axis of two
    bx, by = np.ascontiguousarray(bs[:, 0]), np.ascontiguousarray(bs[:, 1])
    qx, qy = np.ascontiguousarray(q[:, 0]), np.ascontiguousarray(q[:, 1])
    out = np.full(len(q), np.inf)
    todo = np.arange(len(q))
    w = np.full(len(todo), _FIRST_STRIP)
    while todo.size:
        tx, ty = qx[todo], qy[todo]
        lo = bx.searchsorted(tx - w, side="left")
        hi = bx.searchsorted(tx + w, side="right")
        if int((hi - lo).sum()) * 2 > len(todo) * len(b):  # the strips hold most pairs: take them all
            out[todo] = brute_nearest(q[todo], b, metric)
            break
        qi, ti, counts = _pairs(lo, hi)
        dx, dy = tx[qi] - bx[ti], ty[qi] - by[ti]
        if metric == "chebyshev":
            found = _group_min(np.maximum(np.abs(dx), np.abs(dy)), counts)
            done, bound = found <= w - _EDGE, found
        else:
            found = _group_min(dx * dx + dy * dy, counts)
            done, bound = found <= (w - _EDGE) ** 2, np.sqrt(found)
        out[todo[done]] = found[done]
        todo, w = todo[~done], _widen(w, bound)[~done]
    return out


#: Cells either way about a cell whose points :class:`CellIndex` lists: they settle a query nearer than this.
_REACH = 2
#: Most points a :class:`CellIndex` cell may list, and its largest table (entries, 16 MB): else no index.
_SLOTS, _TABLE_CELLS = 32, 2_000_000


@dataclass(frozen=True, eq=False)
class CellIndex:
    """The points of ``b`` by grid cell, for :func:`nearest_both`: for every cell of a box about them,
    the points in the ``(2 * _REACH + 1)²`` cells about it, a table ``(slots, cells)`` (cells
    row-major, ``width`` to a row) filled up with ``len(b)``, a point at infinity (``bx``, ``by``'s
    last). Made once for a reference drawing that many answers are held to.

    A query in cell ``(cx, cy)`` (its coordinates floored) is paired with the points listed for
    that cell; any point not listed lies in a cell more than ``_REACH`` away in ``x`` or ``y``,
    so farther than ``_REACH`` from the query: a listed nearest closer than that is the nearest.
    And a point of ``b`` whose nearest query lies closer than ``_REACH`` is listed for that
    query's cell, so the same pairs settle both sides. The box's border cells list nothing: a query
    off the box, its cell clipped onto the border (``origin`` .. ``origin + corner``), meets none.
    """

    b: FloatArray
    table: IntArray
    width: int
    origin: IntArray
    corner: IntArray
    bx: FloatArray
    by: FloatArray
    #: what a part of whole points reads (:class:`.nearest_kernels.WholeTables`), made at its 4th use
    whole: WholeTables = field(default_factory=WholeTables)

    @classmethod
    def of(cls, b: FloatArray) -> CellIndex | None:
        """The index of ``b``; ``None`` where :func:`nearest_both` would not use one (no points, as many
        as it first drops repeats from, coordinates beyond ``±_SAFE`` or not finite) or too big."""
        if len(b) == 0 or len(b) >= _DEDUPE or not _safe(b):
            return None
        cx, cy = np.floor(b[:, 0]).astype(np.int64), np.floor(b[:, 1]).astype(np.int64)
        # the box: every cell within _REACH of a point's, and one more each way (the border)
        x0, y0 = int(cx.min()) - _REACH - 1, int(cy.min()) - _REACH - 1
        width, height = int(cx.max()) + _REACH + 2 - x0, int(cy.max()) + _REACH + 2 - y0
        if width * height > _TABLE_CELLS:
            return None
        near = np.arange(-_REACH, _REACH + 1)
        ox, oy = np.tile(near, len(near)), near.repeat(len(near))
        # every (cell, point) with the point within _REACH cells of the cell, grouped by cell
        cells = ((cy[:, None] + oy - y0) * width + (cx[:, None] + ox - x0)).ravel()
        order = np.argsort(cells, kind="stable")
        count = np.bincount(cells, minlength=width * height)
        slots = int(count.max())
        if slots > _SLOTS or width * height * slots > _TABLE_CELLS:
            return None
        table = np.full((slots, width * height), len(b), dtype=np.int64)
        # each listed point's slot: its place among its cell's, in b's order
        table[np.arange(len(cells)) - (count.cumsum() - count).repeat(count), cells[order]] = order // len(ox)
        bx, by = np.append(b[:, 0], np.inf), np.append(b[:, 1], np.inf)
        origin, corner = np.array([x0, y0]), np.array([width - 1, height - 1])
        for a in (b, table, origin, corner, bx, by):
            a.flags.writeable = False
        return cls(b, table, width, origin, corner, bx, by)


def nearest_both(
    parts: Sequence[FloatArray], b: FloatArray, index: CellIndex | None = None
) -> list[tuple[FloatArray, FloatArray]]:
    """For each ``a`` of ``parts``: ``nearest_sq(a, b)`` and ``nearest_sq(b, a)`` (Euclidean,
    squared), from one set of pairs for all of them: those of ``index`` (``b``'s
    :class:`CellIndex`) when given, else those of a strip ``|dx| ≤ w``.

    A pair's squared distance is the same float either way round (``a - b`` is ``-(b - a)`` exactly, and
    squares drop the sign), so the pairs found for the parts' points serve ``b``'s too: each side's minimum
    over them settles every point whose nearest lies closer than ``w`` (or ``_REACH``: the module
    docstring's argument, for both sides and each part apart), and the few points left take
    :func:`nearest_sq`. Empty, small, long (where :func:`nearest_sq` first drops repeats), far-off or
    non-finite inputs take :func:`nearest_sq` both ways.

    >>> [[x.tolist() for x in ab] for ab in nearest_both([np.array([[0.0, 0.0], [4, 3]])], np.array([[0.0, 1.0], [1, 3]]))]
    [[[1.0, 9.0], [1.0, 9.0]]]
    """
    sizes = [len(a) for a in parts]
    m = len(b)
    # (b's own index is made only for a b within the safe range, and read-only: b is not checked again)
    if (
        not parts
        or min(sizes) * m <= _SMALL
        or max(sizes) >= _DEDUPE
        or m >= _DEDUPE
        or not _safe(*parts)
        or not ((index is not None and index.b is b) or _safe(b))
    ):
        return [(nearest_sq(a, b), nearest_sq(b, a)) for a in parts]
    a = np.concatenate(parts) if len(parts) > 1 else parts[0]
    if index is not None:
        if index.b is not b:
            raise ValueError("index is not of b")
        near_a, near_b, reach = *_through_index(parts, a, index), float(_REACH)
    else:
        ia, ib = np.argsort(a[:, 0], kind="stable"), np.argsort(b[:, 0], kind="stable")
        ax, ay, bx, by = a[ia, 0], a[ia, 1], b[ib, 0], b[ib, 1]
        lo = bx.searchsorted(ax - _FIRST_STRIP, side="left")
        hi = bx.searchsorted(ax + _FIRST_STRIP, side="right")
        if int((hi - lo).sum()) * 2 > len(a) * m:  # the strips hold most pairs: nothing to gain
            return [(nearest_sq(a, b), nearest_sq(b, a)) for a in parts]
        qi, si, counts = _pairs(lo, hi)
        dx, dy = ax[qi] - bx[si], ay[qi] - by[si]
        d2 = dx * dx + dy * dy
        near_a = np.empty(len(a))
        near_a[ia] = _group_min(d2, counts)
        ti = ib[si]  # (the pairs' targets in b's order)
        # b's nearest in each part: the pairs' minima by (part of the query, target)
        near_b = np.full((len(parts), m), np.inf)
        key = ti if len(parts) == 1 else np.arange(len(parts)).repeat(sizes)[ia][qi] * m + ti
        np.minimum.at(near_b.ravel(), key, d2)
        reach = _FIRST_STRIP
    settled = (reach - _EDGE) ** 2
    out = []
    start = 0
    for g, part_g in enumerate(parts):
        na, nb = near_a[start : start + sizes[g]], near_b[g]
        start += sizes[g]
        if np.maximum.reduce(na) > settled:  # (a fair drawing has none left: one reduction tells)
            rest = np.flatnonzero(na > settled)
            na[rest] = nearest_sq(part_g[rest], b)
        if np.maximum.reduce(nb) > settled:
            rest = np.flatnonzero(nb > settled)
            nb[rest] = nearest_sq(b[rest], part_g)
        out.append((na, nb))
    return out


def _through_index(parts: Sequence[FloatArray], a: FloatArray, index: CellIndex) -> tuple[FloatArray, FloatArray]:
    """:func:`nearest_both`'s minima through ``index`` (each query's; each point's in each part, a row
    per part): each query of ``a`` (the parts stacked) with every slot of its cell, each pair the
    same float (``qx - bx``, ``qy - by`` squared and added; with the point at infinity: inf). Parts
    of whole points, once ``index`` has its :class:`_WholeTables`, read them (:func:`_whole_parts`)."""
    floor = np.floor(a)
    cells = floor.astype(np.int64)
    cells -= index.origin
    np.maximum(cells, 0, out=cells)
    np.minimum(cells, index.corner, out=cells)
    key = cells[:, 1] * index.width + cells[:, 0]
    whole = index.whole.of(index, _REACH)
    if whole is not None:
        sizes = [len(p) for p in parts]
        ends = list(accumulate(sizes))
        at = floor == a
        is_whole = [bool(np.logical_and.reduce(at[e - k : e], axis=None)) for k, e in zip(sizes, ends)]
        if any(is_whole):
            return _whole_parts(parts, a, key, is_whole, index, whole)
    return _pairs_through_index(parts, a, key, index)


def _pairs_through_index(
    parts: Sequence[FloatArray], a: FloatArray, key: IntArray, index: CellIndex
) -> tuple[FloatArray, FloatArray]:
    """:func:`_through_index`'s minima from its pairs: each query (its cell ``key``) with every slot
    of its cell."""
    m = len(index.b)
    # (slots, queries), C-ordered: np.take keeps it so (table[:, cells] would give it by columns)
    ti = np.take(index.table, key, axis=1)
    dx, dy = a[:, 0] - index.bx[ti], a[:, 1] - index.by[ti]
    d2 = dx * dx
    d2 += dy * dy
    # b's nearest in each part: the pairs' minima by (part of the query, point), a column past the
    # last taking the pairs with the point at infinity (all inf: it stays inf, and is dropped)
    if len(parts) > 1:
        ti += np.arange(len(parts)).repeat([len(p) for p in parts]) * (m + 1)
    near_b = np.full((len(parts), m + 1), np.inf)
    np.minimum.at(near_b.ravel(), ti.ravel(), d2.ravel())
    # each query's least over its column: halves of rows folded together (np.minimum.reduce is slower)
    k = len(d2)
    while k > 1:
        h = k // 2
        np.minimum(d2[:h], d2[k - h : k], out=d2[:h])  # rows k - h .. k - 1 onto 0 .. h - 1
        k -= h
    return d2[0].copy(), near_b[:, :m]


def _whole_parts(
    parts: Sequence[FloatArray],
    a: FloatArray,
    key: IntArray,
    is_whole: list[bool],
    index: CellIndex,
    whole: WholeTables,
) -> tuple[FloatArray, FloatArray]:
    """:func:`_through_index`'s minima, its parts of whole points read from ``whole``
    (:meth:`.nearest_kernels.WholeTables.minima`), the others through the pairs as before."""
    if len(parts) == 1:  # (one part, whole: its minima as they come)
        near_a, near_b = whole.minima(key)
        return near_a, near_b[None]
    near_a, near_b = np.empty(len(a)), np.empty((len(parts), len(index.b)))
    bounds = list(accumulate([len(p) for p in parts], initial=0))
    rest = [g for g in range(len(parts)) if not is_whole[g]]
    for g in range(len(parts)):
        if is_whole[g]:
            near_a[bounds[g] : bounds[g + 1]], near_b[g] = whole.minima(key[bounds[g] : bounds[g + 1]])
    if rest:
        # the other parts stacked (their keys with them), their minima put back in place
        others = [parts[g] for g in rest]
        sub = np.concatenate([key[bounds[g] : bounds[g + 1]] for g in rest])
        got_a, got_b = _pairs_through_index(others, np.concatenate(others), sub, index)
        at = 0
        for k, g in enumerate(rest):
            near_a[bounds[g] : bounds[g + 1]] = got_a[at : at + len(parts[g])]
            near_b[g] = got_b[k]
            at += len(parts[g])
    return near_a, near_b


def to_segments(p: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Each point's distance to the nearest of the segments ``a[k]``–``b[k]``, shape ``(len(p),)``.

    Exact (module docstring): a segment's strip is its ``x`` extent, so the search pays off for
    curves sampled in short chords; a few long sides are compared with every point. Sides in the
    strip whose ``y`` extent is more than ``w`` from the point are dropped before measuring.

    >>> to_segments(np.array([[5.0, 5.0], [12, 0]]), np.array([[0.0, 0], [10, 0]]), np.array([[10.0, 0], [10, 10]])).tolist()
    [5.0, 2.0]
    """
    if len(p) * len(a) <= _SMALL or not _safe(p, a, b):
        return brute_to_segments(p, a, b)
    once = _distinct(p)
    if once is not None:
        return to_segments(once[0], a, b)[once[1]]
    xmin = np.minimum(a[:, 0], b[:, 0])
    order = np.argsort(xmin, kind="stable")
    a, b, xmin = a[order], b[order], xmin[order]
    ymin, ymax = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    reach = float(np.abs(b[:, 0] - a[:, 0]).max())  # a segment starting this far left may still reach in
    out = np.full(len(p), np.inf)
    todo = np.arange(len(p))
    w = np.full(len(todo), _FIRST_STRIP)
    while todo.size:
        pt = p[todo]
        lo = np.searchsorted(xmin, pt[:, 0] - w - reach, side="left")
        hi = np.searchsorted(xmin, pt[:, 0] + w, side="right")
        if int((hi - lo).sum()) * 2 > len(todo) * len(a):
            out[todo] = brute_to_segments(pt, a, b)
            break
        qi, si, counts = _pairs(lo, hi)
        # a side whose y extent misses the strip's square is farther than w: it cannot settle the point
        py, wq = pt[qi, 1], w[qi]
        near = (ymin[si] <= py + wq) & (ymax[si] >= py - wq)
        qi, si = qi[near], si[near]
        found = _group_min(
            seg_dist(pt[qi, 0], pt[qi, 1], a[si, 0], a[si, 1], b[si, 0], b[si, 1]), np.bincount(qi, minlength=len(pt))
        )
        done = found <= w - _EDGE
        out[todo[done]] = found[done]
        todo, w = todo[~done], _widen(w, found)[~done]
    return out
