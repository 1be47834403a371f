"""Several circles' scorer: the answer split into contours, each matched to an asked circle and
scored as a circle, the per-circle checks merged, and the scene's own checks on top."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.base import CaseLike, with_overrides
from shape_asserts.families.circle import CircleThresholds, score_circle
from shape_asserts.families.multi.asked import separate_radii, side_point
from shape_asserts.families.multi.matching import assign
from shape_asserts.families.multi.meeting import meetings
from shape_asserts.families.prompts import fmt_xy
from shape_asserts.geometry.contours import BREAK_STEP, CLOSE_TOL, Contour, split_contours
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit import CircleModel
from shape_asserts.geometry.points import Point, as_points
from shape_asserts.geometry.score import Check, ShapeScore, fmt_value
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["CirclesThresholds", "CIRCLES", "assign", "score_circles", "concentric_score", "separate_score"]


@dataclass(frozen=True)
class CirclesThresholds(CircleThresholds):
    """Limits for drawings of several circles: every circle's limits plus the scene's own."""

    #: (``max_radius_error``, the circle's, holds each fitted radius to the asked one: ``radii``.)
    #: How much closer than the asked spacing model-chosen neighbouring radii may be, in cells.
    spacing_slack: float = 0.75
    #: Pairs of contours that may share or cross cells.
    max_intersections: int = 0
    #: Contour splitting (see ``shape_asserts.geometry.contours``): a longer step always starts a contour.
    break_step: float = BREAK_STEP
    #: Contour splitting: how near its start a finished loop ends.
    close_tol: float = CLOSE_TOL


CIRCLES = CirclesThresholds()


@dataclass(frozen=True)
class _Target:
    """One asked circle: center, radius (None when the model chooses) and what its start must be."""

    label: str
    center: Point
    radius: float | None
    side: str | None
    direction: str | None


def score_circles(
    points: ArrayLike,
    targets: Sequence[_Target],
    *,
    family: str,
    grid_size: int,
    thresholds: CirclesThresholds,
    match: str,
    order: str | None = None,
    min_spacing: float | None = None,
) -> ShapeScore:
    """Score a drawing of several circles against the asked ones (see the package docstring).

    Parameters
    ----------
    points : ndarray, shape (N, 2)
    targets : the asked circles, in the asked drawing order
    match : {"radius", "center"}
        How contours are matched to targets: by fitted radius (concentric) or by fitted center.
    order : {"outward", "inward"}, optional
        Check the drawing order of the matched radii.
    min_spacing : float, optional
        Model-chosen radii must be at least this far apart.
    """
    t = thresholds
    pts = as_points(points)
    contours = [c for c in split_contours(pts, break_step=t.break_step, close_tol=t.close_tol) if len(c)]
    k = len(targets)
    # the contours a circle fits, by index (a contour of fewer than 3 points fits none)
    fits = {}
    for i, contour in enumerate(contours):
        fit = CircleModel.from_estimate(contour.points) if len(contour) >= 3 else None
        if fit:
            fits[i] = fit
    card = Scorecard()
    metrics = card.metrics
    metrics.update(n_points=len(pts), contours=len(contours), circles=k)
    card.add(
        "contours",
        len(contours) == k,
        len(contours),
        f"= {k}",
        f"drew {len(contours)} contour(s) for {k} circles",
        tuple(c.start for c in contours[1:]) if len(contours) != k else (),
    )

    pairs = _matched(contours, fits, targets, match)
    metrics["matched"] = len(pairs)
    seeds = [0.0] * k
    roundness: list[float] = []
    circles: list[tuple[str, ShapeScore, Contour]] = []
    for ci, tj in pairs:
        circle = _score_one(contours[ci], fits[ci], targets[tj], grid_size, t)
        seeds[tj] = circle.score
        roundness.append(circle.metrics.get("roundness", 0.0))
        circles.append((targets[tj].label, circle, contours[ci]))
    _merge_checks(card, circles)

    fitted = {tj: fits[ci].radius for ci, tj in pairs}
    asked = [tg.radius for tg in targets if tg.radius is not None]  # all k, unless the model chooses
    if len(asked) == k:
        _check_radii(card, fitted, asked, targets, t)
    if min_spacing is not None:
        _check_spacing(card, fitted, min_spacing, t)
    if order is not None:
        _check_order(card, [fitted[tj] for _, tj in sorted(pairs)], order)
    metrics["radii"] = [round(fitted[tj], 2) for tj in sorted(fitted)]
    _check_meetings(card, contours, sorted(ci for ci, _ in pairs), t)
    card.bounds(pts, grid_size)

    score = float(np.mean(seeds)) if k else 0.0
    metrics["mean_seed_score"] = score
    metrics["min_roundness"] = min(roundness, default=0.0)
    card.marks.update(
        gaps=tuple(g for c in contours for g in c.gaps),
        repeats=tuple(r for c in contours for r in c.repeats),
        breaks=tuple(c.start for c in contours[1:]),
    )
    return card.result(family, score)


def _matched(
    contours: Sequence[Contour], fits: dict[int, CircleModel], targets: Sequence[_Target], match: str
) -> list[tuple[int, int]]:
    """The contours matched to the asked circles, as ``(contour, target)`` pairs sorted by contour:
    by fitted center (``match="center"``), else by fitted radius, or where the model chooses the
    radii, the ``k`` longest contours by rank of radius (targets ascending)."""
    usable = list(fits)
    k = len(targets)
    asked = [tg.radius for tg in targets if tg.radius is not None]
    if match == "center":
        rows = [
            [math.hypot(fits[i].center[0] - tg.center[0], fits[i].center[1] - tg.center[1]) for tg in targets]
            for i in usable
        ]
    elif len(asked) == k:
        rows = [[abs(fits[i].radius - r) for r in asked] for i in usable]
    else:
        keep = sorted(sorted(usable, key=lambda i: -len(contours[i]))[:k], key=lambda i: fits[i].radius)
        return sorted(zip(keep, range(k)))
    cost = np.array(rows).reshape(len(usable), k)
    return [(usable[a], b) for a, b in assign(cost)]


def _score_one(contour: Contour, fit: CircleModel, target: _Target, grid_size: int, t: CirclesThresholds) -> ShapeScore:
    """One matched contour scored as a circle (:func:`.circle.score_circle`) against its asked
    circle; its start on the asked side of the asked radius, else of the fitted one."""
    start = None
    # a free radius is the model's to choose: the fitted one, give or take what rounding it to the start cost
    radii = (target.radius, target.radius) if target.radius is not None else None
    if target.side is not None:
        r = target.radius if target.radius is not None else round(fit.radius)
        start = side_point(target.center, r, target.side)
    return score_circle(
        contour.points,
        center=target.center,
        grid_size=grid_size,
        start=start,
        direction=target.direction,
        thresholds=t,
        fit=fit,
        bounds=False,  # the whole drawing's bounds are checked once, by score_circles
        radii=radii,
    )


def _merge_checks(card: Scorecard, circles: list[tuple[str, ShapeScore, Contour]]) -> None:
    """One check per name over the matched circles (``circles``: each one's label, score and
    contour, in drawing order), passing when every circle's does, its margin the least of theirs;
    a failed one names the circles that failed it and marks their points in the answer."""
    by_name: dict[str, list[tuple[str, Check, Contour]]] = {}
    for label, circle, contour in circles:
        for check in circle.checks:
            by_name.setdefault(check.name, []).append((label, check, contour))
    for name, rows in by_name.items():
        margins = [check.margin for _, check, _ in rows]
        least = min((m for m in margins if m is not None), default=None)
        limit = rows[0][1].limit + " each"
        bad = [(label, check, contour) for label, check, contour in rows if not check.passed]
        if not bad:
            card.add(name, True, f"all {len(rows)} pass", limit, "", (), least)
            continue
        detail = "; ".join(
            f"{label}: {fmt_value(c.value)}" + (f" ({c.detail})" if c.detail else "") for label, c, _ in bad
        )
        idx = tuple(sorted({contour.start + i for _, c, contour in bad for i in c.indices}))
        card.add(name, False, f"{len(bad)} of {len(rows)} circles failed", limit, detail, idx, least)


def _check_radii(
    card: Scorecard, fitted: dict[int, float], asked: list[float], targets: Sequence[_Target], t: CirclesThresholds
) -> None:
    """``radii``: each matched circle's fitted radius within ``max_radius_error`` of the asked one."""
    errs = {tj: abs(fitted[tj] - asked[tj]) for tj in fitted}
    worst = max(errs.values(), default=0.0)
    bad = [tj for tj, e in errs.items() if e > t.max_radius_error]
    card.metrics["max_radius_error"] = worst
    card.add(
        "radii",
        not bad,
        worst,
        f"≤ {t.max_radius_error:g}",
        "; ".join(f"{targets[tj].label}: fitted {fitted[tj]:.1f}" for tj in sorted(bad)),
    )


