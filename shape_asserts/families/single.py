"""What every single-contour family shares: the prompt template, the common checks, the outline score.

The ellipse, polygon-like and spiral families (``families/ellipse.py``, ``families/polygon.py``,
``families/spiral.py``) ask for one contour in the seed's words and score it with the same path
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

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from shape_asserts.geometry import checks as ck
from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.polygon import distance_to_polyline, sample_polyline
from shape_asserts.families.prompts import contour_prompt, fmt_xy
from shape_asserts.geometry.score import Check, ShapeScore

__all__ = [
    "ContourThresholds",
    "ClosedThresholds",
    "Scorecard",
    "contour_prompt",
    "nearest_distance",
    "outline_measures",
    "path_checks",
    "closed_checks",
    "int_param",
    "fits_grid",
    "fmt_xy",
]


@dataclass(frozen=True)
class ContourThresholds:
    """Limits every single-contour family shares. Distances are in grid cells."""

    #: Headline outline score (0–100) about the asked outline.
    min_outline: float = 90.0
    #: Steps longer than one cell in 8-connectivity (undrawn jumps). Ideal: 0.
    max_gaps: int = 0
    #: Consecutive repeated points. Ideal: 0.
    max_repeats: int = 0
    #: Chebyshev distance of the first point from the requested start.
    max_start_distance: float = 1.0
    #: Share of the asked outline (sampled every cell) with a drawn point within ``coverage_radius``.
    min_coverage: float = 0.9
    coverage_radius: float = 1.5


@dataclass(frozen=True)
class ClosedThresholds(ContourThresholds):
    """Limits of a closed contour, on top of :class:`ContourThresholds`."""

    #: Chebyshev distance from the last point back to the first (1 = adjacent, closed).
    max_closure: float = 1.0
    #: Laps about the shape's center in the requested direction (one lap = 1.0).
    min_turns: float = 0.9
    max_turns: float = 1.1


#: Distance to the asked outline that the headline forgives: a cell's center may lie half a cell off.
CELL_SLACK = 0.5


class Scorecard:
    """Checks, metrics and marks collected while scoring, turned into a :class:`ShapeScore`."""

    def __init__(self) -> None:
        self.checks: list[Check] = []
        self.metrics: dict[str, Any] = {}
        self.marks: dict[str, tuple[int, ...]] = {}

    def add(self, name: str, passed: bool, value: Any, limit: str, detail: str = "",
            indices: tuple[int, ...] = (), margin: float | None = None) -> None:
        self.checks.append(Check(name, bool(passed), value, limit, detail if not passed else "", tuple(indices),
                                 margin))

    def result(self, family: str, score: float) -> ShapeScore:
        return ShapeScore(family=family, score=float(score), metrics=dict(self.metrics),
                          checks=tuple(self.checks), marks=dict(self.marks))


# --- parameters ------------------------------------------------------------------------------------


def int_param(params: Mapping[str, Any], key: str, *, minimum: int, maximum: int,
              default: int | None = None) -> int:
    """``params[key]`` as an integer in ``[minimum, maximum]``."""
    v = params.get(key, default)
    if v is None:
        raise CaseError(f"'{key}' is required, an integer from {minimum} to {maximum}")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or float(v) != int(v):
        raise CaseError(f"'{key}' must be an integer, got {v!r}")
    if not minimum <= int(v) <= maximum:
        raise CaseError(f"'{key}' must be from {minimum} to {maximum}, got {v!r}")
    return int(v)


def fits_grid(points: np.ndarray, grid_size: int, what: str) -> None:
    """CaseError unless every point of the asked shape lies on the grid."""
    pts = np.asarray(points, dtype=float)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if lo.min() < -0.5 or hi.max() > grid_size - 0.5:
        raise CaseError(
            f"{what} does not fit the {grid_size}×{grid_size} grid: it spans x {lo[0]:.1f}..{hi[0]:.1f}, "
            f"y {lo[1]:.1f}..{hi[1]:.1f}; make it smaller or move its center"
        )


# --- measures --------------------------------------------------------------------------------------


def nearest_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each row of ``a`` (M, 2) to the nearest row of ``b`` (N, 2), shape (M,)."""
    a = ck.as_points(a)
    b = ck.as_points(b)
    if len(b) == 0:
        return np.full(len(a), np.inf)
    chunk = max(1, 1_000_000 // len(b))  # rows of ``a`` per block: about 16 MB of differences
    out = []
    for i in range(0, len(a), chunk):
        d = a[i:i + chunk, None, :] - b[None, :, :]
        out.append(np.sqrt(np.min(np.sum(d * d, axis=2), axis=1)))
    return np.concatenate(out) if out else np.zeros(0)


def outline_measures(card: Scorecard, pts: np.ndarray, outline: np.ndarray, *, closed: bool,
                     center: tuple[float, float], t: ContourThresholds) -> float:
    """Add the ``outline`` and ``coverage`` checks; return the outline score (the headline).

    ``outline`` is the asked shape as a polyline (a curve sampled densely enough that its chords
    stay within a tenth of a cell of it).
    """
    ref = sample_polyline(outline, closed=closed, step=1.0)
    scale = float(np.mean(np.hypot(ref[:, 0] - center[0], ref[:, 1] - center[1])))
    near = nearest_distance(ref, pts) if len(pts) else np.full(len(ref), np.inf)
    if len(pts) and scale > 0:
        dist = distance_to_polyline(pts, outline, closed=closed)
        off, miss = float(dist.mean()), float(near.mean())
        # only what lies beyond half a cell counts: rounding to cells costs a perfect drawing that much
        excess = float(np.mean(np.maximum(0.0, dist - CELL_SLACK)) + np.mean(np.maximum(0.0, near - CELL_SLACK)))
        score = float(min(100.0, max(0.0, (1.0 - excess / scale) * 100.0)))
        far = tuple(int(i) for i in np.argsort(-dist, kind="stable")[:12] if dist[i] > 2.0)
    else:
        off, miss, score, far = float("inf"), float("inf"), 0.0, ()
    card.metrics.update(outline=score, mean_outline_distance=off, mean_miss_distance=miss)
    card.add("outline", score >= t.min_outline, score, f"≥ {t.min_outline:g}",
             f"points are {off:.1f} cells from the asked outline on average, which is {miss:.1f} cells "
             "from the drawing", far)
    cov = float(np.mean(near <= t.coverage_radius)) if len(ref) else 0.0
    card.metrics["coverage"] = cov
    card.add("coverage", cov >= t.min_coverage, cov, f"≥ {t.min_coverage:g}",
             f"{int(np.sum(near > t.coverage_radius))} of {len(ref)} outline cells have no point within "
             f"{t.coverage_radius:g}")
    return score


def path_checks(card: Scorecard, pts: np.ndarray, *, grid_size: int, start: tuple[float, float] | None,
                t: ContourThresholds) -> None:
    """Add ``gaps``, ``repeats``, ``bounds`` and ``start`` (as the circle scores them)."""
    n = len(pts)
    card.metrics["n_points"] = n
    cont = ck.continuity(pts)
    card.metrics.update(gaps=len(cont.gaps), repeats=len(cont.repeats), max_step=cont.max_step)
    card.add("gaps", len(cont.gaps) <= t.max_gaps, len(cont.gaps), f"≤ {t.max_gaps}",
             f"largest step {cont.max_step:g} cells", cont.gaps)
    card.add("repeats", len(cont.repeats) <= t.max_repeats, len(cont.repeats), f"≤ {t.max_repeats}",
             "consecutive identical points", cont.repeats)
    oob = ck.out_of_bounds(pts, grid_size)
    card.add("bounds", not oob, len(oob), "0 outside", f"outside 0..{grid_size - 1}", oob)
    card.marks.update(gaps=cont.gaps, repeats=cont.repeats, outside=oob)
    if start is not None:
        sd = float(ck.chebyshev(pts[0], np.asarray(start, float))) if n else float("inf")
        card.metrics["start_distance"] = sd
        first = f"first point is {fmt_xy(tuple(pts[0]))}" if n else "no points"
        card.add("start", sd <= t.max_start_distance, sd, f"≤ {t.max_start_distance:g}",
                 f"{first}, asked {fmt_xy(start)}")


def closed_checks(card: Scorecard, pts: np.ndarray, *, center: tuple[float, float], direction: str | None,
                  t: ClosedThresholds) -> None:
    """Add ``closure``, ``direction`` and ``winding`` for a closed contour about ``center``."""
    closing = ck.closure_distance(pts)
    card.metrics["closure_distance"] = closing
    card.add("closure", closing <= t.max_closure, closing, f"≤ {t.max_closure:g}",
             "last point is not next to the first")
    drawn = ck.direction(pts)
    wind = ck.winding(pts, center)
    card.metrics.update(direction=drawn or "none", turns=wind.turns)
    if direction is not None:
        card.add("direction", drawn == direction, drawn or "none", direction,
                 "drawn the other way round" if drawn else "the contour encloses no area")
        signed = wind.turns if direction == "cw" else -wind.turns
    else:
        signed = abs(wind.turns)
    card.add("winding", t.min_turns <= signed <= t.max_turns, round(signed, 3),
             f"{t.min_turns:g}..{t.max_turns:g} laps",
             "travels the wrong way round the center" if signed < 0 else f"goes round {signed:.2f} times",
             wind.backtracks if not (t.min_turns <= signed <= t.max_turns) else ())
