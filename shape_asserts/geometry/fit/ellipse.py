"""The ellipse as a fitted model: a direct least-squares fit, polished on the geometric error.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps. Angles follow the
seed post: degrees, 0° pointing right and growing clockwise on screen (y down).

The direct fit (Fitzgibbon, Pilu & Fisher; Halíř & Flusser) minimises an algebraic error that
shrinks a thin ellipse's long axis (by 0.7 cells for a 14 × 4 raster); a few Gauss–Newton steps on
the geometric error (the normal distances of :meth:`EllipseModel.radial`) remove that bias.

The polish's stopping rule: a step is taken only if it lowers the error (the sum of squared normal
distances) by more than ``_MIN_GAIN`` (1e-10) of it, and the polish stops at the first step that
does not (or after 30); an error below ``(_FLOOR · a)²`` a point (a thousandth of the start's major
semi-axis) counts as that much. So the result is never worse than the start and is not decided by
rounding (the error's rounding is ~1e-15 of it; the floor keeps the line far above it for a drawing
that fits an ellipse almost exactly). The price is that the polish stops a step short of the
least-squares optimum, a step that would gain < 1e-10 of the error: over the validity catalogue at
most 4e-5 cells and 1e-4° away, far below anything a check reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.samples import ellipse_xy

__all__ = ["EllipseModel", "axis_angle_difference"]

#: The polish's forward-difference steps: center, semi-axes (in cells), rotation (in degrees).
_STEPS = np.array([1e-4, 1e-4, 1e-4, 1e-4, 1e-3])
#: The least share of the error a polish step must remove to be taken (well above its rounding).
_MIN_GAIN = 1e-10
#: The least RMS normal distance, in major semi-axes, the stopping rule measures the error from.
_FLOOR = 1e-3
#: Most Gauss–Newton steps the polish takes.
_ROUNDS = 30


def axis_angle_difference(a: float, b: float) -> float:
    """Smallest difference between two axis directions in degrees (an axis has no sign), in [0, 90]."""
    d = abs(a - b) % 180.0
    return float(min(d, 180.0 - d))


@dataclass(frozen=True)
class EllipseModel:
    """An ellipse: ``center``, semi-axes ``a ≥ b`` and ``rotation`` of the ``a`` axis in [0, 180).

    Examples
    --------
    >>> truth = EllipseModel((25, 25), 20, 10, 30)
    >>> m = EllipseModel.from_estimate(truth.predict_xy(np.linspace(0, 6.2, 60)))
    >>> [round(float(v), 6) for v in (*m.center, m.a, m.b, m.rotation)]
    [25.0, 25.0, 20.0, 10.0, 30.0]
    """

    center: Point
    a: float
    b: float
    rotation: float = 0.0

    @classmethod
    def from_estimate(cls, points: ArrayLike) -> EllipseModel | FitFailure:
        """Direct least-squares ellipse fit (Fitzgibbon, Pilu & Fisher 1999; Halíř & Flusser 1998),
        polished on the normal distances (module docstring).

        The conic is constrained to be an ellipse (``4AC − B² > 0``), so it never returns a
        hyperbola; the numerically stable split of the scatter matrix is used.

        Parameters
        ----------
        points : ndarray, shape (N, 2)

        Returns
        -------
        EllipseModel, or a falsy FitFailure for fewer than 5 distinct points, collinear points or
        no ellipse solution.
        """
        pts = as_points(points)
        if len(np.unique(pts, axis=0)) < 5:
            return FitFailure("fewer than 5 distinct points")
        # centre and scale first: the scatter matrix of raw grid coordinates (up to 49⁴) is badly
        # conditioned, of unit-scale ones it is not
        mean = pts.mean(axis=0)
        u = pts - mean
        scale = float(np.sqrt(np.mean(np.sum(u**2, axis=1))))
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
        conic = _direct_conic(u / scale)
        if not isinstance(conic, tuple):
            return conic
        first = _ellipse_of_conic(conic, scale, mean)
        # a nearly round fit has no axis to polish (its turn is free, so the steps wander): the
        # algebraic fit's bias only matters for elongated ellipses
        if first and first.a > 1.15 * first.b:
            return first._refined(pts)
        return first

    def _refined(self, pts: FloatArray) -> EllipseModel:
        """This ellipse polished by Gauss–Newton steps on the normal distances of :meth:`radial`
        to the points ``pts`` (module docstring); itself when no step improves it."""
        params = np.array([*self.center, self.a, self.b, self.rotation], dtype=float)
        taken = False
        with np.errstate(all="ignore"):  # (a wild trial's overflow is refused as not finite)
            err = _distances_at(pts, params)
            best = float(err @ err)
            floor = len(pts) * (_FLOOR * self.a) ** 2
            for _ in range(_ROUNDS):
                jac = _jacobian(pts, params, err)
                if not np.isfinite(jac).all():
                    break
                trial = params + np.linalg.lstsq(jac, -err, rcond=None)[0]
                new = _distances_at(pts, trial)
                total = float(new @ new)
                if not (math.isfinite(total) and best - total > _MIN_GAIN * max(best, floor)):
                    break  # (a NaN gain is no gain)
                params, err, best, taken = trial, new, total, True
        if not taken:
            return self
        cx, cy, a, b, rot = params.tolist()
        if b > a:  # the axes swapped roles while polishing: keep a the major one
            a, b, rot = b, a, rot + 90.0
        return EllipseModel((cx, cy), a, b, rot % 180.0)

    def predict_xy(self, t: ArrayLike) -> FloatArray:
        """Points at parameters ``t`` (radians, growing clockwise on screen), shape (len(t), 2)."""
        return ellipse_xy(self.center, self.a, self.b, self.rotation, t)

    def residuals(self, points: ArrayLike, samples: int = 720) -> FloatArray:
        """Distance of each point from the ellipse (to ``samples`` chords of it), shape (N,)."""
        curve = self.predict_xy(np.linspace(0, 2 * math.pi, samples, endpoint=False))
        return distance_to_polyline(points, curve, closed=True)

    def radial(self, points: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Eccentric angle (radians) and signed distance (cells) of each point from the ellipse, (N,).

        The distance is the first-order normal distance ``(ρ − 1) / |∇ρ|`` of the normalised radius
        ``ρ = √((u/a)² + (v/b)²)``: positive outside, negative inside, exact on the axes.
        """
        return _radial(as_points(points), self.center, self.a, self.b, self.rotation)

    def evenness(self, points: ArrayLike) -> float:
        """The seed's roundness idea for an ellipse: ``(1 − mean |residual| / mean semi-axis) × 100``.

        The residual is the normal distance of :meth:`radial` (analytic, so the score does not
        depend on where a sampled outline would start: a round "ellipse" has no axis to start from).
        """
        pts = as_points(points)
        if len(pts) == 0:
            return 0.0
        return self.evenness_of(self.radial(pts)[1])

    def evenness_of(self, residuals: FloatArray) -> float:
        """:meth:`evenness` from the points' normal distances (:meth:`radial`), at least one."""
        score = (1.0 - float(np.mean(np.abs(residuals))) / ((self.a + self.b) / 2.0)) * 100.0
        return float(min(100.0, max(0.0, score)))

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


