"""The Archimedean spiral: the seed's "black blob", asked with a spacing wide enough to draw.

Parameters of a case: ``center`` [x, y]; ``turns`` (laps); ``spacing`` (cells between neighbouring
laps); ``angle`` — polar angle of the outer end in degrees (0° right, clockwise on screen; default
0); ``direction`` — the way the drawing turns as it travels; ``inward`` — start at the outer end and
wind in to the center (default false: start at the center and wind out). The start and end points
follow from these and are written into the prompt.

Unlike every other single-contour family the spiral is *open*: its ``closure`` check requires the
last point to stay away from the first.

The geometry is judged against the asked spiral law itself. The prompt fixes the center, the laps,
the outer end and the way round, and leaves free where the first lap leaves the center cell: every
spiral ``r = r0 + kθ`` with the asked laps and outer end and ``r0`` from 0 to 1 cell
(:data:`FAIR_INNER_OFFSETS`) is fair. Against the one of these nearest the drawing, with one
tolerance from the grid (:data:`LAW_TOLERANCE`): ``stray`` — every drawn cell near it; ``uncovered``
— it drawn all along (outside the center's :data:`CENTER_REACH`, which no grid can draw a lap in).
``turns`` counts the laps swept from the innermost lap to the end against those a fair spiral
sweeps there (:func:`fair_laps`), and ``revisits`` keeps the path simple (no spike out and back).
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
from shape_asserts.geometry.distances import closure_distance, point_chebyshev
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit.spiral import unwrapped_angles
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points, round_half_up
from shape_asserts.geometry.raster import raster_spiral
from shape_asserts.geometry.samples import spiral_samples
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard

__all__ = [
    "FAMILY",
    "FAMILIES",
    "CENTER_REACH",
    "FAIR_INNER_OFFSETS",
    "LAW_TOLERANCE",
    "fair_laps",
    "SpiralThresholds",
    "SPIRAL",
    "score_spiral",
    "spiral_outline",
    "spiral_ends",
]


#: How far a drawn cell may lie from the asked spiral, and a point of the spiral from the nearest
#: drawn cell, in cells. A cell the curve passes through has its centre within half a cell diagonal
#: (0.71) of the curve, whatever the method (rounding, supercover, thinned, DDA). Points of the curve
#: rounded to cells and joined by straight runs (Bresenham, DDA) add half a cell: a run's cells lie
#: up to 0.5 off the straight side between two rounded points; and a side a few cells long bows
#: from the curve (a 4-cell side at radius 20 by 0.1): 0.71 + 0.5 + 0.1 ≈ 1.3. Measured on the
#: catalogue's fair drawings: up to 1.22 (points every 22.5°, or 4 cells apart, joined). A tab 3 cells high
#: reaches 3 · cos 45° = 2.1 cells across the curve from its foot even on a diagonal stretch; a
#: spike is caught as a path that comes back (``revisits``) whatever its length; a lap too many or
#: too few by ``turns``; a missing lap or laps pushed together by ``uncovered``.
LAW_TOLERANCE = 1.3

#: Where the drawn spiral may begin, as its distance from the center (cells): the prompt asks for a
#: start on the center cell and says nothing of how the first lap leaves it, so an inner end from the
#: center itself (r = spacing·θ/2π) to the next cell out (r = 1 + kθ, with the asked laps and outer
#: end) is fair. Looked for a quarter cell apart.
FAIR_INNER_OFFSETS = (0.0, 0.25, 0.5, 0.75, 1.0)

#: Within this many cells of the center the first lap curls tighter than the grid can draw (a lap of
#: radius 1 is the center's 8 neighbours): the spiral's points there need no drawn cell of their own
#: (the start, or end, on the center cell stands for them), and a drawn cell of the center's 3 × 3
#: block is never a stray (it lies within 1.41 of the center, where every fair spiral passes).
CENTER_REACH = 2.0

#: Half a cell's diagonal: how far a cell's centre may lie from a curve passing through the cell.
HALF_DIAGONAL = math.sqrt(2) / 2


@dataclass(frozen=True)
class SpiralThresholds(ContourThresholds):
    """Limits for one spiral drawing; ``docs/calibration.md`` gives their margins on the catalogue."""

    #: Chebyshev distance of the last point from the asked end.
    max_end_distance: float = 1.5
    #: The spiral is open: the last point must be at least this far (Chebyshev) from the first, or as
    #: far as the asked ends are from each other when they are nearer (a small spiral's outer end).
    min_closure: float = 3.0
    #: Points nearer the center than this have no meaningful polar angle: the direction and the laps
    #: are read without them.
    fit_min_radius: float = CENTER_REACH
    #: Farthest a drawn cell may lie from the nearest fair spiral (:data:`LAW_TOLERANCE`).
    max_stray: float = LAW_TOLERANCE
    #: Farthest a point of that spiral may lie from the nearest drawn cell (:data:`LAW_TOLERANCE`).
    max_uncovered: float = LAW_TOLERANCE
    #: Returns to a cell already left (``_revisit_check``): a spiral is a simple path.
    max_revisits: int = 0


SPIRAL = SpiralThresholds()


def spiral_outline(
    center: Point, spacing: float, turns: float, angle: float, direction: str, inward: bool, inner: float = 0.0
) -> FloatArray:
    """The asked spiral as an open polyline in drawing order, about 3 chords per cell of length.

    ``inner`` is the distance of its inner end from the center (:func:`spiral_samples`); the
    polyline then runs from the center to that end first, as a drawing asked to start (or finish)
    on the center does.
    """
    count = int(max(100, 3 * math.pi * spacing * turns * turns))
    xy = spiral_samples(center, spacing, turns, angle, direction, count, inward=inward, inner=inner)
    if inner > 0:
        xy = np.vstack([np.asarray(center, dtype=float)[None, :], xy])
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
        ``score`` is the outline score about the nearest fair spiral of the asked law
        (:func:`_nearest_fair_spiral`), against which the gating geometry is read too (``stray``,
        ``uncovered``: :func:`_law_checks`).
    """
    t = thresholds
    pts = as_points(points)
    mid, outer = spiral_ends(center, spacing, turns, angle)
    start, end = (outer, mid) if inward else (mid, outer)
    card = Scorecard()
    asked = (center, spacing, turns, angle, direction, inward)
    fit = _nearest_fair_spiral(pts, asked)
    outline = prepared(spiral_outline, (*asked, fit.inner), closed=False, center=center)
    score = outline_measures(card, pts, outline, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    card.endpoint(pts, end, t.max_end_distance, name="end")
    closing = closure_distance(pts)
    card.metrics["closure_distance"] = closing
    apart = min(t.min_closure, point_chebyshev(start, end))
    card.add(
        "closure",
        closing >= apart,
        closing,
        f"≥ {apart:g} (open)",
        "the spiral closes on itself: its last point is next to the first",
    )
    _turning_checks(card, pts, center=center, direction=direction, spacing=spacing, turns=turns, inward=inward, t=t)
    _law_checks(card, pts, fit, spacing=spacing, turns=turns, t=t)
    _revisit_check(card, pts, center=center, t=t)
    return card.result("spiral", score)


def _turning_checks(
    card: Scorecard,
    pts: FloatArray,
    *,
    center: Point,
    direction: str,
    spacing: float,
    turns: float,
    inward: bool,
    t: SpiralThresholds,
) -> None:
    """Add ``direction`` (the way the drawing turns about the asked center) and ``turns`` (the laps
    it sweeps from its innermost lap to its outer end, against those a fair spiral sweeps there)."""
    used, theta = unwrapped_angles(pts, center, min_radius=t.fit_min_radius)
    total = float(theta[-1]) if theta.size else 0.0
    drawn = "cw" if total > 0 else "ccw" if total < 0 else "none"
    card.metrics.update(direction=drawn, turns=abs(total) / (2 * math.pi))
    card.add(
        "direction",
        drawn == direction,
        drawn,
        direction,
        "turns the other way" if drawn != "none" else "does not turn about the center",
    )
    if not used.size:
        card.add("turns", False, "n/a", f"{turns:g} laps", "no point lies away from the center")
        return
    # the innermost point the laps are counted from: the first drawn outward, the last inward
    inner = int(used[-1] if inward else used[0])
    lo, hi = fair_laps(float(np.hypot(*(pts[inner] - np.asarray(center, dtype=float)))), spacing, turns)
    swept = abs(total) / (2 * math.pi)
    # how far inside the fair range, in cells of the radius's growth (a lap is ``spacing`` cells)
    margin = min(swept - lo, hi - swept) * spacing
    card.add(
        "turns",
        margin >= 0,
        round(swept, 4),
        f"{lo:.2f}..{hi:.2f} laps",
        f"about {swept:.2f} laps drawn from {fmt_xy(pts[inner].tolist())} out to the end, a fair spiral of "
        f"{turns:g} laps sweeps {lo:.2f}..{hi:.2f} there",
        margin=margin,
    )


def fair_laps(radius: float, spacing: float, turns: float) -> tuple[float, float]:
    """The laps a fair spiral sweeps from a drawn cell ``radius`` cells from the center to its outer
    end, as a range ``(least, most)``: what the ``turns`` check reads a drawing against.

    A fair spiral ``r = r₀ + kθ`` (inner offset ``r₀`` in :data:`FAIR_INNER_OFFSETS`, the asked laps
    and outer end ``R``) sweeps ``turns · (R − r) / (R − r₀)`` laps from radius ``r``; a cell's centre
    lies up to half a cell diagonal from the curve, so ``r`` is the cell's radius ± that, and so is
    the polar angle of the cell (by ``asin(half diagonal / radius)``) at both ends.
    """
    outer = spacing * turns
    reach = HALF_DIAGONAL
    least = turns * (outer - radius - reach) / outer
    most = turns * (outer - radius + reach) / (outer - max(FAIR_INNER_OFFSETS))
    turn = 2 * math.pi
    slack = (math.asin(min(1.0, reach / max(radius, reach))) + math.asin(min(1.0, reach / outer))) / turn
    return max(0.0, least - slack), most + slack


@dataclass(frozen=True)
class _Fit:
    """How a drawing's cells lie about one fair spiral of the asked law (:func:`_nearest_fair_spiral`)."""

    #: The fair spiral's inner offset (:data:`FAIR_INNER_OFFSETS`).
    inner: float
    #: Each distinct drawn cell's distance from it (0 in the center's block), and the farthest.
    stray: FloatArray
    far: float
    #: The farthest a point of it (outside :data:`CENTER_REACH`) lies from the nearest drawn cell.
    gap: float
    #: Each point of the drawing's distinct cell (an index into ``stray``).
    where: IntArray


def _nearest_fair_spiral(pts: FloatArray, asked: tuple[Point, float, float, float, str, bool]) -> _Fit:
    """The fair spiral of the ``asked`` law (center, spacing, turns, angle, direction, inward) the
    drawing ``pts`` fits best: the worse of its farthest stray cell and its widest uncovered part
    the least.

    The fair spirals keep what the prompt fixes — the center, the laps, the outer end and the way
    round — and differ only in where the first lap leaves the center (:data:`FAIR_INNER_OFFSETS`).
    """
    center = asked[0]
    # each drawn cell once: only the farthest counts, and a long answer repeats its cells
    cells, where = np.unique(pts.reshape(-1, 2), axis=0, return_inverse=True)
    in_block = np.max(np.abs(cells - np.asarray(center, dtype=float)), axis=1) <= 1.0
    fits: list[tuple[tuple[float, float], _Fit]] = []
    for inner in FAIR_INNER_OFFSETS:
        outline = prepared(spiral_outline, (*asked, inner), closed=False, center=center)
        stray = np.where(in_block, 0.0, outline.distance(cells)) if len(cells) else np.zeros(0)
        reach = np.hypot(outline.ref[:, 0] - center[0], outline.ref[:, 1] - center[1]) >= CENTER_REACH
        missed = np.sqrt(outline.nearest_sq(cells))[reach] if len(cells) else np.full(int(reach.sum()), np.inf)
        far, gap = float(stray.max(initial=0.0)), float(missed.max(initial=0.0))
        # the worse side first, then the other; rounded, so that a tie (one stray point as far from
        # every fair spiral) is not decided by float noise, which moving the drawing would change
        rank = (round(max(far, gap), 6), round(min(far, gap), 6))
        fits.append((rank, _Fit(inner, stray, far, gap, where.ravel())))
    # the first of equals: the offsets are listed from the center out
    return min(fits, key=lambda fit: fit[0])[1]


def _law_checks(
    card: Scorecard, pts: FloatArray, fit: _Fit, *, spacing: float, turns: float, t: SpiralThresholds
) -> None:
    """Add ``stray`` (every drawn cell near the spiral) and ``uncovered`` (the spiral drawn all
    along), both against the one fair spiral of the asked law that fits the drawing best (``fit``)."""
    if not len(pts):
        for name, limit in (("stray", t.max_stray), ("uncovered", t.max_uncovered)):
            card.add(name, False, float("inf"), f"≤ {limit:g}", "nothing is drawn")
        return
    inner, stray, far, gap = fit.inner, fit.stray, fit.far, fit.gap
    off = stray[fit.where]
    card.metrics.update(inner_offset=inner, max_stray=far, max_uncovered=gap)
    near = far <= t.max_stray
    card.add(
        "stray",
        near,
        far,
        f"≤ {t.max_stray:g}",
        f"a point lies {far:.1f} cells from the asked spiral ({spacing:g} apart, {turns:g} laps)",
        np.flatnonzero(off > t.max_stray)[:50].tolist(),
    )
    drawn = gap <= t.max_uncovered
    card.add(
        "uncovered",
        drawn,
        gap,
        f"≤ {t.max_uncovered:g}",
        f"part of the asked spiral is {gap:.1f} cells from the nearest drawn point (a gap or a missing lap)",
    )


def _revisit_check(card: Scorecard, pts: FloatArray, *, center: Point, t: SpiralThresholds) -> None:
    """Add ``revisits``: a spiral is a simple path, so it comes back to no cell it has left (out and
    back, a lap crossing another).

    Two returns are fair and not counted: one cell out and straight back (A, B, A: the curve grazing
    a cell's edge puts that in an every-cell-it-touches drawing), and any return inside the center's
    3 × 3 block, where a fair first lap curls.
    """
    cx, cy = float(center[0]), float(center[1])
    last_seen: dict[tuple[float, float], int] = {}
    again: list[int] = []
    for k, (x, y) in enumerate(pts.tolist()):
        before = last_seen.get((x, y))
        # k − 1: the same cell twice in a row (the ``repeats`` check's); k − 2: a graze
        if before is not None and k - before > 2 and max(abs(x - cx), abs(y - cy)) > 1.0:
            again.append(k)
        last_seen[(x, y)] = k
    card.metrics["revisits"] = len(again)
    card.add(
        "revisits",
        len(again) <= t.max_revisits,
        len(again),
        f"≤ {t.max_revisits}",
        f"{len(again)} points come back to a cell already drawn (out and back, or laps crossing)",
        again[:50],
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
