"""Many point-to-segment measurements of one closed drawing at once: what simplification repeats.

Ramer–Douglas–Peucker and the corner clean-up of :mod:`.simplify` measure, again and again, how far
each point of a run of a closed drawing lies from the segment joining two of its points. Done one
run at a time that is a dozen small numpy calls per run; here every run of a step is measured in
one pass over a :class:`Ring` (the drawing's two coordinate columns, read once).

Exact: each distance is :func:`.nearest.seg_dist`, :func:`.nearest.on_segment`'s float expression
term by term, so every result equals the one-run-at-a-time form bit for bit; the first largest of
a run is the one ``np.argmax`` picks.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

import numpy as np

from shape_asserts.geometry.points import FloatArray, IntArray

__all__ = ["Ring", "Run", "first_max", "first_min"]


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
        self.x: FloatArray = np.ascontiguousarray(pts[:, 0])
        self.y: FloatArray = np.ascontiguousarray(pts[:, 1])
        # each column twice over: a run of at most n points from any index below n is one stretch
        # of it, read without wrapping round (index i + n is point i); and read one number at a
        # time as a plain float, for the segments' ends (a view: no list of every point made)
        self._x2: FloatArray = np.concatenate((self.x, self.x))
        self._y2: FloatArray = np.concatenate((self.y, self.y))
        self._xl: Sequence[float] = self.x.data  # a memoryview of float64: item i is a float
        self._yl: Sequence[float] = self.y.data
        self._steps: IntArray = np.arange(2 * n)
        self._far: dict[Run, tuple[float, int]] = {}

    def farthest(self, runs: Sequence[Run]) -> list[tuple[float, int]]:
        """Per run ``(a, b, first, count)`` (``count`` ≥ 1 points from index ``first`` on, round the
        ring): the largest distance of its points from the segment joining points ``a`` and ``b``,
        and the index of the first point at that distance (``np.argmax``'s)."""
        n = self.n
        keys = [(a % n, b % n, first % n, count) for a, b, first, count in runs]
        far = self._far
        todo = [k for k in dict.fromkeys(keys) if k not in far]
        if todo:
            far.update(zip(todo, self._measure(todo)))
        return [far[k] for k in keys]

    def point_dist(self, triples: Sequence[tuple[int, int, int]]) -> list[float]:
        """Per ``(i, a, b)``: the distance of point ``i`` from the segment joining points ``a`` and ``b``:
        :meth:`farthest` of the run of that one point (so that such points measured along with
        runs are remembered with them)."""
        return [d for d, _ in self.farthest([(a, b, i, 1) for i, a, b in triples])]

    def sides(self, idx: list[int]) -> list[float]:
        """Lengths of the sides of the polygon through points ``idx`` (side ``j`` from ``idx[j]``
        to ``idx[j + 1]``, the last back to the first): ``np.hypot`` of the coordinates' steps."""
        xl, yl = self._xl, self._yl
        steps = [(xl[q] - xl[p], yl[q] - yl[p]) for p, q in zip(idx, idx[1:] + idx[:1])]
        dx, dy = np.array(steps).T
        out: list[float] = np.hypot(dx, dy).tolist()
        return out

    def _segments(self, todo: list[Run]) -> FloatArray:
        """Per run, its segment's start ``x``, ``y``, direction ``x``, ``y`` and squared length (1 for
        a segment of no length: its one point, onto which every projection lands) as five rows: the
        terms of :func:`.nearest.seg_dist` that depend on the segment alone, the same floats. A few
        runs' in plain floats (the same double operations), many runs' by numpy."""
        if len(todo) > _FEW:
            ia, ib = np.array([(a, b) for a, b, _, _ in todo]).T
            x, y = self.x, self.y
            ax, ay = x[ia], y[ia]
            abx, aby = x[ib] - ax, y[ib] - ay
            den = abx * abx + aby * aby
            return np.array((ax, ay, abx, aby, np.where(den > 0, den, 1.0)))
        xl, yl = self._xl, self._yl
        segs = []
        for a, b, _, _ in todo:
            ax_, ay_ = xl[a], yl[a]
            abx_, aby_ = xl[b] - ax_, yl[b] - ay_
            den_ = abx_ * abx_ + aby_ * aby_
            segs.append((ax_, ay_, abx_, aby_, den_ if den_ > 0 else 1.0))
        rows: FloatArray = np.array(segs).T
        return rows

    def _measure(self, todo: list[Run]) -> list[tuple[float, int]]:
        """:meth:`farthest` of distinct runs not measured yet (``a``, ``b``, ``first`` below ``n``),
        laid end to end along one row."""
        n = self.n
        segs = self._segments(todo)
        counts = [c for _, _, _, c in todo]
        if max(counts) == 1:  # single points: each is its own farthest
            at = np.array([first for _, _, first, _ in todo])
            d = _seg_dist(self.x[at], self.y[at], *segs)
            return list(zip(d.tolist(), at.tolist()))
        # run g's points go from offsets[g] in the row, point i of it at ring index first + i
        offsets = list(accumulate(counts, initial=0))
        total = offsets.pop()
        shift, reps, starts = np.array(
            [[first - o for (_, _, first, _), o in zip(todo, offsets)], counts, offsets]
        )  # three rows of one array made at once
        pos = (self._steps[:total] if total <= 2 * n else np.arange(total)) + shift.repeat(reps)
        if max(counts) > n:  # a run longer than the ring goes round it more than once
            pos %= n
        d = _seg_dist(self._x2[pos], self._y2[pos], *segs.repeat(reps, axis=1))
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


def _seg_dist(
    px: FloatArray, py: FloatArray, ax: FloatArray, ay: FloatArray, abx: FloatArray, aby: FloatArray, den: FloatArray
) -> FloatArray:
    """:func:`.nearest.seg_dist` of points from segments given by their start, direction and
    squared length (1 for none), all of one shape: its float expression term by term, the
    segments' part worked out once per segment (as plain floats, the same double operations)."""
    apx, apy = px - ax, py - ay
    t = apx * abx
    t += apy * aby
    t /= den
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    d: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
    return d
