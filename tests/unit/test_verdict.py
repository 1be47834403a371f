"""verdict: answer texts → scored samples → pass/fail, with a failure message worth reading."""

from __future__ import annotations

import json
import re

import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.results.verdict import MAX_LINE_REASON, MAX_PICTURES, MAX_QUOTE, CaseResult, SampleResult, judge

MODEL = "fake/model"


@pytest.fixture(scope="module")
def good(case) -> str:
    return answer_text(case, "exact")


@pytest.fixture(scope="module")
def bad(case) -> str:
    """A drawing that parses but fails checks: the ideal circle with a run of points cut out."""
    doc = json.loads(answer_text(case, "exact"))
    del doc["points"][10:20]
    return json.dumps(doc)


def _pictures(message: str) -> int:
    return message.count("legend: ")


# --- format errors ----------------------------------------------------------------------------------


def test_answer_that_is_not_a_drawing_is_a_failed_sample_scoring_zero(case):
    result = judge(case, MODEL, ["Sorry, I cannot draw circles."])
    (sample,) = result.samples
    assert sample.score is None and sample.drawing is None
    assert not sample.passed and sample.value == 0.0
    assert "no JSON object" in sample.format_error
    assert not result.passed and result.mean_score == 0.0


def test_format_error_message_quotes_the_start_of_the_answer(case):
    message = judge(case, MODEL, ["I would rather write a poem about circles."]).failure_message()
    assert "sample #0: not a drawing" in message
    assert "answer began: 'I would rather write a poem about circles.'" in message


def test_format_error_quote_is_bounded(case):
    long_answer = "blah " * 10_000
    message = judge(case, MODEL, [long_answer]).failure_message()
    assert len(message) < MAX_QUOTE + 500
    assert repr(long_answer[:MAX_QUOTE] + "…") in message


def test_format_error_sample_summary_says_why(case):
    summary = judge(case, MODEL, [""]).samples[0].summary()
    assert summary == {"format_error": "answer is empty", "passed": False, "score": 0.0}


# --- pass rates -------------------------------------------------------------------------------------


def test_all_good_samples_pass_under_the_default_rate(case, good):
    result = judge(case, MODEL, [good, good, good])
    assert result.min_pass_rate == 1.0
    assert result.passed and result.pass_rate == 1.0


def test_one_bad_sample_fails_the_default_rate(case, good, bad):
    result = judge(case, MODEL, [good, bad, good])
    assert not result.passed
    assert result.pass_rate == pytest.approx(2 / 3)


@pytest.mark.parametrize("rate", [0.66, 0.6667, 2 / 3, 0.5, 0.0])
def test_two_of_three_passing_satisfy_a_two_thirds_rate_however_it_is_written(case, good, bad, rate):
    assert judge(case, MODEL, [good, bad, good], min_pass_rate=rate).passed


@pytest.mark.parametrize("rate", [0.667, 0.67, 0.9, 1.0])
def test_two_of_three_passing_fail_a_rate_above_two_thirds(case, good, bad, rate):
    assert not judge(case, MODEL, [good, bad, good], min_pass_rate=rate).passed


def test_one_failing_sample_in_a_hundred_fails_the_default_rate(case, good, bad):
    assert not judge(case, MODEL, [good] * 99 + [bad]).passed


def test_a_case_without_samples_never_passes(case):
    result = judge(case, MODEL, [], min_pass_rate=0.0)
    assert not result.passed and result.pass_rate == 0.0 and result.mean_score == 0.0


@pytest.mark.parametrize("rate", [-0.1, 1.5, float("nan")])
def test_pass_rate_outside_zero_to_one_is_a_value_error(case, good, rate):
    with pytest.raises(ValueError, match="min_pass_rate must be in"):
        judge(case, MODEL, [good], min_pass_rate=rate)


# --- failure messages -------------------------------------------------------------------------------


