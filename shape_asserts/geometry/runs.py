"""Many point-to-segment measurements of one closed drawing at once: what simplification repeats.

Ramer–Douglas–Peucker and the corner clean-up of :mod:`.simplify` measure, again and again, how far
each point of a run of a closed drawing lies from the segment joining two of its points. Done one
run at a time that is a dozen small numpy calls per run; here every run of a step is measured in
one pass over a :class:`Ring` (the drawing's two coordinate columns, read once).

Exact: each distance is :func:`.distances.nearest_on_segment`'s float expression
term by term, so every result equals the one-run-at-a-time form bit for bit; the first largest of
a run is the one ``np.argmax`` picks.

Open strokes (:func:`.simplify.segments`, RDP to the *line*) are short: there
:func:`.open_rdp.line_rdp` takes every stretch of one depth in one round, when every coordinate is
:func:`plain`; the corners and edges around it are worked out here in plain floats.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

import numpy as np

from shape_asserts.geometry import open_rdp
from shape_asserts.geometry.points import FloatArray, IntArray

__all__ = [
    "Ring",
    "Run",
    "first_max",
    "first_min",
    "PLAIN",
    "plain",
    "largest",
    "plain_corners",
    "plain_segments",
    "plain_edges",
    "plain_span_edges",
]


def first_max(d: FloatArray, offsets: IntArray, counts: IntArray) -> tuple[FloatArray, IntArray]:
    """Per group (``counts[g]`` values from ``offsets[g]``, none empty): its largest value and the
    place in ``d`` of the first one holding it (``np.argmax`` of the group)."""
    top = np.maximum.reduceat(d, offsets)
    if np.isnan(top).any():  # coordinates near the float's limit: argmax takes the first nan
        first_nan = np.array([o + int(np.argmax(d[o : o + c])) for o, c in zip(offsets.tolist(), counts.tolist())])
        return d[first_nan], first_nan
    at = (d == top.repeat(counts)).nonzero()[0]
    first: IntArray = at[at.searchsorted(offsets)]
    return top, first


#: Runs up to this many have their segments and results worked out in plain floats, more by numpy
#: (its calls cost more than a few runs' arithmetic, less than many runs').
_FEW = 64


#: Runs up to this many have their farthest points found one run at a time (np.argmax), more at once.
_FEWEST = 4


def first_min(values: list[float]) -> int:
    """``np.argmin`` of a short list of floats: the first smallest, or the first nan when there is one."""
    for i, v in enumerate(values):
        if v != v:
            return i
    return values.index(min(values))


#: One run: the segment's ends ``a``, ``b``, then the run's first index and its number of points.
Run = tuple[int, int, int, int]


class Ring:
    """A closed drawing's coordinates, ``x`` and ``y`` apart, indexed round the ring (index ``n`` is 0).

    What it has measured it remembers: simplification measures the same runs again after each
    change elsewhere in the ring.
    """

    def __init__(self, pts: FloatArray) -> None:
        self.n = n = len(pts)
        # both columns twice over, as the two rows of one array: a run of at most n points from any
        # index below n is one stretch of a row, read without wrapping round (index i + n is point
        # i), both rows picked by one call; each column is the first half of its row, read one
        # number at a time as a plain float for the segments' ends (a view: no list of every point)
        self._xy2: FloatArray = np.concatenate((pts, pts)).T.copy()
        self.x: FloatArray = self._xy2[0, :n]
        self.y: FloatArray = self._xy2[1, :n]
        self._xl: Sequence[float] = self.x.data  # a memoryview of float64: item i is a float
        self._yl: Sequence[float] = self.y.data
        self._steps: IntArray = np.arange(2 * n)
        self._far: dict[Run, tuple[float, int]] = {}
        self.lookup = self._far.get  # farthest of one run asked before as it is written, else None

    def farthest(self, runs: Sequence[Run]) -> list[tuple[float, int]]:
        """Per run ``(a, b, first, count)`` (``count`` ≥ 1 points from index ``first`` on, round the
        ring): the largest distance of its points from the segment joining points ``a`` and ``b``,
        and the index of the first point at that distance (``np.argmax``'s)."""
        known = self.known(runs)  # every run asked before as it is written (the clean-up's usual case)
        if known is not None:
            return known
        far, n = self._far, self.n
        keys = [(a % n, b % n, first % n, count) for a, b, first, count in runs]
        todo = [k for k in dict.fromkeys(keys) if k not in far]
        if todo:
            far.update(zip(todo, self._measure(todo)))
        out = [far[k] for k in keys]
        far.update(zip(runs, out))  # remembered as written too (the same run, the same result)
        return out

    def known(self, runs: Sequence[Run]) -> list[tuple[float, int]] | None:
        """:meth:`farthest` of ``runs`` each asked before as it is written (nothing measured), else ``None``."""
        far = self._far
        try:
            return [far[run] for run in runs]
        except KeyError:
            return None

    def rows(self) -> FloatArray:
        """The ring's ``x`` and ``y`` as the two rows of one (2, n) array (a view: not to be written)."""
        rows: FloatArray = self._xy2[:, : self.n]
        return rows

    def point_dist(self, triples: Sequence[tuple[int, int, int]]) -> list[float]:
        """Per ``(i, a, b)``: the distance of point ``i`` from the segment joining points ``a`` and ``b``:
        :meth:`farthest` of the run of that one point (so that such points measured along with
        runs are remembered with them)."""
        return [d for d, _ in self.farthest([(a, b, i, 1) for i, a, b in triples])]

    def sides(self, idx: list[int]) -> list[float]:
        """Lengths of the sides of the polygon through points ``idx`` (side ``j`` from ``idx[j]``
        to ``idx[j + 1]``, the last back to the first): ``np.hypot`` of the coordinates' steps."""
        xl, yl = self._xl, self._yl
        steps: list[float] = []  # dx, dy of each side in one flat list (numpy reads it faster than pairs)
        for p, q in zip(idx, idx[1:] + idx[:1]):
            steps += (xl[q] - xl[p], yl[q] - yl[p])
        dx, dy = np.array(steps).reshape(-1, 2).T
        out: list[float] = np.hypot(dx, dy).tolist()
        return out

    def _segments(self, todo: list[Run]) -> FloatArray:
        """Per run, its segment's start ``x``, ``y``, direction ``x``, ``y`` and squared length (1 for
        a segment of no length: its one point, onto which every projection lands) as five rows: the
        terms of :func:`.distances.nearest_on_segment` that depend on the segment alone, the same floats. A few
        runs' in plain floats (the same double operations, laid in one flat list: numpy reads that
        faster than a list of tuples), many runs' by numpy."""
        if len(todo) > _FEW:
            ia, ib = np.array([(a, b) for a, b, _, _ in todo]).T
            x, y = self.x, self.y
            ax, ay = x[ia], y[ia]
            abx, aby = x[ib] - ax, y[ib] - ay
            den = abx * abx + aby * aby
            return np.array((ax, ay, abx, aby, np.where(den > 0, den, 1.0)))
        xl, yl = self._xl, self._yl
        segs: list[float] = []
        for a, b, _, _ in todo:
            ax_, ay_ = xl[a], yl[a]
            abx_, aby_ = xl[b] - ax_, yl[b] - ay_
            den_ = abx_ * abx_ + aby_ * aby_
            segs += (ax_, ay_, abx_, aby_, den_ if den_ > 0 else 1.0)
        rows: FloatArray = np.array(segs).reshape(-1, 5).T
        return rows

    def _measure(self, todo: list[Run]) -> list[tuple[float, int]]:
        """:meth:`farthest` of distinct runs not measured yet (``a``, ``b``, ``first`` below ``n``),
        laid end to end along one row."""
        n = self.n
        segs = self._segments(todo)
        counts = [c for _, _, _, c in todo]
        if max(counts) == 1:  # single points: each is its own farthest
            at = np.array([first for _, _, first, _ in todo])
            d = _seg_dist(self._xy2.take(at, axis=1), segs)
            return list(zip(d.tolist(), at.tolist()))
        # run g's points go from offsets[g] in the row, point i of it at ring index first + i
        offsets = list(accumulate(counts, initial=0))
        total = offsets.pop()
        if len(todo) <= _FEWEST and max(counts) <= n:
            # a few runs: their stretches of the rows joined (no index array), and one np.argmax a
            # run (its first largest, or first nan) in place of finding every run's first at once
            xy2 = self._xy2
            d = _seg_dist(
                np.concatenate([xy2[:, f : f + c] for _, _, f, c in todo], axis=1), segs.repeat(counts, axis=1)
            )
            out: list[tuple[float, int]] = []
            for (_, _, start, count), o in zip(todo, offsets):
                step = int(d[o : o + count].argmax())
                out.append((float(d[o + step]), (start + step) % n))
            return out
        shift, reps, starts = np.array(
            [[first - o for (_, _, first, _), o in zip(todo, offsets)], counts, offsets]
        )  # three rows of one array made at once
        pos = (self._steps[:total] if total <= 2 * n else np.arange(total)) + shift.repeat(reps)
        if max(counts) > n:  # a run longer than the ring goes round it more than once
            pos %= n
        d = _seg_dist(self._xy2.take(pos, axis=1), segs.repeat(reps, axis=1))
        if len(todo) > _FEW:  # many runs: numpy's calls cost less than a Python loop over them
            top, first = first_max(d, starts, reps)
            return list(zip(top.tolist(), (pos[first] % n).tolist()))
        top = np.maximum.reduceat(d, starts)
        tops: list[float] = top.tolist()
        if any(v != v for v in tops):  # a nan (coordinates near the float's limit): first_max's way
            first = first_max(d, starts, reps)[1]
        else:  # the first place in each run holding its largest
            at = (d == top.repeat(reps)).nonzero()[0]
            first = at[at.searchsorted(starts)]
        return list(zip(tops, [p % n for p in pos[first].tolist()]))


def _seg_dist(p: FloatArray, segs: FloatArray) -> FloatArray:
    """:func:`.distances.nearest_on_segment` of points (``x`` and ``y`` as the two rows of ``p``) from segments
    given by the five rows of ``segs`` (:meth:`Ring._segments`: start, direction, squared length,
    one column per point): its float expression term by term, the segments' part worked out once
    per segment (as plain floats, the same double operations), ``x`` and ``y`` taken by one call
    where they are worked out alike (each element's operations are the same either way)."""
    ap = p - segs[:2]
    ab = segs[2:4]
    dot = ap * ab  # both products by one call, then added in the same order: x's then y's
    t = dot[0]
    t += dot[1]
    t /= segs[4]
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    ap -= ab * t  # ap - t * ab, x and y at once
    d: FloatArray = np.hypot(ap[0], ap[1])
    return d


#: Coordinates up to this size (in either direction) keep every term of :func:`.open_rdp.line_rdp` finite
#: (squares and products below 1e201): no nan can arise, so Python's ``max`` picks what
#: ``np.argmax`` picks.
PLAIN = 1e100


def largest(pts: FloatArray) -> float:
    """The largest size of a coordinate of ``pts`` (nan when one is nan): at most :data:`PLAIN`
    when :func:`plain`, and passed on as ``size`` so that no one measures it twice."""
    return float(np.abs(pts).max())


def plain(pts: FloatArray) -> bool:
    """Whether every coordinate of ``pts`` is a number no larger than :data:`PLAIN` (no nan or inf):
    what :func:`.open_rdp.line_rdp`, :func:`plain_corners` and :func:`plain_segments` take."""
    return largest(pts) <= PLAIN


def _closure(xl: list[float], yl: list[float], i: int, j: int) -> float:
    """:func:`.distances.closure_distance` from point ``j`` back to point ``i`` of plain coordinates."""
    return max(abs(xl[j] - xl[i]), abs(yl[j] - yl[i]))


def plain_corners(pts: FloatArray, tolerance: float, size: float) -> list[int]:
    """:func:`.simplify.simplify` of :func:`plain` ``pts`` (at least three): the same steps in plain
    floats, both halves of a closed stroke by one :func:`.open_rdp.line_rdp` (``size``: :func:`largest`
    of ``pts``)."""
    xl, yl = pts.T.tolist()
    return _corners(pts, xl, yl, tolerance, size)


def _corners(pts: FloatArray, xl: list[float], yl: list[float], tolerance: float, size: float) -> list[int]:
    """:func:`plain_corners` given ``pts``' columns as lists too."""
    n = len(xl)
    spans = [(0, n - 1)]
    if n >= 4 and _closure(xl, yl, 0, n - 1) <= 1.0:
        x0, y0 = xl[0], yl[0]
        cheb = [max(abs(x - x0), abs(y - y0)) for x, y in zip(xl, yl)]
        far = cheb.index(max(cheb))  # the first farthest, as np.argmax (no nan: plain)
        if 0 < far < n - 1:
            spans = [(0, far), (far, n - 1)]
    kept = {0, n - 1, *(j for _, j in spans)}
    kept.update(open_rdp.line_rdp(xl, yl, pts, spans, tolerance, size))
    return sorted(kept)


def plain_segments(
    pts: FloatArray, tolerance: float, min_length: float, closed: bool | None, size: float
) -> FloatArray:
    """:func:`.simplify.segments` of :func:`plain` ``pts`` (at least three): the same edges, the
    corners and the closing edge worked out on plain floats and the edges cut from ``pts`` at once."""
    n = len(pts)
    xl, yl = pts.T.tolist()
    idx = _corners(pts, xl, yl, tolerance, size)
    if closed is None:
        closed = n >= 4 and _closure(xl, yl, 0, n - 1) <= 1.0
    if closed and len(idx) >= 3 and _closure(xl, yl, idx[0], idx[-1]) > 0:
        idx.append(idx[0])
    # without min_length an edge is kept when np.hypot of its steps is > 0: when it moves at all
    # (plain coordinates are finite); with it, the lengths are np.hypot's
    ends = [(p, q) for p, q in zip(idx, idx[1:]) if min_length > 0 or xl[p] != xl[q] or yl[p] != yl[q]]
    if min_length > 0 and ends:
        ia, ib = np.array(ends).T
        ok: list[bool] = (np.hypot(*(pts[ib] - pts[ia]).T) >= min_length).tolist()
        ends = [e for e, keep in zip(ends, ok) if keep]
    out: FloatArray = pts[np.array(ends)] if ends else np.zeros((0, 2, 2))
    return out


def _farthest(xl: list[float], yl: list[float], pts: FloatArray, i: int, j: int) -> int:
    """The first of points ``i..j`` farthest (Chebyshev) from point ``i``, counted from ``i``: as
    :func:`_corners` finds it (the same larger of the same absolute differences, the first
    largest as ``np.argmax`` takes it: no nan, :func:`plain`), by numpy past a few points."""
    x0, y0 = xl[i], yl[i]
    if j - i > open_rdp.FEW_POINTS:
        cheb = np.maximum(np.abs(pts[i : j + 1, 0] - x0), np.abs(pts[i : j + 1, 1] - y0))
        return int(cheb.argmax())
    far = [max(abs(x - x0), abs(y - y0)) for x, y in zip(xl[i : j + 1], yl[i : j + 1])]
    return far.index(max(far))


def plain_edges(pieces: Sequence[FloatArray], tolerance: float) -> FloatArray | None:
    """The edges of every piece (:func:`.simplify.segments` of each, default ``min_length`` and
    ``closed``) one after another, shape (M, 2, 2), for pieces of two or more points whose coordinates
    are all :func:`plain` (else ``None``): :func:`plain_span_edges` of the pieces joined."""
    pts = np.concatenate(pieces)
    stops = accumulate(len(piece) for piece in pieces)  # each piece's (first, last) in pts
    return plain_span_edges(pts, [(stop - len(piece), stop - 1) for piece, stop in zip(pieces, stops)], tolerance)


def plain_span_edges(pts: FloatArray, spans: Sequence[tuple[int, int]], tolerance: float) -> FloatArray | None:
    """:func:`plain_edges` of the pieces ``pts[first : last + 1]`` for each ``(first, last)`` of
    ``spans`` (``last > first``), in order, each starting no earlier than the one before ends (they
    may share that point): the same edges, read from ``pts`` itself (no joined copy of the pieces).
    ``None`` when some coordinate of ``pts`` is not :func:`plain` or the spans are not so ordered
    (then :func:`plain_edges` of the pieces, or ``segments`` of each, is the answer)."""
    pts = pts.astype(float, copy=False)
    end = 0
    for first, last in spans:
        if first < end or last <= first:
            return None
        end = last
    if not spans or end >= len(pts) or not (size := largest(pts)) <= PLAIN:
        return None
    xl, yl = pts.T.tolist()
    rdp_spans: list[tuple[int, int]] = []
    inner: list[int] = []  # every piece's corners between its ends (pieces' insides do not overlap)
    for first, last in spans:
        n = last - first + 1
        if n >= 4 and _closure(xl, yl, first, last) <= 1.0:  # _corners' cut of a closed piece
            far = _farthest(xl, yl, pts, first, last)
            if 0 < far < n - 1:
                inner.append(first + far)
                rdp_spans += ((first, first + far), (first + far, last))
                continue
        rdp_spans.append((first, last))
    inner += open_rdp.line_rdp(xl, yl, pts, rdp_spans, tolerance, size)
    inner.sort()
    ends: list[tuple[int, int]] = []
    at, count = 0, len(inner)
    for first, last in spans:
        stop = at
        while stop < count and inner[stop] < last:
            stop += 1
        idx = [first, *inner[at:stop], last]
        at = stop
        if last - first >= 3 and len(idx) >= 3 and 0 < _closure(xl, yl, first, last) <= 1.0:
            idx.append(first)  # plain_segments' closing edge (a closed piece of three or more corners)
        ends += [(p, q) for p, q in zip(idx, idx[1:]) if xl[p] != xl[q] or yl[p] != yl[q]]
    out: FloatArray = pts[np.array(ends)] if ends else np.zeros((0, 2, 2))
    return out
