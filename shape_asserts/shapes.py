"""Shape families: for each, how a case's parameters become a prompt, an ideal drawing and a score.

A family is a small record of four functions. ``cases.py`` reads case files and asks the family
to check parameters and write the prompt; the reference drawer asks for the ideal; the verdict asks
for the score. Adding a family means adding one entry to :data:`FAMILIES`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from .exceptions import CaseError
from .prompts import SEED_CIRCLE_PROMPTS, circle_prompt
from .raster import raster_circle
from .score import ShapeScore, score_circle
from .thresholds import CIRCLE, with_overrides

if TYPE_CHECKING:
    from .cases import Case
    from .drawing import Drawing

__all__ = ["Family", "FAMILIES", "get_family"]


@dataclass(frozen=True)
class Family:
    """How one shape family is asked for, drawn ideally and scored."""

    name: str
    #: Validate and complete a case's parameters (raise CaseError naming the problem).
    params: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: The prompt for a case in a language.
    prompt: Callable[["Case", str], str]
    #: The ideal drawing of a case, ordered points (N, 2).
    ideal: Callable[["Case"], np.ndarray]
    #: Score a drawing against a case.
    score: Callable[["Drawing", "Case"], ShapeScore]
    #: Parameters that vary between cases that otherwise ask the same thing (for stability).
    variant_keys: tuple[str, ...] = ()


def _pair(params: Mapping[str, Any], key: str, *, required: bool = True) -> tuple[float, float] | None:
    v = params.get(key)
    if v is None:
        if required:
            raise CaseError(f"'{key}' is required, as [x, y]")
        return None
    if isinstance(v, dict):
        v = [v.get("x"), v.get("y")]
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 2
        or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)
    ):
        raise CaseError(f"'{key}' must be [x, y] numbers, got {v!r}")
    return (v[0], v[1])


def _circle_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    out["grid_size"] = int(p.get("grid_size", 50))
    out["center"] = _pair(p, "center")
    out["start"] = _pair(p, "start")
    direction = p.get("direction")
    if direction not in ("cw", "ccw"):
        raise CaseError(f"'direction' must be 'cw' or 'ccw', got {direction!r}")
    r = p.get("radius")
    if r is not None and (not isinstance(r, (int, float)) or r < 1):
        raise CaseError(f"'radius' must be a number ≥ 1, got {r!r}")
    g = out["grid_size"]
    for key in ("center", "start"):
        x, y = out[key]
        if not (0 <= x <= g - 1 and 0 <= y <= g - 1):
            raise CaseError(f"'{key}' {out[key]} is outside the {g}×{g} grid")
    return out


def _circle_prompt(case: "Case", lang: str) -> str:
    p = case.params
    seed = p.get("seed_prompt")
    if seed is not None and lang == "ru":
        return SEED_CIRCLE_PROMPTS[int(seed)]
    return circle_prompt(center=p["center"], start=p["start"], direction=p["direction"],
                         grid_size=p["grid_size"], radius=p.get("radius_in_prompt"), lang=lang)


def circle_radius(case: "Case") -> int:
    """The radius a perfect answer uses: given, else the distance of the start from the center."""
    p = case.params
    if p.get("radius") is not None:
        return int(round(p["radius"]))
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return max(1, int(round(math.hypot(sx - cx, sy - cy))))


def _circle_ideal(case: "Case") -> np.ndarray:
    p = case.params
    c = (int(round(p["center"][0])), int(round(p["center"][1])))
    return raster_circle(c, circle_radius(case), start=p["start"], direction=p["direction"])


def _circle_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    return score_circle(
        drawing.points,
        center=p["center"],
        grid_size=p["grid_size"],
        start=p["start"],
        direction=p["direction"],
        data=drawing.data,
        thresholds=with_overrides(CIRCLE, case.thresholds),
    )


FAMILIES: dict[str, Family] = {
    "circle": Family(
        name="circle",
        params=_circle_params,
        prompt=_circle_prompt,
        ideal=_circle_ideal,
        score=_circle_score,
        variant_keys=("start", "direction"),
    ),
}


def get_family(name: str) -> Family:
    """The family called ``name``; ``CaseError`` listing the known ones otherwise."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise CaseError(f"unknown shape family {name!r}; known: {', '.join(sorted(FAMILIES))}") from None
