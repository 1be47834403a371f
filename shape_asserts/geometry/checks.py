"""Measures of a drawn path: continuity, bounds, area, direction and winding (pure numpy, no I/O).

Every function takes an ``(N, 2)`` array of ``(x, y)`` grid points in drawing order (y down, as on
screen) and returns plain numbers or a frozen result object. Indices in results are 0-based
positions in that array. The checks families report are built from these by
:class:`shape_asserts.geometry.scorecard.Scorecard`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray, Point, as_points

__all__ = [
    "Continuity",
    "continuity",
    "out_of_bounds",
    "signed_area",
    "direction",
    "Winding",
    "winding",
]


@dataclass(frozen=True)
class Continuity:
    """Steps between consecutive points, measured in 8-connectivity (Chebyshev distance).

    ``gaps`` are indices ``i`` where the step from point ``i`` to ``i + 1`` is longer than 1 (a
    jump the pen did not draw); ``repeats`` are indices ``i`` where point ``i + 1`` equals point
    ``i``. With ``closed=True`` the closing step from the last point to the first counts too
    (index ``N - 1``).
    """

    n_steps: int
    max_step: float
    gaps: tuple[int, ...]
    repeats: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return not self.gaps and not self.repeats


def continuity(points: ArrayLike, *, closed: bool = False) -> Continuity:
    """Gaps and repeated points along the drawing; see :class:`Continuity`.

    Examples
    --------
    >>> continuity(np.array([[0, 0], [1, 1], [1, 1], [4, 1]])).gaps
    (2,)
    """
    pts = as_points(points)
    if len(pts) < 2:
        return Continuity(n_steps=0, max_step=0.0, gaps=(), repeats=())
    seq = np.vstack([pts, pts[:1]]) if closed else pts
    steps = np.abs(np.diff(seq, axis=0)).max(axis=1)  # the Chebyshev length of each step
    return Continuity(
        n_steps=int(steps.size),
        max_step=float(steps.max()),
        gaps=tuple(np.flatnonzero(steps > 1.0).tolist()),
        repeats=tuple(np.flatnonzero(steps == 0.0).tolist()),
    )


def out_of_bounds(points: ArrayLike, grid_size: int) -> tuple[int, ...]:
    """Indices of points outside ``[0, grid_size - 1]`` on either axis.

    >>> out_of_bounds([[0, 0], [50, 3], [4, -1]], grid_size=50)
    (1, 2)
    """
    pts = as_points(points)
    outside = ((pts < 0) | (pts > grid_size - 1)).any(axis=1)
    return tuple(np.flatnonzero(outside).tolist())


def signed_area(points: ArrayLike) -> float:
    """Shoelace area of the closed polygon, positive when it runs clockwise *on screen*.

    In grid coordinates y points down, which mirrors the plane: the textbook shoelace sum, positive
    for counter-clockwise with y up, is positive for clockwise as seen on screen.

    >>> signed_area([[0, 0], [4, 0], [4, 3]])  # right, then down: clockwise on screen
    6.0
    """
    pts = as_points(points)
    if len(pts) < 3:
        return 0.0
    # shift to the first point, not the mean: keeps the products small, and unlike the mean
    # (sum / n, rounded) the shift is exact for grid points, so their area is exact too
    c = pts - pts[0]
    x, y = c[:, 0], c[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def direction(points: ArrayLike) -> str | None:
    """``"cw"`` or ``"ccw"`` as seen on screen (y down), ``None`` when the area is zero.

    >>> direction([[0, 0], [4, 0], [4, 3]]), direction([[4, 3], [4, 0], [0, 0]]), direction([[0, 0], [1, 1]])
    ('cw', 'ccw', None)
    """
    a = signed_area(points)
    if a > 0:
        return "cw"
    if a < 0:
        return "ccw"
    return None


@dataclass(frozen=True)
class Winding:
    """How the drawing travels around a center.

    ``turns`` is the signed winding number of the closed path (positive = clockwise on screen,
    1.0 for one clean lap); ``coverage`` the share of the 12 sectors of 30° the points visit;
    ``backtracks`` the indices ``i`` whose step to ``i + 1`` turns against the overall direction.
    """

    turns: float
    coverage: float
    backtracks: tuple[int, ...]


def winding(points: ArrayLike, center: Point, *, closed: bool = True, coverage: bool = True) -> Winding:
    """Winding number, angular coverage and backtracking of the path about ``center``.

    ``coverage=False`` leaves the coverage out (reported as 0.0) for a caller that does not read it.

    >>> square = [[0, 0], [2, 0], [2, 2], [0, 2]]
    >>> w = winding(square + square, center=(1, 1))  # the same square drawn twice
    >>> round(w.turns, 6), round(w.coverage, 3), w.backtracks  # four corners see 4 of 12 sectors
    (2.0, 0.333, ())
    """
    pts = as_points(points)
    if len(pts) < 2:
        return Winding(turns=0.0, coverage=0.0, backtracks=())
    rel = pts - np.asarray(center, dtype=float)
    at_center = (rel == 0).all(axis=1)
    # angle grows clockwise on screen because y points down
    ang = np.arctan2(rel[:, 1], rel[:, 0])
    d = np.diff(ang, append=ang[:1]) if closed else np.diff(ang)
    d = (d + np.pi) % (2 * np.pi) - np.pi  # each step's shortest signed turn
    # a point on the center has no angle: the steps to and from it do not turn
    no_angle = (at_center | np.roll(at_center, -1)) if closed else (at_center[1:] | at_center[:-1])
    d[no_angle] = 0.0
    turns = float(np.sum(d) / (2 * np.pi))
    sign = 1.0 if turns >= 0 else -1.0
    return Winding(
        turns=turns,
        coverage=_coverage(ang[~at_center]) if coverage else 0.0,
        backtracks=tuple(np.flatnonzero(d * sign < -1e-12).tolist()),
    )


def _coverage(ang: FloatArray) -> float:
    """The share of the 12 sectors of 30° the angles ``ang`` (radians) visit."""
    sectors = (np.degrees(ang) % 360.0 // 30.0).astype(np.int64) % 12
    return float(np.count_nonzero(np.bincount(sectors, minlength=12)) / 12.0)