#: The conic ``A x² + B xy + C y² + D x + E y + F = 0`` as its six coefficients.
Conic = tuple[float, float, float, float, float, float]


def _direct_conic(xy: FloatArray) -> Conic | FitFailure:
    """The direct fit's ellipse-constrained conic through the centred, scaled points ``xy`` (N, 2)
    (Halíř & Flusser's split of the scatter matrix into its quadratic and linear parts)."""
    x, y = xy[:, 0], xy[:, 1]
    d1 = np.column_stack([x * x, x * y, y * y])
    d2 = np.column_stack([x, y, np.ones(len(x))])
    s1, s2, s3 = d1.T @ d1, d1.T @ d2, d2.T @ d2
    # collinear points make the linear scatter singular: no conic through them is an ellipse
    if np.linalg.matrix_rank(s3) < 3:
        return FitFailure("points are collinear")
    t = -np.linalg.solve(s3, s2.T)
    m = s1 + s2 @ t
    m = np.array([m[2] / 2.0, -m[1], m[0] / 2.0])
    with np.errstate(all="ignore"):
        vecs = np.real(np.linalg.eig(m)[1])
    # the first eigenvector with 4·A·C − B² > 0 is the ellipse
    v0, v1, v2 = vecs
    ok = (4 * v0 * v2 - v1 * v1 > 0).nonzero()[0]
    if not ok.size:
        return FitFailure("no ellipse fits the points")
    quadratic = vecs[:, ok[0]]
    A, B, C = quadratic.tolist()
    D, E, F = (t @ quadratic).tolist()
    return A, B, C, D, E, F


