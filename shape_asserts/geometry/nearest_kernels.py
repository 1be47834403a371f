"""The small pieces of the nearest searches (:mod:`.nearest`, :mod:`.nearest_xy`): the safe range
of coordinates, the per-pair expressions (every pair, a point's distance to a segment), what a
scene's cell index reads for a part of whole points, and an outline search's drawn points.

Kept apart from the searches so that each module stays short; :mod:`.nearest` re-exports the
functions its callers have always imported from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from shape_asserts.geometry.points import BoolArray, FloatArray, IntArray

if TYPE_CHECKING:
    from shape_asserts.geometry.nearest import CellIndex
    from shape_asserts.geometry.nearest_xy import _Cells as Cells

#: Pairs computed at once by the all-pairs forms (bounds the memory used): 64 KB arrays, which stay
#: in cache and are not mapped afresh by each allocation as 128 KB ones are (measured, points:
#: 160 × 200 pairs 302 -> 109 µs, 5000 × 5000 112 -> 68 ms; segments: 200 × 200 1026 -> 754 µs).
PAIRS = 8_192
#: Coordinates beyond this take the all-pairs form (the strip's float edge stays exact below it).
_SAFE = 1e6


def _safe(*arrays: FloatArray) -> bool:
    """Every coordinate within ``±_SAFE`` (a nan is not): the smallest and the largest tell."""
    return all(
        a.size == 0 or bool(np.minimum.reduce(a, axis=None) >= -_SAFE and np.maximum.reduce(a, axis=None) <= _SAFE)
        for a in arrays
    )


def brute_nearest(q: FloatArray, b: FloatArray, metric: str) -> FloatArray:
    """Every pair: each query's smallest squared Euclidean (or Chebyshev) distance to ``b``."""
    rows = max(1, PAIRS // max(1, len(b)))  # rows of ``q`` per block
    out = [np.zeros(0)]
    bx, by = b[None, :, 0], b[None, :, 1]
    for i in range(0, len(q), rows):
        # x and y apart: the larger of |dx| and |dy|, or dx² + dy² (what a sum over an axis of two adds)
        dx, dy = q[i : i + rows, 0, None] - bx, q[i : i + rows, 1, None] - by
        if metric == "chebyshev":
            out.append(np.maximum(np.abs(dx), np.abs(dy)).min(axis=1))
        else:
            out.append((dx * dx + dy * dy).min(axis=1))
    return np.concatenate(out)


def on_segment(p: FloatArray, start: FloatArray, end: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Point-to-segment distance and where the nearest point lies (``t`` in [0, 1]), broadcast;
    the one expression of :func:`.distances.nearest_on_segment` and of the searches here."""
    ab = end - start
    ap = p - start
    # np.add.reduce is what np.sum calls, without its wrapper: this runs thousands of times a score
    den = np.add.reduce(ab * ab, axis=-1)
    # a segment of no length is its one point: every projection lands on its start
    t = (np.add.reduce(ap * ab, axis=-1) / np.where(den > 0, den, 1.0)).clip(0.0, 1.0)
    d = ap - t[..., None] * ab
    dist: FloatArray = np.hypot(d[..., 0], d[..., 1])
    return dist, t


def seg_dist(
    px: FloatArray,
    py: FloatArray,
    ax: FloatArray | float,
    ay: FloatArray | float,
    bx: FloatArray | float,
    by: FloatArray | float,
) -> FloatArray:
    """:func:`on_segment`'s distance with ``x`` and ``y`` apart (broadcast), the same floats: the
    products summed over the last axis of two are the same two products added, and a ``t``
    clipped to a zero of either sign only multiplies a difference then subtracted."""
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    den = abx * abx + aby * aby
    t = (apx * abx + apy * aby) / np.where(den > 0, den, 1.0)
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    d: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
    return d


def brute_to_segments(p: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Every pair: each point's distance to the nearest segment ``a[k]``–``b[k]`` (in blocks of
    about :data:`PAIRS` pairs, as :func:`brute_nearest`)."""
    chunk = max(1, PAIRS // max(1, len(a)))
    ax, ay, bx, by = a[None, :, 0], a[None, :, 1], b[None, :, 0], b[None, :, 1]
    out = [np.zeros(0)] + [
        seg_dist(p[i : i + chunk, 0, None], p[i : i + chunk, 1, None], ax, ay, bx, by).min(axis=1)
        for i in range(0, len(p), chunk)
    ]
    return np.concatenate(out)


#: :class:`WholeTables` are made at a :class:`CellIndex`'s fourth use: a replay scores each case once,
#: and the built-in cases share a reference among three at most (~60 us to make, ~13 us saved a use
#: after), so a replay never pays for them; repeated scoring of a scene does from its fourth answer.
_WHOLE_AT = 4
#: ... and only for an index of this many slots a cell or more: with fewer, a query meets few enough
#: padded pairs that they are as quick as the tables' (2 * reach + 1)² cells a point (a line of points
#: a cell apart: 5 slots, a chamfer ~15% quicker; 2 apart, 3 slots, ~5%; 3 apart, 2 slots, even; bench
#: stick: 10 slots, ~25%; house: 15, ~40%), and the tables would never pay for themselves.
_WHOLE_SLOTS = 4


class WholeTables:
    """What a part of whole points (each at its cell's corner) measures through a :class:`CellIndex`,
    measured once from the corners: each cell's least ``dx² + dy²`` from its corner to the points
    it lists (``cell_min``: inf for none), and for each point of ``b`` the cells that list it and
    that square from their corners (``cells``, ``d2``: a row per cell about the point, a column per
    point). The same expression on the same values as :func:`_through_index` (a whole query's
    coordinates are its corner's, a zero's sign aside, which the squares drop), so the same floats.
    """

    def __init__(self) -> None:
        self.uses = 0
        self.cell_min = np.zeros(0)
        self.cells = np.zeros((0, 0), dtype=np.int64)
        self.d2 = np.zeros((0, 0))
        self.ready = False

    def of(self, index: CellIndex, reach: int) -> WholeTables | None:
        """These tables for ``index`` (its points listed with the cells ``reach`` either way about
        theirs), made at its :data:`_WHOLE_AT`-th use (``None`` before, and for an index of fewer
        than :data:`_WHOLE_SLOTS` slots)."""
        if not self.ready:
            self.uses += 1
            if self.uses < _WHOLE_AT or index.table.shape[0] < _WHOLE_SLOTS:
                return None
            # the cells listing each point: its cell's (2 * reach + 1)² about it, as CellIndex.of has
            # them (cells row-major: cy * width + cx), and each one's corner's dx² + dy² to the point
            m = len(index.b)
            near = np.arange(-reach, reach + 1)
            ox, oy = np.tile(near, len(near)), near.repeat(len(near))
            bx, by = index.bx[:m], index.by[:m]
            fx, fy = np.floor(bx), np.floor(by)
            bcx, bcy = fx.astype(np.int64) - int(index.origin[0]), fy.astype(np.int64) - int(index.origin[1])
            self.cells = (bcy + oy[:, None]) * index.width + (bcx + ox[:, None])
            # (a corner's x and y: whole floats, a point's cell's plus the offset, exact)
            dx = (fx + ox[:, None].astype(np.float64)) - bx
            dy = (fy + oy[:, None].astype(np.float64)) - by
            self.d2 = dx * dx
            self.d2 += dy * dy
            # each cell's least of them: the pairs a query at its corner meets (a minimum, any order)
            self.cell_min = np.full(index.table.shape[1], np.inf)
            np.minimum.at(self.cell_min, self.cells.ravel(), self.d2.ravel())
            for a in (self.cell_min, self.cells, self.d2):
                a.flags.writeable = False
            self.ready = True
        return self

    def minima(self, key: IntArray) -> tuple[FloatArray, FloatArray]:
        """A part's minima, its points whole and in cells ``key``: each point's (its cell's
        ``cell_min``) and each of the index's points' (the least of its cells' squares whose cell
        holds a point, + 0.0, exact on non-negative squares; + inf for one holding none)."""
        held = np.full(len(self.cell_min), np.inf)
        held[key] = 0.0
        sq = held[self.cells]
        sq += self.d2
        near_b: FloatArray = np.minimum.reduce(sq, axis=0)
        return self.cell_min[key], near_b


class Query:
    """The drawn points of one search (or of both searches of an answer: :meth:`.nearest_xy.Outline.both`), with
    what the searches ask of them worked out once: their columns, whether every coordinate is
    within the safe range, their cells in an outline's index."""

    def __init__(self, pts: FloatArray) -> None:
        self.pts = pts
        self.px, self.py = pts[:, 0], pts[:, 1]
        self._safe: bool | None = None
        self._key: IntArray | None = None
        self._cells: Cells | None = None
        self._whole_pts: BoolArray | None = None
        self._floor: FloatArray | None = None
        self._whole_known = False

    def floor(self) -> FloatArray:
        """``np.floor`` of the points (their cells' corners), read by their keys and wholeness."""
        if self._floor is None:
            self._floor = np.floor(self.pts)
        return self._floor

    def safe(self) -> bool:
        """:func:`_safe` of the points."""
        if self._safe is None:
            self._safe = _safe(self.pts)
        return self._safe

    def key(self, cells: Cells) -> IntArray:
        """:meth:`Cells.key` of the points in ``cells``."""
        if self._key is None or self._cells is not cells:
            self._key, self._cells = cells.key(self.pts, self.floor()), cells
        return self._key

    def _whole(self) -> BoolArray | None:
        """``None`` when every point's coordinates are whole (the usual case), else which are."""
        if not self._whole_known:
            whole = self.floor() == self.pts
            self._whole_pts = None if np.logical_and.reduce(whole, axis=None) else whole[:, 0] & whole[:, 1]
            self._whole_known = True
        return self._whole_pts

    def corners(self, cells: Cells) -> tuple[IntArray, IntArray | None]:
        """The corners whose listed samples each point meets, and the point of each (``None``: the
        i-th corner is the i-th point's). A whole point meets its own corner: every sample within
        :data:`.nearest_xy._REACH` of it along ``x`` and ``y`` is listed there; any other point the four of its
        cell, between which every sample that near it is listed (along ``x`` a sample at or left
        of it is within 1 of the cell's left side, one right of it within 1 of its right side)."""
        key = self.key(cells)
        whole = self._whole()
        if whole is None:
            return key, None
        off = np.flatnonzero(~whole)
        k = key[off]
        # (a point at the index's far border is more than 2 cells from every sample: its neighbours
        # beyond the last cell are clipped onto it, which only adds pairs)
        more = np.minimum(np.concatenate([k + cells.ny, k + 1, k + cells.ny + 1]), cells.size - 1)
        return np.concatenate([key, more]), np.concatenate([np.arange(len(key)), off, off, off])

    def whole_key(self, cells: Cells) -> IntArray:
        """:meth:`key`, but a point whose coordinates are not both whole is put in the first cell
        (a border corner: no side comes near it), so that only the whole points meet the sides
        listed with a cell's corner."""
        key = self.key(cells)
        whole = self._whole()
        return key if whole is None else np.where(whole, key, 0)
