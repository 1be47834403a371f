"""``mean_of`` divides in Python floats (one IEEE division, as numpy's scalars divide): numpy's mean,
infinities, NaN and sums near overflow included."""

from __future__ import annotations

import math
import warnings

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


def _lap_error_before(radii, used, theta, spacing, turns, inward):  # type: ignore[no-untyped-def]
    """lap_error as it was: the laps swept from every point, then the innermost lap's (copied)."""
    if not used.size:
        return float("inf")
    swept = np.abs(theta - (theta[-1] if not inward else theta[0])) / (2 * math.pi)
    r = radii[used]
    first = r <= spacing
    if not first.any():
        first = r <= r.min()
    return mean_of(swept[first] - (turns - r[first] / spacing))


def test_lap_error_as_before() -> None:
    from shape_asserts.geometry.fit.spiral import lap_error

    rng = np.random.default_rng(12)
    for i in range(500):
        n = int(rng.integers(0, 300))
        radii = rng.uniform(0, 30, n)
        if i % 7 == 0 and n:
            radii[rng.integers(0, n)] = np.nan
        used = np.flatnonzero(rng.uniform(size=n) < 0.9)
        theta = np.cumsum(rng.uniform(-0.1, 0.4, used.size))
        spacing = float(rng.choice([0.5, 3.0, 6.0, 50.0]))  # 0.5: often no point within it
        args = (radii, used, theta, spacing, float(rng.uniform(1, 6)), bool(i % 2))
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a NaN radius: no first lap, np.mean of nothing
            got, want = lap_error(*args), _lap_error_before(*args)
        assert got == want or (math.isnan(got) and math.isnan(want))
