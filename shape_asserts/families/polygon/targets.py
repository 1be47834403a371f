"""The polygon-like families' cases: parameters checked, the asked polygon, its prompt and ideal drawing.

Each family's ``params`` completes a case (the start resolved to a vertex cell), :func:`target_vertices`
gives the asked polygon clockwise on screen from vertex 0, :func:`prompt` words it in the seed's
contour template and :func:`ideal` draws it along digital lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import (
    CaseLike,
    direction_param,
    fits_grid,
    inside_grid,
    int_param,
    number_param,
    pair_param,
)
from shape_asserts.families.polygon.scorer import POLYGON, cells_of, clockwise
from shape_asserts.families.prompts import contour_prompt, fmt_xy
from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.fit.polygon import interior_angles, regular_polygon, side_lengths, star_polygon
from shape_asserts.geometry.points import FloatArray, IntArray, Point
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.simplify import corner_depths

__all__ = ["target_vertices", "prompt", "ideal", "PARAMS"]


def _rotate(rel: FloatArray, degrees: float) -> FloatArray:
    """Turn offsets ``degrees`` clockwise on screen (y down)."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.column_stack([rel[:, 0] * c - rel[:, 1] * s, rel[:, 0] * s + rel[:, 1] * c])


def _square(p: Mapping[str, Any]) -> FloatArray:
    return regular_polygon(p["center"], p["side"] / math.sqrt(2), 4, 225.0 + p["rotation"])


def _rectangle(p: Mapping[str, Any]) -> FloatArray:
    w, h = p["width"] / 2, p["height"] / 2
    rel = _rotate(np.array([[-w, -h], [w, -h], [w, h], [-w, h]], dtype=float), p["rotation"])
    corners: FloatArray = rel + np.asarray(p["center"], dtype=float)
    return corners


def _triangle(p: Mapping[str, Any]) -> FloatArray:
    if p.get("vertices") is not None:
        return clockwise(np.array(p["vertices"], dtype=float))
    return regular_polygon(p["center"], p["radius"], 3, p["rotation"])


def _regular(p: Mapping[str, Any]) -> FloatArray:
    return regular_polygon(p["center"], p["radius"], p["n"], p["rotation"])


def _star(p: Mapping[str, Any]) -> FloatArray:
    return star_polygon(p["center"], p["radius"], p["inner"], p["n"], p["rotation"])


def target_vertices(case: CaseLike) -> FloatArray:
    """The asked polygon of a case, clockwise on screen from vertex 0, shape (K, 2)."""
    return _TARGETS[case.family](case.params)


