"""The free scenes judged as the prompt asks, by property: every fair house and stick figure
passes, wherever it sits in the asked area and whatever its proportions and pose; a part detached,
a part missing, or the drawing moved out of its area fails.

What the prompt asks (``families/prompts.py``, ``families/scene/common.py``): "a wire-frame house
in isometric projection with a roof and a chimney" or "a stick figure of a person", and, when the
case names one, "the drawing occupies the area from x=x0 to x=x1 and from y=y0 to y=y1". It says
nothing of proportions (how long the house, how tall its walls or its roof, where the chimney
stands; how long the limbs, how they are posed), so those are drawn across a wide range; it implies
that the parts are attached (a chimney on the roof, a head on the torso, limbs from the torso) and
that the drawing fills its area.

The drawers are the independent catalogue's (``tests/catalogue/scenes.py``); the cases are user
cases made from the drawn parameters, as a case file would give them.

A part is detached when at least two empty cells lie between it and what it stands on: one empty
cell is the slip of a pen the scenes read as drawn (``SceneThresholds.heal_step``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from shape_asserts.cases import Case
from shape_asserts.families.registry import get_family
from shape_asserts.families.scene.house import HOUSE_THRESHOLDS
from shape_asserts.families.scene.stick import STICK_THRESHOLDS, _check_head
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.fit.circle import CircleModel
from shape_asserts.geometry.scorecard import Scorecard
from tests.catalogue import rasters
from tests.catalogue.scenes import (
    GRID,
    HouseStyle,
    StickStyle,
    _stick_layout,
    circle_loop,
    house_cells,
    polyline,
    stick_cells,
    stick_strokes,
)

#: The areas the built-in cases ask for, and none (the drawer then uses the catalogue's default).
HOUSE_AREAS = [None, (10, 6, 40, 43), (3, 10, 30, 45), (25, 20, 47, 47)]
STICK_AREAS = [None, (15, 4, 35, 46), (2, 8, 22, 44), (30, 22, 46, 47)]
#: The area a drawing of a case without one is drawn in.
DEFAULT_AREA = (4, 4, 45, 45)

GABLE_RU = "каркас дома в изометрии с двускатной крышей и трубой"
GABLE_EN = "a wire-frame house in isometric projection with a gable roof and a chimney"


def _case(**raw: Any) -> Case:
    fam = get_family(raw["family"])
    return Case(id="hypothesis", family=fam.name, params=MappingProxyType(fam.params(raw)))


def _failed(case: Case, cells: list[tuple[int, int]]) -> list[str]:
    result = case.score(Drawing.from_points(cells, grid_size=case.grid_size))
    return [c.describe() for c in result.failed]


def _areas(least_w: int, least_h: int, fixed: list) -> st.SearchStrategy:
    """One of the built-in cases' areas, or any area on the grid the family accepts."""

    @st.composite
    def any_area(draw: st.DrawFn) -> tuple[int, int, int, int]:
        w = draw(st.integers(least_w, GRID - 1))
        h = draw(st.integers(least_h, GRID - 1))
        x0 = draw(st.integers(0, GRID - 1 - w))
        y0 = draw(st.integers(0, GRID - 1 - h))
        return (x0, y0, x0 + w, y0 + h)

    return st.one_of(st.sampled_from(fixed), any_area())


def _house_case(area, gable: bool) -> Case:
    raw: dict[str, Any] = {"family": "house"}
    if area is not None:
        raw["area"] = list(area)
    if gable:
        raw.update(description=GABLE_RU, description_en=GABLE_EN)
    return _case(**raw)


def _stick_case(area) -> Case:
    raw: dict[str, Any] = {"family": "stick"}
    if area is not None:
        raw["area"] = list(area)
    return _case(**raw)


@st.composite
def fair_houses(draw: st.DrawFn) -> tuple[Any, bool, HouseStyle]:
    """A fair house: any proportions, chimney anywhere on a slope, placed anywhere in its area
    from three quarters of it to filling it, in either isometry, any stroke organisation."""
    area = draw(_areas(20, 24, HOUSE_AREAS))
    gable = draw(st.booleans())
    hidden = draw(st.booleans())
    style = HouseStyle(
        proj=draw(st.sampled_from(["2:1", "30"])),
        roof="gable" if gable else draw(st.sampled_from(["gable", "hip"])),
        hidden=hidden,
        chimney=draw(st.floats(0.4, 0.7)),
        chimney_slope=draw(st.sampled_from(["near", "far"])),
        chimney_at=draw(st.floats(0.3, 0.7)),
        length=draw(st.floats(0.8, 1.9)),
        height=draw(st.floats(0.6, 1.2)),
        rise=draw(st.floats(0.4, 0.9)),
        mirror=draw(st.booleans()),
        strokes=draw(st.sampled_from(["chain", "edges", "walk"] + (["faces"] if hidden else []))),
        fill=draw(st.floats(0.75, 1.0)),
        align_x=draw(st.floats(0.0, 1.0)),
        align_y=draw(st.floats(0.0, 1.0)),
    )
    # a hip roof over a nearly square plan is a pyramid whose corner edges the walls check
    # does not read yet (issue 29: left open)
    assume(style.roof != "hip" or style.length >= 1.2)
    # a chimney on the far slope with the hidden lines removed shows only its top above the
    # ridge: on a small house a few cells, no box the chimney check reads (left open)
    assume(style.chimney_slope == "near" or style.hidden)
    return area, gable, style


@st.composite
def fair_figures(draw: st.DrawFn, least_w: int = 12, least_h: int = 24) -> tuple[Any, StickStyle]:
    """A fair stick figure: any pose (arms horizontal, raised, lowered, hands on the hips; legs
    together or apart), any head raster and stroke order, from three quarters of its area's
    height to filling it; in an area at least ``least_w`` × ``least_h``."""
    area = draw(_areas(least_w, least_h, [a for a in STICK_AREAS if a is None or a[3] - a[1] >= least_h]))
    arms = draw(st.sampled_from(["horizontal", "raised", "lowered", "lowered45", "hips"]))
    style = StickStyle(
        head_method=draw(st.sampled_from(["round", "midpoint"])),
        head_start=draw(st.sampled_from(["bottom", "top", "left", "right"])),
        head_dir=draw(st.sampled_from(["cw", "ccw"])),
        neck=draw(st.sampled_from(["touch", "junction", "gap"])),
        arms=arms,
        arm_strokes=draw(st.sampled_from([1, 2])),
        shoulder=draw(st.floats(0.2, 0.35)),
        arm_reach=draw(st.floats(0.6, 1.0)),
        legs_spread=draw(st.floats(0.2, 0.8)),
        leg_strokes=draw(st.sampled_from([1, 2, 3])),
        torso_share=draw(st.floats(0.4, 0.55)),
        walk=draw(st.booleans()),
        connect=draw(st.sampled_from(["8", "4"])),
        offset_x=draw(st.integers(-2, 2)),
        fill=draw(st.floats(0.75, 1.0)),
    )
    layout = _stick_layout(area or DEFAULT_AREA, style)
    # hands on the hips need a torso long enough to bend an arm along (elbow half way down,
    # hand three cells above the hip)
    assume(arms != "hips" or layout["hip"][1] - layout["shoulder"][1] >= 8)
    # hands hanging below the hip lie among the legs: which line is an arm and which a leg is
    # then a guess (the drawer's arms down at 45° reach two rows below the hip on a short torso)
    assume(all(hand[1] < layout["hip"][1] for hand in layout["hands"]))
    # drawn in one walk, the torso runs straight on into the first leg: the hip must stand out
    # of the line from the shoulder to that foot by more than the simplification's cell (legs
    # together under a torso of four cells do not)
    if style.walk:
        (sx, sy), (hx, hy), (fx, fy) = layout["shoulder"], layout["hip"], layout["feet"][0]
        bend = abs((fx - sx) * (hy - sy) - (fy - sy) * (hx - sx)) / math.hypot(fx - sx, fy - sy)
        assume(bend > 1.5)
    # arms raised from shoulders just under the head cross its outline: the head is no loop of
    # its own then
    if arms == "raised":
        head = set(stick_cells(area or DEFAULT_AREA, replace(style, walk=False, order=("head",))))
        arm_cells = stick_cells(area or DEFAULT_AREA, replace(style, walk=False, order=("arms",)))
        assume(all((x + dx, y + dy) not in head for x, y in arm_cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)))
    return area, style


