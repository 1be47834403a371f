"""Case files are bounded when they load: the grid, the id template and how many cases a matrix makes.

Each was once accepted and cost the run later: ``grid_size = 1000000000`` loaded and left the
reference drawer and the report to cope with a billion-cell grid; ``{angle:999999999}`` built a
gigabyte id (or raised a bare ``MemoryError``); a matrix of a million combinations was expanded
case by case. Now each is a :class:`CaseError` naming the file, the case or template and the key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shape_asserts.cases import load_cases
from shape_asserts.cases.expand import MAX_MATRIX_CASES
from shape_asserts.cases.load import MAX_GRID_SIZE
from shape_asserts.exceptions import CaseError

CASE = """
[[case]]
id = "wide-circle"
family = "circle"
center = [25, 25]
start = [25, 15]
direction = "cw"
"""

MATRIX = """
[[matrix]]
id = "{template}"
family = "circle"
center = [20, 20]
radius = 10
angles = [0, 90]
directions = ["cw"]
"""


def _error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError) as info:
        load_cases([path], builtin=False)
    return str(info.value)


@pytest.mark.parametrize("value", ["1000000000", str(MAX_GRID_SIZE + 1), "0", "-5", "50.5", '"big"', "true"])
def test_finding_8_a_grid_size_out_of_bounds_is_an_error_naming_the_file_the_case_and_the_key(tmp_path, value):
    message = _error(tmp_path, CASE + f"grid_size = {value}\n")

    assert "mine.toml" in message and "case wide-circle" in message
    assert f"'grid_size' must be a whole number from 1 to {MAX_GRID_SIZE:,}" in message


def test_the_largest_grid_size_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(CASE + f"grid_size = {MAX_GRID_SIZE}\n", encoding="utf-8")

    (case,) = load_cases([path], builtin=False)

    assert case.grid_size == MAX_GRID_SIZE


@pytest.mark.parametrize(
    "template, expected",
    [
        ("m-{angle:999999999}", "widths of at most 100"),
        ("m-{angle:99999999999999999999}", "widths of at most 100"),
        ("m-{angle:.999}", "widths of at most 100"),
        ("m-{angle:{direction}}", "must be plain"),
        ("m-{direction.__class__}", "must be a plain name"),
        ("m-{0}", "must be a plain name"),
        ("m-{}", "must be a plain name"),
        ("m-{angle", "id template 'm-{angle'"),
    ],
)
def test_finding_8_a_matrix_id_template_that_could_exhaust_memory_is_an_error_naming_it(tmp_path, template, expected):
    message = _error(tmp_path, MATRIX.replace("{template}", template))

    assert "mine.toml" in message and template in message and expected in message


def test_a_template_with_ordinary_widths_still_expands(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MATRIX.replace("{template}", "m-{angle:03d}-{direction:.2}"), encoding="utf-8")

    assert [c.id for c in load_cases([path], builtin=False)] == ["m-000-cw", "m-090-cw"]


def test_a_matrix_standing_for_more_cases_than_allowed_is_refused_before_any_is_built(tmp_path):
    side = 2 + int(MAX_MATRIX_CASES**0.5)  # side × side combinations: just over the limit
    centers = ", ".join(f"[{10 + i % 30}, {10 + i // 30}]" for i in range(side))
    text = f"""
[[matrix]]
id = "many-{{center}}-{{direction}}"
family = "circle"
start = [25, 5]
vary = {{ center = [{centers}], direction = [{", ".join(f'"d{i}"' for i in range(side))}] }}
"""
    message = _error(tmp_path, text)

    assert "mine.toml" in message and f"stands for {side * side:,} cases" in message
    assert f"more than the {MAX_MATRIX_CASES:,} a matrix may" in message


def test_a_start_point_matrix_is_bounded_too(tmp_path):
    angles = ", ".join(str(a % 360) for a in range(MAX_MATRIX_CASES + 1))
    message = _error(
        tmp_path, MATRIX.replace("{template}", "m-{angle}").replace("angles = [0, 90]", f"angles = [{angles}]")
    )

    assert f"stands for {MAX_MATRIX_CASES + 1:,} cases" in message
