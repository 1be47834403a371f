"""Several circles in one answer: nested (``concentric``) and side by side (``circles``).

The seed's author drew both after the single circle ("вложенные круги, несколько маленьких
кругов"). Both are asked with the seed's free-scene template (``prompts.scene_prompt``), whose
rules fit them exactly: each object a contour in drawing order, objects not intersecting, all
points in one list. The description filled into the template states the centers, radii, order,
start side and direction.

Scoring splits the answer into contours at pen lifts (:func:`shape_asserts.geometry.contours.split_contours`,
whose docstring says how a lift is told from a gap), matches contours to the asked circles, scores
each matched contour with :func:`shape_asserts.families.circle_score.score_circle` and merges those per-circle checks
into one check per name (``roundness`` fails when any circle's roundness does; the detail names
the circle). Family-level checks come on top:

- ``contours``: exactly as many contours as circles asked;
- ``intersections``: no two contours matched to asked circles share a cell or cross diagonally (only
  those: the work stays bounded by the asked count, and extra contours fail ``contours`` anyway);
- ``bounds``: every point on the grid;
- concentric: ``radii`` (each fitted radius within ``max_radius_error`` of the asked one) or, when
  the model chooses the radii, ``spacing`` (neighbouring radii at least the asked spacing apart);
  ``order`` (drawn from the smallest out, or from the largest in, as asked); the per-circle
  ``center`` check is the common-center check;
- circles: ``radii`` as above; matching is by fitted center, so the drawing order is free.

The headline score is the mean of the circles' seed scores (the post's roundness metric, per
contour), a circle not drawn counting 0: comparable with the single-circle family.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from shape_asserts.geometry import checks as ck
from shape_asserts.geometry.contours import (
    BREAK_STEP,
    CLOSE_TOL,
    Contour,
    intersection,
    min_distance,
    split_contours,
)
from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.fit import CircleModel
from shape_asserts.families.prompts import scene_prompt
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import Check, ShapeScore
from shape_asserts.families.circle_score import score_circle
from shape_asserts.families.thresholds import CircleThresholds, with_overrides
from shape_asserts.families.base import Family, direction_param, inside_grid, pair_param

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.drawing import Drawing

__all__ = ["CirclesThresholds", "CIRCLES", "CONCENTRIC", "SEPARATE", "SIDES", "assign", "score_circles"]


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

#: Start sides: unit offsets from a circle's center (y down) and their names in the prompts.
SIDES: dict[str, tuple[int, int]] = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}
_SIDE_RU = {"top": "верхней", "right": "правой", "bottom": "нижней", "left": "левой"}
_SIDE_EN = {"top": "top", "right": "rightmost", "bottom": "bottom", "left": "leftmost"}
_DIR_RU = {"cw": "по часовой стрелке", "ccw": "против часовой стрелки"}
_DIR_EN = {"cw": "clockwise", "ccw": "counter-clockwise"}
_COUNT_RU = {2: "две", 3: "три", 4: "четыре", 5: "пять", 6: "шесть"}
#: Russian numerals 2–4 take the plural nominative, 5 and up the plural genitive.
_FEW_RU = (2, 3, 4)
_COUNT_EN = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_ORDER_RU = {"outward": "от меньшей к большей", "inward": "от большей к меньшей"}
_ORDER_EN = {"outward": "from the smallest to the largest", "inward": "from the largest to the smallest"}
#: Most circles in one case (matching is exact by brute force up to 7 contours).
MAX_CIRCLES = 6


# --- parameters ---------------------------------------------------------------------------------

def _int_param(p: Mapping[str, Any], key: str, lo: int, hi: int | None = None, default: int | None = None) -> int | None:
    v = p.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or float(v) != int(v):
        raise CaseError(f"'{key}' must be a whole number, got {v!r}")
    v = int(v)
    if v < lo or (hi is not None and v > hi):
        raise CaseError(f"'{key}' must be between {lo} and {hi}, got {v}" if hi is not None
                        else f"'{key}' must be at least {lo}, got {v}")
    return v


def _radii_param(p: Mapping[str, Any], key: str = "radii") -> list[int] | None:
    v = p.get(key)
    if v is None:
        return None
    if not isinstance(v, (list, tuple)) or not v:
        raise CaseError(f"'{key}' must be a list of whole numbers, got {v!r}")
    out = []
    for r in v:
        if isinstance(r, bool) or not isinstance(r, (int, float)) or float(r) != int(r) or r < 3:
            raise CaseError(f"'{key}' must hold whole numbers ≥ 3, got {r!r}")
        out.append(int(r))
    return out


def _side_param(p: Mapping[str, Any], key: str = "start", default: str | None = "top") -> str | None:
    v = p.get(key, default)
    if v is None:
        return None
    if v not in SIDES:
        raise CaseError(f"'{key}' must be one of {', '.join(SIDES)}, got {v!r}")
    return str(v)


def _fits(center: tuple[float, float], r: float, g: int, what: str) -> None:
    cx, cy = center
    if cx - r < 0 or cy - r < 0 or cx + r > g - 1 or cy + r > g - 1:
        raise CaseError(f"{what} of radius {r:g} about {tuple(center)} does not fit the {g}×{g} grid")


def _concentric_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    g = out["grid_size"] = int(p.get("grid_size", 50))
    out["center"] = pair_param(p, "center")
    inside_grid(out["center"], g, "'center'")
    out["start"] = _side_param(p)
    out["direction"] = direction_param(p)
    order = p.get("order", "outward")
    if order not in _ORDER_RU:
        raise CaseError(f"'order' must be 'outward' or 'inward', got {order!r}")
    out["order"] = order
    radii = _radii_param(p)
    if radii is not None:
        if sorted(set(radii)) != radii:
            raise CaseError(f"'radii' must be distinct and ascending (the order is 'order'), got {radii}")
        if any(b - a < 2 for a, b in zip(radii, radii[1:])):
            raise CaseError(f"'radii' must differ by at least 2 so the circles do not touch, got {radii}")
        if not 2 <= len(radii) <= MAX_CIRCLES:
            raise CaseError(f"'radii' must hold 2 to {MAX_CIRCLES} radii, got {len(radii)}")
        k = _int_param(p, "k", 2, MAX_CIRCLES, default=len(radii))
        if k != len(radii):
            raise CaseError(f"'k' is {k} but 'radii' holds {len(radii)} radii")
        out["radii"], out["k"] = radii, k
        _fits(out["center"], radii[-1], g, "the largest circle")
        out.pop("min_spacing", None)
    else:
        out["k"] = _int_param(p, "k", 2, MAX_CIRCLES)
        if out["k"] is None:
            raise CaseError("give 'radii' (a list) or 'k' (how many circles, radii chosen by the model)")
        out["min_spacing"] = _int_param(p, "min_spacing", 2, default=3)
        _ideal_radii(out)  # raises when k circles so spaced cannot fit
    return out


def _ideal_radii(p: Mapping[str, Any]) -> list[int]:
    """The asked radii, or (model's choice) evenly spaced ones filling the room about the center."""
    if p.get("radii") is not None:
        return list(p["radii"])
    g = int(p["grid_size"])
    cx, cy = p["center"]
    room = int(math.floor(min(cx, cy, g - 1 - cx, g - 1 - cy))) - 1
    k, s = int(p["k"]), int(p["min_spacing"])
    step = max(s, (room - 3) // (k - 1)) if k > 1 else s
    if room - (k - 1) * step < 3:
        raise CaseError(f"{k} circles about {tuple(p['center'])} spaced {s} apart do not fit the grid")
    return [room - (k - 1 - i) * step for i in range(k)]


def _separate_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    g = out["grid_size"] = int(p.get("grid_size", 50))
    raw = p.get("centers")
    if not isinstance(raw, (list, tuple)) or not 2 <= len(raw) <= MAX_CIRCLES:
        raise CaseError(f"'centers' must be a list of 2 to {MAX_CIRCLES} [x, y] pairs, got {raw!r}")
    centers = [pair_param({"c": c}, "c") for c in raw]
    radii = _radii_param(p)
    radius = _int_param(p, "radius", 3)
    if (radii is None) == (radius is None):
        raise CaseError("give either 'radius' (one for all circles) or 'radii' (one per center)")
    if radii is None:
        radii = [radius] * len(centers)
    elif len(radii) != len(centers):
        raise CaseError(f"'radii' holds {len(radii)} radii for {len(centers)} centers")
    for i, (c, r) in enumerate(zip(centers, radii)):
        inside_grid(c, g, f"center #{i + 1}")
        _fits(c, r, g, f"circle #{i + 1}")
    for (i, a), (j, b) in itertools.combinations(enumerate(zip(centers, radii)), 2):
        if math.hypot(a[0][0] - b[0][0], a[0][1] - b[0][1]) < a[1] + b[1] + 3:
            raise CaseError(f"circles #{i + 1} and #{j + 1} are too close: they must stay 2 cells apart")
    out["centers"] = [tuple(c) for c in centers]
    out["radius"], out["radii"] = radius, (None if radius is not None else radii)
    out["start"] = _side_param(p, default=None)
    out["direction"] = direction_param(p) if p.get("direction") is not None else None
    return out


def _separate_radii(p: Mapping[str, Any]) -> list[int]:
    return [int(p["radius"])] * len(p["centers"]) if p.get("radius") is not None else list(p["radii"])


# --- prompts ------------------------------------------------------------------------------------

def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _pt(c: Sequence[float]) -> str:
    return f"({_num(c[0])},{_num(c[1])})"


def _join(items: list[str], lang: str) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + (" и " if lang == "ru" else " and ") + items[-1]


def _travel(start: str | None, direction: str | None, lang: str) -> str:
    """'start each circle at its top point and go clockwise', whichever parts are asked."""
    ru = lang == "ru"
    if start is None and direction is None:
        return ""
    if start is not None and direction is not None:
        return (f"; каждую окружность начинай с её {_SIDE_RU[start]} точки и обходи {_DIR_RU[direction]}" if ru
                else f"; start each circle at its {_SIDE_EN[start]} point and go {_DIR_EN[direction]}")
    if start is not None:
        return (f"; каждую окружность начинай с её {_SIDE_RU[start]} точки" if ru
                else f"; start each circle at its {_SIDE_EN[start]} point")
    return f"; каждую окружность обходи {_DIR_RU[direction]}" if ru else f"; go round each circle {_DIR_EN[direction]}"


def concentric_description(p: Mapping[str, Any], lang: str) -> str:
    """What the scene template is filled with for a concentric case."""
    ru = lang == "ru"
    k = int(p["k"])
    if p.get("radii") is not None:
        rs = _join([str(r) for r in p["radii"]], lang)
        radii = f"радиусы {rs}" if ru else f"radii {rs}"
    else:
        s = p["min_spacing"]
        radii = (f"радиусы выбери сам: все окружности должны помещаться в сетке, а соседние радиусы — "
                 f"отличаться не меньше чем на {s}" if ru else
                 f"choose the radii yourself: every circle must fit in the grid and neighbouring radii "
                 f"must differ by at least {s}")
    if ru:
        noun = "концентрические окружности" if k in _FEW_RU else "концентрических окружностей"
        head = f"{_COUNT_RU[k]} {noun} (общий центр в точке {_pt(p['center'])}; {radii}; "
        order = f"рисуй их по очереди, {_ORDER_RU[p['order']]}"
    else:
        head = f"{_COUNT_EN[k]} concentric circles (common center at {_pt(p['center'])}; {radii}; "
        order = f"draw them one after another, {_ORDER_EN[p['order']]}"
    return head + order + _travel(p["start"], p["direction"], lang) + ")"


def separate_description(p: Mapping[str, Any], lang: str) -> str:
    """What the scene template is filled with for a several-circles case."""
    ru = lang == "ru"
    k = len(p["centers"])
    centers = _join([_pt(c) for c in p["centers"]], lang)
    if p.get("radius") is not None:
        r = p["radius"]
        what = (f"радиус каждой — {r}; центры в точках {centers}" if ru
                else f"each of radius {r}; centers at {centers}")
    else:
        pairs = _join([f"{_pt(c)} — {r}" for c, r in zip(p["centers"], p["radii"])], lang)
        what = f"центры и радиусы: {pairs}" if ru else f"centers and radii: {pairs}"
    noun = "отдельные маленькие окружности" if k in _FEW_RU else "отдельных маленьких окружностей"
    head = (f"{_COUNT_RU[k]} {noun} ({what}" if ru
            else f"{_COUNT_EN[k]} separate small circles ({what}")
    return head + _travel(p.get("start"), p.get("direction"), lang) + ")"


def _concentric_prompt(case: "Case", lang: str) -> str:
    return scene_prompt(concentric_description(case.params, lang), lang=lang)


def _separate_prompt(case: "Case", lang: str) -> str:
    return scene_prompt(separate_description(case.params, lang), lang=lang)


# --- ideal drawings -----------------------------------------------------------------------------

def _side_point(center: Sequence[float], r: float, side: str) -> tuple[float, float]:
    ux, uy = SIDES[side]
    return (center[0] + ux * r, center[1] + uy * r)


def _int_center(c: Sequence[float]) -> tuple[int, int]:
    # halves round up, not to even: shifting a case by whole cells shifts its ideal exactly
    return (int(math.floor(c[0] + 0.5)), int(math.floor(c[1] + 0.5)))


def _concentric_ideal(case: "Case") -> np.ndarray:
    p = case.params
    radii = _ideal_radii(p)
    if p["order"] == "inward":
        radii = radii[::-1]
    c = _int_center(p["center"])
    rings = [raster_circle(c, r, start=_side_point(c, r, p["start"]), direction=p["direction"]) for r in radii]
    return np.vstack(rings)


def _separate_ideal(case: "Case") -> np.ndarray:
    p = case.params
    side = p.get("start") or "top"
    rings = []
    for c, r in zip(p["centers"], _separate_radii(p)):
        ci = _int_center(c)
        rings.append(raster_circle(ci, r, start=_side_point(ci, r, side), direction=p.get("direction") or "cw"))
    return np.vstack(rings)


# --- matching -----------------------------------------------------------------------------------

def assign(cost: np.ndarray) -> list[tuple[int, int]]:
    """Pairs ``(row, column)`` matching rows to columns one-to-one with the least total cost.

    Exact (brute force over permutations) when neither side has more than 7 entries, greedy by
    increasing cost otherwise; ``min(rows, columns)`` pairs, sorted by row.

    Examples
    --------
    >>> assign(np.array([[5.0, 1.0], [1.0, 5.0], [9.0, 9.0]]))
    [(0, 1), (1, 0)]
    """
    cost = np.asarray(cost, dtype=float)
    m, k = cost.shape
    if m == 0 or k == 0:
        return []
    if max(m, k) <= 7:
        best, pairs = math.inf, []
        if m >= k:
            for perm in itertools.permutations(range(m), k):
                total = sum(cost[perm[j], j] for j in range(k))
                if total < best:
                    best, pairs = total, [(perm[j], j) for j in range(k)]
        else:
            for perm in itertools.permutations(range(k), m):
                total = sum(cost[i, perm[i]] for i in range(m))
                if total < best:
                    best, pairs = total, [(i, perm[i]) for i in range(m)]
        return sorted(pairs)
    order = np.dstack(np.unravel_index(np.argsort(cost, axis=None, kind="stable"), cost.shape))[0]
    rows, cols, pairs = set(), set(), []
    for i, j in order:
        if i not in rows and j not in cols:
            rows.add(int(i))
            cols.add(int(j))
            pairs.append((int(i), int(j)))
    return sorted(pairs)


@dataclass(frozen=True)
class _Target:
    """One asked circle: center, radius (None when the model chooses) and what its start must be."""

    label: str
    center: tuple[float, float]
    radius: float | None
    side: str | None
    direction: str | None


# --- scoring ------------------------------------------------------------------------------------

def _merge(per: list[tuple[str, ShapeScore, Contour]], skip: set[str]) -> list[Check]:
    """One check per name over all circles: passes when every circle's does."""
    names: list[str] = []
    for _, s, _ in per:
        for c in s.checks:
            if c.name not in skip and c.name not in names:
                names.append(c.name)
    out = []
    for name in names:
        rows = [(label, c, contour) for label, s, contour in per for c in s.checks if c.name == name]
        bad = [(label, c, contour) for label, c, contour in rows if not c.passed]
        limit = rows[0][1].limit + " each"
        detail = "; ".join(f"{label}: {_show(c.value)}" + (f" ({c.detail})" if c.detail else "")
                           for label, c, _ in bad)
        idx = tuple(sorted({contour.start + i for _, c, contour in bad for i in c.indices}))
        margins = [c.margin for _, c, _ in rows if c.margin is not None]
        out.append(Check(name, not bad, f"{len(bad)} of {len(rows)} circles failed" if bad else f"all {len(rows)} pass",
                         limit, detail, idx, min(margins) if margins else None))
    return out


def _show(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def score_circles(
    points: np.ndarray,
    targets: Sequence[_Target],
    *,
    family: str,
    grid_size: int,
    thresholds: CirclesThresholds,
    match: str,
    order: str | None = None,
    min_spacing: float | None = None,
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
    """
    t = thresholds
    pts = ck.as_points(points)
    contours = [c for c in split_contours(pts, break_step=t.break_step, close_tol=t.close_tol) if len(c)]
    k = len(targets)
    fits = [CircleModel.from_estimate(c.points) if len(c) >= 3 else None for c in contours]
    metrics: dict[str, Any] = {"n_points": len(pts), "contours": len(contours), "circles": k}
    out: list[Check] = []

    out.append(Check("contours", len(contours) == k, len(contours), f"= {k}",
                     f"drew {len(contours)} contour(s) for {k} circles" if len(contours) != k else "",
                     tuple(c.start for c in contours[1:]) if len(contours) != k else ()))

    # match contours to the asked circles
    usable = [i for i, f in enumerate(fits) if f]
    pairs: list[tuple[int, int]]
    if match == "center":
        cost = np.array([[math.hypot(fits[i].center[0] - tg.center[0], fits[i].center[1] - tg.center[1])
                          for tg in targets] for i in usable]).reshape(len(usable), k)
        pairs = [(usable[a], b) for a, b in assign(cost)]
    elif all(tg.radius is not None for tg in targets):
        cost = np.array([[abs(fits[i].radius - tg.radius) for tg in targets] for i in usable]).reshape(len(usable), k)
        pairs = [(usable[a], b) for a, b in assign(cost)]
    else:
        # model-chosen radii: the k longest contours, matched by rank of radius (targets ascending)
        keep = sorted(sorted(usable, key=lambda i: -len(contours[i]))[:k], key=lambda i: fits[i].radius)
        pairs = sorted(zip(keep, range(k)))
    metrics["matched"] = len(pairs)

    per: list[tuple[str, ShapeScore, Contour]] = []
    seeds = [0.0] * k
    for ci, tj in pairs:
        tg, contour, fit = targets[tj], contours[ci], fits[ci]
        start = None
        if tg.side is not None:
            r = tg.radius if tg.radius is not None else round(fit.radius)
            start = _side_point(tg.center, r, tg.side)
        s = score_circle(contour.points, center=tg.center, grid_size=grid_size, start=start,
                         direction=tg.direction, thresholds=t)
        seeds[tj] = float(s.score)
        per.append((tg.label, s, contour))
    out.extend(_merge(per, skip={"bounds"}))

    fitted = {tj: fits[ci].radius for ci, tj in pairs}
    if all(tg.radius is not None for tg in targets):
        errs = {tj: abs(fitted[tj] - targets[tj].radius) for tj in fitted}
        worst = max(errs.values(), default=0.0)
        bad = [tj for tj, e in errs.items() if e > t.max_radius_error]
        metrics["max_radius_error"] = worst
        out.append(Check("radii", not bad, worst, f"≤ {t.max_radius_error:g}",
                         "; ".join(f"{targets[tj].label}: fitted {fitted[tj]:.1f}" for tj in sorted(bad))))
    if min_spacing is not None:
        rs = sorted(fitted.values())
        gaps = [b - a for a, b in zip(rs, rs[1:])]
        least = min(gaps, default=math.inf)
        need = min_spacing - t.spacing_slack
        metrics["min_radius_spacing"] = least if gaps else None
        out.append(Check("spacing", least >= need, least if gaps else "n/a", f"≥ {need:g}",
                         "neighbouring radii too close" if least < need else ""))
    if order is not None:
        drawn = [fitted[tj] for _, tj in sorted(pairs)]
        want = sorted(drawn) if order == "outward" else sorted(drawn, reverse=True)
        ok = drawn == want and len(set(np.round(drawn, 6))) == len(drawn)
        out.append(Check("order", ok, "[" + ", ".join(f"{r:.1f}" for r in drawn) + "]",
                         "radii " + ("growing" if order == "outward" else "shrinking"),
                         "" if ok else "circles drawn in another order"))
    metrics["radii"] = [round(fitted[tj], 2) for tj in sorted(fitted)]

    # the circles must not meet: only the contours matched to asked circles are compared (at most k,
    # so the work stays k² whatever the answer; extra contours already fail ``contours``)
    hits, least = [], math.inf
    matched = sorted(ci for ci, _ in pairs)
    for (i, a), (j, b) in itertools.combinations([(ci, contours[ci]) for ci in matched], 2):
        least = min(least, min_distance(a.points, b.points))
        x = intersection(a.points, b.points)
        if x:
            hits.append((i, j, x))
    metrics["intersections"] = len(hits)
    metrics["min_separation"] = least if np.isfinite(least) else None
    out.append(Check("intersections", len(hits) <= t.max_intersections, len(hits), f"≤ {t.max_intersections}",
                     "; ".join(f"contours #{i + 1} and #{j + 1} meet at {(x.shared + x.crossings)[0]}"
                               for i, j, x in hits[:4])))

    oob = ck.out_of_bounds(pts, grid_size)
    out.append(Check("bounds", not oob, len(oob), "0 outside", f"outside 0..{grid_size - 1}" if oob else "", oob))

    score = float(np.mean(seeds)) if k else 0.0
    metrics["mean_seed_score"] = score
    metrics["min_roundness"] = min((s.metrics.get("roundness", 0.0) for _, s, _ in per), default=0.0)
    gaps_idx = tuple(g for c in contours for g in c.gaps)
    marks = {"gaps": gaps_idx, "repeats": tuple(r for c in contours for r in c.repeats), "outside": oob,
             "breaks": tuple(c.start for c in contours[1:])}
    return ShapeScore(family=family, score=score, metrics=metrics, checks=tuple(out), marks=marks)


def _concentric_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    given = p.get("radii") is not None
    radii = list(p["radii"]) if given else [None] * int(p["k"])
    targets = [_Target(label=(f"circle r={r}" if r is not None else f"circle #{i + 1} from the center"),
                       center=tuple(p["center"]), radius=r, side=p["start"], direction=p["direction"])
               for i, r in enumerate(radii)]
    return score_circles(drawing.points, targets, family="concentric", grid_size=p["grid_size"],
                         thresholds=with_overrides(CIRCLES, case.thresholds), match="radius",
                         order=p["order"], min_spacing=None if given else p["min_spacing"])


def _separate_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    targets = [_Target(label=f"circle at {_pt(c)}", center=tuple(c), radius=r, side=p.get("start"),
                       direction=p.get("direction"))
               for c, r in zip(p["centers"], _separate_radii(p))]
    return score_circles(drawing.points, targets, family="circles", grid_size=p["grid_size"],
                         thresholds=with_overrides(CIRCLES, case.thresholds), match="center")


CONCENTRIC = Family(name="concentric", params=_concentric_params, prompt=_concentric_prompt,
                    ideal=_concentric_ideal, score=_concentric_score, variant_keys=("start", "direction"),
                    thresholds=CIRCLES)
SEPARATE = Family(name="circles", params=_separate_params, prompt=_separate_prompt,
                  ideal=_separate_ideal, score=_separate_score, variant_keys=("start", "direction"),
                  thresholds=CIRCLES)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (CONCENTRIC, SEPARATE)
