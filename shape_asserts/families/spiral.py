"""The Archimedean spiral: the seed's "black blob", asked with a spacing wide enough to draw.

Parameters of a case: ``center`` [x, y]; ``turns`` (laps); ``spacing`` (cells between neighbouring
laps); ``angle`` — polar angle of the outer end in degrees (0° right, clockwise on screen; default
0); ``direction`` — the way the drawing turns as it travels; ``inward`` — start at the outer end and
wind in to the center (default false: start at the center and wind out). The start and end points
follow from these and are written into the prompt.

Unlike every other single-contour family the spiral is *open*: its ``closure`` check requires the
last point to stay away from the first.
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
    fits_grid,
    inside_grid,
    number_param,
    pair_param,
    with_overrides,
)
from shape_asserts.families.prompts import contour_prompt, fmt_xy
from shape_asserts.families.single import ContourThresholds, outline_measures, path_checks, prepared
from shape_asserts.geometry.distances import closure_distance
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit import SpiralModel
from shape_asserts.geometry.fit.spiral import lap_error, lap_gaps, radii_about, unwrapped_angles
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points, round_half_up
from shape_asserts.geometry.raster import raster_spiral
from shape_asserts.geometry.samples import spiral_samples
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["FAMILY", "FAMILIES", "SpiralThresholds", "SPIRAL", "score_spiral", "spiral_outline", "spiral_ends"]


@dataclass(frozen=True)
class SpiralThresholds(ContourThresholds):
    """Limits for one spiral drawing, placed by ``bench/calibrate_catalogue.py`` (``docs/calibration.md``)."""

    #: Chebyshev distance of the last point from the asked end.
    max_end_distance: float = 1.5
    #: The spiral is open: the last point must be at least this far (Chebyshev) from the first.
    min_closure: float = 3.0
    #: Points nearer the center than this have no meaningful polar angle and are left out of the fit.
    fit_min_radius: float = 1.5
    #: Root-mean-square residual of ``r = a + bθ`` along the drawing, as a share of the asked spacing
    #: (R² is reported too, but it grows with the spiral's size; this does not).
    max_relative_rms: float = 0.15
    #: Laps drawn against laps asked, read on the innermost lap (see ``_lap_error``): fair spirals
    #: stay within 0.04, a quarter lap more or less between the same ends is 0.14 off or more; the
    #: limit sits between (``docs/calibration.md``).
    max_turns_error: float = 0.09
    #: Fitted distance between laps (``2π|b|``) against the asked spacing, relative.
    max_spacing_error: float = 0.2
    #: Local lap spacing (each point's radial distance from the lap before it) may differ from the
    #: asked spacing by at most ``max(lap_tolerance, lap_tolerance_fraction × spacing)`` cells at
    #: the ``lap_quantile`` of the points (a stray point or two is the jitter's, not the spiral's).
    lap_tolerance: float = 1.5
    lap_tolerance_fraction: float = 0.25
    lap_quantile: float = 0.9
    #: Largest fall of the radius below its running maximum (outward) or rise above its running
    #: minimum (inward), cells: the drawing must keep moving away from (towards) the center.
    max_radius_drawdown: float = 2.5


SPIRAL = SpiralThresholds()


def spiral_outline(
    center: Point, spacing: float, turns: float, angle: float, direction: str, inward: bool
) -> FloatArray:
    """The asked spiral as an open polyline in drawing order, about 3 chords per cell of length."""
    xy = spiral_samples(
        center, spacing, turns, angle, direction, int(max(100, 3 * math.pi * spacing * turns * turns)), inward=inward
    )
    return xy[::-1] if inward else xy


def spiral_ends(center: Point, spacing: float, turns: float, angle: float) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (rounded) center and outer end cells of the asked spiral."""
    r = spacing * turns
    a = math.radians(angle)
    # halves round up, as a person rounds (and as the polygon families' vertices do)
    ends = round_half_up([center, (center[0] + r * math.cos(a), center[1] + r * math.sin(a))]).astype(int).tolist()
    (cx, cy), (ex, ey) = ends
    return (cx, cy), (ex, ey)


