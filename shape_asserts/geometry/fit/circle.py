"""The circle as a fitted model: Taubin's algebraic fit, and the radial measures built on it.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.fit.base import FitFailure, eigh
from shape_asserts.geometry.points import FloatArray, Point, as_points

__all__ = [
    "AboutMean",
    "about_mean",
    "CircleModel",
    "fit_circles",
    "roundness",
    "roundness_of",
    "rms_of",
    "radial_harmonics",
    "HARMONIC_ORDERS",
]


_new = object.__new__

#: Points about their mean: the mean ``(2,)``, the centred points ``(N, 2)`` and each one's
#: squared distance from the mean, ``dx² + dy²`` ``(N,)`` (:func:`about_mean`).
AboutMean = tuple[FloatArray, FloatArray, FloatArray]


def about_mean(pts: FloatArray) -> AboutMean:
    """``pts`` (float, ``(N, 2)``, N ≥ 1) about their mean, as :data:`AboutMean`.

    The circle fit starts from these, and so does the seed score of int points about their centroid
    (:func:`shape_asserts.geometry.seed.int_points_score`): a caller needing both computes them once.
    ``np.add.reduce(...) / n`` is what ``ndarray.mean`` computes, without its wrapper.
    """
    mean = np.add.reduce(pts, axis=0) / len(pts)
    centred = pts - mean
    # dx² + dy² from the columns: the same squares and the one addition a reduction over each row
    # of two makes, without that reduction's per-row loop
    dx, dy = centred[:, 0], centred[:, 1]
    return mean, centred, dx * dx + dy * dy


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
    def from_estimate(cls, points: ArrayLike, *, about: AboutMean | None = None) -> CircleModel | FitFailure:
        """Taubin's algebraic circle fit (robust to points on a short arc, unbiased for noise).

        Parameters
        ----------
        points : ndarray, shape (N, 2)
        about : AboutMean, optional
            ``about_mean(points)`` when the caller has it already (the same arrays).

        Returns
        -------
        CircleModel, or a falsy FitFailure when fewer than 3 distinct points or all collinear.
        """
        pts = as_points(points)
        if len(pts) < 3:
            return FitFailure("fewer than 3 distinct points")
        # centre and scale first: the moment matrix is then well conditioned for any grid
        n = len(pts)
        mean, centred, sq = about_mean(pts) if about is None else about
        # (math.sqrt of the Python float: numpy's correctly rounded square root of the same quotient;
        # a sum of squares is never negative, NaN and infinity pass through)
        scale = math.sqrt(float(np.add.reduce(sq)) / n)
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
        # ZXY = [z0, x, y] filled in place: the C-ordered (N, 3) array ``np.column_stack`` would build
        zxy = np.empty((n, 3))
        np.divide(centred, scale, out=zxy[:, 1:])
        x, y = zxy[:, 1], zxy[:, 2]
        z = x * x + y * y
        zm = float(np.add.reduce(z)) / n  # (the mean of squares: never negative)
        z -= zm
        twice_root = 2.0 * math.sqrt(zm)  # ``2.0 * np.sqrt(zmean)``: the same float, for z0 and a0 below
        np.divide(z, twice_root, out=zxy[:, 0])
        # the smallest right singular vector of ZXY is the smallest eigenvector of its 3×3 moment
        # matrix; eigh on 3×3 is far cheaper than an SVD of N×3 (the data are centred and scaled)
        vals, vecs = eigh(zxy.T @ zxy)
        return _taubin_circle(vals.tolist(), vecs[:, 0].tolist(), zm, twice_root, scale, mean.tolist())

    def residuals(self, points: ArrayLike) -> FloatArray:
        """Signed distance of each point from the circle, shape (N,)."""
        pts = as_points(points)
        return np.hypot(pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]) - self.radius

    def radial(self, points: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Polar angle (radians) and signed radial residual (cells) of each point, both shape (N,)."""
        pts = as_points(points)
        dx, dy = pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]
        return np.arctan2(dy, dx), np.hypot(dx, dy) - self.radius

    def polar(self, points: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """:meth:`radial`'s angles and residuals and each point's distance from the center (the
        distances :func:`roundness` about ``center`` measures: the same differences and hypot), all (N,)."""
        pts = as_points(points)
        dx, dy = pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]
        dist = np.hypot(dx, dy)
        return np.arctan2(dy, dx), dist - self.radius, dist

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


