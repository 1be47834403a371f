"""The ellipse polish (``geometry/fit/ellipse_polish.py``, by ``EllipseModel._refined``) and its stopping rule.

A step is taken only if it lowers the error by more than ``_MIN_GAIN`` (1e-10) of it (of at least
``(_FLOOR · a)²`` a point), and the polish stops at the first that does not: a decision far above
the error's rounding (~1e-15 of it), where the rule before (refuse a step on ``total >= best``,
stop on a gain ≤ 1e-12) decided its last step on rounding. So a polished fit polished again stays
as it is (the rule before moved 36 of the 108 such fits below), and the batch (one matrix product for
the six parameter sets, the step from the normal equations) lands where the separate calls'
arithmetic (``_cost_at``, ``_jacobian``, a least-squares step) lands under the same rule, to the
fingerprint's 1e-9, though every float on the way differs in its last bits.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from shape_asserts.geometry.fit import EllipseModel, axis_angle_difference
from shape_asserts.geometry.fit import ellipse_polish as fit
from shape_asserts.geometry.fit.base import lstsq

# The polish's error and Jacobian by separate calls, as the library measured them before its batch
# (fit._batch): the reference the batch's polish is checked against here.

#: The polish's forward-difference steps as an array, and the five nudged parameter sets, one a row.
_STEPS = np.array(fit._STEPS)
_NUDGES = np.eye(5) * _STEPS[:, None]


def _normal_distance(
    px: np.ndarray, py: np.ndarray, cx: Any, cy: Any, a: Any, b: Any, rotation: float, trig: Any = None
) -> np.ndarray:
    """The signed normal distance of :meth:`EllipseModel.radial` (the same expression, without the
    angles), for one ellipse (scalars) or several (columns ``(K, 1)`` against points ``(N,)``, with
    ``trig`` their rotation's cosines, sines and the squared semi-axes, each taken as for one)."""
    if trig is None:
        c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
        a2, b2 = a**2, b**2
    else:
        c, s, a2, b2 = trig
    dx, dy = px - cx, py - cy
    # v = -dx·s + dy·c, written dy·c - dx·s: negating is exact and x + (-y) is x - y, one array fewer
    u, v = dx * c + dy * s, dy * c - dx * s
    rho = np.hypot(u / a, v / b)
    grad = np.hypot(u / a2, v / b2)
    # no point on the center (the usual case): the where()s below pick the first. (A hypot is ≥ 0,
    # so its least one says whether all are > 0; a NaN makes it NaN, as it made all() false.)
    if np.minimum.reduce(grad, axis=None) > 0:
        res: np.ndarray = rho - 1.0  # (rho − 1) · rho / grad, in place
        res *= rho
        res /= grad
        return res
    with np.errstate(divide="ignore", invalid="ignore"):
        res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -b)
    return res


