"""The polygon-like families' scorer: corners found, matched to the asked vertices, and judged.

:func:`score_polygon` takes the drawing's corners from Ramer–Douglas–Peucker simplification
(:class:`~shape_asserts.geometry.fit.PolygonModel`) and matches them to the asked ones for count,
placement (every corner on a fair rounding of its vertex), straightness of the sides between them
and, for a star, the alternation of tips and inner corners. The matching and the sides are
:mod:`~shape_asserts.families.polygon.matching`'s, asked of the corner search's last pass (so that
the sides are measured along with it) and kept for the corners it finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.polygon.matching import Match, match, side_runs, straightest
from shape_asserts.families.polygon.plain import alternation, first_max, largest
from shape_asserts.families.prompts import fmt_xy
from shape_asserts.families.single import ClosedThresholds, loop_checks, outline_measures, outline_of, path_checks
from shape_asserts.geometry.distances import Outline
from shape_asserts.geometry.fit import PolygonModel
from shape_asserts.geometry.fit.polygon import (
    interior_angles,
    np_sum,
    orientation,
    side_lengths,
    sides_and_angles,
    vertex_cell_lists,
)
from shape_asserts.geometry.points import FloatArray, Point, as_points, round_half_up
from shape_asserts.geometry.runs import Ring, Run
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard
from shape_asserts.geometry.simplify import corner_depths

__all__ = [
    "PolygonThresholds",
    "StarThresholds",
    "SQUARE",
    "RECTANGLE",
    "TRIANGLE",
    "POLYGON",
    "STAR",
    "score_polygon",
    "cells_of",
    "clockwise",
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
    #: vertex (:func:`~shape_asserts.geometry.fit.polygon.vertex_cells`: a coordinate may round either
    #: way when both cells lie within 0.75). Whole cells: below 1, the drawing passes through such a
    #: cell at every corner.
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


def cells_of(vertices: ArrayLike) -> FloatArray:
    """The cells of the asked vertices, halves rounded up: moving a case by whole cells moves them alike."""
    return round_half_up(vertices)


def clockwise(v: FloatArray) -> FloatArray:
    """``v`` in clockwise order on screen, the first vertex kept first."""
    return v if orientation(v) >= 0 else np.concatenate((v[:1], v[:0:-1]))


def _ratio_limit(t: PolygonThresholds) -> float:
    """A star's limit on its inner / tip radius ratio (a star is scored with :class:`StarThresholds`)."""
    if not isinstance(t, StarThresholds):
        raise TypeError(f"a star is scored with StarThresholds, got {type(t).__name__}")
    return t.max_ratio_error


@dataclass(frozen=True)
class _Asked:
    """What a score reads from the asked polygon alone: worked out once per polygon, as each answer
    to a case asks the same one (the same floats, kept read-only)."""

    target: FloatArray  # clockwise
    center: Point
    outline: Outline  # the prepared outline through target
    depth: float  # the shallowest corner's depth
    shortest: float  # the shortest side
    fair: tuple[tuple[tuple[float, float], ...], ...]  # vertex_cell_lists
    cells: FloatArray  # fair as a (2, n, 4, 1) array (x and y apart), each vertex's last cell repeated to four
    said: tuple[tuple[str, str], ...]  # per vertex: it rounded to 0.1 and its fair cells, as written
    angles: FloatArray
    sides: FloatArray
    angle_list: list[float]  # angles and sides as plain floats
    side_list: list[float]
    perimeter: float  # sides.sum()
    ratio: float  # a star's inner / tip radius ratio


@lru_cache(maxsize=256)
def _asked_from(raw: bytes, k: int) -> _Asked:
    target = clockwise(np.frombuffer(raw, dtype=np.float64).reshape(k, 2).copy())
    cx, cy = target.mean(axis=0).tolist()
    angles, sides = interior_angles(target), side_lengths(target)
    fair = tuple(tuple(cells) for cells in vertex_cell_lists(target))
    # x and y apart, a last axis to meet the points drawn about each corner
    cells = np.array([[f[min(c, len(f) - 1)] for c in range(4)] for f in fair]).transpose(2, 0, 1)[..., None].copy()
    for a in (target, angles, sides, cells):
        a.flags.writeable = False
    return _Asked(
        target=target,
        center=(cx, cy),
        outline=outline_of(target, closed=True, center=(cx, cy)),
        depth=float(np.minimum.reduce(corner_depths(target))),
        shortest=float(sides.min()),
        fair=fair,
        cells=cells,
        said=tuple((fmt_xy(tuple(np.round(v, 1))), " or ".join(fmt_xy(c) for c in f)) for v, f in zip(target, fair)),
        angles=angles,
        sides=sides,
        angle_list=angles.tolist(),
        side_list=sides.tolist(),
        perimeter=float(sides.sum()),
        ratio=alternation(target)[1],
    )


def _asked(vertices: ArrayLike) -> _Asked:
    v = np.ascontiguousarray(as_points(vertices), dtype=np.float64)
    return _asked_from(v.tobytes(), len(v))


