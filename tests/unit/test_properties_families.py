"""Properties of the single-contour scorers: what their verdicts must not depend on, and what they never do.

For every family (ellipse, square, rectangle, triangle, polygon, star, spiral): moving the drawing
and the case together by whole cells, or turning / mirroring both by a symmetry of the grid
(mirroring flips the asked direction), changes neither the score nor any check; the ideal drawing
passes and no jittered copy of it scores more than a point higher; and any points at all give a
score in [0, 100] without raising. Drawings are the ideal with seeded defects (fixed seeds, drawn by
hypothesis as integers), so every failure reproduces.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from shape_asserts.cases import Case
from shape_asserts.exceptions import CaseError
from shape_asserts.families.registry import get_family
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.score import ShapeScore

FAMILIES = ("ellipse", "square", "rectangle", "triangle", "polygon", "star", "spiral")

#: The eight symmetries of the square grid, as integer 2×2 matrices acting on (x, y) columns.
GRID_SYMMETRIES = [
    np.array(m, dtype=np.int64)
    for m in (
        [[1, 0], [0, 1]],
        [[0, -1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[0, 1], [-1, 0]],
        [[-1, 0], [0, 1]],
        [[1, 0], [0, -1]],
        [[0, 1], [1, 0]],
        [[0, -1], [-1, 0]],
    )
]
#: The grid's own center: the symmetries map the 50×50 grid onto itself about it.
MID = 24.5

directions = st.sampled_from(["cw", "ccw"])


def make_case(raw: dict[str, Any]) -> Case:
    fam = get_family(raw["family"])
    return Case(id="prop", family=fam.name, params=MappingProxyType(fam.params(raw)))


# --- strategies: valid cases of each family --------------------------------------------------------
# Sizes are even and centers whole, so the asked vertices never sit exactly half-way between cells
# (rounding a tie would break the symmetry the properties test, in the case, not in the scorer).


@st.composite
def ellipse_raw(draw) -> dict[str, Any]:
    b = draw(st.integers(4, 12))
    a = draw(st.integers(b, 18))
    c = st.integers(a + 2, 47 - a)
    return dict(
        family="ellipse",
        center=[draw(c), draw(c)],
        a=a,
        b=b,
        rotation=draw(st.integers(0, 179)),
        start_angle=draw(st.integers(0, 359)),
        direction=draw(directions),
    )


@st.composite
def square_raw(draw) -> dict[str, Any]:
    side = 2 * draw(st.integers(5, 14))
    reach = math.ceil(side / math.sqrt(2)) + 1
    c = st.integers(reach, 48 - reach)
    return dict(
        family="square",
        center=[draw(c), draw(c)],
        side=side,
        rotation=draw(st.integers(0, 89)),
        start_vertex=draw(st.integers(0, 3)),
        direction=draw(directions),
    )


@st.composite
def rectangle_raw(draw) -> dict[str, Any]:
    w, h = 2 * draw(st.integers(5, 15)), 2 * draw(st.integers(4, 10))
    reach = math.ceil(math.hypot(w, h) / 2) + 1
    c = st.integers(reach, 48 - reach)
    return dict(
        family="rectangle",
        center=[draw(c), draw(c)],
        width=w,
        height=h,
        rotation=draw(st.integers(0, 179)),
        start_vertex=draw(st.integers(0, 3)),
        direction=draw(directions),
    )


@st.composite
def triangle_raw(draw) -> dict[str, Any]:
    if draw(st.booleans()):
        r = 2 * draw(st.integers(5, 11))
        c = st.integers(r + 1, 48 - r)
        return dict(
            family="triangle",
            center=[draw(c), draw(c)],
            radius=r,
            rotation=draw(st.integers(0, 359)),
            start_vertex=draw(st.integers(0, 2)),
            direction=draw(directions),
        )
    cell = st.tuples(st.integers(2, 47), st.integers(2, 47))
    v = [list(draw(cell)) for _ in range(3)]
    return dict(family="triangle", vertices=v, start=v[draw(st.integers(0, 2))], direction=draw(directions))


@st.composite
def polygon_raw(draw) -> dict[str, Any]:
    r = 2 * draw(st.integers(6, 11))
    c = st.integers(r + 1, 48 - r)
    return dict(
        family="polygon",
        n=draw(st.integers(5, 8)),
        center=[draw(c), draw(c)],
        radius=r,
        rotation=draw(st.integers(0, 359)),
        start_vertex=draw(st.integers(0, 4)),
        direction=draw(directions),
    )


@st.composite
def star_raw(draw) -> dict[str, Any]:
    n = draw(st.integers(5, 8))
    r = 2 * draw(st.integers(8, 11))
    inner = 2 * draw(st.integers(math.ceil(0.15 * r), math.floor(0.3 * r * math.cos(math.pi / n))))
    c = st.integers(r + 1, 48 - r)
    return dict(
        family="star",
        n=n,
        center=[draw(c), draw(c)],
        radius=r,
        inner=inner,
        rotation=draw(st.integers(0, 359)),
        start_vertex=draw(st.integers(0, 2 * n - 1)),
        direction=draw(directions),
    )


@st.composite
def spiral_raw(draw) -> dict[str, Any]:
    spacing = draw(st.integers(4, 8))
    turns = draw(st.integers(2, 4))
    assume(spacing * turns <= 20)
    reach = spacing * turns + 1
    c = st.integers(reach, 48 - reach)
    return dict(
        family="spiral",
        center=[draw(c), draw(c)],
        turns=turns,
        spacing=spacing,
        angle=draw(st.integers(0, 359)),
        inward=draw(st.booleans()),
        direction=draw(directions),
    )


RAW = {
    "ellipse": ellipse_raw(),
    "square": square_raw(),
    "rectangle": rectangle_raw(),
    "triangle": triangle_raw(),
    "polygon": polygon_raw(),
    "star": star_raw(),
    "spiral": spiral_raw(),
}


def valid_case(raw: dict[str, Any]) -> Case:
    try:
        return make_case(raw)
    except CaseError:
        assume(False)  # e.g. a drawn triangle too thin to be one
        raise


# --- drawings and transforms -----------------------------------------------------------------------


def with_defects(pts: np.ndarray, seed: int) -> np.ndarray:
    """The ideal with a seeded defect: none, jitter, a skipped run, a missed start, or a doubled point."""
    rng = np.random.default_rng(seed)
    out = np.asarray(pts, dtype=np.int64).copy()
    kind = seed % 5
    if kind == 1:
        for i in rng.choice(len(out), size=max(1, len(out) // 20), replace=False):
            out[i] += rng.integers(-1, 2, size=2)
    elif kind == 2 and len(out) > 10:
        i = int(rng.integers(1, len(out) - 8))
        out = np.delete(out, range(i, i + int(rng.integers(2, 6))), axis=0)
    elif kind == 3:
        out = np.roll(out, -int(rng.integers(1, len(out))), axis=0)
    elif kind == 4:
        i = int(rng.integers(0, len(out)))
        out = np.insert(out, i, out[i], axis=0)
    return out


def move(p, m: np.ndarray, shift: tuple[int, int]) -> list[int]:
    """A grid point under symmetry ``m`` about the grid center, then shifted."""
    q = m @ (np.asarray(p, dtype=float) - MID) + MID + np.asarray(shift)
    return [int(round(q[0])), int(round(q[1]))]


def turn(angle: float, m: np.ndarray) -> float:
    """A direction (degrees, clockwise on screen) under symmetry ``m``."""
    a = math.radians(angle)
    v = m @ np.array([math.cos(a), math.sin(a)])
    return round(math.degrees(math.atan2(v[1], v[0])), 9) % 360


def moved_raw(case: Case, m: np.ndarray, shift: tuple[int, int]) -> dict[str, Any]:
    """The case's parameters under the symmetry and shift (mirroring flips the direction)."""
    p = dict(case.params)
    raw: dict[str, Any] = {"family": case.family}
    mirrored = round(float(np.linalg.det(m))) < 0
    raw["direction"] = {"cw": "ccw", "ccw": "cw"}[p["direction"]] if mirrored else p["direction"]
    for key in ("a", "b", "side", "width", "height", "radius", "inner", "n", "turns", "spacing", "inward"):
        if key in p:
            raw[key] = p[key]
    if p.get("vertices") is not None:
        raw["vertices"] = [move(v, m, shift) for v in p["vertices"]]
    else:
        raw["center"] = move(p["center"], m, shift)
    if case.family == "spiral":
        raw["angle"] = turn(p["angle"], m)
    else:
        raw["start"] = move(p["start"], m, shift)
        if "rotation" in p:
            raw["rotation"] = turn(p["rotation"], m)
    return raw