# --------------------------------------------------------------------------------------------------
# House


#: The least width and height of a fair house, cells: below it a hip roof, a chimney and the
#: eaves meeting at a corner are a cell or two each, and overlap (a hip-roofed house 17 cells
#: wide with its chimney above the front corner reads as one vertical line there; a chimney of
#: 0.4 of 6-cell walls is two cells above the roof, no box; on a flat top of 17 cells a chimney
#: reads as a roof edge).
LEAST_HOUSE = 22


def _house_size(cells: list[tuple[int, int]]) -> int:
    return min(max(c[k] for c in cells) - min(c[k] for c in cells) + 1 for k in (0, 1))


@settings(derandomize=True, max_examples=60, deadline=None)
@given(fair_houses())
# a gable 6–8 high over walls 13–14 and faces 11–14 (the audit's class), and a house filling the
# whole of the smallest asked area
@example((None, True, HouseStyle(length=1.1, height=1.2, rise=0.65, strokes="chain")))
@example(((25, 20, 47, 47), False, HouseStyle(strokes="chain", fill=1.0)))
# found here: a hip edge rising straight on from the front corner, the other eave drawn through
# the corner (cut there by one edge end); a hip roof twice the walls' height
@example((None, False, HouseStyle(roof="hip", hidden=False, length=1.5, height=1.0, rise=0.5, strokes="chain")))
@example(((10, 6, 40, 43), False, HouseStyle(roof="hip", hidden=False, height=0.6, rise=0.9, strokes="chain")))
# found here: a low gable (rise 0.4 of the depth) in true isometry, hidden lines removed, whose
# peak stands its full rise above the middle of the gable face's top edge but less than the
# ``gable`` check's least rise above the face's far (higher on screen) top corner
@example(
    (
        (0, 0, 35, 47),
        True,
        HouseStyle(
            proj="30",
            hidden=False,
            chimney=0.640625,
            chimney_at=0.640625,
            length=0.8125,
            height=0.8125,
            rise=0.40625,
            strokes="walk",
            fill=0.7578125,
            align_x=0.0,
            align_y=0.0,
        ),
    )
)
# found here: in true isometry, a chimney's edges crossing a rake cut it into pieces whose ends lie
# 1.7 cells apart: a rake is the edges along the line, not one edge or two meeting end to end
@example(
    (
        (0, 1, 35, 48),
        True,
        HouseStyle(
            proj="30",
            chimney=0.4,
            chimney_at=0.3,
            length=0.8,
            height=0.6,
            rise=0.79,
            strokes="chain",
            fill=0.75,
            align_x=0.79,
            align_y=0.0,
        ),
    )
)
@example(
    (
        (3, 10, 30, 45),
        True,
        HouseStyle(
            proj="30",
            chimney=0.4,
            chimney_at=0.3,
            length=0.8,
            height=1.0,
            rise=0.64,
            mirror=True,
            strokes="faces",
            fill=0.88,
            align_x=0.88,
            align_y=0.0,
        ),
    )
)
# found by bench/house_sweep.py: a chimney on the far slope right behind the apex, its hidden
# edges cut where the rakes cross them: a vertical line passing behind the apex hangs from none
@example(
    (
        None,
        True,
        HouseStyle(
            proj="30",
            chimney=0.5988,
            chimney_slope="far",
            chimney_at=0.3601,
            length=1.6984,
            height=1.0022,
            rise=0.7641,
            fill=0.9657,
            align_x=0.3313,
            align_y=0.2321,
        ),
    )
)
# found by bench/house_sweep.py: a hip roof with a short ridge, its chimney as tall as the walls and
# drawn down into the roof, every face drawn whole: the chimney's four sides lie beside each other
# and a hip edge beside a hidden eave, half the long edges' length in all, each pair a step of its own
@example(
    (
        (10, 6, 40, 43),
        False,
        HouseStyle(
            proj="2:1",
            roof="hip",
            hidden=True,
            chimney=0.6813,
            chimney_at=0.4926,
            length=1.3199,
            height=1.1636,
            rise=0.8201,
            strokes="faces",
            fill=0.7966,
            align_x=0.2516,
            align_y=0.4470,
        ),
    )
)
def test_every_fair_house_passes(drawn):
    area, gable, style = drawn
    cells = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(cells) >= LEAST_HOUSE)
    assert _failed(_house_case(area, gable), cells) == []


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_houses(), st.integers(3, 5))
def test_a_chimney_floating_above_the_roof_fails(drawn, clear):
    area, gable, style = drawn
    cells = house_cells(area or DEFAULT_AREA, replace(style, chimney_clear=clear))
    assume(min(y for _, y in cells) >= 0)
    assert any(f.startswith("chimney") for f in _failed(_house_case(area, gable), cells))


# (a smokestack makes the drawing tall: fitted to its area the house is narrower, and the
# houses under ``LEAST_HOUSE`` cells are left out)
@settings(derandomize=True, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(fair_houses(), st.floats(1.5, 2.0))
def test_a_chimney_towering_over_the_house_fails(drawn, above):
    """A gable-roofed house whose chimney's top stands ``above`` times the walls' height above the
    ridge, on the far slope with every edge drawn (as the audit's smokestacks, 15 to 18 units over
    walls 8 to 12 high, passed 183 of 200): more than a storey over the ridge, where a fair
    chimney rises 0.7 of the walls above the roof at the most (:func:`test_every_fair_house_passes`).
    The check allows a chimney behind the ridge the rows the house's depth lifts it on screen,
    the gable end's drop, all of which a chimney at the far eave takes: this one's deepest corner
    stands 0.22 of the way from there to the ridge, so it measures up to 0.22 of the drop (0.2
    of the walls' height on the lowest walls) less than it rises, and a chimney beside the near
    gable end reads the rake's lower cells as the outline beside it: half a storey over the
    bound (``chimney_max_above_ridge``) keeps clear of both."""
    area, gable, style = drawn
    style = replace(style, roof="gable", chimney_slope="far", hidden=True, chimney_above_ridge=above)
    cells = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(cells) >= LEAST_HOUSE)
    assert any(f.startswith("chimney") for f in _failed(_house_case(area, gable), cells))


