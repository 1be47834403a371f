"""Free scenes from the seed: an isometric wire-frame house with a roof and a chimney, and a stick figure.

Both are asked with the seed's free-scene template (``prompts.SEED_SCENE_TEMPLATE``), the
description filled in ("каркас дома в изометрии с крышей и трубой" is the seed's own wording), and
optionally an area of the grid the drawing should occupy. A free scene has no single right answer,
so the checks are only those that can be stated honestly from the points alone, plus a distance to
a reference drawing made here (:func:`house_reference`, :func:`stick_reference`):

House
    ``contours`` — at least ``min_contours`` separate strokes (walls, roof, chimney);
    ``gaps``/``repeats`` — continuity *within* each stroke (see ``shape_asserts.contours`` for how
    a pen lift is told from a gap); ``bounds`` (and ``area`` when one was asked);
    ``iso_axes`` — the simplified edges include all three isometric axes (vertical, and lines
    rising to the left and to the right at 20–36°, i.e. the 2:1 pixel isometric 26.6° or the true
    30°); ``iso_share`` — most of the edge length runs along those axes; ``roof_above_walls`` —
    the wall box is found from the long vertical edges, and drawn cells above its top span at
    least ``min_roof_span`` of its width; ``chimney`` — a short vertical edge (not a wall edge)
    stands above the walls' front top corner, within their width; ``likeness`` — similarity to
    the reference house.
Stick figure
    ``contours``, ``gaps``/``repeats``, ``bounds``/``area`` as above; ``head`` — a closed contour
    that is roughly round (fitted-circle roundness); ``torso`` — a vertical-ish straight edge in
    another contour, under or over the head; ``head_above_torso`` — that edge starts below the
    head's center and not far below its bottom; ``limbs`` — something is drawn to the left and to
    the right of the torso, both above its lower end (arms) and below it (legs); ``likeness``.

``likeness`` (the headline score) is :func:`shape_asserts.contours.similarity` between the drawing
and the reference after the drawing's bounding box is fitted onto the reference's (uniform scale,
proportions kept), so it measures shape, not placement; ``chamfer_raw`` in the metrics is the
distance without that fit.

What these checks cannot judge
------------------------------
- Whether it *looks like* a house or a person to a human, or is pleasing: a drawing can pass every
  structural check and still be a poor picture, and a charming drawing in another style (a front
  view, a figure in profile, a house drawn in one stroke) fails checks written for this style.
- Occlusion and hidden lines: a wire-frame may or may not show the hidden edges; nothing checks
  which edges should be visible or whether a face is drawn "in front of" another.
- Exact proportions and 3-D consistency: the isometric check looks at edge directions only; it
  cannot tell whether the edges meet at the right corners, whether the roof rests on the walls,
  whether the box is a consistent 3-D box, or whether the chimney stands *on* the roof.
- Which stroke is which part: strokes are not labelled, so "roof" means "drawn cells above the wall
  box", "chimney" means "a short vertical edge above the walls", "torso" means "a vertical-ish
  edge under the head"; a model that draws the scene differently (sloping walls, a horizontal
  figure) is judged by these proxies anyway.
- Extra objects (a sun, a door, windows, a hat) are neither required nor penalised, except through
  ``likeness`` and the pen-lift heuristic.
- ``likeness`` rewards closeness to *one* reference design; a different but equally good house
  scores lower. Its threshold is therefore loose, and it is best read as a relative number
  between models on the same case.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from .. import checks as ck
from ..contours import (
    BREAK_STEP,
    CLOSE_TOL,
    Contour,
    bounding_box,
    chamfer_distance,
    closure,
    fit_to_box,
    segment_angles,
    segments,
    similarity,
    split_contours,
)
from ..exceptions import CaseError
from ..fit import CircleModel, roundness
from ..prompts import scene_prompt
from ..raster import raster_circle, raster_polyline
from ..score import Check, ShapeScore
from ..thresholds import with_overrides
from .base import Family

if TYPE_CHECKING:
    from ..cases import Case
    from ..drawing import Drawing

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
]


# --- thresholds ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SceneThresholds:
    """Limits shared by the free scenes. Distances are in grid cells."""

    #: Fewest separate strokes (contours).
    min_contours: int = 3
    #: Steps longer than one cell inside a stroke (pen lifts are not counted).
    max_gaps: int = 0
    #: Consecutive repeated points.
    max_repeats: int = 0
    #: How far outside the asked area a point may lie (only when the case asks for an area).
    area_margin: float = 3.0
    #: ``likeness`` is 0 at a mean Chamfer distance of this share of the reference's diagonal
    #: (about 4.7 cells for the default house). Calibrated in ``bench/calibrate_scenes.py``: the
    #: reference mirrored or squashed to 3/4 width scores ~77, a front-view house ~55, a random
    #: walk or a circle ~30–40.
    similarity_scale: float = 0.1
    #: Smallest ``likeness`` (0–100) that passes. Loose on purpose: see the module docstring.
    min_likeness: float = 45.0
    #: Ramer–Douglas–Peucker tolerance for straight edges.
    simplify_tolerance: float = 1.0
    #: Shortest simplified edge looked at.
    min_edge: float = 3.0
    #: Degrees from vertical that still count as vertical.
    vertical_tolerance: float = 15.0
    #: Contour splitting (see ``shape_asserts.contours``).
    break_step: float = BREAK_STEP
    close_tol: float = CLOSE_TOL


@dataclass(frozen=True)
class HouseThresholds(SceneThresholds):
    """Limits for the isometric house."""

    #: Isometric axes: edges within this band of degrees from horizontal (2:1 pixel iso is 26.6°,
    #: true isometric 30°).
    iso_min_angle: float = 20.0
    iso_max_angle: float = 36.0
    #: Least total length along each of the three axes (vertical, rising left, rising right).
    min_axis_length: float = 4.0
    #: Least share of the simplified edge length that runs along the three axes.
    min_iso_share: float = 0.5
    #: Vertical edges at least this share of the longest are wall edges.
    wall_edge_share: float = 0.6
    #: Cells above the wall top must span at least this share of the walls' width (a roof).
    min_roof_span: float = 0.4
    #: How far above the walls' highest top a roof cell must be: this share of the wall height,
    #: at least 2 cells.
    roof_clearance: float = 0.1


@dataclass(frozen=True)
class StickThresholds(SceneThresholds):
    """Limits for the stick figure."""

    #: Head: a closed contour (last point this close to the first) ...
    head_max_closure: float = 2.0
    #: ... with at least this many points ...
    head_min_points: int = 8
    #: ... and this roundness about its fitted center (the seed's 0–100 scale).
    head_min_roundness: float = 75.0
    #: Torso: degrees from vertical that still count as vertical.
    torso_tolerance: float = 20.0


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


# --- shared scoring -----------------------------------------------------------------------------

@dataclass
class _Common:
    pts: np.ndarray
    contours: tuple[Contour, ...]
    checks: list[Check]
    metrics: dict[str, Any]
    marks: dict[str, tuple[int, ...]]
    likeness: float


def _common(drawing_points: np.ndarray, reference: list[np.ndarray], area: Sequence[int] | None,
            grid_size: int, t: SceneThresholds) -> _Common:
    pts = ck.as_points(drawing_points)
    contours = tuple(c for c in split_contours(pts, break_step=t.break_step, close_tol=t.close_tol) if len(c))
    out: list[Check] = []
    metrics: dict[str, Any] = {"n_points": len(pts), "contours": len(contours)}
    out.append(Check("contours", len(contours) >= t.min_contours, len(contours), f"≥ {t.min_contours}",
                     "the parts are not drawn as separate strokes" if len(contours) < t.min_contours else ""))
    gaps = tuple(g for c in contours for g in c.gaps)
    reps = tuple(r for c in contours for r in c.repeats)
    metrics.update(gaps=len(gaps), repeats=len(reps))
    out.append(Check("gaps", len(gaps) <= t.max_gaps, len(gaps), f"≤ {t.max_gaps}",
                     "steps of 2–4 cells inside a stroke" if len(gaps) > t.max_gaps else "", gaps))
    out.append(Check("repeats", len(reps) <= t.max_repeats, len(reps), f"≤ {t.max_repeats}",
                     "consecutive identical points" if len(reps) > t.max_repeats else "", reps))
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
                     "far from the reference drawing" if like < t.min_likeness else ""))
    marks = {"gaps": gaps, "repeats": reps, "outside": oob, "breaks": tuple(c.start for c in contours[1:])}
    return _Common(pts, contours, out, metrics, marks, like)


def _edges(contours: Sequence[Contour], t: SceneThresholds) -> np.ndarray:
    segs = [segments(c.points, t.simplify_tolerance, min_length=t.min_edge) for c in contours if len(c) >= 2]
    segs = [s for s in segs if len(s)]
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


def _is_vertical(ang: np.ndarray, tol: float) -> np.ndarray:
    return np.abs(ang - 90.0) <= tol


# --- house --------------------------------------------------------------------------------------

def _house_params(p: Mapping[str, Any]) -> dict[str, Any]:
    return _scene_params("каркас дома в изометрии с крышей и трубой",
                         "a wire-frame house in isometric projection with a roof and a chimney", 20, 24)(p)


def _house_ideal(case: "Case") -> np.ndarray:
    return np.vstack(house_reference(case.params.get("area") or HOUSE_AREA))


def _house_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    t: HouseThresholds = with_overrides(HOUSE_THRESHOLDS, case.thresholds)
    area = p.get("area")
    com = _common(drawing.points, house_reference(area or HOUSE_AREA), area, p["grid_size"], t)
    out, metrics, pts = com.checks, com.metrics, com.pts

    segs = _edges(com.contours, t)
    ang, length = segment_angles(segs)
    vertical = _is_vertical(ang, t.vertical_tolerance)
    # on screen (y down) a line rising to the right has an angle near 180 - 26.6; rising left, near 26.6
    rise_left = (ang >= t.iso_min_angle) & (ang <= t.iso_max_angle)
    rise_right = (ang >= 180 - t.iso_max_angle) & (ang <= 180 - t.iso_min_angle)
    axes = {"vertical": float(length[vertical].sum()), "rising left": float(length[rise_left].sum()),
            "rising right": float(length[rise_right].sum())}
    total = float(length.sum())
    share = (axes["vertical"] + axes["rising left"] + axes["rising right"]) / total if total > 0 else 0.0
    metrics.update(iso_share=share, **{f"axis_{k.replace(' ', '_')}": v for k, v in axes.items()})
    missing = [k for k, v in axes.items() if v < t.min_axis_length]
    out.append(Check("iso_axes", not missing, len(axes) - len(missing), "3 axes",
                     ("no edges " + ", ".join(missing)) if missing else ""))
    out.append(Check("iso_share", share >= t.min_iso_share, share, f"≥ {t.min_iso_share:g}",
                     "most edges run off the isometric axes" if share < t.min_iso_share else ""))

    # the wall box: the long vertical edges
    vsegs, vlen = segs[vertical], length[vertical]
    walls = vsegs[vlen >= t.wall_edge_share * vlen.max()] if len(vsegs) else vsegs
    if len(walls):
        tops = walls[:, :, 1].min(axis=1)
        bottoms = walls[:, :, 1].max(axis=1)
        wx0, wx1 = float(walls[:, :, 0].min()), float(walls[:, :, 0].max())
        top_high, top_low = float(tops.min()), float(tops.max())
        height = float(np.median(bottoms - tops))
        width = wx1 - wx0
        metrics.update(wall_edges=int(len(walls)), wall_height=height, wall_width=width)
        clear = max(2.0, t.roof_clearance * height)
        above = pts[(pts[:, 1] <= top_high - clear) & (pts[:, 0] >= wx0) & (pts[:, 0] <= wx1)]
        span = (float(above[:, 0].max() - above[:, 0].min()) / width) if len(above) and width > 0 else 0.0
        metrics["roof_span"] = span
        out.append(Check("roof_above_walls", span >= t.min_roof_span, span, f"≥ {t.min_roof_span:g} of the wall width",
                         "nothing wide is drawn above the walls" if span < t.min_roof_span else ""))
        short = vsegs[vlen < t.wall_edge_share * vlen.max()]
        chim = [s for s in short
                if s[:, 1].max() <= top_low - 1 and wx0 - 1 <= s[:, 0].mean() <= wx1 + 1]
        metrics["chimney_edges"] = len(chim)
        out.append(Check("chimney", bool(chim), len(chim), "≥ 1 short vertical edge above the walls",
                         "" if chim else "no short vertical edge stands above the walls"))
    else:
        metrics.update(wall_edges=0, roof_span=0.0, chimney_edges=0)
        out.append(Check("roof_above_walls", False, 0.0, f"≥ {t.min_roof_span:g} of the wall width",
                         "no vertical wall edges found"))
        out.append(Check("chimney", False, 0, "≥ 1 short vertical edge above the walls", "no vertical wall edges found"))
    return ShapeScore(family="house", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)


# --- stick figure -------------------------------------------------------------------------------

def _stick_params(p: Mapping[str, Any]) -> dict[str, Any]:
    return _scene_params("человечка из палочек", "a stick figure of a person", 12, 24)(p)


def _stick_ideal(case: "Case") -> np.ndarray:
    return np.vstack(stick_reference(case.params.get("area") or STICK_AREA))


def _stick_score(drawing: "Drawing", case: "Case") -> ShapeScore:
    p = case.params
    t: StickThresholds = with_overrides(STICK_THRESHOLDS, case.thresholds)
    area = p.get("area")
    com = _common(drawing.points, stick_reference(area or STICK_AREA), area, p["grid_size"], t)
    out, metrics, pts = com.checks, com.metrics, com.pts
    height = float(np.ptp(pts[:, 1])) if len(pts) else 0.0

    # head: the topmost closed, roughly round contour
    heads = []
    for i, c in enumerate(com.contours):
        if len(c) < t.head_min_points or closure(c.points) > t.head_max_closure:
            continue
        fit = CircleModel.from_estimate(c.points)
        if not fit or fit.radius < 2 or (height > 0 and fit.radius > 0.35 * height):
            continue
        rnd = roundness(c.points, fit.center)
        if rnd >= t.head_min_roundness:
            heads.append((fit.center[1], i, fit, rnd))
    head = min(heads, key=lambda h: (h[0], h[1])) if heads else None
    if head is not None:
        _, hi, fit, rnd = head
        metrics.update(head_roundness=rnd, head_radius=fit.radius, head_x=fit.center[0], head_y=fit.center[1])
    out.append(Check("head", head is not None, len(heads), "≥ 1 closed round contour",
                     "" if head else f"no closed contour with roundness ≥ {t.head_min_roundness:g}"))

    # torso: the longest vertical-ish edge outside the head, under or over it
    others = [c for i, c in enumerate(com.contours) if head is None or i != head[1]]
    segs = _edges(others, t)
    ang, length = segment_angles(segs)
    upright = _is_vertical(ang, t.torso_tolerance)
    if head is not None:
        r = head[2].radius
        near = np.abs(segs[:, :, 0].mean(axis=1) - head[2].center[0]) <= r + 2 if len(segs) else upright
        upright &= near & (length >= max(t.min_edge, r))
    cand = np.flatnonzero(upright)
    torso = segs[cand[np.argmax(length[cand])]] if len(cand) else None
    out.append(Check("torso", torso is not None, int(len(cand)), "≥ 1 vertical edge",
                     "" if torso is not None else "no vertical-ish edge under the head"))

    if head is not None and torso is not None:
        hx, hy = head[2].center
        r = head[2].radius
        ty0, ty1 = float(torso[:, 1].min()), float(torso[:, 1].max())
        neck = ty0 - (hy + r)
        ok = ty0 > hy and neck <= 2 * r + 2
        metrics.update(torso_top=ty0, torso_bottom=ty1, neck=neck)
        out.append(Check("head_above_torso", ok, round(neck, 2), f"torso starts below the head center, ≤ {2 * r + 2:.1f} below the head",
                         "" if ok else ("the torso is above the head" if ty0 <= hy else "the torso starts far below the head")))
        tx = float(torso[:, 0].mean())
        reach = max(2.0, 0.5 * r)
        body = np.vstack([c.points for c in others]) if others else np.zeros((0, 2))
        regions = {
            "left arm": (body[:, 0] <= tx - reach) & (body[:, 1] <= ty1),
            "right arm": (body[:, 0] >= tx + reach) & (body[:, 1] <= ty1),
            "left leg": (body[:, 0] <= tx - reach) & (body[:, 1] > ty1),
            "right leg": (body[:, 0] >= tx + reach) & (body[:, 1] > ty1),
        }
        missing = [k for k, m in regions.items() if not m.any()]
        metrics["limbs"] = 4 - len(missing)
        out.append(Check("limbs", not missing, 4 - len(missing), "4 (both arms, both legs)",
                         ("nothing drawn where the " + ", ".join(missing) + " should be") if missing else ""))
    else:
        why = "no head" if head is None else "no torso"
        out.append(Check("head_above_torso", False, "n/a", "head above a torso", why))
        out.append(Check("limbs", False, 0, "4 (both arms, both legs)", why))
    return ShapeScore(family="stick", score=com.likeness, metrics=metrics, checks=tuple(out), marks=com.marks)


HOUSE = Family(name="house", params=_house_params, prompt=_scene_prompt, ideal=_house_ideal, score=_house_score,
               variant_keys=("description", "description_en"))
STICK = Family(name="stick", params=_stick_params, prompt=_scene_prompt, ideal=_stick_ideal, score=_stick_score,
               variant_keys=("description", "description_en"))