def test_failure_message_names_model_case_counts_and_rates(case, good, bad):
    message = judge(case, MODEL, [good, bad, bad], min_pass_rate=0.5).failure_message()
    first = message.splitlines()[0]
    assert first == f"{MODEL} · {case.id}: 2 of 3 sample(s) failed (pass rate 0.33 < required 0.50)"


def test_failure_message_draws_the_failing_sample_with_its_failed_checks(case, good, bad):
    message = judge(case, MODEL, [good, bad]).failure_message()
    assert "sample #1 (circle)" in message and "sample #0" not in message
    assert "gaps:" in message
    assert _pictures(message) == 1
    rows = [line for line in message.splitlines() if re.fullmatch(r" *\d+ [.#SE2!·X]{50}", line)]
    assert len(rows) == case.grid_size
    assert any("·" in row for row in rows), "the ideal circle shows where the points are missing"


def test_failure_message_shows_at_most_max_pictures_drawings(case, bad):
    message = judge(case, MODEL, [bad] * (MAX_PICTURES + 2)).failure_message()
    assert _pictures(message) == MAX_PICTURES
    rest = ", ".join(f"#{i}" for i in range(MAX_PICTURES, MAX_PICTURES + 2))
    assert f"(also failed: samples {rest})" in message


def test_failure_message_of_format_errors_counts_toward_the_picture_limit(case):
    message = judge(case, MODEL, ["nope"] * (MAX_PICTURES + 1)).failure_message()
    assert message.count("not a drawing") == MAX_PICTURES
    assert f"(also failed: samples #{MAX_PICTURES})" in message


def test_failure_line_names_model_case_score_and_the_failed_checks_in_one_line(case, bad):
    result = judge(case, MODEL, [bad])
    line = result.failure_line()
    names = ", ".join(c.name for c in result.samples[0].score.failed)
    assert line == f"{MODEL} · {case.id}: score {result.mean_score:.2f}; failed: {names}"
    assert "gaps" in names


def test_failure_line_of_several_samples_names_each_failing_one(case, good, bad):
    line = judge(case, MODEL, [good, bad, "nope"], min_pass_rate=0.5).failure_line()
    assert "\n" not in line
    assert "2 of 3 samples failed (pass rate 0.33 < required 0.50)" in line
    assert "; #1 " in line and "failed: gaps" in line
    assert "; #2 not a drawing: " in line and "#0" not in line


def test_failure_line_of_a_hostile_answer_is_printable_and_bounded(case):
    """A refusal is quoted in the reason (``refused: <what the model said>``): it reaches the terminal."""
    hostile = "refused: " + "\x1b[2J\x1b]0;owned\x07 no\n" * 500
    sample = SampleResult(index=0, text="", drawing=None, score=None, format_error=hostile)
    line = CaseResult(case=case, model=MODEL, samples=(sample,)).failure_line()
    assert "\n" not in line and "\x1b" not in line and "\x07" not in line
    assert line.isprintable()
    assert len(line) < len(f"{MODEL} · {case.id}: score 0.00; not a drawing: ") + MAX_LINE_REASON + 2


# --- summary and properties -------------------------------------------------------------------------


def test_summary_pins_case_verdict_and_per_sample_checks(case, good, bad):
    summary = judge(case, MODEL, [good, bad], min_pass_rate=0.5).summary()
    assert summary["case"] == case.id and summary["family"] == "circle"
    assert summary["passed"] is True and summary["pass_rate"] == 0.5
    first, second = summary["samples"]
    assert first["passed"] is True and all(first["checks"].values())
    assert second["passed"] is False and second["checks"]["gaps"] is False
    assert isinstance(first["score"], float) and round(first["score"], 2) == first["score"]


def test_summary_is_the_same_for_the_same_answers(case, good, bad):
    assert judge(case, MODEL, [good, bad]).summary() == judge(case, MODEL, [good, bad]).summary()


def test_case_result_is_a_frozen_value(case, good):
    result = judge(case, MODEL, [good])
    assert isinstance(result, CaseResult)
    with pytest.raises(AttributeError):
        result.min_pass_rate = 0.0  # type: ignore[misc]
