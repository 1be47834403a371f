"""The result record: one per test, typed, bounded, and the same after a trip through JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.results.record import (
    MAX_ANSWER,
    MAX_POINTS,
    MAX_REASON,
    PROPERTY,
    CaseRecord,
    plain,
    printable,
    report_reason,
)
from shape_asserts.results.verdict import judge

MODEL = "fake/model"


@pytest.fixture(scope="module")
def answers(case) -> tuple[str, str]:
    """The exact drawer's answer, and the same with a run of points cut out (it fails ``gaps``)."""
    exact = answer_text(case, "exact")
    doc = json.loads(exact)
    doc["points"] = doc["points"][:10] + doc["points"][20:]
    return exact, json.dumps(doc)


@pytest.fixture(scope="module")
def good(answers) -> str:
    return answers[0]


@pytest.fixture(scope="module")
def bad(answers) -> str:
    return answers[1]


@pytest.fixture(scope="module")
def record(case, good, bad) -> CaseRecord:
    result = judge(case, MODEL, [good, bad, "nope"], min_pass_rate=0.3)
    return CaseRecord.from_result(result, "passed")


# --- what a judged record holds ---------------------------------------------------------------------


def test_a_judged_record_names_the_case_and_its_scores(case, good, bad, record):
    result = judge(case, MODEL, [good, bad, "nope"], min_pass_rate=0.3)

    assert (record.model, record.case, record.family) == (MODEL, case.id, "circle")
    assert (record.group, record.variant, record.tags) == (case.group, case.variant, case.tags)
    assert record.score == round(float(np.mean([s.value for s in result.samples])), 2)
    assert record.scores == tuple(s.value for s in result.samples) and record.scores[2] == 0.0
    assert record.pass_rate == 0.3333 and record.checks_passed is True and record.judged
    assert record.sample_passed == (True, False, False) and record.drawn == 2


def test_each_sample_keeps_its_checks_metrics_and_answer(good, bad, record):
    first, second, prose = record.samples

    assert first.answer == good and first.answer_length == len(good) and first.points is not None
    assert [c.name for c in second.failed] == ["gaps", "covered"]  # the hole leaves the asked circle uncovered
    gaps = second.failed[0]
    assert gaps.text.startswith("gaps: ") and gaps.margin is not None and gaps.margin < 0
    assert second.metrics["gaps"] >= 1 and second.marks["gaps"]
    assert prose.format_error and prose.checks == () and prose.points is None and prose.answer == "nope"


