"""Live runs through the real litellm against a local server answering in the shapes real models
use: each answer is recorded whole (content, refusal, tool-call arguments, finish reason; bounded),
judged from facts with one line of cause, and replayed identically; ``--max-tokens`` reaches the
request and an answer cut there says so.

Issue 13.2/13.3 (max_tokens, diagnosis from facts) and 14.6/14.8 (lossless, bounded recording). The
server runs in this process on 127.0.0.1; the suite runs in a subprocess, as a user would run it.
"""

from __future__ import annotations

import json

import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.store import MAX_RECORDED_CHARS, model_slug
from shape_asserts.asking.stub_server import Shape, StubServer
from shape_asserts.cases import load_cases
from shape_asserts.results.record import CaseRecord

from .conftest import CIRCLE, SUBPROCESS_TIMEOUT, junit_cases

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

MODEL = "openai/exact"
CASE = next(c for c in load_cases() if c.id == "circle-start000-cw")
DRAWING = answer_text(CASE)
UNCLOSED = DRAWING[: DRAWING.index('"points"') + 200]
ONE_POINT = json.dumps({"grid_size": 50, "points": [{"x": 49, "y": 25}]})
PYTHON = (
    "Here is a script that draws the circle:\n```python\nimport math\n"
    "points = [(25 + 24 * math.cos(t / 10), 25 + 24 * math.sin(t / 10)) for t in range(63)]\n"
    'print({"points": points})\n```\n'
)
NEAR_JSON = '{"grid_size": 50, "points": [{"x": 27, "y:", 34}, {"x": 28, "y": 34}]}'
HUGE = DRAWING + " " * 300_000 + "and that is all."

#: Sample n is answered in SHAPES[n]; the cause each must get, as the start of its format error
#: (``None``: a drawing, judged).
SHAPES: tuple[tuple[Shape, str | None], ...] = (
    (
        Shape("fixed", PYTHON),
        "no JSON object with a 'points' list found in the answer; the answer holds a ```python block",
    ),
    (Shape("fixed", UNCLOSED), "answer is not valid JSON: Expecting"),
    (
        # the stub's usage says the answer stopped far below --max-tokens: the server's window cut it
        Shape("fixed", UNCLOSED, finish_reason="length"),
        "answer cut at the server's context window (finish_reason=length)",
    ),
    (Shape("fixed", ONE_POINT), None),
    (Shape("refusal", "I can't help with drawing."), "refused: I can't help with drawing."),
    (Shape("content_filter"), "filtered (content_filter)"),
    (Shape("tool_call"), None),
    (Shape("fixed", HUGE), f"answer is {len(HUGE):,} characters long; a recording keeps the first"),
    (Shape("fixed", NEAR_JSON), "answer is not valid JSON: Expecting ':' delimiter at line 1, column 44 (char 43)"),
)


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-answer-shapes-test-0001")
    return "sk-answer-shapes-test-0001"


def _run(suite: pytest.Pytester, *args: str) -> pytest.RunResult:
    return suite.runpytest_subprocess(
        f"--model={MODEL}",
        "--fixtures-dir=recorded",
        *CIRCLE,
        "-k",
        CASE.id,
        "-p",
        "no:randomly",
        *args,
        timeout=SUBPROCESS_TIMEOUT,
    )


def _record(suite: pytest.Pytester, xml: str) -> CaseRecord:
    (case,) = junit_cases(suite.path / xml).values()
    return CaseRecord.from_json(case.properties["shape_result"])


def test_finding_6_every_answer_shape_is_recorded_whole_judged_and_replayed_identically(suite, key):
    with StubServer(shape=[shape for shape, _ in SHAPES]) as srv:
        live = _run(
            suite,
            f"--api-base={srv.base_url}",
            f"--samples={len(SHAPES)}",
            "--concurrency=1",  # sample n is the n-th request, so it gets the n-th shape
            "--max-tokens=100000",
            "--junitxml=live.xml",
        )
    live.assert_outcomes(failed=1)
    assert [b.get("max_tokens", b.get("max_completion_tokens")) for b in srv.state.bodies] == [100_000] * len(SHAPES)

    rec = _record(suite, "live.xml")
    for sample, (shape, cause) in zip(rec.samples, SHAPES):
        if cause is None:
            assert sample.format_error is None and sample.n_points > 0, (shape.kind, sample.format_error)
        else:
            assert sample.format_error is not None and sample.format_error.startswith(cause), (shape.kind, sample)
            assert "\n" not in sample.format_error
    assert rec.samples[6].passed  # the drawing came as a tool call's arguments, and was judged as one
    assert rec.samples[7].answer_length == len(HUGE)

    doc = json.loads((suite.path / "recorded" / model_slug(MODEL) / f"{CASE.id}.json").read_text(encoding="utf-8"))
    samples = doc["samples"]
    assert doc["max_tokens"] == 100_000
    assert [s["finish_reason"] for s in samples[:6]] == ["stop", "stop", "length", "stop", "stop", "content_filter"]
    assert samples[4]["refusal"] == "I can't help with drawing."
    assert samples[6]["finish_reason"] == "tool_calls"
    assert json.loads(samples[6]["tool_calls"][0]["arguments"]) == json.loads(DRAWING)
    assert samples[7]["cut_from"] == {"text": len(HUGE)} and len(samples[7]["text"]) == MAX_RECORDED_CHARS

    # the failure message: each cause once, a caret under the decoder's spot (read from the failures
    # section: under CI=true pytest repeats whole messages in the short summary)
    out = live.stdout.str().split("short test summary info")[0]
    assert out.count("answer holds a ```python block instead") == 1
    assert "though the answer ended normally (finish_reason=stop)" in out

    replay = _run(suite, "--record=none", f"--samples={len(SHAPES)}", "--max-tokens=100000", "--junitxml=replay.xml")
    replay.assert_outcomes(failed=1)
    assert _record(suite, "replay.xml") == rec


def test_max_tokens_reaches_the_request_and_an_answer_cut_there_says_the_limit_and_how_to_raise_it(suite, key):
    with StubServer() as srv:  # it cuts answers at max_tokens, as a real server does
        result = _run(suite, f"--api-base={srv.base_url}", "--max-tokens=50")
    result.assert_outcomes(failed=1)
    assert [b.get("max_tokens", b.get("max_completion_tokens")) for b in srv.state.bodies] == [50]
    result.stdout.fnmatch_lines(
        [
            "*sample #0: not a drawing — answer cut at the token limit of 50 (finish_reason=length) before its "
            "drawing was complete; raise it with --max-tokens (ini shape_max_tokens)*"
        ]
    )
