"""Polygon-like families: square, rectangle, triangle, regular polygon and star.

Each asks for one closed polygon, starting at a vertex. A case names its target polygon (the asked
vertices, clockwise on screen from vertex 0) and the start, either ``start`` [x, y] — one of the
vertices, within a cell — or ``start_vertex`` k (vertex k of the target, counted clockwise from
vertex 0). All five are scored by :func:`score_polygon`: the drawing's corners come from
Ramer–Douglas–Peucker simplification (:mod:`shape_asserts.geometry.polygon`) and are matched to the asked
ones for count, angles, side proportions and placement.

Parameters per family (``rotation`` in degrees, clockwise on screen):

* ``square``: ``center``, ``side``, ``rotation`` (default 0: sides parallel to the grid; vertex 0
  is then the top-left corner);
* ``rectangle``: ``center``, ``width``, ``height``, ``rotation`` (default 0; vertex 0 top-left);
* ``triangle``: ``vertices`` (three [x, y]; vertex 0 is the first listed), or ``center`` and
  ``radius`` for an equilateral one with vertex 0 at polar angle ``rotation`` (default 270: up);
* ``polygon``: a regular ``n``-gon (3–12), ``center``, ``radius`` (circumradius), ``rotation``
  (polar angle of vertex 0, default 270);
* ``star``: ``n`` points (4–10), ``center``, ``radius`` (tips), ``inner`` (inner corners),
  ``rotation`` (polar angle of the tip that is vertex 0, default 270); vertices alternate tip,
  inner corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from shape_asserts.geometry import checks as ck
from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.polygon import (
    PolygonModel,
    corner_depths,
    distance_to_polyline,
    interior_angles,
    regular_polygon,
    side_lengths,
    star_polygon,
    vertex_cells,
)
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.families.thresholds import with_overrides
from shape_asserts.families.base import Family, direction_param, inside_grid, number_param, pair_param
from shape_asserts.families.single import (
    ClosedThresholds,
    Scorecard,
    closed_checks,
    contour_prompt,
    fits_grid,
    fmt_xy,
    int_param,
    outline_measures,
    path_checks,
)

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.drawing import Drawing

__all__ = [
    "PolygonThresholds", "StarThresholds",
    "SQUARE", "RECTANGLE", "TRIANGLE", "POLYGON", "STAR",
    "SQUARE_FAMILY", "RECTANGLE_FAMILY", "TRIANGLE_FAMILY", "POLYGON_FAMILY", "STAR_FAMILY",
    "FAMILIES", "score_polygon", "target_vertices", "cells_of",
]


@dataclass(frozen=True)
class PolygonThresholds(ClosedThresholds):
    """Limits for one polygon drawing, placed by ``bench/calibrate_catalogue.py`` (``docs/calibration.md``)."""

    #: Simplification tolerance, cells: a drawn corner must stand out more than this from the line
    #: of its neighbours, a raster's wobble (≤ 0.71 for a 4-connected staircase, plus a vertex's
    #: rounding) must not. 0.4 of the asked polygon's shallowest corner depth (a rounded vertex may
    #: take a cell off it), kept within
    #: ``min_epsilon``..``max_epsilon``; cases whose corners are shallower than ``min_corner_depth``
    #: are refused at load: their corners cannot be told from the raster's wobble (hypothesis found
    #: a 7-gon of radius 8, corners 3.0 deep, whose fair 4-connected drawing hides one).
    min_epsilon: float = 1.0
    max_epsilon: float = 2.0
    min_corner_depth: float = 3.5
    #: Cells (Chebyshev) between the drawing at each corner and the nearest fair rounding of the asked
    #: vertex (:func:`~shape_asserts.geometry.polygon.vertex_cells`: a coordinate may round either way when
    #: both cells lie within 0.75). Whole cells: below 1, the drawing passes through such a cell at
    #: every corner.
    max_vertex_miss: float = 0.5
    #: Drawn points looked at on each side of a found corner for that cell: a blunt corner's found
    #: cell may sit a cell or two along a side, two or three points on a 4-connected staircase.
    #: A fair cell found off the real corner does not let a wrong corner through: the sides through
    #: it must then be straight (``max_side_deviation``).
    corner_window: int = 3
    #: Farthest a drawn point may lie from the straight side joining the cells where the drawing
    #: meets two neighbouring vertices: a digital line keeps within 0.5 of its segment, a
    #: 4-connected staircase's elbows within 0.71.
    max_side_deviation: float = 0.75


@dataclass(frozen=True)
class StarThresholds(PolygonThresholds):
    """Polygon limits plus the star's inner / outer radius ratio."""

    #: Relative error of mean inner radius / mean tip radius against the asked ratio.
    max_ratio_error: float = 0.2


