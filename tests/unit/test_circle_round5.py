"""Cheaper forms of the circle's measures give the numbers their former forms gave, bit for bit:
``about_mean``'s squared distances, the harmonics' running products and their argmax, and
``ShapeScore``'s finiteness test (the former forms are written out here as references)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry import scorecard
from shape_asserts.geometry.fit.circle import about_mean, radial_harmonics
from shape_asserts.geometry.score import Check, ShapeScore
from shape_asserts.geometry.scorecard import Scorecard


def _point_sets() -> list[np.ndarray]:
    rng = np.random.default_rng(51)
    sets = [rng.integers(-50, 100, (int(rng.integers(3, 400)), 2)).astype(float) for _ in range(200)]
    sets += [rng.normal(0, 1, (int(rng.integers(3, 400)), 2)) * 10.0 ** rng.integers(-4, 9) for _ in range(200)]
    sets.append(rng.uniform(0, 100, (10_000, 2)))
    return sets


def test_about_mean_squares_as_the_row_reduction() -> None:
    for pts in _point_sets():
        mean, centred, sq = about_mean(pts)
        want = np.add.reduce((pts - np.add.reduce(pts, axis=0) / len(pts)) ** 2, axis=1)
        assert sq.tobytes() == want.tobytes()
        assert sq.flags.c_contiguous


def _harmonics_before(theta: np.ndarray, e: np.ndarray, lo: int = 2, hi: int = 16) -> np.ndarray:
    order = np.argsort(theta, kind="stable")
    s = theta[order]
    gaps = np.empty_like(s)
    np.subtract(s[1:], s[:-1], out=gaps[:-1])
    gaps[-1] = s[0] + 2 * np.pi - s[-1]
    w = np.empty_like(s)
    w[order[1:]] = (gaps[1:] + gaps[:-1]) / 2.0
    w[order[0]] = (gaps[0] + gaps[-1]) / 2.0
    total = float(np.add.reduce(w))
    phase = np.empty((hi, len(theta)), dtype=complex)
    phase[:] = np.exp(-1j * theta)
    np.multiply.accumulate(phase, axis=0, out=phase)
    amplitudes: np.ndarray = 2.0 * np.abs(phase[lo - 1 :] @ (w * e)) / total
    return amplitudes


@pytest.mark.parametrize("orders", [(2, 16), (1, 3), (4, 4)])
def test_radial_harmonics_as_before(orders: tuple[int, int]) -> None:
    rng = np.random.default_rng(52)
    for _ in range(300):
        n = int(rng.integers(3, 600))
        theta = rng.uniform(-np.pi, np.pi, n)
        if n % 5 == 0:  # repeated angles
            theta[::3] = theta[0]
        e = rng.normal(0, 0.5, n)
        got = radial_harmonics(theta, e, orders)
        assert got.tobytes() == _harmonics_before(theta, e, *orders).tobytes()


def _worst_before(amps: list[float], limits: tuple[float, float, float, float], size: float) -> tuple[int, float]:
    a, b, c, d = limits
    repeat, other = a + b / size, c + d / size
    limit = [repeat if k % 4 == 0 else other for k in range(2, 2 + len(amps))]
    share = [amp / lim for amp, lim in zip(amps, limit)]
    k = 0
    for i, v in enumerate(share):
        if v != v:
            k = i
            break
        if v > share[k]:
            k = i
    return k, share[k]


def test_harmonics_worst_order_as_argmax() -> None:
    """The check names np.argmax's order: the first NaN, else the first largest share (ties too)."""
    rng = np.random.default_rng(53)
    size = 40.0
    limits = (0.24, 0.75, 0.12, 0.3)
    cases = [[float(v) for v in rng.uniform(0, 0.6, 15)] for _ in range(200)]
    cases += [[0.5] * 15, [0.0] * 15, [0.1, math.inf, 0.2, math.inf] + [0.0] * 11]
    nan = [float(v) for v in rng.uniform(0, 0.3, 15)]
    for at in (0, 1, 7, 14):
        cases.append(nan[:at] + [math.nan] + nan[at + 1 :])
        cases.append(nan[:at] + [math.nan] + nan[at + 1 : 10] + [math.nan] + nan[11:])
    for amps in cases:
        k, worst = _worst_before(amps, limits, size)
        theta = np.linspace(-np.pi, np.pi, 64, endpoint=False)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(scorecard, "radial_harmonics", lambda *_, amps=amps: np.array(amps))
            check = Scorecard().harmonics(theta, np.zeros(64), scale=size, limits=limits, symmetry=4)
        shown = round(worst, 4)
        assert (check.value == shown) or (check.value != check.value and shown != shown)
        if worst > 1.0 or worst != worst:
            assert check.passed is False
        if worst > 1.0:
            assert f"cells {k + 2} times round" in check.detail


@pytest.mark.parametrize(
    "metrics, values, changed",
    [
        ({"a": 1.0, "b": 2}, [1.0, "x"], False),
        ({"a": 1e308, "b": 1e308}, [1e308], False),  # a sum that overflows: nothing to change
        ({"a": math.nan}, [1.0], True),
        ({"a": 1.0}, [math.inf], True),
        ({"a": math.inf, "b": -math.inf}, [1.0], True),
        ({"a": np.float64(math.nan)}, [1.0], True),
    ],
)
def test_finite_shortcut(metrics: dict[str, object], values: list[object], changed: bool) -> None:
    checks = tuple(Check(f"c{i}", True, v, "≤ 1") for i, v in enumerate(values))
    s = ShapeScore(family="f", score=50.0, metrics=dict(metrics), checks=checks)
    assert (s.checks[-1].name == "finite") is changed
    if not changed:
        assert s.metrics == metrics and s.checks == checks


def test_int_seed_from_about_as_the_float_seed() -> None:
    """The multi scorer's per-circle seed of int contours (``int_points_score`` from ``about_mean``)
    is the seed score of the contour's floats (``score_circle``'s own ``seed_of_points``)."""
    from shape_asserts.families.circle import seed_of_points
    from shape_asserts.geometry.seed import int_points_score

    rng = np.random.default_rng(54)
    taken = 0
    for _ in range(600):
        n = int(rng.integers(3, 300))
        pts = rng.integers(-40, 16_000_000 if n % 7 == 0 else 120, (n, 2)).astype(float)
        if n % 5 == 0:
            pts[1::2] = pts[0]
        got = int_points_score(pts, about_mean(pts))
        if got is None:
            continue
        taken += 1
        want = seed_of_points(pts)
        assert want is not None and (got, math.copysign(1, got)) == (want, math.copysign(1, want))
    assert taken > 500
