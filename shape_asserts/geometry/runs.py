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

import numpy as np

from shape_asserts.geometry.nearest import seg_dist
from shape_asserts.geometry.points import FloatArray, IntArray

__all__ = ["Ring", "Run", "first_max"]


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


#: One run: the segment's ends ``a``, ``b``, then the run's first index and its number of points.
Run = tuple[int, int, int, int]


class Ring:
    """A closed drawing's coordinates, ``x`` and ``y`` apart, indexed round the ring (index ``n`` is 0).

    What it has measured it remembers: simplification measures the same runs again after each
    change elsewhere in the ring.
    """

    def __init__(self, pts: FloatArray) -> None:
        self.n = len(pts)
        self.x: FloatArray = np.ascontiguousarray(pts[:, 0])
        self.y: FloatArray = np.ascontiguousarray(pts[:, 1])
        self._far: dict[Run, tuple[float, int]] = {}
        self._at: dict[tuple[int, int, int], float] = {}

    def farthest(self, runs: Sequence[Run]) -> list[tuple[float, int]]:
        """Per run ``(a, b, first, count)`` (``count`` ≥ 1 points from index ``first`` on, round the
        ring): the largest distance of its points from the segment joining points ``a`` and ``b``,
        and the index of the first point at that distance (``np.argmax``'s)."""
        n = self.n
        keys = [(a % n, b % n, first % n, count) for a, b, first, count in runs]
        todo = [k for k in dict.fromkeys(keys) if k not in self._far]
        if todo:
            ia, ib, start, counts = (np.array(c) for c in zip(*todo))
            ends = counts.cumsum()
            offsets = ends - counts
            pos = (np.arange(int(ends[-1])) + (start - offsets).repeat(counts)) % n
            x, y = self.x, self.y
            d = seg_dist(
                x[pos], y[pos], x[ia].repeat(counts), y[ia].repeat(counts), x[ib].repeat(counts), y[ib].repeat(counts)
            )
            top, at = first_max(d, offsets, counts)
            self._far.update(zip(todo, zip(top.tolist(), pos[at].tolist())))
        return [self._far[k] for k in keys]

    def point_dist(self, triples: Sequence[tuple[int, int, int]]) -> list[float]:
        """Per ``(i, a, b)``: the distance of point ``i`` from the segment joining points ``a`` and ``b``."""
        n = self.n
        keys = [(i % n, a % n, b % n) for i, a, b in triples]
        todo = [k for k in dict.fromkeys(keys) if k not in self._at]
        if todo:
            ii, ia, ib = (np.array(c) for c in zip(*todo))
            x, y = self.x, self.y
            self._at.update(zip(todo, seg_dist(x[ii], y[ii], x[ia], y[ia], x[ib], y[ib]).tolist()))
        return [self._at[k] for k in keys]
