"""The contract every fitted model keeps, in the style of scikit-image's ``measure.fit``.

A model is built from named geometry (``CircleModel(center, radius)``) or estimated from points
with the class method ``from_estimate(points, ...)``, which returns the model or a falsy
:class:`FitFailure` saying why no model fits (``ValueError`` is kept for arrays of the wrong
shape). A model gives the distance of points from its ideal curve, ``residuals(points)``, and
samples that curve, ``predict_xy(t)``: to draw the ideal overlay, or to make perfect inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray

__all__ = ["FitFailure", "FittedModel", "Estimator"]


@dataclass(frozen=True)
class FitFailure:
    """A fit that could not be made; falsy, with the reason.

    Examples
    --------
    >>> bool(FitFailure("points are collinear")), FitFailure("points are collinear").reason
    (False, 'points are collinear')
    """

    reason: str

    def __bool__(self) -> Literal[False]:
        return False


@runtime_checkable
class FittedModel(Protocol):
    """A fitted (or named) shape: truthy, with residuals and samples of its ideal curve.

    :class:`~shape_asserts.geometry.fit.CircleModel`, :class:`~shape_asserts.geometry.fit.EllipseModel`,
    :class:`~shape_asserts.geometry.fit.SpiralModel` and :class:`~shape_asserts.geometry.fit.PolygonModel`
    keep it; what ``t`` means is each model's own (an angle, a turn, a share of the perimeter).
    """

    def residuals(self, points: ArrayLike, /) -> FloatArray:
        """Distance of each point from the model's curve, shape (N,) (or fewer: see the model)."""
        ...

    def predict_xy(self, t: ArrayLike, /) -> FloatArray:
        """Points of the ideal curve at parameters ``t``, shape (len(t), 2)."""
        ...

    def __bool__(self) -> bool:
        """Always true: a model is a fit that worked (a :class:`FitFailure` is false)."""
        ...


class Estimator(Protocol):
    """A model class: ``from_estimate(points, ...)`` gives a :class:`FittedModel` or a :class:`FitFailure`.

    The arguments after the points are each model's own (the spiral's known center, the polygon's
    tolerance), so the contract names only what comes back.
    """

    def from_estimate(self, points: ArrayLike, /, *args: Any, **kwargs: Any) -> FittedModel | FitFailure:
        """The model fitted to ``points``, or a falsy failure saying why none fits."""
        ...
