"""``fit.spiral._lap_medians`` looks for every target's run within the window first and takes the
nearest points' form (``_lap_medians_nearest``) only when a target has none: the same medians, bit
for bit, as the form that finds every target's nearest distance first (``_reference``, copied)."""

from __future__ import annotations

import numpy as np
import pytest

import shape_asserts.geometry.fit.spiral as sp
from tests.unit.test_lap_medians_sort import _reference


def _cases(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(2, 900 if seed % 10 == 0 else 250))
    if seed % 3 == 0:  # points anywhere: some targets far from every point
        th = rng.uniform(0, 20, n)
    elif seed % 3 == 1:  # a spiral's angles, a few steps wider than the window
        th = np.cumsum(rng.choice([0.05, 0.1, 0.3, 0.6], n))
    else:  # on a grid of angles: targets exactly a window from points (the run's ends)
        th = np.round(rng.uniform(0, 30, n) * 4) / 4
    r = np.round(rng.uniform(0, 30, n) * 2) / 2
    if seed % 5 == 0:
        r[rng.integers(0, n, n // 5 + 1)] = rng.choice([0.0, -0.0, np.inf])
    if seed % 7 == 0:
        r[rng.integers(0, n)] = np.nan
    targets = th[th >= th.min() + 2 * np.pi] - 2 * np.pi
    if seed % 11 == 0 and targets.size:
        targets[rng.integers(0, targets.size)] = rng.choice([np.nan, np.inf, -np.inf])
    return th, r, targets


@pytest.mark.parametrize("window", [0.25, 0.05, 1.0])
@pytest.mark.parametrize("seed", range(80))
def test_same_medians(seed: int, window: float) -> None:
    th, r, targets = _cases(seed)
    with np.errstate(invalid="ignore"):
        got = sp._lap_medians(th, r, targets, window)
        want = _reference(th, r, targets, window)
    assert got.tobytes() == want.tobytes()


def test_both_forms_are_taken() -> None:
    """The cases above reach the window's form and the nearest points' form."""
    taken = []
    real = sp._lap_medians_nearest

    def spy(*args: object) -> np.ndarray:
        taken.append(True)
        return real(*args)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(sp, "_lap_medians_nearest", spy)
    try:
        calls = 0
        for seed in range(80):
            th, r, targets = _cases(seed)
            if targets.size:
                calls += 1
                with np.errstate(invalid="ignore"):
                    sp._lap_medians(th, r, targets, 0.25)
    finally:
        mp.undo()
    assert 0 < len(taken) < calls
