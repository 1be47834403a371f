"""What every single-contour family shares: its thresholds, its path checks and the outline score.

The ellipse, polygon-like and spiral families (``families/ellipse.py``, ``families/polygon/``,
``families/spiral.py``) ask for one contour in the seed's words (``prompts.contour_prompt``) and
score it with the same path
checks as the circle (gaps, repeats, bounds, start, closure, direction) plus two measures against
the *requested* outline:

* ``outline`` — the headline score, the seed's "mean normalised deviation" taken against the asked
  shape instead of about the centroid, and both ways so that neither drawing only part of the
  shape nor scribbling all round it scores well: ``(1 − (ē(drawing → outline) + ē(outline →
  drawing)) / mean outline radius) × 100`` clipped to [0, 100], where ``ē`` is the mean distance
  beyond half a cell (what rounding to cells costs a perfect drawing) and the outline is sampled
  every cell;
* ``coverage`` — the share of the asked outline (sampled every cell) with a drawn point nearby, so
  a drawing that lies on the outline but skips half of it does not pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import Outline
from shape_asserts.geometry.fit.circle import HARMONIC_ORDERS, radial_harmonics
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.score import fmt_fixed
from shape_asserts.geometry.scorecard import Scorecard

__all__ = [
    "PathThresholds",
    "LoopThresholds",
    "ContourThresholds",
    "ClosedThresholds",
    "CELL_SLACK",
    "HALF_DIAGONAL",
    "outline_measures",
    "outline_of",
    "prepared",
    "path_checks",
    "loop_checks",
    "NEAR_BASE",
    "NEAR_PER_CELL",
    "NEAR_MOST",
    "COVER_TOLERANCE",
    "near_tolerance",
    "revisits",
    "exact_checks",
    "harmonics_check",
]


@dataclass(frozen=True)
class PathThresholds:
    """Limits every drawn contour is held to, the circle's included. Distances are in grid cells."""

    #: Steps longer than one cell in 8-connectivity (undrawn jumps). Ideal: 0.
    max_gaps: int = 0
    #: Consecutive repeated points. Ideal: 0.
    max_repeats: int = 0
    #: Chebyshev distance of the first point from the requested start.
    max_start_distance: float = 1.0


@dataclass(frozen=True)
class LoopThresholds(PathThresholds):
    """Limits of a closed contour drawn round a center, on top of :class:`PathThresholds`."""

    #: Chebyshev distance from the last point back to the first (1 = adjacent, closed).
    max_closure: float = 1.0
    #: Laps about the shape's center in the requested direction (one lap = 1.0).
    min_turns: float = 0.9
    max_turns: float = 1.1


@dataclass(frozen=True)
class ContourThresholds(PathThresholds):
    """Limits every single-contour family asked by its outline shares, on top of :class:`PathThresholds`."""

    #: Headline outline score (0–100) about the asked outline.
    min_outline: float = 90.0
    #: Share of the asked outline (sampled every cell) with a drawn point within ``coverage_radius``.
    min_coverage: float = 0.9
    coverage_radius: float = 1.5


@dataclass(frozen=True)
class ClosedThresholds(ContourThresholds, LoopThresholds):
    """Limits of a closed outline: :class:`ContourThresholds` and :class:`LoopThresholds` together."""


#: Distance to the asked outline that the headline forgives: a cell's center may lie half a cell off.
CELL_SLACK = 0.5

# --- the exact shape's tolerances (issue 29) ------------------------------------------------------
#
# Every fair way to put a curve on the grid draws cells whose centres lie near it, whatever the
# method: a cell the curve passes through has its centre within half a cell diagonal (0.71) of it
# (supercover, rounding, thinning, the circle and ellipse algorithms: measured up to 0.76, the
# outline of a digital disk). A person who plots points every 10° or 15° and joins them by straight
# runs of cells strays further once the runs are longer than a cell or two: each run lies within
# half a cell of the line between two rounded points, which itself lies within 0.71 of the curve
# (bound 1.21 plus the chord's bow). Measured over every radius 3–24, whole or not: 0.87 at radius
# 5.9, 1.08 at 8.7, at most 1.20 from radius 11 on (tests/validity/test_exact_round.py draws them).
#: Half a cell's diagonal: how far the centre of a cell the curve passes through can lie from it.
HALF_DIAGONAL = math.sqrt(2) / 2
#: The stray every fair drawing is allowed at any size, cells: a little over half a diagonal.
NEAR_BASE = 0.8
#: Up to this size a curve's keypoints lie a cell or two apart, so straight runs between them add
#: nothing: every fair method keeps within half a diagonal and a little (measured 0.67 at radius 3.5)...
NEAR_FROM = 4.0
#: ... past it, what straight runs between keypoints add per cell of the curve's size (radius,
#: major semi-axis)...
NEAR_PER_CELL = 0.07
#: ... up to this stray, from a size of 10.5 on: half a cell of line rounding beyond the half diagonal.
NEAR_MOST = 1.25
#: How far a point of the asked curve may lie from the nearest drawn cell: a curve point lies in a
#: cell the curve passes through; a fair 8-connected drawing that cut that corner cell has its two
#: neighbours, the farthest point of the corner cell 1.58 from the nearer; the measured worst of
#: every fair method is 1.30. A chord that cuts off a part of the curve misses it by more.
COVER_TOLERANCE = 1.5