def same_verdict(a: ShapeScore, b: ShapeScore) -> None:
    # 1e-4: the ellipse fit is polished by a few Gauss-Newton steps whose last digits depend on the
    # order of the points (a rotated drawing lists them differently); values are kept to 4 decimals,
    # so two that differ in those last digits may round one step apart: 2e-4 allows that step and
    # the float error of 0.3022 - 0.3021. Verdicts must agree exactly.
    assert b.score == pytest.approx(a.score, abs=2e-4)
    assert [c.name for c in b.checks] == [c.name for c in a.checks]
    for ca, cb in zip(a.checks, b.checks):
        assert cb.passed == ca.passed, (ca.describe(), cb.describe())
        if isinstance(ca.value, float) and math.isfinite(ca.value):
            assert cb.value == pytest.approx(ca.value, abs=2e-4), ca.name


def score(case: Case, pts: np.ndarray) -> ShapeScore:
    return case.score(Drawing.from_points(pts))


# --- invariance ------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000), dx=st.integers(-6, 6), dy=st.integers(-6, 6))
@example(data=None, seed=681, dx=-1, dy=0)  # a jittered point pushed off the grid by the move
def test_score_is_invariant_under_integer_translation_of_drawing_and_case(family, data, seed, dx, dy):
    """Moving the drawing and everything the case asks by whole cells changes no score and no check
    (as long as the drawing stays on the grid: the grid's edges do not move with it)."""
    raw = data.draw(RAW[family]) if data is not None else _TRANSLATION_REGRESSIONS.get(family, _EXAMPLES[family])
    case = valid_case(raw)
    # a spiral's outer end halfway between cells rounds half up, and its float (15.4999… or 16.5)
    # need not move with the case: the moved case may ask for the next cell
    assume(not _spiral_end_on_a_half(case))
    pts = with_defects(case.ideal(), seed)
    assume(all(0 <= v <= 49 for v in (pts.min(), pts.max(), pts.min() + min(dx, dy), pts.max() + max(dx, dy))))
    try:
        moved = make_case(moved_raw(case, GRID_SYMMETRIES[0], (dx, dy)))
    except CaseError:
        assume(False)  # moved off the grid
    same_verdict(score(case, pts), score(moved, pts + np.array([dx, dy])))


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000), m=st.integers(1, 7))
@example(data=None, seed=0, m=4)
# the asked vertices' float noise (y = 13.999999999999996 for 14) once let a floor take the row
# beside a side as a fair rounding of it in one orientation only: _ROTATION_REGRESSIONS' square
# and triangle
@example(data=None, seed=296, m=1)
@example(data=None, seed=6, m=2)
def test_score_is_invariant_under_grid_rotations_and_mirrors_with_direction_flipped_by_mirrors(family, data, seed, m):
    """Turning the drawing and the case by 90° steps, or mirroring both (which turns clockwise into
    counter-clockwise, so the asked direction flips too), changes no score and no check."""
    raw = data.draw(RAW[family]) if data is not None else _ROTATION_REGRESSIONS.get(family, _EXAMPLES[family])
    case = valid_case(raw)
    # a spiral's outer end halfway between cells is rounded half up, which turning does not keep
    # (8.5 → 9, but the turned 23.5 → 24, not 23): the turned case then asks for another cell
    assume(not _spiral_end_on_a_half(case))
    sym = GRID_SYMMETRIES[m]
    pts = with_defects(case.ideal(), seed)
    moved = make_case(moved_raw(case, sym, (0, 0)))
    turned = ((pts - MID) @ sym.T + MID).round().astype(np.int64)
    same_verdict(score(case, pts), score(moved, turned))


