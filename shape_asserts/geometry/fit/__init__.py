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
>>> isinstance(fitted, FittedModel), bool(np.abs(fitted.residuals(truth.predict_xy([0.5, 1.0]))).max() < 1e-3)
(True, True)
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
    "MODELS",
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

#: Every model class; each keeps the :class:`Estimator` contract and makes :class:`FittedModel` s
#: (mypy checks this annotation against the protocols).
MODELS: tuple[Estimator, ...] = (CircleModel, EllipseModel, SpiralModel, PolygonModel)
