"""Many point-to-segment measurements of one closed drawing at once: what simplification repeats.

Ramer–Douglas–Peucker and the corner clean-up of :mod:`.simplify` measure, again and again, how far
each point of a run of a closed drawing lies from the segment joining two of its points. Done one
run at a time that is a dozen small numpy calls per run; here every run of a step is measured in
one pass over a :class:`Ring` (the drawing's two coordinate columns, read once).

Exact: each distance is the float expression of :func:`.nearest.on_segment`, term by term, on the
same values (``x`` and ``y`` kept apart instead of summed over a last axis of two, which adds the
same two products), so every result equals the one-run-at-a-time form bit for bit; the first
largest of a run is the one ``np.argmax`` picks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shape_asserts.geometry.points import FloatArray, IntArray

__all__ = ["Ring", "seg_dist", "first_max"]


def seg_dist(
    px: FloatArray,
    py: FloatArray,
    ax: FloatArray | float,
    ay: FloatArray | float,
    bx: FloatArray | float,
    by: FloatArray | float,
) -> FloatArray:
    """Distance of each point ``(px, py)`` from the segment ``a``–``b`` (one, or one per point):
    :func:`.nearest.on_segment`'s distance, the same floats."""
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    den = abx * abx + aby * aby
    t = (apx * abx + apy * aby) / np.where(den > 0, den, 1.0)
    # a clipped 0 may carry either sign here; it only ever multiplies a difference that is then
    # subtracted, so the distance is the same
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    d: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
    return d


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


class Ring:
    """A closed drawing's coordinates, ``x`` and ``y`` apart, indexed round the ring (index ``n`` is 0)."""

    def __init__(self, pts: FloatArray) -> None:
        self.n = len(pts)
        self.x: FloatArray = np.ascontiguousarray(pts[:, 0])
        self.y: FloatArray = np.ascontiguousarray(pts[:, 1])

    def spans(
        self,
        a: Sequence[int] | IntArray,
        b: Sequence[int] | IntArray,
        first: Sequence[int] | IntArray,
        counts: IntArray,
    ) -> tuple[FloatArray, IntArray, IntArray]:
        """For run ``g`` (``counts[g]`` ≥ 1 points from index ``first[g]`` on, round the ring), the
        distance of each of its points from the segment joining points ``a[g]`` and ``b[g]``.

        Returns the distances run after run, each point's index, and where each run starts.
        """
        n, x, y = self.n, self.x, self.y
        ia, ib = np.asarray(a) % n, np.asarray(b) % n
        ends = counts.cumsum()
        offsets = ends - counts
        pos = (np.arange(int(ends[-1])) + (np.asarray(first) - offsets).repeat(counts)) % n
        d = seg_dist(
            x[pos], y[pos], x[ia].repeat(counts), y[ia].repeat(counts), x[ib].repeat(counts), y[ib].repeat(counts)
        )
        return d, pos, offsets

    def farthest(
        self,
        a: Sequence[int] | IntArray,
        b: Sequence[int] | IntArray,
        first: Sequence[int] | IntArray,
        counts: IntArray,
    ) -> tuple[FloatArray, IntArray]:
        """Per run of :meth:`spans`: its largest distance and the index of the first point at it."""
        d, pos, offsets = self.spans(a, b, first, counts)
        top, at = first_max(d, offsets, counts)
        return top, pos[at]

    def point_dist(
        self, i: Sequence[int] | IntArray, a: Sequence[int] | IntArray, b: Sequence[int] | IntArray
    ) -> FloatArray:
        """Distance of point ``i[g]`` from the segment joining points ``a[g]`` and ``b[g]``."""
        n, x, y = self.n, self.x, self.y
        ii, ia, ib = np.asarray(i) % n, np.asarray(a) % n, np.asarray(b) % n
        return seg_dist(x[ii], y[ii], x[ia], y[ia], x[ib], y[ib])
