"""The stick figure: its thresholds, reference drawing and structural checks.

Stick figure
    ``head`` — the closed loop read as the head (below) is round: its largest radial harmonic about the fitted
    circle stays within ``StickThresholds.head_harmonic_limits`` (size-aware, as a drawn circle's,
    about any centre), so a square, diamond, triangle or hexagon head fails unless it is small
    enough for the grid to draw a fair circle as bumpy (bench/head_envelope.py gives the radii);
    ``head_near`` — every cell of it as near the circle fitted to it as a fair ring keeps (a square
    head's corners stand out); ``head_flat`` — no row or column of it longer than a circle of its
    radius shows (a square head's sides); ``one_head`` — no other loop as round as a head stands apart from
    the body (a second head); ``head_clear`` — no other line runs over the head (the prompt asks that
    objects do not cross); ``head_bumps`` — no stroke leaves the head's ring and comes back to it
    more than a cell past a fair ring's stray (a spike or a tab on the head); ``head_aspect`` — it is as wide as it is
    tall, to the one cell any digital circle allows; ``torso`` — the line hanging from the head (the
    body edge steeper than 45° whose top is nearest the head's bottom, continued by collinear edges)
    is within ``torso_tolerance`` of vertical; ``head_above_torso`` — it starts below the head's
    center, under it (``neck_offset``), and touches the head (at most ``max_neck_gap`` cells from its ring); ``limbs`` — the edges that leave the
    torso (an edge drawn across it counts on both sides; pieces in one direction from one place
    count once) are two arms from its upper half and two legs from its lower half, on whichever
    sides (a figure seen from the side has both legs one way): a missing, extra, misplaced,
    detached or stub limb fails, as does a leg stopping in mid-air, under ``min_leg_balance`` of
    the other. A limb bent back to the torso (hands on the hips) is one limb, the one leaving the
    torso higher up; a leg drawn straight on from the torso is a leg (:func:`.body.below_the_hip`);
    ``one_figure`` — no other loop heads a second whole figure.

    The figure is read from the loop that makes the best one: the topmost loop, or a lower round
    one when a hat or a balloon stands higher than the head (the one whose figure fails fewest
    checks; on a tie the topmost). Other objects beside the figure are free.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from shape_asserts.families.base import CaseLike, with_overrides
from shape_asserts.families.scene.body import Limb, below_the_hip, limbs, torso_chain
from shape_asserts.families.scene.common import (
    SceneThresholds,
    cell,
    placer,
    reference_of,
    scene_params,
    sketch,
    stroke,
)
from shape_asserts.families.scene.strokes import edges, heal, holes
from shape_asserts.geometry.distances import nearest_sq
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit.circle import CircleModel, roundness
from shape_asserts.geometry.points import FloatArray, IntArray
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.scorecard import Scorecard

__all__ = [
    "StickThresholds",
    "STICK_THRESHOLDS",
    "STICK_AREA",
    "stick_reference",
    "stick_params",
    "stick_ideal",
    "stick_score",
]


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
    #: Roundness: the largest radial harmonic about the fitted circle, in cells, at fitted radius
    #: R: ``a + b / R`` at multiples of 4 (where a digital circle ripples), ``c + d / R`` at the
    #: other orders: the circle family's limits for order 4 and for the orders it calls others. A
    #: head is a circle about any centre, not a cell's: rounded about (25, 8.5) a ring of radius 3
    #: is 7 cells wide and 6 tall, a wave of order 2 a circle about a cell never shows; and any
    #: fair method may draw it. ``bench/head_envelope.py`` draws rings by every fair method about
    #: every eighth of a cell: none reaches the limit (the largest share 0.90). On the grid a
    #: polygon head of a few cells' radius may lie within them (the bench says up to which radius
    #: some placement of each passes: a diamond to 7, a triangle to 4; ``head_flat`` holds a
    #: square with its sides along the grid to 5.5).
    head_harmonic_limits: tuple[float, float, float, float] = (0.45, 1.8, 0.3, 1.0)
    #: The least ``head_near`` allows (cells): a ring about any centre strays from its own fitted
    #: circle up to 0.89 at radius 2.5 (bench/head_envelope.py), where a fair circle about the
    #: asked centre keeps within 0.9; fitting the circle to the ring takes a little of that away.
    head_stray_floor: float = 0.93
    #: ... and from radius 3.25 on, 0.8 + this per cell of radius (1.12 at radius 8).
    head_stray_per_cell: float = 0.04
    #: A round head has no flat side: its longest run of cells along one row or column is at most
    #: 2·√(2R) + this many cells at fitted radius R. A drawn circle's longest run is where it
    #: crosses a row or column at its top, bottom or sides, a chord whose middle sags about a cell:
    #: 2·√(2R) long, and a cell more at each end where its ends fall on the grid
    #: (``bench/head_envelope.py`` draws rings by every fair method about every eighth of a cell:
    #: at most 1.81 more). A square's side is as long as the square: from a side of 8 cells on
    #: it is longer than any circle of its size shows.
    head_flat_cells: float = 2.0
    #: Width and height of the head may differ by at most this many cells: a digital circle spans
    #: ``round(c + R) − round(c − R)`` cells across either way, wherever its center ``c`` falls, so
    #: the two differ by one cell at most (an oval or a tall hexagon differs by more).
    head_max_skew: float = 1.0
    #: A loop whose centre lies within this many head radii of the head's may be a second head
    #: (beside it with a few cells between, or on top of it); one farther off is an object beside
    #: the figure ...
    second_head_reach: float = 4.0
    #: ... and one whose radius is between these shares of the head's, as wide as tall, is one
    #: whatever crosses it; a loop of arms joined above the head is larger.
    second_head_sizes: tuple[float, float] = (0.5, 1.4)
    #: ... a line ending on a loop under this share of the head's radius holds it up (a balloon
    #: on its string: the audit's of 0.55, 0.67 on a head of radius 3); a hand on a bigger one does
    #: not make it a balloon. A smaller second head a raised hand touches is read as held so.
    held_under: float = 0.75
    #: The torso is looked for among body edges steeper than this (degrees from vertical): more
    #: upright than not.
    torso_search: float = 45.0
    #: Torso: degrees from vertical that still count as a vertical torso: a raster line a cell off
    #: over four leans 14°; 20 leaves room for a hip placed a cell or two off the head's column.
    torso_tolerance: float = 20.0
    #: Edges within this many degrees of the torso's direction that touch it continue it (a torso
    #: drawn in pieces, or retraced); legs spread as narrowly as 1 in 3 leave it at 18°.
    torso_continue: float = 10.0
    #: The torso (or a neck drawn in line with it) hangs from the head: its top lies at most this
    #: many cells (Chebyshev) from a cell of the head's ring. 1 is a torso started on the cell
    #: under the head; 2 leaves one empty cell between, the slip ``heal_step`` reads as drawn; a
    #: head lifted two cells off its torso leaves two empty cells (3) and floats. The distance
    #: between two cells is whole: the limit sits half way.
    max_neck_gap: float = 2.5
    #: ... and its top at most this share of the head's radius, or ``neck_offset_cells``, to either
    #: side of the head's center: the neck at the head's bottom (a torso leaving the head's side,
    #: at three or nine o'clock, runs down beside the head, not under it).
    neck_offset: float = 0.5
    neck_offset_cells: float = 1.5
    #: An edge whose end lies within this many cells of the torso leaves the torso (a limb): a
    #: limb started next to the torso or a cell off it, as two rounded lines meet.
    attach_tol: float = 2.0
    #: A line other than the head's own that runs over this many of the head's cells in a row (its
    #: ring, or inside it) crosses the head, where the prompt asks that objects do not cross: a
    #: line touching the head (a hand on it, the torso's top on its bottom cell) covers one or two.
    head_cross_cells: int = 3
    #: A stroke that leaves the head's ring and comes back to it (a spike drawn out and back, a
    #: tab, a knob) may go at most this many cells past the stray a fair ring keeps
    #: (:func:`head_stray_limit`): one more cell is a bump a person sees on a round head.
    head_bump_cells: float = 1.0
    #: Shortest limb edge, cells: shorter pieces are the stubs a line leaves where it touches or
    #: crosses the torso.
    min_limb: float = 2.0
    #: A limb leaving the torso above this share of its length (from the top) is an arm, below it a
    #: leg: shoulders sit in the upper half, hips at the lower end.
    arm_zone: float = 0.5
    #: Limb paths leaving the torso within ``attach_tol`` of each other and this many degrees of
    #: the same direction are one limb (retraced, or drawn in pieces); two arms or legs of one
    #: figure part at 30° or more, and an arm hanging from a shoulder a few cells above the hip
    #: leaves from another place than the leg beside it.
    limb_merge_angle: float = 15.0
    #: A limb whose tip is less than this many cells to the side of the torso points along it
    #: (a limb hanging straight down from the hip is on neither side).
    min_limb_side: float = 1.0
    #: A leg reaches at least this share of the torso's length from the hip: a standing figure's
    #: legs are about as long as its torso or longer (0.77 of it at the least in the catalogue's
    #: fair figures, legs spread wide under a long torso); a leg of a few cells is a stub.
    min_leg_share: float = 0.5
    #: A leg reaches down from the hip at least this share of its length (its lowest point below
    #: the hip): legs raised like arms or drawn as a bar across the hip are no legs; a leg out at
    #: 60° from vertical reaches down half its length, a sitting figure's foot most of it.
    min_leg_drop: float = 0.3
    #: Neither leg is drawn shorter than this share of the other: a leg stopping half way down, in
    #: mid-air, is one a person sees; a bent, kicking or sitting leg is drawn as long as the other.
    min_leg_balance: float = 0.6
    #: An arm reaches at least this share of the torso's length from the shoulder, or reaches out
    #: sideways at least ``arm_room_share`` of the room the area leaves beside the shoulder (on the
    #: nearer side: a figure's arms are as long as each other), less a cell for where it is read
    #: to leave the torso: a tall narrow area holds arms of a quarter of the torso (4 cells out
    #: on a torso of 12, the area 15 cells wide), a wide one does not excuse them (3 cells out on a
    #: torso of 15, 20 wide, is a stub; 4 passes).
    min_arm_share: float = 0.4
    arm_room_share: float = 0.5


STICK_THRESHOLDS = StickThresholds()


STICK_AREA = (13, 5, 37, 45)
_STICK_W, _STICK_H = 24.0, 40.0


def stick_reference(area: Sequence[float] = STICK_AREA) -> list[IntArray]:
    """The reference stick figure's strokes in ``area``: head (a circle), torso, arms, legs."""
    place, s = placer(_STICK_W, _STICK_H, area)
    hx, hy = place(12, 5)
    r = max(3, cell(5 * s))
    head_c = (cell(hx), cell(hy))
    head = raster_circle(head_c, r, start=(head_c[0], head_c[1] - r), direction="cw")
    neck = (head_c[0], head_c[1] + r + 1)
    hip = (head_c[0], place(12, 25)[1])
    shoulder = (head_c[0], neck[1] + max(2.0, 3 * s))
    torso = stroke([neck, hip])
    arms = stroke([place(2, 21), shoulder, place(22, 21)])
    legs = stroke([place(4, 40), hip, place(20, 40)])
    return [head, torso, arms, legs]


