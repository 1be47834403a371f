"""The polygon-like families' scorer: the drawing against the exact asked polygon, and its corners.

:func:`score_polygon` measures the drawing against the asked polygon's exact sides (every cell
near them, all of them covered, no cell drawn twice: :mod:`~shape_asserts.families.polygon.exact`),
then takes the drawing's corners from Ramer–Douglas–Peucker simplification
(:class:`~shape_asserts.geometry.fit.PolygonModel`) and matches them to the asked ones for count,
placement (every corner on a fair rounding of its vertex) and, for a star, the alternation of tips
and inner corners. The matching is :mod:`~shape_asserts.families.polygon.matching`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.polygon.exact import covered_check, near_check, on_exact_side, simple_check
from shape_asserts.families.polygon.matching import Match, match, straightest
from shape_asserts.families.prompts import fmt_xy
from shape_asserts.families.single import ClosedThresholds, loop_checks, outline_measures, outline_of, path_checks
from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.distances import Outline
from shape_asserts.geometry.fit import PolygonModel
from shape_asserts.geometry.fit.polygon import interior_angles, side_lengths, vertex_cells
from shape_asserts.geometry.points import FloatArray, Point, as_points, roll_rows, round_half_up
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
    "rounding_ratio_error",
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
    #: Cells (Chebyshev) between the drawing at each corner and the nearest fair rounding of the
    #: asked vertex (:func:`~shape_asserts.geometry.fit.polygon.vertex_cells`: the floor or the
    #: ceiling of each coordinate, a whole coordinate only itself). Whole cells: below 1, the
    #: drawing passes through such a cell at every corner, or goes round it by a diagonal step (an
    #: 8-connected line cuts the L-corner a 4-connected one draws); a corner a whole cell off a
    #: vertex at whole coordinates, or two cells off any, is not.
    max_vertex_miss: float = 0.5
    #: Drawn points looked at on each side of a found corner for that cell: a blunt corner's found
    #: cell may sit a cell or two along a side, two or three points on a 4-connected staircase.
    #: A fair cell found off the real corner does not let a wrong corner through: the sides through
    #: it must then be straight (``max_side_deviation``) and near the exact ones.
    corner_window: int = 3
    #: Farthest a drawn cell may lie from the asked polygon's exact sides, cells (``near``). A fair
    #: drawing turns at a fair rounding of each vertex, which lies within 0.75 of it in each
    #: coordinate (1.06 away at most), and runs between those cells along a digital line, which
    #: keeps within 0.5 of its own chord: 1.06 + 0.5 ≈ 1.56 at worst, 1.43 among the catalogue's
    #: fair drawings (a 4-connected staircase between two vertices rounded the far way); a cell on
    #: the exact side lies within half a cell's diagonal (0.71). A spike, a tab or a dent two cells
    #: deep stands out beyond it.
    max_outline_distance: float = 1.5
    #: Farthest a point of the asked outline (vertices included) may lie from every drawn cell,
    #: cells (``covered``). The cell the outline passes through is within 0.71 of the point; a fair
    #: drawing draws it, or cuts it diagonally (an 8-connected line turning an L-corner) and draws
    #: its neighbours: a vertex at a cell's corner, its cell cut, is hypot(0.5, 1.5) = 1.58 from the
    #: nearest of them. A corner cut off three cells deep or a missing stretch of side leaves a
    #: point farther than this.
    max_uncovered: float = 1.6
    #: Farthest a drawn point may lie from the straight side joining the cells where the drawing
    #: meets two neighbouring vertices (``straightness``): a digital line keeps within 0.5 of its
    #: segment, a 4-connected staircase's elbows within 0.71. A polygon stretched or turned a cell
    #: or two keeps near the asked sides (``near``) but bends where it crosses them.
    max_side_deviation: float = 0.75


@dataclass(frozen=True)
class StarThresholds(PolygonThresholds):
    """Polygon limits plus the star's inner / outer radius ratio."""

    #: Relative error of mean inner radius / mean tip radius against the asked ratio, or the
    #: error fair roundings of the asked vertices may make if larger (:func:`rounding_ratio_error`:
    #: an inner radius of 3 is drawn 3.6 from the centre by a fair cell, 20 % off).
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
    return v if signed_area(v) >= 0 else np.concatenate((v[:1], v[:0:-1]))


