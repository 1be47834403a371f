"""Several circles' scorer: the answer split into contours, each matched to an asked circle and
scored as a circle, the per-circle checks merged, and the scene's own checks on top."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.base import CaseLike, with_overrides
from shape_asserts.families.circle import CircleThresholds, parsed_ints, score_circle
from shape_asserts.families.multi.asked import separate_radii, side_point
from shape_asserts.families.multi.matching import assign
from shape_asserts.families.multi.meeting import _cell_gap as _cell_gap  # (re-exported: tests use it)
from shape_asserts.families.multi.meeting import meetings
from shape_asserts.families.multi.merge import Passing, Row, merge_circles
from shape_asserts.families.multi.passing import passing_circles
from shape_asserts.families.prompts import fmt_xy
from shape_asserts.geometry.contours import BREAK_STEP, CLOSE_TOL, Contour, intersection, split_contours
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit import CircleModel
from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.fit.circle import AboutMean, about_mean, fit_circles
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard
from shape_asserts.geometry.seed import int_points_score

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


#: Whole-number coordinates below this magnitude add up exactly in any order (see :func:`_abouts`).
_EXACT = float(2**24)


class _Slices(Mapping[int, AboutMean]):
    """Each contour's :data:`.fit.circle.AboutMean` (of 3 points or more, by index) as its slices of
    the contours' stacked arrays, sliced when asked for (the common answer asks for none)."""

    def __init__(self, contours: Sequence[Contour], stacked: AboutMean) -> None:
        self._contours, self._stacked = contours, stacked
        self._keys = [i for i, c in enumerate(contours) if len(c) >= 3]

    def __getitem__(self, i: int) -> AboutMean:
        c = self._contours[i]
        if len(c) < 3:
            raise KeyError(i)
        means, centred, sq = self._stacked
        return means[i], centred[c.start : c.stop], sq[c.start : c.stop]

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _abouts(
    pts: FloatArray, contours: Sequence[Contour], small: bool
) -> tuple[Mapping[int, AboutMean], AboutMean | None]:
    """:func:`.fit.circle.about_mean` of each contour of 3 points or more, by index, and where the
    contours tile ``pts`` and ``small`` holds, all of them stacked (the means ``(k, 2)``), else None.

    ``small``: every coordinate of ``pts`` is a whole number within :data:`_EXACT` of 0 (the
    parser's ints). Each contour's sums of its coordinates are then exact in any order (every
    partial sum a whole number below ``2**53``), so those of contours tiling ``pts`` are added up
    at once (``np.add.reduceat``: the same numbers) and the mean's division, the differences and
    the squares made for all points at once (the same elementwise operations)."""
    tiled = all(a.stop == b.start for a, b in zip(contours, contours[1:]))
    if not (small and tiled and len(contours) > 1 and contours[0].start == 0 and contours[-1].stop == len(pts)):
        return {i: about_mean(c.points) for i, c in enumerate(contours) if len(c) >= 3}, None
    lens = np.array([len(c) for c in contours])
    means = np.add.reduceat(pts, [c.start for c in contours], axis=0) / lens[:, None]
    centred = pts - means.repeat(lens, axis=0)
    dx, dy = centred[:, 0], centred[:, 1]
    sq = dx * dx + dy * dy
    stacked = (means, centred, sq)
    return _Slices(contours, stacked), stacked


def _fits(
    pts: FloatArray, contours: Sequence[Contour], abouts: Mapping[int, AboutMean], stacked: AboutMean | None
) -> list[CircleModel | FitFailure]:
    """:func:`.fit.circle.fit_circles` of the contours ``abouts`` holds, in its order: from the
    ``stacked`` arrays where every contour is among them, else from theirs put together."""
    spans = [(contours[i].start, contours[i].stop) for i in abouts]
    if stacked is not None and len(abouts) == len(contours):
        return fit_circles(pts, *stacked, spans)
    if not abouts:
        return []
    ends = list(itertools.accumulate(b - a for a, b in spans))
    means, centred, sq = (np.concatenate(part) for part in zip(*abouts.values()))
    return fit_circles(
        np.concatenate([pts[a:b] for a, b in spans]),
        means.reshape(-1, 2),
        centred,
        sq,
        [(e - (b - a), e) for e, (a, b) in zip(ends, spans)],
    )


