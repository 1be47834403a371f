"""An asked outline prepared once per case, and each answer's distance to it by the exact search
of :mod:`.nearest`, on x and y columns.

The same strip search as :func:`.nearest.to_segments` (see that module: a query looks at the sides
whose ``x`` extent lies within ``w`` of its own and widens the strip until the nearest one found
settles it), with each pair's distance the same float expression on the same values — so the same
exact minima, bit for bit — but with the sides sorted and split into columns once per case
(:class:`Outline`), not once per answer.

Inputs the searches of :mod:`.nearest` treat specially (few pairs, coordinates beyond their safe
range, long lists they shrink to distinct points) are handed to them as they are.
"""

from __future__ import annotations

import numpy as np

from shape_asserts.geometry.distances import distance_to_polyline, sample_polyline
from shape_asserts.geometry.nearest import _EDGE, _group_min, _pairs, _widen, nearest_sq, to_segments
from shape_asserts.geometry.nearest_kernels import Query, _safe
from shape_asserts.geometry.points import BoolArray, FloatArray, IntArray, Point, as_points

__all__ = ["Outline"]

#: Below this many pairs :func:`.nearest.to_segments` compares every pair (as :data:`.nearest._SMALL`).
_SMALL = 4_096
#: Lists this long go to :mod:`.nearest`, which searches them once per distinct point.
_LONG = 512
#: First strip half-width, cells (half :data:`.nearest._FIRST_STRIP`: a fair answer and its outline are
#: within a cell of each other, and a narrower strip holds half the pairs; any width is exact).
_FIRST_STRIP = 1.0
#: The cell index (:class:`_Cells`) settles an outline sample whose nearest drawn point lies within
#: this many cells (its 3 × 3 cells hold every point that near) ...
_REACH = 1.0
#: ... and a drawn point whose nearest side lies within this many (a fair raster's points are within
#: about 0.71 of the curve; fewer sides near each corner make the index quicker to build).
_SIDE_REACH = 0.75
#: ... or this many, for an outline of long sides (a polygon's: 2 cells or more on average), whose
#: raster's points cut its corners by up to a cell and which a wider reach lists few more sides.
_LONG_SIDE_REACH = 1.0
#: Extra margin, cells, when the index decides which sides touch a cell (a float's rounding there
#: only ever adds a side, which costs a comparison, never a wrong minimum).
_SLACK = 0.05
#: Largest cell index built: cells of the outline's box, 128 × 128 (~0.25 MB of index; an outline on
#: a 100 × 100 grid fits). A larger outline takes the strip search (the same numbers), so the
#: prepared outlines kept per process (families/single.py) hold at most ~64 MB of indexes.
_MAX_CELLS = 1 << 14
#: The index is built at an outline's third search: an answer's score searches its outline twice
#: (:func:`.single.outline_measures`: each sample's nearest point, each point's distance), so an
#: outline scored once (a replay scores each case once) never pays for it; the second answer does.
_INDEX_AT = 3