def near_tolerance(size: float) -> float:
    """How far (cells) a fair drawing's cells may lie from an exact curve of ``size`` (radius or
    major semi-axis): 0.8 up to radius 4, 0.94 at 6, 1.25 from radius 10.5 on. A spike or a tab
    two cells high lies beyond it at every size; a diamond of radius 4 for a circle of radius 3
    (1.0 off) too, and a pentagon with its corners on a circle of radius 6 (1.0 off)."""
    return min(NEAR_MOST, NEAR_BASE + NEAR_PER_CELL * max(0.0, size - NEAR_FROM))


def revisits(pts: FloatArray) -> tuple[int, ...]:
    """The indices of points that come back to a cell drawn earlier, but not just before (an
    out-and-back: a spike, a retraced stretch); the start repeated at the very end is a closed
    contour, not a revisit."""
    cells = np.rint(pts).astype(np.int64)
    n = len(cells)
    if n > 1 and (cells[-1] == cells[0]).all():
        n -= 1
    seen: set[tuple[int, int]] = set()
    out = []
    for i in range(n):
        cell = (int(cells[i, 0]), int(cells[i, 1]))
        if cell in seen and not (i > 0 and (cells[i] == cells[i - 1]).all()):
            out.append(i)
        seen.add(cell)
    return tuple(out)


def exact_checks(card: Scorecard, pts: FloatArray, *, stray: FloatArray, miss: FloatArray, size: float) -> None:
    """Add ``near``, ``covered`` and ``simple``: the drawing against the exact asked curve.

    ``stray`` is each point's distance from the curve, ``miss`` each of the curve's samples'
    distance to the nearest point, ``size`` the curve's radius (or major semi-axis) for
    :func:`near_tolerance`. ``near`` catches spikes, tabs and detours; ``covered`` cut chords and
    missing parts; ``simple`` a contour that goes out and comes back over its own cells.
    """
    limit = near_tolerance(size)
    worst = float(np.max(stray)) if len(stray) else math.inf
    far = tuple(int(i) for i in np.flatnonzero(stray > limit)[:12])
    card.metrics["max_stray"] = worst
    card.add(
        "near",
        worst <= limit,
        worst,
        f"≤ {limit:.3g}",
        f"{np.count_nonzero(stray > limit)} point(s) farther than {limit:.3g} cells from the asked curve",
        far,
    )
    lost = float(np.max(miss)) if len(miss) else math.inf
    card.metrics["max_miss"] = lost
    card.add(
        "covered",
        lost <= COVER_TOLERANCE,
        lost,
        f"≤ {COVER_TOLERANCE:g}",
        f"a part of the asked curve lies {lost:.1f} cells from every drawn point",
    )
    again = revisits(pts)
    card.add("simple", not again, len(again), "≤ 0", "the path comes back over cells it drew before", again)


def _mean_beyond(values: FloatArray, slack: float) -> float:
    """The mean of how far ``values`` exceed ``slack`` (0 where they do not)."""
    return float(np.mean(np.maximum(0.0, values - slack)))


#: Prepared outlines by what they were made from; cleared when it grows past :data:`_KEEP`.
_PREPARED: dict[tuple[object, ...], Outline] = {}
_KEEP = 256


def prepared(make: Callable[..., FloatArray], args: tuple[object, ...], *, closed: bool, center: Point) -> Outline:
    """``Outline(make(*args), closed=closed, center=center)``, built once per distinct asked shape.

    Keyed by the ``repr`` of the arguments, so that ``25`` and ``25.0`` (equal, but not
    necessarily the same floats downstream) are never taken for each other.
    """
    key = (make, repr(args), closed, repr(center))
    out = _PREPARED.get(key)
    if out is None:
        if len(_PREPARED) >= _KEEP:
            _PREPARED.clear()
        out = _PREPARED[key] = Outline(make(*args), closed=closed, center=center)
    return out


def _vertices(raw: bytes, k: int) -> FloatArray:
    out: FloatArray = np.frombuffer(raw, dtype=np.float64).reshape(k, 2).copy()
    return out


def outline_of(vertices: ArrayLike, *, closed: bool, center: Point) -> Outline:
    """The prepared outline through ``vertices`` (once per distinct polygon: keyed by their bytes)."""
    v = np.ascontiguousarray(as_points(vertices), dtype=np.float64)
    return prepared(_vertices, (v.tobytes(), len(v)), closed=closed, center=(float(center[0]), float(center[1])))


