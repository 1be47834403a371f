"""The circle's scorer: the seed post's ``scoreCircle`` and the checks around it."""

from __future__ import annotations

from typing import Any

import numpy as np

from shape_asserts.geometry import checks as ck
from shape_asserts.geometry.fit import CircleModel, roundness
from shape_asserts.geometry.score import Check, ShapeScore, fmt_value, harmonics_check
from shape_asserts.geometry.seed import seed_score
from shape_asserts.families.thresholds import CIRCLE, CircleThresholds

__all__ = ["score_circle"]


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def score_circle(
    points: np.ndarray,
    *,
    center: tuple[float, float],
    grid_size: int = 50,
    start: tuple[float, float] | None = None,
    direction: str | None = None,
    data: Any = None,
    radius: float | None = None,
    thresholds: CircleThresholds = CIRCLE,
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

    Returns
    -------
    ShapeScore
        ``score`` is the seed score, kept as the headline for comparability with the post.
    """
    t = thresholds
    pts = ck.as_points(points)
    n = len(pts)
    if data is None:
        data = {"points": [{"x": float(x), "y": float(y)} for x, y in pts]}
    try:
        seed = seed_score(data)
    except ValueError:
        seed = 0.0
    out: list[Check] = []
    metrics: dict[str, Any] = {"n_points": n, "seed_score": seed}

    out.append(Check("seed_score", seed >= t.min_seed_score, seed, f"≥ {t.min_seed_score:g}"))

    cont = ck.continuity(pts)
    metrics.update(gaps=len(cont.gaps), repeats=len(cont.repeats), max_step=cont.max_step)
    out.append(
        Check("gaps", len(cont.gaps) <= t.max_gaps, len(cont.gaps), f"≤ {t.max_gaps}",
              f"largest step {cont.max_step:g} cells" if cont.gaps else "", cont.gaps)
    )
    out.append(
        Check("repeats", len(cont.repeats) <= t.max_repeats, len(cont.repeats), f"≤ {t.max_repeats}",
              "consecutive identical points" if cont.repeats else "", cont.repeats)
    )

    closing = ck.closure_distance(pts)
    metrics["closure_distance"] = closing
    out.append(Check("closure", closing <= t.max_closure, closing, f"≤ {t.max_closure:g}",
                     "last point is not next to the first" if closing > t.max_closure else ""))

    oob = ck.out_of_bounds(pts, grid_size)
    out.append(Check("bounds", not oob, len(oob), "0 outside", f"outside 0..{grid_size - 1}" if oob else "", oob))

    if start is not None:
        sd = float(ck.chebyshev(pts[0], np.asarray(start, float))) if n else float("inf")
        metrics["start_distance"] = sd
        first = f"first point is ({fmt_value(pts[0][0])}, {fmt_value(pts[0][1])})" if n else "no points"
        out.append(Check("start", sd <= t.max_start_distance, sd, f"≤ {t.max_start_distance:g}",
                         f"{first}, asked ({fmt_value(start[0])}, {fmt_value(start[1])})" if sd > t.max_start_distance else ""))

    wind = ck.winding(pts, center)
    drawn = ck.direction(pts)
    metrics.update(turns=wind.turns, coverage=wind.coverage, direction=drawn or "none")
    if direction is not None:
        out.append(Check("direction", drawn == direction, drawn or "none", direction,
                         "drawn the other way round" if drawn and drawn != direction else ""))
        signed = wind.turns if direction == "cw" else -wind.turns
    else:
        signed = abs(wind.turns)
    out.append(Check("winding", t.min_turns <= signed <= t.max_turns, round(signed, 3),
                     f"{t.min_turns:g}..{t.max_turns:g} laps",
                     _winding_detail(signed, len(wind.backtracks)), wind.backtracks))
    out.append(Check("coverage", wind.coverage >= t.min_coverage, wind.coverage, f"≥ {t.min_coverage:g}",
                     "the points leave a 30° sector about the center empty" if wind.coverage < t.min_coverage else ""))

    model = CircleModel.from_estimate(pts) if n >= 3 else None
    if model:
        off = _dist(model.center, center)
        rnd = roundness(pts, model.center)
        metrics.update(fit_center_x=model.center[0], fit_center_y=model.center[1], radius=model.radius,
                       rms=model.rms(pts), roundness=rnd, center_offset=off)
        out.append(Check("roundness", rnd >= t.min_roundness, rnd, f"≥ {t.min_roundness:g}", "about the fitted center"))
        out.append(harmonics_check(*model.radial(pts), scale=model.radius, limits=t.harmonic_limits,
                                   symmetry=4))
        metrics["harmonic_share"] = out[-1].value
        out.append(Check("center", off <= t.max_center_offset, off, f"≤ {t.max_center_offset:g}",
                         f"fitted center ({model.center[0]:.1f}, {model.center[1]:.1f}), asked ({fmt_value(center[0])}, {fmt_value(center[1])})"
                         if off > t.max_center_offset else ""))
        out.append(Check("radius", model.radius >= t.min_radius, model.radius, f"≥ {t.min_radius:g}"))
        if radius is not None:
            err = abs(model.radius - radius)
            metrics["radius_error"] = err
            out.append(Check("size", err <= t.max_radius_error, round(err, 4), f"≤ {t.max_radius_error:g}",
                             f"fitted radius {model.radius:.1f}, asked {radius:.1f}"
                             if err > t.max_radius_error else ""))
    else:
        reason = model.reason if model is not None else "fewer than 3 points"
        metrics.update(roundness=0.0)
        out.append(Check("fit", False, "failed", "a circle fits", reason))
    rr = roundness(pts, center)
    metrics["roundness_requested"] = rr
    out.append(Check("roundness_requested", rr >= t.min_roundness_requested, rr,
                     f"≥ {t.min_roundness_requested:g}", "about the requested center"))

    marks = {"gaps": cont.gaps, "repeats": cont.repeats, "outside": oob}
    return ShapeScore(family="circle", score=seed, metrics=metrics, checks=tuple(out), marks=marks)


def _winding_detail(signed: float, backtracks: int) -> str:
    if signed < 0:
        return "travels the wrong way round the center"
    if signed > 1.5:
        return f"goes round {signed:.1f} times"
    if signed < 0.9:
        return "does not go all the way round"
    if backtracks:
        return f"{backtracks} steps turn back"
    return ""