SQUARE = PolygonThresholds()
RECTANGLE = PolygonThresholds()
TRIANGLE = PolygonThresholds()
POLYGON = PolygonThresholds()
STAR = StarThresholds()


# --- scoring ---------------------------------------------------------------------------------------


def cells_of(vertices: np.ndarray) -> np.ndarray:
    """The cells of the asked vertices, halves rounded up: moving a case by whole cells moves them alike."""
    return np.floor(np.asarray(vertices, dtype=float) + 0.5)


def _cw(v: np.ndarray) -> np.ndarray:
    """``v`` in clockwise order on screen, the first vertex kept first."""
    return v if ck.signed_area(v) >= 0 else np.vstack([v[:1], v[:0:-1]])


def _align(drawn: np.ndarray, target: np.ndarray) -> np.ndarray:
    """``drawn`` (same count, clockwise) rolled so that vertex i lies nearest to target vertex i."""
    n = len(target)
    cost = [float(np.sum(np.hypot(*(np.roll(drawn, -s, axis=0) - target).T))) for s in range(n)]
    return np.roll(drawn, -int(np.argmin(cost)), axis=0)


def _corner_order(pts: np.ndarray, corners: np.ndarray, indices: tuple[int, ...], target: np.ndarray
                  ) -> tuple[list[int], bool]:
    """Drawing index of the found corner matched to each asked vertex, and whether the drawing runs
    the asked (clockwise) way: from vertex i to i + 1 its indices grow."""
    k = len(indices)
    forward = ck.signed_area(corners) >= 0
    order = list(range(k)) if forward else [0] + list(range(k - 1, 0, -1))
    ring = corners[order].astype(float)
    cost = [float(np.sum(np.hypot(*(np.roll(ring, -s, axis=0) - target).T))) for s in range(k)]
    shift = int(np.argmin(cost))
    return [int(indices[order[(i + shift) % k]]) for i in range(k)], forward


def _around(n: int, i: int, w: int) -> np.ndarray:
    """Indices within ``w`` places of ``i``, wrapping round a closed drawing of ``n`` points."""
    return np.arange(i - w, i + w + 1) % n


def _run(n: int, a: int, b: int) -> np.ndarray:
    """Indices from ``a`` to ``b`` inclusive, forward round a closed drawing of ``n`` points."""
    return (a + np.arange((b - a) % n + 1)) % n


