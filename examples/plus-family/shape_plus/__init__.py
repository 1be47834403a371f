"""The plus sign: a worked example of a shape family that lives outside shape-asserts.

A family is one :class:`shape_asserts.families.base.Family`: a name (its pytest marker), a
``params`` function that checks a case's parameters, a ``prompt`` in Russian and English, the
``ideal`` drawing (what ``reference/exact`` answers), a ``score`` of named checks, the parameters
that make the variants of one question (``variant_keys``) and the default ``thresholds`` (a frozen
dataclass a case file may override field by field). This package's ``pyproject.toml`` names
:data:`FAMILY` in the ``shape_asserts.families`` entry-point group, so installing the package is all
it takes for ``family = "plus"`` to work in a case file and ``pytest -m plus`` to select its cases.

The shape: the outline of a plus sign (a Greek cross) — twelve corners, every side along a grid
line — centred on ``center``, each arm reaching ``arm`` cells from the centre and ``width`` cells
wide. The drawing starts at the left corner of the top arm's tip and goes ``direction``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import Family
from shape_asserts.geometry.distances import distance_to_polyline, nearest_distance
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["FAMILY", "PlusThresholds", "PLUS", "vertices"]


@dataclass(frozen=True)
class PlusThresholds:
    """Limits for one plus-sign drawing. Distances are in grid cells (Chebyshev unless said)."""

    #: Steps longer than one cell (undrawn jumps).
    max_gaps: int = 0
    #: Consecutive repeated points.
    max_repeats: int = 0
    #: Distance from the last point back to the first (1 = adjacent: closed).
    max_closure: float = 1.0
    #: Distance of the first point from the asked start corner.
    max_start_distance: float = 1.0
    #: Farthest a drawn point may lie from the asked outline (Euclidean).
    max_outline_distance: float = 1.0
    #: Share of the outline's cells with a drawn point at most one cell away.
    min_coverage: float = 0.95


#: The defaults; a case's ``thresholds`` table replaces any field.
PLUS = PlusThresholds()


# --- parameters --------------------------------------------------------------------------------


def _whole(p: Mapping[str, Any], key: str, *, default: int | None = None) -> int:
    value = p.get(key, default)
    if value is None:
        raise CaseError(f"{key!r} is required, a whole number")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or float(value) != int(value):
        raise CaseError(f"{key!r} must be a whole number, got {value!r}")
    return int(value)


def _params(p: Mapping[str, Any]) -> dict[str, Any]:
    """Check a case's parameters and complete them. Every accepted key is asked for by name: the
    case loader reports a key this function never asks for as unknown."""
    grid = _whole(p, "grid_size", default=50)
    center = p.get("center")
    if not (
        isinstance(center, (list, tuple))
        and len(center) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in center)
    ):
        raise CaseError(f"'center' must be [x, y] whole numbers, got {center!r}")
    arm, width = _whole(p, "arm"), _whole(p, "width")
    if width < 2 or width % 2:
        raise CaseError(f"'width' must be an even number of cells, at least 2, got {width}")
    if arm < width // 2 + 2:
        raise CaseError(f"'arm' ({arm}) must reach at least 2 cells past the arms' half width ({width // 2})")
    turn = p.get("direction")
    if turn not in ("cw", "ccw"):
        raise CaseError(f"'direction' must be 'cw' or 'ccw', got {turn!r}")
    cx, cy = center
    if min(cx, cy) - arm < 0 or max(cx, cy) + arm > grid - 1:
        raise CaseError(f"a plus sign of arm {arm} about {tuple(center)} does not fit the {grid}×{grid} grid")
    return {
        "grid_size": grid,
        "center": (cx, cy),
        "arm": arm,
        "width": width,
        "direction": turn,
        "start": (cx - width // 2, cy - arm),
    }


def vertices(params: Mapping[str, Any]) -> np.ndarray:
    """The twelve corners in drawing order, from the start corner, shape (12, 2).

    Examples
    --------
    >>> vertices({"center": (10, 10), "arm": 4, "width": 2, "direction": "cw"})[:4].tolist()
    [[9.0, 6.0], [11.0, 6.0], [11.0, 9.0], [14.0, 9.0]]
    """
    (cx, cy), a, w = params["center"], params["arm"], params["width"] // 2
    # clockwise on screen (y points down): along the top arm's tip, then down its right side
    ring = np.array(
        [(-w, -a), (w, -a), (w, -w), (a, -w), (a, w), (w, w), (w, a), (-w, a), (-w, w), (-a, w), (-a, -w), (-w, -w)],
        dtype=float,
    )
    if params["direction"] == "ccw":
        ring = np.vstack([ring[:1], ring[:0:-1]])
    placed: np.ndarray = ring + np.array([cx, cy], dtype=float)
    return placed


# --- prompt ------------------------------------------------------------------------------------

_PROMPT = {
    "ru": (
        "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
        "Нужно задать контур знака «плюс» (равноконечного креста) в виде списка точек контура.\n"
        "\n"
        "Используй сетку {g}×{g} с координатами от 0 до {gmax}.\n"
        "Точка (0,0) — левый верхний угол.\n"
        "Центр креста — точка ({cx},{cy}).\n"
        "\n"
        "Каждый из четырёх лучей креста шириной {width} клеток и доходит до {arm} клеток от центра;\n"
        "все стороны контура идут вдоль линий сетки.\n"
        "Указывай только точки контура, без заливки.\n"
        "\n"
        'Начни с левого угла конца верхнего луча {{ "x": {sx}, "y": {sy} }} и двигайся {dir}.\n'
        "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
        "Не используй внешние инструменты или программные расчёты.\n"
        "\n"
        "Ответ верни строго в формате JSON:\n"
        "\n"
        "{{\n"
        '  "grid_size": {g},\n'
        '  "center": {{ "x": {cx}, "y": {cy} }},\n'
        '  "points": [\n'
        '\t{{ "x": {sx}, "y": {sy} }}\n'
        "  ]\n"
        "}}\n"
    ),
    "en": (
        "You are not drawing an image; you are describing a figure through point coordinates.\n"
        "Define the outline of a plus sign (a Greek cross) as a list of contour points.\n"
        "\n"
        "Use a {g}×{g} grid with coordinates from 0 to {gmax}.\n"
        "Point (0,0) is the top-left corner.\n"
        "The center of the cross is the point ({cx},{cy}).\n"
        "\n"
        "Each of the cross's four arms is {width} cells wide and reaches {arm} cells from the center;\n"
        "every side of the outline runs along a grid line.\n"
        "Give contour points only, no fill.\n"
        "\n"
        'Start at the left corner of the top arm\'s tip {{ "x": {sx}, "y": {sy} }} and move {dir}.\n'
        "The points must go in order, with the minimal step, without gaps.\n"
        "Do not use external tools or programmatic calculations.\n"
        "\n"
        "Return the answer strictly as JSON:\n"
        "\n"
        "{{\n"
        '  "grid_size": {g},\n'
        '  "center": {{ "x": {cx}, "y": {cy} }},\n'
        '  "points": [\n'
        '\t{{ "x": {sx}, "y": {sy} }}\n'
        "  ]\n"
        "}}\n"
    ),
}
_DIRECTION = {
    "ru": {"cw": "по часовой стрелке", "ccw": "против часовой стрелки"},
    "en": {"cw": "clockwise", "ccw": "counter-clockwise"},
}


def _prompt(case: Any, lang: str) -> str:
    p = case.params
    (cx, cy), (sx, sy) = p["center"], p["start"]
    return _PROMPT[lang].format(
        g=p["grid_size"],
        gmax=p["grid_size"] - 1,
        cx=cx,
        cy=cy,
        sx=sx,
        sy=sy,
        arm=p["arm"],
        width=p["width"],
        dir=_DIRECTION[lang][p["direction"]],
    )


# --- ideal drawing and score -------------------------------------------------------------------


def _ideal(case: Any) -> np.ndarray:
    return raster_polyline(vertices(case.params), closed=True)


def _score(drawing: Drawing, case: Any) -> ShapeScore:
    # the loader has checked the overrides' names and types against PlusThresholds already
    t: PlusThresholds = replace(PLUS, **case.thresholds)
    p = case.params
    pts = drawing.points
    card = Scorecard()  # the one way every family builds its checks
    if len(pts) == 0:
        card.add("points", False, 0, "≥ 1", "no points")
        return card.result("plus", 0.0)
    outline = vertices(p)
    ideal = raster_polyline(outline, closed=True)
    off = distance_to_polyline(pts, outline, closed=True)
    near = nearest_distance(ideal, pts, metric="chebyshev") <= 1.0
    coverage = float(near.mean())
    on_outline = float(np.mean(off <= t.max_outline_distance))
    # what every drawn path is held to: the shared builders
    card.bounds(pts, p["grid_size"])
    card.continuity(pts, max_gaps=t.max_gaps, max_repeats=t.max_repeats)
    card.closure(pts, t.max_closure)
    card.endpoint(pts, p["start"], t.max_start_distance)
    card.turning(pts, center=p["center"], direction=p["direction"], min_turns=0.9, max_turns=1.1)
    # what is particular to a plus sign
    far = np.flatnonzero(off > t.max_outline_distance)
    card.add(
        "outline",
        not len(far),
        round(float(off.max()), 4),
        f"≤ {t.max_outline_distance:g}",
        f"{len(far)} points off the plus sign",
        far,
    )
    card.add(
        "coverage",
        coverage >= t.min_coverage,
        round(coverage, 4),
        f"≥ {t.min_coverage:g}",
        f"{int((~near).sum())} of the outline's {len(ideal)} cells not drawn",
    )
    card.metrics.update(
        n_points=int(len(pts)), coverage=coverage, on_outline=on_outline, max_outline_distance=float(off.max())
    )
    return card.result("plus", 100.0 * coverage * on_outline)


#: The family this package adds; ``pyproject.toml`` names it in the ``shape_asserts.families`` group.
FAMILY = Family(
    name="plus",
    params=_params,
    prompt=_prompt,
    ideal=_ideal,
    score=_score,
    variant_keys=("direction",),
    thresholds=PLUS,
)
