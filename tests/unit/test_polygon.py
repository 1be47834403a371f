"""shape_asserts.geometry.fit.polygon: the polygon model's corners (by ``geometry.simplify``), and
the measures polygon scorers compare.

Also the digital lines the polygon families draw their ideals with (``raster.bresenham`` and
``raster.raster_polyline``), since every corner test starts from one.
"""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.polygon.scorer import alternation, score_polygon
from shape_asserts.geometry.checks import continuity, signed_area
from shape_asserts.geometry.corners import farthest
from shape_asserts.geometry.fit import FitFailure, PolygonModel
from shape_asserts.geometry.fit.polygon import interior_angles, regular_polygon, side_lengths, star_polygon
from shape_asserts.geometry.raster import bresenham, raster_polyline

SQUARE = np.array([[10, 10], [40, 10], [40, 40], [10, 40]])
RASTER_SQUARE = raster_polyline(SQUARE)

#: The eight symmetries of the square grid, as integer 2×2 matrices acting on (x, y) columns.
GRID_SYMMETRIES = [
    np.array(m, dtype=np.int64)
    for m in (
        [[1, 0], [0, 1]],
        [[0, -1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[0, 1], [-1, 0]],
        [[-1, 0], [0, 1]],
        [[1, 0], [0, -1]],
        [[0, 1], [1, 0]],
        [[0, -1], [-1, 0]],
    )
]


# --- digital lines ---------------------------------------------------------------------------------


@pytest.mark.parametrize("end", [(7, 3), (-5, 9), (0, -6), (4, 4), (-8, -1), (0, 0)])
def test_bresenham_line_is_8_connected_from_end_to_end_without_repeats(end):
    line = bresenham((0, 0), end)
    assert line[0].tolist() == [0, 0] and line[-1].tolist() == list(end)
    assert len(line) == max(abs(end[0]), abs(end[1])) + 1
    assert continuity(line).ok


def test_closed_polyline_visits_each_vertex_once_and_ends_next_to_its_start():
    pts = raster_polyline(SQUARE)
    assert continuity(pts, closed=True).ok
    assert len(np.unique(pts, axis=0)) == len(pts) == 120
    for v in SQUARE.tolist():
        assert pts.tolist().count(v) == 1
    assert pts[0].tolist() == [10, 10] and pts[-1].tolist() == [10, 11]


def test_open_polyline_ends_on_its_last_vertex():
    pts = raster_polyline([(0, 0), (5, 0), (5, 5)], closed=False)
    assert pts[-1].tolist() == [5, 5] and len(pts) == 11


def test_polyline_needs_two_vertices():
    with pytest.raises(ValueError, match="K ≥ 2"):
        raster_polyline([(1, 1)])


# --- corners --------------------------------------------------------------------------------


@pytest.mark.parametrize("shift", [0, 7, 15, 30, 61, 100])
def test_square_has_four_corners_wherever_the_drawing_starts(shift):
    pts = np.roll(RASTER_SQUARE, -shift, axis=0)
    model = PolygonModel.from_estimate(pts, 2.0)
    assert model.n == 4
    assert sorted(map(tuple, model.vertices.tolist())) == sorted(map(tuple, SQUARE.astype(float).tolist()))


def test_square_drawn_counter_clockwise_has_the_same_corners():
    model = PolygonModel.from_estimate(RASTER_SQUARE[::-1], 2.0)
    assert model.n == 4 and signed_area(model.vertices) < 0
    assert model.angles().tolist() == [90.0, 90.0, 90.0, 90.0]


def test_a_corner_cut_by_the_raster_counts_once():
    """A digital line meets a pentagon's top vertex in a short flat run; two RDP corners there are one.

    Either rule finds it: a side shorter than ``min_side`` is merged, and two neighbouring corners
    that one corner between them explains within epsilon are made one (also with ``min_side`` 0).
    """
    verts = np.array([[37, 41], [44, 19], [25, 5], [6, 19], [13, 41]])  # the pentagon of radius 20, ccw
    pts = raster_polyline(verts)
    assert PolygonModel.from_estimate(pts, 2.0, min_side=0.0).n == 5
    merged = PolygonModel.from_estimate(pts, 2.0)
    assert merged.n == 5 and [25.0, 5.0] in merged.vertices.tolist()


def test_a_bump_on_a_side_is_an_extra_corner():
    bumped = raster_polyline([(10, 10), (25, 4), (40, 10), (40, 40), (10, 40)])
    assert PolygonModel.from_estimate(bumped, 2.0).n == 5


def test_a_one_cell_wobble_is_not_a_corner():
    pts = RASTER_SQUARE.copy()
    pts[15] += (0, 1)  # one point on the top side pushed a cell inward
    assert PolygonModel.from_estimate(pts, 2.0).n == 4


def test_repeated_points_and_a_closing_point_never_become_corners():
    pts = np.vstack([RASTER_SQUARE[:5], RASTER_SQUARE[4:], RASTER_SQUARE[:1]])
    model = PolygonModel.from_estimate(pts, 2.0)
    assert model.n == 4 and len(set(model.indices)) == 4


def test_points_along_a_line_are_no_polygon():
    result = PolygonModel.from_estimate(bresenham((0, 0), (30, 10)), 1.5)
    assert isinstance(result, FitFailure) and not result and "line" in result.reason


@pytest.mark.parametrize("m", range(8))
def test_corners_of_an_integer_drawing_are_the_same_under_every_grid_symmetry(m):
    """Exact arithmetic on integers: rotating or mirroring the drawing picks the same point indices."""
    pts = raster_polyline(np.rint(star_polygon((25, 25), 20, 9, 5, 270)))
    base = PolygonModel.from_estimate(pts, 2.0)
    moved = PolygonModel.from_estimate(pts @ GRID_SYMMETRIES[m].T + 7, 2.0)
    assert moved.indices == base.indices


# --- measures --------------------------------------------------------------------------------------


def test_interior_angles_of_a_star_are_sharp_at_tips_and_reflex_inside():
    ang = interior_angles(star_polygon((25, 25), 20, 8, 5))
    assert np.allclose(ang[::2], ang[0]) and ang[0] < 60
    assert np.all(ang[1::2] > 180)
    assert np.isclose(ang.sum(), 180 * (10 - 2))


def test_interior_angles_do_not_depend_on_the_drawing_direction():
    v = regular_polygon((25, 25), 15, 7, 10)
    assert np.allclose(interior_angles(v), interior_angles(v[::-1])[::-1])


def test_regular_polygon_runs_clockwise_on_screen_from_its_rotation():
    v = regular_polygon((25, 25), 10, 6, 270)
    assert np.allclose(v[0], (25, 15)) and signed_area(v) > 0
    assert np.allclose(np.hypot(*(v - 25).T), 10)
    assert np.allclose(side_lengths(v), 10)


def test_star_polygon_alternates_tip_and_inner_radius():
    v = star_polygon((25, 25), 20, 8, 6, 0)
    r = np.hypot(*(v - 25).T)
    assert np.allclose(r[::2], 20) and np.allclose(r[1::2], 8) and len(v) == 12
    assert np.allclose(v[0], (45, 25))


def test_polygon_model_samples_its_outline_from_vertex_0():
    m = PolygonModel(vertices=SQUARE.astype(float))
    xy = m.predict_xy(np.array([0.0, 0.125, 0.25, 0.5, 1.0]))
    assert xy.tolist() == [[10, 10], [25, 10], [40, 10], [40, 40], [10, 10]]
    assert np.allclose(m.residuals(xy), 0)


def test_the_farthest_of_a_run_wraps_round_the_ring_and_takes_the_first_on_a_tie():
    # a closed drawing of six points; the run from point 4 on wraps round to points 0 and 1
    pts = np.array([[0.0, 0.0], [4.0, 2.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0], [-2.0, 4.0]])
    # against the segment from point 3 to point 2: points 4, 5, 0 and 1 (3 is 0 from it)
    assert farthest(pts, 3, 2, 4, 4) == (10.0, 5)
    # against the segment from point 0 to point 2 (along the x axis): points 3 and 4 both lie 8
    # off it, and the first of them is taken
    assert farthest(pts, 0, 2, 1, 4) == (8.0, 3)


def test_a_stars_corners_alternate_tip_and_inner_and_a_squares_do_not():
    star = star_polygon((25, 25), 20, 8, 5)
    alternates, ratio, why = alternation(star)
    assert alternates and ratio == pytest.approx(0.4) and why == ""
    square = np.array([[10, 10], [40, 10], [40, 40], [10, 40]], dtype=float)
    assert alternation(square)[0] is False


def test_a_failing_placement_and_straightness_still_say_where():
    # a square with its corner (30, 10) drawn at (34, 14): placement fails, and says where
    target = np.array([[10.0, 10.0], [30.0, 10.0], [30.0, 30.0], [10.0, 30.0]])
    pts = np.asarray(raster_polyline([(10, 10), (34, 14), (30, 30), (10, 30), (10, 10)]), dtype=float)[:-1]
    result = score_polygon(pts, vertices=target, start=(10, 10), direction="cw")
    checks = {c.name: c for c in result.checks}
    assert checks["vertices"].passed and checks["vertices"].detail == ""
    assert not checks["placement"].passed
    assert checks["placement"].detail.startswith("no corner on the asked vertex (30,10) (cell (30,10)); the nearest")
    assert checks["placement"].detail.endswith(f"{checks['placement'].value:g} cell(s) off")
    # a square drawn with a bulging side: straightness fails, and names the point
    pts = np.asarray(raster_polyline([(10, 10), (20, 11), (30, 10), (30, 30), (10, 30), (10, 10)]), dtype=float)[:-1]
    checks = {c.name: c for c in score_polygon(pts, vertices=target, start=(10, 10), direction="cw").checks}
    assert checks["vertices"].passed and checks["placement"].passed and checks["placement"].detail == ""
    assert not checks["straightness"].passed and checks["straightness"].indices == (5,)
    assert checks["straightness"].detail == (
        "point #5 (15,11) is 1.00 cells off the straight side between the asked vertices, and off the asked side"
    )
