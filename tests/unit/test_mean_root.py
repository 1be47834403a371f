"""``distances.mean_root`` is ``float(np.sqrt(sq).mean())`` bit for bit (the form it replaced in
``chamfer_distances``): lengths on either side of numpy's pairwise blocks, signed zeros, NaN,
infinities, negatives (NaN roots), huge and subnormal values."""

from __future__ import annotations

import math
import warnings

import numpy as np

from shape_asserts.geometry.distances import mean_root


def _bits(x: float) -> tuple[bool, float, float]:
    return (math.isnan(x), 0.0 if math.isnan(x) else x, math.copysign(1.0, x))


def _same(sq: np.ndarray) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = float(np.sqrt(sq).mean())
        got = mean_root(sq)
    assert type(got) is float
    assert _bits(got) == _bits(want), (sq, got, want)


def test_mean_root_is_the_mean_of_the_roots() -> None:
    rng = np.random.default_rng(7)
    specials = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, -1.0, 1e308, 1.7e308, 5e-324, 2.2e-308, 1e-300])
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000, 4099):
        for _ in range(40):
            kind = rng.integers(4)
            if kind == 0:
                sq = rng.integers(0, 800, n).astype(float)  # whole squared cell distances
            elif kind == 1:
                sq = rng.uniform(0, 1e4, n)
            elif kind == 2:
                sq = rng.choice(specials, n)
            else:
                sq = np.exp(rng.uniform(-700, 709, n))  # subnormal to near overflow, roots summed
            _same(sq)
    for zeros in ([0.0], [-0.0], [-0.0, -0.0], [0.0, -0.0], [-0.0] * 20):
        _same(np.array(zeros))
    _same(np.full(300, 1.7e308))  # the roots' sum stays finite
    _same(np.array([np.inf, 1.0]))
    _same(np.array([np.nan, -np.inf]))


def test_mean_root_of_nothing_is_the_expressions_nan() -> None:
    _same(np.array([], dtype=float))