def score_polygon(
    points: ArrayLike,
    *,
    vertices: ArrayLike,
    grid_size: int = 50,
    start: Point | None = None,
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
    pts = as_points(points)
    asked = _asked(vertices)
    target, center = asked.target, asked.center
    n = len(target)
    # np.clip of one number, as min(max(…)): the same float, nan kept
    eps = float(min(max(0.4 * asked.depth, t.min_epsilon), t.max_epsilon))
    ratio_limit = _ratio_limit(t) if star else None
    card = Scorecard()
    score = outline_measures(card, pts, asked.outline, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    loop_checks(card, pts, center=center, direction=direction, t=t)
    # a side shorter than this is a corner the raster cut off, unless the asked sides are that short
    min_side = min(3.0 * eps, 0.5 * asked.shortest)
    card.metrics["epsilon"] = eps
    matched: dict[tuple[int, ...], Match] = {}

    def along(corners: list[int]) -> list[Run]:
        # the corner search's last pass, while it holds as many corners as asked: they are matched
        # now (kept, for when they are the ones found) and the sides straightest measures ride along
        if len(corners) != n:
            return []
        m = match(pts, tuple(corners), target, asked.cells, t.corner_window)
        matched[m.indices] = m
        if m.whole and all(len(a) == 1 for a in m.at) and sorted(a[0] for a in m.at) == corners:
            return []  # each side between two corners: the inner run RDP measures (see sides)
        return side_runs(len(pts), m.pairs, m.forward, m.whole)

    model = PolygonModel.from_estimate(pts, eps, min_side, ahead=n, along=along) if len(pts) else None
    if not model:
        why = model.reason if model is not None else "no points"
        card.metrics["corners"] = 0
        card.add("vertices", False, 0, f"= {n}", why)
        if ratio_limit is not None:
            card.add("alternation", False, "n/a", "tips and inner corners alternate", why)
            card.add("ratio", False, "n/a", f"≤ {ratio_limit:g}", why)
        card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
        card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)
        return card.result(family, score)
    corners = model.vertices
    card.metrics["corners"] = model.n
    card.marks["corners"] = model.indices
    found = model.n
    card.add(
        "vertices",
        found == n,
        found,
        f"= {n}",
        # (a detail is kept only when the check fails: written only then)
        "" if found == n else f"{found} corners found (sides straight within {eps:.1f} cells)",
        model.indices,
    )
    if ratio_limit is not None:
        alternates, ratio, why = alternation(corners)
        want = asked.ratio
        ratio_err = abs(ratio - want) / want if want else float("inf")
        card.metrics.update(ratio=ratio, ratio_error=ratio_err)
        card.add("alternation", alternates, alternates, "tips and inner corners alternate", why)
        card.add(
            "ratio",
            ratio_err <= ratio_limit,
            ratio_err,
            f"≤ {ratio_limit:g}",
            f"inner / tip radius {ratio:.2f}, asked {want:.2f}",
        )
    if model.n != n:
        why = f"not measured: {model.n} corners instead of {n}"
        card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
        card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)
        return card.result(family, score)
    # A fair drawing turns at a fair rounding of every asked vertex (one of vertex_cells) and runs
    # straight between them; a rotated, stretched, sheared or wrongly sized polygon, or one with a
    # corner cut or rounded, has no such cell at some corner, or strays from the sides through them.
    m = matched.get(model.indices) or match(pts, model.indices, target, asked.cells, t.corner_window)
    rows, d, misses, drawn = m.rows, m.d, m.misses, m.drawn
    worst = first_max(misses)
    miss_w = misses[worst]
    card.metrics["vertex_miss"] = miss_w
    placed = miss_w <= t.max_vertex_miss
    why = ""  # (kept only when the check fails: written only then)
    if not placed:
        near = pts[rows[worst][int(d[worst].argmin())]]
        vertex, fair_cells = asked.said[worst]
        why = (
            f"no corner on the asked vertex {vertex} (cell {fair_cells}); the "
            f"nearest drawn cell at that corner is {fmt_xy(tuple(near))}, {miss_w:g} cell(s) off"
        )
    card.add("placement", placed, miss_w, f"≤ {t.max_vertex_miss:g}", why)
    # every side, from where the drawing meets one vertex to where it meets the next, against the
    # straight segment between those two cells; where a vertex has several such places, the one
    # choice per vertex (shared by its two sides) that keeps every side straightest
    stray, where = straightest(model.ring or Ring(pts), m.at, m.forward, m.whole, m.pairs)
    card.metrics["side_deviation"] = stray
    straight = stray <= t.max_side_deviation
    card.add(
        "straightness",
        straight,
        round(stray, 4),
        f"≤ {t.max_side_deviation:g}",
        ""  # (kept only when the check fails: written only then)
        if straight
        else f"point #{where} {fmt_xy(tuple(pts[where]))} is {stray:.2f} cells off the straight side between "
        "the asked vertices",
        (where,),
    )
    # angles and sides follow from the corners; reported for reading, judged through the two above
    # (a few corners: plain floats, the same as numpy's arrays would give, see sides_and_angles;
    # the quotients divide numpy's floats, so that a zero side gives inf or nan as it did)
    ds, drawn_angles = sides_and_angles(drawn)
    ts = asked.side_list
    card.metrics.update(
        angle_error=largest([abs(a - b) for a, b in zip(drawn_angles, asked.angle_list)]),
        side_error=largest([abs(a - b) for a, b in zip(ds, ts)]),
        size_ratio=float(np.float64(np_sum(ds)) / asked.perimeter),
    )
    if rectangle:
        want = np.float64(ts[0] + ts[2]) / (ts[1] + ts[3])
        got = np.float64(ds[0] + ds[2]) / (ds[1] + ds[3])
        card.metrics.update(aspect=float(got), aspect_error=float(abs(got - want) / want))
    return card.result(family, score)
