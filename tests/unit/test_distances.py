"""shape_asserts.geometry.distances: every distance the checks, fits and families measure, once."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_asserts.geometry.distances import (
    Outline,
    cell_distance,
    chamfer_distance,
    chebyshev,
    closure_distance,
    distance_to_polyline,
    min_distance,
    nearest_distance,
    nearest_on_segment,
    nearest_sq,
    sample_polyline,
    segment_distance,
    similarity,
)
from shape_asserts.geometry.raster import raster_circle, raster_polyline

RING = raster_circle((25, 25), 10, start=(25, 15), direction="cw")
SQUARE = np.array([[10, 10], [40, 10], [40, 40], [10, 40]])
RASTER_SQUARE = raster_polyline(SQUARE)


def _line(vertices) -> np.ndarray:
    """An open stroke through ``vertices`` (the ideal raster of a polyline)."""
    return raster_polyline(vertices, closed=False)


def test_chebyshev_distance_is_the_larger_axis_step():
    assert chebyshev(np.array([0, 0]), np.array([3, -1])) == 3
    assert chebyshev(np.array([[0, 0], [1, 1]]), np.array([[1, 1], [1, 1]])).tolist() == [1, 0]


def test_ideal_ring_is_closed_by_one_step():
    assert closure_distance(RING) == 1.0


def test_open_arc_closure_is_the_chebyshev_distance_back_to_the_start():
    assert closure_distance(np.array([[25, 15], [30, 16], [35, 25]])) == 10.0


def test_closure_of_no_points_is_infinite():
    assert closure_distance(np.zeros((0, 2))) == float("inf")


def test_min_distance_is_zero_for_a_shared_cell_and_one_for_touching_cells():
    a = _line([(0, 0), (10, 0)])
    assert min_distance(a, [[5, 0], [5, 5]]) == 0
    assert min_distance(a, [[5, 1]]) == 1
    assert min_distance(a, [[5, 4]]) == 4
    assert min_distance(a, np.zeros((0, 2))) == math.inf


def test_chamfer_distance_is_zero_for_the_same_cells_and_symmetric():
    a = raster_circle((25, 25), 10)
    b = _line([(5, 5), (30, 12)])
    assert chamfer_distance(a, a[::-1]) == 0
    assert chamfer_distance(a, b) == pytest.approx(chamfer_distance(b, a))


def test_chamfer_distance_of_a_one_cell_shift_of_a_line_is_one():
    a = _line([(0, 0), (0, 20)])
    assert chamfer_distance(a, a + [1, 0]) == pytest.approx(1.0)


def test_chamfer_distance_of_an_empty_drawing_is_infinite_and_its_similarity_zero():
    assert chamfer_distance(np.zeros((0, 2)), [[1, 1]]) == math.inf
    assert similarity(np.zeros((0, 2)), [[1, 1]], 5.0) == 0.0


def test_similarity_falls_linearly_to_zero_at_the_scale():
    a = _line([(0, 0), (0, 20)])
    assert similarity(a, a, 4.0) == 100.0
    assert similarity(a, a + [1, 0], 4.0) == pytest.approx(75.0)
    assert similarity(a, a + [9, 0], 4.0) == 0.0
    with pytest.raises(ValueError):
        similarity(a, a, 0.0)


def test_distance_to_polyline_is_zero_on_the_outline_and_half_the_side_at_the_center():
    d = distance_to_polyline(np.vstack([RASTER_SQUARE, [[25, 25]]]), SQUARE)
    assert np.all(d[:-1] == 0) and d[-1] == 15
    assert distance_to_polyline(np.zeros((0, 2)), SQUARE).shape == (0,)


def test_open_polyline_distance_ignores_the_closing_side():
    p = np.array([[10, 25]])
    assert distance_to_polyline(p, SQUARE, closed=True)[0] == 0  # on the closing side (10,40)-(10,10)
    assert distance_to_polyline(p, SQUARE, closed=False)[0] == 15  # open: that side is not drawn


def test_sample_polyline_steps_at_most_one_cell_and_keeps_the_vertices():
    s = sample_polyline(SQUARE, step=1.0)
    assert len(s) == 120 and all(v in s.tolist() for v in SQUARE.astype(float).tolist())
    steps = np.hypot(*np.diff(np.vstack([s, s[:1]]), axis=0).T)
    assert steps.max() <= 1.0 + 1e-12
    open_s = sample_polyline(SQUARE, closed=False, step=2.5)
    assert open_s[-1].tolist() == [10.0, 40.0]


def test_a_point_beyond_a_segment_end_is_measured_to_that_end():
    d, t = nearest_on_segment([[5, 0], [-3, 4], [1, 2]], [0, 0], [2, 0])
    assert d.tolist() == [3.0, 5.0, 2.0] and t.tolist() == [1.0, 0.0, 0.5]
    assert segment_distance([[5, 0]], [0, 0], [2, 0]).tolist() == [3.0]


def test_a_segment_of_no_length_is_its_one_point():
    d, t = nearest_on_segment([[3, 4]], [0, 0], [0, 0])
    assert d.tolist() == [5.0] and t.tolist() == [0.0]


def test_closure_distance_is_chebyshev_from_last_to_first_nan_included():
    assert math.isnan(closure_distance([[np.nan, 0], [3, 4], [1, 2]]))
    assert closure_distance([[0, 0], [3, -4]]) == 4.0


def test_nearest_distance_is_euclidean_or_chebyshev_and_infinite_to_nothing():
    a, b = [[0, 0], [4, 3]], [[0, 1], [1, 3]]
    assert nearest_distance(a, b).tolist() == [1.0, 3.0]
    assert nearest_distance([[0, 0]], [[2, 1]], metric="chebyshev").tolist() == [2.0]
    assert nearest_distance(a, np.zeros((0, 2))).tolist() == [math.inf, math.inf]


def test_nearest_distance_in_blocks_equals_the_whole_pairwise_minimum():
    """Long drawings are compared in blocks of rows (bounded memory); the answer must not change."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 50, (3000, 2)), rng.integers(0, 50, (700, 2))
    whole = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2).min(axis=1))
    assert np.array_equal(nearest_distance(a, b), whole)