def _straightest(pts: np.ndarray, at: list[list[int]], forward: bool) -> tuple[float, int]:
    """Least over choices of one index per corner (``at[i]``: candidates) of the largest distance of
    a drawn point from the segment of its side; and the index of that farthest point.

    A cycle of corners, solved by fixing corner 0's choice and a min-max dynamic programme along
    the others: ``len(at) × choices²`` side measurements.
    """
    n, size = len(at), len(pts)
    side: dict[tuple[int, int], tuple[float, int]] = {}

    def dev(a: int, b: int) -> tuple[float, int]:
        if (a, b) not in side:
            run = _run(size, a, b) if forward else _run(size, b, a)
            d = _segment_distance(pts[run], pts[a], pts[b])
            k = int(np.argmax(d))
            side[(a, b)] = (float(d[k]), int(run[k]))
        return side[(a, b)]

    best: tuple[float, int] = (float("inf"), 0)
    for first in at[0]:
        # cost[c]: the worst side so far ending with corner i at candidate c
        cost = {first: (0.0, first)}
        for i in range(1, n + 1):
            nxt = [first] if i == n else at[i]
            new: dict[int, tuple[float, int]] = {}
            for c in nxt:
                options = [max(cost[p], dev(p, c)) for p in cost]
                new[c] = min(options)
            cost = new
        best = min(best, cost[first])
    return best


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of each row of ``p`` (M, 2) from the segment ``a``–``b``, (M,)."""
    return distance_to_polyline(p, np.array([a, b], dtype=float), closed=False)


def _alternation(corners: np.ndarray) -> tuple[bool, float, str]:
    """Whether the corners alternate far and near about their centroid, and near / far radius."""
    rel = corners - corners.mean(axis=0)
    r = np.hypot(rel[:, 0], rel[:, 1])
    mid = (r.max() + r.min()) / 2.0
    far = r > mid
    alternates = len(r) % 2 == 0 and bool(np.all(far != np.roll(far, 1)))
    ratio = float(r[~far].mean() / r[far].mean()) if far.any() and (~far).any() else 0.0
    runs = "" if alternates else "tips and inner corners do not alternate round the star"
    return alternates, ratio, runs


def score_polygon(
    points: np.ndarray,
    *,
    vertices: np.ndarray,
    grid_size: int = 50,
    start: tuple[float, float] | None = None,
    direction: str | None = None,
    thresholds: PolygonThresholds = POLYGON,
    family: str = "polygon",
    star: bool = False,
    rectangle: bool = False,
) -> ShapeScore:
    """Measure a polygon drawing against the asked vertices.

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        The drawing, in answer order.
    vertices : ndarray, shape (K, 2)
        The asked polygon, clockwise on screen (a star: tip first, alternating tip and inner corner).
    grid_size : int
    start : (float, float), optional
        Requested first point (a vertex); unchecked when ``None``.
    direction : {"cw", "ccw"}, optional
    thresholds : PolygonThresholds
        A :class:`StarThresholds` with ``star=True``.
    family : str
        Name put on the result.
    star, rectangle : bool
        Add the star's ``alternation`` and ``ratio`` checks, or report the rectangle's ``aspect`` (its
        proportions are judged through ``placement``: every corner on a fair rounding of its vertex).

    Returns
    -------
    ShapeScore
        ``score`` is the outline score about the asked polygon; ``vertices`` (corner count) comes
        from the simplified drawing, ``placement`` from its corners refined by line fits.
    """
    t = thresholds
    pts = ck.as_points(points)
    target = _cw(ck.as_points(vertices).astype(float))
    n = len(target)
    center = tuple(float(c) for c in target.mean(axis=0))
    radius = float(np.mean(np.hypot(target[:, 0] - center[0], target[:, 1] - center[1])))
    eps = float(np.clip(0.4 * corner_depths(target).min(), t.min_epsilon, t.max_epsilon))
    card = Scorecard()
    score = outline_measures(card, pts, target, closed=True, center=center, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    closed_checks(card, pts, center=center, direction=direction, t=t)
    # a side shorter than this is a corner the raster cut off, unless the asked sides are that short
    min_side = min(3.0 * eps, 0.5 * float(side_lengths(target).min()))
    card.metrics["epsilon"] = eps
    model = PolygonModel.from_estimate(pts, eps, min_side) if len(pts) else None
    if not model:
        why = model.reason if model is not None else "no points"
        card.metrics["corners"] = 0
        card.add("vertices", False, 0, f"= {n}", why)
        if star:
            card.add("alternation", False, "n/a", "tips and inner corners alternate", why)
            card.add("ratio", False, "n/a", f"≤ {t.max_ratio_error:g}", why)
        card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
        card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)
        return card.result(family, score)
    corners = model.vertices
    card.metrics["corners"] = model.n
    card.marks["corners"] = model.indices
    card.add("vertices", model.n == n, model.n, f"= {n}",
             f"{model.n} corners found (sides straight within {eps:.1f} cells)", model.indices)
    if star:
        alternates, ratio, why = _alternation(corners)
        want = _alternation(target)[1]
        ratio_err = abs(ratio - want) / want if want else float("inf")
        card.metrics.update(ratio=ratio, ratio_error=ratio_err)
        card.add("alternation", alternates, alternates, "tips and inner corners alternate", why)
        card.add("ratio", ratio_err <= t.max_ratio_error, ratio_err, f"≤ {t.max_ratio_error:g}",
                 f"inner / tip radius {ratio:.2f}, asked {want:.2f}")
    if model.n != n:
        why = f"not measured: {model.n} corners instead of {n}"
        card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
        card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)
        return card.result(family, score)
    # A fair drawing turns at a fair rounding of every asked vertex (one of vertex_cells) and runs
    # straight between them; a rotated, stretched, sheared or wrongly sized polygon, or one with a
    # corner cut or rounded, has no such cell at some corner, or strays from the sides through them.
    drawn_at, forward = _corner_order(pts, corners, model.indices, target)
    fair = vertex_cells(target)
    miss = np.zeros(n)
    near = np.zeros((n, 2))
    at: list[list[int]] = []  # drawing indices near each corner that are fair cells of its vertex
    for i in range(n):
        idx = _around(len(pts), drawn_at[i], t.corner_window)
        d = np.abs(fair[i][:, None, :] - pts[idx][None, :, :]).max(axis=2).min(axis=0)  # Chebyshev
        miss[i], near[i] = float(d.min()), pts[idx[int(np.argmin(d))]]
        at.append([int(j) for j in idx[d == d.min()]])
    worst = int(np.argmax(miss))
    cells = " or ".join(fmt_xy(tuple(c)) for c in fair[worst])
    card.metrics["vertex_miss"] = float(miss[worst])
    card.add("placement", float(miss[worst]) <= t.max_vertex_miss, float(miss[worst]), f"≤ {t.max_vertex_miss:g}",
             f"no corner on the asked vertex {fmt_xy(tuple(np.round(target[worst], 1)))} (cell {cells}); the "
             f"nearest drawn cell at that corner is {fmt_xy(tuple(near[worst]))}, {miss[worst]:g} cell(s) off")
    # every side, from where the drawing meets one vertex to where it meets the next, against the
    # straight segment between those two cells; where a vertex has several such places, the one
    # choice per vertex (shared by its two sides) that keeps every side straightest
    stray, where = _straightest(pts, at, forward)
    card.metrics["side_deviation"] = stray
    card.add("straightness", stray <= t.max_side_deviation, round(stray, 4), f"≤ {t.max_side_deviation:g}",
             f"point #{where} {fmt_xy(tuple(pts[where]))} is {stray:.2f} cells off the straight side between "
             "the asked vertices", (where,))
    # angles and sides follow from the corners; reported for reading, judged through the two above
    drawn = _align(_cw(corners.astype(float)), target)
    asked = interior_angles(target)
    ts, ds = side_lengths(target), side_lengths(drawn)
    card.metrics.update(angle_error=float(np.abs(interior_angles(drawn) - asked).max()),
                        side_error=float(np.abs(ds - ts).max()), size_ratio=float(ds.sum() / ts.sum()))
    if rectangle:
        want = (ts[0] + ts[2]) / (ts[1] + ts[3])
        got = (ds[0] + ds[2]) / (ds[1] + ds[3])
        card.metrics.update(aspect=float(got), aspect_error=float(abs(got - want) / want))
    return card.result(family, score)


# --- parameters, targets, prompts ------------------------------------------------------------------


def _rotate(rel: np.ndarray, degrees: float) -> np.ndarray:
    """Turn offsets ``degrees`` clockwise on screen (y down)."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.column_stack([rel[:, 0] * c - rel[:, 1] * s, rel[:, 0] * s + rel[:, 1] * c])


