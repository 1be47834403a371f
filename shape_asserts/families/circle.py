"""The circle: the seed post's shape, its verbatim prompts, its thresholds and its scorer.

The headline score is the seed post's ``scoreCircle`` (:mod:`shape_asserts.geometry.seed`), kept for
comparability with the post; the checks around it close each of its blind spots (reversed,
shuffled, off-center, two-lap, four-point, duplicate-padded drawings: ``bench/calibrate.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import (
    CaseLike,
    Family,
    direction_param,
    inside_grid,
    pair_param,
    with_overrides,
)
from shape_asserts.families.prompts import SEED_CIRCLE_PROMPTS, circle_prompt
from shape_asserts.families.single import LoopThresholds, exact_checks, harmonics_check
from shape_asserts.geometry.distances import nearest_sq
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit import CircleModel, FitFailure
from shape_asserts.geometry.fit.circle import rms_of, roundness
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore, fmt_fixed, fmt_point
from shape_asserts.geometry.scorecard import Scorecard
from shape_asserts.geometry.seed import seed_score

__all__ = [
    "CircleThresholds",
    "CIRCLE",
    "FAMILY",
    "FAMILIES",
    "score_circle",
    "circle_radius",
    "asked_radius",
    "asked_radii",
    "harmonic_limit",
]

#: How far the exact point a start cell stands for may lie from its centre: half a cell diagonal.
_START_ROUNDING = math.sqrt(2) / 2


#: The least radius a case may ask: a circle of radius 3 is a ring of 16 to 20 cells; under it the
#: grid leaves too few to tell a circle from a square or a diamond (radius 2: 8 to 12 cells).
LEAST_RADIUS = 3
TOO_SMALL = "a smaller circle has too few cells to be told from a square or a diamond"


@dataclass(frozen=True)
class CircleThresholds(LoopThresholds):
    """Limits for one circle drawing, on top of the path and loop limits. Distances are in grid cells."""

    #: Seed score (the post's metric, about the centroid). Ideal rasters r=5..24 score ≥ 96.89 (r=6).
    min_seed_score: float = 85.0
    #: Roundness on the seed's scale about the *fitted* center. Ideal rasters: ≥ 96.89 (r=6).
    min_roundness: float = 85.0
    #: Largest harmonic (orders 2–16) of the radial residual about the fitted circle, in cells, at
    #: fitted radius R, each ``a + b / R``: order 4 (the grid's own wave: rounding a circle to cells
    #: puts its axes and its diagonals at different distances, up to about half a cell apart,
    #: whatever the radius and the method), its overtones 8, 12 and 16, and the other orders, where a
    #: fair drawing has only rounding noise. Each limit sits about a tenth above the widest wave the
    #: fair methods of ``tests/catalogue/rasters.py`` reach (``bench/harmonic_envelope.py``: every
    #: whole radius 3–24 and every start of a quadrant; the widest are points every 15° joined by
    #: straight cells: 0.61 at order 4 on radius 8, 0.34 at order 7 on radius 13.6 and at order 8 on
    #: radius 18.4). A polygon whose sides bow much over half a cell goes past its order's limit
    #: (``tests/validity/test_exact_round.py``); a wave within the grid's own is left to ``near``.
    grid_wave_limits: tuple[float, float] = (0.45, 1.8)
    overtone_limits: tuple[float, float] = (0.33, 0.75)
    other_limits: tuple[float, float] = (0.3, 1.0)
    #: Roundness about the *requested* center. Ideal rasters: ≥ 96.89 (same center).
    min_roundness_requested: float = 85.0
    #: Share of the 12 sectors of 30° the points visit.
    min_coverage: float = 1.0
    #: Distance of the fitted center from the requested one.
    max_center_offset: float = 1.5
    #: Smallest acceptable fitted radius (a dot is not a circle): the least radius a case may ask
    #: (:data:`LEAST_RADIUS`) less ``max_radius_error``, the grid's tolerance on it (a fair ring of radius 3, points
    #: every 1.4 cells rounded, fits 2.99; at 3.0 it failed).
    min_radius: float = 2.4
    #: Largest difference between the fitted radius and the one asked for (or implied by the start
    #: point about the center), cells: a fair raster fits within a few tenths, the next size is 1 off.
    max_radius_error: float = 0.6


CIRCLE = CircleThresholds()


def score_circle(
    points: ArrayLike,
    *,
    center: Point,
    grid_size: int = 50,
    start: Point | None = None,
    direction: str | None = None,
    data: Any = None,
    radius: float | None = None,
    thresholds: CircleThresholds = CIRCLE,
    fit: CircleModel | FitFailure | None = None,
    bounds: bool = True,
    radii: tuple[float, float] | None = None,
) -> ShapeScore:
    """Measure a circle drawing against what was asked.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        The drawing, in answer order.
    center : (float, float)
        The requested center.
    grid_size : int
        Grid side; points must lie in ``[0, grid_size - 1]``.
    start : (float, float), optional
        Requested first point; unchecked when ``None``.
    direction : {"cw", "ccw"}, optional
        Requested direction as seen on screen; unchecked when ``None``.
    data : Any, optional
        The decoded answer JSON for the seed score (default: built from ``points``).
    radius : float, optional
        The radius asked for, or implied by the start; the fitted one is held to it (``size``).
    thresholds : CircleThresholds
    fit : CircleModel, optional
        ``CircleModel.from_estimate(points)`` when the caller has fitted it already.
    bounds : bool
        Whether to add the ``bounds`` check (every point on the grid). A caller that checks the
        whole drawing's bounds itself and drops this one (the multi-circle scorer) passes ``False``;
        nothing else depends on it.
    radii : (float, float), optional
        The radii the asked circle may have, for ``near`` and ``covered`` (default:
        :func:`asked_radii` of ``radius`` and ``start``).

    Returns
    -------
    ShapeScore
        ``score`` is the seed score, kept as the headline for comparability with the post.
    """
    t = thresholds
    pts = as_points(points)
    n = len(pts)
    seed = _seed_of(pts, data)
    card = Scorecard()
    card.metrics.update(n_points=n, seed_score=seed)
    card.add("seed_score", seed >= t.min_seed_score, seed, f"≥ {t.min_seed_score:g}")
    _path_checks(card, pts, t, center=center, grid_size=grid_size if bounds else None, start=start, direction=direction)
    model = (fit if fit is not None else CircleModel.from_estimate(pts)) if n >= 3 else None
    if model:
        _fit_checks(card, pts, model, center=center, radius=radius, t=t)
    else:
        card.metrics["roundness"] = 0.0
        card.add("fit", False, "failed", "a circle fits", model.reason if model is not None else "fewer than 3 points")
    lo, hi = radii if radii is not None else asked_radii(center, radius, start)
    _exact_checks(card, pts, center, lo, hi)
    rr = roundness(pts, center)
    card.metrics["roundness_requested"] = rr
    card.add(
        "roundness_requested",
        rr >= t.min_roundness_requested,
        rr,
        f"≥ {t.min_roundness_requested:g}",
        note="about the requested center",
    )
    return card.result("circle", seed)


def _path_checks(
    card: Scorecard,
    pts: FloatArray,
    t: CircleThresholds,
    *,
    center: Point,
    grid_size: int | None,
    start: Point | None,
    direction: str | None,
) -> None:
    """The path's own checks: no gaps or repeats, closed, on the grid (unless ``grid_size`` is
    None), from the asked start, round the center once the asked way, no empty sector."""
    card.continuity(pts, max_gaps=t.max_gaps, max_repeats=t.max_repeats)
    card.closure(pts, t.max_closure)
    if grid_size is not None:
        card.bounds(pts, grid_size)
    if start is not None:
        card.endpoint(pts, start, t.max_start_distance)
    wind = card.turning(pts, center=center, direction=direction, min_turns=t.min_turns, max_turns=t.max_turns)
    card.metrics["coverage"] = wind.coverage
    card.add(
        "coverage",
        wind.coverage >= t.min_coverage,
        wind.coverage,
        f"≥ {t.min_coverage:g}",
        "the points leave a 30° sector about the center empty",
    )


def asked_radii(center: Point, radius: float | None, start: Point | None) -> tuple[float, float]:
    """The radii the asked circle may have, least and greatest: the one asked for, or any between it
    and the start's distance (a circle through the start); without a radius, the start's distance
    give or take half a cell diagonal (the start is a cell: the exact point it stands for lies
    within that); with neither, any."""
    if start is None:
        return (radius, radius) if radius is not None else (0.0, math.inf)
    d = math.hypot(start[0] - center[0], start[1] - center[1])
    if radius is not None:
        return (min(radius, d), max(radius, d))
    return (max(0.0, d - _START_ROUNDING), d + _START_ROUNDING)


#: Cells round the largest circle a grid of ``MAX_GRID_SIZE`` (1,000) cells holds: 2π · 1,000.
_MOST_RING_CELLS = 6_284


def _exact_checks(card: Scorecard, pts: FloatArray, center: Point, lo: float, hi: float) -> None:
    """Add ``near``, ``covered`` and ``simple`` against the circle about the asked ``center`` whose
    radius, between ``lo`` and ``hi``, the drawing keeps to: its cells' median distance from the
    center (a spike or a tab is local: it moves the median little, and stands out from it)."""
    if not len(pts):
        exact_checks(card, pts, stray=np.empty(0), miss=np.empty(0), size=lo)
        return
    d = np.hypot(pts[:, 0] - center[0], pts[:, 1] - center[1])
    rho = float(min(hi, max(lo, float(np.median(d)))))
    card.metrics["exact_radius"] = rho
    # the asked circle sampled about four times a cell, up to a circle the largest grid holds: a
    # hostile centre a million cells off asks for a ring no answer can draw, and 25 million samples
    samples = 4 * min(max(8, math.ceil(2 * math.pi * rho)), _MOST_RING_CELLS)
    th = np.linspace(0.0, 2 * math.pi, samples, endpoint=False)
    ring = np.column_stack([center[0] + rho * np.cos(th), center[1] + rho * np.sin(th)])
    miss = np.sqrt(nearest_sq(ring, pts))
    exact_checks(card, pts, stray=np.abs(d - rho), miss=miss, size=rho)


def _seed_of(pts: FloatArray, data: Any) -> float:
    """The seed score of the answer ``data`` (built from ``pts`` when there is none); 0 where PHP
    would throw."""
    if data is None:
        data = {"points": [{"x": float(x), "y": float(y)} for x, y in pts.tolist()]}
    try:
        return seed_score(data)
    except ValueError:
        return 0.0


def _fit_checks(
    card: Scorecard, pts: FloatArray, model: CircleModel, *, center: Point, radius: float | None, t: CircleThresholds
) -> None:
    """Add the checks read from the fitted circle: ``roundness``, ``harmonics``, ``center``,
    ``radius`` and, when a radius was asked, ``size``."""
    off = float(np.hypot(model.center[0] - center[0], model.center[1] - center[1]))
    angles, res = model.radial(pts)
    rnd = roundness(pts, model.center)
    card.metrics.update(
        fit_center_x=model.center[0],
        fit_center_y=model.center[1],
        radius=model.radius,
        rms=rms_of(res),
        roundness=rnd,
        center_offset=off,
    )
    card.add("roundness", rnd >= t.min_roundness, rnd, f"≥ {t.min_roundness:g}", note="about the fitted center")
    card.metrics["harmonic_share"] = harmonics_check(
        card, angles, res, model.radius, lambda k: harmonic_limit(k, model.radius, t)
    )
    centred = off <= t.max_center_offset
    card.add(
        "center",
        centred,
        off,
        f"≤ {t.max_center_offset:g}",
        ""  # the detail is kept only when the check fails
        if centred
        else f"fitted center ({fmt_fixed(model.center[0], 1)}, {fmt_fixed(model.center[1], 1)}), "
        f"asked {fmt_point(center)}",
    )
    card.add("radius", model.radius >= t.min_radius, model.radius, f"≥ {t.min_radius:g}")
    if radius is not None:
        err = abs(model.radius - radius)
        card.metrics["radius_error"] = err
        sized = err <= t.max_radius_error
        card.add(
            "size",
            sized,
            round(err, 4),
            f"≤ {t.max_radius_error:g}",
            "" if sized else f"fitted radius {model.radius:.1f}, asked {radius:.1f}",
        )


def harmonic_limit(order: int, radius: float, t: CircleThresholds = CIRCLE) -> float:
    """The ``harmonics`` limit (cells) of one order at fitted radius ``radius``: ``grid_wave_limits``
    for order 4, ``overtone_limits`` for 8, 12 and 16, ``other_limits`` for the rest, each ``a + b / R``."""
    a, b = t.grid_wave_limits if order == 4 else t.overtone_limits if order % 4 == 0 else t.other_limits
    return a + b / max(radius, 1.0)


def _params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    out["grid_size"] = int(p.get("grid_size", 50))
    out["center"] = pair_param(p, "center")
    out["start"] = pair_param(p, "start")
    out["direction"] = direction_param(p)
    r = p.get("radius")
    if r is not None and (isinstance(r, bool) or not isinstance(r, (int, float)) or not r >= LEAST_RADIUS):
        raise CaseError(f"'radius' must be a number ≥ {LEAST_RADIUS} ({TOO_SMALL}), got {r!r}")
    if r is not None and not r <= out["grid_size"]:  # (inf too: its ideal circle would never end)
        raise CaseError(
            f"'radius' must be at most the grid's side, {out['grid_size']}: a circle twice as wide as the "
            f"grid cannot be drawn on it; got {r!r}"
        )
    for key in ("center", "start"):
        inside_grid(out[key], out["grid_size"], f"'{key}'")
    (cx, cy), (sx, sy) = out["center"], out["start"]
    if r is None and math.hypot(sx - cx, sy - cy) < LEAST_RADIUS:
        raise CaseError(
            f"'start' {out['start']} is {math.hypot(sx - cx, sy - cy):.2f} cells from 'center' {out['center']}, "
            f"the radius it implies; it must be {LEAST_RADIUS} or more ({TOO_SMALL})"
        )
    return out


def _prompt(case: CaseLike, lang: str) -> str:
    p = case.params
    seed = p.get("seed_prompt")
    if seed is not None and lang == "ru":
        return SEED_CIRCLE_PROMPTS[int(seed)]
    return circle_prompt(
        center=p["center"],
        start=p["start"],
        direction=p["direction"],
        grid_size=p["grid_size"],
        radius=p.get("radius"),
        lang=lang,
    )


def circle_radius(case: CaseLike) -> int:
    """The radius a perfect answer uses: given, else the distance of the start from the center."""
    p = case.params
    if p.get("radius") is not None:
        return int(round(p["radius"]))
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return max(1, int(round(math.hypot(sx - cx, sy - cy))))


def asked_radius(case: CaseLike) -> float:
    """The radius a case asks for: given, else the start's exact distance from the center."""
    p = case.params
    if p.get("radius") is not None:
        return float(p["radius"])
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return math.hypot(sx - cx, sy - cy)


def _ideal(case: CaseLike) -> IntArray:
    p = case.params
    c = (int(round(p["center"][0])), int(round(p["center"][1])))
    return raster_circle(c, circle_radius(case), start=p["start"], direction=p["direction"])


def _score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    p = case.params
    return score_circle(
        drawing.points,
        center=p["center"],
        grid_size=p["grid_size"],
        start=p["start"],
        direction=p["direction"],
        data=drawing.data,
        radius=asked_radius(case),
        thresholds=with_overrides(CIRCLE, case.thresholds),
        radii=asked_radii(p["center"], p.get("radius"), p["start"]),
    )


FAMILY = Family(
    name="circle",
    params=_params,
    prompt=_prompt,
    ideal=_ideal,
    score=_score,
    thresholds=CIRCLE,
    variant_keys=("start", "direction"),
)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (FAMILY,)