def _cost_at(px: np.ndarray, py: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The polish's error at the parameters ``q`` (an array): the normal distances, ``inf`` for a
    semi-axis ≤ 0."""
    if q[2] <= 0 or q[3] <= 0:
        return np.full(len(px), np.inf)
    return _normal_distance(px, py, q[0], q[1], q[2], q[3], q[4])


def _jacobian(px: np.ndarray, py: np.ndarray, rows: np.ndarray, err: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """Forward differences of the normal distance, one column per parameter, shape (N, 5), from
    the five nudged parameter sets in ``rows``; a set with a semi-axis ≤ 0 costs ``inf``."""
    listed = rows.tolist()  # Python floats: the same comparisons, radians and squares (pow(x, 2))
    if any(q[2] <= 0 or q[3] <= 0 for q in listed):
        d = np.full((5, len(px)), np.inf)
        for i, q in enumerate(rows):
            if q[2] > 0 and q[3] > 0:
                d[i] = _normal_distance(px, py, q[0], q[1], q[2], q[3], q[4])
    else:
        # each row's cosine, sine and squares as for one ellipse: numpy's cosine and an array's
        # square (x·x) may differ in the last bit from math's and a scalar's power (pow(x, 2))
        rads = [math.radians(q[4]) for q in listed]
        # the four columns (K, 1) in one array: cosines, sines, squared semi-axes
        trig = np.array(
            [
                [math.cos(r) for r in rads],
                [math.sin(r) for r in rads],
                [q[2] ** 2 for q in listed],
                [q[3] ** 2 for q in listed],
            ]
        )[:, :, None]
        d = _normal_distance(px, py, rows[:, 0:1], rows[:, 1:2], rows[:, 2:3], rows[:, 3:4], 0.0, tuple(trig))
    # (N, 5) as a transposed view: the least-squares kernel copies it into its own layout either way
    jac: np.ndarray = ((d - err) / steps[:, None]).T
    return jac


def _points(rng: np.random.Generator, i: int) -> tuple[np.ndarray, EllipseModel]:
    """An ellipse's points (exact, jittered or rounded to the grid; evenly or randomly spaced),
    and a start near the truth, as the polish gets from the direct fit."""
    n = int(rng.integers(12, 260))
    cx, cy = (float(v) for v in rng.uniform(20, 80, 2))
    a = float(rng.uniform(6, 40))
    b = float(a / rng.uniform(1.3, 4.0))
    rot = float(rng.uniform(0, 180))
    t = rng.uniform(0, 2 * np.pi, n) if i % 2 else np.linspace(0, 2 * np.pi, n, endpoint=False)
    c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
    x, y = a * np.cos(t), b * np.sin(t)
    pts = np.column_stack([cx + x * c - y * s, cy + x * s + y * c])
    pts += rng.normal(0, [0.0, 0.3, 1.0][i % 3], (n, 2))
    if i % 4 == 0:
        pts = np.round(pts)
    start = EllipseModel((cx, cy), a * rng.uniform(0.9, 1.1), b * rng.uniform(0.9, 1.1), rot + rng.normal(0, 3))
    return pts, start


def _near(x: float, y: float, rtol: float) -> bool:
    """The fingerprint's measure (bench/score_fingerprint.py): relative, absolute below 1."""
    return abs(x - y) <= rtol * max(1.0, abs(x), abs(y))


def _same_fit(m: Any, w: Any, rtol: float = 1e-9) -> bool:
    if not m or not w:
        return bool(m) == bool(w)
    return (
        all(_near(x, y, rtol) for x, y in zip((*m.center, m.a, m.b), (*w.center, w.a, w.b)))
        and axis_angle_difference(m.rotation, w.rotation) <= rtol * 180.0
    )


def _cost(m: EllipseModel, pts: np.ndarray) -> float:
    """The polish's error at ``m`` in the separate calls' arithmetic: the sum of squared normal distances."""
    e = _cost_at(pts[:, 0], pts[:, 1], np.array([*m.center, m.a, m.b, m.rotation]))
    return float(np.add.reduce(e * e))


def _separate_calls(model: EllipseModel, pts: np.ndarray, rounds: int = 30) -> EllipseModel:
    """The polish under the same stopping rule in the arithmetic before the batch: the error and the
    Jacobian by separate calls (``_cost_at``, ``_jacobian``), each step a least-squares solution."""
    params = np.array([*model.center, model.a, model.b, model.rotation], dtype=float)
    px, py = pts[:, 0], pts[:, 1]
    err = _cost_at(px, py, params)
    best = float(np.add.reduce(err * err))
    floor = len(pts) * (fit._FLOOR * model.a) ** 2
    for _ in range(rounds):
        jac = _jacobian(px, py, params + _NUDGES, err, _STEPS)
        if not np.isfinite(jac).all():
            break
        trial = params + lstsq(jac, -err)
        new = _cost_at(px, py, trial)
        total = float(np.add.reduce(new * new))
        if not (math.isfinite(total) and best - total > fit._MIN_GAIN * max(best, floor)):
            break
        params, err, best = trial, new, total
    cx, cy, a, b, rot = params.tolist()
    if b > a:
        a, b, rot = b, a, rot + 90.0
    return EllipseModel((cx, cy), a, b, rot % 180.0)


@pytest.mark.parametrize("seed", range(6))
def test_the_points_in_another_order_give_the_same_fit(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    for i in range(40):
        pts, _ = _points(rng, i)
        want = EllipseModel.from_estimate(pts)
        for other in (pts[::-1], np.roll(pts, int(rng.integers(1, len(pts))), axis=0), pts[rng.permutation(len(pts))]):
            assert _same_fit(EllipseModel.from_estimate(np.ascontiguousarray(other)), want)


@pytest.mark.parametrize("seed", range(6))
def test_a_quarter_turn_turns_the_fit(seed: int) -> None:
    """Whole-number points turned a quarter about (50, 50) (exactly: x, y → 100 − y, x): the fit's
    center turns with them, its axes stay and its rotation grows by 90°, to 1e-4 (not 1e-9: the
    Jacobian's forward differences nudge the center towards +x and +y whichever way the drawing
    is turned, and their truncation, ~1e-4 of a step, moves where the polish converges by up to
    3e-5 of a fit's size here, before the stopping rule as after it)."""
    rng = np.random.default_rng(200 + seed)
    for i in range(40):
        pts, _ = _points(rng, 4 * i)  # (4 i: rounded to the grid)
        turned = np.column_stack([100.0 - pts[:, 1], pts[:, 0]])
        m, w = EllipseModel.from_estimate(turned), EllipseModel.from_estimate(pts)
        assert bool(m) and bool(w)
        want = EllipseModel((100.0 - w.center[1], w.center[0]), w.a, w.b, (w.rotation + 90.0) % 180.0)
        assert _same_fit(m, want, rtol=1e-4)


@pytest.mark.parametrize("seed", range(4))
def test_polishing_a_polished_fit_keeps_it(seed: int) -> None:
    """The polish stopped where no step gains 1e-10 of the error: started there again it takes
    none and returns its start as it is (the rule before took a step a rounding called a gain).
    (Not the drawings jittered by a whole cell: a thin one's polish may still be going after its
    30 steps, and goes on.)"""
    rng = np.random.default_rng(300 + seed)
    kept = 0
    for i in range(40):
        pts, _ = _points(rng, i)
        if i % 3 == 2:
            continue
        m = EllipseModel.from_estimate(pts)
        if m and m.a > 1.15 * m.b:
            assert m._refined(pts) == m
            kept += 1
    assert kept > 20


@pytest.mark.parametrize("seed", range(6))
def test_every_step_taken_gains_more_than_the_tolerance(seed: int) -> None:
    """Spying on the batch: each step taken lowered the error by more than ``_MIN_GAIN`` of it, the
    polish stopped at the first that did not (or at a failed measurement), and the result is never
    worse than the start."""
    rng = np.random.default_rng(400 + seed)
    real = fit._batch
    costs: list[float] = []
    seen: list[Any] = []

    def spy(p: Any, q: Any, steps: Any) -> Any:
        out = real(p, q, steps)
        if not any(q is x for x in seen):  # (a step taken is measured again when its trial came
            seen.append(q)  # without the Jacobian: not a new trial)
            costs.append(math.inf if out is None else out[1])
        return out

    mp = pytest.MonkeyPatch()
    mp.setattr(fit, "_batch", spy)
    try:
        for i in range(30):
            pts, start = _points(rng, i)
            costs.clear()
            seen.clear()
            m = start._refined(pts)
            # the start's cost, then each trial's (in units of the start's b): all but the last
            # gained more than the tolerance
            floor = len(pts) * (fit._FLOOR * start.a / start.b) ** 2
            best, taken = costs[0], 0
            for total in costs[1:-1]:
                assert best - total > fit._MIN_GAIN * max(best, floor)
                best, taken = total, taken + 1
            last = costs[-1]
            assert len(costs) == 31 or not (best - last > fit._MIN_GAIN * max(best, floor))
            assert taken or m == start
            assert _cost(m, pts) <= _cost(start, pts) * (1 + 1e-14)
    finally:
        mp.undo()


def test_a_step_gaining_less_than_the_tolerance_is_not_taken() -> None:
    """The Gauss–Newton step scaled down until it gains less than 1e-10 of the error is refused (the
    start comes back as it is); scaled to gain more, it is taken."""
    rng = np.random.default_rng(7)
    real = fit._gauss_newton_step
    pts, start = _points(rng, 1)
    for scale, moved in ((1e-12, False), (1e-14, False), (1e-3, True), (1.0, True)):

        def scaled(at: Any, steps: list[float], scale: float = scale) -> list[float] | None:
            step = real(at, steps)
            return None if step is None else [v * scale for v in step]

        mp = pytest.MonkeyPatch()
        mp.setattr(fit, "_gauss_newton_step", scaled)
        try:
            m = start._refined(pts)
        finally:
            mp.undo()
        assert (m != start) is moved
        if moved:
            assert _cost(m, pts) < _cost(start, pts) * (1 - 1e-10)


@pytest.mark.parametrize("seed", range(10))
def test_the_batch_polishes_as_the_separate_calls(seed: int) -> None:
    """The batch's polish and the separate calls' under the same rule: the same fits to 1e-9 (the
    fingerprint's rtol), from starts near and far, points on the center and NaN among them."""
    rng = np.random.default_rng(500 + seed)
    for i in range(40):
        pts, start = _points(rng, i)
        if i % 9 == 0:
            pts[0] = start.center  # a point on the start's center: the where()s' path
        with np.errstate(all="ignore"):
            if i % 13 == 0:
                pts[-1] = [np.nan, 3.0]
            assert _same_fit(start._refined(pts), _separate_calls(start, pts))
            fitted = EllipseModel.from_estimate(pts)
            if fitted:
                assert _same_fit(fitted._refined(pts), _separate_calls(fitted, pts))


def test_a_step_to_a_semi_axis_at_or_below_zero_is_refused() -> None:
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    pts = np.column_stack([30 + 20 * np.cos(t), 30 + 0.2 * np.sin(t)])
    for b in (1e-5, 1e-3, 0.05, 2.0):
        start = EllipseModel((30.0, 30.0), 20.0, b, 0.0)
        with np.errstate(all="ignore"):
            m = start._refined(pts)
            assert m.a > 0 and m.b > 0
            assert _same_fit(m, _separate_calls(start, pts))


def test_a_singular_system_takes_the_least_squares_step() -> None:
    """Two nudges that change the distances alike make the normal equations singular: the step is
    then the least-squares (minimum-norm) one, finite."""
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(6, 50))
    rows[1] = rows[0]  # two equal columns of the Jacobian
    steps = [1e-4, 1e-4, 1e-4, 1e-4, 1e-3]
    step = fit._gauss_newton_step((rows, rows @ rows.T, True), steps)
    assert step is not None and all(math.isfinite(v) for v in step)
    want = lstsq((rows[:5] / np.array(steps)[:, None]).T, -rows[5]).tolist()
    assert np.allclose(step, want, rtol=1e-6, atol=1e-12)
    assert fit._gauss_newton_step((rows, rows @ rows.T, False), steps) is None