def _square(p: Mapping[str, Any]) -> np.ndarray:
    return regular_polygon(p["center"], p["side"] / math.sqrt(2), 4, 225.0 + p["rotation"])


def _rectangle(p: Mapping[str, Any]) -> np.ndarray:
    w, h = p["width"] / 2, p["height"] / 2
    rel = _rotate(np.array([[-w, -h], [w, -h], [w, h], [-w, h]], dtype=float), p["rotation"])
    return rel + np.asarray(p["center"], dtype=float)


def _triangle(p: Mapping[str, Any]) -> np.ndarray:
    if p.get("vertices") is not None:
        return _cw(np.array(p["vertices"], dtype=float))
    return regular_polygon(p["center"], p["radius"], 3, p["rotation"])


def _regular(p: Mapping[str, Any]) -> np.ndarray:
    return regular_polygon(p["center"], p["radius"], p["n"], p["rotation"])


def _star(p: Mapping[str, Any]) -> np.ndarray:
    return star_polygon(p["center"], p["radius"], p["inner"], p["n"], p["rotation"])


def target_vertices(case: "Case") -> np.ndarray:
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


def _finish(p: Mapping[str, Any], out: dict[str, Any], target: np.ndarray, what: str) -> dict[str, Any]:
    """Check the target fits the grid and resolve the start vertex."""
    fits_grid(target, out["grid_size"], f"the {what}")
    depth = corner_depths(target)
    if depth.min() < POLYGON.min_corner_depth:
        k = int(np.argmin(depth))
        raise CaseError(f"the {what}'s corners are too shallow to draw on the grid: vertex {k} lies "
                        f"{depth[k]:.1f} cells from the line through its neighbours, at least "
                        f"{POLYGON.min_corner_depth:g} is needed (make it larger, or give it fewer sides)")
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
        raise CaseError(f"'start' {fmt_xy(start)} is not a vertex of the {what}; its vertices are {listed} "
                        "(or give 'start_vertex')")
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
        if abs(ck.signed_area(np.array(pts, dtype=float))) < 1 or ang.min() < 15:
            raise CaseError(f"'vertices' {', '.join(map(fmt_xy, pts))} make a degenerate triangle "
                            f"(smallest angle {ang.min():.0f}°; at least 15° is needed)")
        shortest = float(side_lengths(np.array(pts, dtype=float)).min())
        if shortest < 4:  # as for every other size here: smaller cannot be drawn as a triangle
            raise CaseError(f"'vertices' {', '.join(map(fmt_xy, pts))} make a side {shortest:.1f} cells "
                            f"long; at least 4 is needed")
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
        raise CaseError(f"'inner' must be from {0.2 * r:.1f} to {0.85 * chord:.1f} for a {n}-pointed star of "
                        f"radius {r:g} (deeper than a fifth of the radius, shallower than the tips' chord), "
                        f"got {inner!r}")
    out["rotation"] = number_param(p, "rotation", default=270) % 360
    return _finish(p, out, _star(out), "star")


