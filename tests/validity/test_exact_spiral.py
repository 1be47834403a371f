"""The spiral's verdicts against the asked spiral law, proven by property (issue 29).

A spiral prompt fixes the center, the number of laps, the spacing between them, the outer end and
the way round; it leaves free where the first lap leaves the center cell. Every fair spiral of that
law — the inner end 0 to 1 cell out (``r = r0 + kθ``, the asked laps and outer end), drawn by any
method of ``tests/catalogue/rasters.py`` — passes; every defect a person sees on one — a spike out and
back, a tab, a gap, a lap too many or too few, a lap bulging onto the next — fails.

The drawings are the independent catalogue's (``tests/catalogue/rasters.py``), not the scorer's.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from shape_asserts.cases import Case
from shape_asserts.exceptions import CaseError
from shape_asserts.families.registry import get_family
from shape_asserts.geometry.drawing import Drawing
from tests.catalogue import rasters

SETTINGS = settings(max_examples=40, deadline=None)


def _case(turns, spacing, angle, direction, inward, center=(25, 25)) -> Case:
    raw = dict(
        family="spiral",
        center=list(center),
        turns=turns,
        spacing=spacing,
        angle=angle,
        direction=direction,
        inward=inward,
    )
    fam = get_family("spiral")
    try:
        return Case(id="hypothesis", family=fam.name, params=MappingProxyType(fam.params(raw)))
    except CaseError:  # the spiral leaves the grid: a case file could not ask it
        assume(False)
        raise


def _curve(case: Case, inner: float, turns: float | None = None) -> list[tuple[float, float]]:
    """The spiral the case asks (``turns`` laps between the same two ends, when given), its first
    lap leaving the center ``inner`` cells out, in drawing order from the asked start."""
    p = case.params
    cx, cy = p["center"]
    laps = p["turns"] if turns is None else turns
    outer = p["spacing"] * p["turns"]
    # drawn inward one way, the curve traced outward turns the other way
    clockwise = (p["direction"] == "cw") != p["inward"]
    curve = [(float(cx), float(cy))] + rasters.spiral_curve(
        cx, cy, inner, (outer - inner) / laps, laps, p["angle"], clockwise, True
    )
    return curve[::-1] if p["inward"] else curve


def _drawn(curve, method: str, keypoint_step: float) -> list[tuple[int, int]]:
    length = sum(math.dist(a, b) for a, b in zip(curve, curve[1:]))
    return rasters.rasterise(curve, method, keypoints=max(8, round(length / keypoint_step)), closed=False)


def _failed(case: Case, cells) -> set[str]:
    result = case.score(Drawing.from_points(cells, grid_size=case.grid_size))
    return {c.name for c in result.failed}


def _away_from_center(case: Case, cells, at: int) -> bool:
    cx, cy = case.params["center"]
    return max(abs(cells[at][0] - cx), abs(cells[at][1] - cy)) > 2


def _clear_of_center(case: Case, cells, defective) -> bool:
    """Whether every cell a defect adds stays more than 2 cells from the center: an inward spiral
    ends there, and a tab reaching it runs into the drawing's own last cells."""
    cx, cy = case.params["center"]
    drawn = set(cells)
    return all(max(abs(x - cx), abs(y - cy)) > 2 for x, y in defective if (x, y) not in drawn)


laws = dict(
    turns=st.sampled_from([1, 1.5, 2, 2.5, 3, 3.5, 4]),
    spacing=st.integers(3, 8),
    angle=st.integers(0, 359),
    direction=st.sampled_from(["cw", "ccw"]),
    inward=st.booleans(),
)


@SETTINGS
@given(
    **laws,
    inner=st.floats(0.0, 1.0),
    method=st.sampled_from(rasters.METHODS),
    keypoint_step=st.floats(2.0, 3.0),
)
# the audit's class: a start on the center cell, the first lap leaving it a cell out, the asked laps
@example(turns=3, spacing=6, angle=0, direction="cw", inward=False, inner=1.0, method="supercover", keypoint_step=3.0)
@example(turns=4, spacing=5, angle=0, direction="ccw", inward=False, inner=0.5, method="rounded", keypoint_step=3.0)
def test_every_fair_spiral_of_the_asked_law_passes(
    turns, spacing, angle, direction, inward, inner, method, keypoint_step
):
    case = _case(turns, spacing, angle, direction, inward)
    cells = _drawn(_curve(case, inner), method, keypoint_step)
    # a curve reaching x = 49.5 is on the grid, its every-cell-it-touches drawing one column off it
    assume(all(0 <= v <= 49 for cell in cells for v in cell))
    assert _failed(case, cells) == set()


@SETTINGS
@given(**laws, inner=st.floats(0.0, 1.0), method=st.sampled_from(rasters.METHODS), place=st.floats(0.2, 0.95))
def test_a_spike_out_and_back_fails(turns, spacing, angle, direction, inward, inner, method, place):
    case = _case(turns, spacing, angle, direction, inward)
    cells = _drawn(_curve(case, inner), method, 3.0)
    at = int(place * (len(cells) - 1))
    assume(_away_from_center(case, cells, at))
    for length in (3, 4):
        for outward in (True, False):
            spiked = rasters.spike(cells, at, length, outward=outward)
            if _clear_of_center(case, cells, spiked):
                assert _failed(case, spiked), (length, outward)