def _ratio_limit(t: PolygonThresholds, vertices: ArrayLike) -> float:
    """A star's limit on its inner / tip radius ratio (a star is scored with :class:`StarThresholds`):
    the thresholds' one, or what fair roundings of the asked ``vertices`` may make if more."""
    if not isinstance(t, StarThresholds):
        raise TypeError(f"a star is scored with StarThresholds, got {type(t).__name__}")
    return max(t.max_ratio_error, rounding_ratio_error(vertices))


def rounding_ratio_error(vertices: ArrayLike) -> float:
    """The largest relative error in a star's inner / tip radius ratio that drawing every asked
    vertex (tip first, alternating) at one of its fair cells (:func:`vertex_cells`) can make.

    Measured about the asked vertices' centroid: the ratio is least with every inner corner at
    its nearest fair cell and every tip at its farthest, and greatest the other way round. A small
    star's inner corners are a cell or so from its centre, where a fair rounding moves the ratio
    most (inner radius 3: a fair cell 3.6 away, 20 % off)."""
    v = as_points(vertices).astype(float)
    center = v.mean(axis=0)
    near, far = [], []
    for cells in vertex_cells(v):
        r = np.hypot(cells[:, 0] - center[0], cells[:, 1] - center[1])
        near.append(r.min())
        far.append(r.max())
    lo, hi = np.array(near), np.array(far)
    tip, inner = slice(0, None, 2), slice(1, None, 2)
    want = float(np.hypot(*(v[inner] - center).T).mean() / np.hypot(*(v[tip] - center).T).mean())
    least = float(lo[inner].mean() / hi[tip].mean())
    most = float(hi[inner].mean() / lo[tip].mean())
    return max(want - least, most - want) / want


def alternation(corners: FloatArray) -> tuple[bool, float, str]:
    """Whether the corners alternate far and near about their centroid, the mean near radius over
    the mean far one, and why they do not alternate ("" when they do): a star's tips and inner
    corners. Far is farther than the middle of the largest and the least radius."""
    rel = corners - corners.mean(axis=0)
    r = np.hypot(rel[:, 0], rel[:, 1])
    mid = (r.max() + r.min()) / 2.0
    far = r > mid
    alternates = len(r) % 2 == 0 and bool(np.all(far != roll_rows(far, 1)))
    tips, inner = r[far], r[~far]
    ratio = float(inner.mean() / tips.mean()) if len(tips) and len(inner) else 0.0
    return alternates, ratio, "" if alternates else "tips and inner corners do not alternate round the star"


@dataclass(frozen=True)
class _Asked:
    """What a score reads from the asked polygon alone."""

    target: FloatArray  # clockwise
    center: Point
    outline: Outline  # the prepared outline through target
    depth: float  # the shallowest corner's depth
    shortest: float  # the shortest side
    fair: list[FloatArray]  # per vertex, its fair cells (vertex_cells)
    said: list[tuple[str, str]]  # per vertex: it rounded to 0.1 and its fair cells, as written
    angles: FloatArray
    sides: FloatArray
    perimeter: float  # sides.sum()
    ratio: float  # a star's inner / tip radius ratio


