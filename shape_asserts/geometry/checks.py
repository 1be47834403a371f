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

from shape_asserts.geometry.points import BoolArray, FloatArray, Point, as_points, roll_rows

__all__ = [
    "Continuity",
    "continuity",
    "out_of_bounds",
    "signed_area",
    "direction",
    "Winding",
    "winding",
    "SECTOR_BOUNDS",
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
    d = np.abs(seq[1:] - seq[:-1])
    steps = np.maximum(d[:, 0], d[:, 1])  # the Chebyshev distance of each step, as ``chebyshev`` takes it
    longest = float(np.maximum.reduce(steps))
    # the indices are looked for only where the extremes say some exist (a NaN step, which both
    # extremes carry, is looked for too): a fair drawing has no gap and no repeat
    return Continuity(
        n_steps=int(steps.size),
        max_step=longest,
        gaps=() if longest <= 1.0 else tuple(np.flatnonzero(steps > 1.0).tolist()),
        repeats=() if np.minimum.reduce(steps) > 0.0 else tuple(np.flatnonzero(steps == 0.0).tolist()),
    )


def out_of_bounds(points: ArrayLike, grid_size: int, *, extremes: tuple[float, float] | None = None) -> tuple[int, ...]:
    """Indices of points outside ``[0, grid_size - 1]`` on either axis.

    ``extremes`` is the least and the largest coordinate (``np.minimum.reduce`` and
    ``np.maximum.reduce`` of the points) when the caller has them already.

    >>> out_of_bounds([[0, 0], [50, 3], [4, -1]], grid_size=50)
    (1, 2)
    """
    pts = as_points(points)
    # the common case in two reductions: every coordinate inside (a NaN, outside neither way, makes
    # both extremes NaN and takes the point-by-point path)
    if pts.size:
        if extremes is None:
            inside = np.minimum.reduce(pts, axis=None) >= 0 and np.maximum.reduce(pts, axis=None) <= grid_size - 1
        else:
            inside = extremes[0] >= 0 and extremes[1] <= grid_size - 1
        if inside:
            return ()
    out = (pts < 0) | (pts > grid_size - 1)
    bad = out[:, 0] | out[:, 1]
    return tuple(np.flatnonzero(bad).tolist()) if bad.any() else ()


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
    # x * roll(y, -1) - roll(x, -1) * y term by term: the pairs of neighbours, then the closing pair
    terms = np.empty(len(c))
    np.subtract(x[:-1] * y[1:], x[1:] * y[:-1], out=terms[:-1])
    terms[-1] = x[-1] * y[0] - x[0] * y[-1]
    return float(0.5 * np.add.reduce(terms))


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


#: No point on the center: what ``winding`` holds where it will not read it.
_NOWHERE: BoolArray = np.zeros(0, dtype=bool)


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


def winding(
    points: ArrayLike,
    center: Point,
    *,
    closed: bool = True,
    coverage: bool = True,
    about: tuple[FloatArray, FloatArray] | None = None,
) -> Winding:
    """Winding number, angular coverage and backtracking of the path about ``center``.

    ``coverage=False`` leaves the coverage out (reported as 0.0) for a caller that does not read it.
    ``about`` is ``(rel, dist)`` when the caller has them: the points less the center, as
    ``np.subtract(points, np.asarray(center, dtype=float), order="C")`` gives them, and their
    distances from it, ``np.hypot`` of those differences (zero only where both are: on the center).

    >>> square = [[0, 0], [2, 0], [2, 2], [0, 2]]
    >>> w = winding(square + square, center=(1, 1))  # the same square drawn twice
    >>> round(w.turns, 6), round(w.coverage, 3), w.backtracks  # four corners see 4 of 12 sectors
    (2.0, 0.333, ())
    """
    pts = as_points(points)
    if len(pts) < 2:
        return Winding(turns=0.0, coverage=0.0, backtracks=())
    if about is None:
        rel = np.subtract(pts, np.asarray(center, dtype=float), order="C")
        # both coordinates zero, in one comparison: each C-ordered row (dx, dy) read as the complex dx + i dy
        at_center = rel.view(np.complex128)[:, 0] == 0
        centered = bool(at_center.any())
    else:
        rel, dist = about
        # any distance zero? The least one says (fmin passes over NaN, which is no zero)
        centered = bool(np.fmin.reduce(dist) == 0)
        at_center = dist == 0 if centered else _NOWHERE  # (read only when centered)
    # angle grows clockwise on screen because y points down
    ang = np.arctan2(rel[:, 1], rel[:, 0])
    if closed:
        d = np.empty_like(ang)  # np.diff(ang, append=ang[:1]), without its concatenation
        np.subtract(ang[1:], ang[:-1], out=d[:-1])
        d[-1] = ang[0] - ang[-1]
    else:
        d = ang[1:] - ang[:-1]
    # each step's shortest signed turn, (d + π) % 2π - π, in place
    d += np.pi
    np.remainder(d, 2 * np.pi, out=d)
    d -= np.pi
    if centered:
        no_angle = (at_center | roll_rows(at_center, -1)) if closed else (at_center[1:] | at_center[:-1])
        d[no_angle] = 0.0  # a point on the center has no angle
    turns = float(np.add.reduce(d) / (2 * np.pi))
    sign = 1.0 if turns >= 0 else -1.0
    # d * sign < -1e-12 anywhere? The extreme says so without the product (NaN: looked for anyway)
    if (np.minimum.reduce(d) >= -1e-12) if sign > 0 else (np.maximum.reduce(d) <= 1e-12):
        backtracks: tuple[int, ...] = ()
    else:
        backtracks = tuple(np.flatnonzero(d * sign < -1e-12).tolist())
    return Winding(
        turns=turns,
        coverage=_coverage(ang[~at_center] if centered else ang) if coverage else 0.0,
        backtracks=backtracks,
    )


#: Where the sector of an ``arctan2`` angle ``a`` (radians, in [-π, π]),
#: ``degrees(a) % 360 // 30 % 12`` as numpy computes it, changes: the smallest angle of each
#: sector after the first, in angle order. ``a < bounds[0]`` is sector 6 ([-180°, -150°)), each
#: next bound starts the next sector (7 … 11, then 0 from just below zero, where ``% 360``
#: rounds up to 360, … 5), and π alone is sector 6 again; the last bound, infinity, leaves NaN
#: past every other. Found by bisection on the floats; ``tests/unit/test_winding_sectors.py``
#: holds each bound and its predecessor against the expression.
SECTOR_BOUNDS = np.array(
    [
        *map(
            float.fromhex,
            (
                "-0x1.4f1a6c638d03fp+1",  # sector 7 (-150°)
                "-0x1.0c152382d7366p+1",  # 8
                "-0x1.921fb54442d1ap+0",  # 9
                "-0x1.0c152382d7367p+0",  # 10
                "-0x1.0c152382d736ap-1",  # 11 (-30°)
                "-0x1.1df46a2529d39p-51",  # 0 (just below zero)
                "0x1.0c152382d7366p-1",  # 1 (30°)
                "0x1.0c152382d7366p+0",  # 2
                "0x1.921fb54442d18p+0",  # 3
                "0x1.0c152382d7366p+1",  # 4
                "0x1.4f1a6c638d03fp+1",  # 5 (150°)
                "0x1.921fb54442d18p+1",  # 6 again: π
            ),
        ),
        np.inf,
    ]
)
SECTOR_BOUNDS.flags.writeable = False


def _coverage(ang: FloatArray) -> float:
    """The share of the 12 sectors of 30° the angles ``ang`` visit.

    Each angle's place among :data:`SECTOR_BOUNDS` names its sector (``np.searchsorted``: one call
    instead of the five of ``degrees(ang) % 360 // 30 % 12``); the places before the first bound
    and at π are both sector 6. A NaN angle (a coordinate that overflowed) takes the expression.
    """
    # (the array's own method: np.searchsorted's Python wrapper calls it)
    counts = np.bincount(SECTOR_BOUNDS.searchsorted(ang, side="right"), minlength=14).tolist()
    if counts[13]:
        sectors = (np.degrees(ang) % 360.0 // 30.0).astype(np.int64) % 12
        return float(np.count_nonzero(np.bincount(sectors, minlength=12)) / 12.0)
    # sector 6 (places 0 and 12), and the places 1..11 that hold some angle (the 11 less the empty)
    visited: int = (counts[0] > 0 or counts[12] > 0) + 11 - counts[1:12].count(0)
    return visited / 12.0
