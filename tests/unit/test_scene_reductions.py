"""The scenes' reductions called directly are the forms they replaced, bit for bit: ``np.add.reduce``
for ``ndarray.sum``, ``np.maximum``/``np.minimum.reduce`` for ``.max()``/``.min()``,
``np.logical_or.reduce`` for ``.any()``, ``mask.nonzero()[0]`` for ``np.flatnonzero``, and the stick head's ``fit.polar`` for ``fit.radial`` and ``roundness`` — on values with signed
zeros, NaN, infinities and huge numbers."""

from __future__ import annotations

import math
import warnings

import numpy as np

from shape_asserts.geometry.fit import CircleModel, roundness
from shape_asserts.geometry.fit.circle import roundness_of

SPECIALS = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e308, -1e308, 1.7e308, 5e-324, -5e-324, 3.0, -2.5])


def _bits(x: float) -> tuple[bool, float, float]:
    return (math.isnan(x), 0.0 if math.isnan(x) else x, math.copysign(1.0, x))


def _arrays(rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    for n in (0, 1, 2, 3, 8, 9, 17, 129, 300):
        for _ in range(25):
            kind = rng.integers(3)
            if kind == 0:
                out.append(rng.choice(SPECIALS, n))
            elif kind == 1:
                out.append(rng.uniform(-1e3, 1e3, n))
            else:
                out.append(rng.choice([0.0, -0.0], n))
    return out


def test_reductions_are_the_methods() -> None:
    rng = np.random.default_rng(11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in _arrays(rng):
            mask = rng.random(len(x)) < 0.6
            assert _bits(float(np.add.reduce(x[mask]))) == _bits(float(x[mask].sum()))
            assert bool(np.logical_or.reduce(mask)) == bool(mask.any())
            assert np.array_equal(mask.nonzero()[0], np.flatnonzero(mask))
            assert mask.nonzero()[0].dtype == np.flatnonzero(mask).dtype
            if len(x):
                assert _bits(float(np.maximum.reduce(x[mask] if mask.any() else x))) == _bits(
                    float((x[mask] if mask.any() else x).max())
                )
            if len(x) >= 2:
                segs = x[: len(x) // 2 * 2].reshape(-1, 2)
                lo, hi = np.minimum.reduce(segs, axis=None), np.maximum.reduce(segs, axis=None)
                assert _bits(float(lo)) == _bits(float(segs.min()))
                assert _bits(float(hi)) == _bits(float(segs.max()))


def test_head_distances_are_radial_and_roundness() -> None:
    rng = np.random.default_rng(5)
    rings = [rng.integers(0, 50, (n, 2)).astype(float) for n in (3, 5, 12, 40, 90) for _ in range(20)]
    rings += [np.array([[0.0, -0.0], [3.0, 0.0], [-0.0, 3.0], [1e300, 2.0], [np.inf, 1.0]])]
    rings += [np.array([[1.0, 1.0], [np.nan, 2.0], [4.0, -0.0], [2.0, 5.0]])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for ring in rings:
            for fit in (
                CircleModel.from_estimate(ring),
                CircleModel((25.0, -0.0), 7.5),
                CircleModel((1e308, 3.0), 2.0),
            ):
                if not fit:
                    continue
                polar_ang, polar_res, dist = fit.polar(ring)
                ang, res = fit.radial(ring)
                assert np.array_equal(polar_ang.view(np.int64), ang.view(np.int64))
                assert np.array_equal(polar_res.view(np.int64), res.view(np.int64))
                assert _bits(roundness_of(dist)) == _bits(roundness(ring, fit.center))
