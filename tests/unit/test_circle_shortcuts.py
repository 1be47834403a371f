"""The circle's shortcuts are the forms they replaced, bit for bit: the Taubin fit's square roots in
Python floats (``math.sqrt`` for ``np.sqrt`` on float64 scalars, ``2.0 * sqrt(zmean)`` made once),
and the seed's fast-path test from one reduction (the largest magnitude below the limit, instead of
``isfinite(...).all()`` and the largest magnitude apart) — with signed zeros, NaN, infinities,
huge and subnormal values."""

from __future__ import annotations

import math
import warnings

import numpy as np

from shape_asserts.geometry.fit import CircleModel, FitFailure
from shape_asserts.geometry.fit.base import eigh

SPECIALS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 1e154, 5e-324, 2.0**30, 2.0**30 - 0.5, -(2.0**30)]


def _old_fit(pts: np.ndarray) -> CircleModel | FitFailure:
    """``CircleModel.from_estimate`` as it was (numpy float64 scalars for the square roots)."""
    n = len(pts)
    if n < 3:
        return FitFailure("fewer than 3 distinct points")
    mean = np.add.reduce(pts, axis=0) / n
    centred = pts - mean
    sq = np.add.reduce(centred**2, axis=1)
    scale = float(np.sqrt(np.add.reduce(sq) / n))
    if not math.isfinite(scale) or scale == 0.0:
        return FitFailure("points have no spread")
    zxy = np.empty((n, 3))
    np.divide(centred, scale, out=zxy[:, 1:])
    x, y = zxy[:, 1], zxy[:, 2]
    z = x * x + y * y
    zmean = np.add.reduce(z) / n
    z -= zmean
    np.divide(z, 2.0 * np.sqrt(zmean), out=zxy[:, 0])
    vals, vecs = eigh(zxy.T @ zxy)
    if vals[1] <= 1e-9 * vals[2]:
        return FitFailure("fewer than 3 distinct points")
    v0, v1, v2 = vecs[:, 0].tolist()
    zm = float(zmean)
    a0 = v0 / (2.0 * math.sqrt(zm))
    a1, a2, a3 = v1, v2, -zm * a0
    if abs(a0) < 1e-10:
        return FitFailure("points are collinear")
    cx, cy = -a1 / (2 * a0), -a2 / (2 * a0)
    r2 = (a1**2 + a2**2 - 4 * a0 * a3) / (4 * a0**2)
    if not math.isfinite(r2) or r2 <= 0:
        return FitFailure("no real circle fits the points")
    mx, my = mean.tolist()
    return CircleModel(center=(cx * scale + mx, cy * scale + my), radius=math.sqrt(r2) * scale)


def _key(m: CircleModel | FitFailure) -> tuple[object, ...]:
    if not m:
        return ("failed", m.reason)
    return tuple(np.float64(v).tobytes() for v in (*m.center, m.radius))


def test_fit_is_the_numpy_scalar_form() -> None:
    rng = np.random.default_rng(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for trial in range(4000):
            n = int(rng.integers(3, 60))
            kind = trial % 5
            if kind == 0:
                pts = rng.integers(0, 50, (n, 2)).astype(float)
            elif kind == 1:
                pts = rng.normal(25, 10, (n, 2))
            elif kind == 2:
                pts = rng.choice(SPECIALS, (n, 2))
            elif kind == 3:
                pts = rng.integers(0, 50, (n, 2)).astype(float)
                pts[rng.integers(n), rng.integers(2)] = rng.choice(SPECIALS)
            else:
                pts = rng.uniform(-1, 1, (n, 2)) * 10.0 ** int(rng.integers(-300, 300))
            assert _key(CircleModel.from_estimate(pts)) == _key(_old_fit(pts)), pts


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