def outline_measures(card: Scorecard, pts: FloatArray, outline: Outline, *, t: ContourThresholds) -> float:
    """Add the ``outline`` and ``coverage`` checks against the asked ``outline`` (prepared once per
    case: :func:`prepared`, :func:`outline_of`); return the outline score (the headline)."""
    ref, scale = outline.ref, outline.scale
    if len(pts) and scale > 0:
        # each sample's nearest point, each point's distance
        near_sq, dist = outline.nearest_sq(pts), outline.distance(pts)
        near = np.sqrt(near_sq)
        off, miss = float(np.mean(dist)), float(np.mean(near))
        # only what lies beyond half a cell counts: rounding to cells costs a perfect drawing that much
        excess = _mean_beyond(dist, CELL_SLACK) + _mean_beyond(near, CELL_SLACK)
        score = float(min(100.0, max(0.0, (1.0 - excess / scale) * 100.0)))
        # the farthest points, when any lies beyond two cells
        far = tuple(int(i) for i in np.argsort(-dist, kind="stable")[:12] if dist[i] > 2.0)
    else:
        near = np.sqrt(outline.nearest_sq(pts)) if len(pts) else np.full(len(ref), np.inf)
        off, miss, score, far = float("inf"), float("inf"), 0.0, ()
    card.metrics.update(outline=score, mean_outline_distance=off, mean_miss_distance=miss)
    close = score >= t.min_outline
    card.add(
        "outline",
        close,
        score,
        f"≥ {t.min_outline:g}",
        ""  # the details are written only when the check fails (a passing check keeps none)
        if close
        else f"points are {off:.1f} cells from the asked outline on average, which is {miss:.1f} cells from the "
        "drawing",
        far,
    )
    # the share of the outline's samples within reach
    cov = float(np.mean(near <= t.coverage_radius)) if len(ref) else 0.0
    card.metrics["coverage"] = cov
    covered = cov >= t.min_coverage
    card.add(
        "coverage",
        covered,
        cov,
        f"≥ {t.min_coverage:g}",
        ""
        if covered
        else f"{np.count_nonzero(near > t.coverage_radius)} of {len(ref)} outline cells have no point within "
        f"{t.coverage_radius:g}",
    )
    return score


def path_checks(card: Scorecard, pts: FloatArray, *, grid_size: int, start: Point | None, t: PathThresholds) -> None:
    """Add ``gaps``, ``repeats``, ``bounds`` and ``start`` (when one was asked), as the circle has them."""
    card.metrics["n_points"] = len(pts)
    card.continuity(pts, max_gaps=t.max_gaps, max_repeats=t.max_repeats)
    card.bounds(pts, grid_size)
    if start is not None:
        card.endpoint(pts, start, t.max_start_distance)


def loop_checks(card: Scorecard, pts: FloatArray, *, center: Point, direction: str | None, t: LoopThresholds) -> None:
    """Add ``closure``, ``direction`` and ``winding`` for a closed contour about ``center``."""
    card.closure(pts, t.max_closure)
    # (the sectors' coverage is the circle's check alone: not measured here)
    card.turning(pts, center=center, direction=direction, min_turns=t.min_turns, max_turns=t.max_turns, coverage=False)


def judged_harmonics(angles: FloatArray, residual: FloatArray, size: float) -> dict[int, float]:
    """The amplitude (cells) of each order of a closed contour's radial ``residual`` that
    :func:`harmonics_check` judges, by order: from 2 up to π·``size`` (at least the first)."""
    amps = radial_harmonics(angles, residual, HARMONIC_ORDERS).tolist()
    # past order π·size the crests lie under two cells apart, finer than the grid draws: not judged
    amps = amps[: max(1, min(len(amps), math.floor(math.pi * max(size, 1.0)) - HARMONIC_ORDERS[0] + 1))]
    return dict(zip(range(HARMONIC_ORDERS[0], HARMONIC_ORDERS[0] + len(amps)), amps))


def harmonics_check(
    card: Scorecard, angles: FloatArray, residual: FloatArray, size: float, cap: Callable[[int], float]
) -> float:
    """Add ``harmonics``: the largest wave of a closed contour's radial ``residual`` (at ``angles``)
    as a share of its order's limit ``cap(order)``; return that share.

    ``size`` (the fitted radius, or an ellipse's minor semi-axis) bounds the orders judged.
    """
    size = max(size, 1.0)
    judged = judged_harmonics(angles, residual, size)
    orders, amps = list(judged), list(judged.values())
    caps = [cap(k) for k in orders]
    shares = [amp / c for amp, c in zip(amps, caps)]
    i = int(np.argmax(shares))
    worst, order = float(shares[i]), orders[i]
    shape = {2: "an oval", 3: "a triangle", 4: "a square or diamond"}.get(order, f"a {order}-sided polygon")
    card.add(
        "harmonics",
        worst <= 1.0,
        round(worst, 4),
        "≤ 1 of the limit",
        f"the radius swings {fmt_fixed(amps[i])} cells {order} times round (limit {fmt_fixed(caps[i])} at this "
        f"size), like {shape}",
    )
    return worst
