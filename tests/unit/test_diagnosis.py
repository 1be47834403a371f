"""diagnosis: why an answer is not a drawing, said from the facts recorded with it, one cause each.

The answers are the shapes real models and servers produce (issue 13.3, 14.6): prose with fenced
Python, an unclosed object that ended normally, an answer cut at the token limit, near-JSON, a
refusal, a content-filter stop, a drawing in a tool call's arguments, an answer cut when recorded.
"""

from __future__ import annotations

import json

import pytest

from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.store import MAX_RECORDED_CHARS
from shape_asserts.cases import builtin_case_files, load_cases
from shape_asserts.results.diagnosis import RAISE_LIMIT, read_answer
from shape_asserts.results.verdict import judge

CASE = load_cases([p for p in builtin_case_files() if p.name == "circle.toml"], builtin=False)[0]
DRAWING = answer_text(CASE)
UNCLOSED = DRAWING[: DRAWING.index('"points"') + 200]  # mid-list, as a token limit leaves it
NEAR_JSON = '{"grid_size": 50, "points": [{"x": 27, "y:", 34}, {"x": 28, "y": 34}]}'
PYTHON = (
    "Sure! Here is a script that draws it:\n```python\nimport math\n"
    "points = [(25 + 20 * math.cos(t / 10), 25 + 20 * math.sin(t / 10)) for t in range(63)]\n"
    'print({"points": points})\n```\nRun it to get the points.'
)


def _error(answer: RecordedAnswer | str) -> str:
    got = read_answer(answer)
    assert got.drawing is None
    assert got.error is not None and "\n" not in got.error  # one line
    return got.error


def test_an_unclosed_object_that_ended_normally_gets_the_decoders_message_not_truncated():
    error = _error(RecordedAnswer(UNCLOSED, finish_reason="stop"))
    assert "truncated" not in error and "cut" not in error
    assert error.startswith("answer is not valid JSON: Expecting")
    assert f"(char {len(UNCLOSED)}" in error or f"(char {len(UNCLOSED) - 1}" in error
    assert "the end of its JSON, though the answer ended normally (finish_reason=stop)" in error


def test_an_answer_cut_at_the_token_limit_names_the_limit_and_how_to_raise_it():
    error = _error(RecordedAnswer(UNCLOSED, finish_reason="length", max_tokens=300))
    assert error == (
        "answer cut at the token limit of 300 (finish_reason=length) before its drawing was complete; " + RAISE_LIMIT
    )


def test_an_answer_cut_short_of_max_tokens_names_the_context_window_not_max_tokens():
    usage = {"prompt_tokens": 639, "completion_tokens": 1409}
    error = _error(RecordedAnswer(UNCLOSED, finish_reason="length", max_tokens=4096, usage=usage))
    assert error.startswith("answer cut at the server's context window (finish_reason=length)")
    assert "prompt 639 + answer 1,409 = 2,048 tokens, the answer short of --max-tokens 4,096" in error
    assert RAISE_LIMIT not in error


def test_an_answer_that_used_every_token_allowed_or_said_no_usage_is_told_to_raise_max_tokens():
    full = _error(RecordedAnswer(UNCLOSED, finish_reason="length", max_tokens=300, usage={"completion_tokens": 300}))
    silent = _error(RecordedAnswer(UNCLOSED, finish_reason="length", max_tokens=300, usage={"prompt_tokens": 9}))
    for error in (full, silent):
        assert error.startswith("answer cut at the token limit of 300") and error.endswith(RAISE_LIMIT)


def test_a_complete_drawing_is_judged_even_when_the_provider_says_length():
    assert read_answer(RecordedAnswer(DRAWING + "\nThat was", finish_reason="length")).drawing is not None


def test_an_empty_answer_cut_at_the_limit_is_cut_not_empty():
    error = _error(RecordedAnswer("", finish_reason="length", max_tokens=64))
    assert error.startswith("answer cut at the token limit of 64 (finish_reason=length) before it wrote a drawing")


def test_an_answer_ending_mid_json_with_no_finish_reason_is_truncated_and_says_it_does_not_know_why():
    error = _error(RecordedAnswer(UNCLOSED))
    assert error.startswith("answer truncated: its JSON ends inside 'points' and no finish reason was recorded")
    assert RAISE_LIMIT in error


def test_near_json_gets_the_decoders_position_and_a_caret_under_it():
    got = read_answer(RecordedAnswer(NEAR_JSON, finish_reason="stop"))
    assert got.error == "answer is not valid JSON: Expecting ':' delimiter at line 1, column 44 (char 43)"
    quote, caret = got.excerpt.splitlines()
    assert NEAR_JSON[43] == ","  # the offending comma after "y:"
    assert quote[caret.index("^")] == ","
    assert len(quote) <= 2 * 30 + 2  # bounded


