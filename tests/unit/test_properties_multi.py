"""Properties of the multi-contour families: what their scores must not depend on, and what they never do.

Each property states its invariant in its name and docstring. Noise comes from the seeded
``reference/noisy`` drawer (fixed seeds: the case id and a sample number drawn by hypothesis), so
a failure replays exactly. Example counts are set per test and kept small: every example scores
whole drawings.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from shape_asserts.asking.reference import draw
from shape_asserts.cases import Case, load_cases
from shape_asserts.exceptions import CaseError
from shape_asserts.families.registry import get_family
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.score import ShapeScore

GRID = 50
SIDES = ("top", "right", "bottom", "left")
MIRROR_SIDE = {"top": "top", "bottom": "bottom", "left": "right", "right": "left"}
MIRROR_DIR = {"cw": "ccw", "ccw": "cw", None: None}


def _case(family: str, **raw) -> Case:
    raw = {k: v for k, v in raw.items() if v is not None}
    return Case(id=f"prop-{family}", family=family, params=MappingProxyType(get_family(family).params(raw)))


def _try_case(family: str, **raw) -> Case:
    """The case, or skip the example when its parameters cannot be drawn on the grid."""
    try:
        return _case(family, **raw)
    except CaseError:
        assume(False)
        raise  # unreachable: assume(False) raises


def _score(case: Case, pts: np.ndarray) -> ShapeScore:
    return case.score(Drawing.from_points(pts))


def _on_grid(*drawings: np.ndarray) -> bool:
    return all(len(d) and d.min() >= 0 and d.max() <= GRID - 1 for d in drawings)


def _same_verdict(a: ShapeScore, b: ShapeScore, *, ignore: set[str] = frozenset()) -> None:
    ca = {c.name: c.passed for c in a.checks if c.name not in ignore}
    cb = {c.name: c.passed for c in b.checks if c.name not in ignore}
    assert ca == cb


#: Two per-circle checks of ``score_circle`` (``checks.winding``) are not exactly mirror-symmetric,
#: so they are left out of the mirror comparisons (reported upstream):
#: ``coverage`` counts 30° sectors with ``floor(angle / 30)``, so a point exactly on a sector
#: boundary (the top, bottom, left and right points of every raster circle are) belongs to the
#: sector after it clockwise, and its mirror image to the sector after it counter-clockwise; a
#: drawing that skips points next to such a boundary can cover 12 sectors one way and 11 the other.
#: ``winding`` folds each step's turn into [-π, π), so a step straight through the center (the
#: closing chord of an exact half circle) turns -π both ways round: 0 laps one way, 1 the other.
MIRROR_SKEWED = {"coverage", "winding"}


def _mirror_x(pts: np.ndarray, axis2: int) -> np.ndarray:
    """Mirror left-right about x = axis2 / 2 (integer points stay integer)."""
    return np.column_stack([axis2 - pts[:, 0], pts[:, 1]])


# --- strategies ---------------------------------------------------------------------------------

concentric_raw = st.fixed_dictionaries(
    {
        "r0": st.integers(3, 6),
        "spacing": st.integers(3, 6),
        "k": st.integers(2, 4),
        "start": st.sampled_from(SIDES),
        "direction": st.sampled_from(("cw", "ccw")),
        "order": st.sampled_from(("outward", "inward")),
    }
)

shifts = st.tuples(st.integers(-8, 8), st.integers(-8, 8))
samples = st.integers(0, 50)


def _concentric(raw: dict, center: tuple[int, int]) -> Case:
    radii = [raw["r0"] + i * raw["spacing"] for i in range(raw["k"])]
    return _try_case(
        "concentric",
        center=list(center),
        radii=radii,
        start=raw["start"],
        direction=raw["direction"],
        order=raw["order"],
    )


# --- concentric ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(raw=concentric_raw, shift=shifts, sample=samples)
@example(
    raw={"r0": 6, "spacing": 6, "k": 3, "start": "top", "direction": "cw", "order": "outward"}, shift=(3, -2), sample=0
)
def test_concentric_score_is_invariant_under_integer_translation(raw, shift, sample):
    """Moving the asked center and the drawing by the same whole cells changes no check and no score."""
    base = _concentric(raw, (25, 25))
    moved = _concentric(raw, (25 + shift[0], 25 + shift[1]))
    pts = draw(base, "noisy", sample).astype(float)
    assume(_on_grid(pts, pts + shift))
    a, b = _score(base, pts), _score(moved, pts + shift)
    _same_verdict(a, b)
    assert abs(a.score - b.score) < 1e-6


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(raw=concentric_raw, sample=samples)
@example(raw={"r0": 3, "spacing": 3, "k": 2, "start": "top", "direction": "cw", "order": "outward"}, sample=0)
def test_concentric_verdict_is_invariant_under_mirroring_with_direction_and_side_swapped(raw, sample):
    """A left-right mirror of the drawing answers the mirrored question (left↔right start, cw↔ccw)."""
    base = _concentric(raw, (25, 25))
    mirrored = _concentric(
        {**raw, "start": MIRROR_SIDE[raw["start"]], "direction": MIRROR_DIR[raw["direction"]]}, (25, 25)
    )
    pts = draw(base, "noisy", sample).astype(float)
    # x → 50 − x keeps the center: a noisy point on column 0 lands on column 50, off the grid
    assume(_on_grid(pts) and _on_grid(_mirror_x(pts, 50)))
    a, b = _score(base, pts), _score(mirrored, _mirror_x(pts, 50))
    _same_verdict(a, b, ignore=MIRROR_SKEWED)
    assert abs(a.score - b.score) < 1e-6


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(raw=concentric_raw, seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5))
def test_concentric_ideal_is_nearly_the_best_score(raw, seed, n):
    """The ideal passes; pushing up to five points one cell off never raises the score by a point.

    The ideal is the midpoint raster, not the roundest possible point set, so a lucky jitter may
    gain a fraction of a point (calibration: at most ~0.3); it must never gain a whole one.
    """
    case = _concentric(raw, (25, 25))
    ideal = np.asarray(case.ideal(), dtype=float)
    best = _score(case, ideal)
    assert best.passed
    rng = np.random.default_rng(seed)
    pts = ideal.copy()
    idx = rng.choice(len(pts), size=n, replace=False)
    pts[idx] += rng.integers(-1, 2, size=(n, 2))
    assert _score(case, pts).score <= best.score + 1.0


# --- several separate circles -------------------------------------------------------------------

CIRCLES_CASES = [c for c in load_cases() if c.family == "circles"]


def _shifted_circles(case: Case, shift: tuple[int, int], mirror: bool = False) -> Case:
    p = case.params
    centers = [[c[0] + shift[0], c[1] + shift[1]] for c in p["centers"]]
    direction = p.get("direction")
    start = p.get("start")
    if mirror:
        centers = [[49 - x, y] for x, y in centers]
        direction = MIRROR_DIR[direction]
        start = MIRROR_SIDE[start] if start else None
    return _try_case(
        "circles",
        centers=centers,
        radius=p.get("radius"),
        radii=list(p["radii"]) if p.get("radii") else None,
        start=start,
        direction=direction,
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(which=st.integers(0, len(CIRCLES_CASES) - 1), shift=shifts, sample=samples, mirror=st.booleans())
@example(which=4, shift=(0, 0), sample=1, mirror=True)  # coverage differs under the mirror: see MIRROR_SKEWED
@example(which=5, shift=(0, 0), sample=7, mirror=True)  # winding differs under the mirror: see MIRROR_SKEWED
def test_circles_verdict_is_invariant_under_translation_and_mirroring(which, shift, sample, mirror):
    """Moving (and optionally mirroring) the asked circles and the drawing together changes nothing."""
    base = _shifted_circles(CIRCLES_CASES[which], (0, 0))
    moved = _shifted_circles(CIRCLES_CASES[which], shift, mirror)
    pts = draw(base, "noisy", sample).astype(float)
    out = pts + shift
    if mirror:
        out = _mirror_x(out, 49)
    assume(_on_grid(pts, out))
    a, b = _score(base, pts), _score(moved, out)
    _same_verdict(a, b, ignore=MIRROR_SKEWED if mirror else set())
    assert abs(a.score - b.score) < 1e-6


# --- scenes -------------------------------------------------------------------------------------

SCENE_CASES = [c for c in load_cases() if c.family in ("house", "stick")]


def _scene_area(case: Case) -> list[int]:
    from shape_asserts.families.scene import HOUSE_AREA, STICK_AREA

    return list(case.params.get("area") or (HOUSE_AREA if case.family == "house" else STICK_AREA))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(which=st.integers(0, len(SCENE_CASES) - 1), shift=shifts, sample=samples)
# stick-area-left moved up 6: the head's center fell on 13.5 ± float noise, and rounded both ways
@example(which=[c.id for c in SCENE_CASES].index("stick-area-left"), shift=(0, -6), sample=0)
def test_scene_score_is_invariant_under_integer_translation(which, shift, sample):
    """Moving the asked area and the drawing by the same whole cells changes no check and no likeness."""
    case = SCENE_CASES[which]
    area = _scene_area(case)
    base = _try_case(case.family, area=area)
    moved = _try_case(
        case.family, area=[area[0] + shift[0], area[1] + shift[1], area[2] + shift[0], area[3] + shift[1]]
    )
    pts = draw(base, "noisy", sample).astype(float)
    assume(_on_grid(pts, pts + shift))
    a, b = _score(base, pts), _score(moved, pts + shift)
    _same_verdict(a, b)
    assert abs(a.score - b.score) < 1e-6


@settings(max_examples=30, deadline=None)
@given(which=st.integers(0, len(SCENE_CASES) - 1), sample=samples)
def test_scene_structural_checks_are_invariant_under_mirroring(which, sample):
    """A left-right mirror of a house or a stick figure is the same scene: every check but
    ``likeness`` (a distance to one fixed, unmirrored reference) gives the same verdict."""
    case = SCENE_CASES[which]
    area = _scene_area(case)
    pts = draw(case, "noisy", sample).astype(float)
    a, b = _score(case, pts), _score(case, _mirror_x(pts, area[0] + area[2]))
    _same_verdict(a, b, ignore={"likeness"})


@settings(max_examples=20, deadline=None)
@given(which=st.integers(0, len(SCENE_CASES) - 1), sample=samples)
def test_scene_ideal_is_the_best_likeness(which, sample):
    """The ideal passes with likeness 100; no noisy version of it scores higher."""
    case = SCENE_CASES[which]
    best = _score(case, np.asarray(case.ideal(), dtype=float))
    assert best.passed and best.score == 100.0
    assert _score(case, draw(case, "noisy", sample).astype(float)).score <= best.score


# --- never out of range, never raising ----------------------------------------------------------

ALL_CASES = [c for c in load_cases() if c.family in ("concentric", "circles", "house", "stick")]

point_lists = st.lists(st.tuples(st.integers(-3, GRID + 2), st.integers(-3, GRID + 2)), min_size=1, max_size=120).map(
    lambda pts: np.array(pts, dtype=float)
)


@settings(max_examples=50, deadline=None)
@given(which=st.integers(0, len(ALL_CASES) - 1), pts=point_lists)
@example(which=0, pts=np.array([[25.0, 25.0]]))
@example(which=len(ALL_CASES) - 1, pts=np.array([[1.0, 1.0]] * 10))
def test_scores_stay_between_0_and_100_for_any_points(which, pts):
    """Any point list, even one point, a dot repeated, or points off the grid, gets a score in
    [0, 100] and a verdict, never an exception."""
    result = _score(ALL_CASES[which], pts)
    assert 0.0 <= result.score <= 100.0
    assert isinstance(result.passed, bool)