@settings(derandomize=True, max_examples=30, deadline=None)
@given(fair_houses(), st.sampled_from(["skylight", "gable-window"]))
def test_a_skylight_or_a_gable_window_is_no_chimney(drawn, extra):
    """No chimney, but a flat box a cell thick lying along the slope (a skylight) or a rectangle on
    the near gable end's wall (an attic window): nothing rises out of the roof (the audit found
    a third of such houses passing: the window's sides, or the skylight's paired with the hidden
    back corner's wall edge, read as a chimney's)."""
    area, gable, style = drawn
    # a gable end to put the window on
    style = replace(style, roof="gable", chimney=None, roof_extra=extra)
    cells = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(cells) >= LEAST_HOUSE)
    assert any(f.startswith("chimney") for f in _failed(_house_case(area, gable), cells))


@pytest.mark.parametrize("area", HOUSE_AREAS)
@pytest.mark.parametrize(
    "box, strokes, slope",
    [("hanging", "faces", "near"), ("hanging", "faces", "far"), ("attic", "edges", "near"), ("attic", "faces", "far")],
)
def test_a_box_hanging_into_the_attic_or_floating_in_it_is_no_chimney(area, box, strokes, slope):
    """No chimney, but a chimney-sized box with a level floor of its own, every edge drawn:
    hanging from a slope into the attic (its top level with the slope's downhill side) or
    floating in the attic. Nothing rises out of the roof, and the box stands on no slope (the
    audit found such boxes passing as the chimney, 188 and 193 of 200). The fair side is
    :func:`test_every_fair_house_passes`; the catalogue drawer's boxes are two or three cells
    across, and in about one house in eight their corners crowd into neighbouring columns or
    run on into other lines (more with retracing walks), so no property over every such box
    holds: these are fixed ones the grid shows clearly."""
    style = HouseStyle(strokes=strokes, chimney_box=box, chimney_slope=slope)
    cells = house_cells(area or DEFAULT_AREA, style)
    assert any(f.startswith("chimney") for f in _failed(_house_case(area, False), cells))


#: The least width and height of a house with an exterior chimney stack, cells: the stack is at
#: least 4 cells across each way (on 2 its corner lines run into one another), and on a smaller
#: house it stands before the most of a gable end, hiding the far corner's wall edge.
LEAST_STACKED = 28


def _stacked(style: HouseStyle, stack: str, at: float, **kw: Any) -> HouseStyle:
    """``style`` with an exterior chimney stack against the near gable end or the long front wall,
    ``at`` of the way along it, in place of the chimney on the roof (``kw``: its height or gap)."""
    return replace(style, chimney=None, chimney_stack=stack, stack_at=at, **kw)


# (a stack makes the drawing tall: fitted to its area the house is smaller, and the houses under
# ``LEAST_STACKED`` cells are left out)
@settings(derandomize=True, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
# (at most 0.6 of the way along: farther, the stack stands before the wall's far corner on
# screen, and with the hidden lines removed that corner's wall edge is not drawn)
@given(fair_houses(), st.sampled_from(["gable", "side"]), st.floats(0.3, 0.6), st.floats(0.1, 0.5))
def test_an_exterior_chimney_stack_passes(drawn, stack, at, above):
    """A chimney stack built on the ground against a wall (the near gable end or the long front
    wall), its top ``above`` of the walls' height above the ridge: a common real house, and the
    prompt ("with a roof and a chimney") does not place the chimney (audit 42 found such houses
    failing every time: the stack's tall corner edges left the walls too short to count). The
    prompt asking for a gable roof is the one that puts the chimney on the roof slope, and a
    stack before the near gable end hides its peak with the hidden lines removed: it is not
    asked here."""
    area, _, style = drawn
    cells = house_cells(area or DEFAULT_AREA, _stacked(style, stack, at, stack_above=above))
    assume(_house_size(cells) >= LEAST_STACKED)
    assert _failed(_house_case(area, False), cells) == []


@settings(derandomize=True, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    fair_houses(),
    st.sampled_from(["gable", "side"]),
    st.floats(0.3, 0.7),
    st.one_of(
        st.tuples(st.just("apart"), st.integers(3, 6)),
        st.tuples(st.just("shed"), st.floats(0.6, 0.9)),
        st.tuples(st.just("towering"), st.floats(1.5, 2.0)),
    ),
)
def test_an_exterior_box_that_is_no_chimney_fails(drawn, stack, at, box):
    """No chimney on the roof, and a box on the ground by a wall that is no chimney stack:
    standing apart from the house (in the wall's line, ``size`` cells beyond its far end: on
    screen two or more empty cells between it and the house), a shed under the eaves
    (``size`` of the walls' height), or a smokestack towering more than a storey over the ridge
    (``size`` of the walls' height above it, on a gable roof with every edge drawn, as
    :func:`test_a_chimney_towering_over_the_house_fails`: where no gable end's peak is seen, over
    a hip roof or behind a stack with the hidden lines removed, the roof's rise is read from the
    line rising from the front corner, which on screen rises more)."""
    area, gable, style = drawn
    what, size = box
    if what == "towering":
        style = replace(style, roof="gable", hidden=True)
    kw = {"apart": {"stack_gap": size}, "shed": {"stack_height": size}, "towering": {"stack_above": size}}[what]
    cells = house_cells(area or DEFAULT_AREA, _stacked(style, stack, at, **kw))
    assume(_house_size(cells) >= LEAST_STACKED)
    assert any(f.startswith("chimney") for f in _failed(_house_case(area, gable), cells))


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_houses(), st.integers(2, 6), st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
def test_a_house_moved_out_of_its_area_fails(drawn, out, way):
    area, gable, style = drawn
    assume(area is not None)
    cells = house_cells(area, style)
    # moved until its outermost cell lies ``out`` cells beyond the area's edge that way
    x0, y0, x1, y1 = area
    dx, dy = way
    if dx:
        edge = max(x for x, _ in cells) - x1 if dx > 0 else x0 - min(x for x, _ in cells)
        shift = (out - edge) * dx, 0
    else:
        edge = max(y for _, y in cells) - y1 if dy > 0 else y0 - min(y for _, y in cells)
        shift = 0, (out - edge) * dy
    moved = [(x + shift[0], y + shift[1]) for x, y in cells]
    assume(all(0 <= v < GRID for c in moved for v in c))
    assert any(f.startswith("area") for f in _failed(_house_case(area, gable), moved))


@settings(derandomize=True, max_examples=20, deadline=None)
@given(fair_houses(), st.sampled_from(["no chimney", "flat top", "no walls"]))
def test_a_house_missing_a_part_fails(drawn, missing):
    area, gable, style = drawn
    # a chimney standing at the far corner of a flat top rises straight from a wall's top, as a
    # hip edge does from the front corner: the flat top then passes (a known limit)
    assume(missing != "flat top" or 0.4 <= style.chimney_at <= 0.6)
    assume(_house_size(house_cells(area or DEFAULT_AREA, style)) >= LEAST_HOUSE)
    style = {
        "no chimney": replace(style, chimney=None),
        "flat top": replace(style, roof="flat"),
        "no walls": replace(style, walls=False),
    }[missing]
    assert _failed(_house_case(area, gable), house_cells(area or DEFAULT_AREA, style))


@settings(derandomize=True, max_examples=40, deadline=None)
# (0 the ridge, 1–3 the edges from the three wall tops a viewer sees: the fourth rises from the
# hidden back corner and is seen only above a low back slope, if at all)
@given(fair_houses(), st.integers(0, 3))
def test_a_house_missing_a_roof_edge_fails(drawn, edge):
    """A gable's rake, a hip edge or the ridge left out, whatever roof the case asks (the audit
    found a gable end's far rake missing on a house asking for no roof type): drawn with the hidden
    lines removed, where no line behind the roof parts or closes its faces instead."""
    area, gable, style = drawn
    style = replace(style, hidden=False)
    whole = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(whole) >= LEAST_HOUSE)
    cut = house_cells(area or DEFAULT_AREA, replace(style, drop_roof_edge=edge))
    # the viewer sees the line gone: cells of it with nothing drawn next to them (a hidden edge
    # leaves none; one drawn beside another, as a hip edge beside a gable's, leaves the other)
    kept = set(cut)
    gone = [c for c in set(whole) - kept if not kept & set(_neighbours(c))]
    assume(len(gone) >= 3)
    # a chimney standing on the ridge closes the faces beside it: a ridge missing there opens
    # none of the faces over the walls' top edges (a limit stated in ``roof_closed``)
    chimney = set(whole) - set(house_cells(area or DEFAULT_AREA, replace(style, chimney=None)))
    assume(edge != 0 or not chimney & {n for c in set(whole) - kept for n in _neighbours(c)})
    assert _failed(_house_case(area, gable), cut)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_houses(), st.integers(0, 3))