def test_the_excerpt_strips_control_characters():
    text = '{"points": [{"x": 1, "y" 2}\x1b[2J\x07]}'
    got = read_answer(RecordedAnswer(text, finish_reason="stop"))
    assert "\x1b" not in got.excerpt and "\x07" not in got.excerpt
    quote, caret = got.excerpt.splitlines()
    assert quote[caret.index("^")] == "2"


def test_prose_with_fenced_python_is_named_as_code_not_as_broken_json():
    assert _error(RecordedAnswer(PYTHON, finish_reason="stop")) == (
        "no JSON object with a 'points' list found in the answer; the answer holds a ```python block instead"
    )


def test_a_refusal_is_a_failed_sample_quoting_what_the_model_said():
    error = _error(RecordedAnswer("", finish_reason="stop", refusal="I can't\nhelp with that."))
    assert error == "refused: I can't help with that."


def test_a_content_filter_stop_is_said_as_filtered():
    assert _error(RecordedAnswer("", finish_reason="content_filter")).startswith("filtered (content_filter)")


def test_a_drawing_in_a_tool_calls_arguments_is_judged_when_the_content_is_empty():
    got = read_answer(RecordedAnswer("", finish_reason="tool_calls", tool_arguments=(DRAWING,)))
    assert got.drawing is not None and got.text == DRAWING
    result = judge(CASE, "m", [RecordedAnswer("", finish_reason="tool_calls", tool_arguments=(DRAWING,))])
    assert result.passed


def test_a_tool_call_beside_prose_is_where_the_drawing_is_read_from():
    answer = RecordedAnswer("I'll draw it now.", finish_reason="tool_calls", tool_arguments=(DRAWING,))
    assert read_answer(answer).drawing is not None
    broken = RecordedAnswer("I'll draw it now.", finish_reason="tool_calls", tool_arguments=(NEAR_JSON,))
    assert _error(broken).startswith("tool call: answer is not valid JSON: Expecting ':' delimiter")


def test_an_answer_cut_when_recorded_says_its_full_length_and_is_not_parsed():
    cut = RecordedAnswer(DRAWING, finish_reason="stop", cut_from={"text": 300_000})
    got = read_answer(cut)
    assert got.drawing is None and got.length == 300_000
    assert got.error == (
        f"answer is 300,000 characters long; a recording keeps the first {MAX_RECORDED_CHARS:,}, so it was cut when recorded"
    )
    sample = judge(CASE, "m", [cut]).samples[0]
    assert sample.answer_length == 300_000


def test_an_answer_with_one_point_is_a_drawing_that_fails_its_checks():
    one = json.dumps({"grid_size": 50, "points": [{"x": 25, "y": 5}]})
    result = judge(CASE, "m", [RecordedAnswer(one, finish_reason="stop")])
    assert result.samples[0].drawing is not None and not result.passed
    assert result.samples[0].score is not None and result.samples[0].score.failed
    assert f"sample #0 ({CASE.family}, only 1 point): " in result.failure_message()


@pytest.mark.parametrize(
    "answer",
    [UNCLOSED, NEAR_JSON, PYTHON, "", "\x00\x1b[2J", '{"points": [' * 50],
    ids=["unclosed", "near-json", "python", "empty", "control", "deep"],
)
def test_every_bad_answer_gets_exactly_one_line_of_cause_with_or_without_a_finish_reason(answer):
    for reason in (None, "stop", "length", "tool_calls"):
        _error(RecordedAnswer(answer, finish_reason=reason))


#: Right-to-left override, zero-width space and joiner, a left-to-right isolate and its end.
REORDERING = "\u202e\u200b\u200d\u2066\u2069"


def test_bidirectional_and_zero_width_characters_never_reach_a_message_or_the_report():
    """They reordered or hid the words around them in the terminal's refusal line, the answer's
    excerpt, the leaderboard's columns and the report's answers (red-team m3)."""
    from shape_asserts.asking.batch_state import one_line
    from shape_asserts.results.panels import esc
    from shape_asserts.results.record import printable

    refusal = read_answer(RecordedAnswer(text="", refusal=f"I cannot{REORDERING} draw"))
    broken = read_answer(f'{{"points": [{REORDERING}')
    for text in (
        refusal.error,
        broken.error,
        printable(f"a{REORDERING}b"),
        esc(f"a{REORDERING}b"),
        one_line(REORDERING),
    ):
        assert not set(text) & set(REORDERING), repr(text)
