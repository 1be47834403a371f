"""shape_asserts.geometry.simplify: one Ramer–Douglas–Peucker for polygon corners and scene edges."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.corners import simplify_closed
from shape_asserts.geometry.raster import bresenham, raster_polyline
from shape_asserts.geometry.simplify import (
    corner_depths,
    rdp,
    segment_angles,
    segments,
    simplify,
)


def _line(vertices) -> np.ndarray:
    """An open stroke through ``vertices`` (the ideal raster of a polyline)."""
    return raster_polyline(vertices, closed=False)


def test_a_straight_stroke_simplifies_to_its_two_ends():
    line = _line([(0, 0), (20, 10)])
    assert simplify(line) == [0, len(line) - 1]


def test_an_l_shaped_stroke_keeps_its_corner():
    pts = _line([(0, 0), (10, 0), (10, 8)])
    idx = simplify(pts)
    assert [tuple(pts[i]) for i in idx] == [(0, 0), (10, 0), (10, 8)]


def test_a_closed_square_simplifies_to_its_four_sides():
    square = _line([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])[:-1]
    segs = segments(square, min_length=3)
    ang, length = segment_angles(segs)
    assert sorted(np.round(ang).tolist()) == [0, 0, 90, 90]
    assert length.sum() == pytest.approx(40, abs=1.5)


def test_segment_angles_are_measured_on_screen():
    segs = np.array([[[0, 0], [0, 10]], [[0, 0], [10, 5]], [[0, 5], [10, 0]], [[0, 0], [10, 0]]])
    ang, length = segment_angles(segs)
    assert ang == pytest.approx([90.0, 26.565, 153.435, 0.0], abs=1e-3)
    assert length == pytest.approx([10, math.hypot(10, 5), math.hypot(10, 5), 10])


def test_rdp_keeps_the_corner_of_an_l_and_drops_points_along_its_arms():
    l_shape = np.array([[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3]])
    assert rdp(l_shape, 0.5).tolist() == [0, 3, 6]


def test_rdp_reduces_a_digital_line_to_its_ends():
    assert rdp(bresenham((0, 0), (37, 11)), 1.0).tolist() == [0, 37]


def test_rdp_of_two_points_keeps_both():
    assert rdp(np.array([[0, 0], [5, 5]]), 1.0).tolist() == [0, 1]


def test_simplify_closed_of_a_tiny_contour_keeps_every_point():
    assert simplify_closed(np.array([[0, 0], [1, 0], [1, 1]]), 1.0).tolist() == [0, 1, 2]


def test_a_point_beyond_the_chord_counts_for_the_segment_but_not_for_the_line():
    """The polygon corners measure to the segment, the scene edges to the line (each as calibrated):
    a stroke that runs past its end and back keeps that far point only in the first."""
    back = np.array([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [3, 0]])
    assert rdp(back, 1.0).tolist() == [0, 5, 6]
    assert rdp(back, 1.0, to="line").tolist() == [0, 6]


def test_a_stroke_retraced_back_to_its_start_is_measured_from_that_start():
    there_and_back = np.array([[0, 0], [1, 1], [2, 2], [3, 3], [2, 2], [1, 1], [0, 0]])
    assert rdp(there_and_back, 1.0, to="line").tolist() == [0, 3, 6]


def test_corner_depth_of_a_flat_vertex_is_zero():
    assert corner_depths([[0, 0], [5, 0], [10, 0], [5, 5]]).round(6).tolist()[1] == 0.0