def test_a_house_missing_a_box_edge_fails(drawn, edge):
    """A ground line or an eave the viewer sees left out (the audit found either passing: a corner
    edge hanging in the air, a wall face running on into the roof), with the hidden lines drawn
    or not."""
    area, gable, style = drawn
    if style.strokes == "faces":  # (a loop round every face would draw the edge again)
        style = replace(style, strokes="chain")
    assume(_house_size(house_cells(area or DEFAULT_AREA, style)) >= LEAST_HOUSE)
    cut = house_cells(area or DEFAULT_AREA, replace(style, drop_box_edge=edge))
    assert any(f.startswith("box_edges") for f in _failed(_house_case(area, gable), cut))


@settings(derandomize=True, max_examples=40, deadline=None)
# (1, 2) the near gable end's rakes; (0, 3, 4) the ridge and the far gable end's rakes
@given(fair_houses(), st.sampled_from([(1, 2), (0, 3, 4)]))
def test_a_gable_roof_missing_a_gable_end_fails(drawn, edges):
    """A gable roof with one of its ends left out, drawn with every hidden line (the audit found
    both passing whatever roof the case asks: the hidden lines close a face over every eave): the
    near gable end without its two rakes, nothing rising from the front corner's top; or only the
    near gable triangle standing on the box, the ridge and the far gable end left out, nothing
    rising from the top of the other face's far wall edge."""
    area, gable, style = drawn
    style = replace(style, roof="gable", hidden=True, strokes="chain" if style.strokes == "faces" else style.strokes)
    # over a plan about as long as deep or shorter, the hidden back corner's edge stands by the
    # front corner's column, and the chimney's base edge up the slope runs along the near rake from
    # beside the front corner's top: either rises from there as a rake or hip edge would (limits
    # stated in ``roof_closed``). So the plan 1.3 to 1.9 times as long as deep, the chimney in
    # the far half of the slope
    style = replace(style, length=1.3 + (style.length - 0.8) * 0.6 / 1.1)
    style = replace(style, chimney_at=max(style.chimney_at, 1.0 - style.chimney_at))
    # on a smaller house the chimney's edges crowd the far wall top and one can stand for the far
    # gable's rake there (2 of 190 houses of 22 to 27 cells across in ``bench/house_sweep.py``'s
    # draw): a house under 28 cells across is drawn in the case without an area instead
    if _house_size(house_cells(area or DEFAULT_AREA, style)) < 28:
        area = None
    assume(_house_size(house_cells(DEFAULT_AREA if area is None else area, style)) >= 28)
    cut = house_cells(area or DEFAULT_AREA, replace(style, drop_roof_edges=edges))
    assert any(f.startswith("roof_closed") for f in _failed(_house_case(area, gable), cut))


def _ridge_left_empty(whole: list[tuple[int, int]], cut: list[tuple[int, int]], chimney: set[tuple[int, int]]) -> float:
    """How long a stretch of the ridge (the cells ``whole`` has and ``cut`` has not), outside the
    chimney's columns, lies farther from every cell of ``cut`` than ``ridge_tol`` and a cell more
    (the ridge ``roof_closed`` looks for starts at a drawn cell of the peak and runs along the
    vector between two wall feet: it may lie a cell off the exact one)."""
    t = HOUSE_THRESHOLDS
    kept = np.array(sorted(set(cut)), dtype=float)
    gone = np.array(sorted(set(whole) - set(cut)), dtype=float).reshape(-1, 2)
    if chimney:
        xs = [x for x, _ in chimney]
        gone = gone[(gone[:, 0] < min(xs) - t.corner_tol) | (gone[:, 0] > max(xs) + t.corner_tol)]
    if not len(gone):
        return 0.0
    far = np.sqrt(((gone[:, None, :] - kept[None, :, :]) ** 2).sum(axis=-1)).min(axis=1) > t.ridge_tol + 1.0
    # runs of far cells next to each other along the ridge (sorted by x: it rises under 45°)
    longest, start = 0.0, None
    for i in range(len(gone)):
        if not far[i]:
            start = None
            continue
        if start is None or gone[i, 0] - gone[i - 1, 0] > 1:
            start = i
        longest = max(longest, float(np.hypot(*(gone[i] - gone[start]))) + 1.0)
    return longest


