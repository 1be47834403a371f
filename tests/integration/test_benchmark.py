"""The benchmark matrix (``-m benchmark``) and the leaderboard a run with several models prints."""

from __future__ import annotations

import json
import re

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.cases import load_cases

from .conftest import SHIPPED_FIXTURES

MODELS = ("--model=reference/exact", "--model=reference/noisy")
BENCH = [c for c in load_cases(benchmark=True) if "benchmark" in c.tags]


def _ids(result: pytest.RunResult) -> list[str]:
    return [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::test_drawing[" in line]


def _section(output: str, title: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line and line.startswith("="))
    # the next section's title line ('=== title ===', '--- title ---'); a tied rank starts with '=' too
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(r"[=-]{3,} [A-Za-z].* [=-]{3,}$", lines[i])), len(lines)
    )
    return lines[start + 1 : end]


def _family_ranks(board: list[str], models: list[str]) -> dict[str, dict[str, str]]:
    """The 'by family' table of the leaderboard: family → model → rank text."""
    at = next(i for i, line in enumerate(board) if line.startswith("by family"))
    ranks = {}
    for line in board[at + 3 :]:
        if not line.strip():
            break
        family, *rest = line.split()
        shown = [cell for cell in rest if re.fullmatch(r"=?\d+", cell)]  # rank, score, [low, high] per model
        ranks[family] = dict(zip(models, shown))
    return ranks


def test_the_default_run_builds_no_benchmark_case(suite):
    result = suite.runpytest("--collect-only", "-q")

    ids = _ids(result)
    assert len(ids) == 139 and not [i for i in ids if i.startswith("bench-")]
    assert "deselected" not in result.stdout.str()  # not built at all, so not deselected either


def test_m_benchmark_selects_the_matrix_alone(suite):
    result = suite.runpytest("--collect-only", "-q", "-m", "benchmark", *MODELS)

    ids = _ids(result)
    assert sorted(ids) == sorted(f"{c.id}@{m}" for c in BENCH for m in ("reference/exact", "reference/noisy"))
    assert sum(1 for c in BENCH if c.family == "circle") >= 120


def test_a_run_of_one_model_prints_no_leaderboard(suite):
    result = suite.runpytest("--record=none", "-m", "seed")

    result.assert_outcomes(passed=3)
    assert "shape-asserts leaderboard" not in result.stdout.str()


def test_m_benchmark_with_both_reference_drawers_prints_a_leaderboard_with_intervals_and_ranks(bench_suite):
    result = bench_suite.runpytest("--record=none", "-m", "benchmark and spiral", *MODELS, "-p", "no:randomly")

    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) == 0 and outcomes["passed"] >= 48  # every exact drawing replayed and passed
    board = _section(result.stdout.str(), "shape-asserts leaderboard")
    first, second = board[2], board[3]
    assert re.match(r"1\s+reference/exact\s+48\s+\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]", first), board
    assert re.match(r"2\s+reference/noisy\s+48\s+", second), board
    assert any("reference/exact > reference/noisy by +" in line for line in board), board
    assert _family_ranks(board, ["reference/exact", "reference/noisy"]) == {
        "spiral": {"reference/exact": "1", "reference/noisy": "2"}
    }


def _plant(source: str, target: str, cases: list[str], fixtures) -> None:
    """Copy ``source``'s shipped recordings of ``cases`` as ``target``'s (its model name written in)."""
    folder = fixtures / model_slug(target)
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        data = json.loads((SHIPPED_FIXTURES / model_slug(source) / f"{case}.json").read_text(encoding="utf-8"))
        data["model"] = target
        (folder / f"{case}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_a_model_better_on_circles_and_worse_on_spirals_ranks_so_per_family(suite, tmp_path):
    circles = [c.id for c in BENCH if c.family == "circle" and "-c19x21-r11-" in c.id]
    spirals = [c.id for c in BENCH if c.family == "spiral" and "-t3-s6-" in c.id]
    fixtures = tmp_path / "planted"
    # circler draws circles as the exact drawer and spirals as the noisy one; spiraler the other way
    _plant("reference/exact", "planted/circler", circles, fixtures)
    _plant("reference/noisy", "planted/circler", spirals, fixtures)
    _plant("reference/noisy", "planted/spiraler", circles, fixtures)
    _plant("reference/exact", "planted/spiraler", spirals, fixtures)

    result = suite.runpytest(
        "--record=none",
        f"--fixtures-dir={fixtures}",
        "--model=planted/circler",
        "--model=planted/spiraler",
        "-m",
        "benchmark",
        "-k",
        "c19x21-r11 or t3-s6",
        "-p",
        "no:randomly",
    )

    assert result.parseoutcomes().get("errors", 0) == 0
    board = _section(result.stdout.str(), "shape-asserts leaderboard")
    assert _family_ranks(board, ["planted/circler", "planted/spiraler"]) == {
        "circle": {"planted/circler": "1", "planted/spiraler": "2"},
        "spiral": {"planted/circler": "2", "planted/spiraler": "1"},
    }


def test_a_missing_benchmark_recording_says_to_select_the_benchmark(suite):
    result = suite.runpytest("--record=none", "-m", "benchmark", "-k", "bench-circle-c19x21-r6-start000-cw")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*record it with: pytest --model=reference/exact --record=missing -k *-m benchmark*"])
