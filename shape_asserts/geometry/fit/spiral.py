"""The Archimedean spiral as a fitted model, and the angle measures a spiral is read with.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps. Angles follow the
seed post: 0° pointing right and growing clockwise on screen (y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points

__all__ = ["SpiralModel", "unwrapped_angles", "radii_about"]


def unwrapped_angles(points: ArrayLike, center: Point, *, min_radius: float = 0.0) -> tuple[IntArray, FloatArray]:
    """Cumulative polar angle along the drawing about ``center``, radians (clockwise on screen > 0).

    Points closer than ``min_radius`` to the center (where the angle means little) are left out.
    Returns ``(indices, theta)``: the positions used and the angle at each, starting from 0.
    """
    pts = as_points(points)
    rel = pts - np.asarray(center, dtype=float)
    r = np.hypot(rel[:, 0], rel[:, 1])
    idx = np.flatnonzero((r > 0) & (r >= min_radius))
    if idx.size == 0:
        return idx, np.zeros(0)
    ang = np.arctan2(rel[idx, 1], rel[idx, 0])
    step = (np.diff(ang) + np.pi) % (2 * np.pi) - np.pi  # each step's turn
    # a step straight across the center (skipped inner points) turns ±π: which way is a matter of
    # rounding, so a rotated copy of the drawing could count a lap more; take the overall sense
    across = np.abs(np.abs(step) - np.pi) < 1e-6
    if across.any():
        step[across] = np.pi if step[~across].sum() >= 0 else -np.pi
    return idx, np.concatenate([[0.0], np.cumsum(step)])


def radii_about(points: ArrayLike, center: Point) -> FloatArray:
    """Each point's distance from ``center``, shape (N,): the radius every spiral measure reads."""
    pts = as_points(points)
    r: FloatArray = np.hypot(pts[:, 0] - center[0], pts[:, 1] - center[1])
    return r


@dataclass(frozen=True)
class SpiralModel:
    """An Archimedean spiral about ``center``: radius ``a + b·θ`` after turning ``θ`` from the start.

    ``θ`` is measured along the drawing in its own direction of travel (so it grows), ``b`` is
    positive for a spiral drawn outward and negative inward, ``angle0`` is the polar angle of the
    start (degrees) and ``direction`` the way it turns. ``r2`` is the fit's coefficient of
    determination, ``turns`` the laps drawn and ``rms`` the root mean square of the fit's
    :meth:`residuals` (all 0 for a model made from named geometry).

    Examples
    --------
    >>> truth = SpiralModel((25, 25), 2.0, 6 / (2 * np.pi), 0.0, "cw")
    >>> m = SpiralModel.from_estimate(truth.predict_xy(np.linspace(0, 6 * np.pi, 300)), (25, 25))
    >>> round(m.spacing, 6), round(m.r2, 6), round(m.turns, 6), m.direction
    (6.0, 1.0, 3.0, 'cw')
    """

    center: Point
    a: float
    b: float
    angle0: float = 0.0
    direction: str = "cw"
    r2: float = 0.0
    turns: float = 0.0
    rms: float = 0.0

    @property
    def spacing(self) -> float:
        """Distance between neighbouring laps, ``2π |b|``."""
        return float(2 * math.pi * abs(self.b))

    @classmethod
    def from_estimate(cls, points: ArrayLike, center: Point, *, min_radius: float = 1.5) -> SpiralModel | FitFailure:
        """Least-squares line through (θ, r), θ unwrapped along the drawing about a known ``center``.

        Points within ``min_radius`` of the center are left out: a cell next to the center has a
        polar angle but no meaningful one.
        """
        pts = as_points(points)
        idx, theta = unwrapped_angles(pts, center, min_radius=min_radius)
        if idx.size < 5:
            return FitFailure("fewer than 5 points away from the center")
        total = float(theta[-1])
        if abs(total) < 1e-9:
            return FitFailure("the points do not turn about the center")
        sign = 1.0 if total > 0 else -1.0
        th = theta * sign
        r = radii_about(pts, center)[idx]
        # a line fit in (θ, r); centring θ keeps it well conditioned for many laps
        dth, dr = th - th.mean(), r - r.mean()
        var = float(np.sum(dth**2))
        if var == 0.0:
            return FitFailure("the points do not turn about the center")
        b = float(np.sum(dth * dr) / var)
        a = float(r.mean() - b * th.mean())
        res = r - (a + b * th)
        sst = float(np.sum(dr**2))
        r2 = 1.0 - float(np.sum(res * res)) / sst if sst > 0 else 0.0
        x0, y0 = pts[idx[0]].tolist()
        return cls(
            center=(float(center[0]), float(center[1])),
            a=a,
            b=b,
            angle0=math.degrees(math.atan2(y0 - float(center[1]), x0 - float(center[0]))) % 360.0,
            direction="cw" if sign > 0 else "ccw",
            r2=r2,
            turns=abs(total) / (2 * math.pi),
            rms=float(np.sqrt(np.mean(res * res))),
        )

    def predict_xy(self, theta: ArrayLike) -> FloatArray:
        """Points after turning ``theta`` radians from the start, shape (len(theta), 2)."""
        th = np.asarray(theta, dtype=float)
        sign = 1.0 if self.direction == "cw" else -1.0
        r = self.a + self.b * th
        phi = math.radians(self.angle0) + sign * th
        return np.column_stack([self.center[0] + r * np.cos(phi), self.center[1] + r * np.sin(phi)])

    def residuals(self, points: ArrayLike, *, min_radius: float = 1.5) -> FloatArray:
        """Radial residual ``r − (a + bθ)`` of the points away from the center, shape (K,)."""
        pts = as_points(points)
        idx, theta = unwrapped_angles(pts, self.center, min_radius=min_radius)
        sign = 1.0 if self.direction == "cw" else -1.0
        r = radii_about(pts, self.center)[idx]
        res: FloatArray = r - (self.a + self.b * theta * sign)
        return res

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True