_RU_NGON = {3: "треугольник", 4: "четырёхугольник", 5: "пятиугольник", 6: "шестиугольник", 7: "семиугольник",
            8: "восьмиугольник", 9: "девятиугольник", 10: "десятиугольник", 11: "одиннадцатиугольник",
            12: "двенадцатиугольник"}
_EN_NGON = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon", 7: "heptagon", 8: "octagon",
            9: "nonagon", 10: "decagon", 11: "hendecagon", 12: "dodecagon"}
_RU_STAR = {4: "четырёхконечную", 5: "пятиконечную", 6: "шестиконечную", 7: "семиконечную",
            8: "восьмиконечную", 9: "девятиконечную", 10: "десятиконечную"}
_EN_STAR = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _turned(rot: float, what_ru: str, what_en: str, lang: str) -> str:
    if lang == "ru":
        return (f"{what_ru} повёрнут на {rot:g}° по часовой стрелке относительно краёв сетки.\n" if rot
                else "Стороны параллельны краям сетки.\n")
    return (f"The {what_en} is turned {rot:g}° clockwise relative to the grid edges.\n" if rot
            else "Its sides are parallel to the grid edges.\n")


def _phrases(case: "Case", lang: str) -> dict[str, str]:
    p = case.params
    fam = case.family
    ru = lang == "ru"
    c = fmt_xy(p["center"]) if "center" in p and p.get("vertices") is None else ""
    if fam == "square":
        return dict(
            figure="ровный квадрат" if ru else "an even square",
            center_line=f"Центр квадрата находится в точке {c}.\n" if ru else f"The center of the square is at point {c}.\n",
            geometry=(f"Сторона квадрата — {p['side']:g}.\n" if ru else f"The side of the square is {p['side']:g}.\n")
            + _turned(p["rotation"], "Квадрат", "square", lang),
            start_at="вершины квадрата" if ru else "the square's corner")
    if fam == "rectangle":
        w, h = f"{p['width']:g}", f"{p['height']:g}"
        return dict(
            figure="ровный прямоугольник" if ru else "an even rectangle",
            center_line=(f"Центр прямоугольника находится в точке {c}.\n" if ru
                         else f"The center of the rectangle is at point {c}.\n"),
            geometry=(f"Ширина прямоугольника — {w}, высота — {h}.\n" if ru
                      else f"The rectangle is {w} wide and {h} high.\n")
            + _turned(p["rotation"], "Прямоугольник", "rectangle", lang),
            start_at="вершины прямоугольника" if ru else "the rectangle's corner")
    if fam == "triangle":
        if p.get("vertices") is not None:
            v = [fmt_xy(q) for q in p["vertices"]]
            return dict(
                figure="треугольник с прямыми сторонами" if ru else "a triangle with straight sides",
                center_line=(f"Вершины треугольника: {v[0]}, {v[1]} и {v[2]}.\n" if ru
                             else f"The vertices of the triangle are {v[0]}, {v[1]} and {v[2]}.\n"),
                geometry="", start_at="вершины треугольника" if ru else "the triangle's vertex")
        return dict(
            figure="правильный (равносторонний) треугольник" if ru else "a regular (equilateral) triangle",
            center_line=(f"Центр треугольника находится в точке {c}.\n" if ru
                         else f"The center of the triangle is at point {c}.\n"),
            geometry=(f"Вершины лежат на окружности радиуса {p['radius']:g} с центром в этой точке.\n" if ru
                      else f"Its vertices lie on a circle of radius {p['radius']:g} about this center.\n"),
            start_at="вершины треугольника" if ru else "the triangle's vertex")
    if fam == "polygon":
        name = _RU_NGON[p["n"]] if ru else _EN_NGON[p["n"]]
        return dict(
            figure=f"правильный {name}" if ru else f"a regular {name}",
            center_line=(f"Центр {name}а находится в точке {c}.\n" if ru
                         else f"The center of the {name} is at point {c}.\n"),
            geometry=(f"Все вершины лежат на окружности радиуса {p['radius']:g} с центром в этой точке, "
                      "все стороны и углы равны.\n" if ru
                      else f"All its vertices lie on a circle of radius {p['radius']:g} about this center; "
                      "all sides and angles are equal.\n"),
            start_at=f"вершины {name}а" if ru else f"the {name}'s vertex")
    n, r, inner = p["n"], f"{p['radius']:g}", f"{p['inner']:g}"
    cells = cells_of(_star(p))
    at_tip = int(np.argmin(np.max(np.abs(cells - np.asarray(p["start"], float)), axis=1))) % 2 == 0
    return dict(
        figure=f"ровную {_RU_STAR[n]} звезду" if ru else f"an even {_EN_STAR[n]}-pointed star",
        center_line=f"Центр звезды находится в точке {c}.\n" if ru else f"The center of the star is at point {c}.\n",
        geometry=(f"Вершины лучей лежат на окружности радиуса {r}, внутренние вершины (между лучами) — "
                  f"на окружности радиуса {inner}; контур звезды — замкнутая ломаная из {2 * n} отрезков.\n" if ru
                  else f"The tips of its points lie on a circle of radius {r} and the inner vertices (between "
                  f"the points) on a circle of radius {inner}; the outline of the star is a closed polyline "
                  f"of {2 * n} segments.\n"),
        start_at=("вершины луча звезды" if at_tip else "внутренней вершины звезды") if ru
        else ("the tip of a point" if at_tip else "the inner vertex"))