def stick_params(p: Mapping[str, Any]) -> dict[str, Any]:
    return scene_params("человечка из палочек", "a stick figure of a person", 12, 24)(p)


def stick_ideal(case: CaseLike) -> IntArray:
    return np.vstack(stick_reference(case.params.get("area") or STICK_AREA))


def _off_head(stroke: FloatArray, head: set[tuple[float, float]]) -> list[FloatArray]:
    """The runs of ``stroke``'s points whose cells (points rounded) are not among the ``head``'s."""
    off = [cell not in head for cell in map(tuple, np.rint(stroke).tolist())]
    pieces = []
    start = None
    for i, away in enumerate([*off, False]):
        if away and start is None:
            start = i
        elif not away and start is not None:
            pieces.append(stroke[start:i])
            start = None
    return pieces


def stick_score(drawing: Drawing, case: CaseLike) -> ShapeScore:
    """Score a stick figure: the shared scene checks, then the head, the torso hanging from it
    and the limbs leaving the torso (see the module docstring), read from the loop that makes the
    best figure of the drawing (:func:`_head_candidates`), and ``one_figure``."""
    p = case.params
    t: StickThresholds = with_overrides(STICK_THRESHOLDS, case.thresholds)
    area = p.get("area")
    com = sketch(drawing.points, reference_of(stick_reference, area or STICK_AREA), area, p["grid_size"], t)
    card, pts = com.card, com.pts
    strokes = [st for _, st in com.strokes]

    loops = _loops(pts, strokes, p["grid_size"], t)
    card.metrics["loops"] = len(loops)
    if not loops:
        card.add("head", False, "none", "≤ 1 of the limit", "no closed loop (a head) is drawn")
        card.add("head_near", False, "n/a", "a round head's cells near its circle", "no head")
        card.add("head_flat", False, "n/a", "no flat side", "no head")
        card.add("one_head", False, "none", "= 1", "no head")
        card.add("head_clear", False, "n/a", f"< {t.head_cross_cells:g} head cells in a row", "no head")
        card.add("head_bumps", False, "n/a", "no spike or tab on the head", "no head")
        card.add("head_aspect", False, "n/a", f"≤ {t.head_max_skew:g}", "no head")
        for name, limit in (
            ("torso", f"≤ {t.torso_tolerance:g}° from vertical"),
            ("head_above_torso", "head above a torso"),
            ("limbs", LIMBS_LIMIT),
            ("one_figure", "= 1"),
        ):
            card.add(name, False, "n/a", limit, "no head")
        return card.result("stick", com.likeness)
    bounds = area or (0, 0, p["grid_size"] - 1, p["grid_size"] - 1)
    figures = [_figure(pts, strokes, k, loops, bounds, t) for k in _head_candidates(loops, t)]
    best = min(figures, key=lambda f: f.failed)  # (the topmost of those failing least)
    card.checks += best.card.checks
    card.metrics.update(best.card.metrics)
    _check_one_figure(card, best, figures)
    return card.result("stick", com.likeness)


