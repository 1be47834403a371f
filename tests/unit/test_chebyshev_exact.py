"""``chebyshev`` and ``closure_distance`` skip numpy's reduction over an axis of two; they must
give what it gives, NaN, infinities and signed zeros included."""

from __future__ import annotations

import numpy as np

from shape_asserts.geometry.distances import chebyshev, closure_distance


def _reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.max(np.abs(np.asarray(a, float) - np.asarray(b, float)), axis=-1)


def _values(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    v = rng.normal(size=shape) * rng.choice([1.0, 50.0, 1e-9, 1e300], size=shape)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0])
    mask = rng.random(shape) < 0.15
    v[mask] = rng.choice(special, size=int(mask.sum()))
    return v


def test_chebyshev_is_the_maximum_over_the_last_axis():
    rng = np.random.default_rng(0)
    with np.errstate(invalid="ignore", over="ignore"):
        for shape in [(2,), (7, 2), (3, 4, 2), (5, 3), (0, 2)]:
            for _ in range(200):
                a, b = _values(rng, shape), _values(rng, shape)
                got, want = chebyshev(a, b), _reference(a, b)
                assert np.array_equal(got, want, equal_nan=True)
                assert np.shape(got) == np.shape(want)


def test_closure_distance_is_chebyshev_last_to_first():
    rng = np.random.default_rng(1)
    with np.errstate(invalid="ignore", over="ignore"):
        for n in (1, 2, 5):
            for _ in range(500):
                pts = _values(rng, (n, 2))
                got, want = closure_distance(pts), float(_reference(pts[-1], pts[0]))
                assert got == want or (np.isnan(got) and np.isnan(want))
    assert closure_distance(np.zeros((0, 2))) == float("inf")