def _json_center(case: "Case") -> tuple[float, float]:
    p = case.params
    if p.get("vertices") is not None:
        c = np.mean(np.array(p["vertices"], dtype=float), axis=0)
        return (float(round(c[0])), float(round(c[1])))
    return p["center"]


def _prompt(case: "Case", lang: str) -> str:
    p = case.params
    return contour_prompt(lang=lang, start=p["start"], direction=p["direction"], center=_json_center(case),
                          grid_size=p["grid_size"], **_phrases(case, lang))


def _ideal(case: "Case") -> np.ndarray:
    """The rounded target vertices joined by digital lines, from the start vertex in the asked direction."""
    p = case.params
    cells = cells_of(target_vertices(case)).astype(np.int64)
    k = int(np.argmin(np.max(np.abs(cells - np.asarray(p["start"], float)), axis=1)))
    ring = np.roll(cells, -k, axis=0)
    if p["direction"] == "ccw":
        ring = np.vstack([ring[:1], ring[:0:-1]])
    return raster_polyline(ring, closed=True)


_TARGETS: dict[str, Callable[[Mapping[str, Any]], np.ndarray]] = {
    "square": _square, "rectangle": _rectangle, "triangle": _triangle, "polygon": _regular, "star": _star,
}
_THRESHOLDS = {"square": SQUARE, "rectangle": RECTANGLE, "triangle": TRIANGLE, "polygon": POLYGON, "star": STAR}