#: Two cells touch when they are this near (a diagonal neighbour is 1.41 away).
ONE_CELL = 1.5
#: Two torsos whose ends lie within this many cells are one (two loops read over one body).
ONE_TORSO = 3.0
#: ``limbs``' limit as the card says it.
LIMBS_LIMIT = "= 4: two arms and two legs"
#: The most loops tried as the head (:func:`_head_candidates`): a hostile answer holds hundreds.
MOST_HEADS_TRIED = 4


class _Figure(NamedTuple):
    """The figure read with one loop as its head: its checks, how many fail, where its torso is."""

    card: Scorecard
    failed: int
    torso: FloatArray | None  # its top and bottom, 2×2


def _loops(
    pts: FloatArray, strokes: list[FloatArray], grid_size: int, t: StickThresholds
) -> list[tuple[FloatArray, CircleModel]]:
    """The closed loops big enough to be a head, as rings of cells with the circle fitted to each,
    from the top down (then from the left)."""
    height = float(np.ptp(pts[:, 1])) if len(pts) else 0.0
    loops = []
    for ring in holes(pts, strokes, t.heal_step, t.head_max_closure, grid_size):
        fit = CircleModel.from_estimate(ring)
        if fit and t.head_min_radius <= fit.radius and (height <= 0 or fit.radius <= t.head_max_share * height):
            loops.append((ring, fit))
    return sorted(loops, key=lambda loop: (loop[1].center[1], loop[1].center[0]))


