"""contours: splitting an answer into strokes at pen lifts, and measuring and comparing strokes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.contours import (
    BREAK_STEP,
    bounding_box,
    fit_to_box,
    intersection,
    is_closed,
    split_contours,
)
from shape_asserts.geometry.distances import closure_distance
from shape_asserts.geometry.raster import raster_circle, raster_polyline


def _line(vertices) -> np.ndarray:
    """An open stroke through ``vertices`` (the ideal raster of a polyline)."""
    return raster_polyline(vertices, closed=False)


def _spans(contours) -> list[tuple[int, int, str]]:
    return [(c.start, c.stop, c.opened_by) for c in contours]


# --- splitting ----------------------------------------------------------------------------------


def test_one_closed_circle_is_one_contour():
    ring = raster_circle((25, 25), 10)
    (only,) = split_contours(ring)
    assert (only.start, only.stop, only.opened_by) == (0, len(ring), "first")
    assert only.gaps == () and only.repeats == ()


def test_an_empty_answer_has_no_contours():
    assert split_contours(np.zeros((0, 2))) == ()


def test_contours_cover_the_answer_in_order():
    pts = np.vstack([raster_circle((10, 10), 5), raster_circle((30, 30), 6), _line([(0, 45), (20, 45)])])
    contours = split_contours(pts)
    assert [c.start for c in contours][0] == 0 and contours[-1].stop == len(pts)
    assert all(a.stop == b.start for a, b in zip(contours, contours[1:]))
    assert np.array_equal(np.vstack([c.points for c in contours]), pts)


def test_a_jump_across_the_grid_starts_a_new_contour():
    pts = np.vstack([_line([(0, 0), (10, 0)]), _line([(30, 30), (40, 30)])])
    assert _spans(split_contours(pts)) == [(0, 11, "first"), (11, 22, "jump")]


def test_a_short_skip_inside_an_open_stroke_is_a_gap_not_a_new_contour():
    line = _line([(0, 0), (20, 0)])
    pts = np.delete(line, [8, 9], axis=0)  # a step of 3 cells from (7, 0) to (10, 0)
    (only,) = split_contours(pts)
    assert only.gaps == (7,)


def test_a_step_just_over_the_break_step_splits_and_one_at_it_does_not():
    at = np.array([[0, 0], [1, 0], [1 + BREAK_STEP, 0], [2 + BREAK_STEP, 0]])
    over = np.array([[0, 0], [1, 0], [2 + BREAK_STEP, 0], [3 + BREAK_STEP, 0]])
    assert len(split_contours(at)) == 1
    assert len(split_contours(over)) == 2


def test_the_break_step_is_configurable():
    pts = np.array([[0, 0], [1, 0], [2, 0], [9, 0], [10, 0]])
    assert len(split_contours(pts)) == 2
    (only,) = split_contours(pts, break_step=10)
    assert only.gaps == (2,)


def test_concentric_circles_a_short_step_apart_split_because_the_first_loop_is_finished():
    inner = raster_circle((25, 25), 6, start=(25, 19))
    outer = raster_circle((25, 25), 9, start=(25, 16))
    pts = np.vstack([inner, outer])
    assert 1 < np.max(np.abs(outer[0] - inner[-1])) <= BREAK_STEP
    assert _spans(split_contours(pts)) == [(0, len(inner), "first"), (len(inner), len(pts), "lift")]


def test_a_loop_that_goes_on_with_a_one_cell_step_away_from_its_start_splits_there():
    head = raster_circle((25, 10), 4, start=(25, 14))  # starts at its bottom point
    body = _line([(25, 15), (25, 30)])
    pts = np.vstack([head, head[:1], body])  # closes on its start, then walks down into the torso
    contours = split_contours(pts)
    assert _spans(contours) == [(0, len(head) + 1, "first"), (len(head) + 1, len(pts), "loop")]
    assert contours[0].closure == 0


def test_split_on_close_can_be_turned_off():
    head = raster_circle((25, 10), 4, start=(25, 14))
    pts = np.vstack([head, head[:1], _line([(25, 15), (25, 30)])])
    assert len(split_contours(pts, split_on_close=False)) == 1


def test_a_second_lap_of_a_circle_is_its_own_contour():
    ring = raster_circle((25, 25), 8)
    contours = split_contours(np.vstack([ring, ring]))
    assert len(contours) == 2


def test_a_gap_inside_a_circle_is_kept_inside_the_circle():
    ring = raster_circle((25, 25), 10)
    pts = np.delete(ring, [20, 21, 22], axis=0)
    (only,) = split_contours(pts)
    assert only.gaps == (19,)


def test_repeated_points_are_reported_with_answer_indices():
    pts = np.vstack([_line([(0, 0), (5, 0)]), _line([(20, 20), (25, 20)])])
    pts = np.insert(pts, 8, pts[8], axis=0)
    second = split_contours(pts)[1]
    assert second.repeats == (8,)


# --- closure and meeting ----------------------------------------------------------------------


def test_closure_is_the_chebyshev_step_from_last_to_first():
    assert closure_distance([[0, 0], [5, 0], [5, 5], [1, 1]]) == 1
    assert closure_distance(np.zeros((0, 2))) == math.inf
    assert is_closed(raster_circle((10, 10), 4))
    assert not is_closed(_line([(0, 0), (9, 0)]))


def test_crossing_diagonals_intersect_without_sharing_a_cell():
    a = _line([(0, 0), (5, 5)])
    b = _line([(0, 5), (5, 0)])
    hit = intersection(a, b)
    assert hit and hit.shared == () and len(hit.crossings) == 1


def test_parallel_diagonals_do_not_intersect():
    a = _line([(0, 0), (5, 5)])
    b = _line([(1, 0), (6, 5)])
    assert not intersection(a, b)


def test_shared_cells_are_listed():
    hit = intersection(_line([(0, 3), (6, 3)]), _line([(3, 0), (3, 6)]))
    assert hit.shared == ((3, 3),) and hit.count == 1


def test_separate_circles_do_not_intersect_and_overlapping_ones_do():
    assert not intersection(raster_circle((10, 10), 5), raster_circle((25, 10), 5))
    assert intersection(raster_circle((10, 10), 5), raster_circle((16, 10), 5))


# --- placing drawings -------------------------------------------------------------------------


def test_fit_to_box_centres_the_drawing_on_the_box_and_keeps_its_proportions():
    square = _line([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
    moved = fit_to_box(square, (20, 20, 40, 40))
    assert bounding_box(moved) == pytest.approx((20, 20, 40, 40))
    wide = _line([(0, 0), (20, 0), (20, 10), (0, 10), (0, 0)])
    x0, y0, x1, y1 = bounding_box(fit_to_box(wide, (0, 0, 30, 30)))
    assert (x1 - x0) / (y1 - y0) == pytest.approx(2.0)
    assert (x0 + x1) / 2 == pytest.approx(15) and (y0 + y1) / 2 == pytest.approx(15)
