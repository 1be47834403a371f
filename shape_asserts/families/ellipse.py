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
    HALF_DIAGONAL,
    ClosedThresholds,
    exact_checks,
    harmonics_check,
    loop_checks,
    near_tolerance,
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

__all__ = [
    "FAMILY",
    "FAMILIES",
    "EllipseThresholds",
    "ELLIPSE",
    "score_ellipse",
    "ellipse_outline",
    "point_at_angle",
    "stretched_axes",
]


@dataclass(frozen=True)
class EllipseThresholds(ClosedThresholds):
    """Limits for one ellipse drawing, placed by ``bench/calibrate_catalogue.py`` (``docs/calibration.md``)."""

    #: Distance of the fitted center from the asked one, in cells.
    max_center_offset: float = 1.5
    #: ``axes`` stretches the asked ellipse along its own two axes (about the asked center, at the
    #: asked rotation) to fit the drawing, and holds each stretched semi-axis to the asked one.
    #: The minor semi-axis is read off the long sides, whose cells lie within half a cell diagonal
    #: of the exact curve on each side, whatever the method: it may be that far off (fair drawings
    #: of every ellipse a = 5..22, b = 3..a fit within 0.48; one a cell wider, 0.6 or more). The
    #: major semi-axis is read off the two tips, which a fair drawing puts anywhere in the band
    #: ``near`` holds every cell to (``single.near_tolerance`` of ``a``): a thin ellipse's tip turns
    #: within a cell (curvature radius b²/a), so a thinned drawing drops its corner cell and points
    #: every 15° cut it (fair drawings of 16 × 4 fit up to 0.91 long, of 18 × 3 0.91 short).
    max_minor_error: float = HALF_DIAGONAL
    #: Error of the fitted major axis direction, degrees (an axis: 0° = 180°): fair rasters within
    #: 1.5°, the ellipse turned 10° (kept through the start) 7.7° or more.
    max_rotation_error: float = 4.5
    #: Turning an ellipse by δ moves its outline by up to about (a − b)·sin δ cells: a turn that moves
    #: it less than this is within the grid's rounding, so the limit is at least the angle that moves
    #: it this far (fair drawings move it up to 0.36: 16 × 12 from points every 15° fits 4.6° off, 18
    #: × 14 5.1°; turned 10° with a − b = 4 they fit 6.5° or more, 0.45).
    rotation_tolerance_cells: float = 0.4
    #: Below this asked ``a / b``, or with semi-axes closer than ``rotation_min_difference`` cells,
    #: the ellipse is nearly a circle on the grid and the direction of its axis is not judged. At
    #: a − b = 3 the independent catalogue's fair rasters of 7 × 4 fit up to 6.3° off and its
    #: ellipses turned 10° as little as 4.1°: no limit parts them. From a − b = 4 on, fair ones
    #: stay within 3.9° and turned ones 6.5° or more (``tests/validity/test_small_ellipses.py``).
    #: A large ellipse close to a circle is as loose: 18 × 14 (a/b 1.29) drawn from points every 15°
    #: fits 5.1° off, so the axis is judged from a/b = 1.3 on (where the catalogue's turned
    #: impostors start too).
    rotation_min_aspect: float = 1.3
    rotation_min_difference: float = 4.0
    #: ``(1 − mean distance to the fitted ellipse / mean semi-axis) × 100``.
    min_evenness: float = 90.0
    #: Largest harmonic (orders 2–16) of the radial residual about the fitted ellipse, in cells, at
    #: fitted minor semi-axis b: ``a + b_ / b`` at even orders (a fair raster of an ellipse is the
    #: same after a half turn), ``c + d / b`` at odd ones (see ``CircleThresholds``).
    harmonic_limits: tuple[float, float, float, float] = (0.35, 1.4, 0.2, 0.7)
    #: ... but order 4, the grid's own wave (as the circle's ``grid_wave_limits``): points every
    #: 10° or 15° of the parametric angle rounded to cells and joined by straight runs leave up to
    #: 0.61 cells there at fitted b ≈ 8, 0.52 at 9–14, 0.5 at 15–17 and less above (every ellipse
    #: a = 5..22, b = 3..a, turned 0–90°, starts every 17°); the even orders' limit let 8 × 8 and
    #: 10 × 8 drawn every 15° fail. ``a + b / b_fitted``.
    grid_wave_limits: tuple[float, float] = (0.5, 1.0)


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