def _taubin_circle(
    vals: list[float], vec: list[float], zm: float, twice_root: float, scale: float, mean: list[float]
) -> CircleModel | FitFailure:
    """The end of :meth:`CircleModel.from_estimate`: the circle from the moment matrix's eigenvalues
    ``vals`` (ascending) and its smallest eigenvector ``vec``, the mean ``zm`` of ``z = x² + y²``
    (``twice_root``: ``2 √zm``) of the points centred on ``mean`` and divided by ``scale``."""
    # two (near) zero eigenvalues: the points span only two distinct positions
    if vals[1] <= 1e-9 * vals[2]:
        return FitFailure("fewer than 3 distinct points")
    # the coefficients (a0, a1, a2, a3) of a0 (x² + y²) + a1 x + a2 y + a3 = 0, in Python floats:
    # the same IEEE operations as on numpy's float64 scalars (sqrt and ** 2 correctly rounded
    # both ways), without their per-operation cost
    v0, v1, v2 = vec
    a0 = v0 / twice_root
    a1, a2, a3 = v1, v2, -zm * a0
    # collinear points put the null vector in the (x, y) plane: no quadratic term, no circle
    # (also keeps the divisions below from dividing by zero; a NaN goes on, as numpy's did)
    if abs(a0) < 1e-10:
        return FitFailure("points are collinear")
    cx = -a1 / (2 * a0)
    cy = -a2 / (2 * a0)
    r2 = (a1**2 + a2**2 - 4 * a0 * a3) / (4 * a0**2)
    if not math.isfinite(r2) or r2 <= 0:
        return FitFailure("no real circle fits the points")
    mx, my = mean
    # CircleModel(center, radius) with its fields written straight into its __dict__ (as
    # Scorecard.add makes its checks: the frozen dataclass's __init__ sets them one
    # object.__setattr__ at a time; it has no __post_init__, so the instance is the same)
    model: CircleModel = _new(CircleModel)
    fields = model.__dict__
    fields["center"] = (cx * scale + mx, cy * scale + my)
    fields["radius"] = math.sqrt(r2) * scale
    return model


#: The moment matrix's six distinct entries as products of ZXY's columns (rows, then columns, of
#: its upper triangle), and where each of its nine entries is among them.
_PRODUCT_ROWS = [0, 0, 0, 1, 1, 2]
_PRODUCT_COLS = [0, 1, 2, 1, 2, 2]
_MOMENT_AT = [0, 1, 2, 1, 3, 4, 2, 4, 5]


