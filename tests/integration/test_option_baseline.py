"""``--baseline``: the baseline runs as one more model, and the run's exit status is the gate's.

``--gate-margin`` sets how much worse is tolerated; ``--gate-undecided`` what too little evidence
does to the exit status. Every run here replays recorded answers (``--record=none``).
"""

from __future__ import annotations

import shutil
import sys

import pytest

from shape_asserts.asking.store import model_slug

from .conftest import CIRCLE, LITELLM_PROBE_CONFTEST, N_CASES, recording

EXACT, NOISY = "reference/exact", "reference/noisy"
#: How many circle cases the noisy drawer passes (its defects are seeded per case).
NOISY_PASSED = 6
#: Two cases, one of which the noisy drawer passes and one it fails.
TWO_CASES = ("-k", "start030")


@pytest.fixture(autouse=True)
def _inner_suite_module_is_its_own(monkeypatch):
    """The outer session may have imported tests/suite/test_shapes.py as ``test_shapes``; the run
    inside pytester must import its own copy, not trip over that one ("import file mismatch")."""
    monkeypatch.delitem(sys.modules, "test_shapes", raising=False)


def replay_as(pytester: pytest.Pytester, model: str, copy_of: str) -> str:
    """Make ``model`` answer exactly what ``copy_of`` recorded (an identical model upgrade).

    Each copied recording says which model it records (a file claiming another model than its
    folder is refused as corrupt), so the copies are relabelled.
    """
    import json

    src, dest = pytester.path / "fixtures" / model_slug(copy_of), pytester.path / "fixtures" / model_slug(model)
    shutil.copytree(src, dest)
    for path in dest.glob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["model"] = model
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
    return model


def gate_lines(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "shape-asserts gate" in line)
    return lines[start:]


