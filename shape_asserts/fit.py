"""Fitted shapes as small models, in the style of scikit-image's ``measure.fit``.

A model is built from named geometry (``CircleModel(center, radius)``) or estimated from points
(``CircleModel.from_estimate(points)``); it gives ``residuals(points)`` and samples its ideal curve
with ``predict_xy(t)``. A degenerate estimate returns a falsy :class:`FitFailure` instead of
raising; ``ValueError`` is kept for arrays of the wrong shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .checks import as_points

__all__ = ["FitFailure", "CircleModel", "roundness"]


@dataclass(frozen=True)
class FitFailure:
    """A fit that could not be made; falsy, with the reason."""

    reason: str

    def __bool__(self) -> bool:
        return False


def _three_distinct(pts: np.ndarray) -> bool:
    """Whether ``pts`` holds at least 3 distinct points (cheaper than ``np.unique`` on rows)."""
    if len(pts) < 3:
        return False
    not_first = np.any(pts != pts[0], axis=1)
    if not not_first.any():
        return False
    second = pts[int(np.argmax(not_first))]
    return bool(np.any(not_first & np.any(pts != second, axis=1)))


@dataclass(frozen=True)
class CircleModel:
    """A circle: ``center`` (x, y) and ``radius``.

    Examples
    --------
    >>> m = CircleModel.from_estimate(CircleModel((25, 25), 10).predict_xy(np.linspace(0, 6, 50)))
    >>> [round(float(v), 6) for v in (*m.center, m.radius)]
    [25.0, 25.0, 10.0]
    """

    center: tuple[float, float]
    radius: float

    @classmethod
    def from_estimate(cls, points: np.ndarray) -> "CircleModel | FitFailure":
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
        if not np.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
        u = centred / scale
        x, y = u[:, 0], u[:, 1]
        z = x * x + y * y
        zmean = z.mean()
        z0 = (z - zmean) / (2.0 * np.sqrt(zmean))
        zxy = np.column_stack([z0, x, y])
        # the smallest right singular vector of ZXY is the smallest eigenvector of its 3×3 moment
        # matrix; eigh on 3×3 is far cheaper than an SVD of N×3 (the data are centred and scaled)
        vals, vecs = np.linalg.eigh(zxy.T @ zxy)
        # two (near) zero eigenvalues: the points span only two distinct positions
        if vals[1] <= 1e-9 * vals[2]:
            return FitFailure("fewer than 3 distinct points")
        a = vecs[:, 0]
        a0 = a[0] / (2.0 * np.sqrt(zmean))
        a = np.array([a0, a[1], a[2], -zmean * a0])
        # collinear points put the null vector in the (x, y) plane: no quadratic term, no circle
        if abs(a[0]) < 1e-10:
            return FitFailure("points are collinear")
        cx = -a[1] / (2 * a[0])
        cy = -a[2] / (2 * a[0])
        r2 = (a[1] ** 2 + a[2] ** 2 - 4 * a[0] * a[3]) / (4 * a[0] ** 2)
        if not np.isfinite(r2) or r2 <= 0:
            return FitFailure("no real circle fits the points")
        center = (float(cx * scale + mean[0]), float(cy * scale + mean[1]))
        return cls(center=center, radius=float(np.sqrt(r2) * scale))

    def residuals(self, points: np.ndarray) -> np.ndarray:
        """Signed distance of each point from the circle, shape (N,)."""
        pts = as_points(points)
        return np.hypot(pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]) - self.radius

    def rms(self, points: np.ndarray) -> float:
        """Root-mean-square residual in grid units."""
        r = self.residuals(points)
        return float(np.sqrt(np.mean(r * r))) if r.size else 0.0

    def predict_xy(self, t: np.ndarray) -> np.ndarray:
        """Points of the circle at parameters ``t`` (radians, growing clockwise on screen)."""
        t = np.asarray(t, dtype=float)
        return np.column_stack(
            [self.center[0] + self.radius * np.cos(t), self.center[1] + self.radius * np.sin(t)]
        )

    def __bool__(self) -> bool:
        return True


def roundness(points: np.ndarray, center: tuple[float, float]) -> float:
    """The seed's 0–100 roundness, but about a given ``center`` instead of the centroid.

    ``(1 - mean(|r - mean(r)| / mean(r))) * 100`` clipped to [0, 100], unrounded; 0 for fewer than
    3 points or a zero mean radius.
    """
    pts = as_points(points)
    if len(pts) < 3:
        return 0.0
    r = np.hypot(pts[:, 0] - center[0], pts[:, 1] - center[1])
    mean = float(r.mean())
    if not np.isfinite(mean) or mean <= 0:
        return 0.0
    score = (1.0 - float(np.mean(np.abs(r - mean))) / mean) * 100.0
    return float(min(100.0, max(0.0, score)))
