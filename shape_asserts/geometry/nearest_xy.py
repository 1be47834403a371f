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
from shape_asserts.geometry.nearest import _EDGE, _group_min, _pairs, _safe, _widen, to_segments
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points

__all__ = ["Outline"]

#: Below this many pairs :func:`.nearest.to_segments` compares every pair (as :data:`.nearest._SMALL`).
_SMALL = 4_096
#: Lists this long go to :mod:`.nearest`, which searches them once per distinct point.
_LONG = 512
#: First strip half-width, cells (half :data:`.nearest._FIRST_STRIP`: a fair answer and its outline are
#: within a cell of each other, and a narrower strip holds half the pairs; any width is exact).
_FIRST_STRIP = 1.0


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
        self._safe = _safe(a, b)
        for arr in (self.vertices, self.ref, self._a, self._b):
            arr.flags.writeable = False

    def distance(self, pts: FloatArray) -> FloatArray:
        """``distance_to_polyline(pts, vertices, closed=closed)``: each point's distance to the
        outline, the same floats."""
        n_sides = len(self._a)
        if len(pts) == 0 or n_sides == 0:
            return distance_to_polyline(pts, self.vertices, closed=self.closed)
        if len(pts) * n_sides <= _SMALL or len(pts) >= _LONG or not (self._safe and _safe(pts)):
            return to_segments(pts, self._a, self._b)
        px, py = pts[:, 0], pts[:, 1]
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
        abx, aby, den = self._abx[si], self._aby[si], self._den[si]
        apx, apy = px - self._sx[si], py - self._sy[si]
        t = ((apx * abx + apy * aby) / np.where(den > 0, den, 1.0)).clip(0.0, 1.0)
        dist: FloatArray = np.hypot(apx - t * abx, apy - t * aby)
        return dist
