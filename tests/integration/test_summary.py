"""The session summary (a row per model × family) and the record each case carries into JUnit XML."""

from __future__ import annotations

import json
import statistics

from shape_asserts.cases import load_cases
from shape_asserts.results.record import PROPERTY, CaseRecord

from .conftest import (
    CIRCLE,
    CIRCLE_CASES,
    N_CASES,
    SHIPPED_SNAPSHOTS,
    SUBPROCESS_TIMEOUT,
    junit_cases,
    recording,
    summary_rows,
)

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


def test_junit_xml_carries_each_case_record_as_one_json_property(suite):
    result = suite.runpytest("--record=none", "--junitxml=out.xml", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    cases = junit_cases(suite.path / "out.xml")
    assert sorted(cases) == sorted(f"test_drawing[{c}@reference/exact]" for c in CIRCLE_CASES)
    for case in CIRCLE_CASES:
        props = cases[f"test_drawing[{case}@reference/exact]"].properties
        assert list(props) == [PROPERTY]
        rec = CaseRecord.from_json(props[PROPERTY])
        assert (rec.model, rec.case, rec.family) == ("reference/exact", case, "circle")
        assert (rec.outcome, rec.checks_passed, rec.pass_rate) == ("passed", True, 1.0)
        # the score reported is the one pinned in the repo's snapshot of this case
        assert rec.score == _pinned_score(case)
        assert [round(s, 2) for s in rec.scores] == [_pinned_score(case)]


def test_a_case_that_errored_carries_a_record_with_its_reason(suite):
    recording(suite, "circle-start330-ccw").unlink()

    suite.runpytest("--record=none", "--junitxml=out.xml", *CIRCLE)

    props = junit_cases(suite.path / "out.xml")["test_drawing[circle-start330-ccw@reference/exact]"].properties
    rec = CaseRecord.from_json(props[PROPERTY])
    assert rec.outcome == "error" and not rec.judged
    assert rec.reason.startswith("FixtureError: no recorded answer at ")


def test_a_shape_test_that_fails_after_its_check_is_counted_as_failed(suite):
    suite.path.joinpath("test_shapes.py").write_text(
        "def test_drawing(shape_run):\n    shape_run.check()\n    assert False, 'the suite asked for more'\n",
        encoding="utf-8",
    )

    result = suite.runpytest("--record=none", "--junitxml=out.xml", "-k", "circle-start030-cw")

    result.assert_outcomes(failed=1)
    assert summary_rows(result.stdout.str())[("reference/exact", "circle")]["failed"] == "1"
    props = junit_cases(suite.path / "out.xml")["test_drawing[circle-start030-cw@reference/exact]"].properties
    rec = CaseRecord.from_json(props[PROPERTY])
    assert rec.outcome == "failed" and rec.checks_passed is True
    assert "the suite asked for more" in rec.reason


def test_a_run_split_across_xdist_workers_reports_the_same_summary_and_properties(suite):
    single = suite.runpytest("--record=none", *MODELS, *CIRCLE, "--junitxml=single.xml")
    split = suite.runpytest_subprocess(
        "--record=none", *MODELS, *CIRCLE, "-n", "2", "--junitxml=split.xml", timeout=SUBPROCESS_TIMEOUT
    )

    counted = ("passed", "failed", "errors")
    assert [split.parseoutcomes().get(k) for k in counted] == [single.parseoutcomes().get(k) for k in counted]
    assert summary_rows(split.stdout.str()) == summary_rows(single.stdout.str())
    assert junit_cases(suite.path / "split.xml") == junit_cases(suite.path / "single.xml")
