"""shape_asserts.geometry.fit: every fitted model keeps one contract (scikit-image's ``measure.fit``).

Built from named geometry, a model samples its ideal curve (``predict_xy``); estimated from those
samples (``from_estimate``) it comes back as the same shape, with residuals of zero; a degenerate
estimate is a falsy ``FitFailure`` with a reason; points of the wrong shape are a ``ValueError``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.fit import (
    MODELS,
    CircleModel,
    EllipseModel,
    FitFailure,
    FittedModel,
    PolygonModel,
    SpiralModel,
)

#: For each model: the truth, where its curve is sampled, and the estimate's extra arguments.
CASES = {
    "circle": (CircleModel((25.0, 20.0), 9.0), np.linspace(0, 2 * math.pi, 60, endpoint=False), {}),
    "ellipse": (EllipseModel((24.0, 26.0), 15.0, 6.0, 35.0), np.linspace(0, 2 * math.pi, 80, endpoint=False), {}),
    "spiral": (
        SpiralModel((25.0, 25.0), 3.0, 6 / (2 * math.pi), 40.0, "ccw"),
        np.linspace(0, 6 * math.pi, 300),
        {"center": (25.0, 25.0)},
    ),
    "polygon": (
        PolygonModel(np.array([[10.0, 10.0], [40.0, 10.0], [40.0, 40.0], [10.0, 40.0]])),
        np.linspace(0, 1, 400, endpoint=False),
        {"epsilon": 1.0},
    ),
}
#: Points no model fits: a straight ray out of the spiral's center (collinear, and never turning).
DEGENERATE = np.array([[26.0, 25.0], [27.0, 25.0], [28.0, 25.0], [29.0, 25.0], [30.0, 25.0], [31.0, 25.0]])


def test_the_registry_of_models_names_every_model_once():
    assert sorted(m.__name__ for m in MODELS) == ["CircleModel", "EllipseModel", "PolygonModel", "SpiralModel"]


@pytest.mark.parametrize("name", CASES)
def test_a_model_is_a_truthy_fitted_model(name):
    truth, _, _ = CASES[name]
    assert isinstance(truth, FittedModel) and bool(truth) is True


@pytest.mark.parametrize("name", CASES)
def test_a_model_estimated_from_its_own_samples_has_zero_residuals(name):
    truth, t, extra = CASES[name]
    xy = truth.predict_xy(t)
    assert xy.shape == (len(t), 2)
    fitted = type(truth).from_estimate(xy, **extra)
    assert fitted, getattr(fitted, "reason", "")
    assert np.abs(truth.residuals(xy)).max() < 1e-9
    assert np.abs(fitted.residuals(xy)).max() < 1e-3


@pytest.mark.parametrize("name", CASES)
def test_a_degenerate_estimate_is_a_falsy_failure_with_a_reason(name):
    truth, _, extra = CASES[name]
    failed = type(truth).from_estimate(DEGENERATE, **extra)
    assert isinstance(failed, FitFailure) and not failed and failed.reason


@pytest.mark.parametrize("name", CASES)
def test_points_of_the_wrong_shape_are_a_value_error(name):
    truth, _, extra = CASES[name]
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        type(truth).from_estimate(np.zeros((4, 3)), **extra)