def _head_candidates(loops: list[tuple[FloatArray, CircleModel]], t: StickThresholds) -> list[int]:
    """Which loops to read the figure from: the topmost, and the topmost round ones (a hat or a
    balloon may stand higher than the head), at most :data:`MOST_HEADS_TRIED`."""
    picked = [0]
    for k, (ring, fit) in enumerate(loops):
        if len(picked) >= MOST_HEADS_TRIED:
            break
        trial = Scorecard()
        _check_head(trial, ring, fit, t)
        if k and all(c.passed for c in trial.checks):
            picked.append(k)
    return picked


def _figure(
    pts: FloatArray,
    strokes: list[FloatArray],
    k: int,
    loops: list[tuple[FloatArray, CircleModel]],
    area: Sequence[float],
    t: StickThresholds,
) -> _Figure:
    """The figure whose head is ``loops[k]``: its head, the torso hanging from it and its limbs."""
    card = Scorecard()
    ring, fit = loops[k]
    _check_head(card, ring, fit, t)
    _check_one_head(card, pts, ring, fit, [loop for j, loop in enumerate(loops) if j != k], t)
    _check_head_clear(card, strokes, ring, fit, t)
    _check_head_bumps(card, pts, strokes, ring, fit, [r for j, (r, _) in enumerate(loops) if j != k], t)

    # the body: every stroke without the head's cells
    head_cells = set(map(tuple, ring.tolist()))
    pieces = [piece for st in heal(strokes, t.heal_step) for piece in _off_head(st, head_cells)]
    body = edges(pieces, t.simplify_tolerance)
    hx, hy = fit.center
    torso = torso_chain(body, np.array([hx, hy + fit.radius]), hx, fit.radius, t)
    if torso is None:
        card.add("torso", False, "none", f"≤ {t.torso_tolerance:g}° from vertical", "no line hangs from the head")
        card.add("head_above_torso", False, "n/a", "head above a torso", "no torso")
        card.add("limbs", False, "n/a", LIMBS_LIMIT, "no torso")
        return _Figure(card, sum(not c.passed for c in card.checks), None)
    a, b, chain, direction = torso
    # the torso as drawn runs up to its top cell under the head (a neck folded into an arm by
    # the simplification is still the torso's, not a limb)
    body_cells = {(int(x), int(y)) for piece in pieces for x, y in np.rint(piece).tolist()}
    a = _neck_top(a, b, body_cells)
    _check_torso(card, a, b, direction, fit, ring, t)
    found, run_on = below_the_hip(limbs(body, chain, a, b, t), a, b, t)
    hip_y = max((float(limb.root[1]) for limb in found if limb.kind == "leg"), default=float(b[1]))
    _check_limbs(card, found, run_on, _stub_test(hip_y - float(a[1]), area, t), t)
    return _Figure(card, sum(not c.passed for c in card.checks), np.array([a, b], dtype=float))


