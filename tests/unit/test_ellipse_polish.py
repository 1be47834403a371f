"""The ellipse polish (``EllipseModel._refined``: Gauss–Newton steps on the normal distances) and
its stopping rule: a step is taken only if it lowers the error by more than ``_MIN_GAIN`` (1e-10)
of it (of at least ``(_FLOOR · a)²`` a point), and the polish stops at the first that does not. So
the fit does not depend on the order of the points, a polished fit polished again stays as it is,
and the result is never worse than the start.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from shape_asserts.geometry.fit import EllipseModel, axis_angle_difference
from shape_asserts.geometry.fit import ellipse as fit


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
    """The polish's error at ``m``: the sum of squared normal distances."""
    e = m.radial(pts)[1]
    return float(e @ e)


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
    """Spying on the error measured: each step taken lowered it by more than ``_MIN_GAIN`` of it, the
    polish stopped at the first that did not, and the result is never worse than the start."""
    rng = np.random.default_rng(400 + seed)
    real = fit._distances_at
    costs: list[float] = []

    def spy(pts: Any, params: Any) -> Any:
        out = real(pts, params)
        costs.append(float(out @ out))
        return out

    mp = pytest.MonkeyPatch()
    mp.setattr(fit, "_distances_at", spy)
    try:
        for i in range(30):
            pts, start = _points(rng, i)
            costs.clear()
            mp.setattr(fit, "_jacobian", _unspied_jacobian(real))
            m = start._refined(pts)
            floor = len(pts) * (fit._FLOOR * start.a) ** 2
            best, taken = costs[0], 0
            for total in costs[1:-1]:
                assert best - total > fit._MIN_GAIN * max(best, floor)
                best, taken = total, taken + 1
            assert len(costs) == fit._ROUNDS + 1 or not (best - costs[-1] > fit._MIN_GAIN * max(best, floor))
            assert taken or m == start
            assert _cost(m, pts) <= _cost(start, pts) * (1 + 1e-12)
    finally:
        mp.undo()


def _unspied_jacobian(real: Any) -> Any:
    """The Jacobian measured with the real distances (so the spy sees only the error at each trial)."""

    def jacobian(pts: Any, params: Any, err: Any) -> Any:
        columns = [(real(pts, params + step) - err) / h for step, h in zip(np.diag(fit._STEPS), fit._STEPS)]
        return np.column_stack(columns)

    return jacobian


def test_a_step_to_a_semi_axis_at_or_below_zero_is_refused() -> None:
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    pts = np.column_stack([30 + 20 * np.cos(t), 30 + 0.2 * np.sin(t)])
    for b in (1e-5, 1e-3, 0.05, 2.0):
        start = EllipseModel((30.0, 30.0), 20.0, b, 0.0)
        with np.errstate(all="ignore"):
            m = start._refined(pts)
        assert m.a > 0 and m.b > 0
        assert _cost(m, pts) <= _cost(start, pts)


def test_a_point_on_the_center_lies_a_minor_semi_axis_inside() -> None:
    m = EllipseModel((30.0, 30.0), 20.0, 5.0, 30.0)
    assert m.radial(np.array([[30.0, 30.0]]))[1].tolist() == [-5.0]