def test_the_baseline_runs_as_one_more_model_after_the_candidates(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--collect-only", "-q", *CIRCLE)

    ids = [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::test_drawing[" in line]
    assert len(ids) == 2 * N_CASES
    assert result.ret == 0  # a listing runs no test: none lacks its result
    assert {i.split("@", 1)[1] for i in ids} == {NOISY, EXACT}
    # ... and gives no verdict: it once said "gate: UNDECIDED ... treated as PASS"
    assert "gate: not run — --collect-only executes no test" in result.stdout.str()
    assert "UNDECIDED" not in result.stdout.str() and "PASS" not in result.stdout.str()


def test_a_model_drawing_exactly_like_the_baseline_passes_the_gate_and_exits_0(suite):
    candidate = replay_as(suite, "replay/exact-copy", EXACT)
    suite.makeconftest(LITELLM_PROBE_CONFTEST)

    result = suite.runpytest(f"--model={candidate}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    result.assert_outcomes(passed=2 * N_CASES)
    assert result.ret == 0
    gate = gate_lines(result.stdout.str())
    assert f"baseline {EXACT}" in gate[1]
    assert any(line.split()[:2] == [candidate, "circle"] and line.split()[-1] == "PASS" for line in gate)
    assert "gate: PASS" in gate
    assert (suite.path / "litellm_imported.txt").read_text() == "False"


def test_the_noisy_drawer_against_the_exact_one_fails_the_gate_and_exits_1(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES + NOISY_PASSED, failed=N_CASES - NOISY_PASSED)
    assert result.ret == 1
    text = result.stdout.str()
    assert text.index("shape-asserts summary") < text.index("shape-asserts gate")  # its own section
    gate = gate_lines(text)
    assert "gate: FAIL" in gate
    assert any("worse than the baseline beyond the margin: pass rate -75.00" in line for line in gate)
    result.stdout.fnmatch_lines(["exit status 1: the gate's verdict*"])


def test_a_tiny_selection_is_undecided_says_how_many_cases_would_decide_and_exits_0(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE, *TWO_CASES)

    result.assert_outcomes(passed=3, failed=1)
    assert result.ret == 0
    gate = gate_lines(result.stdout.str())
    assert "gate: UNDECIDED" in gate
    assert any("need ~5 paired cases (have 2)" in line for line in gate)
    assert any(line.startswith("WARNING: the gate is UNDECIDED") and "--gate-undecided=pass" in line for line in gate)


def test_gate_undecided_fail_makes_too_little_evidence_exit_1(suite):
    result = suite.runpytest(
        f"--model={NOISY}", f"--baseline={EXACT}", "--gate-undecided=fail", "--record=none", *CIRCLE, *TWO_CASES
    )

    assert result.ret == 1
    assert "gate: UNDECIDED" in gate_lines(result.stdout.str())


def test_a_candidate_failing_the_same_cases_as_the_baseline_passes_the_gate_and_exits_0(suite):
    candidate = replay_as(suite, "replay/noisy-copy", NOISY)

    result = suite.runpytest(f"--model={candidate}", f"--baseline={NOISY}", "--record=none", *CIRCLE)

    result.assert_outcomes(passed=2 * NOISY_PASSED, failed=2 * (N_CASES - NOISY_PASSED))
    assert result.ret == 0  # failed cases are shown, the gate decides
    assert "gate: PASS" in gate_lines(result.stdout.str())


def test_a_harness_error_fails_the_gate_even_when_every_case_that_answered_passes(suite):
    candidate = replay_as(suite, "replay/exact-copy", EXACT)
    recording(suite, "circle-start090-cw", model_dir=model_slug(candidate)).unlink()

    result = suite.runpytest(f"--model={candidate}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    result.assert_outcomes(passed=2 * N_CASES - 1, errors=1)
    assert result.ret == 1
    gate = gate_lines(result.stdout.str())
    assert any(line.split()[:2] == [candidate, "circle"] and line.endswith("PASS") for line in gate)  # 23 identical
    assert "gate: FAIL" in gate  # but one case has no result
    result.stdout.fnmatch_lines(
        [
            f"incomplete results, so the gate fails: 1 of {N_CASES} {candidate} case(s) have no result "
            f"(first: {candidate} circle-start090-cw, error: FixtureError: no recorded answer*",
            "exit status 1: 1 test(s) errored*",
        ]
    )


def test_a_wide_margin_lets_the_noisy_drawer_pass(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--gate-margin=100", "--record=none", *CIRCLE)

    assert result.ret == 0
    assert "gate: PASS" in gate_lines(result.stdout.str())


def test_without_baseline_the_exit_status_is_pytests_own_and_there_is_no_gate(suite):
    result = suite.runpytest(f"--model={NOISY}", "--record=none", *CIRCLE)

    assert result.ret == 1
    assert "shape-asserts gate" not in result.stdout.str()


def test_a_baseline_that_is_also_a_model_is_a_usage_error(suite):
    result = suite.runpytest(f"--model={EXACT}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--baseline {EXACT} is also a --model*"])


def test_a_negative_margin_is_a_usage_error(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--gate-margin=-1", *CIRCLE)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--gate-margin must be a finite number ≥ 0, got -1.0*"])


def test_the_job_summary_gets_the_results_table_and_the_gate(suite, tmp_path, monkeypatch):
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))

    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    assert result.ret == 1
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n\n## shape-asserts")  # appended, never overwritten
    assert f"| {NOISY} | circle | {N_CASES} | {NOISY_PASSED} | {N_CASES - NOISY_PASSED} | 0 | 25% |" in text
    assert "### Gate: ❌ FAIL" in text
    rows = [line for line in text.splitlines() if line.startswith(f"| {NOISY} | circle | {N_CASES} | ")]
    assert len(rows) == 2 and rows[1].count(" | ") == 6  # the gate row: seven cells, none split
    assert "**exit status 1: the gate's verdict" in text


def test_one_answer_too_large_to_measure_cannot_turn_a_failing_gate_undecided(suite):
    """A point at 1e308 once made a score NaN: the gate printed Δ +nan and UNDECIDED, exit 0, for a
    candidate that plainly fails without it. The sample now fails a named check and scores 0."""
    import json

    path = recording(suite, "circle-start000-cw", model_dir=model_slug(NOISY))
    data = json.loads(path.read_text(encoding="utf-8"))
    from shape_asserts.geometry.drawing import parse_drawing

    points = [{"x": int(x), "y": int(y)} for x, y in parse_drawing(data["samples"][0]["text"]).points]
    points[5] = {"x": 1e308, "y": 3}
    data["samples"][0]["text"] = json.dumps({"grid_size": 50, "points": points})
    path.write_text(json.dumps(data), encoding="utf-8")

    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE)

    assert result.ret == 1
    text = result.stdout.str()
    summary = text[text.index("shape-asserts summary") :]  # the summary table and the gate after it
    assert "nan" not in summary.replace("infinite or NaN", "").lower()
    assert any(line.endswith("FAIL") for line in gate_lines(text))
    # a gated run is one of two models: its failing cases print one line each, naming the check
    result.stdout.fnmatch_lines([f"{NOISY} · circle-start000-cw: score *; failed: *finite*"])
