"""A prepared outline's cell index (``geometry/nearest_xy.py``) gives the same floats as comparing
every pair: each point's distance to the outline, each outline sample's to the nearest point."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.nearest import brute_nearest, brute_to_segments
from shape_asserts.geometry.nearest_xy import Outline


def _curves(rng: np.random.Generator) -> list[tuple[np.ndarray, bool]]:
    t = np.linspace(0, 2 * np.pi, 804, endpoint=False)
    ellipse = np.column_stack([50 + 40 * np.cos(t + 0.3), 50 + 24 * np.sin(t)])
    s = np.linspace(0, 8 * np.pi, 1200)
    spiral = np.column_stack([30.5 + 5 * s / (2 * np.pi) * np.cos(s), 20.25 + 5 * s / (2 * np.pi) * np.sin(s)])
    square = np.array([[10.0, 10.0], [90.0, 10.0], [90.0, 90.0], [10.0, 90.0]])
    star = np.array([[25 + r * np.cos(a), 25 + r * np.sin(a)] for a, r in zip(np.linspace(0, 6.28, 10), [20, 8] * 5)])
    wobbly = rng.uniform(-5, 5, (300, 2)).cumsum(axis=0) * 0.3 - 7.1
    return [(ellipse, True), (spiral, False), (square, True), (star, True), (wobbly, False)]


def _drawings(rng: np.random.Generator, curve: np.ndarray) -> list[np.ndarray]:
    cells = np.rint(curve[:: max(1, len(curve) // 200)])
    lo, hi = curve.min(axis=0) - 4, curve.max(axis=0) + 4
    return [
        cells,
        cells + rng.normal(0, 0.7, cells.shape),
        cells + rng.normal(0, 3.0, cells.shape),
        rng.uniform(lo, hi, (180, 2)),
        np.floor(rng.uniform(lo, hi, (180, 2))),
        np.floor(curve[:150]) + 0.999999999,
        np.concatenate([cells[:90], cells[:90] + 500.0, cells[:20] - 1e5]),
        np.rint(curve)[:511],
    ]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_cell_index_gives_every_pair_s_minimum(seed):
    rng = np.random.default_rng(seed)
    for curve, closed in _curves(rng):
        outline = Outline(curve, closed=closed, center=(50, 50))
        ends = np.vstack([curve, curve[:1]]) if closed else curve
        # three searches a drawing: the first drawing's first two go without the index (built at the
        # third search), every later one with it
        for pts in _drawings(rng, curve) * 2:
            assert np.array_equal(outline.distance(pts), brute_to_segments(pts, ends[:-1], ends[1:]))
            assert np.array_equal(outline.distance(pts), distance_to_polyline(pts, curve, closed=closed))
            assert np.array_equal(outline.nearest_sq(pts), brute_nearest(outline.ref, pts, "euclidean"))
        assert outline._index() is not None


def test_an_outline_too_large_to_index_is_searched_as_before():
    t = np.linspace(0, 2 * np.pi, 900, endpoint=False)
    curve = np.column_stack([1000 + 990 * np.cos(t), 1000 + 990 * np.sin(t)])
    outline = Outline(curve, closed=True, center=(1000, 1000))
    pts = np.rint(curve[::3]) + 0.5
    for _ in range(3):
        assert np.array_equal(outline.distance(pts), distance_to_polyline(pts, curve, closed=True))
        assert np.array_equal(outline.nearest_sq(pts), brute_nearest(outline.ref, pts, "euclidean"))
    assert outline._index() is None