def fit_circles(
    points: FloatArray, means: FloatArray, centred: FloatArray, sq: FloatArray, spans: Sequence[tuple[int, int]]
) -> list[CircleModel | FitFailure]:
    """:meth:`CircleModel.from_estimate` of each span ``(a, b)`` of ``points``, for many spans at
    once: ``means`` (``(k, 2)``) the spans' means and ``centred``, ``sq`` the points about them, the
    spans of :func:`about_mean` stacked (the spans tile ``points`` in order, each of at least 3).

    The same fit with its scaling moved: the single fit divides each point by its span's scale
    ``s`` (the root of the mean of ``sq``) and takes ``z = x² + y²`` less its mean, which is 1 in
    exact arithmetic; here each span's moments of the unscaled ``(sq - s², dx, dy)`` are summed
    (``np.add.reduceat``) and then scaled, ``z0 = (sq - s²) / (2 s²)``, ``x = dx / s``, ``y = dy / s``,
    so the circle is found with ``zm = 1``. The sums are added in another order and the scaling
    rounds elsewhere: the results agree with the single fit to float rounding, not bit for bit.
    Where a span has no spread or a moment is not finite, every span takes the single fit."""
    k = len(spans)
    if k == 0:
        return []
    starts = [a for a, _ in spans]
    lens = [b - a for a, b in spans]
    squares = [total / n for total, n in zip(np.add.reduceat(sq, starts).tolist(), lens)]  # s² of each span
    if not all(math.isfinite(v) and v > 0 for v in squares):
        return [CircleModel.from_estimate(points[a:b]) for a, b in spans]
    g = np.empty((len(sq), 3))
    np.subtract(sq, np.array(squares).repeat(lens), out=g[:, 0])
    g[:, 1:] = centred
    sums = np.add.reduceat(g[:, _PRODUCT_ROWS] * g[:, _PRODUCT_COLS], starts, axis=0)
    # each product's scale: (1 / (2 s²))² for z0², 1 / (2 s³) for z0 x and z0 y, 1 / s² for the rest
    factors = []
    for v in squares:
        a, b = 0.5 / v, 1.0 / math.sqrt(v)
        factors.append([a * a, a * b, a * b, b * b, b * b, b * b])
    moments = sums * np.array(factors)
    # (a finite sum has every entry finite: an infinity or a NaN would make it one, so eigh need not look)
    if not math.isfinite(float(np.add.reduce(moments, axis=None))):
        return [CircleModel.from_estimate(points[a:b]) for a, b in spans]
    vals, vecs = eigh(moments[:, _MOMENT_AT].reshape(k, 3, 3), finite=True)
    all_vals, firsts, mean_rows = vals.tolist(), vecs[:, :, 0].tolist(), means.tolist()
    return [
        _taubin_circle(all_vals[i], firsts[i], 1.0, 2.0, math.sqrt(squares[i]), mean_rows[i])
        if math.isfinite(sum(all_vals[i]))
        else CircleModel.from_estimate(points[a:b])  # (LAPACK failed: as the single fit does)
        for i, (a, b) in enumerate(spans)
    ]


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
    n = len(r)
    mean = float(np.add.reduce(r) / n)  # r.mean(), without its wrapper
    if not math.isfinite(mean) or mean <= 0:
        return 0.0
    score = (1.0 - float(np.add.reduce(np.abs(r - mean)) / n) / mean) * 100.0
    return float(min(100.0, max(0.0, score)))


def rms_of(r: FloatArray) -> float:
    """Root-mean-square of residuals ``r`` (0 for none): :meth:`CircleModel.rms`."""
    # (math.sqrt of the Python float: numpy's correctly rounded root of the same quotient; a sum of
    # squares is never negative, NaN and infinity pass through)
    return math.sqrt(float(np.add.reduce(r * r)) / len(r)) if r.size else 0.0


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
    n = len(theta)
    order = np.argsort(theta, kind="stable")
    s = theta[order]
    # the gaps about each point in angle order: gap[i] the one before s[i], the wrap-around gap
    # (first + 2π - last, Python floats: the same IEEE operations) both before the first and after
    # the last; a point's weight is the mean of the gaps either side of it
    gap = np.empty(n + 1)
    np.subtract(s[1:], s[:-1], out=gap[1:n])
    gap[0] = gap[n] = s.item(0) + 2 * math.pi - s.item(n - 1)
    between = gap[:n] + gap[1:]
    between /= 2.0
    w = np.empty(n)
    w[order] = between
    total = float(np.add.reduce(w))
    if not math.isfinite(total) or total <= 0:
        return np.zeros(count)
    # e^{-ikθ} for k = 1..hi by a running product of e^{-iθ}: one complex exponential per point
    # (np.cumprod over ``hi`` rows of ``e^{-iθ}``: the same products; the rows are one row read
    # ``hi`` times, a view with a zero row stride, as ``broadcast_to`` makes without its wrapper)
    first = np.exp(-1j * theta)
    rows = np.ndarray((hi, len(theta)), dtype=complex, buffer=first, strides=(0, first.itemsize))
    phase = np.multiply.accumulate(rows, axis=0)[lo - 1 :]
    amplitudes: FloatArray = 2.0 * np.abs(phase @ (w * e)) / total
    return amplitudes