@settings(derandomize=True, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(fair_houses())
def test_a_house_without_its_ridge_fails(drawn):
    """A gable roof with its ridge alone left out, with the hidden lines drawn or not (the audit
    found it passing: the back eave and the far gable end's hidden rake close the faces over the
    eaves), where the ridge's place is left empty: a stretch of it longer than ``ridge_gap`` and a
    cell at either end, outside the chimney's columns, lies more than a cell past ``ridge_tol``
    from every line left (where the back eave or the far gable end's hidden rake runs within that
    of it, over a roof pitched near 45°, nothing tells the ridge is gone: a limit stated in
    ``roof_closed``). The same house with its ridge passes."""
    area, gable, style = drawn
    style = replace(style, roof="gable", strokes="chain" if style.strokes == "faces" else style.strokes)
    # as for a gable end left out (above): a nearly square plan puts the hidden back corner's
    # edge in the front corner's column, and a chimney by the near gable end crowds its peak,
    # where the front corner's rake is then not read as the gable's (limits stated in
    # ``roof_closed``): the plan 1.3 to 1.9 times as long as deep, the chimney in the far half
    style = replace(style, length=1.3 + (style.length - 0.8) * 0.6 / 1.1)
    style = replace(style, chimney_at=max(style.chimney_at, 1.0 - style.chimney_at))
    # and the roof rising 0.75 to 0.9 of the depth, well over 45° (half the depth): the back eave
    # lies off the ridge's line on screen by about 0.9 of a cell for every cell the rise differs
    # from half the depth, so over a roof nearer 45° mostly within ``ridge_tol`` of it
    style = replace(style, rise=0.75 + (style.rise - 0.4) * 0.3)
    whole = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(whole) >= LEAST_HOUSE)
    case = _house_case(area, gable)
    assert _failed(case, whole) == []
    cut = house_cells(area or DEFAULT_AREA, replace(style, drop_roof_edge=0))
    chimney = set(whole) - set(house_cells(area or DEFAULT_AREA, replace(style, chimney=None)))
    assume(_ridge_left_empty(whole, cut, chimney) > HOUSE_THRESHOLDS.ridge_gap + 2.0)
    assert any(f.startswith("roof_closed") for f in _failed(case, cut))


# found by the audit (issue 29): the ridge left out, every hidden line drawn, over a roof rising
# 0.6 to 0.7 of the depth (the back eave a cell or two off the ridge's place on screen), or with
# the chimney by a gable end, whose lines crowd the peak: looked for from a cell of them read as
# the peak, the ridge ran along the back eave
@pytest.mark.parametrize(
    "area, style",
    [
        (None, HouseStyle(proj="30", chimney_at=0.2, rise=0.7)),
        (None, HouseStyle(proj="30", chimney_at=0.3, rise=0.6)),
        (None, HouseStyle(proj="30", chimney_at=0.8, rise=0.6)),
        ((10, 6, 40, 43), HouseStyle(proj="2:1", chimney_at=0.3, rise=0.7)),
        ((10, 6, 40, 43), HouseStyle(proj="30", chimney_at=0.6, rise=0.6)),
        ((10, 6, 40, 43), HouseStyle(proj="30", chimney_at=0.7, rise=0.6)),
        ((10, 6, 40, 43), HouseStyle(proj="30", chimney_at=0.8, rise=0.6)),
    ],
)
def test_a_house_without_its_ridge_fails_by_the_chimney_or_nearer_45_degrees(area, style):
    """A gable roof with its ridge alone left out, the hidden lines drawn, over a roof nearer 45°
    or with the chimney by the near gable end's peak; the same house with its ridge passes."""
    style = replace(style, length=1.5, strokes="chain")
    case = _house_case(area, True)
    assert _failed(case, house_cells(area or DEFAULT_AREA, style)) == []
    cut = house_cells(area or DEFAULT_AREA, replace(style, drop_roof_edge=0))
    assert any(f.startswith("roof_closed") for f in _failed(case, cut))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(
    fair_houses(), st.sampled_from([(2, 0), (3, 0), (-2, 0), (0, 2), (0, 3), (2, 2), (1, 3), (2, -1), (4, 0), (-3, 1)])
)
def test_a_house_drawn_twice_a_few_cells_apart_fails(drawn, shift):
    """The whole wire frame drawn again a few cells over: every edge doubled (the audit's class:
    moved two or three columns, it passed every check)."""
    area, gable, style = drawn
    cells = house_cells(area or DEFAULT_AREA, style)
    assume(_house_size(cells) >= LEAST_HOUSE)
    dx, dy = shift
    again = [(x + dx, y + dy) for x, y in cells]
    assume(all(0 <= v < GRID for c in again for v in c))
    assert _failed(_house_case(area, gable), cells + again)


def _neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = cell
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


# --------------------------------------------------------------------------------------------------
# Stick figure


@settings(derandomize=True, max_examples=80, deadline=None)
@given(fair_figures())
# hands on the hips (the audit's class)
@example(((15, 4, 35, 46), StickStyle(arms="hips")))
@example((None, StickStyle(arms="hips", arm_strokes=1, connect="4")))
# found here: both hands back on the hips from one stroke through the shoulder (two arms, not
# one); a neck folded into a lowered arm by the simplification, drawn in one 4-connected walk;
# an arm hanging from a shoulder four cells above the hip, beside a leg; legs close together
# leaving the hip within the torso's continuation
@example(((0, 0, 12, 38), StickStyle(arms="hips", arm_strokes=1, arm_reach=1.0, torso_share=0.5)))
@example((None, StickStyle(arms="lowered", arm_strokes=1, shoulder=0.22, arm_reach=0.75, walk=True, connect="4")))
@example(((30, 22, 46, 47), StickStyle(arms="lowered", arm_strokes=1, arm_reach=0.625, legs_spread=0.75, fill=0.75)))
@example((None, StickStyle(neck="junction", arms="lowered", legs_spread=0.2, torso_share=0.54, connect="4")))
def test_every_fair_stick_figure_passes(drawn):
    area, style = drawn
    cells = stick_cells(area or DEFAULT_AREA, style)
    assert _failed(_stick_case(area), cells) == []


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_figures(), st.integers(2, 6))
def test_a_head_floating_above_the_torso_fails(drawn, lift):
    area, style = drawn
    # from a torso starting right under the head: ``lift`` empty rows between them
    style = replace(style, neck="touch", head_lift=lift)
    cells = stick_cells(area or DEFAULT_AREA, style)
    assume(min(y for _, y in cells) >= 0)
    assert any(f.startswith("head_above_torso") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_figures(), st.sampled_from([-1, 1]))
def test_a_head_beside_the_neck_fails(drawn, side):
    """The head moved sideways by its radius: the torso starts at its bottom corner and runs down
    beside it (the audit found the body moved so, the torso leaving the head's side, passing)."""
    area, style = drawn
    r = _stick_layout(area or DEFAULT_AREA, style)["r"]
    cells = stick_cells(area or DEFAULT_AREA, replace(style, head_aside=side * r))
    assume(all(0 <= v < GRID for c in cells for v in c))
    assert _failed(_stick_case(area), cells)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_figures(), st.integers(5, 7))
def test_a_square_head_fails(drawn, half_side):
    """A head drawn as a square with its sides along the grid, a side of 10 cells or more, where a
    round head is asked: its sides are longer than any circle of its size shows in one row."""
    area, style = drawn
    style = replace(style, head_shape="square", head_r=half_side, face=False)
    cells = stick_cells(area or DEFAULT_AREA, style)
    assume(all(0 <= v < GRID for c in cells for v in c))
    assert any(f.startswith("head_flat") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.sampled_from(["spike", "tab"]), st.integers(4, 6), st.floats(-220, 40))