def _check_one_figure(card: Scorecard, best: _Figure, figures: list[_Figure]) -> None:
    """``one_figure``: no other loop heads a second whole figure of its own (another torso)."""
    others = 0
    if best.failed == 0 and best.torso is not None:
        for f in figures:
            if f is not best and f.failed == 0 and f.torso is not None:
                others += float(np.abs(f.torso - best.torso).max()) > ONE_TORSO
    card.add(
        "one_figure",
        others == 0,
        1 + others,
        "= 1",
        "" if others == 0 else f"{1 + others} whole figures: a stick figure of one person was asked",
    )


def _check_one_head(
    card: Scorecard,
    pts: FloatArray,
    head: FloatArray,
    head_fit: CircleModel,
    others: list[tuple[FloatArray, CircleModel]],
    t: StickThresholds,
) -> None:
    """``one_head``: no other loop near the head (its centre within ``second_head_reach`` head
    radii of the head's: farther off, a sun or a ball is an object beside the figure) is a second
    head, that is either

    - the head's size (``second_head_sizes``) and as wide as tall (``head_max_skew``), level with
      the head or stacked on it (a loop lower down is the body's: an arm bent back to the hip
      closes one with the torso; one higher up and away is held up, a flag on its pole), round or not (a raised arm crossing it, a ring about a half cell), unless it
      is small (``held_under``) and a line touches it in one place (a balloon on its string); a
      hat's box is wider than tall, or stands on its brim; or
    - round as a head is (its own ``head`` checks) and touching nothing of the figure but the head
      (a loop an arm bent back to the hip closes with the torso touches the torso's cells above and
      below it; a balloon higher up the end of its string). A line passing a cell off it does not
      touch it."""
    cells = {(int(x), int(y)) for x, y in np.rint(pts).tolist()}
    head_cells = {(int(x), int(y)) for x, y in np.rint(head).tolist()}
    extra = 0
    for ring, fit in others:
        if math.dist(fit.center, head_fit.center) > t.second_head_reach * head_fit.radius:
            continue  # away from the head: a sun, a ball on the ground, an object beside the figure
        least, most = t.second_head_sizes
        own = {(int(x), int(y)) for x, y in np.rint(ring).tolist()}
        wide, tall = (float(np.ptp(ring[:, k])) + 1 for k in (0, 1))
        sized = least * head_fit.radius <= fit.radius <= most * head_fit.radius and abs(wide - tall) <= t.head_max_skew
        # level with the head, or stacked on it (a cell or two off its ring): a loop lower down is
        # the body's (hands on the hips), one higher up and away from the head an object held up
        # (a flag on its pole); and no hat's box standing on its brim
        level = abs(fit.center[1] - head_fit.center[1]) <= head_fit.radius
        stacked = (
            fit.center[1] < head_fit.center[1] and float(np.abs(ring[:, None] - head[None]).max(axis=2).min()) <= 2
        )
        sized = sized and (level or stacked) and not _on_a_brim(ring, cells)
        if sized and not (
            fit.radius < t.held_under * head_fit.radius and _held(ring, cells - own - head_cells, head_cells)
        ):
            extra += 1  # a loop as big as the head beside it or on it, round or crossed by a raised arm
            continue
        trial = Scorecard()
        _check_head(trial, ring, fit, t)
        if not all(c.passed for c in trial.checks):
            continue  # not round: an arm and the torso, a box
        rest = np.array(sorted(cells - own - head_cells), dtype=float).reshape(-1, 2)
        if not len(rest) or float(np.sqrt(nearest_sq(ring, rest).min())) > ONE_CELL:
            extra += 1
    card.add(
        "one_head",
        extra == 0,
        1 + extra,
        "= 1",
        ""
        if extra == 0
        else f"{1 + extra} heads: a loop as round as the head stands apart from the body, or one as big beside it",
    )


def _on_a_brim(ring: FloatArray, cells: set[tuple[int, int]]) -> bool:
    """Whether the loop stands on a line running out past it on both sides, on its bottom row or
    the row under it: a hat's box on its brim."""
    xs, ys = np.rint(ring[:, 0]).astype(int), np.rint(ring[:, 1]).astype(int)
    x0, x1, bottom = int(xs.min()), int(xs.max()), int(ys.max())
    return any({(x0 - 1, row), (x1 + 1, row)} <= cells for row in (bottom, bottom + 1))


