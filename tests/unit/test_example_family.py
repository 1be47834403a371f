"""examples/plus-family: the worked example of a third-party family, scored and loaded here.

The package is imported from its source folder and offered to the registry as an installed
entry point would be; ``tests/integration/test_family_plugins.py`` runs it through pytest itself.
"""

from __future__ import annotations

import doctest
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.cases import load_cases
from shape_asserts.exceptions import CaseError
from shape_asserts.families import registry
from shape_asserts.geometry.drawing import Drawing, parse_drawing

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plus-family"
CASE_FILE = EXAMPLE / "plus_cases.toml"


@pytest.fixture(scope="module")
def shape_plus():
    sys.path.insert(0, str(EXAMPLE))
    try:
        import shape_plus

        yield shape_plus
    finally:
        sys.path.remove(str(EXAMPLE))


@pytest.fixture
def installed(shape_plus, monkeypatch):
    """The registry as it is with the example installed (read afresh, and forgotten afterwards)."""
    ep = SimpleNamespace(
        name="plus",
        value="shape_plus:FAMILY",
        dist=SimpleNamespace(name="shape-asserts-plus"),
        load=lambda: shape_plus.FAMILY,
    )
    monkeypatch.setattr(registry, "entry_points", lambda *, group: [ep])
    registry.families.cache_clear()
    yield shape_plus
    registry.families.cache_clear()


@pytest.fixture
def cases(installed):
    return load_cases([CASE_FILE], builtin=False)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


PLUS_CASE = """
[[case]]
id = "my-plus"
family = "plus"
center = [25, 25]
arm = 10
width = 4
direction = "cw"
"""


def test_the_examples_docstring_examples_hold(shape_plus):
    assert doctest.testmod(shape_plus).failed == 0


def test_the_example_case_file_loads_nine_plus_cases_with_prompts_in_both_languages(cases):
    assert len(cases) == 9 and {c.family for c in cases} == {"plus"}
    for case in cases:
        assert "плюс" in case.prompt("ru") and "plus sign" in case.prompt("en")


def test_the_exact_drawer_passes_every_example_case(cases):
    for case in cases:
        score = case.score(parse_drawing(answer_text(case, "exact")))
        assert score.passed and score.score == 100.0, (case.id, score.failed)


def test_the_ideal_starts_at_the_start_corner_and_goes_the_asked_way(cases):
    for case in cases:
        ideal = case.ideal()
        assert tuple(ideal[0]) == case.params["start"]
        step = ideal[1] - ideal[0]
        assert tuple(step) == ((1, 0) if case.params["direction"] == "cw" else (0, 1)), case.id


def test_a_plus_drawn_the_other_way_fails_only_the_way_round(cases):
    """Direction and winding (the shared ``Scorecard.turning`` pair) fail; the outline still fits."""
    case = cases[0]
    ideal = case.ideal()
    reverse = np.vstack([ideal[:1], ideal[:0:-1]])
    score = case.score(Drawing.from_points(reverse))
    assert [c.name for c in score.failed] == ["direction", "winding"]


def test_a_square_round_the_same_corners_fails_outline_and_coverage(cases):
    case = next(c for c in cases if c.id == "plus-a12-w6-cw")
    from shape_asserts.geometry.raster import raster_polyline

    square = raster_polyline(np.array([(22, 13), (37, 13), (37, 37), (13, 37), (13, 13)]), closed=True)
    failed = {c.name for c in case.score(Drawing.from_points(square[9:])).failed}
    assert {"outline", "coverage"} <= failed


def test_an_empty_drawing_scores_zero_and_fails(cases):
    score = cases[0].score(Drawing.from_points(np.zeros((0, 2))))
    assert score.score == 0 and not score.passed


def test_a_case_may_override_a_plus_threshold(cases):
    assert next(c for c in cases if c.id == "plus-off-center-cw").thresholds == {"min_coverage": 0.9}


@pytest.mark.parametrize(
    "line, expected",
    [
        ("arm = 10", "unknown parameter 'armm' for the plus family; did you mean 'arm'?"),
        ("width = 4", "'width' must be an even number of cells"),
        ('direction = "cw"', "'direction' must be 'cw' or 'ccw'"),
    ],
)
def test_a_bad_key_in_a_plus_case_names_the_file_the_case_and_the_key(installed, tmp_path, line, expected):
    broken = {"arm = 10": "arm = 10\narmm = 12", "width = 4": "width = 5", 'direction = "cw"': 'direction = "up"'}
    with pytest.raises(CaseError) as info:
        load_cases([_write(tmp_path, PLUS_CASE.replace(line, broken[line]))], builtin=False)
    assert "mine.toml: case my-plus: " in str(info.value) and expected in str(info.value)


def test_an_unknown_plus_threshold_names_the_file_the_case_and_the_field(installed, tmp_path):
    expected = r"mine\.toml: case my-plus: unknown threshold 'min_coverag' for PlusThresholds"
    with pytest.raises(CaseError, match=expected):
        load_cases([_write(tmp_path, PLUS_CASE + "thresholds = { min_coverag = 0.5 }\n")], builtin=False)


def test_without_the_plugin_a_plus_case_is_an_unknown_family(tmp_path):
    registry.families.cache_clear()
    with pytest.raises(CaseError, match="unknown shape family 'plus'"):
        load_cases([_write(tmp_path, PLUS_CASE)], builtin=False)