# the audit's: a tab three cells out at three o'clock
@example(((15, 4, 35, 46), StickStyle()), "tab", 3, 0.0)
@example((None, StickStyle(head_start="right", head_dir="ccw")), "spike", 3, 180.0)
def test_a_spike_or_tab_on_the_head_fails(drawn, kind, length, angle):
    """A bump drawn into the head's outline anywhere but where the neck leaves it (the bottom
    quarter), touching nothing else: the ring itself stays round, so only ``head_bumps`` sees it."""
    area, style = drawn
    style = replace(style, face=False, hat=None, balloon=False)
    bumped = stick_strokes(area or DEFAULT_AREA, replace(style, head_bump=(kind, length, angle)))
    plain = set(stick_cells(area or DEFAULT_AREA, style))
    bump = {c for stroke in bumped for c in stroke} - plain
    assume(all(0 <= v < GRID for c in bump for v in c))
    body = plain - set(stick_strokes(area or DEFAULT_AREA, style)[0])
    assume(min(max(abs(a - x), abs(b - y)) for a, b in bump for x, y in body) > 2)  # alone on the head
    cells = [c for stroke in bumped for c in stroke]
    assert any(f.startswith("head_bumps") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_figures(), st.sampled_from(["arms", "legs"]), st.integers(3, 5))
def test_limbs_off_the_torso_fail(drawn, which, gap):
    area, style = drawn
    # limbs leaving the torso's own cell, moved ``gap`` cells off it: ``gap − 1`` empty cells
    style = replace(style, walk=False, arms="horizontal" if style.arms == "hips" else style.arms)
    style = replace(style, arm_gap=gap) if which == "arms" else replace(style, leg_gap=gap)
    cells = stick_cells(area or DEFAULT_AREA, style)
    assume(all(0 <= v < GRID for c in cells for v in c))
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.integers(-2, 2))
def test_a_figure_standing_on_one_straight_leg_passes(drawn, straight):
    """One leg straight down from the hip (its foot up to two columns aside), the other stepping
    out: the line from the head runs on into the straight leg (the audit's class: the leg was read
    as more torso, and the other leg as an arm)."""
    area, style = drawn
    style = replace(style, straight_leg=straight)
    layout = _stick_layout(area or DEFAULT_AREA, style)
    # the stepping leg leaves the straight one at 1 in 3 or more, and ends 3 columns or more from
    # it (closer, the two legs are one thick line parting at the foot)
    (hx, hy), (fx, fy) = layout["hip"], layout["feet"][0 if straight >= 0 else 1]
    assume(abs(fx - hx) >= max(3, (fy - hy) / 3))
    assert _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, style)) == []


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures())
def test_a_figure_with_a_face_passes(drawn):
    """Eyes and a mouth inside the head: drawn inside the loop, touching none of it, they are no
    part of the head's ring (the audit's class: the ring took them in and was no circle). On a
    head of radius 3 the eyes stand two cells apart, a line with a one-cell slip: left out."""
    area, style = drawn
    assume(_stick_layout(area or DEFAULT_AREA, style)["r"] >= 4)
    head, *face = stick_strokes(area or DEFAULT_AREA, replace(style, face=True, order=("head",)))
    # the face touches nothing of the head: an empty cell between (a mouth on the chin's row
    # above walls in the cells under it, a loop of its own); and the pen jumps three cells or
    # more onto it (a jump of two from the head's last cell is a line with a one-cell slip)
    assume(all(max(abs(x - u), abs(y - v)) >= 2 for part in face for x, y in part for u, v in head))
    ends = [head[-1]] + [cell for part in face for cell in (part[0], part[-1])]
    assume(all(max(abs(p[0] - q[0]), abs(p[1] - q[1])) >= 3 for p, q in zip(ends[0::2], ends[1::2])))
    assert _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, replace(style, face=True))) == []


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.sampled_from(["arm", "leg"]), st.floats(0.0, 1.0))
def test_a_limb_cut_to_a_stub_fails(drawn, which, share):
    """Both arms or both legs cut to a stub, 2 cells up to the longest a person still sees as a
    stub: a leg under 0.4 of the torso; an arm under 0.3 of it that reaches out under 0.4 of the
    room the area leaves beside the shoulder, less a cell (the audit's class: 2- to 4-cell limbs on a figure
    42 rows tall passed)."""
    area, style = drawn
    assume(style.arms != "hips" and not style.walk)
    layout = _stick_layout(area or DEFAULT_AREA, style)
    torso = layout["hip"][1] - layout["neck"][1]
    if which == "leg":
        longest = int(0.4 * torso)
    else:
        x0, _, x1, _ = area or (0, 0, GRID - 1, GRID - 1)
        room = min(layout["shoulder"][0] - x0, x1 - layout["shoulder"][0])
        longest = int(min(0.3 * torso, 0.4 * room - 1))
    assume(longest >= 2)
    length = 2 + round(share * (longest - 2))
    cut = replace(style, **{f"{which}_len": length})
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, cut)))