def _params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    for key in ("start", "end"):
        if key in p:
            raise CaseError(f"'{key}' follows from 'center', 'turns', 'spacing', 'angle' and 'inward'; do not give it")
    out["grid_size"] = g = int(p.get("grid_size", 50))
    out["center"] = center = pair_param(p, "center")
    inside_grid(center, g, "'center'")
    out["turns"] = turns = number_param(p, "turns", minimum=0.5)
    if turns > 10:
        raise CaseError(f"'turns' must be at most 10, got {turns!r}")
    # the seed's spiral came out as a blob: laps closer than 3 cells cannot be told apart on the grid
    out["spacing"] = spacing = number_param(p, "spacing", minimum=3)
    out["angle"] = number_param(p, "angle", default=0) % 360
    out["direction"] = direction_param(p)
    inward = p.get("inward", False)
    if not isinstance(inward, bool):
        raise CaseError(f"'inward' must be true or false, got {inward!r}")
    out["inward"] = inward
    fits_grid(spiral_outline(center, spacing, turns, out["angle"], out["direction"], inward), g, "the spiral")
    mid, outer = spiral_ends(center, spacing, turns, out["angle"])
    out["start"], out["end"] = (outer, mid) if inward else (mid, outer)
    return out


def _turns_ru(turns: float) -> str:
    if not float(turns).is_integer():
        return f"{turns:g} витка"
    n = int(turns)
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} полный виток"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} полных витка"
    return f"{n} полных витков"


def _prompt(case: CaseLike, lang: str) -> str:
    p = case.params
    c, end = fmt_xy(p["center"]), p["end"]
    end_json = f'{{ "x": {end[0]}, "y": {end[1]} }}'
    inward, s = p["inward"], f"{p['spacing']:g}"
    if lang == "ru":
        phrases = dict(
            figure="ровную архимедову спираль",
            of="линии",
            center_line=f"Центр спирали находится в точке {c}.\n",
            geometry=(
                f"Спираль делает {_turns_ru(p['turns'])}, расстояние между соседними витками — {s} клеток.\n"
                "Спираль не замкнута: её конец не соединяется с началом.\n"
            ),
            start_at="внешнего конца спирали" if inward else "центра спирали",
            dir_tail=", приближаясь к центру" if inward else ", удаляясь от центра",
            after_start=(
                f"Закончи в центре спирали {end_json}.\n"
                if inward
                else f"Закончи во внешнем конце спирали {end_json}.\n"
            ),
        )
    else:
        turns = f"{p['turns']:g} full turn" + ("" if p["turns"] == 1 else "s")
        phrases = dict(
            figure="an even Archimedean spiral",
            of="line",
            center_line=f"The center of the spiral is at point {c}.\n",
            geometry=(
                f"The spiral makes {turns}; neighbouring turns are {s} cells apart.\n"
                "The spiral is open: its end does not join its start.\n"
            ),
            start_at="the outer end of the spiral" if inward else "the center of the spiral",
            dir_tail=", moving towards the center" if inward else ", moving away from the center",
            after_start=(
                f"Finish at the center of the spiral {end_json}.\n"
                if inward
                else f"Finish at the outer end of the spiral {end_json}.\n"
            ),
        )
    return contour_prompt(
        lang=lang, start=p["start"], direction=p["direction"], center=p["center"], grid_size=p["grid_size"], **phrases
    )


def _ideal(case: CaseLike) -> IntArray:
    p = case.params
    return raster_spiral(p["center"], p["spacing"], p["turns"], p["angle"], p["direction"], inward=p["inward"])


