"""The session summary (a row per model × family) and the JUnit XML properties each case carries."""

from __future__ import annotations

import json
import statistics

from shape_asserts.cases import load_cases

from .conftest import (CIRCLE, CIRCLE_CASES, N_CASES, SHIPPED_SNAPSHOTS, SUBPROCESS_TIMEOUT, junit_cases, recording,
                       summary_rows)

MODELS = ("--model=reference/exact", "--model=reference/noisy")


def _pinned_score(case: str) -> float:
    """The exact drawer's score for ``case`` as pinned in the repo's snapshot."""
    snap = SHIPPED_SNAPSHOTS / "reference_exact" / "circle" / f"{case}.json"
    return json.loads(snap.read_text(encoding="utf-8"))["samples"][0]["score"]


def test_the_summary_has_a_row_per_model_and_family(suite):
    result = suite.runpytest("--record=none", *MODELS, *CIRCLE)

    rows = summary_rows(result.stdout.str())
    assert list(rows) == [("reference/exact", "circle"), ("reference/noisy", "circle")]
    exact, noisy = rows[("reference/exact", "circle")], rows[("reference/noisy", "circle")]
    assert (exact["cases"], exact["passed"], exact["failed"]) == (str(N_CASES), str(N_CASES), "0")
    outcomes = result.parseoutcomes()
    assert int(noisy["failed"]) == outcomes["failed"] > 0
    assert int(noisy["passed"]) + int(exact["passed"]) == outcomes["passed"]


def test_the_summary_has_a_row_for_every_family_a_run_asks_about(suite, fake_litellm):
    first_of_each = {}
    for case in load_cases():
        first_of_each.setdefault(case.family, case.id)

    result = suite.runpytest("-k", " or ".join(first_of_each.values()))

    rows = summary_rows(result.stdout.str())
    assert sorted(family for _, family in rows) == sorted(first_of_each)
    assert all(model == "reference/exact" and row["cases"] == "1" for (model, _), row in rows.items())


def test_an_error_is_counted_in_the_summary_without_a_score(suite):
    recording(suite, "circle-start330-ccw").unlink()

    result = suite.runpytest("--record=none", *CIRCLE)

    row = summary_rows(result.stdout.str())[("reference/exact", "circle")]
    assert (row["cases"], row["passed"], row["errors"]) == (str(N_CASES), str(N_CASES - 1), "1")
    scored = [_pinned_score(case) for case in CIRCLE_CASES if case != "circle-start330-ccw"]
    assert row["mean"] == f"{statistics.fmean(scored):.2f}"


def test_junit_xml_carries_each_case_score_and_verdict_as_properties(suite):
    result = suite.runpytest("--record=none", "--junitxml=out.xml", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    cases = junit_cases(suite.path / "out.xml")
    assert sorted(cases) == sorted(f"test_drawing[{c}@reference/exact]" for c in CIRCLE_CASES)
    for case in CIRCLE_CASES:
        props = cases[f"test_drawing[{case}@reference/exact]"].properties
        assert (props["shape_model"], props["shape_case"], props["shape_family"]) == ("reference/exact", case, "circle")
        assert props["shape_passed"] == "True" and float(props["shape_pass_rate"]) == 1.0
        # the score reported is the one pinned in the repo's snapshot of this case
        assert float(props["shape_score"]) == _pinned_score(case)
        assert json.loads(props["shape_scores"]) == [_pinned_score(case)]


def test_a_run_split_across_xdist_workers_reports_the_same_summary_and_properties(suite):
    single = suite.runpytest("--record=none", *MODELS, *CIRCLE, "--junitxml=single.xml")
    split = suite.runpytest_subprocess("--record=none", *MODELS, *CIRCLE, "-n", "2", "--junitxml=split.xml",
                                       timeout=SUBPROCESS_TIMEOUT)

    counted = ("passed", "failed", "errors")
    assert [split.parseoutcomes().get(k) for k in counted] == [single.parseoutcomes().get(k) for k in counted]
    assert summary_rows(split.stdout.str()) == summary_rows(single.stdout.str())
    assert junit_cases(suite.path / "split.xml") == junit_cases(suite.path / "single.xml")
