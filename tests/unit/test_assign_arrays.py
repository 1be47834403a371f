"""``assign`` with arrays (many permutations) picks what the Python brute force picks: the first
permutation, in ``itertools`` order, of least total, ties, NaN and infinite costs included."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.multi import scorer


def _python(cost: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    with monkeypatch.context() as mp:
        mp.setattr(scorer, "_PYTHON_PERMUTATIONS", 10**9)
        return scorer.assign(cost)


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
                assert scorer._assign_arrays(cost) == _python(cost, monkeypatch), (m, k, kind)
                assert scorer.assign(cost) == _python(cost, monkeypatch)