@SETTINGS
@given(
    **{**laws, "spacing": st.integers(6, 8)},
    inner=st.floats(0.0, 1.0),
    method=st.sampled_from(rasters.METHODS),
    place=st.floats(0.2, 0.9),
    width=st.integers(2, 4),
    height=st.integers(3, 4),
    outward=st.booleans(),
)
def test_a_tab_fails(turns, spacing, angle, direction, inward, inner, method, place, width, height, outward):
    """Tabs 3 or 4 cells high: 3 · cos 45° = 2.1 cells across the curve even on a diagonal stretch.
    Laps are drawn 6 or more apart here: a tab reaching the next lap is the laps touching.

    Found by a random run: an inward tab half-way round a one-lap spiral reached the centre, where
    the drawing itself ends (the tab then runs into its own last cells); tabs stay clear of it."""
    case = _case(turns, spacing, angle, direction, inward)
    cells = _drawn(_curve(case, inner), method, 3.0)
    at = int(place * (len(cells) - 1))
    assume(_away_from_center(case, cells, at))
    tabbed = rasters.tab(cells, at, width, height, outward=outward)
    assume(_clear_of_center(case, cells, tabbed))
    assert _failed(case, tabbed)


@SETTINGS
@given(**laws, inner=st.floats(0.0, 1.0), method=st.sampled_from(rasters.METHODS), place=st.floats(0.1, 0.9))
# found by a random run: a one-lap spiral 3 apart turns within three cells; two cells out there
# leave their neighbours touching (three leave a gap, which fails)
@example(turns=1, spacing=3, angle=104, direction="cw", inward=True, inner=0.5, method="supercover", place=0.25)
def test_a_gap_of_two_cells_or_more_fails(turns, spacing, angle, direction, inward, inner, method, place):
    """One cell left out of a stair step leaves its neighbours touching diagonally: no gap to see;
    nor do two where a small spiral's first lap turns within three cells."""
    case = _case(turns, spacing, angle, direction, inward)
    cells = _drawn(_curve(case, inner), method, 3.0)
    at = int(place * (len(cells) - 1))
    assume(_away_from_center(case, cells, at))
    for length in (2, 3):
        gapped = rasters.gap(cells, at, length)
        if 0 < at < len(cells) - length and max(abs(a - b) for a, b in zip(gapped[at - 1], gapped[at])) <= 1:
            continue  # where the curve turns back on itself the cells either side touch: no gap to see
        failed = _failed(case, gapped)
        # at either end the gap shortens the drawing: the start or the end is missed instead
        assert "gaps" in failed if 0 < at < len(cells) - length else failed


@SETTINGS
@given(**laws, inner=st.floats(0.0, 1.0), method=st.sampled_from(rasters.METHODS), more=st.sampled_from([-1, 1]))
def test_a_lap_too_many_or_too_few_between_the_asked_ends_fails(
    turns, spacing, angle, direction, inward, inner, method, more
):
    assume(turns + more >= 1)
    # a lap more between the same ends with laps under 2 cells apart is a blob every cell of which
    # lies within the tolerance of the asked curve: one lap 3 apart drawn as two 1.5 apart strays
    # 0.58 (the grid's limit, docs/calibration.md)
    assume(spacing * turns / (turns + more) >= 2)
    case = _case(turns, spacing, angle, direction, inward)
    cells = _drawn(_curve(case, inner, turns=turns + more), method, 3.0)
    failed = _failed(case, cells)
    # a spiral reaching 8 cells out or more has its laps counted (in a smaller one the extra lap is
    # a blob round the center, which the outline and the law's two sides fail)
    assert "turns" in failed if turns * spacing >= 8 else failed


@SETTINGS
@given(
    **{**laws, "turns": st.sampled_from([2, 2.5, 3, 3.5, 4]), "spacing": st.integers(4, 8)},
    method=st.sampled_from(rasters.METHODS),
    share=st.floats(0.3, 0.5),
)
def test_a_lap_bulging_onto_the_next_fails(turns, spacing, angle, direction, inward, method, share):
    """A share of the second lap pushed out by up to ``spacing − 1`` cells: it touches the third.

    Laps 4 or more apart, so the push is 3 cells or more: beyond the tolerance (1.3) and the half
    diagonal a drawn cell may add to it. Laps 3 apart pushed by 2 are at the grid's limit."""
    case = _case(turns, spacing, angle, direction, inward)
    p = case.params
    center = p["center"]
    curve = _curve(case, 0.0)
    if p["inward"]:
        curve = curve[::-1]
    total = 2 * math.pi * p["turns"]
    bulged = [curve[0]]
    for k, (x, y) in enumerate(curve[1:]):
        lap = total * k / (len(curve) - 2) / (2 * math.pi) - 1.0  # 0..1 along the second lap
        push = (spacing - 1) * math.sin(math.pi * lap / share) ** 2 if 0.0 <= lap <= share else 0.0
        r = math.dist((x, y), center)
        scale = 1 + push / r if r > 0 else 1.0
        bulged.append((center[0] + (x - center[0]) * scale, center[1] + (y - center[1]) * scale))
    if p["inward"]:
        bulged = bulged[::-1]
    assert _failed(case, _drawn(bulged, method, 3.0))