def _scorer(name: str) -> Callable[["Drawing", "Case"], ShapeScore]:
    def score(drawing: "Drawing", case: "Case") -> ShapeScore:
        p = case.params
        return score_polygon(drawing.points, vertices=target_vertices(case), grid_size=p["grid_size"],
                             start=p["start"], direction=p["direction"],
                             thresholds=with_overrides(_THRESHOLDS[name], case.thresholds), family=name,
                             star=name == "star", rectangle=name == "rectangle")
    score.__name__ = f"score_{name}"
    return score


def _family(name: str, params: Callable[[Mapping[str, Any]], dict[str, Any]]) -> Family:
    return Family(name=name, params=params, prompt=_prompt, ideal=_ideal, score=_scorer(name),
                  variant_keys=("start", "direction"), thresholds=_THRESHOLDS[name])


SQUARE_FAMILY = _family("square", _square_params)
RECTANGLE_FAMILY = _family("rectangle", _rectangle_params)
TRIANGLE_FAMILY = _family("triangle", _triangle_params)
POLYGON_FAMILY = _family("polygon", _regular_params)
STAR_FAMILY = _family("star", _star_params)

#: The five families, for the registry in :mod:`shape_asserts.families.registry`.
FAMILIES = (SQUARE_FAMILY, RECTANGLE_FAMILY, TRIANGLE_FAMILY, POLYGON_FAMILY, STAR_FAMILY)