@settings(derandomize=True, max_examples=25, deadline=None)
@given(fair_figures())
def test_arms_drawn_through_the_head_fail(drawn):
    """Each arm from the shoulder up through the head and out above it: lines crossing the head,
    which the prompt forbids (the audit's class: arms raised through the head's lower half)."""
    area, style = drawn
    assume(style.arms != "hips" and not style.walk)
    crossed = stick_cells(area or DEFAULT_AREA, replace(style, arms_through_head=True))
    assume(min(y for _, y in crossed) >= 0)
    assert _failed(_stick_case(area), crossed)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_a_head_ring_drawn_thick_in_places_crosses_nothing(drawn, dx, dy):
    """Every point of the head's circle rounded to its cell, about a centre anywhere in its cell,
    leaves the ring two cells thick where it runs diagonally: the cells the loop's hole does not
    touch are the head's stroke too, and no line crossing it (the previous audit's fair figures
    failed head_clear so)."""
    area, style = drawn
    layout = _stick_layout(area or DEFAULT_AREA, style)
    (hx, hy), r = layout["head"], layout["r"]
    head = rasters.rasterise(rasters.circle_curve(hx + dx - 0.5, hy + dy - 0.5, r, 90.0, True), "supercover")
    body = stick_strokes(area or DEFAULT_AREA, replace(style, order=("torso", "arms", "legs")))
    cells = [*head, *(c for part in body for c in part)]
    assert not [f for f in _failed(_stick_case(area), cells) if f.startswith("head_clear")]


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.integers(4, 7))
def test_a_tail_under_the_hip_fails(drawn, length):
    """A line of 4 to 7 cells straight down from the hip (3 is within the cell a 4-connected leg may
    leave the torso below its end, plus a stub's 2), between legs spread 1 in 3 or wider: the
    torso running on below the legs (its end lies near a leg's line, but the leg leaves another way:
    a straight leg is told from a tail by leaving the hip the way the line runs)."""
    area, style = drawn
    # drawn 8-connected (a 4-connected leg's staircase fills the cells beside the tail's first
    # ones: the two read as one line parting lower down), legs spread 1 in 3 or wider
    style = replace(style, walk=False, connect="8", legs_spread=max(style.legs_spread, 0.45))
    layout = _stick_layout(area or DEFAULT_AREA, style)
    (hx, hy), ((lx, fy), (rx, _)) = layout["hip"], layout["feet"]
    assume(min(hx - lx, rx - hx) >= (fy - hy) / 3 and fy - hy > length + 2)
    cells = stick_cells(area or DEFAULT_AREA, replace(style, tail=length))
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.integers(0, 10_000))
def test_a_third_leg_fails(drawn, pick):
    """A third leg from the hip, its foot on the feet's row three cells or more from the others
    (between them, straight down the middle, or out beyond one): one a person counts. (The audit's
    class: a third leg a few degrees from a leg was taken for that leg drawn twice, and one
    straight down for the torso running on.)"""
    area, style = drawn
    (lx, _), (rx, _) = _stick_layout(area or DEFAULT_AREA, style)["feet"]
    places = [x for x in range(lx - 6, rx + 7) if min(abs(x - lx), abs(x - rx)) >= 3 and 0 <= x < GRID]
    x = places[pick % len(places)]
    style = replace(style, n_legs=3, extra_at=(x - lx) / (rx - lx))
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, style)))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(), st.integers(3, 5), st.sampled_from([-1, 1]), st.integers(1, 4))
def test_a_second_head_beside_the_head_fails(drawn, radius, side, gap):
    """The audit's class: a second round head beside the first passed every check (the head was
    the topmost loop, and nothing looked at the others). A loop an arm bent back to the hip closes
    with the torso is no head: those figures are in test_every_fair_stick_figure_passes."""
    area, style = drawn
    layout = _stick_layout(area or DEFAULT_AREA, style)
    (hx, hy), r = layout["head"], layout["r"]
    center = (hx + side * (r + radius + gap), hy)
    assume(all(c - radius >= 0 and c + radius < GRID for c in center))
    second = circle_loop(center, radius)
    # a hand on a loop under three quarters of the head's size holds it up: a balloon (the limit
    # StickThresholds.held_under states)
    assume(radius >= 0.75 * r or all(min(math.dist(h, c) for c in second) > 1.5 for h in layout["hands"]))
    cells = stick_cells(area or DEFAULT_AREA, style) + second
    # (one_head, or, where the second head stands level with the first and left of it, the head
    # taken is that one, and no torso hangs from it)
    assert _failed(_stick_case(area), cells)


@settings(derandomize=True, max_examples=20, deadline=None)
@given(fair_figures(), st.sampled_from(["head", "torso", "arm", "leg"]))
def test_a_stick_figure_missing_a_part_fails(drawn, missing):
    area, style = drawn
    style = replace(style, walk=False)
    style = {
        "head": replace(style, has_head=False),
        "torso": replace(style, has_torso=False),
        "arm": replace(style, n_arms=1),
        "leg": replace(style, n_legs=1),
    }[missing]
    assert _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, style))


@settings(derandomize=True, max_examples=20, deadline=None)
@given(fair_figures(), st.floats(0.3, 0.5))
def test_a_figure_filling_a_corner_of_its_area_fails(drawn, fill):
    area, style = drawn
    assume(area is not None)
    cells = stick_cells(area, replace(style, fill=fill, arm_reach=min(style.arm_reach, fill)))
    # (the drawer scales the figure's height: in a narrow area its arms may still span the width)
    x0, y0, x1, y1 = area
    assume(max(x for x, _ in cells) - min(x for x, _ in cells) + 1 < 0.55 * (x1 - x0 + 1))
    assert any(f.startswith("area_fill") for f in _failed(_stick_case(area), cells))


# found by a sweep of hip-roofed houses asked for a gable roof: a wire-frame hip roof (hidden lines
# drawn) whose long side has lines crossing a diagonal from the front corner to the ridge's middle,
# and a vertical hidden edge along it; the old test of "drawn lines" (every point within a cell of a
# drawn cell) took that diagonal for a gable's rake. A rake is an edge of its own.
HIP_WITH_HIDDEN_LINES = HouseStyle(
    proj="2:1",
    roof="hip",
    hidden=True,
    chimney=0.55,
    chimney_slope="far",
    chimney_at=0.49,
    length=1.22,
    height=0.73,
    rise=0.64,
    strokes="edges",
    fill=0.86,
    align_x=0.76,
    align_y=0.0,
)


def test_a_hip_roof_with_its_hidden_lines_is_no_gable():
    area = (10, 6, 40, 43)
    failed = _failed(_house_case(area, True), house_cells(area, HIP_WITH_HIDDEN_LINES))
    assert any(f.startswith("gable") for f in failed)


# found by the same sweep: the line from a face's top corner to a point above its middle (a
# chimney's corner, a hip edge's end) was taken for a rake because two edges joined its ends, an
# eave and then a hip edge round the face's corner: neither runs along the line
HIPS_JOINED_ROUND_A_CORNER = {
    "true-isometry": HouseStyle(
        proj="30",
        roof="hip",
        chimney=0.65,
        chimney_at=0.39,
        length=1.48,
        height=0.62,
        rise=0.88,
        mirror=True,
        strokes="faces",
        fill=0.89,
        align_x=0.22,
        align_y=0.98,
    ),
    # a chimney's top corner above the short face's middle, a hip edge and the chimney's own
    # edges running along the lines to it: no vertical edge hangs from a gable's apex
    "chimney-corner": HouseStyle(
        proj="30",
        roof="hip",
        chimney=0.56,
        chimney_at=0.59,
        length=1.53,
        height=0.75,
        rise=0.43,
        strokes="faces",
        fill=0.89,
        align_x=0.54,
        align_y=0.85,
    ),
    "pixel-isometry": HouseStyle(
        roof="hip",
        chimney=0.56,
        chimney_at=0.32,
        length=1.39,
        height=0.67,
        rise=0.45,
        mirror=True,
        strokes="edges",
        fill=0.94,
        align_x=0.69,
        align_y=0.85,
    ),
}


@pytest.mark.parametrize("style", HIPS_JOINED_ROUND_A_CORNER.values(), ids=HIPS_JOINED_ROUND_A_CORNER.keys())
def test_a_hip_roof_joined_round_a_corner_is_no_gable(style):
    area = (10, 6, 40, 43)
    failed = _failed(_house_case(area, True), house_cells(area, style))
    assert any(f.startswith("gable") for f in failed)