def _asked(vertices: ArrayLike) -> _Asked:
    """:class:`_Asked` of the asked polygon ``vertices``."""
    target = clockwise(as_points(vertices).astype(float))
    cx, cy = target.mean(axis=0).tolist()
    sides = side_lengths(target)
    fair = vertex_cells(target)
    return _Asked(
        target=target,
        center=(cx, cy),
        outline=outline_of(target, closed=True, center=(cx, cy)),
        depth=float(corner_depths(target).min()),
        shortest=float(sides.min()),
        fair=fair,
        said=[
            (fmt_xy(tuple(np.round(v, 1))), " or ".join(fmt_xy(c) for c in f.tolist())) for v, f in zip(target, fair)
        ],
        angles=interior_angles(target),
        sides=sides,
        perimeter=float(sides.sum()),
        ratio=alternation(target)[1],
    )


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
    n = len(asked.target)
    ratio_limit = _ratio_limit(t, asked.target) if star else None
    eps = _epsilon(asked, t)
    card = Scorecard()
    score = outline_measures(card, pts, asked.outline, t=t)
    path_checks(card, pts, grid_size=grid_size, start=start, t=t)
    loop_checks(card, pts, center=asked.center, direction=direction, t=t)
    # the drawing against the exact polygon, whatever corners are found in it
    near_check(card, pts, asked.target, t.max_outline_distance)
    covered_check(card, pts, asked.target, t.max_uncovered)
    simple_check(card, pts, asked.target, asked.angles, t.max_outline_distance)
    card.metrics["epsilon"] = eps
    # a side shorter than this is a corner the raster cut off, unless the asked sides are that short
    min_side = min(3.0 * eps, 0.5 * asked.shortest)
    model = PolygonModel.from_estimate(pts, eps, min_side, fewest=n)
    if not model:
        _no_corners(card, n, model.reason, t, ratio_limit)
        return card.result(family, score)
    _vertex_count(card, model, n, eps)
    if ratio_limit is not None:
        _alternation(card, model.vertices)
    if model.n != n:
        why = f"not measured: {model.n} corners instead of {n}"
        card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
        if ratio_limit is not None:
            card.add("ratio", False, "n/a", f"≤ {ratio_limit:g}", why)
        card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)
        return card.result(family, score)
    # A fair drawing turns at a fair rounding of every asked vertex (one of vertex_cells); a
    # rotated, stretched, sheared or wrongly sized polygon, or one with a corner cut or rounded,
    # has no such cell at some corner (its sides may still keep near the asked ones).
    m = match(pts, model.indices, asked.target, asked.fair, t.corner_window)
    _placement(card, pts, m, asked, t)
    if ratio_limit is not None:
        _ratio(card, m.placed, asked, ratio_limit)
    _straightness(card, pts, m, asked, t)
    _shape_measures(card, m.drawn, asked, rectangle)
    return card.result(family, score)


def _epsilon(asked: _Asked, t: PolygonThresholds) -> float:
    """The simplification tolerance: 0.4 of the asked polygon's shallowest corner depth, kept within
    the thresholds' ``min_epsilon``..``max_epsilon`` (a nan depth stays nan)."""
    return float(min(max(0.4 * asked.depth, t.min_epsilon), t.max_epsilon))


def _no_corners(card: Scorecard, n: int, why: str, t: PolygonThresholds, ratio_limit: float | None) -> None:
    """Every corner check failed, for a drawing whose corners could not be found (``why``)."""
    card.metrics["corners"] = 0
    card.add("vertices", False, 0, f"= {n}", why)
    if ratio_limit is not None:
        card.add("alternation", False, "n/a", "tips and inner corners alternate", why)
    card.add("placement", False, "n/a", f"≤ {t.max_vertex_miss:g}", why)
    if ratio_limit is not None:
        card.add("ratio", False, "n/a", f"≤ {ratio_limit:g}", why)
    card.add("straightness", False, "n/a", f"≤ {t.max_side_deviation:g}", why)


def _vertex_count(card: Scorecard, model: PolygonModel, n: int, eps: float) -> None:
    """The ``vertices`` check: as many corners found as asked."""
    found = model.n
    card.metrics["corners"] = found
    card.marks["corners"] = model.indices
    card.add(
        "vertices",
        found == n,
        found,
        f"= {n}",
        # (a detail is kept only when the check fails: written only then)
        "" if found == n else f"{found} corners found (sides straight within {eps:.1f} cells)",
        model.indices,
    )


def _alternation(card: Scorecard, corners: FloatArray) -> None:
    """A star's ``alternation`` check: the found corners are tips and inner corners in turn."""
    alternates, _, why = alternation(corners)
    card.add("alternation", alternates, alternates, "tips and inner corners alternate", why)