def _spiral_end_on_a_half(case: Case) -> bool:
    if case.family != "spiral":
        return False
    p = case.params
    r, a = p["spacing"] * p["turns"], math.radians(p["angle"])
    ends = (p["center"][0] + r * math.cos(a), p["center"][1] + r * math.sin(a))
    return any(abs(v - math.floor(v) - 0.5) < 1e-9 for v in ends)


def test_a_turned_spiral_whose_end_is_halfway_between_cells_is_left_out_of_the_rotation_property():
    """Regression (seed 0, m=1): the asked end (8.5, 29.0) rounds to 9 but turned to 24, not 23 —
    a case that asks for another cell, not a scorer that turns badly."""
    raw = dict(family="spiral", center=[16, 16], turns=3, spacing=5, angle=120, inward=False, direction="cw")
    assert _spiral_end_on_a_half(valid_case(raw))
    assert not _spiral_end_on_a_half(valid_case({**raw, "angle": 0}))


def test_a_turned_spiral_keeps_its_laps_check_when_the_lap_before_is_a_tie():
    """Regression (found by the rotation property above): a point with no neighbour within the
    window one lap back took the first of two equally near points, and which was first depended on
    the last bits of the turned drawing's angles; equally near points now share the choice."""
    raw = {
        "family": "spiral",
        "center": [13, 13],
        "turns": 3,
        "spacing": 4,
        "angle": 0,
        "inward": False,
        "direction": "cw",
    }
    case = valid_case(raw)
    sym = GRID_SYMMETRIES[1]
    pts = with_defects(case.ideal(), 3343)
    moved = make_case(moved_raw(case, sym, (0, 0)))
    turned = ((pts - MID) @ sym.T + MID).round().astype(np.int64)
    same_verdict(score(case, pts), score(moved, turned))