@settings(derandomize=True, max_examples=150, deadline=None)
@given(
    st.sampled_from([(m, k) for m in rasters.METHODS for k in ((24, 36) if m in ("keypoints", "dda") else (36,))]),
    st.floats(2.5, 9.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 360.0),
    st.booleans(),
)
# the audit's class: a ring of radius 3 about (25, 8.5) is 7 cells wide and 6 tall, an order-2
# wave a circle about a cell never shows, and the head's limits (a centred circle's) failed it
@example(("rounded", 36), 3.0, 0.0, 0.5, 90.0, True)
def test_a_round_head_about_any_centre_passes(way, radius, dx, dy, start, clockwise):
    """Every fair ring, by any method, about any point of a cell, is a round head (``head``,
    ``head_near``); bench/head_envelope.py sweeps the same on a lattice."""
    method, keypoints = way
    curve = rasters.circle_curve(25 + dx, 8 + radius + dy, radius, start, clockwise, step=0.05)
    ring = np.array(rasters.rasterise(curve, method, keypoints=keypoints), dtype=float)
    fit = CircleModel.from_estimate(ring)
    card = Scorecard()
    _check_head(card, ring, fit, STICK_THRESHOLDS)
    assert [c.describe() for c in card.checks if c.name in ("head", "head_near") and not c.passed] == []


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(12, 34), st.sampled_from(["profile", "sitting"]))
def test_a_figure_seen_from_the_side_passes(drawn, pose):
    """Both legs one way: walking seen from the side, or sitting with the thighs forward and the
    shins down (the audit's class: a leg on each side was asked, and the sitting figure failed)."""
    area, style = drawn
    style = replace(style, legs_pose=pose)
    layout = _stick_layout(area or DEFAULT_AREA, style)
    x0, _, x1, _ = area or (0, 0, GRID - 1, GRID - 1)
    assume(all(x0 <= x <= x1 for x, _ in layout["feet"] + layout["knees"]))
    # thighs of a few cells share most of their cells
    if pose == "sitting":
        (hx, hy), (kx, ky) = layout["hip"], layout["knees"][0]
        assume(math.dist((hx, hy), (kx, ky)) >= 6)
        # a hand hanging down to within two rows of the hip rests on the thigh drawn forward from it
        assume(all(y < hy - 2 for _, y in layout["hands"]))
    assert _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, style)) == []


@settings(derandomize=True, max_examples=40, deadline=None)
@given(fair_figures(16, 36), st.sampled_from(["hat-on", "hat-above", "balloon"]))
def test_a_figure_wearing_a_hat_or_holding_a_balloon_passes(drawn, thing):
    """A top hat on the head, or a cell above it, stands higher than the head, and a balloon held
    up may too: the figure is read from the loop that makes one (the audit's class: the topmost
    loop was taken for the head). Room above the head is left for them, inside the area."""
    area, style = drawn
    assume(thing != "balloon" or style.arms != "hips")  # (a hand on the hip holds no string)
    style = replace(style, hat={"hat-on": 0, "hat-above": 1}.get(thing), balloon=thing == "balloon")
    x0, y0, x1, y1 = area or DEFAULT_AREA
    below = (x0, y0 + 10, x1, y1)  # the figure drawn lower in the area: the hat's room above it
    cells = stick_cells(below, style)
    layout = _stick_layout(below, style)
    assume(layout["r"] >= 4)
    # the balloon's string clear of the head
    assume(thing != "balloon" or layout["hands"][-1][0] - layout["head"][0] - layout["r"] >= 4)
    assume(all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in cells))
    assert _failed(_stick_case(area), cells) == []


@settings(derandomize=True, max_examples=30, deadline=None)
@given(fair_figures(), st.floats(0.2, 0.5))
def test_a_leg_stopping_in_mid_air_fails(drawn, share):
    """One leg cut to half its length or less, its foot in mid-air above the other's (the audit's
    class: a leg as long as half the torso passed as a leg)."""
    area, style = drawn
    style = replace(style, walk=False, one_leg_share=share)
    layout = _stick_layout(area or DEFAULT_AREA, style)
    assume(math.dist(layout["hip"], layout["feet"][-1]) * share >= 3)
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), stick_cells(area or DEFAULT_AREA, style)))


@settings(derandomize=True, max_examples=30, deadline=None)
@given(fair_figures(26, 24), st.integers(0, 3), st.integers(-6, 6))
def test_two_figures_side_by_side_fail(drawn, gap, drop):
    """Two whole stick figures where one person was asked, side by side in the asked area (the
    second ``drop`` rows lower), each of which passes alone (the audit's class: nothing counted
    figures)."""
    area, style = drawn
    x0, y0, x1, y1 = area or DEFAULT_AREA
    mid = (x0 + x1) // 2
    left = stick_cells((x0, y0, mid - 1 - gap // 2, y1), style)
    right = [(x, y + drop) for x, y in stick_cells((mid + 1 + (gap + 1) // 2, y0, x1, y1), style)]
    assume(_failed(_stick_case(area), left) == [] and _failed(_stick_case(area), right) == [])
    # (one_head says it where the heads stand level, one_figure where they do not)
    assert any(f.startswith(("one_figure", "one_head")) for f in _failed(_stick_case(area), left + right))


@settings(derandomize=True, max_examples=30, deadline=None)
@given(fair_figures(), st.sampled_from(["raised", "bar"]))
def test_legs_that_do_not_go_down_fail(drawn, how):
    """Legs raised from the hip like a second pair of arms, or drawn as one bar across the hip (a
    cross, not a figure): the audit's classes, which passed as two legs."""
    area, style = drawn
    style = replace(style, walk=False, n_legs=0)
    layout = _stick_layout(area or DEFAULT_AREA, style)
    (hx, hy), ((lx, _), (rx, _)) = layout["hip"], layout["feet"]
    reach = max(4, (rx - lx) // 2)
    if how == "raised":
        legs = polyline([(hx - reach, hy - reach), (hx, hy), (hx + reach, hy - reach)], "8")
    else:
        legs = polyline([(hx - reach, hy), (hx + reach, hy)], "8")
    cells = stick_cells(area or DEFAULT_AREA, style) + legs
    assert any(f.startswith("limbs") for f in _failed(_stick_case(area), cells))


@settings(derandomize=True, max_examples=30, deadline=None)
@given(fair_figures(), st.integers(2, 4), st.sampled_from(["top-left", "top-right", "bottom-left", "bottom-right"]))
def test_a_round_object_away_from_the_head_passes(drawn, radius, corner):
    """A sun in a corner, a ball on the ground: a round loop far from the head (over four head
    radii) and touching nothing is an object beside the figure, not a second head (the audit's
    class: any round loop apart from the body was one)."""
    area, style = drawn
    x0, y0, x1, y1 = area or DEFAULT_AREA
    cx = x0 + radius if corner.endswith("left") else x1 - radius
    cy = y0 + radius if corner.startswith("top") else y1 - radius
    layout = _stick_layout(area or DEFAULT_AREA, style)
    assume(math.dist((cx, cy), layout["head"]) > 4 * layout["r"] + radius)
    figure = stick_cells(area or DEFAULT_AREA, style)
    thing = circle_loop((cx, cy), radius)
    assume(min(math.dist(p, q) for p in thing for q in figure) > 2)
    assert _failed(_stick_case(area), figure + thing) == []
