"""The circle: the seed post's shape, its verbatim prompts, and the checks of ``score_circle``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from shape_asserts.exceptions import CaseError
from shape_asserts.families.prompts import SEED_CIRCLE_PROMPTS, circle_prompt
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.families.circle_score import score_circle
from shape_asserts.families.thresholds import CIRCLE, with_overrides
from shape_asserts.families.base import Family, direction_param, inside_grid, pair_param

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.drawing import Drawing

__all__ = ["FAMILY", "circle_radius", "asked_radius"]


def _params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    out["grid_size"] = int(p.get("grid_size", 50))
    out["center"] = pair_param(p, "center")
    out["start"] = pair_param(p, "start")
    out["direction"] = direction_param(p)
    r = p.get("radius")
    if r is not None and (isinstance(r, bool) or not isinstance(r, (int, float)) or r < 1):
        raise CaseError(f"'radius' must be a number ≥ 1, got {r!r}")
    for key in ("center", "start"):
        inside_grid(out[key], out["grid_size"], f"'{key}'")
    return out


def _prompt(case: "Case", lang: str) -> str:
    p = case.params
    seed = p.get("seed_prompt")
    if seed is not None and lang == "ru":
        return SEED_CIRCLE_PROMPTS[int(seed)]
    return circle_prompt(center=p["center"], start=p["start"], direction=p["direction"],
                         grid_size=p["grid_size"], radius=p.get("radius"), lang=lang)


def circle_radius(case: "Case") -> int:
    """The radius a perfect answer uses: given, else the distance of the start from the center."""
    p = case.params
    if p.get("radius") is not None:
        return int(round(p["radius"]))
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return max(1, int(round(math.hypot(sx - cx, sy - cy))))


def asked_radius(case: "Case") -> float:
    """The radius a case asks for: given, else the start's exact distance from the center."""
    p = case.params
    if p.get("radius") is not None:
        return float(p["radius"])
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return math.hypot(sx - cx, sy - cy)


def _ideal(case: "Case") -> np.ndarray:
    p = case.params
    c = (int(round(p["center"][0])), int(round(p["center"][1])))
    return raster_circle(c, circle_radius(case), start=p["start"], direction=p["direction"])


def _score(drawing: "Drawing", case: "Case") -> ShapeScore:
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
    )


FAMILY = Family(name="circle", params=_params, prompt=_prompt, ideal=_ideal, score=_score,
                variant_keys=("start", "direction"), thresholds=CIRCLE)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (FAMILY,)
