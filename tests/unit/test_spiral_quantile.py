"""The spiral's lap quantile (``geometry/fit/spiral.py``) is numpy's ``np.quantile``, the same float."""

from __future__ import annotations

import numpy as np

from shape_asserts.geometry.fit.spiral import linear_quantile as _quantile


def test_the_lap_quantile_is_numpy_s():
    rng = np.random.default_rng(0)
    for i in range(3000):
        n = int(rng.integers(1, 60))
        v = np.abs(rng.normal(0, 3, n))
        if i % 5 == 0:
            v = np.round(v)
        if i % 13 == 0:
            v[:] = v[0]
        if i % 17 == 0:
            v[rng.integers(0, n)] = np.inf
        if i % 29 == 0:
            v[rng.integers(0, n)] = np.nan
        for q in (0.9, 0.5, 0.0, 1.0, 0.25, float(rng.random())):
            with np.errstate(invalid="ignore"):  # inf - inf, in both
                assert repr(_quantile(v, q)) == repr(float(np.quantile(v, q)))
