"""Free scenes from the seed: an isometric wire-frame house with a roof and a chimney, and a stick figure.

Both are asked with the seed's free-scene template (``prompts.SEED_SCENE_TEMPLATE``), the
description filled in ("каркас дома в изометрии с крышей и трубой" is the seed's own wording), and
optionally an area of the grid the drawing should occupy. A free scene has no single right answer,
so the checks are only those that can be stated honestly from the points alone, plus a distance to
a reference drawing made here (:func:`house_reference`, :func:`stick_reference`).

Strokes
-------
The template asks for every object "in one common list, in the order the objects are drawn", so a
jump between two points may be a pen lift between objects, and a point written twice in a row may
be a stroke that begins on the cell where the previous one ended (a junction). Neither is a defect
in a scene, so the answer is cut into *strokes* (:func:`scene_strokes`) at every step that is not
to an 8-neighbour and at every repeated point, and a finished loop that runs on (a head continued
into the torso) is cut where it comes closest to its start (after rule 3 of
``shape_asserts.geometry.contours``). Each stroke is simplified to straight edges (Ramer–Douglas–Peucker,
1 cell), after cutting it where it turns straight back on itself (a retraced limb or edge); the
checks look at those edges and where they meet.

Shared checks
    ``bounds`` (and ``area`` when one was asked); ``fragments`` — the share of points in strokes of
    fewer than ``fragment_cells`` cells: a line drawn with every second or third cell missing falls
    apart into such crumbs, while a few dots of detail (eyes, a door knob) stay under the limit;
    ``likeness`` — similarity to the reference drawing (reported, not gated by default: see below).
House (isometric: vertical edges and ground lines rising at 20–36°, i.e. the 2:1 pixel
isometric 26.6° or the true 30°)
    ``iso_axes`` — edges run along all three isometric axes; ``iso_share`` — most of the edge length
    does. The edges are then cut at corners: where two or more other edges end on a line (a wall
    edge drawn straight on into a roof edge). ``walls`` — at least three vertical edges *stand on
    the ground* (nothing is drawn below their foot): a box seen in isometric view always shows its
    left, front and right corner edges, a front view or a bare outline shows two;
    ``roof_above_walls`` — an edge that is neither a wall nor along a ground axis (vertical allowed)
    leaves the top of a wall edge and rises above it, within the walls' width: a gable or hip edge
    (a flat top has only eave lines there; a roof set beside or below the walls starts from no wall
    top); ``gable`` — only when the description asks for a gable roof ("gable", "двускат"): a roof
    edge and another edge from the neighbouring wall top meet in a peak above the middle third of
    that wall face (a gable end stands in the face; a hip roof's end leans back, its peak above the
    corner); ``chimney`` — two vertical edges side by side (at most half the walls' width apart),
    their tops level (a small box), standing above the eave line (the line through the wall tops)
    and within the walls' width, neither of them a wall edge nor rising straight from a wall top.
Stick figure
    ``head`` — the topmost closed loop is round: its largest radial harmonic about the fitted
    circle stays within the limits a drawn circle is held to (``CircleThresholds.harmonic_limits``),
    so a square, diamond, triangle or hexagon head fails; ``head_aspect`` — it is as wide as it is
    tall, to the one cell any digital circle allows; ``torso`` — the line hanging from the head (the
    body edge steeper than 45° whose top is nearest the head's bottom, continued by collinear edges)
    is within ``torso_tolerance`` of vertical; ``head_above_torso`` — it starts below the head's
    center and at most ``max_neck`` head radii below the head; ``limbs`` — the edges that leave the
    torso (an edge drawn across it counts on both sides; pieces in one direction from one place
    count once) are exactly one arm on each side from its upper half and one leg on each side from
    its lower half: a missing, extra or misplaced limb fails.

``likeness`` is :func:`shape_asserts.geometry.contours.similarity` between the drawing and the reference
after the drawing's bounding box is fitted onto the reference's (uniform scale, proportions kept),
so it measures shape, not placement; ``chamfer_raw`` in the metrics is the distance without that
fit. It is the headline score, for comparing models on one case, but it rewards closeness to *one*
reference design (a long low house, a hip roof, raised arms score lower) and random scribbles
reach the scores of fair drawings, so by default it decides nothing; the structural checks do.

What these checks cannot judge
------------------------------
- Whether it *looks like* a house or a person to a human, or is pleasing: a drawing can pass every
  structural check and still be a poor picture, and a charming drawing in another style (a front
  view, a figure in profile, a figure sitting) fails checks written for this style.
- Continuity inside a stroke: a skipped run of points in the middle of a line looks exactly like a
  pen lift between two objects, and a point written twice like a junction, so neither is caught;
  only a line falling apart into crumbs (``fragments``) is. A stray dot or two is not caught either.
- Occlusion and hidden lines: a wire-frame may or may not show the hidden edges; nothing checks
  which edges should be visible or whether a face is drawn "in front of" another.
- 3-D consistency: the house checks look at edge directions and at where edges meet; they cannot
  tell whether the box is a consistent 3-D box, whether the roof's far side matches its near side,
  or whether the chimney stands *on* the roof rather than floating just above it. A very flat roof
  (pitch under ~13°, whose gable edges run along the ground axes) cannot be told from a flat top.
  Corners must meet within ``corner_tol`` (1.5 cells): a roof drawn detached from the walls, or
  overhanging them, has no edge rising from a wall top and fails. Anything drawn under the house
  (a ground line, a path) hides the walls' feet. A chimney drawn as a single line is not a box and
  is missed. The roof type is only judged when the description names a gable roof.
- Small heads: at a radius of 3–4 cells a polygon with many sides, or a square with cut corners,
  can lie within a cell of the circle everywhere and pass as round; the head is a circle only as
  far as the grid can show.
- Which stroke is which part: strokes are not labelled, so "wall" means "a vertical edge standing
  on the ground", "roof" means "an off-axis edge rising from a wall top", "chimney" means "two
  level vertical edges close together above the eaves", "torso" means "the line hanging from the
  topmost loop"; limbs are counted by where their edges leave the torso, so a bent arm drawn in two pieces
  counts once, but legs drawn straight down in line with the torso (they continue it), limbs
  attached to nothing, or a limb retraced along a slightly different line are misjudged.
- Extra objects (a sun, a door, windows, a hat) are neither required nor penalised, except where
  they change the structures above (a line under a wall's foot, a loop above the head, a third
  edge leaving the torso).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from shape_asserts.geometry import checks as ck
from shape_asserts.geometry.contours import (
    bounding_box,
    chamfer_distance,
    closure,
    fit_to_box,
    segment_angles,
    segments,
    similarity,
)
from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.fit import CircleModel, roundness
from shape_asserts.families.prompts import scene_prompt
from shape_asserts.geometry.raster import raster_circle, raster_polyline
from shape_asserts.geometry.score import Check, ShapeScore, harmonics_check
from shape_asserts.families.thresholds import CIRCLE, with_overrides
from shape_asserts.families.base import Family

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.drawing import Drawing

__all__ = [
    "SceneThresholds",
    "HouseThresholds",
    "StickThresholds",
    "HOUSE_THRESHOLDS",
    "STICK_THRESHOLDS",
    "HOUSE",
    "STICK",
    "house_reference",
    "stick_reference",
    "scene_strokes",
]


# --- thresholds ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SceneThresholds:
    """Limits shared by the free scenes. Distances are in grid cells."""

    #: A stroke of fewer cells than this is a crumb (a fragment): a line with every second or third
    #: cell left out falls apart into strokes of 1–2 cells, while every real stroke of a scene
    #: (an edge, a limb, a head) spans at least 3.
    fragment_cells: int = 3
    #: Largest share of the points that may lie in fragments: a few dots of detail (two eyes in a
    #: 100-point figure are 2 %) pass, a dotted or crumbling drawing (≈ 100 %) does not.
    max_fragment_share: float = 0.1
    #: How far outside the asked area a point may lie (only when the case asks for an area).
    area_margin: float = 3.0
    #: ``likeness`` is 0 at a mean Chamfer distance of this share of the reference's diagonal
    #: (about 4.7 cells for the default house). Calibrated in ``bench/calibrate_scenes.py``: the
    #: reference mirrored or squashed to 3/4 width scores ~77, a front-view house ~55, a random
    #: walk or a circle ~30–40.
    similarity_scale: float = 0.1
    #: Smallest ``likeness`` (0–100) that passes: 0, i.e. reported, not gated. The distance to one
    #: reference design cannot tell a scene from a scribble: random walks of 200 steps score 0–64
    #: on the house and 0–50 on the figure, fair drawings in other styles than the reference's (a
    #: long low house, raised arms) from 48. A case may still set a floor in its thresholds.
    min_likeness: float = 0.0
    #: Edges are traced through pen moves of at most this many cells (Chebyshev): a point pushed
    #: one cell off its line, or one cell skipped, leaves a two-cell step, and two objects drawn
    #: one after the other rarely start within two cells of where the last one ended (when they do,
    #: the short joining edge changes nothing the checks look at). ``fragments`` still counts them.
    heal_step: float = 2.0
    #: Ramer–Douglas–Peucker tolerance for straight edges: one cell, the rounding of a raster line.
    simplify_tolerance: float = 1.0
    #: Shortest simplified edge whose direction is trusted (a 2-cell edge can only point along
    #: 8 directions).
    min_edge: float = 3.0


@dataclass(frozen=True)
class HouseThresholds(SceneThresholds):
    """Limits for the isometric house."""

    #: Degrees from vertical that still count as vertical: a 1-cell lean over a 4-cell edge is 14°.
    vertical_tolerance: float = 15.0
    #: Isometric axes: edges within this band of degrees from horizontal (2:1 pixel iso is 26.6°,
    #: true isometric 30°; the band leaves ~6° either side for rounding).
    iso_min_angle: float = 20.0
    iso_max_angle: float = 36.0
    #: Least total length along each of the three axes (vertical, rising left, rising right): one
    #: edge of 4 cells, the shortest whose direction the grid resolves into the band.
    min_axis_length: float = 4.0
    #: Least share of the simplified edge length that runs along the three axes: a house is mostly
    #: box and eaves, the roof's gable or hip edges and odd details the rest (isometric houses keep
    #: ≥ 0.7, a front view, all horizontal and 40° lines, ~0.35).
    min_iso_share: float = 0.5
    #: A wall edge stands on the ground: no point is drawn more than this many cells below its foot
    #: within ``ground_columns`` either side. The ground lines leaving a corner drop half a cell per
    #: column (0.58 at 30°), a 4-connected staircase one cell, so 2 leaves a cell to spare.
    ground_tolerance: float = 2.0
    #: ... within this many columns either side of the foot (the raster of a near-vertical edge).
    ground_columns: int = 1
    #: Standing vertical edges at least this share of the drawing's longest vertical edge are wall
    #: edges: a box's corner edges are all the wall height and the house's tallest vertical lines,
    #: except a hip edge rising on from a corner (up to ~1.2 walls tall: 0.6 of it keeps every
    #: wall), while a door jamb or a fence post, about half the wall, drops out.
    wall_edge_share: float = 0.6
    #: Fewest wall edges (in distinct columns): an isometric box shows its left, front and right
    #: corners; a front view or an outline shows two.
    min_walls: int = 3
    #: Two edge ends this close (cells, Euclidean) are the same corner: a diagonal neighbour is
    #: 1.41 away, the next cell but one 2.
    corner_tol: float = 1.5
    #: A roof edge must rise at least this share of the wall height above the wall top it leaves,
    #: and at least ``min_roof_rise_cells``: less is within the rounding of the eave lines.
    min_roof_rise: float = 0.2
    min_roof_rise_cells: float = 2.0
    #: Gable (checked only when the description asks for one): the roof's peak over a wall face
    #: lies at most this far (share of the face's width) from above the face's middle: within the
    #: middle third. A gable end stands in the face, its peak above the middle; a hip roof's end
    #: leans back, and in isometric view its peak sits above the corner (0.5 away).
    gable_offset: float = 1 / 6
    #: Chimney edges: vertical, at least this long (cells: a 0.3-wall-high chimney on the smallest
    #: house the area rules allow is 2 cells above the roof) ...
    chimney_min_edge: float = 2.0
    #: ... with their foot at least this far above the eave line (a cell clears the eave's own
    #: raster; a chimney stands on the roof, which rises from the eaves) ...
    chimney_clearance: float = 1.0
    #: ... side by side no farther apart than this share of the walls' width (a chimney is small:
    #: the reference's is an eighth of the width; two far-apart verticals are not one chimney),
    chimney_max_width: float = 0.5
    #: ... and their tops level along a horizontal or isometric line, give or take this many cells
    #: (the rounding of both ends, under a cell each).
    chimney_level_tol: float = 1.5
    #: Vertical edges whose ends are at most this many cells apart (a jittered cell, a one-cell
    #: pen lift) and within one column of each other are one line.
    vertical_join: float = 2.0
    #: A line cuts through a corner where at least this many other edges end on it (two eave
    #: lines meeting the top of a wall edge that runs on into a roof edge): it is split there.
    junction_ends: int = 2


@dataclass(frozen=True)
class StickThresholds(SceneThresholds):
    """Limits for the stick figure."""

    #: Head: a closed loop: a region of empty cells walled in by drawn cells. A stroke whose last
    #: point is this close to its first (Chebyshev) counts as closed: the one cell a hurried
    #: outline leaves open is taken as drawn.
    head_max_closure: float = 2.0
    #: ... with a fitted radius of at least this many cells (a smaller loop, a 5×5 ring at most, is
    #: a dot or an eye, not a head).
    head_min_radius: float = 2.0
    #: ... and at most this share of the whole figure's height (a loop that big is the figure's
    #: outline, not its head; the reference head's radius is 1/8 of the figure).
    head_max_share: float = 0.35
    #: Roundness: the largest radial harmonic about the fitted circle, held to the same size-aware
    #: limits as a drawn circle (``CircleThresholds.harmonic_limits``, placed between fair circle
    #: rasters and polygons in ``docs/calibration.md``).
    head_harmonic_limits: tuple[float, float, float, float] = CIRCLE.harmonic_limits
    #: Width and height of the head may differ by at most this many cells: a digital circle spans
    #: ``round(c + R) − round(c − R)`` cells across either way, wherever its center ``c`` falls, so
    #: the two differ by one cell at most (an oval or a tall hexagon differs by more).
    head_max_skew: float = 1.0
    #: The torso is looked for among body edges steeper than this (degrees from vertical): more
    #: upright than not.
    torso_search: float = 45.0
    #: Torso: degrees from vertical that still count as a vertical torso: a raster line a cell off
    #: over four leans 14°; 20 leaves room for a hip placed a cell or two off the head's column.
    torso_tolerance: float = 20.0
    #: Edges within this many degrees of the torso's direction that touch it continue it (a torso
    #: drawn in pieces, or retraced); legs spread as narrowly as 1 in 3 leave it at 18°.
    torso_continue: float = 10.0
    #: The torso must start at most this many head radii (plus one cell) below the head's bottom:
    #: a neck may be drawn, up to a head's height long; farther down it hangs from nothing.
    max_neck: float = 2.0
    #: An edge whose end lies within this many cells of the torso leaves the torso (a limb): a
    #: limb started next to the torso or a cell off it, as two rounded lines meet.
    attach_tol: float = 2.0
    #: Shortest limb edge, cells: shorter pieces are the stubs a line leaves where it touches or
    #: crosses the torso.
    min_limb: float = 2.0
    #: A limb leaving the torso above this share of its length (from the top) is an arm, below it a
    #: leg: shoulders sit in the upper half, hips at the lower end.
    arm_zone: float = 0.5
    #: Limb pieces leaving the torso within ``2 × attach_tol`` of each other and this many degrees
    #: of the same direction are one limb (retraced, or drawn in pieces); two arms or legs of one
    #: figure part at 30° or more.
    limb_merge_angle: float = 15.0
    #: A limb whose tip is less than this many cells to the side of the torso points along it
    #: (a limb hanging straight down from the hip is on neither side).
    min_limb_side: float = 1.0


HOUSE_THRESHOLDS = HouseThresholds()
STICK_THRESHOLDS = StickThresholds()


# --- drawing helpers ----------------------------------------------------------------------------

def _cell(v: float) -> int:
    """The cell a coordinate falls in, halves rounded up (not to even), so that shifting a scene
    by whole cells shifts its reference drawing exactly."""
    # float noise first: 13.499999999999998 and 13.5 must land in the same cell wherever the area is
    return int(math.floor(round(float(v), 6) + 0.5))


def _stroke(vertices: Sequence[Sequence[float]]) -> np.ndarray:
    """An ideal open stroke through ``vertices``: ordered, 8-connected, each cell once per edge."""
    return raster_polyline([(_cell(x), _cell(y)) for x, y in vertices], closed=False)


def _placer(canon_w: float, canon_h: float,
            area: Sequence[float]) -> tuple[Callable[[float, float], tuple[float, float]], float]:
    """Map canonical coordinates into ``area`` (uniform scale, centred): the map and its scale."""
    x0, y0, x1, y1 = (float(v) for v in area)
    s = min((x1 - x0) / canon_w, (y1 - y0) / canon_h)
    ox = x0 + ((x1 - x0) - canon_w * s) / 2
    oy = y0 + ((y1 - y0) - canon_h * s) / 2

    def place(x: float, y: float) -> tuple[float, float]:
        return (ox + x * s, oy + y * s)

    return place, s


# --- reference drawings -------------------------------------------------------------------------

#: The house's default area when a case names none: the canonical house at scale 1.
HOUSE_AREA = (10, 6, 40, 43)
#: Canonical house (2:1 pixel isometric): front corner at x=16, left face 16 wide, right face 14,
#: walls 16 high, gable roof rising 9 above the right face's top, ridge along the left face.
_HOUSE_W, _HOUSE_H = 30.0, 36.5


def _house_vertices(area: Sequence[float]) -> dict[str, tuple[float, float]]:
    place, _ = _placer(_HOUSE_W, _HOUSE_H, area)
    a, b, h, rh = 16.0, 14.0, 16.0, 9.0
    fb = (a, _HOUSE_H)
    v = {
        "F_b": fb,
        "L_b": (fb[0] - a, fb[1] - a / 2),
        "R_b": (fb[0] + b, fb[1] - b / 2),
    }
    for k in ("F", "L", "R"):
        x, y = v[f"{k}_b"]
        v[f"{k}_t"] = (x, y - h)
    p1 = ((v["F_t"][0] + v["R_t"][0]) / 2, (v["F_t"][1] + v["R_t"][1]) / 2 - rh)
    v["P1"] = p1
    v["P2"] = (p1[0] - a, p1[1] - a / 2)
    # chimney: a small front face standing on the front roof slope, below the ridge
    u, w, cw, ch = 0.62, 0.2, 4.0, 6.0
    ft, lt = v["F_t"], v["L_t"]
    c = (ft[0] + u * (lt[0] - ft[0]) + w * (p1[0] - ft[0]), ft[1] + u * (lt[1] - ft[1]) + w * (p1[1] - ft[1]))
    v["C1"] = c
    v["C2"] = (c[0] + cw, c[1] - cw / 2)
    v["C1t"] = (c[0], c[1] - ch)
    v["C2t"] = (c[0] + cw, c[1] - cw / 2 - ch)
    return {k: place(*xy) for k, xy in v.items()}


def house_reference(area: Sequence[float] = HOUSE_AREA) -> list[np.ndarray]:
    """The reference house's strokes in ``area``: walls, roof, chimney (each an ordered stroke).

    The walls are one stroke (both visible faces, ending with the front corner edge), the roof one
    stroke (back gable edge, ridge, front gable, eave), the chimney a closed small face.
    """
    v = _house_vertices(area)
    walls = _stroke([v[k] for k in ("F_b", "L_b", "L_t", "F_t", "R_t", "R_b", "F_b", "F_t")])
    roof = _stroke([v[k] for k in ("L_t", "P2", "P1", "F_t", "R_t", "P1")])
    chimney = _stroke([v[k] for k in ("C1", "C1t", "C2t", "C2", "C1")])[:-1]
    return [walls, roof, chimney]


#: The stick figure's default area: the canonical figure at scale 1.
STICK_AREA = (13, 5, 37, 45)
_STICK_W, _STICK_H = 24.0, 40.0


def stick_reference(area: Sequence[float] = STICK_AREA) -> list[np.ndarray]:
    """The reference stick figure's strokes in ``area``: head (a circle), torso, arms, legs."""
    place, s = _placer(_STICK_W, _STICK_H, area)
    hx, hy = place(12, 5)
    r = max(3, _cell(5 * s))
    head_c = (_cell(hx), _cell(hy))
    head = raster_circle(head_c, r, start=(head_c[0], head_c[1] - r), direction="cw")
    neck = (head_c[0], head_c[1] + r + 1)
    hip = (head_c[0], place(12, 25)[1])
    shoulder = (head_c[0], neck[1] + max(2.0, 3 * s))
    torso = _stroke([neck, hip])
    arms = _stroke([place(2, 21), shoulder, place(22, 21)])
    legs = _stroke([place(4, 40), hip, place(20, 40)])
    return [head, torso, arms, legs]