def _ratio(card: Scorecard, placed: FloatArray, asked: _Asked, ratio_limit: float) -> None:
    """A star's ``ratio`` check: inner / tip radius of the drawing where it meets each asked vertex
    (the cells ``placement`` read, clockwise from the first tip) against the asked ratio.

    Read there rather than at the corners simplification finds: a thinned drawing cuts each
    sharp inner corner by a diagonal step, so the corner found is a cell beyond the vertex (an
    inner radius of 4 read as 5.2), while the cell it cuts round is the vertex's own. On a drawing
    that passes ``placement`` every such cell is a fair rounding of its vertex, within the limit by
    :func:`rounding_ratio_error`; the check says by how much the star is off when it is not."""
    rel = placed - np.asarray(asked.center)
    r = np.hypot(rel[:, 0], rel[:, 1])
    tips, inner = r[0::2], r[1::2]
    ratio = float(inner.mean() / tips.mean()) if tips.mean() > 0 else float("inf")
    want = asked.ratio
    ratio_err = abs(ratio - want) / want if want else float("inf")
    card.metrics.update(ratio=ratio, ratio_error=ratio_err)
    card.add(
        "ratio",
        ratio_err <= ratio_limit,
        ratio_err,
        f"≤ {ratio_limit:g}",
        f"inner / tip radius {ratio:.2f}, asked {want:.2f}",
    )


def _placement(card: Scorecard, pts: FloatArray, m: Match, asked: _Asked, t: PolygonThresholds) -> None:
    """The ``placement`` check: the drawing passes through (or diagonally across) a cell near every
    exact asked vertex, at the corner matched to it (the worst corner's miss, Chebyshev cells)."""
    worst = int(np.argmax(m.misses))
    miss = float(m.misses[worst])
    card.metrics["vertex_miss"] = miss
    placed = miss <= t.max_vertex_miss
    why = ""  # (kept only when the check fails: written only then)
    if not placed:
        near = pts[m.near[worst][int(np.argmin(m.d[worst]))]]
        vertex, fair_cells = asked.said[worst]
        why = (
            f"no corner on the asked vertex {vertex} (cell {fair_cells}); the "
            f"nearest drawn cell at that corner is {fmt_xy(tuple(near))}, {miss:.2g} cell(s) off"
        )
    card.add("placement", placed, miss, f"≤ {t.max_vertex_miss:g}", why)


def _straightness(card: Scorecard, pts: FloatArray, m: Match, asked: _Asked, t: PolygonThresholds) -> None:
    """The ``straightness`` check: every side, from where the drawing meets one vertex to where it
    meets the next, against the straight segment between those two cells, a fair rounding of a
    point on the exact asked side counting as straight (:func:`.exact.on_exact_side`); where a vertex has several such places, the one choice per
    vertex (shared by its two sides) that keeps every side straightest."""
    on_outline = on_exact_side(pts, asked.target)
    stray, where = straightest(pts, m.at, m.forward, on_outline)
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
        "the asked vertices, and off the asked side",
        (where,),
    )


def _shape_measures(card: Scorecard, drawn: FloatArray, asked: _Asked, rectangle: bool) -> None:
    """Angles, sides and size of the drawn corners against the asked ones, and a rectangle's
    proportions: reported for reading, judged through ``placement``, ``near`` and ``covered``."""
    ds = side_lengths(drawn)
    ts = asked.sides
    card.metrics.update(
        angle_error=float(np.max(np.abs(interior_angles(drawn) - asked.angles))),
        side_error=float(np.max(np.abs(ds - ts))),
        size_ratio=float(ds.sum() / asked.perimeter),
    )
    if rectangle:
        want = (ts[0] + ts[2]) / (ts[1] + ts[3])
        got = (ds[0] + ds[2]) / (ds[1] + ds[3])
        card.metrics.update(aspect=float(got), aspect_error=float(abs(got - want) / want))