def _ellipse_of_conic(conic: Conic, scale: float, mean: FloatArray) -> EllipseModel | FitFailure:
    """The ellipse of a conic fitted to points less ``mean`` and divided by ``scale``, in the
    points' own coordinates."""
    A, B, C, D, E, F = conic
    det = 4 * A * C - B * B
    if det <= 0:
        return FitFailure("no ellipse fits the points")
    x0 = (B * E - 2 * C * D) / det
    y0 = (B * D - 2 * A * E) / det
    fc = A * x0 * x0 + B * x0 * y0 + C * y0 * y0 + D * x0 + E * y0 + F
    lam, vec = np.linalg.eigh(np.array([[A, B / 2], [B / 2, C]]))
    with np.errstate(divide="ignore", invalid="ignore"):
        axes2 = -fc / lam
    if not (np.isfinite(axes2).all() and (axes2 > 0).all()):
        return FitFailure("the fitted conic is not a real ellipse")
    axes = (np.sqrt(axes2) * scale).tolist()
    major = 0 if axes[0] >= axes[1] else 1
    vx, vy = vec[:, major].tolist()
    rotation = math.degrees(math.atan2(vy, vx)) % 180.0
    mx, my = mean.tolist()
    return EllipseModel(center=(x0 * scale + mx, y0 * scale + my), a=axes[major], b=axes[1 - major], rotation=rotation)


def _radial(pts: FloatArray, center: Point, a: float, b: float, rotation: float) -> tuple[FloatArray, FloatArray]:
    """:meth:`EllipseModel.radial` of the ellipse given by its parameters."""
    c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
    dx, dy = pts[:, 0] - center[0], pts[:, 1] - center[1]
    u, v = dx * c + dy * s, dy * c - dx * s
    ua, vb = u / a, v / b
    rho = np.hypot(ua, vb)
    grad = np.hypot(u / a**2, v / b**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        # the center itself has no normal: it lies a minor semi-axis inside
        res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -b)
    return np.arctan2(vb, ua), res


def _distances_at(pts: FloatArray, params: FloatArray) -> FloatArray:
    """The polish's error terms at ``params`` (center, semi-axes, rotation): the points' normal
    distances, or infinities for a semi-axis at or below zero (a step there is refused)."""
    cx, cy, a, b, rotation = params.tolist()
    if not (a > 0 and b > 0):
        return np.full(len(pts), np.inf)
    return _radial(pts, (cx, cy), a, b, rotation)[1]


def _jacobian(pts: FloatArray, params: FloatArray, err: FloatArray) -> FloatArray:
    """Forward differences of the normal distances by each parameter (``_STEPS``), shape (N, 5)."""
    columns = [(_distances_at(pts, params + step) - err) / h for step, h in zip(np.diag(_STEPS), _STEPS)]
    return np.column_stack(columns)
