"""The circle as a fitted model: Taubin's algebraic fit, and the radial measures built on it.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, Point, as_points

__all__ = [
    "CircleModel",
    "roundness",
    "roundness_of",
    "rms_of",
    "radial_harmonics",
    "HARMONIC_ORDERS",
]


@dataclass(frozen=True)
class CircleModel:
    """A circle: ``center`` (x, y) and ``radius``.

    Examples
    --------
    >>> m = CircleModel.from_estimate(CircleModel((25, 25), 10).predict_xy(np.linspace(0, 6, 50)))
    >>> [round(float(v), 6) for v in (*m.center, m.radius)]
    [25.0, 25.0, 10.0]
    """

    center: Point
    radius: float

    @classmethod
    def from_estimate(cls, points: ArrayLike) -> CircleModel | FitFailure:
        """Taubin's algebraic circle fit (robust to points on a short arc, unbiased for noise).

        Parameters
        ----------
        points : ndarray, shape (N, 2)

        Returns
        -------
        CircleModel, or a falsy FitFailure when fewer than 3 distinct points or all collinear.
        """
        pts = as_points(points)
        if len(pts) < 3:
            return FitFailure("fewer than 3 distinct points")
        # centre and scale first: the moment matrix is then well conditioned for any grid
        mean = pts.mean(axis=0)
        centred = pts - mean
        scale = float(np.sqrt(np.mean(np.sum(centred**2, axis=1))))
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
        x, y = centred[:, 0] / scale, centred[:, 1] / scale
        z = x * x + y * y
        zm = float(z.mean())
        twice_root = 2.0 * math.sqrt(zm)
        zxy = np.column_stack([(z - zm) / twice_root, x, y])
        # the smallest right singular vector of ZXY is the smallest eigenvector of its 3×3 moment
        # matrix (the data are centred and scaled, so squaring the condition costs nothing here)
        vals, vecs = np.linalg.eigh(zxy.T @ zxy)
        # two (near) zero eigenvalues: the points span only two distinct positions
        if vals[1] <= 1e-9 * vals[2]:
            return FitFailure("fewer than 3 distinct points")
        # the coefficients (a0, a1, a2, a3) of a0 (x² + y²) + a1 x + a2 y + a3 = 0
        v0, a1, a2 = vecs[:, 0].tolist()
        a0 = v0 / twice_root
        a3 = -zm * a0
        # collinear points put the null vector in the (x, y) plane: no quadratic term, no circle
        if abs(a0) < 1e-10:
            return FitFailure("points are collinear")
        cx = -a1 / (2 * a0)
        cy = -a2 / (2 * a0)
        r2 = (a1**2 + a2**2 - 4 * a0 * a3) / (4 * a0**2)
        if not math.isfinite(r2) or r2 <= 0:
            return FitFailure("no real circle fits the points")
        mx, my = mean.tolist()
        return cls(center=(cx * scale + mx, cy * scale + my), radius=math.sqrt(r2) * scale)

    def residuals(self, points: ArrayLike) -> FloatArray:
        """Signed distance of each point from the circle, shape (N,)."""
        pts = as_points(points)
        return np.hypot(pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]) - self.radius

    def radial(self, points: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Polar angle (radians) and signed radial residual (cells) of each point, both shape (N,)."""
        pts = as_points(points)
        dx, dy = pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]
        return np.arctan2(dy, dx), np.hypot(dx, dy) - self.radius

    def rms(self, points: ArrayLike) -> float:
        """Root-mean-square residual in grid units."""
        return rms_of(self.residuals(points))

    def predict_xy(self, t: ArrayLike) -> FloatArray:
        """Points of the circle at parameters ``t`` (radians, growing clockwise on screen)."""
        th = np.asarray(t, dtype=float)
        return np.column_stack([self.center[0] + self.radius * np.cos(th), self.center[1] + self.radius * np.sin(th)])

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


