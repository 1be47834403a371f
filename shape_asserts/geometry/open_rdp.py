"""Ramer–Douglas–Peucker to the *line* of open strokes: every stretch of one depth in one round.

:func:`line_rdp` serves :func:`.simplify.rdp` (``to="line"``) and the plain-float forms of
:mod:`.runs` (``simplify``, ``segments`` and the scenes' edges). A point's distance from a
stretch's chord is :func:`.simplify._line_distance`'s float expression, and a stretch is split at
its first farthest point, so what is kept is what the one-stretch-at-a-time form keeps.

Drawings are cells: when every coordinate is a whole number no larger than :data:`WHOLE`
(:func:`whole`) the chord's cross product with each point is an exact integer, so the farthest
point is the first of largest ``|cross|`` (distinct integers below 2**44 stay distinct, and in
order, once divided by the same length), found from the largest and smallest of ``bx·y − by·x``
(two products a point, no division), and only its distance is compared with ``epsilon``: by the
squares, exactly but for a hair's breadth either side, where the float distance itself decides.
"""

from __future__ import annotations

import numpy as np

from shape_asserts.geometry.points import FloatArray

__all__ = ["WHOLE", "FEW_POINTS", "whole", "line_rdp"]

#: Whole coordinates up to this size (in either direction) make every cross product an exact
#: float (below 2**43) and every squared length and squared distance finite.
WHOLE = 2.0**20

#: Stretches with more inner points than this are measured by numpy, fewer in plain floats (a
#: numpy pass costs ~3.4 µs here, a plain float ~0.1 µs a point).
FEW_POINTS = 30

#: How far apart, relatively, a squared distance and ``epsilon``'s square times the squared chord
#: must be for their order to be the float distance's order with ``epsilon`` (rounding moves
#: each by less than 1e-15).
_HAIR = 1e-9


def whole(pts: FloatArray, size: float) -> bool:
    """Whether every coordinate of ``pts`` is a whole number no larger than :data:`WHOLE`, given
    ``size``, the largest size of one (:func:`.runs.largest`)."""
    return size <= WHOLE and bool((np.trunc(pts) == pts).all())


def line_rdp(
    xl: list[float], yl: list[float], pts: FloatArray, spans: list[tuple[int, int]], epsilon: float, size: float
) -> list[int]:
    """Ramer–Douglas–Peucker to the *line* (:func:`.simplify.rdp`, ``to="line"``) of the stretches
    ``i..j`` of an open drawing whose coordinates are ``xl``/``yl`` (lists) and ``pts`` (an (N, 2)
    array, the same numbers), all no larger than ``size`` (:func:`.runs.largest` of ``pts``), itself
    no larger than :data:`.runs.PLAIN`: the inner points kept, in no
    order. Every stretch pending at one depth is taken in one round: by :func:`_whole_round` for
    whole coordinates (:func:`whole`) and an ``epsilon`` from 0 to :data:`WHOLE`, else by
    :func:`_float_round`."""
    far = _whole_round if 0.0 <= epsilon <= WHOLE and whole(pts, size) else _float_round
    xs, ys = pts[:, 0], pts[:, 1]
    keep: list[int] = []
    todo = [(i, j) for i, j in spans if j - i >= 2]
    while todo:
        nxt = []
        for (i, j), k in zip(todo, far(xl, yl, xs, ys, todo, epsilon)):
            if k:
                k += i
                keep.append(k)
                if k - i >= 2:
                    nxt.append((i, k))
                if j - k >= 2:
                    nxt.append((k, j))
        todo = nxt
    return keep


def _float_round(
    xl: list[float], yl: list[float], xs: FloatArray, ys: FloatArray, todo: list[tuple[int, int]], epsilon: float
) -> list[int]:
    """Per stretch ``i..j`` of ``todo``: its first point farthest from the line through its ends,
    counted from ``i``, when farther than ``epsilon``, else 0. Each distance is
    :func:`.simplify._line_distance`'s float expression term by term (as plain floats on a short
    stretch: the same double operations, one at a time), the chords' lengths by one ``np.hypot``
    call (the same value it gives one pair at a time)."""
    abx = [xl[j] - xl[i] for i, j in todo]
    aby = [yl[j] - yl[i] for i, j in todo]
    norms: list[float] = np.hypot(abx, aby).tolist() if len(todo) > 1 else [float(np.hypot(abx[0], aby[0]))]
    out = []
    for (i, j), bx, by, norm in zip(todo, abx, aby, norms):
        ax, ay = xl[i], yl[i]
        if norm == 0.0 or j - i > FEW_POINTS:
            if norm == 0.0:  # the stretch returns to where it began: measure from that point
                d = np.hypot(xs[i + 1 : j] - ax, ys[i + 1 : j] - ay)
            else:
                d = np.abs(bx * (ys[i + 1 : j] - ay) - by * (xs[i + 1 : j] - ax))
                d /= norm
            k = int(d.argmax())
            top = float(d[k])
        else:
            ds = [abs(bx * (y - ay) - by * (x - ax)) / norm for x, y in zip(xl[i + 1 : j], yl[i + 1 : j])]
            top = max(ds)  # no nan (PLAIN): the first largest, as np.argmax
            k = ds.index(top)
        out.append(k + 1 if top > epsilon else 0)
    return out


def _whole_round(
    xl: list[float], yl: list[float], xs: FloatArray, ys: FloatArray, todo: list[tuple[int, int]], epsilon: float
) -> list[int]:
    """:func:`_float_round` of whole coordinates (:func:`whole`) and ``0 <= epsilon <= WHOLE``: the
    same points, found by the exact cross products ``bx·y − by·x − c`` (``c = bx·ay − by·ax``), each
    one's distance compared with ``epsilon`` by the squares unless the two are within a hair (then
    by :func:`_float_round`'s float distance)."""
    e2 = epsilon * epsilon
    out = []
    for i, j in todo:
        ax, ay = xl[i], yl[i]
        bx, by = xl[j] - ax, yl[j] - ay
        l2 = bx * bx + by * by
        if l2 == 0.0:  # the stretch returns to where it began
            out += _float_round(xl, yl, xs, ys, [(i, j)], epsilon)
            continue
        c = bx * ay - by * ax
        if j - i > FEW_POINTS:
            cross = bx * ys[i + 1 : j]
            cross -= by * xs[i + 1 : j]
            first_up, first_down = int(cross.argmax()), int(cross.argmin())
            up, down = float(cross[first_up]) - c, c - float(cross[first_down])
        else:
            crosses = [bx * y - by * x for x, y in zip(xl[i + 1 : j], yl[i + 1 : j])]
            top, bottom = max(crosses), min(crosses)
            up, down = top - c, c - bottom
            first_up = crosses.index(top) if up >= down else j
            first_down = crosses.index(bottom) if down >= up else j
        # the first point of largest |cross|: the larger side's first, the earlier of both on a tie
        k = first_up if up > down else first_down if down > up else min(first_up, first_down)
        most = up if up >= down else down
        square, bound = most * most, e2 * l2
        if square > bound * (1.0 + _HAIR):
            out.append(k + 1)
        elif square < bound * (1.0 - _HAIR):
            out.append(0)
        else:
            x, y = xl[i + 1 + k], yl[i + 1 + k]
            out.append(k + 1 if abs(bx * (y - ay) - by * (x - ax)) / float(np.hypot(bx, by)) > epsilon else 0)
    return out