#: One plain case per family for the explicit examples (a mirror of the main built-in case).
_EXAMPLES = {
    "ellipse": dict(family="ellipse", center=[25, 25], a=20, b=12, rotation=30, start_angle=30, direction="cw"),
    "square": dict(family="square", center=[25, 25], side=30, start_vertex=0, direction="cw"),
    "rectangle": dict(family="rectangle", center=[25, 25], width=36, height=20, start_vertex=1, direction="ccw"),
    "triangle": dict(family="triangle", vertices=[[8, 40], [8, 10], [40, 40]], start=[8, 40], direction="cw"),
    "polygon": dict(family="polygon", n=7, center=[25, 25], radius=20, start_vertex=0, direction="cw"),
    "star": dict(family="star", n=5, center=[25, 25], radius=22, inner=9, start_vertex=1, direction="cw"),
    "spiral": dict(family="spiral", center=[25, 25], turns=3, spacing=6, angle=0, direction="cw"),
}


#: Cases hypothesis found, pinned for the explicit examples above (other families use _EXAMPLES).
_TRANSLATION_REGRESSIONS = {
    "polygon": dict(family="polygon", n=8, center=[19, 19], radius=18, rotation=323, start_vertex=0, direction="cw"),
}
_ROTATION_REGRESSIONS = {
    "square": dict(family="square", center=[9, 9], side=10, rotation=0, start_vertex=0, direction="cw"),
    "triangle": dict(family="triangle", center=[17, 17], radius=16, rotation=120, start_vertex=2, direction="cw"),
}


# --- the ideal is (nearly) the best drawing --------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_ideal_passes_and_no_jittered_copy_scores_more_than_a_point_higher(family, data, seed):
    """The ideal passes every check; pushing a twentieth of its points a cell aside never gains more
    than one point of score (a pushed point can land nearer the asked outline than its cell was)."""
    case = valid_case(data.draw(RAW[family]))
    ideal = case.ideal()
    best = score(case, ideal)
    assert best.passed, [c.describe() for c in best.failed]
    jittered = with_defects(ideal, 5 * seed + 1)
    assert score(case, jittered).score <= best.score + 1.0


# --- any input -------------------------------------------------------------------------------------

any_points = st.lists(
    st.tuples(st.floats(-10, 60, allow_nan=False), st.floats(-10, 60, allow_nan=False)),
    min_size=0,
    max_size=60,
).map(lambda pts: np.array(pts, dtype=float).reshape(-1, 2))


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=40, deadline=None)
@given(pts=any_points)
@example(pts=np.zeros((0, 2)))
@example(pts=np.array([[25.0, 25.0]] * 7))
@example(pts=np.array([[5.0, 5.0], [6.0, 6.0], [7.0, 7.0], [8.0, 8.0], [9.0, 9.0], [10.0, 10.0]]))
def test_score_of_any_points_is_between_0_and_100_and_never_raises(family, pts):
    """Empty, collinear, repeated, off-grid or fractional points: a score in [0, 100], every check a bool."""
    result = score(make_case(_EXAMPLES[family]), pts)
    assert 0.0 <= result.score <= 100.0
    assert all(isinstance(c.passed, bool) for c in result.checks)
    assert result.checks and (len(pts) > 0 or not result.passed)


def test_spiral_found_by_hypothesis_keeps_its_laps_under_a_grid_symmetry():
    """Regression (seed 33, m=4): a noisy spiral's step straight across the center turned +π or −π
    by rounding, so the mirrored copy counted one lap more (1.97 vs 0.97 turns)."""
    raw = {
        "family": "spiral",
        "center": [9, 9],
        "turns": 2,
        "spacing": 4,
        "angle": 0,
        "inward": False,
        "direction": "cw",
    }
    case = valid_case(raw)
    sym = GRID_SYMMETRIES[4]
    pts = with_defects(case.ideal(), 33)
    moved = make_case(moved_raw(case, sym, (0, 0)))
    turned = ((pts - MID) @ sym.T + MID).round().astype(np.int64)
    same_verdict(score(case, pts), score(moved, turned))