def _mean(values: list[float]) -> float:
    """The mean of ``values``, a plain float."""
    return float(np.mean(values))


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
    ints: bool = False,
) -> ShapeScore:
    """Score a drawing of several circles against the asked ones (see the module docstring).

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
    ints : bool
        Whether ``points`` hold the answer's ``{"x": int, "y": int}`` points exactly (the parser's
        ints, :func:`.circle.parsed_ints`): each circle's seed score then comes from its contour
        about its mean (:func:`.seed.int_points_score`, the same number as from its floats).
    """
    t = thresholds
    pts = as_points(points)
    contours = [c for c in split_contours(pts, break_step=t.break_step, close_tol=t.close_tol) if len(c)]
    k = len(targets)
    # each contour about its mean, once: its circle fit and (ints) its seed score start from it
    # (the least and largest coordinate, for the bounds check and whether the ints are small)
    extremes = (
        (float(np.minimum.reduce(pts, axis=None)), float(np.maximum.reduce(pts, axis=None))) if len(pts) else None
    )
    small = ints and extremes is not None and extremes[0] > -_EXACT and extremes[1] < _EXACT
    abouts, stacked = _abouts(pts, contours, small)
    # the contours a circle fits, by index (a contour of fewer than 3 points fits none), all at once
    fits = {i: m for i, m in zip(abouts, _fits(pts, contours, abouts, stacked)) if m}
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

    # match contours to the asked circles
    usable = list(fits)
    asked = [tg.radius for tg in targets if tg.radius is not None]  # all k, unless the model chooses
    pairs: list[tuple[int, int]]
    if match == "center":
        cost = np.array(
            [
                [math.hypot(fits[i].center[0] - tg.center[0], fits[i].center[1] - tg.center[1]) for tg in targets]
                for i in usable
            ]
        ).reshape(len(usable), k)
        pairs = [(usable[a], b) for a, b in assign(cost)]
    elif len(asked) == k:
        cost = np.array([[abs(fits[i].radius - r) for r in asked] for i in usable]).reshape(len(usable), k)
        pairs = [(usable[a], b) for a, b in assign(cost)]
    else:
        # model-chosen radii: the k longest contours, matched by rank of radius (targets ascending)
        keep = sorted(sorted(usable, key=lambda i: -len(contours[i]))[:k], key=lambda i: fits[i].radius)
        pairs = sorted(zip(keep, range(k)))
    metrics["matched"] = len(pairs)

    # each matched circle's start as asked (the side of the asked radius, else of the fitted one)
    starts: list[Point | None] = []
    for ci, tj in pairs:
        tg = targets[tj]
        r = tg.radius if tg.radius is not None else round(fits[ci].radius)
        starts.append(side_point(tg.center, r, tg.side) if tg.side is not None else None)
    # the circles passing every check measured together; each other one scored on its own
    # (the matched contours all of them, in order: their points and squares are the answer's, stacked)
    whole = len(pairs) == len(contours)
    fast = passing_circles(
        [contours[ci] for ci, _ in pairs],
        [fits[ci] for ci, _ in pairs],
        [abouts[ci] for ci, _ in pairs] if not (whole and stacked is not None) else [],  # (unread then)
        [targets[tj].center for _, tj in pairs],
        starts,
        [targets[tj].direction for _, tj in pairs],
        t,
        ints=ints,
        inside=extremes is not None and extremes[0] > -_EXACT and extremes[1] < _EXACT,
        xy=pts if whole else None,
        squares=stacked[2] if whole and stacked is not None else None,
    )
    per: list[tuple[str, Passing | list[Row], Contour]] = []
    seeds = [0.0] * k
    roundness: list[float] = []
    for (ci, tj), start, passing in zip(pairs, starts, fast):
        tg, contour, fit = targets[tj], contours[ci], fits[ci]
        if passing is not None:
            per.append((tg.label, passing, contour))
            seeds[tj] = passing.seed
            roundness.append(passing.roundness)
            continue
        s = score_circle(
            contour.points,
            center=tg.center,
            grid_size=grid_size,
            start=start,
            direction=tg.direction,
            thresholds=t,
            fit=fit,
            bounds=False,  # the whole drawing's bounds are checked below (and this one skipped)
            # (None where the coordinates are too large for the int path: score_circle computes it)
            seed=int_points_score(contour.points, abouts[ci]) if ints else None,
        )
        seeds[tj] = float(s.score)
        roundness.append(s.metrics.get("roundness", 0.0))
        per.append((tg.label, [(c.name, c.passed, c.margin, c.limit, c) for c in s.checks], contour))
    merge_circles(card, per, skip={"bounds"})

    fitted = {tj: fits[ci].radius for ci, tj in pairs}
    if len(asked) == k:
        errs = {tj: abs(fitted[tj] - asked[tj]) for tj in fitted}
        worst = max(errs.values(), default=0.0)
        bad = [tj for tj, e in errs.items() if e > t.max_radius_error]
        metrics["max_radius_error"] = worst
        card.add(
            "radii",
            not bad,
            worst,
            f"≤ {t.max_radius_error:g}",
            "; ".join(f"{targets[tj].label}: fitted {fitted[tj]:.1f}" for tj in sorted(bad)),
        )
    if min_spacing is not None:
        rs = sorted(fitted.values())
        gaps = [b - a for a, b in zip(rs, rs[1:])]
        least = min(gaps, default=math.inf)
        need = min_spacing - t.spacing_slack
        metrics["min_radius_spacing"] = least if gaps else None
        card.add("spacing", least >= need, least if gaps else "n/a", f"≥ {need:g}", "neighbouring radii too close")
    if order is not None:
        drawn = [fitted[tj] for _, tj in sorted(pairs)]
        want = sorted(drawn) if order == "outward" else sorted(drawn, reverse=True)
        # no two radii equal to 6 decimals: np.round(drawn, 6), rint(r * 1e6) / 1e6, in Python floats
        # (round() of a finite float is rint's integer; a fitted radius is finite)
        ok = drawn == want and len({round(r * 1e6) / 1e6 for r in drawn}) == len(drawn)
        card.add(
            "order",
            ok,
            "[" + ", ".join(f"{r:.1f}" for r in drawn) + "]",
            "radii " + ("growing" if order == "outward" else "shrinking"),
            "circles drawn in another order",
        )
    metrics["radii"] = [round(fitted[tj], 2) for tj in sorted(fitted)]

    # the circles must not meet: only the contours matched to asked circles are compared (at most k,
    # so the work stays k² whatever the answer; extra contours already fail ``contours``)
    # (the pairwise test by the name this module gives it: a test counts its calls)
    hits, least = meetings(pts, contours, sorted(ci for ci, _ in pairs), intersection)
    metrics["intersections"] = len(hits)
    metrics["min_separation"] = least if math.isfinite(least) else None  # (a Python float)
    card.add(
        "intersections",
        len(hits) <= t.max_intersections,
        len(hits),
        f"≤ {t.max_intersections}",
        "; ".join(f"contours #{i + 1} and #{j + 1} meet at {(x.shared + x.crossings)[0]}" for i, j, x in hits[:4]),
    )
    card.bounds(pts, grid_size, extremes=extremes)

    score = _mean(seeds) if k else 0.0
    metrics["mean_seed_score"] = score
    metrics["min_roundness"] = min(roundness, default=0.0)
    card.marks.update(
        gaps=tuple(g for c in contours for g in c.gaps),
        repeats=tuple(r for c in contours for r in c.repeats),
        breaks=tuple(c.start for c in contours[1:]),
    )
    return card.result(family, score)


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
        ints=parsed_ints(drawing),
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
        ints=parsed_ints(drawing),
    )
