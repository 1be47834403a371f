"""The ellipse as a fitted model: a direct least-squares fit, polished on the geometric error.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps. Angles follow the
seed post: degrees, 0° pointing right and growing clockwise on screen (y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.fit.base import FitFailure, eig_vectors, eigh, matrix_rank, solve
from shape_asserts.geometry.fit.ellipse_polish import polish
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.samples import ellipse_xy

__all__ = ["EllipseModel", "axis_angle_difference"]


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
        """Direct least-squares ellipse fit (Fitzgibbon, Pilu & Fisher 1999; Halíř & Flusser 1998).

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
        return cls._estimate(points)

    @classmethod
    def fit_with_radial(cls, points: ArrayLike) -> tuple[EllipseModel | FitFailure, tuple[FloatArray, FloatArray]]:
        """:meth:`from_estimate` and the fit's :meth:`radial` of the points (empty for a failure).

        (The radial is measured at the fit: the polish's distances are the same expression in
        another order of arithmetic, equal to ~1e-15, not bit for bit.)"""
        pts = as_points(points)
        model = cls._estimate(pts)
        return model, model.radial(pts) if model else (np.zeros(0), np.zeros(0))

    @classmethod
    def _estimate(cls, points: ArrayLike) -> EllipseModel | FitFailure:
        """:meth:`from_estimate`."""
        pts = as_points(points)
        if _distinct_rows(pts, enough=5) < 5:
            return FitFailure("fewer than 5 distinct points")
        # centre and scale first: the scatter matrix of raw grid coordinates (up to 49⁴) is badly
        # conditioned, of unit-scale ones it is not
        # (np.add.reduce(...) / n is what np.mean computes, without its wrapper; a row's squares by one +)
        n = len(pts)
        mean = np.add.reduce(pts, axis=0) / n
        u = pts - mean
        sq = u * u
        scale = float(np.sqrt(np.add.reduce(sq[:, 0] + sq[:, 1]) / n))
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
        # the design matrices [x², xy, y²] and [x, y, 1] filled in place: the C-ordered (N, 3)
        # arrays np.column_stack would build
        d1, d2 = np.empty((n, 3)), np.empty((n, 3))
        np.divide(u, scale, out=d2[:, :2])
        d2[:, 2] = 1.0
        x, y = d2[:, 0], d2[:, 1]
        np.multiply(x, x, out=d1[:, 0])
        np.multiply(x, y, out=d1[:, 1])
        np.multiply(y, y, out=d1[:, 2])
        s1, s2, s3 = d1.T @ d1, d1.T @ d2, d2.T @ d2
        # collinear points make the linear scatter singular: no conic through them is an ellipse
        if not _surely_full_rank(s3) and matrix_rank(s3) < 3:
            return FitFailure("points are collinear")
        t = -solve(s3, s2.T)
        m = s1 + s2 @ t
        m = np.array([m[2] / 2.0, -m[1], m[0] / 2.0])
        with np.errstate(all="ignore"):
            vecs = eig_vectors(m)
        # the first column with 4·v0·v2 − v1² > 0, in Python floats: the array expression's
        # products (an array's ** 2 is x·x, so v1·v1 here: a float's ** 2 is pow(x, 2))
        v0, v1, v2 = vecs.tolist()
        ok = [k for k in range(3) if 4 * v0[k] * v2[k] - v1[k] * v1[k] > 0]
        if not ok:
            return FitFailure("no ellipse fits the points")
        a1 = vecs[:, ok[0]]
        # Python floats from here: + − × ÷ on them are numpy's scalar operations, bit for bit
        A, B, C = v0[ok[0]], v1[ok[0]], v2[ok[0]]
        D, E, F = (t @ a1).tolist()
        det = 4 * A * C - B * B
        if det <= 0:
            return FitFailure("no ellipse fits the points")
        x0 = (B * E - 2 * C * D) / det
        y0 = (B * D - 2 * A * E) / det
        fc = A * x0 * x0 + B * x0 * y0 + C * y0 * y0 + D * x0 + E * y0 + F
        lam, vec = eigh(np.array([[A, B / 2], [B / 2, C]]))
        # -fc / λ, their square roots times the scale and the larger's index (np.argmax: the first
        # of equals) in Python floats: the same IEEE quotients and correctly rounded roots, and a
        # zero λ gives ±inf or NaN, as numpy's division did, instead of raising
        l1, l2 = lam.tolist()
        axes2 = [_quotient(-fc, l1), _quotient(-fc, l2)]
        if not all(math.isfinite(x) and x > 0 for x in axes2):
            return FitFailure("the fitted conic is not a real ellipse")
        axes = [math.sqrt(x) * scale for x in axes2]
        major = 0 if axes[0] >= axes[1] else 1
        vx, vy = vec[:, major].tolist()
        rot = math.degrees(math.atan2(vy, vx)) % 180.0
        mx, my = mean.tolist()
        first = cls(center=(x0 * scale + mx, y0 * scale + my), a=axes[major], b=axes[1 - major], rotation=rot)
        # a nearly round fit has no axis to polish (its turn is free, so the steps wander): the
        # algebraic fit's bias only matters for elongated ellipses
        return first._refined(pts) if first.a > 1.15 * first.b else first

    def _refined(self, pts: FloatArray, rounds: int = 30) -> EllipseModel:
        """The algebraic fit polished by Gauss–Newton on the normal distances of :meth:`radial`
        (the polish and its stopping rule: :mod:`.ellipse_polish`); itself when no step improves it."""
        got = polish(pts, self.center, self.a, self.b, self.rotation, rounds)
        if got is None:
            return self
        cx, cy, a, b, rot = got
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
        pts = as_points(points)
        c, s = math.cos(math.radians(self.rotation)), math.sin(math.radians(self.rotation))
        dx, dy = pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]
        u, v = dx * c + dy * s, dy * c - dx * s  # (v = -dx·s + dy·c: negating is exact, x + (-y) is x - y)
        ua, vb = u / self.a, v / self.b
        rho = np.hypot(ua, vb)
        grad = np.hypot(u / self.a**2, v / self.b**2)
        with np.errstate(divide="ignore", invalid="ignore"):
            # (grad > 0).all(), the usual case: no point on the center (a hypot is ≥ 0, so the least
            # says whether all are > 0; a NaN makes it NaN, as it makes all() false)
            if np.minimum.reduce(grad, axis=None) > 0:
                res = (rho - 1.0) * rho / grad
            else:  # the center itself has no normal: it lies a minor semi-axis inside
                res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -self.b)
        return np.arctan2(vb, ua), res

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
        mean = float(np.add.reduce(np.abs(residuals)) / len(residuals))  # np.mean, without its wrapper
        score = (1.0 - mean / ((self.a + self.b) / 2.0)) * 100.0
        return float(min(100.0, max(0.0, score)))

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


