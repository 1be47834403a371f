"""Fitted shapes as small models, in the style of scikit-image's ``measure.fit``.

One module per model, all keeping the contract of :mod:`shape_asserts.geometry.fit.base`
(:class:`FittedModel`): :class:`CircleModel` (``circle``), :class:`EllipseModel` (``ellipse``),
:class:`SpiralModel` (``spiral``) and :class:`PolygonModel` (``polygon``), with the measures read
from each.

Examples
--------
>>> import numpy as np
>>> truth = EllipseModel((25, 25), 12, 6, 30)
>>> fitted = EllipseModel.from_estimate(truth.predict_xy(np.linspace(0, 6.2, 40)))
>>> isinstance(fitted, FittedModel), round(float(np.abs(fitted.residuals(truth.predict_xy([1.0]))).max()), 6)
(True, 0.0)
>>> EllipseModel.from_estimate([[0, 0], [1, 1], [2, 2]])
FitFailure(reason='fewer than 5 distinct points')
"""

from __future__ import annotations

from shape_asserts.geometry.fit.base import Estimator, FitFailure, FittedModel
from shape_asserts.geometry.fit.circle import HARMONIC_ORDERS, CircleModel, radial_harmonics, roundness
from shape_asserts.geometry.fit.ellipse import EllipseModel, axis_angle_difference
from shape_asserts.geometry.fit.polygon import PolygonModel
from shape_asserts.geometry.fit.spiral import SpiralModel

__all__ = [
    "Estimator",
    "FitFailure",
    "FittedModel",
    "CircleModel",
    "EllipseModel",
    "SpiralModel",
    "PolygonModel",
    "HARMONIC_ORDERS",
    "axis_angle_difference",
    "radial_harmonics",
    "roundness",
]