def test_a_record_is_the_same_after_a_trip_through_json_text(record):
    name, text = record.as_property()

    assert name == PROPERTY
    assert CaseRecord.from_json(text) == record
    assert text == json.dumps(record.to_json(), ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    assert CaseRecord.from_json(json.loads(text)) == record
    assert CaseRecord.from_properties([("other", 1), (name, text)]) == record


def test_the_process_that_made_a_property_takes_its_record_back_and_any_other_parses_it(record):
    name, text = record.as_property()

    assert CaseRecord.from_properties([(name, text)]) is record  # the run without xdist: no parsing
    again = CaseRecord.from_properties([(name, text)])  # taken once; a second reader parses the text
    assert again == record and again is not record


def test_the_property_is_strict_ascii_json_whatever_the_model_wrote(case, good):
    hostile = "\x00\x1b[2J\ud800 ✓ <script>\n" + good
    rec = CaseRecord.from_result(judge(case, MODEL, [hostile]), "failed")

    text = rec.as_property()[1]

    assert text.isascii()
    json.loads(text, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert CaseRecord.from_json(text).samples[0].answer == hostile
    assert text == json.dumps(rec.to_json(), ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def test_a_long_answer_is_kept_only_up_to_the_bound_with_its_length(case, good):
    long_answer = good + "x" * (2 * MAX_ANSWER)

    (sample,) = CaseRecord.from_result(judge(case, MODEL, [long_answer]), "passed").samples

    assert len(sample.answer) == MAX_ANSWER and sample.answer_length == len(long_answer)


def test_a_drawing_with_many_points_keeps_an_even_thinning_with_its_count(case):
    pts = [{"x": i % 50, "y": (i // 50) % 50} for i in range(5 * MAX_POINTS)]
    record = CaseRecord.from_result(judge(case, MODEL, [json.dumps({"points": pts})]), "failed")

    (sample,) = record.samples
    assert sample.n_points == 5 * MAX_POINTS
    assert len(sample.points) == MAX_POINTS
    assert sample.points[0] == (0, 0) and sample.points[-1] == (49, 49)  # both ends kept
    assert all(0 <= i < MAX_POINTS for k in ("gaps", "breaks") for i in sample.marks[k])
    _, text = record.as_property()  # what crosses to the controller and lands in JUnit XML
    assert len(text) < 40_000


def test_numbers_that_json_cannot_carry_become_text():
    assert plain({"a": float("inf"), "b": np.float64(1.5), "c": np.int64(3), "d": np.bool_(True)}) == {
        "a": "inf",
        "b": 1.5,
        "c": 3,
        "d": True,
    }
    assert plain(list(range(100))) == tuple(range(32))


# --- records without a verdict ----------------------------------------------------------------------


def test_an_errored_case_has_a_record_without_scores_and_a_one_line_reason(case):
    rec = CaseRecord.unjudged("m", case, "error", "ProviderError: m: \x1b[31mdown\x1b[0m\nTraceback ...")

    assert not rec.judged and rec.score is None and rec.pass_rate is None and rec.samples == ()
    assert rec.reason == "ProviderError: m: down"
    assert CaseRecord.from_json(rec.as_property()[1]) == rec


def test_an_unknown_outcome_is_refused(case):
    with pytest.raises(ValueError, match="outcome must be one of passed, failed, error, skipped"):
        CaseRecord.unjudged("m", case, "crashed")


def test_reading_ignores_fields_it_does_not_know_and_refuses_what_is_not_an_object(record):
    data = record.to_json()
    data["from_a_newer_version"] = 1

    assert CaseRecord.from_json(data) == record
    with pytest.raises(TypeError, match="JSON object"):
        CaseRecord.from_json("[1, 2]")


def test_a_test_without_a_record_has_none():
    assert CaseRecord.from_properties([("other", 1)]) is None


def test_the_last_record_of_a_test_wins(case):
    first = CaseRecord.unjudged("m", case, "error", "first")
    last = replace(first, reason="last")

    assert CaseRecord.from_properties([first.as_property(), last.as_property()]).reason == "last"


# --- reasons ----------------------------------------------------------------------------------------


def test_a_failed_setup_gives_the_first_line_of_its_error():
    report = SimpleNamespace(longrepr="ProviderError: m: OPENAI_API_KEY is not set\nmore", longreprtext="")
    assert report_reason(report) == "ProviderError: m: OPENAI_API_KEY is not set"


def test_a_skip_gives_its_reason():
    report = SimpleNamespace(longrepr=("f.py", 1, "Skipped: --max-cost reached"), longreprtext="")
    assert report_reason(report) == "Skipped: --max-cost reached"


def test_the_reason_under_xdist_is_the_error_not_the_worker_header():
    """Under xdist a report's text starts with "[gw1] linux -- Python ..."; the report once showed
    that as the case's reason."""
    report = SimpleNamespace(
        longrepr="[gw1] linux -- Python 3.11.7 /usr/bin/python\nProviderError: m: down", longreprtext=""
    )
    assert report_reason(report) == "ProviderError: m: down"


def test_a_key_the_reasons_cut_goes_through_is_masked_whole(monkeypatch):
    """Red team rt44 F1's order: the reason was cut to MAX_REASON and masked only as the results
    file was written, when a key the cut went through was no longer found whole."""
    key = "AZ9fQ3kLm2Xv7Pp1Rt5Ww8Yy0Bc4Dd6E"
    monkeypatch.setenv("AZURE_API_KEY", key)
    for padding in range(MAX_REASON - 40, MAX_REASON, 4):
        report = SimpleNamespace(longrepr="y" * padding + " " + key, longreprtext="")
        assert key[:6] not in report_reason(report)


def test_escape_sequences_from_a_provider_never_reach_the_reason():
    """A provider's error body could clear the screen, set the title or fake a '139 passed' line."""
    report = SimpleNamespace(
        longrepr="ProviderError: m: \x1b[2J\x1b]0;pwned\x07bad\x1b[32m 139 passed\x1b[0m", longreprtext=""
    )
    assert report_reason(report) == "ProviderError: m: bad 139 passed"
    assert printable("a\x00b\tc\x9bd") == "ab cd"


def test_a_reason_is_bounded():
    report = SimpleNamespace(longrepr="x" * (3 * MAX_REASON), longreprtext="")
    assert len(report_reason(report)) == MAX_REASON


@pytest.mark.parametrize(
    "pts",
    [[[1.0, 2.0], [3.0, -4.0]], [[1.5, 2.0], [3.0, 4.0]], [[2.0**60, 1.0]], [[-0.0, 0.0]]],
)
def test_a_records_points_are_whole_numbers_as_ints_and_the_rest_as_floats(pts):
    from shape_asserts.results.record import _coordinate, _points

    arr = np.array(pts, dtype=float)
    expected = tuple((_coordinate(float(x)), _coordinate(float(y))) for x, y in arr)
    got = _points(arr)
    assert got == expected and [type(v) for p in got for v in p] == [type(v) for p in expected for v in p]
