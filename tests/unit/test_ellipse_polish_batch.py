"""The ellipse polish's batch (``fit/ellipse.py`` ``_cost_and_jacobian``: a step's error and the
Jacobian at it from one set of six parameter rows) gives the fit the separate calls gave, bit for
bit: the former loop is kept here and both are run on many point sets, points on the center,
NaN among them, thin and nearly round ellipses included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.fit import EllipseModel
from shape_asserts.geometry.fit import ellipse as fit
from shape_asserts.geometry.fit.base import lstsq


def _former(model: EllipseModel, pts: np.ndarray, rounds: int = 30) -> EllipseModel:
    """``EllipseModel._refined`` as it was: the error and the Jacobian by separate calls."""
    params = np.array([*model.center, model.a, model.b, model.rotation], dtype=float)
    px, py = pts[:, 0], pts[:, 1]
    err = fit._cost(px, py, params)
    best = float(np.add.reduce(err * err))
    for _ in range(rounds):
        jac = fit._jacobian(px, py, params + fit._NUDGES, err, fit._STEPS)
        if not np.isfinite(jac).all():
            break
        trial = params + lstsq(jac, -err)
        new = fit._cost(px, py, trial)
        total = float(np.add.reduce(new * new))
        if not math.isfinite(total) or total >= best:
            break
        done = best - total <= 1e-12 * max(best, 1e-12)
        params, err, best = trial, new, total
        if done:
            break
    cx, cy, a, b, rot = params
    if b > a:
        a, b, rot = b, a, rot + 90.0
    return EllipseModel((float(cx), float(cy)), float(a), float(b), float(rot % 180.0))


def _same(x: EllipseModel, y: EllipseModel) -> bool:
    return (
        np.array([*x.center, x.a, x.b, x.rotation]).tobytes() == np.array([*y.center, y.a, y.b, y.rotation]).tobytes()
    )


@pytest.mark.parametrize("seed", range(12))
def test_the_batch_polishes_as_the_separate_calls_did(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for i in range(60):
        n = int(rng.integers(6, 260))
        cx, cy = rng.uniform(10, 90, 2)
        a, b = float(rng.uniform(4, 45)), float(rng.uniform(0.5, 30))
        rot = float(rng.uniform(0, 180))
        t = rng.uniform(0, 2 * np.pi, n) if i % 2 else np.linspace(0, 2 * np.pi, n, endpoint=False)
        c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        x, y = a * np.cos(t), b * np.sin(t)
        pts = np.column_stack([cx + x * c - y * s, cy + x * s + y * c]) + rng.normal(0, [0.0, 0.3, 1.5][i % 3], (n, 2))
        if i % 4 == 0:
            pts = np.round(pts)
        if i % 9 == 0:
            pts[0] = [cx, cy]  # a point on the center: the where()s' path
        start = EllipseModel(
            (float(cx), float(cy)), a * rng.uniform(0.8, 1.2), b * rng.uniform(0.8, 1.2), rot + rng.normal(0, 5)
        )
        with np.errstate(all="ignore"):
            if i % 13 == 0:
                pts[-1] = [np.nan, 3.0]
            assert _same(start._refined(pts), _former(start, pts))
            fitted = EllipseModel.from_estimate(pts)
            if fitted:
                assert _same(fitted._refined(pts), _former(fitted, pts))


def test_a_step_to_a_semi_axis_at_or_below_zero_is_refused_as_before() -> None:
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    pts = np.column_stack([30 + 20 * np.cos(t), 30 + 0.2 * np.sin(t)])
    for b in (1e-5, 1e-3, 0.05, 2.0):
        start = EllipseModel((30.0, 30.0), 20.0, b, 0.0)
        with np.errstate(all="ignore"):
            assert _same(start._refined(pts), _former(start, pts))
