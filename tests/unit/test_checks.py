"""Geometric checks on point sequences: continuity, closure, bounds, orientation, winding."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.checks import (
    continuity,
    direction,
    out_of_bounds,
    signed_area,
    winding,
)
from shape_asserts.geometry.raster import raster_circle

CENTER = (25, 25)
RING = raster_circle(CENTER, 10, start=(25, 15), direction="cw")


# --- continuity ------------------------------------------------------------------------------------


def test_ideal_ring_has_no_gaps_or_repeats_and_unit_steps():
    c = continuity(RING, closed=True)
    assert c.ok
    assert c.gaps == () and c.repeats == ()
    assert c.max_step == 1.0
    assert c.n_steps == len(RING)


def test_gap_is_reported_at_the_index_before_the_jump():
    pts = np.array([[0, 0], [1, 1], [1, 1], [4, 1], [5, 2]])
    c = continuity(pts)
    assert c.gaps == (2,)
    assert c.max_step == 3.0
    assert not c.ok


def test_repeat_is_reported_at_the_index_of_the_first_copy():
    pts = np.array([[0, 0], [1, 1], [1, 1], [2, 2], [2, 2], [2, 2]])
    assert continuity(pts).repeats == (1, 3, 4)


def test_diagonal_steps_are_continuous_in_8_connectivity():
    assert continuity(np.array([[0, 0], [1, 1], [2, 0], [3, -1]])).ok


def test_closing_step_counts_only_when_closed():
    arc = RING[: len(RING) // 2]
    assert continuity(arc).gaps == ()
    assert continuity(arc, closed=True).gaps == (len(arc) - 1,)


def test_closing_repeat_is_reported_at_the_last_index():
    pts = np.vstack([RING, RING[:1]])
    assert continuity(pts, closed=True).repeats == (len(pts) - 1,)


@pytest.mark.parametrize("pts", [np.zeros((0, 2)), np.array([[3, 4]])])
def test_fewer_than_two_points_have_no_steps(pts):
    c = continuity(pts)
    assert (c.n_steps, c.gaps, c.repeats) == (0, (), ())


# --- bounds ----------------------------------------------------------------------------------------


def test_points_outside_the_grid_are_reported_by_index():
    pts = np.array([[0, 0], [49, 49], [-1, 5], [5, 50], [49.5, 3], [10, 10]])
    assert out_of_bounds(pts, 50) == (2, 3, 4)


def test_ideal_ring_is_inside_the_grid():
    assert out_of_bounds(RING, 50) == ()


# --- orientation -----------------------------------------------------------------------------------


def test_clockwise_on_screen_has_positive_area():
    # (0,0) → (1,0) → (1,1): right, then *down* on screen (y grows downward) = clockwise
    tri = np.array([[0, 0], [1, 0], [1, 1]])
    assert signed_area(tri) == 0.5
    assert direction(tri) == "cw"


def test_counter_clockwise_on_screen_has_negative_area():
    tri = np.array([[0, 0], [1, 1], [1, 0]])
    assert signed_area(tri) == -0.5
    assert direction(tri) == "ccw"


def test_raster_direction_matches_the_direction_it_was_drawn():
    assert direction(raster_circle(CENTER, 10, direction="cw")) == "cw"
    assert direction(raster_circle(CENTER, 10, direction="ccw")) == "ccw"


def test_area_of_a_ring_is_close_to_pi_r_squared():
    assert signed_area(raster_circle(CENTER, 20)) == pytest.approx(np.pi * 20**2, rel=0.03)


@pytest.mark.parametrize("pts", [np.zeros((0, 2)), np.array([[1, 2], [3, 4]])])
def test_fewer_than_three_points_have_zero_area_and_no_direction(pts):
    assert signed_area(pts) == 0.0
    assert direction(pts) is None


def test_collinear_grid_points_have_exactly_zero_area_and_no_direction():
    # regression: centring on the (inexact) mean left ~7e-14 of area and reported "cw"
    line = np.array([[10, -2], [38, 40], [52, 61], [58, 70], [14, 4]])
    assert signed_area(line) == 0.0
    assert direction(line) is None
    assert direction(line[::-1]) is None


def test_area_of_grid_points_does_not_depend_on_where_they_sit():
    far = RING + np.array([10_000, -7_000])
    assert signed_area(far) == signed_area(RING)


# --- winding ---------------------------------------------------------------------------------------


def test_one_clockwise_lap_winds_plus_one_and_covers_every_sector():
    w = winding(RING, CENTER)
    assert w.turns == pytest.approx(1.0, abs=1e-9)
    assert w.coverage == 1.0
    assert w.backtracks == ()


def test_one_counter_clockwise_lap_winds_minus_one():
    assert winding(RING[::-1], CENTER).turns == pytest.approx(-1.0, abs=1e-9)


def test_two_laps_wind_twice():
    assert winding(np.vstack([RING, RING]), CENTER).turns == pytest.approx(2.0, abs=1e-9)


def test_step_against_the_overall_direction_is_a_backtrack():
    pts = np.vstack([RING[:10], RING[8:9], RING[10:]])  # ... 8, 9, back to 8, then on to 10
    w = winding(pts, CENTER)
    assert w.backtracks == (9,)
    assert w.turns == pytest.approx(1.0, abs=1e-9)


def test_half_circle_covers_half_the_sectors_and_winds_half_a_lap_when_open():
    arc = RING[: len(RING) // 2]
    w = winding(arc, CENTER, closed=False)
    assert w.coverage == 0.5
    assert 0.4 < w.turns < 0.5


def test_winding_about_a_center_outside_the_ring_is_zero():
    w = winding(RING, (0, 0))
    assert w.turns == pytest.approx(0.0, abs=1e-9)
    assert w.coverage == 3 / 12  # seen from (0, 0) the ring spans ~23°..67°: sectors 0, 1, 2


def test_four_cardinal_points_cover_a_third_of_the_sectors():
    four = np.array([[45, 25], [25, 45], [5, 25], [25, 5]])
    w = winding(four, CENTER)
    assert w.coverage == pytest.approx(4 / 12)
    assert w.turns == pytest.approx(1.0)


def test_points_on_the_center_add_no_turn_and_no_sector():
    pts = np.vstack([RING[:5], [CENTER], RING[5:]])
    w = winding(pts, CENTER)
    assert w.coverage == 1.0
    assert abs(w.turns) < 1.0  # the two steps through the centre are skipped, not guessed


def test_fewer_than_two_points_do_not_wind():
    w = winding(np.array([[1, 1]]), CENTER)
    assert (w.turns, w.coverage, w.backtracks) == (0.0, 0.0, ())
