"""The ellipse fit's polish: Gauss–Newton steps on the normal distances, and when it stops.

:meth:`~shape_asserts.geometry.fit.EllipseModel.from_estimate` starts from the direct algebraic
fit, which minimises an algebraic error that shrinks a thin ellipse's long axis (by 0.7 cells for a
14 × 4 raster); a few steps on the geometric error (the normal distances of
:meth:`~shape_asserts.geometry.fit.EllipseModel.radial`) remove that bias.

The stopping rule: a step is taken only if it lowers the error (the sum of squared normal
distances) by more than ``_MIN_GAIN`` (1e-10) of it, and the polish stops at the first step that
does not (or after ``rounds``); an error below ``(_FLOOR · a)²`` a point (a thousandth of the
start's major semi-axis) counts as that much. So the result is never worse than the start, and it
is not decided by rounding. The error's rounding is ~1e-15 of it for a drawn raster (7e-15 at most
between two orders of the same arithmetic over the validity catalogue's fits): 10⁴ times below the
line. For a drawing that nearly fits an ellipse exactly, the rounding is a larger share of its tiny
error (all of it, for an exact one): the floor keeps the line ~10³ times above it there too, and
such a fit is polished to ~1e-8 of its size. Listing the points in another order or reordering the
arithmetic then moves a fit by ~1e-10 of a cell, not by a step. The price is that the polish stops
a step short of the least-squares optimum, a step that would gain < 1e-10 of the error: over the
validity catalogue at most 4e-5 cells and 1e-4° from where polishing to rounding stopped (slow,
large-residual fits of impostors; a fair raster's ~1e-6), far below anything a check reads.

Each step is measured in one batch (:func:`_batch`: the trial's normal distances and its five
nudged sets', one matrix product for all six, and their Gram matrix) and solved from the normal
equations (:func:`_gauss_newton_step`), where the polish before took a hypot per distance and a
least-squares SVD per step: the same Gauss–Newton steps to ~1e-10 of a cell. It works in units of
the start's minor semi-axis, about the start's center (numbers of order one whatever the drawing's
size or place).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from shape_asserts.geometry.fit.base import lstsq, solve
from shape_asserts.geometry.points import FloatArray, Point

__all__ = ["polish"]

#: The Gauss–Newton polish's forward-difference steps: center, semi-axes (in cells), rotation (in degrees).
_STEPS = (1e-4, 1e-4, 1e-4, 1e-4, 1e-3)

#: The least share of the error a polish step must remove to be taken (the stopping rule: well
#: above the error's rounding, ~1e-15 of it).
_MIN_GAIN = 1e-10
#: The least RMS normal distance, in major semi-axes, the stopping rule measures the error from.
_FLOOR = 1e-3


def polish(
    pts: FloatArray, center: Point, a: float, b: float, rotation: float, rounds: int = 30
) -> tuple[float, float, float, float, float] | None:
    """The ellipse ``center, a, b, rotation`` polished on the normal distances of the points
    ``pts`` (N, 2): its center, semi-axes and rotation (the axes may have swapped roles, the
    rotation is not reduced), or ``None`` when no step improves it (module docstring)."""
    x0, y0 = center
    unit = b
    n = len(pts)
    p = np.empty((3, n))
    np.subtract(pts[:, 0], x0, out=p[0])
    np.subtract(pts[:, 1], y0, out=p[1])
    p[:2] /= unit
    p[2] = 1.0
    steps = [h / unit for h in _STEPS[:4]] + [_STEPS[4]]  # (the center's and semi-axes' in the polish's units)
    q: tuple[float, ...] = (0.0, 0.0, a / unit, 1.0, rotation)
    taken = False
    with np.errstate(all="ignore"):  # (a wild trial's overflow is refused as not finite)
        first = _batch(p, q, steps)
        if first is None:
            return None
        at, best = first
        floor = n * (_FLOOR * a / unit) ** 2  # (the least error the rule's line is drawn from)
        # whether the next step will likely be taken: its Jacobian then comes with its error
        # (after a step that gained less than 1e-8 of the error, the next mostly gains too little)
        going = True
        for _ in range(rounds):
            if at is None:
                at = _batch(p, q, steps)[0]  # type: ignore[index]  # (q was measured: its semi-axes are > 0)
            step = _gauss_newton_step(at, steps)
            if step is None:
                break
            trial = tuple(x + d for x, d in zip(q, step))
            measured = _batch(p, trial, steps if going else None)
            if measured is None:
                break
            at, total = measured
            gain = best - total
            if not (math.isfinite(total) and gain > _MIN_GAIN * max(best, floor)):
                break  # (a NaN gain is no gain)
            going = gain > 1e-8 * best
            q, best, taken = trial, total, True
    if not taken:
        return None
    qx, qy, qa, qb, rot = q
    return x0 + qx * unit, y0 + qy * unit, qa * unit, qb * unit, rot


def _batch(p: FloatArray, q: tuple[float, ...], steps: list[float] | None) -> tuple[Any, float] | None:
    """The polish's error at the parameter set ``q`` (center, semi-axes in the units of the points
    ``p``, rotation in degrees), and with ``steps`` what :func:`_gauss_newton_step` needs: ``None``
    for a semi-axis ≤ 0 (or NaN), else ``(at, cost)``: ``cost`` the sum of the squared normal
    distances, ``at`` (``None`` without ``steps``) the rows ``(6, N)`` of the five sets nudged by
    ``steps`` (one parameter each) less ``q``'s distances, then ``q``'s, their Gram matrix and
    whether it is finite.

    ``p`` is ``(3, N)``: the points' x and y and ones. A set's rows u/a, v/b, u/a² and v/b² are one
    product of ``p`` with their coefficients, all sets' at once; the normal distance of
    :meth:`EllipseModel.radial`, ``(ρ − 1)·ρ / |∇(ρ²/2)|``, is then ``(ρ² − ρ) / √((u/a²)² +
    (v/b²)²)``: squares and roots (a hypot costs ten times a product) of numbers of order one in
    the polish's units. A point on a set's center has no normal: it lies a minor semi-axis inside
    (the first sum that is not finite sends the batch through the where()s)."""
    cx, cy, a, b, rot = q
    if not (a > 0 and b > 0):
        return None
    r = math.radians(rot)
    c, s = math.cos(r), math.sin(r)
    if steps is None:
        sets = [(cx, cy, a, b, c, s)]
    else:
        hx, hy, ha, hb, hr = steps
        r = math.radians(rot + hr)
        sets = [
            (cx + hx, cy, a, b, c, s),
            (cx, cy + hy, a, b, c, s),
            (cx, cy, a + ha, b, c, s),
            (cx, cy, a, b + hb, c, s),
            (cx, cy, a, b, math.cos(r), math.sin(r)),
            (cx, cy, a, b, c, s),
        ]
    k = len(sets)
    ua: list[float] = []
    vb: list[float] = []
    ua2: list[float] = []
    vb2: list[float] = []
    for x, y, sa, sb, co, si in sets:
        ia, ib = 1.0 / sa, 1.0 / sb
        row_u = (co * ia, si * ia, -(co * x + si * y) * ia)
        row_v = (-si * ib, co * ib, -(co * y - si * x) * ib)
        ua += row_u
        vb += row_v
        ua2 += (row_u[0] * ia, row_u[1] * ia, row_u[2] * ia)
        vb2 += (row_v[0] * ib, row_v[1] * ib, row_v[2] * ib)
    sq = np.array(ua + ua2 + vb + vb2).reshape(4 * k, 3) @ p  # (4k, N): u/a, u/a², v/b, v/b²
    sq *= sq
    both = sq[: 2 * k]
    both += sq[2 * k :]  # ρ², then |∇(ρ²/2)|²: one add and one root for both
    roots = np.sqrt(both)
    res: FloatArray = both[:k] - roots[:k]
    res /= roots[k:]
    rho2, g2 = both[:k], both[k:]
    if steps is None:
        e = res[0]
        cost = float(e @ e)
        if not math.isfinite(cost):
            e = _on_center(rho2, g2, [b])[0]
            cost = float(e @ e)
        return None, cost
    res[:5] -= res[5]
    gram = res @ res.T
    # (each diagonal entry is a row's sum of squares: all are finite iff their sum is, and then so
    # is the rest of the matrix)
    finite = math.isfinite(gram.trace())
    if not finite:
        res = _on_center(rho2, g2, [sb for _, _, _, sb, _, _ in sets])
        res[:5] -= res[5]
        gram = res @ res.T
        finite = math.isfinite(gram.trace())
    return (res, gram, finite), float(gram[5, 5])


def _on_center(rho2: FloatArray, g2: FloatArray, b: list[float]) -> FloatArray:
    """:func:`_batch`'s distances where a point may lie on a set's center (``g2`` 0): there the
    minor semi-axis inside, as :meth:`EllipseModel.radial` says."""
    bcol = np.array(b)[:, None]
    res: FloatArray = np.where(g2 > 0, (rho2 - np.sqrt(rho2)) / np.sqrt(np.where(g2 > 0, g2, 1.0)), -bcol)
    return res


def _gauss_newton_step(at: Any, steps: list[float]) -> list[float] | None:
    """The Gauss–Newton step from :func:`_batch`'s rows and Gram matrix, ``None`` when the Jacobian
    or the error is not finite.

    The normal equations of the forward-difference Jacobian ``J = Dᵀ / steps`` (``D`` the nudges'
    differences, ``e`` the error): ``(D Dᵀ) w = −D e``, ``δ = w · steps``, solved by LU (a 5 × 5
    solve, a fifth of a least-squares SVD of the (N, 5) Jacobian). They square ``J``'s condition,
    whose columns are all of order one (distances per unit of a center or semi-axis, per degree of
    an ellipse with a > 1.15 b): ~1e-12 of a step, below the Jacobian's own rounding (~1e-10). A
    singular system takes the least-squares solution (:func:`lstsq`) instead."""
    rows, gram, finite = at
    if not finite:
        return None
    try:
        w = solve(gram[:5, :5], gram[:5, 5:])
    except np.linalg.LinAlgError:
        w = None
    if w is not None:
        step = [-v * h for v, h in zip(w[:, 0].tolist(), steps)]
        if math.isfinite(sum(step)):
            return step
    jac: FloatArray = (rows[:5] / np.array(steps)[:, None]).T
    delta: list[float] = lstsq(jac, -rows[5]).tolist()
    return delta
