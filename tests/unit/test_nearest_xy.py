"""The searches of ``geometry/nearest.py`` and a prepared outline (``geometry/nearest_xy.py``) give
the answers of comparing every pair bit for bit, and a prepared outline the measures of the polyline."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.distances import distance_to_polyline, nearest_distance, sample_polyline
from shape_asserts.geometry.nearest import brute_nearest, nearest_sq
from shape_asserts.geometry.nearest_xy import Outline


def _curves() -> list[tuple[np.ndarray, bool]]:
    t = np.linspace(0, 2 * np.pi, 804, endpoint=False)
    ellipse = np.column_stack([50 + 40 * np.cos(t), 50 + 24 * np.sin(t)])
    s = np.linspace(0, 8 * np.pi, 1200)
    spiral = np.column_stack([50 + 5 * s / (2 * np.pi) * np.cos(s), 50 + 5 * s / (2 * np.pi) * np.sin(s)])
    square = np.array([[10.0, 10.0], [90.0, 10.0], [90.0, 90.0], [10.0, 90.0]])
    return [(ellipse, True), (spiral, False), (square, True)]


def _drawings(seed: int, curve: np.ndarray) -> list[np.ndarray]:
    """Answers of the kinds scoring meets: the curve's cells, jittered, scattered cells, a few
    cells written many times, points far off, a long answer, one point, none."""
    rng = np.random.default_rng(seed)
    cells = np.rint(curve[:: max(1, len(curve) // 200)])
    return [
        cells,
        cells + rng.normal(0, 2.0, cells.shape),
        rng.integers(0, 100, (150, 2)).astype(float),
        np.array([(0.0, 0.0) if i % 2 else (99.0, 99.0) for i in range(300)]),
        cells[:100] + 500.0,
        np.rint(curve),
        cells[:1],
        np.zeros((0, 2)),
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_strip_search_equals_comparing_every_pair(seed):
    for curve, closed in _curves():
        ref = sample_polyline(curve, closed=closed)
        for pts in _drawings(seed, curve):
            if len(pts):
                assert np.array_equal(nearest_sq(ref, pts), brute_nearest(ref, pts, "euclidean"))
                assert np.array_equal(nearest_sq(pts, ref), brute_nearest(pts, ref, "euclidean"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_outline_equals_the_polyline_measures(seed):
    for curve, closed in _curves():
        outline = Outline(curve, closed=closed, center=(50, 50))
        ref = sample_polyline(curve, closed=closed)
        assert np.array_equal(outline.ref, ref)
        assert outline.scale == float(np.mean(np.hypot(ref[:, 0] - 50, ref[:, 1] - 50)))
        for pts in _drawings(seed, curve):
            assert np.array_equal(outline.distance(pts), distance_to_polyline(pts, curve, closed=closed))
            if len(pts):
                assert np.array_equal(np.sqrt(nearest_sq(ref, pts)), nearest_distance(ref, pts))


def test_non_finite_points_measure_as_before():
    curve, closed = _curves()[0]
    outline = Outline(curve, closed=closed, center=(50, 50))
    pts = np.array([[1e308, 5.0], [np.inf, 1.0], [np.nan, 3.0], [50.0, 26.0]] * 40)
    with np.errstate(all="ignore"):  # both sides overflow alike
        assert np.array_equal(outline.distance(pts), distance_to_polyline(pts, curve), equal_nan=True)
        near = nearest_sq(outline.ref, pts)
        assert np.array_equal(near, brute_nearest(outline.ref, pts, "euclidean"), equal_nan=True)


def test_a_prepared_outline_is_read_only():
    outline = Outline(_curves()[0][0], closed=True, center=(50, 50))
    with pytest.raises(ValueError):
        outline.ref[0, 0] = 1.0
