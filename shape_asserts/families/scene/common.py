"""What the free scenes share: their base thresholds, parameters and prompt, reference-drawing
helpers, and the checks every scene gets (``fragments``, ``bounds``, ``area``, ``likeness``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import CaseLike
from shape_asserts.families.prompts import scene_prompt
from shape_asserts.families.scene.strokes import scene_strokes
from shape_asserts.geometry.contours import bounding_box
from shape_asserts.geometry.distances import chamfer_distance, likeness
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points, round_half_up
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.scorecard import Scorecard

__all__ = [
    "SceneThresholds",
    "Sketch",
    "sketch",
    "scene_params",
    "scene_description",
    "scene_prompt_of",
    "cell",
    "stroke",
    "placer",
    "reference_of",
]


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
    #: How far outside the asked area a point may lie (only when the case asks for an area): the
    #: prompt says the drawing "occupies the area from x=x0 to x=x1", whole cells, so a drawing
    #: fitted to it has its cells on x0..x1; one cell is the rounding of a vertex placed on the edge
    #: (half a cell) with room for a line's raster to step past it. A drawing moved two cells out
    #: of its area fails.
    area_margin: float = 1.0
    #: The drawing fills the asked area: along its fuller axis (a house or a figure keeps its own
    #: proportions, so it fills the area one way and leaves room the other) its extent is at least
    #: this share of the area's. A drawing fitted to the area spans it to a cell or two; one scaled
    #: to three quarters of it still occupies it (a 2:1 isometric house, its edges rounded to even
    #: cells, then spans as little as 0.68); one of half its size sits in a corner of it.
    min_area_fill: float = 0.6
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


def cell(v: float) -> int:
    """The cell a coordinate falls in, halves rounded up (not to even), so that shifting a scene
    by whole cells shifts its reference drawing exactly."""
    # float noise first: 13.499999999999998 and 13.5 must land in the same cell wherever the area is
    return int(round_half_up(round(float(v), 6)))


def stroke(vertices: Sequence[Sequence[float]]) -> IntArray:
    """An ideal open stroke through ``vertices``: ordered, 8-connected, each cell once per edge."""
    return raster_polyline([(cell(x), cell(y)) for x, y in vertices], closed=False)


def placer(canon_w: float, canon_h: float, area: Sequence[float]) -> tuple[Callable[[float, float], Point], float]:
    """Map canonical coordinates into ``area`` (uniform scale, centred): the map and its scale."""
    x0, y0, x1, y1 = (float(v) for v in area)
    s = min((x1 - x0) / canon_w, (y1 - y0) / canon_h)
    ox = x0 + ((x1 - x0) - canon_w * s) / 2
    oy = y0 + ((y1 - y0) - canon_h * s) / 2

    def place(x: float, y: float) -> Point:
        return (ox + x * s, oy + y * s)

    return place, s


def _area_param(p: Mapping[str, Any], g: int, min_w: int, min_h: int) -> tuple[int, int, int, int] | None:
    v = p.get("area")
    if v is None:
        return None
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 4
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in v)
    ):
        raise CaseError(f"'area' must be [x0, y0, x1, y1] whole numbers, got {v!r}")
    x0, y0, x1, y1 = v
    if not (0 <= x0 < x1 <= g - 1 and 0 <= y0 < y1 <= g - 1):
        raise CaseError(f"'area' {list(v)} must lie on the {g}×{g} grid with x0 < x1 and y0 < y1")
    if x1 - x0 < min_w or y1 - y0 < min_h:
        raise CaseError(f"'area' {list(v)} is too small: at least {min_w} wide and {min_h} high")
    return (x0, y0, x1, y1)


def scene_params(
    default_ru: str, default_en: str, min_w: int, min_h: int
) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A scene family's parameter check: its default description, and the least area it may be asked in."""

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
    text: str = p["description"] if lang == "ru" else p["description_en"]
    area = p.get("area")
    if area is None:
        return text
    x0, y0, x1, y1 = area
    if lang == "ru":
        return f"{text} (рисунок занимает область от x={x0} до x={x1} и от y={y0} до y={y1})"
    return f"{text} (the drawing occupies the area from x={x0} to x={x1} and from y={y0} to y={y1})"


