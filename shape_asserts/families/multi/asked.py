"""Several circles' cases: parameters checked, the scene description asked for, the ideal drawing."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import CaseLike, direction_param, inside_grid, int_param, pair_param
from shape_asserts.families.circle import LEAST_RADIUS
from shape_asserts.families.prompts import DIRECTION_WORDS, fmt_xy, scene_prompt
from shape_asserts.geometry.points import IntArray, Point, round_half_up
from shape_asserts.geometry.raster import raster_circle

__all__ = [
    "SIDES",
    "MAX_CIRCLES",
    "concentric_params",
    "separate_params",
    "concentric_description",
    "separate_description",
    "concentric_prompt",
    "separate_prompt",
    "concentric_ideal",
    "separate_ideal",
    "separate_radii",
    "side_point",
]

#: Start sides: unit offsets from a circle's center (y down) and their names in the prompts.
SIDES: dict[str, tuple[int, int]] = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}
_SIDE_RU = {"top": "верхней", "right": "правой", "bottom": "нижней", "left": "левой"}
_SIDE_EN = {"top": "top", "right": "rightmost", "bottom": "bottom", "left": "leftmost"}
_COUNT_RU = {2: "две", 3: "три", 4: "четыре", 5: "пять", 6: "шесть"}
#: Russian numerals 2–4 take the plural nominative, 5 and up the plural genitive.
_FEW_RU = (2, 3, 4)
_COUNT_EN = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_ORDER_RU = {"outward": "от меньшей к большей", "inward": "от большей к меньшей"}
_ORDER_EN = {"outward": "from the smallest to the largest", "inward": "from the largest to the smallest"}
#: Most circles in one case (matching is exact by brute force up to 7 contours).
MAX_CIRCLES = 6


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


def _fits(center: Point, r: float, g: int, what: str) -> None:
    cx, cy = center
    if cx - r < 0 or cy - r < 0 or cx + r > g - 1 or cy + r > g - 1:
        raise CaseError(f"{what} of radius {r:g} about {tuple(center)} does not fit the {g}×{g} grid")


def concentric_params(p: Mapping[str, Any]) -> dict[str, Any]:
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
        k = int_param(p, "k", minimum=2, maximum=MAX_CIRCLES, default=len(radii))
        if k != len(radii):
            raise CaseError(f"'k' is {k} but 'radii' holds {len(radii)} radii")
        out["radii"], out["k"] = radii, k
        _fits(out["center"], radii[-1], g, "the largest circle")
        out.pop("min_spacing", None)
    else:
        out["k"] = int_param(p, "k", minimum=2, maximum=MAX_CIRCLES, required=False)
        if out["k"] is None:
            raise CaseError("give 'radii' (a list) or 'k' (how many circles, radii chosen by the model)")
        out["min_spacing"] = int_param(p, "min_spacing", minimum=2, default=3)
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


def separate_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    g = out["grid_size"] = int(p.get("grid_size", 50))
    raw = p.get("centers")
    if not isinstance(raw, (list, tuple)) or not 2 <= len(raw) <= MAX_CIRCLES:
        raise CaseError(f"'centers' must be a list of 2 to {MAX_CIRCLES} [x, y] pairs, got {raw!r}")
    centers = [pair_param({"c": c}, "c") for c in raw]
    radii = _radii_param(p)
    radius = int_param(p, "radius", minimum=3, required=False)
    if radius is not None and radii is None:
        radii = [radius] * len(centers)
    elif radii is None or radius is not None:
        raise CaseError("give either 'radius' (one for all circles) or 'radii' (one per center)")
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


def separate_radii(p: Mapping[str, Any]) -> list[int]:
    return [int(p["radius"])] * len(p["centers"]) if p.get("radius") is not None else list(p["radii"])


def _join(items: list[str], lang: str) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + (" и " if lang == "ru" else " and ") + items[-1]


def _travel(start: str | None, direction: str | None, lang: str) -> str:
    """'start each circle at its top point and go clockwise', whichever parts are asked."""
    ru = lang == "ru"
    if direction is None:
        if start is None:
            return ""
        return (
            f"; каждую окружность начинай с её {_SIDE_RU[start]} точки"
            if ru
            else f"; start each circle at its {_SIDE_EN[start]} point"
        )
    way = DIRECTION_WORDS[lang][direction]
    if start is None:
        return f"; каждую окружность обходи {way}" if ru else f"; go round each circle {way}"
    return (
        f"; каждую окружность начинай с её {_SIDE_RU[start]} точки и обходи {way}"
        if ru
        else f"; start each circle at its {_SIDE_EN[start]} point and go {way}"
    )


def concentric_description(p: Mapping[str, Any], lang: str) -> str:
    """What the scene template is filled with for a concentric case."""
    ru = lang == "ru"
    k = int(p["k"])
    if p.get("radii") is not None:
        rs = _join([str(r) for r in p["radii"]], lang)
        radii = f"радиусы {rs}" if ru else f"radii {rs}"
    else:
        s = p["min_spacing"]
        radii = (
            f"радиусы выбери сам: все окружности должны помещаться в сетке, наименьший радиус — не меньше "
            f"{LEAST_RADIUS}, а соседние радиусы — отличаться не меньше чем на {s}"
            if ru
            else f"choose the radii yourself: every circle must fit in the grid, the smallest radius must be at "
            f"least {LEAST_RADIUS} and neighbouring radii must differ by at least {s}"
        )
    if ru:
        noun = "концентрические окружности" if k in _FEW_RU else "концентрических окружностей"
        head = f"{_COUNT_RU[k]} {noun} (общий центр в точке {fmt_xy(p['center'])}; {radii}; "
        order = f"рисуй их по очереди, {_ORDER_RU[p['order']]}"
    else:
        head = f"{_COUNT_EN[k]} concentric circles (common center at {fmt_xy(p['center'])}; {radii}; "
        order = f"draw them one after another, {_ORDER_EN[p['order']]}"
    return head + order + _travel(p["start"], p["direction"], lang) + ")"


def separate_description(p: Mapping[str, Any], lang: str) -> str:
    """What the scene template is filled with for a several-circles case."""
    ru = lang == "ru"
    k = len(p["centers"])
    centers = _join([fmt_xy(c) for c in p["centers"]], lang)
    if p.get("radius") is not None:
        r = p["radius"]
        what = f"радиус каждой — {r}; центры в точках {centers}" if ru else f"each of radius {r}; centers at {centers}"
    else:
        pairs = _join([f"{fmt_xy(c)} — {r}" for c, r in zip(p["centers"], p["radii"])], lang)
        what = f"центры и радиусы: {pairs}" if ru else f"centers and radii: {pairs}"
    noun = "отдельные маленькие окружности" if k in _FEW_RU else "отдельных маленьких окружностей"
    head = f"{_COUNT_RU[k]} {noun} ({what}" if ru else f"{_COUNT_EN[k]} separate small circles ({what}"
    return head + _travel(p.get("start"), p.get("direction"), lang) + ")"


def concentric_prompt(case: CaseLike, lang: str) -> str:
    return scene_prompt(concentric_description(case.params, lang), lang=lang)


def separate_prompt(case: CaseLike, lang: str) -> str:
    return scene_prompt(separate_description(case.params, lang), lang=lang)


def side_point(center: Sequence[float], r: float, side: str) -> Point:
    ux, uy = SIDES[side]
    return (center[0] + ux * r, center[1] + uy * r)


def _int_center(c: Sequence[float]) -> tuple[int, int]:
    x, y = round_half_up(c).tolist()
    return (int(x), int(y))


def concentric_ideal(case: CaseLike) -> IntArray:
    p = case.params
    radii = _ideal_radii(p)
    if p["order"] == "inward":
        radii = radii[::-1]
    c = _int_center(p["center"])
    rings = [raster_circle(c, r, start=side_point(c, r, p["start"]), direction=p["direction"]) for r in radii]
    return np.vstack(rings)


def separate_ideal(case: CaseLike) -> IntArray:
    p = case.params
    side = p.get("start") or "top"
    rings = []
    for c, r in zip(p["centers"], separate_radii(p)):
        ci = _int_center(c)
        rings.append(raster_circle(ci, r, start=side_point(ci, r, side), direction=p.get("direction") or "cw"))
    return np.vstack(rings)
