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

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import Outline
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.scorecard import Scorecard

__all__ = [
    "PathThresholds",
    "LoopThresholds",
    "ContourThresholds",
    "ClosedThresholds",
    "CELL_SLACK",
    "outline_measures",
    "outline_of",
    "prepared",
    "path_checks",
    "loop_checks",
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