def score_spiral(
    points: ArrayLike,
    *,
    center: Point,
    spacing: float,
    turns: float,
    angle: float = 0.0,
    direction: str = "cw",
    inward: bool = False,
    grid_size: int = 50,
    thresholds: SpiralThresholds = SPIRAL,
) -> ShapeScore:
    """Measure a spiral drawing against what was asked.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        The drawing, in answer order.
    center, spacing, turns, angle, direction, inward
        The asked spiral (see the module docstring); they fix the start and end points.
    grid_size : int
    thresholds : SpiralThresholds

    Returns
    -------
    ShapeScore
        ``score`` is the outline score about the asked spiral; the fit of ``r = a + bθ`` along the
        drawing gives ``fit`` (its rms against the spacing), ``spacing`` and ``turns``.
    """
    t = thresholds
    pts = as_points(points)
    mid, outer = spiral_ends(center, spacing, turns, angle)
    start, end = (outer, mid) if inward else (mid, outer)
    card = Scorecard()
    outline = prepared(spiral_outline, (center, spacing, turns, angle, direction, inward), closed=False, center=center)
    score = outline_measures(card, pts, outline, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    card.endpoint(pts, end, t.max_end_distance, name="end")
    closing = closure_distance(pts)
    card.metrics["closure_distance"] = closing
    card.add(
        "closure",
        closing >= t.min_closure,
        closing,
        f"≥ {t.min_closure:g} (open)",
        "the spiral closes on itself: its last point is next to the first",
    )
    radii = radii_about(pts, center)
    _turn_checks(card, pts, radii, center=center, direction=direction, spacing=spacing, turns=turns, inward=inward, t=t)
    _monotone(card, radii, inward=inward, t=t)
    _fit_checks(card, pts, center=center, spacing=spacing, t=t)
    _laps(card, pts, center=center, spacing=spacing, want_turns=turns - t.fit_min_radius / spacing, t=t)
    return card.result("spiral", score)


def _turn_checks(
    card: Scorecard,
    pts: FloatArray,
    radii: FloatArray,
    *,
    center: Point,
    direction: str,
    spacing: float,
    turns: float,
    inward: bool,
    t: SpiralThresholds,
) -> None:
    """Add ``direction`` (the way the drawing turns about the asked center) and ``turns`` (the laps
    drawn against those asked, read on the innermost lap: :func:`lap_error`)."""
    used, theta = unwrapped_angles(pts, center, min_radius=t.fit_min_radius)
    total = float(theta[-1]) if theta.size else 0.0
    drawn = "cw" if total > 0 else "ccw" if total < 0 else "none"
    lap_err = lap_error(radii, used, theta, spacing, turns, inward)
    card.metrics.update(direction=drawn, turns=abs(total) / (2 * math.pi), turns_error=lap_err)
    card.add(
        "direction",
        drawn == direction,
        drawn,
        direction,
        "turns the other way" if drawn != "none" else "does not turn about the center",
    )
    counted = abs(lap_err) <= t.max_turns_error
    card.add(
        "turns",
        counted,
        round(lap_err, 4),
        f"0 ± {t.max_turns_error:g} laps",
        # the details are written only when a check fails (a passing check keeps none)
        "" if counted else f"about {turns + lap_err:.2f} laps drawn about {fmt_xy(center)}, {turns:g} asked",
    )


def _monotone(card: Scorecard, radii: FloatArray, *, inward: bool, t: SpiralThresholds) -> None:
    """Add ``monotone``: the radius keeps growing along the drawing (shrinking, inward), by its
    largest fall below its running maximum (rise above its running minimum)."""
    n = len(radii)
    seq = radii[::-1] if inward else radii
    fall = np.maximum.accumulate(seq) - seq if n else np.zeros(0)
    drawdown = float(fall.max()) if n else 0.0
    card.metrics["radius_drawdown"] = drawdown
    monotone = drawdown <= t.max_radius_drawdown
    bad = np.flatnonzero(fall > t.max_radius_drawdown)
    if inward:
        bad = np.sort(n - 1 - bad)
    card.add(
        "monotone",
        monotone,
        drawdown,
        f"≤ {t.max_radius_drawdown:g}",
        ""
        if monotone
        else f"the radius turns back ({'towards' if not inward else 'away from'} the center) by {drawdown:.1f} cells",
        bad[:50].tolist(),
    )


def _fit_checks(card: Scorecard, pts: FloatArray, *, center: Point, spacing: float, t: SpiralThresholds) -> None:
    """Add ``fit`` (how evenly the radius grows with the angle: the rms of ``r = a + bθ`` against
    the asked spacing) and ``spacing`` (the fitted distance between laps)."""
    model = SpiralModel.from_estimate(pts, center, min_radius=t.fit_min_radius)
    if not model:
        card.metrics.update(r2=0.0)
        card.add("fit", False, "failed", f"rms ≤ {t.max_relative_rms:g} × spacing", model.reason)
        card.add("spacing", False, "n/a", f"{spacing:g} ± {t.max_spacing_error:.0%}", "no spiral fits")
        return
    spacing_err = abs(model.spacing - spacing) / spacing
    rel = model.rms / spacing
    card.metrics.update(
        r2=model.r2, fit_spacing=model.spacing, fit_rms=model.rms, fit_relative_rms=rel, spacing_error=spacing_err
    )
    even = rel <= t.max_relative_rms
    card.add(
        "fit",
        even,
        rel,
        f"rms ≤ {t.max_relative_rms:g} × spacing",
        ""
        if even
        else f"the radius does not grow evenly with the angle (rms {model.rms:.1f} cells, R² {model.r2:.2f})",
    )
    spaced = spacing_err <= t.max_spacing_error
    card.add(
        "spacing",
        spaced,
        model.spacing,
        f"{spacing:g} ± {t.max_spacing_error:.0%}",
        "" if spaced else f"laps {model.spacing:.1f} cells apart, asked {spacing:g}",
    )


def _laps(
    card: Scorecard, pts: FloatArray, *, center: Point, spacing: float, want_turns: float, t: SpiralThresholds
) -> None:
    """Add ``laps``: is each lap as far from the one before as asked (not just on average)?"""
    limit = max(t.lap_tolerance, t.lap_tolerance_fraction * spacing)
    idx, gaps = lap_gaps(pts, center, min_radius=t.fit_min_radius) if len(pts) else (np.zeros(0, int), np.zeros(0))
    if gaps.size == 0:
        # no point has a lap before it: right only when under a lap and a half lies outside the
        # center's few cells (near that, whether one does is a matter of rounding)
        card.add("laps", want_turns < 1.5, "n/a", f"within {limit:.1f} of {spacing:g}", "less than one lap drawn")
        return
    dev = np.abs(np.abs(gaps) - spacing)
    worst = float(np.quantile(dev, t.lap_quantile))
    card.metrics["lap_deviation"] = worst
    even = worst <= limit
    off = dev > limit
    card.add(
        "laps",
        even,
        worst,
        f"≤ {limit:.1f}",
        ""  # the details are written only when the check fails (a passing check keeps none)
        if even
        else f"laps are unevenly spaced: {np.count_nonzero(off)} points lie more than {limit:.1f} cells off "
        f"{spacing:g} from the lap before",
        idx[off][:50].tolist(),
    )


def _score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    p = case.params
    return score_spiral(
        drawing.points,
        center=p["center"],
        spacing=p["spacing"],
        turns=p["turns"],
        angle=p["angle"],
        direction=p["direction"],
        inward=p["inward"],
        grid_size=p["grid_size"],
        thresholds=with_overrides(SPIRAL, case.thresholds),
    )


FAMILY = Family(
    name="spiral",
    params=_params,
    prompt=_prompt,
    ideal=_ideal,
    score=_score,
    thresholds=SPIRAL,
    variant_keys=("angle", "inward", "direction", "start", "end"),
)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (FAMILY,)