class Outline:
    """An asked outline, prepared once: its polyline, the points it is sampled at every cell
    (``ref``) and their mean distance from ``center`` (``scale``), and its sides sorted for the
    search of :meth:`distance`. Read-only: one per case, shared by every answer scored against it.
    """

    def __init__(self, vertices: FloatArray, *, closed: bool, center: Point) -> None:
        v = as_points(vertices)
        self.vertices, self.closed = v, closed
        self.ref = sample_polyline(v, closed=closed, step=1.0)
        self.scale = float(np.mean(np.hypot(self.ref[:, 0] - center[0], self.ref[:, 1] - center[1])))
        ends = np.vstack([v, v[:1]]) if closed else v
        a, b = ends[:-1], ends[1:]
        self._a, self._b = a, b
        xmin = np.minimum(a[:, 0], b[:, 0])
        order = np.argsort(xmin, kind="stable")
        sa, sb = a[order], b[order]
        self._xmin = xmin[order]
        self._ymin, self._ymax = np.minimum(sa[:, 1], sb[:, 1]), np.maximum(sa[:, 1], sb[:, 1])
        self._reach = float(np.abs(sb[:, 0] - sa[:, 0]).max()) if len(sa) else 0.0
        self._sx, self._sy = sa[:, 0], sa[:, 1]
        self._abx, self._aby = sb[:, 0] - sa[:, 0], sb[:, 1] - sa[:, 1]
        self._den = self._abx * self._abx + self._aby * self._aby
        # the divisor of _seg_dist's projection: a side of no length divides by 1 (its t is then 0)
        self._den1 = np.where(self._den > 0, self._den, 1.0)
        self._safe = _safe(a, b)
        for arr in (self.vertices, self.ref, self._a, self._b):
            arr.flags.writeable = False
        self._searches = 0
        self._cells: _Cells | None = None

    def _index(self) -> _Cells | None:
        """The cell index of this outline, built at its :data:`_INDEX_AT`-th search (``None``
        before, and for an outline too large or too far out for one)."""
        if self._cells is None and self._safe and len(self._a):
            self._searches += 1
            if self._searches >= _INDEX_AT:
                self._cells = _Cells.of(self)
        return self._cells if self._cells is not None and self._cells.ok else None

    def nearest_sq(self, pts: FloatArray) -> FloatArray:
        """``nearest_sq(ref, pts, distinct=True)``: each outline sample's squared distance to the
        nearest drawn point, the same floats (each pair's ``dx² + dy²``, their minimum).

        With the cell index, each drawn point is compared with the samples listed with its corner
        (a point off the grid: the four of its cell, :meth:`.nearest_kernels.Query.corners`): every sample within
        :data:`_REACH` of it along ``x`` and ``y``. A point not compared is farther than that from
        the sample, so a sample that found one within :data:`_REACH` is settled; the others (none
        near) are searched by :func:`.nearest.nearest_sq`.
        """
        return self._nearest_sq(Query(pts))

    def distance(self, pts: FloatArray) -> FloatArray:
        """``distance_to_polyline(pts, vertices, closed=closed)``: each point's distance to the
        outline, the same floats."""
        return self._distance(Query(pts))

    def both(self, pts: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(nearest_sq(pts), distance(pts))``, the two searches in that order, with what they
        share about the points (whether they are in the safe range, their cells) worked out once."""
        query = Query(pts)
        return self._nearest_sq(query), self._distance(query)

    def _nearest_sq(self, query: Query) -> FloatArray:
        ref, pts = self.ref, query.pts
        cells = None
        if len(pts) and len(ref) * len(pts) > _SMALL and len(pts) < _LONG and query.safe():
            cells = self._index()
        if cells is None:
            return nearest_sq(ref, pts, distinct=True)
        key, qs = query.corners(cells)
        # each sample's smallest dx² + dy² (a minimum: the order the pairs come in does not matter)
        if qs is None:
            # every point whole, each at its corner: each sample's least dx² + dy² to its listed
            # corners that hold a point (+ 0.0, exact on these non-negative squares) or not (+ inf)
            held = np.full(cells.size, np.inf)
            held[key] = 0.0
            sq = held[cells.sample_corner]
            sq += cells.sample_d2
            found: FloatArray = np.minimum.reduce(sq, axis=0)
        else:
            found = np.full(len(ref), np.inf)
            refs, first, last = cells.by_corner()
            qi, ti, _ = _pairs(first[key], last[key])
            ri = refs[ti]
            qi = qs[qi]
            dx, dy = cells.rx[ri] - query.px[qi], cells.ry[ri] - query.py[qi]
            np.minimum.at(found, ri, dx * dx + dy * dy)
        left = (found > (_REACH - _EDGE) ** 2).nonzero()[0]  # (np.flatnonzero of a 1-D mask, without its wrapper)
        if left.size and left.size * len(pts) <= _SMALL:
            # a few (a spiral's ends): every pair, as .nearest.brute_nearest has them (the same floats)
            q = ref[left]
            dx, dy = q[:, 0, None] - query.px, q[:, 1, None] - query.py
            found[left] = (dx * dx + dy * dy).min(axis=1)
        elif left.size:
            found[left] = nearest_sq(ref[left], pts, distinct=True)
        return found

    def _distance(self, query: Query) -> FloatArray:
        pts = query.pts
        n_sides = len(self._a)
        if len(pts) == 0 or n_sides == 0:
            return distance_to_polyline(pts, self.vertices, closed=self.closed)
        if len(pts) >= _LONG or not (self._safe and query.safe()):
            return to_segments(pts, self._a, self._b)
        # the index, where there is one, even for few pairs (a polygon's few sides: a pair or two a point)
        cells = self._index()
        if cells is None and len(pts) * n_sides <= _SMALL:
            return to_segments(pts, self._a, self._b)
        px, py = query.px, query.py
        if cells is not None:
            # first each whole point's nearest side from its corner's (the sides within cells.reach of it)
            out = cells.corner_min[query.whole_key(cells)]
            todo = (out > cells.reach - _EDGE).nonzero()[0]
            if not todo.size:
                return out
            out[todo] = np.inf
        else:
            out = np.full(len(pts), np.inf)
            todo = np.arange(len(pts))
        w = np.full(len(todo), _FIRST_STRIP)
        while todo.size:
            tx, ty = px[todo], py[todo]
            lo = np.searchsorted(self._xmin, tx - w - self._reach, side="left")
            hi = np.searchsorted(self._xmin, tx + w, side="right")
            if int(np.add.reduce(hi - lo)) * 2 > len(todo) * n_sides:
                out[todo] = to_segments(pts[todo], self._a, self._b)
                break
            qi, si, _ = _pairs(lo, hi)
            # a side whose y extent misses the strip's square is farther than w: it cannot settle the point
            qy, wq = ty[qi], w[qi]
            near = (self._ymin[si] <= qy + wq) & (self._ymax[si] >= qy - wq)
            qi, si = qi[near], si[near]
            found = _group_min(self._seg_dist(tx[qi], ty[qi], si), np.bincount(qi, minlength=len(tx)))
            done = found <= w - _EDGE
            out[todo[done]] = found[done]
            todo, w = todo[~done], _widen(w, found)[~done]
        return out

    def _seg_dist(self, px: FloatArray, py: FloatArray, si: IntArray) -> FloatArray:
        """:func:`.nearest.on_segment`'s distance of each point from its side ``si``, the same expression."""
        abx, aby = self._abx[si], self._aby[si]
        apx, apy = px - self._sx[si], py - self._sy[si]
        t = (apx * abx + apy * aby) / self._den1[si]
        # clip(0, 1) as on_segment has it; np.maximum keeps a -0.0 that clip makes +0.0, which only
        # multiplies a difference then subtracted and squared away in hypot (as in .nearest.seg_dist)
        np.maximum(t, 0.0, out=t)
        np.minimum(t, 1.0, out=t)
        dist: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
        return dist


class _Cells:
    """A cell index of an :class:`Outline`, once per case: the unit cells ``[x, x + 1) × [y, y + 1)``
    (``x``, ``y`` whole) of its box and two cells round it, each holding what lies near its corner
    ``(x, y)``, where a drawn grid point lies: the outline samples within :data:`_REACH` of it along
    ``x`` and ``y`` (listed, with the corner's squared distance to each), and its distance to the
    nearest side when that lies within ``reach`` (:data:`_SIDE_REACH`, or :data:`_LONG_SIDE_REACH`
    for long sides; else more than ``reach``). What a drawn point on a corner measures is measured
    once, from the corner: the same expressions on the same values (a whole point's coordinates
    are its corner's), so the same floats. The samples are listed both ways: with each corner
    (``refs`` from ``ref_first``, for a point off the grid), and each sample's listed corners and
    their squared distances (``sample_corner``, ``sample_d2``: a row per slot, a column per sample,
    filled up with the first cell at ``inf``), for an answer of whole points.

    A point's cell is ``(floor(x), floor(y))``, exact; a point beyond the box is put in the nearest
    border cell, but it lies more than 2 cells from every side and sample, so the border corners
    hold no side and no sample (``inf``) and the point is left to the searches behind the index.
    A point off the grid's corners meets no side (:meth:`.nearest_kernels.Query.whole_key`) and is measured
    against the samples of its cell's four corners (:meth:`.nearest_kernels.Query.corners`).
    """

    def __init__(self, x0: float, y0: float, nx: int, ny: int) -> None:
        self.x0, self.y0, self.nx, self.ny = x0, y0, nx, ny
        # (the index's corner and its last cell, as floats, for key's clipping)
        self.origin, self.corner = np.array([x0, y0]), np.array([nx - 1.0, ny - 1.0])
        self.size = nx * ny
        self.ok = 0 < self.size <= _MAX_CELLS
        self.reach = _SIDE_REACH  # (set by of: see there)
        self.corner_min = np.zeros(0)
        self._listing: tuple[IntArray, IntArray] = (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
        self._by_corner: tuple[IntArray, IntArray, IntArray] | None = None
        self.rx = self.ry = np.zeros(0)
        self.sample_corner = np.zeros((0, 0), dtype=np.intp)
        self.sample_d2 = np.zeros((0, 0))

    @classmethod
    def of(cls, outline: Outline) -> _Cells:
        v = outline.vertices
        x0, y0 = float(np.floor(v[:, 0].min())) - 2.0, float(np.floor(v[:, 1].min())) - 2.0
        nx, ny = int(np.floor(v[:, 0].max()) - x0) + 3, int(np.floor(v[:, 1].max()) - y0) + 3
        cells = cls(x0, y0, nx, ny)
        if not cells.ok:
            return cells
        # the whole points in each side's box (sides sorted as the outline sorts them) grown by the reach
        xlo, xhi = outline._xmin, outline._xmin + np.abs(outline._abx)
        lengths = float(np.add.reduce(np.hypot(outline._abx, outline._aby)))
        cells.reach = _LONG_SIDE_REACH if lengths >= 2.0 * len(xlo) else _SIDE_REACH
        grow = cells.reach + _SLACK
        sides, at = cells._pairs(xlo - grow, xhi + grow, outline._ymin - grow, outline._ymax + grow)
        # each corner's distance to the nearest of its sides, measured from the corner (_seg_dist)
        cx, cy = cells._xy(at)
        cells.corner_min = np.full(cells.size, np.inf)
        np.minimum.at(cells.corner_min, at, outline._seg_dist(cx, cy, sides))
        border = cells._border()
        cells.corner_min[border] = np.inf
        # the samples listed with each corner: those within _REACH of it along x and along y, and
        # the corner's dx² + dy² to each (sample less corner, as a search has sample less point)
        ref = outline.ref
        cells.rx, cells.ry = np.ascontiguousarray(ref[:, 0]), np.ascontiguousarray(ref[:, 1])
        g = _REACH + _SLACK
        refs, at = cells._pairs(cells.rx - g, cells.rx + g, cells.ry - g, cells.ry + g)
        cx, cy = cells._xy(at)
        dx, dy = cells.rx[refs] - cx, cells.ry[refs] - cy
        d2 = dx * dx + dy * dy
        d2[border[at]] = np.inf
        # by sample (as _pairs gives them): a row per slot, a column per sample, its listed corners
        # and their dx² + dy², filled up with the first cell (a border corner) at inf
        count = np.bincount(refs, minlength=len(ref))
        slot = np.arange(len(refs)) - (count.cumsum() - count).repeat(count)
        slots = int(count.max()) if len(count) else 0
        cells.sample_corner = np.zeros((slots, len(ref)), dtype=np.intp)
        cells.sample_d2 = np.full((slots, len(ref)), np.inf)
        cells.sample_corner[slot, refs] = at
        cells.sample_d2[slot, refs] = d2
        cells._listing = refs, at  # (grouped by corner when a point off the grid first asks: by_corner)
        for arr in (cells.corner_min, cells.rx, cells.ry, cells.sample_corner, cells.sample_d2, refs, at):
            arr.flags.writeable = False
        return cells

    def by_corner(self) -> tuple[IntArray, IntArray, IntArray]:
        """The samples listed with each corner, grouped by corner (a corner's in the samples'
        order), and where each corner's begin and end among them: made when a point off the grid
        first asks (an answer of whole points reads ``sample_corner`` alone), then kept."""
        if self._by_corner is None:
            refs, at = self._listing
            # (the cells number at most _MAX_CELLS, 2**14: as int16 the stable sort is a radix sort)
            order = np.argsort(at.astype(np.int16), kind="stable")
            first = np.zeros(self.size + 1, dtype=np.intp)
            np.cumsum(np.bincount(at[order], minlength=self.size), out=first[1:])
            grouped = refs[order]
            grouped.flags.writeable = first.flags.writeable = False
            # (each corner's end: first[key + 1] without the addition)
            self._by_corner = grouped, first, first[1:]
        return self._by_corner

    @property
    def refs(self) -> IntArray:
        """The samples listed with each corner, grouped by corner (:meth:`by_corner`)."""
        return self.by_corner()[0]

    @property
    def ref_first(self) -> IntArray:
        """Where each corner's samples begin in :attr:`refs`, and after the last its end."""
        return self.by_corner()[1]

    def _xy(self, at: IntArray) -> tuple[FloatArray, FloatArray]:
        """The ``x`` and ``y`` of the corners of cells ``at``: whole floats, those of a drawn point
        there exactly (``x0 + i``)."""
        i, j = np.divmod(at, self.ny)
        return np.add(self.x0, i, dtype=np.float64), np.add(self.y0, j, dtype=np.float64)

    def _border(self) -> BoolArray:
        """Which cells are on the index's border (where a point beyond it is put), by cell."""
        border = np.zeros((self.nx, self.ny), dtype=bool)
        border[[0, -1], :] = True
        border[:, [0, -1]] = True
        return border.ravel()

    def _pairs(self, xlo: FloatArray, xhi: FloatArray, ylo: FloatArray, yhi: FloatArray) -> tuple[IntArray, IntArray]:
        """Items ``0 .. len(xlo) - 1`` paired with the corners (whole points) in their boxes ``[xlo,
        xhi] × [ylo, yhi]``, each box at least a cell wide and tall: each pair's item and the corner's
        cell, by item (a corner beyond the index: the nearest border one)."""
        x0, y0, nx, ny = self.x0, self.y0, self.nx, self.ny
        i0 = np.clip(np.ceil(xlo - x0), 0, nx - 1).astype(np.intp)
        i1 = np.clip(np.floor(xhi - x0), 0, nx - 1).astype(np.intp)
        j0 = np.clip(np.ceil(ylo - y0), 0, ny - 1).astype(np.intp)
        j1 = np.clip(np.floor(yhi - y0), 0, ny - 1).astype(np.intp)
        # (a box a cell wide holds a whole x and y: never none, but a count below 1 would not repeat)
        wide, tall = np.maximum(i1 - i0 + 1, 0), np.maximum(j1 - j0 + 1, 0)
        item = np.arange(len(xlo)).repeat(wide * tall)
        k = np.arange(len(item)) - (np.cumsum(wide * tall) - wide * tall).repeat(wide * tall)
        across, down = np.divmod(k, tall[item])
        corner: IntArray = (i0[item] + across) * ny + (j0[item] + down)
        return item, corner

    def key(self, pts: FloatArray, floor: FloatArray | None = None) -> IntArray:
        """Each point's cell (a point beyond the index: the nearest border cell), from its floored
        coordinates (``floor``, when given, is ``np.floor(pts)``) less the corner, clipped to the
        index (``np.clip``'s maximum, then minimum)."""
        at = (np.floor(pts) if floor is None else floor) - self.origin
        np.maximum(at, 0.0, out=at)
        np.minimum(at, self.corner, out=at)
        ij = at.astype(np.intp)
        key: IntArray = ij[:, 0] * self.ny
        key += ij[:, 1]
        return key