def _two_sets(seed: int, n_a: int, n_b: int, scale: float, walk: bool) -> tuple[np.ndarray, np.ndarray]:
    """Two sets of points: paths that wander (consecutive rows a fraction of a cell to a few cells
    apart), or points scattered at random (the second set on whole cells)."""
    rng = np.random.default_rng(seed)
    if walk:
        a = np.cumsum(rng.normal(0, scale / 100, (n_a, 2)), axis=0)
        b = np.cumsum(rng.normal(0, scale / 100, (n_b, 2)), axis=0) + rng.normal(0, scale / 10, 2)
        return a, b
    return rng.random((n_a, 2)) * scale, np.rint(rng.random((n_b, 2)) * scale)


SETS = {
    "seed": st.integers(0, 2**32 - 1),
    "n_a": st.integers(1, 400),
    "n_b": st.integers(1, 400),
    "scale": st.sampled_from([3.0, 50.0, 1000.0]),
    "walk": st.booleans(),
}


@settings(max_examples=200, deadline=None)
@given(**SETS)
def test_the_search_near_each_run_finds_the_least_of_every_pair(seed, n_a, n_b, scale, walk):
    """Runs of rows are held first to the rows near them; the least found must be the least of all
    pairs, bit for bit, for paths (runs close together) and scattered points alike, both metrics."""
    a, b = _two_sets(seed, n_a, n_b, scale, walk)
    dx, dy = a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1]
    assert np.array_equal(nearest_sq(a, b), (dx * dx + dy * dy).min(axis=1))
    chebyshev_all = np.maximum(np.abs(dx), np.abs(dy)).min(axis=1)
    assert np.array_equal(nearest_distance(a, b, metric="chebyshev"), chebyshev_all)


@settings(max_examples=150, deadline=None)
@given(**SETS, closed=st.booleans())
def test_the_search_near_each_run_finds_the_least_distance_to_every_side(seed, n_a, n_b, scale, walk, closed):
    """Runs of points are held first to the sides near them; the least found must be the least
    over every side, bit for bit, for paths and scattered points alike."""
    pts, verts = _two_sets(seed, n_a, n_b, scale, walk)
    ends = np.vstack([verts, verts[:1]]) if closed else verts
    if len(ends) < 2:
        ends = np.vstack([verts[:1], verts[:1]])
    whole = np.min([segment_distance(pts, a, b) for a, b in zip(ends[:-1], ends[1:])], axis=0)
    assert np.array_equal(distance_to_polyline(pts, verts, closed=closed), whole)


