"""``mean_of`` divides in Python floats (one IEEE division, as numpy's scalars divide): numpy's mean,
infinities, NaN and sums near overflow included."""

from __future__ import annotations

import math

import numpy as np

from shape_asserts.geometry.fit.spiral import mean_of


def test_mean_of_is_numpys_mean_at_the_edges() -> None:
    rng = np.random.default_rng(11)
    for i in range(400):
        n = int(rng.integers(1, 300))
        v = rng.normal(0, 1, n) * 10.0 ** rng.integers(-310, 308, n)
        if i % 5 == 0:
            v[rng.integers(0, n)] = rng.choice([np.inf, -np.inf, np.nan, 1.7e308, -0.0])
        with np.errstate(all="ignore"):
            want = float(np.mean(v))
            got = mean_of(v)
        assert got == want or (math.isnan(got) and math.isnan(want))
        assert math.copysign(1, got) == math.copysign(1, want) or math.isnan(got)