def _common(p: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(p)
    out["grid_size"] = int(p.get("grid_size", 50))
    out["direction"] = direction_param(p)
    return out


def _center(p: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["center"] = pair_param(p, "center")
    inside_grid(out["center"], out["grid_size"], "'center'")


def _finish(p: Mapping[str, Any], out: dict[str, Any], target: FloatArray, what: str) -> dict[str, Any]:
    """Check the target fits the grid and resolve the start vertex."""
    fits_grid(target, out["grid_size"], f"the {what}")
    depth = corner_depths(target)
    if depth.min() < POLYGON.min_corner_depth:
        k = int(np.argmin(depth))
        raise CaseError(
            f"the {what}'s corners are too shallow to draw on the grid: vertex {k} lies "
            # (rounded down: 3.49 shown as 3.5 read as meeting the limit it misses)
            f"{math.floor(depth[k] * 100) / 100:g} cells from the line through its neighbours, at least "
            f"{POLYGON.min_corner_depth:g} is needed (make it larger, or give it fewer sides)"
        )
    cells = cells_of(target).astype(int)
    if "start_vertex" in p:
        if "start" in p:
            raise CaseError("give either 'start' or 'start_vertex', not both")
        k = int_param(p, "start_vertex", minimum=0, maximum=len(target) - 1)
        out["start"] = (int(cells[k][0]), int(cells[k][1]))
        del out["start_vertex"]
        return out
    start = pair_param(p, "start")
    d = np.max(np.abs(cells - np.asarray(start, float)), axis=1)
    if d.min() > 1:
        listed = ", ".join(fmt_xy(tuple(c)) for c in cells)
        raise CaseError(
            f"'start' {fmt_xy(start)} is not a vertex of the {what}; its vertices are {listed} (or give 'start_vertex')"
        )
    out["start"] = start
    return out


def _square_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = _common(p)
    _center(p, out)
    out["side"] = number_param(p, "side", minimum=4)
    out["rotation"] = number_param(p, "rotation", default=0) % 90
    return _finish(p, out, _square(out), "square")


def _rectangle_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = _common(p)
    _center(p, out)
    out["width"] = number_param(p, "width", minimum=4)
    out["height"] = number_param(p, "height", minimum=4)
    out["rotation"] = number_param(p, "rotation", default=0) % 180
    return _finish(p, out, _rectangle(out), "rectangle")


def _triangle_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = _common(p)
    if p.get("vertices") is not None:
        v = p["vertices"]
        if not isinstance(v, (list, tuple)) or len(v) != 3:
            raise CaseError(f"'vertices' must be three [x, y] points, got {v!r}")
        pts = tuple(pair_param({"v": q}, "v") for q in v)
        for q in pts:
            inside_grid(q, out["grid_size"], "vertex")
        ang = interior_angles(np.array(pts, dtype=float))
        if abs(signed_area(np.array(pts, dtype=float))) < 1 or ang.min() < 15:
            raise CaseError(
                f"'vertices' {', '.join(map(fmt_xy, pts))} make a degenerate triangle "
                f"(smallest angle {math.floor(ang.min() * 10) / 10:g}°; at least 15° is needed)"
            )
        shortest = float(side_lengths(np.array(pts, dtype=float)).min())
        if shortest < 4:  # as for every other size here: smaller cannot be drawn as a triangle
            raise CaseError(
                f"'vertices' {', '.join(map(fmt_xy, pts))} make a side {shortest:.1f} cells long; at least 4 is needed"
            )
        out["vertices"] = pts
        if "center" in p or "radius" in p:
            raise CaseError("give either 'vertices' or 'center' and 'radius', not both")
    else:
        _center(p, out)
        out["radius"] = number_param(p, "radius", minimum=4)
        out["rotation"] = number_param(p, "rotation", default=270) % 360
    return _finish(p, out, _triangle(out), "triangle")


def _regular_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = _common(p)
    _center(p, out)
    out["n"] = int_param(p, "n", minimum=3, maximum=12)
    out["radius"] = number_param(p, "radius", minimum=4)
    out["rotation"] = number_param(p, "rotation", default=270) % 360
    return _finish(p, out, _regular(out), f"{out['n']}-gon")


def _star_params(p: Mapping[str, Any]) -> dict[str, Any]:
    out = _common(p)
    _center(p, out)
    out["n"] = n = int_param(p, "n", minimum=4, maximum=10)
    out["radius"] = r = number_param(p, "radius", minimum=6)
    out["inner"] = inner = number_param(p, "inner", minimum=2)
    # a star needs inner corners inside the chord between neighbouring tips, else it is a 2n-gon
    chord = r * math.cos(math.pi / n)
    if not 0.2 * r <= inner <= 0.85 * chord:
        raise CaseError(
            f"'inner' must be from {0.2 * r:.1f} to {0.85 * chord:.1f} for a {n}-pointed star of "
            f"radius {r:g} (deeper than a fifth of the radius, shallower than the tips' chord), "
            f"got {inner!r}"
        )
    out["rotation"] = number_param(p, "rotation", default=270) % 360
    return _finish(p, out, _star(out), "star")


_RU_NGON = {
    3: "треугольник",
    4: "четырёхугольник",
    5: "пятиугольник",
    6: "шестиугольник",
    7: "семиугольник",
    8: "восьмиугольник",
    9: "девятиугольник",
    10: "десятиугольник",
    11: "одиннадцатиугольник",
    12: "двенадцатиугольник",
}
_EN_NGON = {
    3: "triangle",
    4: "quadrilateral",
    5: "pentagon",
    6: "hexagon",
    7: "heptagon",
    8: "octagon",
    9: "nonagon",
    10: "decagon",
    11: "hendecagon",
    12: "dodecagon",
}
_RU_STAR = {
    4: "четырёхконечную",
    5: "пятиконечную",
    6: "шестиконечную",
    7: "семиконечную",
    8: "восьмиконечную",
    9: "девятиконечную",
    10: "десятиконечную",
}
_EN_STAR = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _turned(rot: float, what_ru: str, what_en: str, lang: str) -> str:
    if lang == "ru":
        return (
            f"{what_ru} повёрнут на {rot:g}° по часовой стрелке относительно краёв сетки.\n"
            if rot
            else "Стороны параллельны краям сетки.\n"
        )
    return (
        f"The {what_en} is turned {rot:g}° clockwise relative to the grid edges.\n"
        if rot
        else "Its sides are parallel to the grid edges.\n"
    )


def _phrases(case: CaseLike, lang: str) -> dict[str, str]:
    """The prompt's phrases for one polygon family, in Russian or English.

    Long because it is one table of wordings, family by family, each Russian text beside its
    English one: split, a reader would compare the two languages across functions.
    """
    p = case.params
    fam = case.family
    ru = lang == "ru"
    c = fmt_xy(p["center"]) if "center" in p and p.get("vertices") is None else ""
    if fam == "square":
        return dict(
            figure="ровный квадрат" if ru else "an even square",
            center_line=(
                f"Центр квадрата находится в точке {c}.\n" if ru else f"The center of the square is at point {c}.\n"
            ),
            geometry=(f"Сторона квадрата — {p['side']:g}.\n" if ru else f"The side of the square is {p['side']:g}.\n")
            + _turned(p["rotation"], "Квадрат", "square", lang),
            start_at="вершины квадрата" if ru else "the square's corner",
        )
    if fam == "rectangle":
        w, h = f"{p['width']:g}", f"{p['height']:g}"
        return dict(
            figure="ровный прямоугольник" if ru else "an even rectangle",
            center_line=(
                f"Центр прямоугольника находится в точке {c}.\n"
                if ru
                else f"The center of the rectangle is at point {c}.\n"
            ),
            geometry=(
                f"Ширина прямоугольника — {w}, высота — {h}.\n" if ru else f"The rectangle is {w} wide and {h} high.\n"
            )
            + _turned(p["rotation"], "Прямоугольник", "rectangle", lang),
            start_at="вершины прямоугольника" if ru else "the rectangle's corner",
        )
    if fam == "triangle":
        if p.get("vertices") is not None:
            v = [fmt_xy(q) for q in p["vertices"]]
            return dict(
                figure="треугольник с прямыми сторонами" if ru else "a triangle with straight sides",
                center_line=(
                    f"Вершины треугольника: {v[0]}, {v[1]} и {v[2]}.\n"
                    if ru
                    else f"The vertices of the triangle are {v[0]}, {v[1]} and {v[2]}.\n"
                ),
                geometry="",
                start_at="вершины треугольника" if ru else "the triangle's vertex",
            )
        return dict(
            figure="правильный (равносторонний) треугольник" if ru else "a regular (equilateral) triangle",
            center_line=(
                f"Центр треугольника находится в точке {c}.\n"
                if ru
                else f"The center of the triangle is at point {c}.\n"
            ),
            geometry=(
                f"Вершины лежат на окружности радиуса {p['radius']:g} с центром в этой точке.\n"
                if ru
                else f"Its vertices lie on a circle of radius {p['radius']:g} about this center.\n"
            ),
            start_at="вершины треугольника" if ru else "the triangle's vertex",
        )
    if fam == "polygon":
        name = _RU_NGON[p["n"]] if ru else _EN_NGON[p["n"]]
        return dict(
            figure=f"правильный {name}" if ru else f"a regular {name}",
            center_line=(
                f"Центр {name}а находится в точке {c}.\n" if ru else f"The center of the {name} is at point {c}.\n"
            ),
            geometry=(
                f"Все вершины лежат на окружности радиуса {p['radius']:g} с центром в этой точке, "
                "все стороны и углы равны.\n"
                if ru
                else f"All its vertices lie on a circle of radius {p['radius']:g} about this center; "
                "all sides and angles are equal.\n"
            ),
            start_at=f"вершины {name}а" if ru else f"the {name}'s vertex",
        )
    n, r, inner = p["n"], f"{p['radius']:g}", f"{p['inner']:g}"
    cells = cells_of(_star(p))
    at_tip = int(np.argmin(np.max(np.abs(cells - np.asarray(p["start"], float)), axis=1))) % 2 == 0
    return dict(
        figure=f"ровную {_RU_STAR[n]} звезду" if ru else f"an even {_EN_STAR[n]}-pointed star",
        center_line=f"Центр звезды находится в точке {c}.\n" if ru else f"The center of the star is at point {c}.\n",
        geometry=(
            f"Вершины лучей лежат на окружности радиуса {r}, внутренние вершины (между лучами) — "
            f"на окружности радиуса {inner}; контур звезды — замкнутая ломаная из {2 * n} отрезков.\n"
            if ru
            else f"The tips of its points lie on a circle of radius {r} and the inner vertices (between "
            f"the points) on a circle of radius {inner}; the outline of the star is a closed polyline "
            f"of {2 * n} segments.\n"
        ),
        start_at=("вершины луча звезды" if at_tip else "внутренней вершины звезды")
        if ru
        else ("the tip of a point" if at_tip else "the inner vertex"),
    )


def _json_center(case: CaseLike) -> Point:
    p = case.params
    if p.get("vertices") is not None:
        c = np.mean(np.array(p["vertices"], dtype=float), axis=0)
        return (float(round(c[0])), float(round(c[1])))
    cx, cy = p["center"]
    return (cx, cy)


def prompt(case: CaseLike, lang: str) -> str:
    p = case.params
    return contour_prompt(
        lang=lang,
        start=p["start"],
        direction=p["direction"],
        center=_json_center(case),
        grid_size=p["grid_size"],
        **_phrases(case, lang),
    )


def ideal(case: CaseLike) -> IntArray:
    """The rounded target vertices joined by digital lines, from the start vertex in the asked direction."""
    p = case.params
    cells = cells_of(target_vertices(case)).astype(np.int64)
    k = int(np.argmin(np.max(np.abs(cells - np.asarray(p["start"], float)), axis=1)))
    ring = np.roll(cells, -k, axis=0)
    if p["direction"] == "ccw":
        ring = np.vstack([ring[:1], ring[:0:-1]])
    return raster_polyline(ring, closed=True)


_TARGETS: dict[str, Callable[[Mapping[str, Any]], FloatArray]] = {
    "square": _square,
    "rectangle": _rectangle,
    "triangle": _triangle,
    "polygon": _regular,
    "star": _star,
}


#: Each family's parameter check, by family name.
PARAMS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "square": _square_params,
    "rectangle": _rectangle_params,
    "triangle": _triangle_params,
    "polygon": _regular_params,
    "star": _star_params,
}
