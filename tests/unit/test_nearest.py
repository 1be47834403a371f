"""The strip searches of ``geometry/nearest.py`` give the all-pairs answers bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.nearest import brute_nearest, brute_to_segments, nearest_sq, to_segments
from shape_asserts.geometry.points import roll_rows


def _drawings(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs (queries, targets) of the kinds scoring meets: cells, off-grid floats, a sampled
    curve, a few cells written many times (the hostile answers), points far from everything."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, 900, endpoint=False)
    curve = np.column_stack([25 + 20 * np.cos(t), 25 + 12 * np.sin(t)])
    cells = rng.integers(0, 50, (700, 2)).astype(float)
    return [
        (cells, curve),
        (curve, cells),
        (rng.random((300, 2)) * 60 - 5, cells[:400]),
        (np.array([(0.0, 0.0) if i % 2 else (49.0, 49.0) for i in range(2_000)]), curve),
        (rng.integers(0, 3, (1_500, 2)).astype(float), cells),
        (cells[:200] + 500.0, curve),
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("metric", ["euclidean", "chebyshev"])
def test_nearest_sq_equals_comparing_every_pair(seed, metric):
    for q, b in _drawings(seed):
        assert np.array_equal(nearest_sq(q, b, metric), brute_nearest(q, b, metric))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_to_segments_equals_comparing_every_pair(seed):
    for q, b in _drawings(seed):
        ends = roll_rows(b, -1)
        assert np.array_equal(to_segments(q, b, ends), brute_to_segments(q, b, ends))


def test_huge_coordinates_take_the_all_pairs_form_and_agree():
    q = np.array([[1e300, 0.0], [3.0, 4.0]] * 40)
    b = np.array([[0.0, 0.0], [1.0, 1.0]] * 40)
    with np.errstate(over="ignore"):  # 1e300 squared overflows to inf, in both forms alike
        assert np.array_equal(nearest_sq(q, b), brute_nearest(q, b, "euclidean"))


def test_no_targets_is_infinitely_far():
    assert nearest_sq(np.zeros((3, 2)), np.zeros((0, 2))).tolist() == [np.inf] * 3


@pytest.mark.parametrize("shift", [-7, -1, 0, 1, 3, 8])
def test_roll_rows_is_np_roll_along_rows(shift):
    a = np.arange(10.0).reshape(5, 2)
    assert np.array_equal(roll_rows(a, shift), np.roll(a, shift, axis=0))
    assert roll_rows(np.zeros((0, 2)), shift).shape == (0, 2)