def stretched_axes(pts: ArrayLike, center: Point, a: float, b: float, rotation: float) -> tuple[float, float]:
    """The semi-axes of the asked ellipse stretched along its own axes to fit ``pts``, (N, 2).

    The center and the rotation stay the asked ones, so only the two lengths are fitted: unlike a
    free conic fit, which the few cells of a thin ellipse's tips leave loose, this reads each
    axis from the cells along it. Least squares of ``p u² + q v² = 1`` in the ellipse's frame,
    each residual divided by its gradient (Sampson's first-order distance to the curve), starting
    from the asked ellipse. ``(inf, inf)`` when the points fit no ellipse about the center.

    >>> pts = ellipse_xy((25, 25), 10, 4, 30, np.linspace(0, 6.28, 40))
    >>> [round(x, 3) for x in stretched_axes(pts, (25, 25), 9, 5, 30)]
    [10.0, 4.0]
    """
    xy = as_points(pts) - np.asarray(center, dtype=float)
    th = math.radians(rotation)
    u = xy[:, 0] * math.cos(th) + xy[:, 1] * math.sin(th)
    v = -xy[:, 0] * math.sin(th) + xy[:, 1] * math.cos(th)
    p, q = 1.0 / a**2, 1.0 / b**2
    for _ in range(_STRETCH_ROUNDS):
        # weights from the last estimate; a point on the center has no gradient: kept finite
        w = 1.0 / np.maximum(2.0 * np.hypot(p * u, q * v), 1e-9)
        design = np.stack([u**2 * w, v**2 * w], axis=1)
        if len(xy) < 2 or np.linalg.matrix_rank(design) < 2:
            return math.inf, math.inf
        p, q = (float(x) for x in np.linalg.lstsq(design, w, rcond=None)[0])
        if p <= 0 or q <= 0:
            return math.inf, math.inf
    return 1.0 / math.sqrt(p), 1.0 / math.sqrt(q)


#: Reweightings of :func:`stretched_axes`: the lengths settle to a hundredth of a cell by the third.
_STRETCH_ROUNDS = 4


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
    """Add the checks read from the fitted ellipse against the asked one: ``center``, ``rotation``
    (judged only where the asked ellipse is not nearly a circle), ``evenness`` and ``harmonics``;
    and ``axes``, read from the asked ellipse itself stretched to the drawing."""
    off = float(math.hypot(model.center[0] - center[0], model.center[1] - center[1]))
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
    _axes_check(card, pts, center=center, a=a, b=b, rotation=rotation, t=t)
    judged = a / b >= t.rotation_min_aspect and a - b >= t.rotation_min_difference
    limit = _rotation_limit(a, b, t) if judged else t.max_rotation_error
    turned = rot_err <= limit or not judged
    card.add(
        "rotation",
        turned,
        rot_err if judged else "not judged",
        f"≤ {limit:.3g}°" if judged else f"a/b < {t.rotation_min_aspect:g} or a − b < {t.rotation_min_difference:g}",
        "" if turned else f"fitted major axis at {fmt_fixed(model.rotation, 0)}°, asked {rotation:g}°",
    )
    card.add("evenness", even >= t.min_evenness, even, f"≥ {t.min_evenness:g}", "about the fitted ellipse")
    card.metrics["harmonic_share"] = _harmonics(card, angles, normal, model.b, t)


def _rotation_limit(a: float, b: float, t: EllipseThresholds) -> float:
    """The largest error of the fitted axis direction, degrees: ``max_rotation_error``, or the turn
    that moves the outline ``rotation_tolerance_cells`` (about (a − b)·sin δ) if that is larger."""
    moved = min(1.0, t.rotation_tolerance_cells / max(a - b, 1e-9))
    return max(t.max_rotation_error, math.degrees(math.asin(moved)))


def _harmonics(card: Scorecard, angles: FloatArray, normal: FloatArray, b: float, t: EllipseThresholds) -> float:
    """Add ``harmonics`` (:func:`~shape_asserts.families.single.harmonics_check`) about the fitted
    ellipse, each order's limit at fitted minor semi-axis ``b``: order 4 ``grid_wave_limits``, the
    other even orders and the odd ones ``harmonic_limits``; return its share."""
    a4, b4 = t.grid_wave_limits
    even_a, even_b, odd_a, odd_b = t.harmonic_limits
    size = max(b, 1.0)

    def cap(k: int) -> float:
        return a4 + b4 / size if k == 4 else even_a + even_b / size if k % 2 == 0 else odd_a + odd_b / size

    return harmonics_check(card, angles, normal, size, cap)


def _axes_check(
    card: Scorecard, pts: FloatArray, *, center: Point, a: float, b: float, rotation: float, t: EllipseThresholds
) -> None:
    """Add ``axes``: the asked ellipse stretched to the drawing (:func:`stretched_axes`), each
    semi-axis within its tolerance. The value is the worse axis's error beyond its tolerance, in
    cells (≤ 0 passes), so the margin reads in cells whichever axis it is."""
    long, short = stretched_axes(pts, center, a, b, rotation)
    major_limit = near_tolerance(a)
    beyond = max(abs(long - a) - major_limit, abs(short - b) - t.max_minor_error)
    card.metrics.update(stretched_a=long, stretched_b=short, axis_error=max(abs(long - a), abs(short - b)))
    sized = beyond <= 0
    card.add(
        "axes",
        sized,
        round(beyond, 4) if math.isfinite(beyond) else beyond,
        f"≤ 0 (a within {major_limit:.3g}, b within {t.max_minor_error:.3g})",
        ""
        if sized
        else f"the asked ellipse fits the drawing with semi-axes {long:.1f} and {short:.1f}, asked {a:g} and {b:g}",
        margin=-beyond,
    )


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