@pytest.mark.parametrize("where", ["scattered over the grid", "clustered far from the curve", "along the curve"])
def test_points_are_held_to_a_small_share_of_a_long_curves_sides(monkeypatch, where):
    """An answer to a spiral of 6,000 sides on a grid of 1,000 is measured against the sides near
    each group of points, not every side: held to all, one answer took tens of seconds to score.
    The pairs measured are counted (not timed), and the distances are still each point's least."""
    from shape_asserts.geometry import distances

    t = np.linspace(0, 12 * np.pi, 6000)
    spiral = np.column_stack([500 + 60 * t / (2 * np.pi) * np.cos(t), 500 + 60 * t / (2 * np.pi) * np.sin(t)])
    rng = np.random.default_rng(0)
    pts = {
        "scattered over the grid": rng.integers(0, 1000, (10_000, 2)),
        "clustered far from the curve": rng.integers(0, 100, (10_000, 2)),
        "along the curve": spiral + rng.normal(0, 0.5, spiral.shape),
    }[where].astype(float)
    pairs = []
    to_sides = distances._to_sides

    def counting(rows, a, b):
        pairs.append(len(rows) * len(a))
        return to_sides(rows, a, b)

    monkeypatch.setattr(distances, "_to_sides", counting)
    got = distance_to_polyline(pts, spiral, closed=False)
    assert sum(pairs) < 0.15 * len(pts) * (len(spiral) - 1)
    some = rng.choice(len(pts), 300, replace=False)  # a sample held to every side, as a check
    whole = np.min([segment_distance(pts[some], a, b) for a, b in zip(spiral[:-1], spiral[1:])], axis=0)
    assert np.array_equal(got[some], whole)


def test_polyline_distance_in_blocks_equals_every_side_at_once():
    """Many points are measured a block at a time; the answer is each point's least distance to a side."""
    rng = np.random.default_rng(3)
    pts = rng.random((20_000, 2)) * 60 - 5
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    curve = np.column_stack([25 + 20 * np.cos(t), 25 + 12 * np.sin(t)])
    ends = np.vstack([curve, curve[:1]])
    whole = np.min([segment_distance(pts, a, b) for a, b in zip(ends[:-1], ends[1:])], axis=0)
    assert np.array_equal(distance_to_polyline(pts, curve), whole)


def test_a_polyline_of_one_vertex_is_that_point():
    assert distance_to_polyline([[3, 4], [0, 1]], [[0, 0]]).tolist() == [5.0, 1.0]
    assert distance_to_polyline([[3, 4]], [[0, 0]], closed=False).tolist() == [5.0]


def test_nearest_sq_is_the_square_of_the_nearest_distance():
    assert nearest_sq([[0, 0], [4, 3]], [[0, 1], [1, 3]]).tolist() == [1.0, 9.0]
    assert nearest_sq([[0, 0]], np.zeros((0, 2))).tolist() == [math.inf]


def test_cell_distance_is_the_least_chebyshev_gap_and_infinite_to_nothing():
    assert cell_distance([[0, 0], [5, 5]], [[2, 1], [9, 9]]) == 2.0
    assert cell_distance([[0, 0]], np.zeros((0, 2))) == math.inf
    assert min_distance([[0.4, 0.0]], [[1.6, 0.0]]) == 2.0  # cells 0 and 2


def test_an_outline_is_sampled_every_cell_and_measures_both_ways():
    outline = Outline(SQUARE, closed=True, center=(25, 25))
    assert np.array_equal(outline.ref, sample_polyline(SQUARE, closed=True))
    assert outline.scale == float(np.mean(np.hypot(outline.ref[:, 0] - 25, outline.ref[:, 1] - 25)))
    assert outline.distance([[25, 25], [10, 20]]).tolist() == [15.0, 0.0]
    # a drawing of one corner: the far corner's sample misses it by the diagonal
    missed = outline.nearest_sq([[10, 10]])
    assert missed.min() == 0.0 and missed.max() == 30.0**2 + 30.0**2


def test_a_prepared_outline_is_read_only():
    outline = Outline(SQUARE, closed=True, center=(25, 25))
    with pytest.raises(ValueError):
        outline.ref[0, 0] = 1.0