def roundness(points: ArrayLike, center: Point) -> float:
    """The seed's 0–100 roundness, but about a given ``center`` instead of the centroid.

    ``(1 - mean(|r - mean(r)| / mean(r))) * 100`` clipped to [0, 100], unrounded; 0 for fewer than
    3 points or a zero mean radius.
    """
    pts = as_points(points)
    if len(pts) < 3:
        return 0.0
    return roundness_of(np.hypot(pts[:, 0] - center[0], pts[:, 1] - center[1]))


def roundness_of(r: FloatArray) -> float:
    """:func:`roundness` from the points' distances ``r`` to the center (at least 3 of them)."""
    mean = float(np.mean(r))
    if not math.isfinite(mean) or mean <= 0:
        return 0.0
    score = (1.0 - float(np.mean(np.abs(r - mean))) / mean) * 100.0
    return float(min(100.0, max(0.0, score)))


def rms_of(r: FloatArray) -> float:
    """Root-mean-square of residuals ``r`` (0 for none): :meth:`CircleModel.rms`."""
    return float(np.sqrt(np.mean(r * r))) if r.size else 0.0


#: Harmonics of the radial residual that :func:`radial_harmonics` measures: 2 (an ellipse) to 16
#: (a 16-gon). Order 1 is a shift of the center, which the fit already absorbs.
HARMONIC_ORDERS = (2, 16)


def radial_harmonics(angles: ArrayLike, residuals: ArrayLike, orders: tuple[int, int] = HARMONIC_ORDERS) -> FloatArray:
    """Amplitude (cells) of each harmonic of a closed curve's radial residual, orders ``lo..hi``.

    The residual ``r(θ) − R`` of a drawing about its fitted circle is expanded in a Fourier
    series over the polar angle; a polygon with ``n`` sides puts its energy at order ``n`` (and the
    rounding of its vertices at low orders), an ellipse at order 2, a square or squircle at 4,
    while a correct raster's residual is rounding noise spread thinly over many orders. Points
    are weighted by the angle they stand for (half the gap to their neighbours in angle order), so
    neither the drawing order nor the uneven spacing of grid points along the curve matters.

    Parameters
    ----------
    angles : ndarray, shape (N,)
        Polar angle of each point about the fitted center, radians.
    residuals : ndarray, shape (N,)
        Signed radial residual of each point, cells.
    orders : (int, int)
        First and last harmonic order.

    Returns
    -------
    ndarray, shape (hi - lo + 1,)
        ``A_k = 2 |Σ w_i e_i exp(−ikθ_i)| / Σ w_i``: a residual ``a cos(kθ + φ)`` gives ``A_k = a``.
        Zeros for fewer than 3 points.

    Examples
    --------
    >>> t = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    >>> [round(float(a), 3) for a in radial_harmonics(t, 0.3 * np.cos(4 * t + 1.0), (3, 5))]
    [0.0, 0.3, 0.0]
    """
    lo, hi = orders
    theta = np.asarray(angles, dtype=float)
    e = np.asarray(residuals, dtype=float)
    if theta.shape != e.shape or theta.ndim != 1:
        raise ValueError("angles and residuals must be 1-D arrays of the same length")
    count = max(0, hi - lo + 1)  # the orders lo..hi
    if len(theta) < 3:
        return np.zeros(count)
    # weights from the angular gaps in angle order (wrapping round): order-free, spacing-fair
    order = np.argsort(theta, kind="stable")
    s = theta[order]
    wrap = s[0] + 2 * math.pi - s[-1]
    gap = np.concatenate([[wrap], np.diff(s), [wrap]])  # gap[i]: the one before s[i]; the wrap both ends
    w = np.empty(len(theta))
    w[order] = (gap[:-1] + gap[1:]) / 2.0
    total = float(w.sum())
    if not math.isfinite(total) or total <= 0:
        return np.zeros(count)
    # e^{-ikθ} for k = 1..hi by a running product of e^{-iθ}: one complex exponential per point
    first = np.exp(-1j * theta)
    phase = np.cumprod(np.broadcast_to(first, (hi, len(theta))), axis=0)[lo - 1 :]
    amplitudes: FloatArray = 2.0 * np.abs(phase @ (w * e)) / total
    return amplitudes