def scene_prompt_of(case: CaseLike, lang: str) -> str:
    return scene_prompt(scene_description(case.params, lang), lang=lang)


#: Reference drawings by what made them and the area: :func:`reference_of`.
_REFERENCES: dict[tuple[object, str], list[IntArray]] = {}


def reference_of(make: Callable[[Sequence[float]], list[IntArray]], area: Sequence[float]) -> list[IntArray]:
    """``make(area)``, made once per area (a scene's reference strokes depend on nothing else),
    its arrays read-only: every answer to a case is held to the same reference."""
    key = (make, repr(tuple(area)))
    out = _REFERENCES.get(key)
    if out is None:
        if len(_REFERENCES) >= 256:
            _REFERENCES.clear()
        out = make(area)
        for a in out:
            a.flags.writeable = False
        _REFERENCES[key] = out
    return out


#: A reference's strokes stacked into one float array and its bounding box: :func:`_stacked`.
_STACKED: dict[int, tuple[list[IntArray], FloatArray, tuple[float, float, float, float]]] = {}


def _stacked(reference: list[IntArray]) -> tuple[FloatArray, tuple[float, float, float, float]]:
    """The reference's points as one read-only float array and their box, made once per
    reference (the list :func:`reference_of` keeps; it is held here too, so its ``id`` is not reused)."""
    hit = _STACKED.get(id(reference))
    if hit is not None and hit[0] is reference:
        return hit[1], hit[2]
    if len(_STACKED) >= 256:
        _STACKED.clear()
    ref = as_points(np.vstack(reference))
    ref.flags.writeable = False
    box = bounding_box(ref)
    _STACKED[id(reference)] = (reference, ref, box)
    return ref, box


def _fit_to_box(
    pts: FloatArray, lo: list[float], hi: list[float], box: tuple[float, float, float, float]
) -> tuple[FloatArray, bool]:
    """:func:`~shape_asserts.geometry.contours.fit_to_box` of the (non-empty) ``pts`` whose
    columns' least and largest values are ``lo`` and ``hi``: the same floats from the same
    expression, and whether the fit neither scales nor moves them (scale 1, the same middle):
    where the points may come back as they were, so that :func:`sketch` compares the two."""
    (x0, y0), (x1, y1) = lo, hi
    bx0, by0, bx1, by1 = map(float, box)
    size = (x1 - x0) + (y1 - y0)
    s = ((bx1 - bx0) + (by1 - by0)) / size if size > 0 else 1.0
    mid = [(x0 + x1) / 2, (y0 + y1) / 2]
    bmid = [(bx0 + bx1) / 2, (by0 + by1) / 2]
    # (pts - mid) * s + bmid, each step written over the one before (the same floats; a product by
    # 1.0 is its factor, so a drawing of the reference's size skips it)
    moved: FloatArray = pts - mid
    if s != 1.0:
        moved *= s
    moved += bmid
    return moved, s == 1.0 and mid == bmid


def _check_area(card: Scorecard, pts: FloatArray, area: Sequence[int], t: SceneThresholds) -> None:
    """``area``: every point within ``area_margin`` of the asked area; ``area_fill``: the drawing
    spans at least ``min_area_fill`` of the area along one axis (its fuller one)."""
    x0, y0, x1, y1 = area
    m = t.area_margin
    bad = (pts[:, 0] < x0 - m) | (pts[:, 0] > x1 + m) | (pts[:, 1] < y0 - m) | (pts[:, 1] > y1 + m)
    bad_list = bad.nonzero()[0].tolist()
    card.add(
        "area",
        not bad_list,
        len(bad_list),
        f"0 more than {m:g} outside",
        f"asked x {x0}..{x1}, y {y0}..{y1}",
        bad_list,
    )
    # the extent counted in cells (a drawing on x0..x1 spans x1 − x0 + 1 of them), so that a
    # drawing on every cell of the area fills it exactly
    if len(pts):
        span_x = float(np.ptp(pts[:, 0])) + 1
        span_y = float(np.ptp(pts[:, 1])) + 1
        fill = max(span_x / (x1 - x0 + 1), span_y / (y1 - y0 + 1))
    else:
        fill = 0.0
    card.metrics["area_fill"] = fill
    ok = fill >= t.min_area_fill
    card.add(
        "area_fill",
        ok,
        round(fill, 4),
        f"≥ {t.min_area_fill:g} of the area along one axis",
        "" if ok else "the drawing fills only a corner of the asked area",
    )


