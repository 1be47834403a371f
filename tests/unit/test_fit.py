"""CircleModel (Taubin fit, residuals, predict_xy) and the seed-style roundness about a center."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.fit import CircleModel, FitFailure, roundness
from shape_asserts.geometry.raster import raster_circle


@pytest.mark.parametrize(
    ("center", "radius"),
    [((25.0, 25.0), 10.0), ((3.5, -7.25), 0.75), ((1e4, -2e4), 300.0), ((25.0, 25.0), 24.0)],
)
def test_circle_model_recovers_a_sampled_circle_exactly(center, radius):
    truth = CircleModel(center, radius)
    pts = truth.predict_xy(np.linspace(0, 2 * np.pi, 40, endpoint=False))
    m = CircleModel.from_estimate(pts)
    assert m
    assert m.center == pytest.approx(center, rel=1e-9, abs=1e-9)
    assert m.radius == pytest.approx(radius, rel=1e-9)
    assert m.rms(pts) == pytest.approx(0.0, abs=1e-9 * radius)


def test_circle_model_recovers_a_circle_from_a_short_arc():
    truth = CircleModel((25.0, 25.0), 20.0)
    pts = truth.predict_xy(np.linspace(0.3, 0.9, 12))  # ~34° of arc
    m = CircleModel.from_estimate(pts)
    assert m.center == pytest.approx((25.0, 25.0), abs=1e-6)
    assert m.radius == pytest.approx(20.0, abs=1e-6)


def test_circle_model_fits_noisy_points_near_the_truth():
    rng = np.random.default_rng(20240601)  # fixed seed: the noise is part of the test
    pts = CircleModel((25.0, 25.0), 15.0).predict_xy(rng.uniform(0, 2 * np.pi, 200))
    pts += rng.normal(0.0, 0.3, pts.shape)
    m = CircleModel.from_estimate(pts)
    assert m.center == pytest.approx((25.0, 25.0), abs=0.1)
    assert m.radius == pytest.approx(15.0, abs=0.1)


def test_circle_model_centers_an_ideal_raster_on_its_grid_center():
    m = CircleModel.from_estimate(raster_circle((25, 25), 12))
    assert m.center == pytest.approx((25.0, 25.0), abs=1e-9)
    assert 11.5 < m.radius < 12.5


def test_three_points_define_their_circumcircle():
    m = CircleModel.from_estimate(np.array([[0, 0], [2, 0], [0, 2]]))
    assert m.center == pytest.approx((1.0, 1.0))
    assert m.radius == pytest.approx(np.sqrt(2))


def test_predict_xy_grows_clockwise_on_screen():
    m = CircleModel((25.0, 25.0), 10.0)
    start, quarter = m.predict_xy(np.array([0.0, np.pi / 2]))
    assert start == pytest.approx([35.0, 25.0])
    assert quarter == pytest.approx([25.0, 35.0])  # a quarter turn on: *below* the center, y down


def test_residuals_are_signed_distances_from_the_circle():
    m = CircleModel((0.0, 0.0), 5.0)
    res = m.residuals(np.array([[5, 0], [0, 7], [3, 0]]))
    assert res.shape == (3,)
    assert res.tolist() == pytest.approx([0.0, 2.0, -2.0])


def test_rms_of_no_points_is_zero():
    assert CircleModel((0.0, 0.0), 1.0).rms(np.zeros((0, 2))) == 0.0


@pytest.mark.parametrize(
    "pts",
    [
        [[0, 0], [1, 1], [2, 2]],
        [[0, 0], [1, 0], [5, 0], [9, 0]],
        [[3, 7], [5, 12], [7, 17], [9, 22], [11, 27]],
        [[25, 1], [25, 10], [25, 49], [25, 1], [25, 10]],
    ],
)
def test_collinear_points_give_a_falsy_fit_failure(pts):
    m = CircleModel.from_estimate(np.array(pts, dtype=float))
    assert isinstance(m, FitFailure)
    assert not m
    assert m.reason == "points are collinear"


@pytest.mark.parametrize("pts", [np.zeros((0, 2)), [[1, 2]], [[1, 2], [3, 4]], [[0, 0], [0, 0], [1, 1], [1, 1]]])
def test_fewer_than_three_distinct_points_give_a_falsy_fit_failure(pts):
    m = CircleModel.from_estimate(np.asarray(pts, dtype=float).reshape(-1, 2))
    assert not m
    assert m.reason == "fewer than 3 distinct points"


@pytest.mark.parametrize("bad", [np.zeros((5, 3)), np.zeros(6), np.zeros((2, 3, 2))])
def test_wrong_array_shape_raises_value_error(bad):
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        CircleModel.from_estimate(bad)
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        CircleModel((0.0, 0.0), 1.0).residuals(bad)


def test_a_fitted_model_is_truthy():
    assert CircleModel((0.0, 0.0), 1.0)


# --- roundness -------------------------------------------------------------------------------------


def test_roundness_of_a_sampled_circle_about_its_center_is_100():
    pts = CircleModel((25.0, 25.0), 10.0).predict_xy(np.linspace(0, 2 * np.pi, 64, endpoint=False))
    assert roundness(pts, (25.0, 25.0)) == pytest.approx(100.0, abs=1e-9)


def test_roundness_is_the_seed_formula_about_the_given_center():
    # radii 1, 1, 2, 4: mean 2, mean |r - 2| = (1 + 1 + 0 + 2) / 4 = 1 → (1 - 1/2) * 100
    pts = np.array([[1, 0], [0, 1], [-2, 0], [0, -4]])
    assert roundness(pts, (0.0, 0.0)) == pytest.approx(50.0)


def test_roundness_drops_about_the_wrong_center():
    ring = raster_circle((25, 25), 15)
    assert roundness(ring, (25, 25)) > 98.0
    assert roundness(ring, (30, 25)) < 85.0


def test_roundness_is_clipped_at_zero():
    pts = np.array([[0.01, 0], [0, 0.01], [100, 0], [0, 0.01]])
    assert roundness(pts, (0.0, 0.0)) == 0.0


def test_roundness_is_zero_for_too_few_points_or_zero_radius():
    assert roundness(np.array([[1, 1], [2, 2]]), (0.0, 0.0)) == 0.0
    assert roundness(np.array([[3, 3]] * 5), (3.0, 3.0)) == 0.0


def test_roundness_rejects_wrong_shapes():
    with pytest.raises(ValueError):
        roundness(np.zeros((4, 3)), (0.0, 0.0))