def _quotient(x: float, y: float) -> float:
    """``x / y`` where only whether it is a finite positive number is asked: numpy's division gave
    ±inf or NaN for a zero ``y`` (neither is), Python's would raise."""
    return x / y if y != 0.0 else math.nan


def _surely_full_rank(s: FloatArray) -> bool:
    """Whether the symmetric positive semi-definite 3×3 ``s`` (a scatter matrix) has rank 3 by a
    wide margin, so that :func:`matrix_rank` would say 3: its determinant at least ``1e-6``
    times its trace cubed. The least eigenvalue is then at least ``det / trace²``, a millionth
    of the largest, where ``matrix_rank`` draws its line at ``3 × eps`` of it (the determinant's
    rounding, a few eps of ``trace³``, and the SVD's, a few eps of the largest, cannot cross that
    gap). Anything else (near-collinear points, NaN) is left to ``matrix_rank``."""
    (a, b, c), (_, e, f), (_, _, i) = s.tolist()  # (symmetric: the upper triangle)
    det = a * (e * i - f * f) - b * (b * i - f * c) + c * (b * f - e * c)
    trace = a + e + i
    return bool(trace > 0 and det >= 1e-6 * trace * trace * trace)


def _distinct_rows(pts: FloatArray, enough: int | None = None) -> int:
    """``len(np.unique(pts, axis=0))``: for finite points a set of tuples (equal floats, ``-0.0``
    and ``0.0`` among them, are one point either way), else numpy's count.

    With ``enough``, a count of at least ``enough`` may be returned as soon as the first few rows
    show that many distinct finite points (the whole count can only be larger)."""
    if enough is not None:
        head = {(x, y) for x, y in pts[: 2 * enough].tolist() if math.isfinite(x) and math.isfinite(y)}
        if len(head) >= enough:
            return len(head)
    if np.isfinite(pts).all():
        return len(set(zip(pts[:, 0].tolist(), pts[:, 1].tolist())))
    return len(np.unique(pts, axis=0))
