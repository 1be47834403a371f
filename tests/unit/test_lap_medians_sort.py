"""``fit.spiral._lap_medians`` sorts each target's values with one stable complex sort instead of
``np.lexsort``: the same medians, bit for bit (ties, signed zeros, NaN and infinities included)."""

from __future__ import annotations

import numpy as np
import pytest

import shape_asserts.geometry.fit.spiral as sp


def _reference(th: np.ndarray, r: np.ndarray, targets: np.ndarray, window: float) -> np.ndarray:
    """_lap_medians as it was, with np.lexsort (copied)."""
    if targets.size == 0:
        return np.zeros(0)
    order = np.argsort(th, kind="stable")
    ths, rs = th[order], r[order]
    n = len(ths)
    ins = np.searchsorted(ths, targets)
    left = np.abs(ths[np.maximum(ins - 1, 0)] - targets)
    right = np.abs(ths[np.minimum(ins, n - 1)] - targets)
    nearest = np.minimum(left, right)
    reach = np.where(nearest <= window, window, nearest + 1e-9)
    slack = 1e-7 * (1.0 + np.abs(targets))
    lo = np.searchsorted(ths, targets - reach - slack, side="left")
    hi = np.searchsorted(ths, targets + reach + slack, side="right")
    counts = hi - lo
    qi = np.repeat(np.arange(len(targets)), counts)
    ti = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts - lo, counts)
    inside = np.abs(ths[ti] - targets[qi]) <= reach[qi]
    qi, vals = qi[inside], rs[ti[inside]]
    vals = vals[np.lexsort((vals, qi))]
    count = np.bincount(qi, minlength=len(targets))
    start = np.cumsum(count) - count
    low, high = vals[start + (count - 1) // 2], vals[start + count // 2]
    odd = count % 2 == 1
    return np.where(odd & (n >= 600), low, (low + high) / 2)


@pytest.mark.parametrize("seed", range(60))
def test_same_medians(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 900 if seed % 10 == 0 else 250))
    th = np.cumsum(rng.uniform(0, 0.3, n)) if seed % 3 else rng.uniform(0, 20, n)
    r = np.round(rng.uniform(0, 30, n) * 2) / 2  # ties
    if seed % 4 == 0:
        r[rng.integers(0, n, n // 5 + 1)] = rng.choice([0.0, -0.0, np.inf])
    if seed % 7 == 0:
        r[rng.integers(0, n)] = np.nan
    targets = th[th >= th.min() + 2 * np.pi] - 2 * np.pi
    with np.errstate(invalid="ignore"):
        got = sp._lap_medians(th, r, targets, 0.25)
        want = _reference(th, r, targets, 0.25)
    assert got.tobytes() == want.tobytes()