def _check_spacing(card: Scorecard, fitted: dict[int, float], min_spacing: float, t: CirclesThresholds) -> None:
    """``spacing``: model-chosen neighbouring radii at least the asked spacing apart (less the slack)."""
    rs = sorted(fitted.values())
    gaps = [b - a for a, b in zip(rs, rs[1:])]
    least = min(gaps, default=math.inf)
    need = min_spacing - t.spacing_slack
    card.metrics["min_radius_spacing"] = least if gaps else None
    card.add("spacing", least >= need, least if gaps else "n/a", f"≥ {need:g}", "neighbouring radii too close")


def _check_order(card: Scorecard, drawn: list[float], order: str) -> None:
    """``order``: the fitted radii in drawing order grow (``outward``) or shrink (``inward``), no
    two of them equal to 6 decimals."""
    want = sorted(drawn) if order == "outward" else sorted(drawn, reverse=True)
    ok = drawn == want and len(set(np.round(drawn, 6).tolist())) == len(drawn)
    card.add(
        "order",
        ok,
        "[" + ", ".join(f"{r:.1f}" for r in drawn) + "]",
        "radii " + ("growing" if order == "outward" else "shrinking"),
        "circles drawn in another order",
    )


def _check_meetings(card: Scorecard, contours: Sequence[Contour], matched: list[int], t: CirclesThresholds) -> None:
    """``intersections``: no two matched contours share a cell or cross (extra contours already
    fail ``contours``); ``min_separation``: the least gap between two of them, in cells."""
    hits, least = meetings(contours, matched)
    card.metrics["intersections"] = len(hits)
    card.metrics["min_separation"] = least if math.isfinite(least) else None
    card.add(
        "intersections",
        len(hits) <= t.max_intersections,
        len(hits),
        f"≤ {t.max_intersections}",
        "; ".join(f"contours #{i + 1} and #{j + 1} meet at {(x.shared + x.crossings)[0]}" for i, j, x in hits[:4]),
    )


def concentric_score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    p = case.params
    given = p.get("radii") is not None
    radii = list(p["radii"]) if given else [None] * int(p["k"])
    targets = [
        _Target(
            label=(f"circle r={r}" if r is not None else f"circle #{i + 1} from the center"),
            center=tuple(p["center"]),
            radius=r,
            side=p["start"],
            direction=p["direction"],
        )
        for i, r in enumerate(radii)
    ]
    return score_circles(
        drawing.points,
        targets,
        family="concentric",
        grid_size=p["grid_size"],
        thresholds=with_overrides(CIRCLES, case.thresholds),
        match="radius",
        order=p["order"],
        min_spacing=None if given else p["min_spacing"],
    )


def separate_score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    p = case.params
    targets = [
        _Target(
            label=f"circle at {fmt_xy(c)}", center=tuple(c), radius=r, side=p.get("start"), direction=p.get("direction")
        )
        for c, r in zip(p["centers"], separate_radii(p))
    ]
    return score_circles(
        drawing.points,
        targets,
        family="circles",
        grid_size=p["grid_size"],
        thresholds=with_overrides(CIRCLES, case.thresholds),
        match="center",
    )
