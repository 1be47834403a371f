"""Selecting cases: the ``shape``, family and ``seed`` markers, and ``-k`` on ``<case-id>@<model>`` ids."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE_CASES, SEED_CASES


def _selected(result: pytest.RunResult) -> list[str]:
    return sorted(line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::test_drawing[" in line)


def test_the_circle_marker_selects_the_circle_family(suite):
    result = suite.runpytest("--collect-only", "-q", "-m", "circle")

    assert _selected(result) == sorted(f"{case}@reference/exact" for case in CIRCLE_CASES)


def test_the_seed_marker_selects_the_seed_posts_three_prompts(suite):
    result = suite.runpytest("--record=none", "-m", "seed", "-v")

    result.assert_outcomes(passed=3)
    assert sorted(SEED_CASES) == ["seed1-circle-start270-cw", "seed2-circle-start330-cw", "seed3-circle-start150-ccw"]
    assert _selected(suite.runpytest("--collect-only", "-q", "-m", "seed")) == sorted(
        f"{case}@reference/exact" for case in SEED_CASES
    )


def test_the_shape_marker_selects_every_case(suite):
    every = suite.runpytest("--collect-only", "-q")
    shapes = suite.runpytest("--collect-only", "-q", "-m", "shape")

    assert _selected(shapes) == _selected(every) and len(_selected(every)) >= len(CIRCLE_CASES)


def test_k_selects_by_case_id_across_variants(suite):
    result = suite.runpytest("--record=none", "-k", "start330", "-v")

    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*test_drawing[[]seed2-circle-start330-cw@reference/exact[]] PASSED*",
            "*test_drawing[[]circle-start330-ccw@reference/exact[]] PASSED*",
        ]
    )


def test_k_selects_by_model(suite):
    result = suite.runpytest(
        "--collect-only", "-q", "--model=reference/exact", "--model=reference/noisy", "-m", "circle", "-k", "noisy"
    )

    assert _selected(result) == sorted(f"{case}@reference/noisy" for case in CIRCLE_CASES)