@dataclass
class Sketch:
    """A scene answer read once for every scene check: its points, strokes, the card of the shared
    checks (more are added to it) and the headline likeness."""

    pts: FloatArray
    strokes: list[tuple[int, FloatArray]]
    card: Scorecard
    likeness: float


def sketch(
    drawing_points: ArrayLike, reference: list[IntArray], area: Sequence[int] | None, grid_size: int, t: SceneThresholds
) -> Sketch:
    """The shared checks of a scene: ``fragments``, ``bounds``, ``area`` (when one was asked) and
    ``likeness`` to the ``reference`` strokes."""
    pts = as_points(drawing_points)
    strokes = scene_strokes(pts)
    card = Scorecard()
    card.metrics.update(n_points=len(pts), strokes=len(strokes))
    crumbs = [(i, p) for i, p in strokes if len(p) < t.fragment_cells]
    crumb_idx = tuple(i + k for i, p in crumbs for k in range(len(p)))
    share = len(crumb_idx) / len(pts) if len(pts) else 0.0
    card.metrics.update(fragments=len(crumbs), fragment_share=share)
    crumbling = share > t.max_fragment_share
    card.add(
        "fragments",
        not crumbling,
        round(share, 4),
        f"≤ {t.max_fragment_share:g}",
        f"{len(crumbs)} strokes of fewer than {t.fragment_cells} cells: the lines fall apart",
        crumb_idx if crumbling else (),
    )
    card.marks["fragments"] = crumb_idx
    # each column's least and largest: the drawing's box, for the fit onto the reference's (each
    # column reduced as one contiguous row: the same values as over axis 0 but for the sign of a
    # zero where -0.0 and 0.0 tie, which nothing below keeps)
    cols = pts.T.copy()
    lo, hi = (
        (np.minimum.reduce(cols, axis=1).tolist(), np.maximum.reduce(cols, axis=1).tolist()) if len(pts) else ([], [])
    )
    card.bounds(pts, grid_size)
    if area is not None:
        _check_area(card, pts, area, t)
    ref, box = _stacked(reference)
    diag = math.hypot(box[2] - box[0], box[3] - box[1])
    scale = t.similarity_scale * diag
    like, raw = 0.0, None
    if len(pts):
        # similarity(fit_to_box(pts, box), ref, scale) and chamfer_distance(pts, ref)
        fitted, unmoved = _fit_to_box(pts, lo, hi, box)
        if unmoved and (fitted == pts).all():  # (np.array_equal of two arrays of one shape)
            # a drawing whose box is the reference's is not moved: the two distances are one
            # (equal but for a zero's sign, which no squared distance keeps)
            fitted_d = raw = chamfer_distance(pts, ref)
        else:
            fitted_d, raw = chamfer_distance(fitted, ref), chamfer_distance(pts, ref)
        like = likeness(fitted_d, scale)
    card.metrics["chamfer_raw"] = raw
    card.metrics["likeness"] = like
    card.add("likeness", like >= t.min_likeness, like, f"≥ {t.min_likeness:g}", "nothing like the scene asked for")
    card.marks["breaks"] = tuple(i for i, _ in strokes[1:])
    return Sketch(pts, strokes, card, like)
