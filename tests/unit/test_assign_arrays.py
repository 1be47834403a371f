"""``matching.assign`` with arrays (many permutations) picks what the Python brute force picks: the first
permutation, in ``itertools`` order, of least total, ties, NaN and infinite costs included; and the
headline's mean of the seed scores, added up in Python, is ``np.mean``'s."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.multi import matching, scorer


def _python(cost: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    with monkeypatch.context() as mp:
        mp.setattr(matching, "_PYTHON_PERMUTATIONS", 10**9)
        return matching.assign(cost)


@pytest.mark.parametrize("seed", range(4))
def test_arrays_pick_the_python_brute_force(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    for m in range(1, 8):
        for k in range(1, 8):
            for kind in ("random", "ties", "nan", "inf", "tiny"):
                cost = rng.random((m, k)) * 30
                if kind == "ties":
                    cost = np.rint(cost / 10)
                elif kind == "nan":
                    cost[rng.random((m, k)) < 0.3] = np.nan
                elif kind == "inf":
                    cost[rng.random((m, k)) < 0.5] = np.inf
                elif kind == "tiny":  # differences below the totals' rounding
                    cost = 1e6 + rng.integers(0, 3, (m, k)) * 1e-11
                assert matching._assign_arrays(cost) == _python(cost, monkeypatch), (m, k, kind)
                assert scorer.assign(cost) == _python(cost, monkeypatch)


@pytest.mark.parametrize("k", range(1, 12))
def test_mean_of_the_seeds_is_numpys(k):
    rng = np.random.default_rng(k)
    for _ in range(2000):
        seeds = (
            np.round(rng.random(k) * 100, int(rng.integers(0, 4))) if rng.random() < 0.5 else rng.random(k) * 100
        ).tolist()
        assert scorer._mean(seeds) == float(np.mean(seeds))
