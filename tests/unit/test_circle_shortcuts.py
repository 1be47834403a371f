"""The circle's shortcuts are the forms they replaced, bit for bit: the Taubin fit's square roots in
Python floats (``math.sqrt`` for ``np.sqrt`` on float64 scalars, ``2.0 * sqrt(zmean)`` made once;
the whole fit's numbers on 5,722 drawings are held by ``bench/score_fingerprint.py``),
and the seed's fast-path test from one reduction (the largest magnitude below the limit, instead of
``isfinite(...).all()`` and the largest magnitude apart) — with signed zeros, NaN, infinities,
huge and subnormal values."""

from __future__ import annotations

import math
import warnings

import numpy as np

SPECIALS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 1e154, 5e-324, 2.0**30, 2.0**30 - 0.5, -(2.0**30)]


def test_square_roots_are_numpys() -> None:
    values = [*SPECIALS[:2], *[v for v in SPECIALS if v >= 0], 2.5, 1e-320, 7.0, 1.7e308, 0.1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for s in values:
            for n in (1, 3, 7, 40, 200, 10_000):
                want = float(np.sqrt(np.float64(s) / n))
                got = math.sqrt(float(np.float64(s)) / n)
                assert np.float64(got).tobytes() == np.float64(want).tobytes(), (s, n)
                zmean = np.float64(s) / n
                assert np.float64(2.0 * math.sqrt(float(zmean))).tobytes() == (2.0 * np.sqrt(zmean)).tobytes()


def test_seed_fast_path_test_is_both_checks() -> None:
    from shape_asserts.families.circle import _SEED_FAST_LIMIT

    rng = np.random.default_rng(9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (1, 2, 5, 40, 300):
            for _ in range(300):
                pts = (
                    rng.choice(SPECIALS + [3.0, -4.5, 49.0], (n, 2))
                    if rng.random() < 0.7
                    else rng.normal(0, 1e9, (n, 2))
                )
                old = not bool(np.isfinite(pts).all()) or float(np.abs(pts).max()) >= _SEED_FAST_LIMIT
                new = not float(np.maximum.reduce(np.abs(pts), axis=None)) < _SEED_FAST_LIMIT
                assert old == new, pts
