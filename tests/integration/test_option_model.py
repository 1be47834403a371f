"""``--model``: which models are asked; every model × case is its own test ``<case-id>@<model>``."""

from __future__ import annotations

import json
import re

import pytest

from shape_asserts.asking.store import model_slug

from .conftest import CIRCLE, CIRCLE_CASES, INI, N_CASES, recording

CASE = "circle-start330-ccw"


def test_the_default_model_is_the_exact_reference_drawer(suite):
    result = suite.runpytest("--record=none", "-v", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines([f"*test_drawing[[]{CASE}@reference/exact[]] PASSED*"])


def test_each_model_option_adds_one_test_per_case(suite):
    result = suite.runpytest("--model=reference/exact", "--model=reference/noisy", "--collect-only", "-q", *CIRCLE)

    ids = [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::test_drawing[" in line]
    assert sorted(ids) == sorted(
        f"{case}@{model}" for case in CIRCLE_CASES for model in ("reference/exact", "reference/noisy")
    )


def test_the_noisy_reference_drawer_fails_some_cases_and_passes_others(suite):
    result = suite.runpytest("--model=reference/noisy", "--record=none", *CIRCLE)

    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) > 0 and outcomes.get("failed", 0) > 0
    assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == N_CASES
    assert "errors" not in outcomes


def test_ini_models_apply_unless_the_command_line_names_one(suite):
    suite.makeini(INI + "shape_models =\n    reference/noisy\n    reference/exact\n")

    from_ini = suite.runpytest("--collect-only", "-q", "-k", CASE)
    from_option = suite.runpytest("--model=reference/noisy", "--collect-only", "-q", "-k", CASE)

    from_ini.stdout.fnmatch_lines([f"*[[]{CASE}@reference/noisy[]]", f"*[[]{CASE}@reference/exact[]]"])
    assert [line for line in from_option.stdout.lines if "::test_drawing[" in line] == [
        f"test_shapes.py::test_drawing[{CASE}@reference/noisy]"
    ]


def test_a_model_name_becomes_a_filesystem_safe_folder_of_recordings(suite, fake_litellm):
    result = suite.runpytest("--model=ollama/llama3:8b", "-k", CASE)

    result.assert_outcomes(passed=1)
    slug = model_slug("ollama/llama3:8b")
    assert re.fullmatch(r"[A-Za-z0-9._-]+", slug) and slug.startswith("ollama_llama3_8b")
    path = recording(suite, CASE, model_dir=slug)
    assert json.loads(path.read_text(encoding="utf-8"))["model"] == "ollama/llama3:8b"
    assert [c["model"] for c in fake_litellm.calls()] == ["ollama/llama3:8b"]


@pytest.mark.parametrize(
    "models,message",
    [
        (("--model=",), "--model needs a model name, got an empty one*"),
        (("--model=reference/exact", "--model=reference/exact"), "--model names reference/exact more than once*"),
    ],
)
def test_an_empty_or_repeated_model_is_a_usage_error(suite, models, message):
    result = suite.runpytest("--record=none", *models, *CIRCLE)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
