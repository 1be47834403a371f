"""The ellipse: center, semi-axes ``a ≥ b`` and the turn of the major axis, fitted by direct least squares.

Parameters of a case: ``center`` [x, y]; ``a``, ``b`` the semi-axes; ``rotation`` of the major axis
in degrees (0° horizontal, growing clockwise on screen; default 0); ``direction``; and the start,
either ``start`` [x, y] on the ellipse or ``start_angle`` (degrees about the center, the seed's
convention), which becomes the ideal drawing's cell on that ray.
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
from shape_asserts.families.single import (
    ClosedThresholds,
    exact_checks,
    loop_checks,
    outline_measures,
    path_checks,
    prepared,
)
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit import EllipseModel, axis_angle_difference
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points
from shape_asserts.geometry.raster import raster_ellipse
from shape_asserts.geometry.samples import ellipse_xy
from shape_asserts.geometry.score import ShapeScore, fmt_fixed
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["FAMILY", "FAMILIES", "EllipseThresholds", "ELLIPSE", "score_ellipse", "ellipse_outline", "point_at_angle"]


@dataclass(frozen=True)
class EllipseThresholds(ClosedThresholds):
    """Limits for one ellipse drawing, placed by ``bench/calibrate_catalogue.py`` (``docs/calibration.md``)."""

    #: Distance of the fitted center from the asked one, in cells.
    max_center_offset: float = 1.5
    #: Largest difference of either fitted semi-axis from the asked one, cells, plus
    #: ``axis_error_per_ratio`` for every unit the asked ``a / b`` exceeds 1 (a thin ellipse's few
    #: tip cells fit less surely). Fair rasters of every ellipse with a = 5..22 and b ≥ 4 fit within
    #: 0.52 (14 × 5; most within 0.35, the built-in cases within 0.18); one cell more or less on an
    #: axis is about 1 off (``docs/calibration.md``).
    max_axis_error: float = 0.5
    axis_error_per_ratio: float = 0.03
    #: Error of the fitted major axis direction, degrees (an axis: 0° = 180°): fair rasters within
    #: 1.5°, the ellipse turned 10° (kept through the start) 7.7° or more.
    max_rotation_error: float = 4.5
    #: Below this asked ``a / b``, or with semi-axes closer than ``rotation_min_difference`` cells,
    #: the ellipse is nearly a circle on the grid and the direction of its axis is not judged. At
    #: a − b = 3 the independent catalogue's fair rasters of 7 × 4 fit up to 6.3° off and its
    #: ellipses turned 10° as little as 4.1°: no limit parts them. From a − b = 4 on, fair ones
    #: stay within 3.9° and turned ones 6.5° or more (``tests/validity/test_small_ellipses.py``).
    rotation_min_aspect: float = 1.2
    rotation_min_difference: float = 4.0
    #: ``(1 − mean distance to the fitted ellipse / mean semi-axis) × 100``.
    min_evenness: float = 90.0
    #: Largest harmonic (orders 2–16) of the radial residual about the fitted ellipse, in cells, at
    #: fitted minor semi-axis b: ``a + b_ / b`` at even orders (a fair raster of an ellipse is the
    #: same after a half turn), ``c + d / b`` at odd ones (see ``CircleThresholds``).
    harmonic_limits: tuple[float, float, float, float] = (0.35, 1.4, 0.2, 0.7)


ELLIPSE = EllipseThresholds()


def ellipse_outline(center: Point, a: float, b: float, rotation: float) -> FloatArray:
    """The asked ellipse as a closed polyline fine enough for distances (~4 chords per cell), (M, 2)."""
    # a multiple of 4 samples: turning or mirroring the ellipse maps the samples onto each other
    m = 4 * int(max(23, math.pi * (a + b)))
    return ellipse_xy(center, a, b, rotation, np.linspace(0, 2 * math.pi, m, endpoint=False))


def point_at_angle(center: Point, a: float, b: float, rotation: float, angle: float) -> Point:
    """The ellipse point seen from its center at polar ``angle`` (degrees, clockwise on screen)."""
    th = math.radians(angle)
    rel = th - math.radians(rotation)
    r = 1.0 / math.sqrt((math.cos(rel) / a) ** 2 + (math.sin(rel) / b) ** 2)
    return (center[0] + r * math.cos(th), center[1] + r * math.sin(th))


def _params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    out["grid_size"] = g = int(p.get("grid_size", 50))
    out["center"] = center = pair_param(p, "center")
    inside_grid(center, g, "'center'")
    a = number_param(p, "a", minimum=3)
    b = number_param(p, "b", minimum=3)
    if b > a:
        raise CaseError(f"'a' is the major semi-axis and must be at least 'b', got a={a!r}, b={b!r}")
    rot = number_param(p, "rotation", default=0)
    out["rotation"] = rot % 180
    out["direction"] = direction_param(p)
    fits_grid(ellipse_outline(center, a, b, out["rotation"]), g, "the ellipse")
    if "start_angle" in p:
        if "start" in p:
            raise CaseError("give either 'start' or 'start_angle', not both")
        angle = number_param(p, "start_angle")
        on_ray = point_at_angle(center, a, b, out["rotation"], angle)
        ring = raster_ellipse(center, a, b, out["rotation"], start=on_ray, direction=out["direction"])
        out["start"] = (int(ring[0][0]), int(ring[0][1]))
        del out["start_angle"]
    else:
        out["start"] = pair_param(p, "start")
        inside_grid(out["start"], g, "'start'")
        off = float(EllipseModel(center, a, b, out["rotation"]).residuals(np.array([out["start"]]))[0])
        if off > 1.0:
            raise CaseError(
                f"'start' {fmt_xy(out['start'])} is {off:.1f} cells from the ellipse; "
                "it must lie on it (or give 'start_angle')"
            )
    return out


def _orientation(rot: float, a: float, b: float, lang: str) -> str:
    if a == b:
        return ""
    if rot == 0:
        return "Большая ось горизонтальна.\n" if lang == "ru" else "The major axis is horizontal.\n"
    if rot == 90:
        return "Большая ось вертикальна.\n" if lang == "ru" else "The major axis is vertical.\n"
    r = f"{rot:g}"
    if lang == "ru":
        return f"Большая ось повёрнута на {r}° по часовой стрелке от горизонтали.\n"
    return f"The major axis is turned {r}° clockwise from the horizontal.\n"


def _prompt(case: CaseLike, lang: str) -> str:
    p = case.params
    a, b = f"{p['a']:g}", f"{p['b']:g}"
    if lang == "ru":
        phrases = dict(
            figure="ровный эллипс",
            start_at="точки эллипса",
            center_line=f"Центр эллипса находится в точке {fmt_xy(p['center'])}.\n",
            geometry=f"Большая полуось эллипса — {a}, малая полуось — {b}.\n",
        )
    else:
        phrases = dict(
            figure="an even ellipse",
            start_at="the ellipse point",
            center_line=f"The center of the ellipse is at point {fmt_xy(p['center'])}.\n",
            geometry=f"The semi-major axis of the ellipse is {a}, the semi-minor axis is {b}.\n",
        )
    phrases["geometry"] += _orientation(p["rotation"], p["a"], p["b"], lang)
    return contour_prompt(
        lang=lang, start=p["start"], direction=p["direction"], center=p["center"], grid_size=p["grid_size"], **phrases
    )


def _ideal(case: CaseLike) -> IntArray:
    p = case.params
    return raster_ellipse(p["center"], p["a"], p["b"], p["rotation"], start=p["start"], direction=p["direction"])


def score_ellipse(
    points: ArrayLike,
    *,
    center: Point,
    a: float,
    b: float,
    rotation: float = 0.0,
    grid_size: int = 50,
    start: Point | None = None,
    direction: str | None = None,
    thresholds: EllipseThresholds = ELLIPSE,
) -> ShapeScore:
    """Measure an ellipse drawing against what was asked.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        The drawing, in answer order.
    center, a, b, rotation
        The asked ellipse (``a`` along ``rotation`` degrees, clockwise on screen).
    grid_size : int
    start : (float, float), optional
        Requested first point; unchecked when ``None``.
    direction : {"cw", "ccw"}, optional
    thresholds : EllipseThresholds

    Returns
    -------
    ShapeScore
        ``score`` is the outline score about the asked ellipse; the fit (Fitzgibbon's direct least
        squares) gives ``center``, ``axes``, ``rotation`` and ``evenness``.
    """
    t = thresholds
    pts = as_points(points)
    card = Scorecard()
    outline = prepared(ellipse_outline, (center, a, b, rotation), closed=True, center=center)
    score = outline_measures(card, pts, outline, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    loop_checks(card, pts, center=center, direction=direction, t=t)
    # the drawing against the exact asked ellipse: its runs are longest about the major axis's ends
    exact_checks(card, pts, stray=outline.distance(pts), miss=np.sqrt(outline.nearest_sq(pts)), size=a)
    model = EllipseModel.from_estimate(pts)
    if not model:
        card.metrics["evenness"] = 0.0
        card.add("fit", False, "failed", "an ellipse fits", model.reason)
    else:
        _fit_checks(card, pts, model, center=center, a=a, b=b, rotation=rotation, t=t)
    return card.result("ellipse", score)


def _fit_checks(
    card: Scorecard,
    pts: FloatArray,
    model: EllipseModel,
    *,
    center: Point,
    a: float,
    b: float,
    rotation: float,
    t: EllipseThresholds,
) -> None:
    """Add the checks read from the fitted ellipse against the asked one: ``center``, ``axes``,
    ``rotation`` (judged only where the asked ellipse is not nearly a circle), ``evenness`` and
    ``harmonics``."""
    off = float(math.hypot(model.center[0] - center[0], model.center[1] - center[1]))
    axis_err = max(abs(model.a - a), abs(model.b - b))
    rot_err = axis_angle_difference(model.rotation, rotation)
    angles, normal = model.radial(pts)
    even = model.evenness_of(normal)
    card.metrics.update(
        fit_center_x=model.center[0],
        fit_center_y=model.center[1],
        fit_a=model.a,
        fit_b=model.b,
        fit_rotation=model.rotation,
        center_offset=off,
        axis_error=axis_err,
        rotation_error=rot_err,
        evenness=even,
    )
    # the details are written only when a check fails (a passing check keeps none)
    centred = off <= t.max_center_offset
    card.add(
        "center",
        centred,
        off,
        f"≤ {t.max_center_offset:g}",
        ""
        if centred
        else f"fitted center ({fmt_fixed(model.center[0], 1)}, {fmt_fixed(model.center[1], 1)}), asked {fmt_xy(center)}",
    )
    axis_limit = t.max_axis_error + t.axis_error_per_ratio * (a / b - 1.0)
    sized = axis_err <= axis_limit
    card.add(
        "axes",
        sized,
        axis_err,
        f"≤ {axis_limit:.3g}",
        "" if sized else f"fitted semi-axes {model.a:.1f} and {model.b:.1f}, asked {a:g} and {b:g}",
    )
    judged = a / b >= t.rotation_min_aspect and a - b >= t.rotation_min_difference
    turned = rot_err <= t.max_rotation_error or not judged
    card.add(
        "rotation",
        turned,
        rot_err if judged else "not judged",
        f"≤ {t.max_rotation_error:g}°"
        if judged
        else f"a/b < {t.rotation_min_aspect:g} or a − b < {t.rotation_min_difference:g}",
        "" if turned else f"fitted major axis at {fmt_fixed(model.rotation, 0)}°, asked {rotation:g}°",
    )
    card.add("evenness", even >= t.min_evenness, even, f"≥ {t.min_evenness:g}", "about the fitted ellipse")
    wave = card.harmonics(angles, normal, scale=model.b, limits=t.harmonic_limits, symmetry=2)
    card.metrics["harmonic_share"] = wave.value


def _score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    p = case.params
    return score_ellipse(
        drawing.points,
        center=p["center"],
        a=p["a"],
        b=p["b"],
        rotation=p["rotation"],
        grid_size=p["grid_size"],
        start=p["start"],
        direction=p["direction"],
        thresholds=with_overrides(ELLIPSE, case.thresholds),
    )


FAMILY = Family(
    name="ellipse",
    params=_params,
    prompt=_prompt,
    ideal=_ideal,
    score=_score,
    thresholds=ELLIPSE,
    variant_keys=("start", "direction"),
)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (FAMILY,)
