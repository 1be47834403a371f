"""families/single.py's means (``_mean``, ``_mean_beyond``): the same floats as the numpy
expressions they replace, for signed zeros, NaN, infinities and huge values."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from shape_asserts.families.single import _mean, _mean_beyond


def _same(a: float, b: float) -> bool:
    """The same float: equal with the same sign (of a zero too), or both NaN."""
    return math.copysign(1.0, a) == math.copysign(1.0, b) and (a == b or (math.isnan(a) and math.isnan(b)))


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [
        np.zeros(0),
        np.array([0.0]),
        np.array([-0.0]),
        np.array([-0.0, -0.0, -0.0]),
        np.array([0.5, -0.0, 0.5]),
        np.array([np.nan, 1.0]),
        np.array([np.inf, 1.0]),
        np.array([np.inf, -np.inf]),
        np.array([1e308, 1e308, 1e308]),
        np.array([-1e308, 5e-324, 1e-300]),
        rng.uniform(0, 3, 201),
        rng.uniform(0, 3, 804) ** 7,
        np.abs(rng.normal(0, 1e6, 3000)),
    ]


@pytest.mark.parametrize("i", range(13))
def test_mean_is_np_mean_and_the_former_quotient(i):
    values = _arrays()[i]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # np.mean of nothing warns
        assert _same(_mean(values), float(np.mean(values)))
        if len(values):
            assert _same(_mean(values), float(np.add.reduce(values) / np.intp(len(values))))


@pytest.mark.parametrize("slack", [0.5, 0.0, -0.0, 1e308, np.inf])
@pytest.mark.parametrize("i", range(13))
def test_mean_beyond_is_the_mean_of_the_excess(i, slack):
    values = _arrays()[i]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _same(_mean_beyond(values, slack), float(np.mean(np.maximum(0.0, values - slack))))