def _held(ring: FloatArray, others: set[tuple[int, int]], head: set[tuple[int, int]]) -> bool:
    """Whether a line touches ``ring`` in one place only, as a balloon's string does: the cells of
    ``others`` (the drawing but the loop and the head) within a cell of it form one group, which
    does not touch the ``head`` (a loop joined to the head by a cell or two is a second head on a
    neck). A line crossing the loop touches it in two."""
    near = {
        (x + dx, y + dy) for x, y in np.rint(ring).astype(int).tolist() for dx in (-1, 0, 1) for dy in (-1, 0, 1)
    } & others
    if not near:
        return False
    todo, seen = [next(iter(near))], set()
    while todo:
        x, y = todo.pop()
        if (x, y) in seen:
            continue
        seen.add((x, y))
        todo += [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) in near]
    on_head = any((x + dx, y + dy) in head for x, y in near for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return seen == near and not on_head


def _check_head(card: Scorecard, ring: FloatArray, fit: CircleModel, t: StickThresholds) -> None:
    """``head``: the ring is round (its radial harmonics within a drawn circle's limits);
    ``head_near``: every cell as near the circle fitted to it as a fair ring's
    (:func:`head_stray_limit`); ``head_aspect``: as wide as it is tall, to a cell."""
    ang, res = fit.radial(ring)
    round_check = card.harmonics(ang, res, scale=fit.radius, limits=t.head_harmonic_limits, symmetry=4, name="head")
    stray, limit = float(np.max(np.abs(res))), head_stray_limit(fit.radius, t)
    card.add(
        "head_near",
        stray <= limit,
        round(stray, 4),
        f"≤ {limit:.3g}",
        "" if stray <= limit else f"a cell lies {stray:.2f} cells off the head's circle: a corner, not a round head",
    )
    run, most = longest_axis_run(ring), head_flat_limit(fit.radius, t)
    card.add(
        "head_flat",
        run <= most,
        run,
        f"≤ {most:.3g}",
        "" if run <= most else f"{run} cells of the head lie in one row or column: a flat side, not a round head",
    )
    card.metrics.update(
        head_harmonic=round_check.value,
        head_roundness=roundness(ring, fit.center),
        head_radius=fit.radius,
        head_x=fit.center[0],
        head_y=fit.center[1],
    )
    wide, tall = (float(np.ptp(ring[:, k])) + 1 for k in (0, 1))
    skew = abs(wide - tall)
    card.metrics["head_skew"] = skew
    ok = skew <= t.head_max_skew
    card.add(
        "head_aspect",
        ok,
        skew,
        f"≤ {t.head_max_skew:g}",
        "" if ok else f"the head is {wide:g} cells wide and {tall:g} tall: not round",
    )


def longest_axis_run(cells: FloatArray) -> int:
    """The most ``cells`` in a row along one row or column of the grid, side by side."""
    have = {(int(x), int(y)) for x, y in np.rint(cells).tolist()}
    best = 0
    for x, y in have:
        for dx, dy in ((1, 0), (0, 1)):
            if (x - dx, y - dy) not in have:  # the start of a run
                n = 1
                while (x + n * dx, y + n * dy) in have:
                    n += 1
                best = max(best, n)
    return best


def _check_head_clear(
    card: Scorecard, strokes: list[FloatArray], ring: FloatArray, fit: CircleModel, t: StickThresholds
) -> None:
    """``head_clear``: no line runs over the head: no stroke has ``head_cross_cells`` points in a
    row on the head's ring or inside it, unless it draws the head itself (half its ring or more: a
    ring drawn two cells thick in places, a stroke that goes on from the head into the torso) or
    lies wholly inside it (eyes, a mouth), and unless the run ends the stroke (a hand resting on
    the head). An arm raised through the head's lower half runs along its ring and out again."""
    ring_cells = {(int(x), int(y)) for x, y in ring.tolist()}
    cx, cy = fit.center
    longest = 0
    for st in strokes:
        cells = [(int(x), int(y)) for x, y in np.rint(st).tolist()]
        on = [c in ring_cells or float(np.hypot(c[0] - cx, c[1] - cy)) < fit.radius - 1 for c in cells]
        if all(on) or 2 * len(ring_cells.intersection(cells)) >= len(ring_cells):
            continue  # inside the head (eyes, a mouth), or drawing it (a thick ring, a walk on to the torso)
        # a run of head cells with the line off the head on both sides crosses it; one at a stroke's
        # end touches it (a hand on the head, a torso started on its bottom cell)
        run = 0
        for k, here in enumerate(on):
            if here:
                run += 1
                continue
            if run < k:
                longest = max(longest, run)
            run = 0
    clear = longest < t.head_cross_cells
    card.add(
        "head_clear",
        clear,
        longest,
        f"< {t.head_cross_cells:g} head cells in a row",
        "" if clear else f"a line runs over {longest} of the head's cells: objects must not cross",
    )


def _check_head_bumps(
    card: Scorecard,
    pts: FloatArray,
    strokes: list[FloatArray],
    ring: FloatArray,
    fit: CircleModel,
    other_rings: list[FloatArray],
    t: StickThresholds,
) -> None:
    """``head_bumps``: the head is round all the way round. A stroke that leaves the head's ring
    and comes back to it (a spike drawn out and back, a tab or knob drawn into the outline) goes no
    more than ``head_bump_cells`` past the stray a fair ring keeps, unless what it drew closes a
    loop of its own (a cap, a hat's crown) or touches something else drawn (the body, retraced
    through the neck). Such a bump leaves the ring itself round, so the ``head`` checks cannot
    see it."""
    ring_cells = {(int(x), int(y)) for x, y in ring.tolist()}
    loop_cells = {(int(x), int(y)) for other in other_rings for x, y in other.tolist()}
    (cx, cy), r = fit.center, fit.radius

    def on_head(c: tuple[int, int]) -> bool:
        return c in ring_cells or float(np.hypot(c[0] - cx, c[1] - cy)) < r - 1

    drawn = {(int(x), int(y)) for x, y in np.rint(pts).tolist()}
    others = {c for c in drawn if not on_head(c)}
    limit = head_stray_limit(r, t) + t.head_bump_cells
    worst = 0.0
    for st in heal(strokes, t.heal_step):  # (a pen slipping a cell on its way back is still on the way)
        cells = [(int(x), int(y)) for x, y in np.rint(st).tolist()]
        for run in map(set, _excursions(cells, [on_head(c) for c in cells])):
            near = {(x + dx, y + dy) for x, y in run for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            if not run & loop_cells and not (near & others) - run:  # closing nothing, touching nothing else
                worst = max(worst, max(math.hypot(x - cx, y - cy) for x, y in run) - r)
    ok = worst <= limit
    card.add(
        "head_bumps",
        ok,
        round(worst, 4),
        f"≤ {limit:.3g}",
        "" if ok else f"a line leaves the head and comes back {worst:.2f} cells out: a spike or a tab on a round head",
    )


def _excursions(cells: list[tuple[int, int]], on: list[bool]) -> list[list[tuple[int, int]]]:
    """The runs of ``cells`` off the head (``on`` false) with a head cell right before and after
    them: where a stroke leaves the head and comes back to it."""
    runs, start = [], None
    for i, here in enumerate(on):
        if not here and start is None:
            start = i
        elif here and start is not None:
            if start > 0:
                runs.append(cells[start:i])
            start = None
    return runs


def head_flat_limit(radius: float, t: StickThresholds = STICK_THRESHOLDS) -> float:
    """The most cells a round head of ``radius`` shows in one row or column:
    2·√(2·radius) + ``t.head_flat_cells``."""
    return 2 * math.sqrt(2 * radius) + t.head_flat_cells


def head_stray_limit(radius: float, t: StickThresholds = STICK_THRESHOLDS) -> float:
    """How far (cells) a head's cells may lie from the circle fitted to them: the larger of
    ``t.head_stray_floor`` and 0.8 + ``t.head_stray_per_cell`` per cell of radius (a ring from
    keypoints 15° apart strays 1.05 at radius 8: bench/head_envelope.py)."""
    return max(t.head_stray_floor, 0.8 + t.head_stray_per_cell * radius)


def _check_torso(
    card: Scorecard,
    a: FloatArray,
    b: FloatArray,
    direction: float,
    fit: CircleModel,
    ring: FloatArray,
    t: StickThresholds,
) -> None:
    """``torso``: the line ``a``–``b`` hanging from the head is near vertical; ``head_above_torso``:
    it starts below the head's center and touches the head's ``ring`` (a one-cell slip allowed)."""
    tilt = abs(direction - 90.0)
    card.metrics.update(torso_top=float(a[1]), torso_bottom=float(b[1]), torso_tilt=tilt)
    card.add(
        "torso",
        tilt <= t.torso_tolerance,
        round(tilt, 2),
        f"≤ {t.torso_tolerance:g}° from vertical",
        "" if tilt <= t.torso_tolerance else "the torso leans too far from vertical",
    )
    r = fit.radius
    neck = float(a[1] - (fit.center[1] + r))
    gap = float(np.abs(ring - a).max(axis=1).min())  # Chebyshev, to the nearest head cell
    card.metrics.update(neck=neck, neck_gap=gap)
    # the neck is at the head's bottom: a torso leaving its side runs down beside the head
    aside = max(t.neck_offset_cells, t.neck_offset * r) - abs(float(a[0]) - float(fit.center[0]))
    under = aside >= 0
    below = neck > -r and under
    touches = gap <= t.max_neck_gap
    card.add(
        "head_above_torso",
        below and touches,
        round(gap, 2),
        f"≤ {t.max_neck_gap:g} cells from the head, under its center",
        ""
        if below and touches
        else (
            "the head floats above the torso"
            if below
            else "the torso starts beside the head, not under it"
            if neck > -r
            else "the torso starts above the head's center"
        ),
        margin=min(t.max_neck_gap - gap, neck + r, aside),
    )


def _neck_top(a: FloatArray, b: FloatArray, body_cells: set[tuple[int, int]]) -> FloatArray:
    """The top of the torso's line as drawn: from its top end ``a`` up through the drawn
    ``body_cells`` that continue the line ``b``–``a`` (a cell a row up, within a column of the line
    and of the cell below). Simplification may fold a short neck into an arm drawn from it in one
    stroke, leaving ``a`` at the shoulder; the cells of the neck are still there."""
    x, y = (int(v) for v in np.rint(a))
    dy = float(a[1] - b[1])
    slope = float(a[0] - b[0]) / dy if dy else 0.0  # columns per row going up
    while True:
        line_x = float(a[0]) + slope * (float(a[1]) - (y - 1))
        up = [(x + dx, y - 1) for dx in (0, -1, 1) if abs(x + dx - line_x) <= 1]
        nxt = next((c for c in up if c in body_cells), None)
        if nxt is None:
            return np.array([x, y], dtype=float)
        x, y = nxt


def _stub_test(torso: float, area: Sequence[float], t: StickThresholds) -> Callable[[Limb], str]:
    """What makes a limb of a figure whose torso is ``torso`` cells long, drawn in ``area`` (the
    grid when the case asks for none), a stub, said as a problem ("" when it is none): a leg
    shorter than ``min_leg_share`` of the torso; an arm shorter than ``min_arm_share`` of it that
    also reaches out less than ``arm_room_share`` of the room beside the shoulder, less a cell."""
    x0, _, x1, _ = (float(v) for v in area)

    def stub(limb: Limb) -> str:
        length = limb.length
        if limb.kind == "leg":
            least = t.min_leg_share * torso
            short = length < least
            return f"the {limb.side} leg is a stub of {length:.0f} cells (at least {least:.1f})" if short else ""
        room = min(float(limb.root[0]) - x0, x1 - float(limb.root[0]))
        reach = abs(float(limb.tip[0] - limb.root[0]))
        if length < t.min_arm_share * torso and reach + 1 < t.arm_room_share * room:
            return (
                f"the {limb.side} arm is a stub of {length:.0f} cells (at least {t.min_arm_share * torso:.1f}, "
                f"or {t.arm_room_share * room - 1:.1f} out to the side)"
            )
        return ""

    return stub


def _check_limbs(
    card: Scorecard, found: list[Limb], run_on: float, stub: Callable[[Limb], str], t: StickThresholds
) -> None:
    """``limbs``: two arms and two legs, on whichever sides (a figure seen from the side, sitting or
    walking, has both legs one way), none along the torso, none a ``stub``, neither leg shorter
    than ``min_leg_balance`` of the other, and the torso not running on below the legs
    (``run_on`` cells: :func:`.body.below_the_hip`, where a leg drawn on in line with the torso is
    one of the legs and a third leg straight down a third)."""
    counts = {"arm": 0, "leg": 0}
    along = 0
    problems_said = []
    for limb in found:
        if limb.side == "along":
            along += 1
            continue
        counts[limb.kind] += 1
        if problem := stub(limb):
            problems_said.append(problem)
    legs = sorted((limb for limb in found if limb.kind == "leg" and limb.side != "along"), key=lambda limb: limb.length)
    for leg in legs:
        if leg.lowest - float(leg.root[1]) < t.min_leg_drop * leg.length and not problems_said:
            problems_said.append(f"the {leg.side} leg does not go down from the hip: it rises or runs sideways")
    if len(legs) == 2 and legs[0].length < t.min_leg_balance * legs[1].length and not problems_said:
        problems_said.append(
            f"the {legs[0].side} leg ({legs[0].length:.0f} cells) is under {t.min_leg_balance:g} of the other's "
            f"({legs[1].length:.0f}): it stops in mid-air"
        )
    problems = abs(counts["arm"] - 2) + abs(counts["leg"] - 2) + along + (run_on > 0) + len(problems_said)
    card.metrics.update(limbs=len(found), arms=counts["arm"], legs=counts["leg"])
    detail = [f"{v} {kind}s" for kind, v in counts.items() if v != 2]
    if along:
        detail.append(f"{along} limb(s) along the torso")
    if run_on > 0:
        detail.append(f"the torso runs on {run_on:.0f} cells below the legs")
    detail += problems_said
    where = " (arms leave the torso's upper half, legs its lower half)"
    card.add(
        "limbs",
        problems == 0,
        len(found),
        LIMBS_LIMIT,
        "" if problems == 0 else "; ".join(detail) + where,
        margin=-float(problems),
    )