# --- parameters and prompts ---------------------------------------------------------------------

def _area_param(p: Mapping[str, Any], g: int, min_w: int, min_h: int) -> tuple[int, int, int, int] | None:
    v = p.get("area")
    if v is None:
        return None
    if (not isinstance(v, (list, tuple)) or len(v) != 4
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
        raise CaseError(f"'area' must be [x0, y0, x1, y1] whole numbers, got {v!r}")
    x0, y0, x1, y1 = v
    if not (0 <= x0 < x1 <= g - 1 and 0 <= y0 < y1 <= g - 1):
        raise CaseError(f"'area' {list(v)} must lie on the {g}×{g} grid with x0 < x1 and y0 < y1")
    if x1 - x0 < min_w or y1 - y0 < min_h:
        raise CaseError(f"'area' {list(v)} is too small: at least {min_w} wide and {min_h} high")
    return (x0, y0, x1, y1)


def _scene_params(default_ru: str, default_en: str, min_w: int, min_h: int) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    def params(p: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(p)
        g = out["grid_size"] = int(p.get("grid_size", 50))
        if g != 50:
            raise CaseError("scene cases use the seed template's 50×50 grid; 'grid_size' must be 50")
        ru, en = p.get("description"), p.get("description_en")
        if (ru is None) != (en is None):
            raise CaseError("give both 'description' (ru) and 'description_en', or neither")
        for key, text in (("description", ru), ("description_en", en)):
            if text is not None and (not isinstance(text, str) or not text.strip()):
                raise CaseError(f"'{key}' must be non-empty text, got {text!r}")
        out["description"] = ru if ru is not None else default_ru
        out["description_en"] = en if en is not None else default_en
        out["area"] = _area_param(p, g, min_w, min_h)
        return out
    return params


def scene_description(p: Mapping[str, Any], lang: str) -> str:
    """The text put in place of the seed template's placeholder: description and the asked area."""
    text = p["description"] if lang == "ru" else p["description_en"]
    area = p.get("area")
    if area is None:
        return text
    x0, y0, x1, y1 = area
    if lang == "ru":
        return f"{text} (рисунок занимает область от x={x0} до x={x1} и от y={y0} до y={y1})"
    return f"{text} (the drawing occupies the area from x={x0} to x={x1} and from y={y0} to y={y1})"


def _scene_prompt(case: "Case", lang: str) -> str:
    return scene_prompt(scene_description(case.params, lang), lang=lang)


# --- strokes and edges --------------------------------------------------------------------------

def scene_strokes(points: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """A scene answer cut into strokes: ``(index of the stroke's first point, its points)``.

    Cut at every step that is not to an 8-neighbour (a pen lift: in a scene any jump may be one)
    and at every point repeated in a row (a junction: the next stroke starts where the last one
    ended). Covers the answer in order; reversing the answer reverses the strokes.

    Examples
    --------
    >>> [(i, len(p)) for i, p in scene_strokes(np.array([[0, 0], [1, 0], [1, 0], [2, 0], [5, 0], [6, 1]]))]
    [(0, 2), (2, 2), (4, 2)]
    """
    pts = ck.as_points(points)
    n = len(pts)
    if n == 0:
        return []
    steps = np.max(np.abs(np.diff(pts, axis=0)), axis=1) if n > 1 else np.zeros(0)
    cuts = np.flatnonzero((steps > 1 + 1e-9) | (steps < 1e-9)) + 1
    bounds = [0, *cuts.tolist(), n]
    return [(a, pts[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _holes(pts: np.ndarray, strokes: Sequence[np.ndarray], slip: float, close_gap: float,
           grid_size: int) -> list[np.ndarray]:
    """The closed loops of a drawing, whatever order it was drawn in: for each region of empty
    cells walled in by drawn cells (4-connected, so an 8-connected outline closes it), the drawn
    cells around it. Where the pen moved at most ``slip`` cells (Chebyshev) between two points in
    a row, or a stroke ends within ``close_gap`` cells of its start, the cells between count as
    drawn (a slip of one cell does not open a loop). Points off the grid are left out."""
    pts = pts[np.all(np.isfinite(pts) & (pts >= -1) & (pts <= grid_size), axis=1)]
    strokes = [s for s in strokes if np.all(np.isfinite(s) & (s >= -1) & (s <= grid_size))]
    if len(pts) == 0:
        return []
    cells = np.rint(pts).astype(np.int64)
    lo = cells.min(axis=0) - 1
    size = cells.max(axis=0) - lo + 2
    drawn = np.zeros((int(size[1]), int(size[0])), dtype=bool)
    drawn[cells[:, 1] - lo[1], cells[:, 0] - lo[0]] = True
    steps = np.max(np.abs(np.diff(cells, axis=0)), axis=1) if len(cells) > 1 else np.zeros(0)
    bridges = [(cells[i], cells[i + 1]) for i in np.flatnonzero((steps > 1) & (steps <= slip))]
    bridges += [(np.rint(s[-1]), np.rint(s[0])) for s in strokes
                if len(s) >= 3 and 1 < closure(s) <= close_gap]
    for a, b in bridges:
        for x, y in raster_polyline([tuple(a), tuple(b)], closed=False):
            drawn[int(y) - lo[1], int(x) - lo[0]] = True
    label = np.where(drawn, -1, 0)  # -1 drawn, 0 empty unvisited, 1 outside, 2.. holes
    h, w = drawn.shape
    next_label = 1
    for sy, sx in [(0, 0)] + [(int(y), int(x)) for y, x in np.argwhere(~drawn)]:
        if label[sy, sx] != 0:
            continue
        stack = [(sy, sx)]
        label[sy, sx] = next_label
        while stack:
            y, x = stack.pop()
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= ny < h and 0 <= nx < w and label[ny, nx] == 0:
                    label[ny, nx] = next_label
                    stack.append((ny, nx))
        next_label += 1
    out = []
    for k in range(2, next_label):
        hole = label == k
        near = np.zeros_like(hole)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                near |= np.roll(np.roll(hole, dy, axis=0), dx, axis=1)
        ring = np.argwhere(near & drawn)
        out.append(np.column_stack([ring[:, 1] + lo[0], ring[:, 0] + lo[1]]).astype(float))
    return out


def _heal(strokes: Sequence[np.ndarray], max_step: float) -> list[np.ndarray]:
    """Consecutive strokes joined where the pen moved at most ``max_step`` cells (Chebyshev, more
    than one): for tracing edges, a two-cell step is read as a slip (a point pushed a cell off
    the line, a cell skipped), not as a new object. Junctions (repeated points) stay cuts."""
    out: list[np.ndarray] = []
    for s in strokes:
        if out and len(s) and 1 < float(np.max(np.abs(s[0] - out[-1][-1]))) <= max_step:
            out[-1] = np.vstack([out[-1], s])
        else:
            out.append(s)
    return out


def _turns(stroke: np.ndarray) -> list[np.ndarray]:
    """``stroke`` cut where it turns straight back onto the cell it came from (a retraced line's
    far end), the turning cell kept in both pieces: simplification measures distances to the
    chord, which a line retraced onto itself never leaves, so it would lose the far end."""
    if len(stroke) < 3:
        return [stroke]
    back = np.flatnonzero(np.all(stroke[:-2] == stroke[2:], axis=1)) + 1
    bounds = [0, *back.tolist(), len(stroke) - 1]
    return [stroke[a:b + 1] for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def _edges(strokes: Sequence[np.ndarray], tol: float) -> np.ndarray:
    """The straight edges of every stroke (any length), shape (M, 2, 2)."""
    segs = [segments(piece, tol) for s in strokes if len(s) >= 2 for piece in _turns(s)]
    segs = [s for s in segs if len(s)]
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


def _ends(segs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Upper and lower end (smaller and larger y on screen) of each edge, each shape (M, 2)."""
    if not len(segs):
        return np.zeros((0, 2)), np.zeros((0, 2))
    first_up = segs[:, 0, 1] <= segs[:, 1, 1]
    top = np.where(first_up[:, None], segs[:, 0], segs[:, 1])
    bottom = np.where(first_up[:, None], segs[:, 1], segs[:, 0])
    return top, bottom


def _seg_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Distance from point ``p`` to segment ``ab`` and the parameter (0..1) of the nearest point."""
    d = b - a
    dd = float(d @ d)
    s = 0.0 if dd == 0 else float(np.clip((p - a) @ d / dd, 0.0, 1.0))
    return float(np.hypot(*(p - (a + s * d)))), s


def _join_verticals(segs: np.ndarray, vertical: np.ndarray, gap: float, corner_tol: float,
                    min_ends: int) -> np.ndarray:
    """Vertical edges that continue one another joined into one: the top of the lower one at
    most ``gap`` cells below the foot of the upper one (or a cell above it), within a column,
    unless they meet at a corner (``min_ends`` ends of other edges within ``corner_tol`` of the
    joint). A wall edge broken by a jittered cell or a pen lift is one line; a chimney standing on
    the roof line above a wall edge is not."""
    top, bottom = _ends(segs)
    others = segs[~vertical].reshape(-1, 2)
    lines = [[top[i].copy(), bottom[i].copy()] for i in np.flatnonzero(vertical)]
    merged = True
    while merged:
        merged = False
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                (a0, a1), (b0, b1) = lines[i], lines[j]
                upper, lower = ((a0, a1), (b0, b1)) if a0[1] <= b0[1] else ((b0, b1), (a0, a1))
                if not (abs(upper[1][0] - lower[0][0]) <= 1 and -1 <= lower[0][1] - upper[1][1] <= gap):
                    continue  # not in one column, too far apart, or side by side
                joint = (upper[1] + lower[0]) / 2
                if len(others) and int((np.hypot(*(others - joint).T) <= corner_tol).sum()) >= min_ends:
                    continue
                low = upper[1] if upper[1][1] >= lower[1][1] else lower[1]
                lines[i] = [upper[0], low]
                del lines[j]
                merged = True
                break
            if merged:
                break
    rest = segs[~vertical]
    joined = np.array(lines, dtype=float).reshape(-1, 2, 2)
    return np.concatenate([rest, joined]) if len(rest) else joined


def _split_at_junctions(segs: np.ndarray, tol: float, min_ends: int, on: float) -> np.ndarray:
    """Cut every edge where at least ``min_ends`` ends of other edges lie on it (within ``on``
    cells of its line, at least ``tol`` from its own ends, ``tol`` of each other): a line drawn
    straight through a corner is two edges there."""
    if not len(segs):
        return segs
    ends = segs.reshape(-1, 2)
    owner = np.repeat(np.arange(len(segs)), 2)
    out = []
    for i, (a, b) in enumerate(segs):
        d = b - a
        length = float(np.hypot(*d))
        if length < 2 * tol:
            out.append((a, b))
            continue
        u = d / length
        rel = ends - a
        along = rel @ u
        across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = np.sort(along[(owner != i) & (across <= on) & (along >= tol) & (along <= length - tol)])
        cuts: list[float] = []
        k = 0
        while k < len(near):
            j = k
            while j + 1 < len(near) and near[j + 1] - near[k] <= tol:
                j += 1
            if j - k + 1 >= min_ends:
                cuts.append(float(near[k:j + 1].mean()))
            k = j + 1
        corners = [a] + [a + c * u for c in cuts] + [b]
        out.extend(zip(corners[:-1], corners[1:]))
    return np.array([[p, q] for p, q in out], dtype=float).reshape(-1, 2, 2)


# --- shared scoring -----------------------------------------------------------------------------

@dataclass
class _Common:
    pts: np.ndarray
    strokes: list[tuple[int, np.ndarray]]
    checks: list[Check]
    metrics: dict[str, Any]
    marks: dict[str, tuple[int, ...]]
    likeness: float


def _common(drawing_points: np.ndarray, reference: list[np.ndarray], area: Sequence[int] | None,
            grid_size: int, t: SceneThresholds) -> _Common:
    pts = ck.as_points(drawing_points)
    strokes = scene_strokes(pts)
    out: list[Check] = []
    metrics: dict[str, Any] = {"n_points": len(pts), "strokes": len(strokes)}
    crumbs = [(i, p) for i, p in strokes if len(p) < t.fragment_cells]
    crumb_idx = tuple(i + k for i, p in crumbs for k in range(len(p)))
    share = len(crumb_idx) / len(pts) if len(pts) else 0.0
    metrics.update(fragments=len(crumbs), fragment_share=share)
    out.append(Check("fragments", share <= t.max_fragment_share, round(share, 4), f"≤ {t.max_fragment_share:g}",
                     f"{len(crumbs)} strokes of fewer than {t.fragment_cells} cells: the lines fall apart"
                     if share > t.max_fragment_share else "", crumb_idx if share > t.max_fragment_share else ()))
    oob = ck.out_of_bounds(pts, grid_size)
    out.append(Check("bounds", not oob, len(oob), "0 outside", f"outside 0..{grid_size - 1}" if oob else "", oob))
    if area is not None:
        x0, y0, x1, y1 = area
        m = t.area_margin
        bad = np.flatnonzero((pts[:, 0] < x0 - m) | (pts[:, 0] > x1 + m) | (pts[:, 1] < y0 - m) | (pts[:, 1] > y1 + m))
        out.append(Check("area", not len(bad), int(len(bad)), f"0 more than {m:g} outside",
                         f"asked x {x0}..{x1}, y {y0}..{y1}" if len(bad) else "", tuple(int(i) for i in bad)))
    ref = np.vstack(reference)
    box = bounding_box(ref)
    diag = math.hypot(box[2] - box[0], box[3] - box[1])
    scale = t.similarity_scale * diag
    like = similarity(fit_to_box(pts, box), ref, scale) if len(pts) else 0.0
    metrics["chamfer_raw"] = chamfer_distance(pts, ref) if len(pts) else None
    metrics["likeness"] = like
    out.append(Check("likeness", like >= t.min_likeness, like, f"≥ {t.min_likeness:g}",
                     "nothing like the scene asked for" if like < t.min_likeness else ""))
    marks = {"fragments": crumb_idx, "outside": oob, "breaks": tuple(i for i, _ in strokes[1:])}
    return _Common(pts, strokes, out, metrics, marks, like)


# --- house --------------------------------------------------------------------------------------

def _house_params(p: Mapping[str, Any]) -> dict[str, Any]:
    return _scene_params("каркас дома в изометрии с крышей и трубой",
                         "a wire-frame house in isometric projection with a roof and a chimney", 20, 24)(p)


def _house_ideal(case: "Case") -> np.ndarray:
    return np.vstack(house_reference(case.params.get("area") or HOUSE_AREA))


#: Words in a case's description that ask for a gable (two-slope) roof: such a case also gets the
#: ``gable`` check.
GABLE_WORDS = ("gable", "двускат")


def _asks_gable(p: Mapping[str, Any]) -> bool:
    text = f"{p.get('description', '')} {p.get('description_en', '')}".lower()
    return any(w in text for w in GABLE_WORDS)


def _iso_bands(ang: np.ndarray, t: HouseThresholds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertical, rising-left and rising-right masks (on screen, y down, a line rising to the right
    has an angle near 180 − 26.6; rising to the left, near 26.6)."""
    vertical = np.abs(ang - 90.0) <= t.vertical_tolerance
    rise_left = (ang >= t.iso_min_angle) & (ang <= t.iso_max_angle)
    rise_right = (ang >= 180 - t.iso_max_angle) & (ang <= 180 - t.iso_min_angle)
    return vertical, rise_left, rise_right


def _house_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    t: HouseThresholds = with_overrides(HOUSE_THRESHOLDS, case.thresholds)
    area = p.get("area")
    com = _common(drawing.points, house_reference(area or HOUSE_AREA), area, p["grid_size"], t)
    out, metrics, pts = com.checks, com.metrics, com.pts

    raw = _edges(_heal([s for _, s in com.strokes], t.heal_step), t.simplify_tolerance)
    ang, length = segment_angles(raw)
    longer = length >= t.min_edge
    vertical, rise_left, rise_right = _iso_bands(ang, t)
    axes = {"vertical": float(length[vertical & longer].sum()), "rising left": float(length[rise_left & longer].sum()),
            "rising right": float(length[rise_right & longer].sum())}
    total = float(length[longer].sum())
    share = sum(axes.values()) / total if total > 0 else 0.0
    metrics.update(iso_share=share, **{f"axis_{k.replace(' ', '_')}": v for k, v in axes.items()})
    missing = [k for k, v in axes.items() if v < t.min_axis_length]
    out.append(Check("iso_axes", not missing, len(axes) - len(missing), "= 3 axes",
                     ("no edges " + ", ".join(missing)) if missing else ""))
    out.append(Check("iso_share", share >= t.min_iso_share, share, f"≥ {t.min_iso_share:g}",
                     "most edges run off the isometric axes" if share < t.min_iso_share else ""))

    # edges cut at the corners other edges end on, then: walls, roof, chimney
    vertical = _iso_bands(ang, t)[0]
    segs = _join_verticals(raw, vertical & longer, t.vertical_join, t.corner_tol, t.junction_ends)
    segs = _split_at_junctions(segs, t.corner_tol, t.junction_ends, t.simplify_tolerance)
    ang, length = segment_angles(segs)
    vertical, rise_left, rise_right = _iso_bands(ang, t)
    top, bottom = _ends(segs)
    cells = np.rint(pts)
    standing = np.zeros(len(segs), dtype=bool)
    for i in np.flatnonzero(vertical & (length >= t.min_edge)):
        fx, fy = bottom[i]
        below = (np.abs(cells[:, 0] - fx) <= t.ground_columns) & (cells[:, 1] > fy + t.ground_tolerance)
        standing[i] = not below.any()
    tallest = float(length[vertical].max()) if vertical.any() else 0.0
    is_wall = standing & (length >= t.wall_edge_share * tallest)
    # one wall edge per column (a face-by-face drawing has each corner edge twice)
    columns: list[int] = []
    for i in sorted(np.flatnonzero(is_wall), key=lambda i: -length[i]):
        x = segs[i, :, 0].mean()
        if all(abs(x - segs[j, :, 0].mean()) > t.corner_tol for j in columns):
            columns.append(int(i))
    columns.sort(key=lambda i: segs[i, :, 0].mean())
    metrics["wall_edges"] = len(columns)
    out.append(Check("walls", len(columns) >= t.min_walls, len(columns), f"≥ {t.min_walls}",
                     "" if len(columns) >= t.min_walls else
                     (f"only {len(columns)} vertical edge(s) stand on the ground: an isometric box shows its "
                      "left, front and right corners" if columns else "no vertical edge stands on the ground")))
    if not columns:
        out.append(Check("roof_above_walls", False, 0.0, "a roof edge rising from a wall top", "no walls found"))
        if _asks_gable(p):
            out.append(Check("gable", False, "none", f"≤ {t.gable_offset:.3g}", "no walls found"))
        out.append(Check("chimney", False, 0, "≥ 2", "no walls found"))
        return ShapeScore(family="house", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)

    wall_h = float(np.median(length[columns]))
    tops = top[columns]
    wx0, wx1 = float(segs[columns, :, 0].min()), float(segs[columns, :, 0].max())
    metrics.update(wall_height=wall_h, wall_width=wx1 - wx0)

    # roof: an edge off the ground axes (vertical allowed) leaving a wall top upward, within the walls
    off_axis = ~(rise_left | rise_right) & ~is_wall & (length >= t.min_edge)
    at_top = np.array([float(np.min(np.hypot(*(tops - bottom[i]).T))) <= t.corner_tol for i in range(len(segs))],
                      dtype=bool) if len(segs) else np.zeros(0, dtype=bool)
    need = max(t.min_roof_rise, t.min_roof_rise_cells / wall_h) if wall_h > 0 else t.min_roof_rise
    best_rise = 0.0
    roof_edges: list[tuple[int, int]] = []  # (edge, wall column it leaves)
    for i in np.flatnonzero(off_axis & at_top):
        k = int(np.argmin(np.hypot(*(tops - bottom[i]).T)))
        if wx0 - t.corner_tol <= top[i, 0] <= wx1 + t.corner_tol:
            best_rise = max(best_rise, float(tops[k, 1] - top[i, 1]))
            if tops[k, 1] - top[i, 1] >= need * wall_h:
                roof_edges.append((int(i), k))
    rise = best_rise / wall_h if wall_h > 0 else 0.0
    metrics["roof_rise"] = rise
    out.append(Check("roof_above_walls", rise >= need, round(rise, 4), f"≥ {need:.3g} of the wall height",
                     "" if rise >= need else
                     "no edge rises from the top of a wall edge off the ground axes (a gable or hip edge)"))

    if _asks_gable(p):
        # a gable end is a triangle standing in a wall face: its peak is above the middle of the
        # face's top edge; a hip roof's end leans back, its peak set back toward the corner
        best: float | None = None
        for i, k in roof_edges:
            for k2 in (k - 1, k + 1):
                if not 0 <= k2 < len(columns):
                    continue
                joined = any(min(np.hypot(*(e[0] - top[i])), np.hypot(*(e[1] - top[i]))) <= t.corner_tol
                             and min(np.hypot(*(e[0] - tops[k2])), np.hypot(*(e[1] - tops[k2]))) <= t.corner_tol
                             for e in segs)
                span_x = float(tops[k2, 0] - tops[k, 0])
                if joined and span_x:
                    off = abs(float(top[i, 0] - tops[k, 0]) / span_x - 0.5)
                    best = off if best is None else min(best, off)
        metrics["gable_offset"] = best
        ok = best is not None and best <= t.gable_offset
        out.append(Check("gable", ok, "none" if best is None else round(best, 4), f"≤ {t.gable_offset:.3g}",
                         "" if ok else ("no roof triangle stands on a wall face" if best is None else
                                        "the roof's end triangle leans back (a hip roof), a gable roof was asked")))

    # chimney: vertical edges side by side above the eave line, tops level
    xs = tops[:, 0]
    order = np.argsort(xs, kind="stable")

    def eave(x: float) -> float:
        return float(np.interp(x, xs[order], tops[order, 1]))

    cand = [i for i in np.flatnonzero(vertical & ~is_wall & ~at_top & (length >= t.chimney_min_edge))
            if wx0 + t.corner_tol <= bottom[i, 0] <= wx1 - t.corner_tol
            and eave(bottom[i, 0]) - bottom[i, 1] >= t.chimney_clearance]
    slope = math.tan(math.radians(t.iso_max_angle))
    paired: set[int] = set()
    for a in cand:
        for b in cand:
            dx = abs(float(segs[a, :, 0].mean() - segs[b, :, 0].mean()))
            if (a < b and t.corner_tol <= dx <= t.chimney_max_width * (wx1 - wx0)
                    and abs(float(top[a, 1] - top[b, 1])) <= dx * slope + t.chimney_level_tol):
                paired.update((int(a), int(b)))
    metrics["chimney_edges"] = len(paired)
    out.append(Check("chimney", len(paired) >= 2, len(paired), "≥ 2",
                     "" if paired else "no pair of vertical edges (a small box) stands above the eaves within the walls"))
    return ShapeScore(family="house", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)


# --- stick figure -------------------------------------------------------------------------------

def _stick_params(p: Mapping[str, Any]) -> dict[str, Any]:
    return _scene_params("человечка из палочек", "a stick figure of a person", 12, 24)(p)


def _stick_ideal(case: "Case") -> np.ndarray:
    return np.vstack(stick_reference(case.params.get("area") or STICK_AREA))


def _torso_chain(segs: np.ndarray, neck: np.ndarray, head_x: float, r: float,
                 t: StickThresholds) -> tuple[np.ndarray, np.ndarray, set[int]] | None:
    """The line hanging from the head: top end, bottom end and the edges it is made of.

    Of the edges steeper than ``torso_search`` whose top lies within the head's width, the one
    whose top is nearest the head's bottom (``neck``), then the edges within ``torso_continue``
    degrees of its direction that continue it up or down, or lie along it."""
    if not len(segs):
        return None
    ang, length = segment_angles(segs)
    top, bottom = _ends(segs)
    tilt = np.abs(ang - 90.0)
    under = np.abs(top[:, 0] - head_x) <= r
    cand = np.flatnonzero((tilt <= t.torso_search) & (length >= t.min_edge) & under)
    if not len(cand):
        return None
    dist = np.hypot(*(top[cand] - neck).T)
    i = int(cand[np.lexsort((-length[cand], tilt[cand], np.round(dist, 6)))[0]])
    chain, a, b = {i}, top[i].copy(), bottom[i].copy()
    grew = True
    while grew:
        grew = False
        direction = float(segment_angles(np.array([[a, b]]))[0][0])
        for j in range(len(segs)):
            if j in chain or abs(ang[j] - direction) > t.torso_continue:
                continue
            joins = float(np.hypot(*(top[j] - b))) <= t.attach_tol
            along = max(_seg_distance(top[j], a, b)[0], _seg_distance(bottom[j], a, b)[0]) <= t.attach_tol
            if joins or along or float(np.hypot(*(bottom[j] - a))) <= t.attach_tol:
                chain.add(j)
                if bottom[j, 1] > b[1]:
                    b = bottom[j].copy()
                if top[j, 1] < a[1]:
                    a = top[j].copy()
                grew = True
    return a, b, chain


def _angle_between(u: np.ndarray, v: np.ndarray) -> float:
    """Angle in degrees between two direction vectors (0..180)."""
    nu, nv = float(np.hypot(*u)), float(np.hypot(*v))
    if nu == 0 or nv == 0:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v) / (nu * nv)))))


def _limbs(segs: np.ndarray, chain: set[int], a: np.ndarray, b: np.ndarray,
           t: StickThresholds) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    """Edges leaving the torso ``a``–``b``: (``"arm"``/``"leg"``, ``"left"``/``"right"``/``"along"``,
    root, tip), one per limb (retraced edges counted once)."""
    pieces: list[tuple[np.ndarray, np.ndarray]] = []
    for j, (p, q) in enumerate(segs):
        if j in chain:
            continue
        if max(_seg_distance(p, a, b)[0], _seg_distance(q, a, b)[0]) <= t.attach_tol:
            continue  # lies along the torso (a retraced piece of it)
        # an edge drawn across the torso (both arms in one straight stroke) is two limbs
        d, e = q - p, b - a
        den = d[0] * e[1] - d[1] * e[0]
        if den != 0:
            s = ((a - p)[0] * e[1] - (a - p)[1] * e[0]) / den
            u = ((a - p)[0] * d[1] - (a - p)[1] * d[0]) / den
            x = p + s * d
            crosses = 0 <= u <= 1 and 0 < s < 1
            if crosses and min(np.hypot(*(x - p)), np.hypot(*(x - q))) >= t.min_limb:
                pieces += [(x, p), (x, q)]
                continue
        pieces.append((p, q))
    span = float(b[1] - a[1]) or 1.0
    out: list[tuple[str, str, np.ndarray, np.ndarray]] = []
    for p, q in pieces:
        if np.hypot(*(q - p)) < t.min_limb:
            continue
        dp, dq = _seg_distance(p, a, b)[0], _seg_distance(q, a, b)[0]
        root, tip = (p, q) if dp <= dq else (q, p)
        if min(dp, dq) > t.attach_tol:
            continue
        # pieces leaving the same place in the same direction are one limb (retraced, or drawn in pieces)
        same = [k for k, (_, _, r0, t0) in enumerate(out) if np.hypot(*(root - r0)) <= 2 * t.attach_tol
                and _angle_between(tip - root, t0 - r0) <= t.limb_merge_angle]
        if same:
            k = same[0]
            if np.hypot(*(tip - root)) > np.hypot(*(out[k][3] - out[k][2])):
                out[k] = (out[k][0], out[k][1], root, tip)
            continue
        kind = "arm" if (root[1] - a[1]) / span < t.arm_zone else "leg"
        _, s = _seg_distance(tip, a, b)
        dx = float(tip[0] - (a[0] + s * (b[0] - a[0])))
        side = "along" if abs(dx) < t.min_limb_side else ("left" if dx < 0 else "right")
        out.append((kind, side, root, tip))
    return out


def _stick_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    t: StickThresholds = with_overrides(STICK_THRESHOLDS, case.thresholds)
    area = p.get("area")
    com = _common(drawing.points, stick_reference(area or STICK_AREA), area, p["grid_size"], t)
    out, metrics, pts = com.checks, com.metrics, com.pts
    height = float(np.ptp(pts[:, 1])) if len(pts) else 0.0

    # head: the topmost closed loop big enough to be one, and it must be round
    loops = []
    rings = _holes(pts, [st for _, st in com.strokes], t.heal_step, t.head_max_closure, p["grid_size"])
    for ring in rings:
        fit = CircleModel.from_estimate(ring)
        if fit and t.head_min_radius <= fit.radius and (height <= 0 or fit.radius <= t.head_max_share * height):
            loops.append((fit.center[1], fit.center[0], ring, fit))
    head = min(loops, key=lambda h: (h[0], h[1])) if loops else None
    metrics["loops"] = len(loops)
    if head is None:
        out.append(Check("head", False, "none", "≤ 1 of the limit", "no closed loop (a head) is drawn"))
        out.append(Check("head_aspect", False, "n/a", f"≤ {t.head_max_skew:g}", "no head"))
        for name, limit in (("torso", f"≤ {t.torso_tolerance:g}° from vertical"),
                            ("head_above_torso", "head above a torso"), ("limbs", "= 4: an arm and a leg on each side")):
            out.append(Check(name, False, "n/a", limit, "no head"))
        return ShapeScore(family="stick", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)

    _, _, ring, fit = head
    round_check = harmonics_check(*fit.radial(ring), scale=fit.radius, limits=t.head_harmonic_limits,
                                  symmetry=4, name="head")
    metrics.update(head_harmonic=round_check.value, head_roundness=roundness(ring, fit.center),
                   head_radius=fit.radius, head_x=fit.center[0], head_y=fit.center[1])
    out.append(round_check)
    wide, tall = float(np.ptp(ring[:, 0])) + 1, float(np.ptp(ring[:, 1])) + 1
    skew = abs(wide - tall)
    metrics["head_skew"] = skew
    ok = skew <= t.head_max_skew
    out.append(Check("head_aspect", ok, skew, f"≤ {t.head_max_skew:g}",
                     "" if ok else f"the head is {wide:g} cells wide and {tall:g} tall: not round"))

    # the body: every stroke without the head's cells
    head_cells = {(int(x), int(y)) for x, y in ring}
    body_strokes = []
    for st in _heal([st for _, st in com.strokes], t.heal_step):
        keep = np.array([(int(round(x)), int(round(y))) not in head_cells for x, y in st], dtype=bool)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], keep.astype(np.int8), [0]])))
        body_strokes += [st[a:b] for a, b in zip(edges[::2], edges[1::2])]
    hx, hy = fit.center
    r = fit.radius
    body = _edges(body_strokes, t.simplify_tolerance)
    torso = _torso_chain(body, np.array([hx, hy + r]), hx, r, t)
    if torso is None:
        out.append(Check("torso", False, "none", f"≤ {t.torso_tolerance:g}° from vertical",
                         "no line hangs from the head"))
        out.append(Check("head_above_torso", False, "n/a", "head above a torso", "no torso"))
        out.append(Check("limbs", False, "n/a", "= 4: an arm and a leg on each side", "no torso"))
        return ShapeScore(family="stick", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)

    a, b, chain = torso
    tilt = float(abs(segment_angles(np.array([[a, b]]))[0][0] - 90.0))
    metrics.update(torso_top=float(a[1]), torso_bottom=float(b[1]), torso_tilt=tilt)
    out.append(Check("torso", tilt <= t.torso_tolerance, round(tilt, 2), f"≤ {t.torso_tolerance:g}° from vertical",
                     "" if tilt <= t.torso_tolerance else "the torso leans too far from vertical"))
    neck = float(a[1] - (hy + r))
    lo, hi = -r, t.max_neck * r + 1
    ok = lo < neck <= hi
    metrics["neck"] = neck
    out.append(Check("head_above_torso", ok, round(neck, 2), f"{lo:.2f}..{hi:.2f}",
                     "" if ok else ("the torso starts above the head's center" if neck <= lo
                                    else "the torso starts far below the head")))

    limbs = _limbs(body, chain, a, b, t)
    slots = {(k, s): 0 for k in ("arm", "leg") for s in ("left", "right")}
    along = 0
    for kind, side, _, _ in limbs:
        if side == "along":
            along += 1
        else:
            slots[(kind, side)] += 1
    problems = sum(abs(v - 1) for v in slots.values()) + along
    metrics.update(limbs=len(limbs), **{f"{k}s_{s}": v for (k, s), v in slots.items()})
    detail = [f"{v} {side} {kind}s" for (kind, side), v in slots.items() if v != 1]
    if along:
        detail.append(f"{along} limb(s) along the torso")
    where = " (arms leave the torso's upper half, legs its lower half)"
    out.append(Check("limbs", problems == 0, len(limbs), "= 4: an arm and a leg on each side",
                     "" if problems == 0 else "; ".join(detail) + where, explicit_margin=-float(problems)))
    return ShapeScore(family="stick", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)


HOUSE = Family(name="house", params=_house_params, prompt=_scene_prompt, ideal=_house_ideal, score=_house_score,
               variant_keys=("description", "description_en"), thresholds=HOUSE_THRESHOLDS)
STICK = Family(name="stick", params=_stick_params, prompt=_scene_prompt, ideal=_stick_ideal, score=_stick_score,
               variant_keys=("description", "description_en"), thresholds=STICK_THRESHOLDS)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (HOUSE, STICK)
