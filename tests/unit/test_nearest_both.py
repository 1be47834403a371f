"""``nearest_both`` (both ways, for several drawings, from one strip of pairs) gives what
``nearest_sq`` gives each way, bit for bit, and so do ``chamfer_distance(s)`` built on it."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.distances import chamfer_distance, chamfer_distances, nearest_distance
from shape_asserts.geometry.nearest import CellIndex, brute_nearest, nearest_both, nearest_sq


def _pairs(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Drawings against references: cells, off-grid floats (a drawing fitted onto a box), points
    far from everything (left unsettled by the first strip), repeats, a few points, long lists."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, 200, endpoint=False)
    curve = np.rint(np.column_stack([25 + 20 * np.cos(t), 25 + 12 * np.sin(t)]))
    cells = rng.integers(0, 50, (200, 2)).astype(float)
    floats = rng.random((180, 2)) * 50
    return [
        (cells, curve),
        (curve, cells),
        (floats, curve),
        (curve * 1.07 + 0.3, curve),
        (np.vstack([curve, [[400.0, 400.0], [-90.0, 3.0]]]), curve[::3]),
        (rng.integers(0, 3, (150, 2)).astype(float), cells),
        (cells[:5], curve[:4]),
        (rng.integers(0, 50, (700, 2)).astype(float), curve),
        (cells[:100] + 500.0, curve),
    ]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_nearest_both_is_nearest_sq_each_way(seed):
    for a, b in _pairs(seed):
        ((near_a, near_b),) = nearest_both([a], b)
        assert np.array_equal(near_a, nearest_sq(a, b))
        assert np.array_equal(near_b, nearest_sq(b, a))
        assert np.array_equal(near_a, brute_nearest(a, b, "euclidean"))
        assert np.array_equal(near_b, brute_nearest(b, a, "euclidean"))


@pytest.mark.parametrize("seed", [0, 1])
def test_chamfer_distance_is_the_two_nearest_distance_means(seed):
    for a, b in _pairs(seed):
        want = 0.5 * (float(nearest_distance(a, b).mean()) + float(nearest_distance(b, a).mean()))
        assert chamfer_distance(a, b) == want


def test_non_finite_points_take_nearest_sq_both_ways():
    a = np.array([[np.nan, 0.0], [3.0, 4.0]] * 40)
    b = np.array([[0.0, 0.0], [1.0, 1.0]] * 40)
    ((near_a, near_b),) = nearest_both([a], b)
    assert np.array_equal(near_a, nearest_sq(a, b), equal_nan=True)
    assert np.array_equal(near_b, nearest_sq(b, a), equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_several_drawings_at_once_are_each_alone(seed):
    pairs = _pairs(seed)
    b = pairs[0][1]
    for parts in ([a for a, _ in pairs[:4]], [pairs[2][0], pairs[2][0] * 0.9 + 2], [pairs[4][0], pairs[6][0]]):
        for a, (near_a, near_b) in zip(parts, nearest_both(parts, b)):
            assert np.array_equal(near_a, nearest_sq(a, b))
            assert np.array_equal(near_b, nearest_sq(b, a))
        assert chamfer_distances(parts, b) == [chamfer_distance(a, b) for a in parts]


def test_chamfer_distances_with_empty_drawings_are_infinite():
    b = np.array([[0.0, 0.0], [1.0, 1.0]])
    assert chamfer_distances([np.zeros((0, 2)), b], b) == [np.inf, 0.0]
    assert chamfer_distances([b], np.zeros((0, 2))) == [np.inf]


@pytest.mark.parametrize("seed", range(4))
def test_through_a_cell_index_is_nearest_sq_each_way(seed):
    pairs = _pairs(seed)
    for b in (pairs[0][1], pairs[1][1], pairs[2][0], pairs[2][0] * 3 - 20):
        index = CellIndex.of(b)
        assert index is not None
        parts = [a for a, _ in pairs] + [b + 0.5, b * 1.1 - 2.5, b[::-1].copy()]
        for part in [parts, parts[:1], parts[2:5]]:
            for a, (near_a, near_b) in zip(part, nearest_both(part, b, index)):
                assert np.array_equal(near_a, nearest_sq(a, b))
                assert np.array_equal(near_b, nearest_sq(b, a))
            assert chamfer_distances(part, b, index) == [chamfer_distance(a, b) for a in part]


def test_a_cell_index_is_of_its_own_points():
    b = np.array([[float(i), float(i % 7)] for i in range(100)])
    index = CellIndex.of(b)
    assert index is not None and CellIndex.of(np.zeros((0, 2))) is None
    assert CellIndex.of(np.array([[np.nan, 0.0]] * 10)) is None
    with pytest.raises(ValueError):
        nearest_both([b + 1], b.copy(), index)
