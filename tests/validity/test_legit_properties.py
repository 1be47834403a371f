"""Fair drawings with parameters hypothesis chooses pass: the calibration is not only the built-in cases.

The drawers are the independent catalogue's (``tests/catalogue``); the cases are user cases made
from the drawn parameters, as a case file would give them.
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
from tests.catalogue.polygons import LINE_METHODS, polygon_cells, regular_vertices
from tests.catalogue.round_shapes import CIRCLE_METHODS, ELLIPSE_METHODS, circle_cells, ellipse_cells
from tests.catalogue.spirals import spiral_cells


def _case(**raw) -> Case:
    fam = get_family(raw["family"])
    return Case(id="hypothesis", family=fam.name, params=MappingProxyType(fam.params(raw)))


def _verdict(case: Case, cells) -> list[str]:
    result = case.score(Drawing.from_points(cells, grid_size=case.grid_size))
    return [c.describe() for c in result.failed]


@settings(deadline=None)
@given(
    radius=st.integers(3, 24),
    dx=st.integers(-10, 10),
    dy=st.integers(-10, 10),
    angle=st.integers(0, 359),
    direction=st.sampled_from(["cw", "ccw"]),
    method=st.sampled_from(CIRCLE_METHODS),
    repeat=st.booleans(),
)
@example(radius=24, dx=0, dy=0, angle=270, direction="cw", method="joined", repeat=False)
@example(radius=3, dx=0, dy=0, angle=0, direction="ccw", method="disk-4conn", repeat=True)
# the raster's own ripple read as a 15-sided polygon (harmonics 1.011) before orders finer than the
# grid can draw were left out (Scorecard.harmonics); found by this test on a random run
@example(radius=3, dx=0, dy=0, angle=180, direction="cw", method="joined", repeat=True)
@example(radius=3, dx=0, dy=0, angle=140, direction="ccw", method="joined", repeat=False)
def test_every_fair_circle_of_radius_3_to_24_passes(radius, dx, dy, angle, direction, method, repeat):
    center = (25 + dx, 25 + dy)
    assume(radius + 1 <= min(center) and max(center) + radius + 1 <= 49)
    cells = circle_cells(center, radius, angle, direction, method, repeat)
    case = _case(family="circle", center=list(center), start=list(cells[0]), direction=direction, radius=radius)
    assert _verdict(case, cells) == []


@settings(deadline=None)
@given(
    n=st.integers(3, 12),
    radius=st.integers(8, 20),
    rotation=st.floats(0, 360, allow_nan=False),
    direction=st.sampled_from(["cw", "ccw"]),
    line=st.sampled_from(LINE_METHODS),
    closed=st.booleans(),
)
@example(n=8, radius=12, rotation=270.0, direction="cw", line="4conn", closed=True)
def test_every_fair_regular_polygon_passes(n, radius, rotation, direction, line, closed):
    try:
        case = _case(
            family="polygon",
            n=n,
            center=[25, 25],
            radius=radius,
            rotation=rotation,
            start_vertex=0,
            direction=direction,
        )
    except CaseError:  # corners too shallow for the grid: the case is refused, as it should be
        assume(False)
    vertices = regular_vertices((25, 25), radius, n, case.params["rotation"])
    cells = polygon_cells(vertices, 0, direction, line, "nearest", closed, start_cell=tuple(case.params["start"]))
    assert _verdict(case, cells) == []


@settings(deadline=None)
@given(
    turns=st.sampled_from([1.5, 2, 2.5, 3, 3.5]),
    spacing=st.integers(4, 8),
    angle=st.sampled_from(range(0, 360, 15)),
    direction=st.sampled_from(["cw", "ccw"]),
    inward=st.booleans(),
    connect=st.sampled_from(["8", "4"]),
)
@example(turns=3, spacing=6, angle=0, direction="cw", inward=False, connect="4")
def test_every_fair_spiral_passes(turns, spacing, angle, direction, inward, connect):
    assume(turns * spacing <= 23)
    case = _case(
        family="spiral", center=[25, 25], turns=turns, spacing=spacing, angle=angle, direction=direction, inward=inward
    )
    cells = spiral_cells((25, 25), turns, spacing, angle, direction, inward, connect)
    assert cells[0] == tuple(case.params["start"]) and cells[-1] == tuple(case.params["end"])
    assert _verdict(case, cells) == []


@settings(deadline=None)
@given(
    a=st.integers(5, 22),
    b_share=st.floats(0.35, 1.0),
    rotation=st.integers(0, 179),
    angle=st.integers(0, 359),
    direction=st.sampled_from(["cw", "ccw"]),
    method=st.sampled_from([m for m in ELLIPSE_METHODS if not m.startswith("midpoint")]),
)
@example(a=20, b_share=0.6, rotation=30, angle=30, direction="cw", method="joined")
# 7 × 4: its axis fitted 6.3° off (limit 4.5°) while a − b = 3 was still judged; rotations were
# sampled every 15°, which missed it (tests/validity/test_small_ellipses.py)
@example(a=7, b_share=0.57, rotation=42, angle=0, direction="cw", method="disk-8conn")
def test_every_fair_ellipse_passes(a, b_share, rotation, angle, direction, method):
    b = max(4, round(a * b_share))
    assume(b <= a)
    cells = ellipse_cells((25, 25), a, b, rotation, angle, direction, method)
    assume(all(0 <= x <= 49 and 0 <= y <= 49 for x, y in cells))
    try:
        case = _case(
            family="ellipse", center=[25, 25], a=a, b=b, rotation=rotation, start=list(cells[0]), direction=direction
        )
    except CaseError:  # the drawn start strays more than a cell from the ellipse: not this test's question
        assume(False)
    assert _verdict(case, cells) == []


def test_the_hypothesis_drawers_are_the_catalogues_own():
    """Not the project's rasterisers: the module names say where each drawing came from."""
    assert circle_cells.__module__.startswith("tests.catalogue")
    assert polygon_cells.__module__.startswith("tests.catalogue") and spiral_cells.__module__.startswith(
        "tests.catalogue"
    )
    assert math.isclose(regular_vertices((0, 0), 1, 4, 0)[1][1], 1.0)
