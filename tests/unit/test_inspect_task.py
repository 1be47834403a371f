"""The inspect_ai task's wiring: which cases it asks, what it refuses, how it reads an answer, its metrics.

End to end against the stub server: tests/integration/test_inspect_task.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from shape_asserts.cases import load_cases
from shape_asserts.cases.load import BENCHMARK
from shape_asserts.results.leaderboard import OVERALL, leaderboard
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.verdict import judge

pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed: pip install -e '.[inspect]' (CI installs it with '.[test]')"
)

# imported once inspect_ai is known to be there
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ContentText,
    ModelOutput,
)
from inspect_ai.scorer import SampleScore, Score
from inspect_ai.tool import ToolCall

from shape_asserts.inspect_task import recorded_answer, select_cases, shape_metrics, shapes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
CIRCLE = "circle-start000-cw"


def _case():
    return next(c for c in load_cases() if c.id == CIRCLE)


def _ideal_drawing() -> dict:
    """The case's ideal drawing as the JSON object a model answers with."""
    return {"points": [{"x": int(x), "y": int(y)} for x, y in _case().ideal()]}


def test_the_default_run_asks_the_default_cases_and_the_benchmark_only_its_matrix():
    default = [c.id for c in load_cases() if BENCHMARK not in c.tags]
    assert [c.id for c in select_cases(None, False)] == default
    bench = select_cases("circle", True)
    assert bench and all(BENCHMARK in c.tags and c.family == "circle" for c in bench)
    both = select_cases(["circle", "spiral"], False)
    assert {c.family for c in both} == {"circle", "spiral"}
    assert len(both) == len(select_cases("circle", False)) + len(select_cases("spiral", False))


def test_an_unknown_family_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match=r"-T family=circl: no case of 'circl' in the default cases; .*circle"):
        select_cases("circl", False)
    with pytest.raises(ValueError, match="'house' in the benchmark matrix"):
        select_cases("house", True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"lang": "de"}, r"-T lang='de' is not a prompt language; choose one of ru, en"),
        ({"samples": 0}, r"-T samples=0 is not a whole number"),
        ({"samples": True}, r"-T samples=True is not a whole number"),
        ({"samples": 1_000_000_000}, r"-T samples=1000000000 is not a whole number .* to 1,000"),
        ({"benchmark": "yes"}, r"-T benchmark='yes' is not true or false"),
    ],
)
def test_a_bad_task_argument_is_refused_with_the_fix(args, message):
    with pytest.raises(ValueError, match=message):
        shapes(family="circle", **args)


def test_each_case_is_one_sample_asking_its_own_prompt_as_many_times_as_asked():
    task = shapes(family="circle", lang="en", samples=3)
    cases = select_cases("circle", False)
    assert [s.id for s in task.dataset] == [c.id for c in cases]
    assert [s.input for s in task.dataset] == [c.prompt("en") for c in cases]
    assert task.epochs == 3
    assert task.config.max_tokens == 4096


def _output(message: ChatMessageAssistant, stop_reason: str = "stop") -> ModelOutput:
    return ModelOutput(model="m", choices=[ChatCompletionChoice(message=message, stop_reason=stop_reason)])


def _verdict_of(output: ModelOutput):
    return judge(_case(), "m", [recorded_answer(output)]).samples[0]


def test_a_drawing_in_text_or_in_a_tool_call_is_scored_alike():
    text = _verdict_of(ModelOutput.from_content("m", json.dumps(_ideal_drawing())))
    call = ToolCall(id="call_0", function="draw", arguments=_ideal_drawing())
    tool = _verdict_of(_output(ChatMessageAssistant(content="", tool_calls=[call]), "tool_calls"))
    assert text.passed and tool.passed
    assert tool.value == text.value


def test_a_refusal_a_filter_and_a_cut_answer_say_so():
    refused = _verdict_of(_output(ChatMessageAssistant(content=[ContentText(text="I can't draw", refusal=True)])))
    assert refused.format_error == "refused: I can't draw"
    filtered = _verdict_of(_output(ChatMessageAssistant(content=""), "content_filter"))
    assert filtered.format_error is not None and filtered.format_error.startswith("filtered (content_filter)")
    cut = _verdict_of(_output(ChatMessageAssistant(content=json.dumps(_ideal_drawing())[:300]), "max_tokens"))
    assert cut.format_error is not None and "cut at the provider's token limit" in cut.format_error


def test_the_explanation_and_verdict_quote_an_answer_redacted():
    """The scorer's explanation quoted the answer as written; the suite's own failure text is redacted."""
    from shape_asserts.inspect_task import _explanation, _verdict

    result = judge(_case(), "m", [recorded_answer(ModelOutput.from_content("m", "my Bearer sk-redteam-SECRET123"))])
    said = _explanation(result) + json.dumps(_verdict(result))
    assert "SECRET123" not in said and "[REDACTED]" in said


@pytest.mark.parametrize("padding", [250, 280, 295])
def test_an_answer_quoted_where_its_quote_is_cut_is_redacted_before_the_cut(monkeypatch, padding):
    """Red team rt44 F1's order in the inspect task: the answer was quoted cut to 300 characters
    and only then masked, so a key the cut went through was shown in part."""
    from shape_asserts.inspect_task import _explanation, _verdict

    monkeypatch.setenv("AZURE_API_KEY", "AZ9fQ3kLm2Xv7Pp1Rt5Ww8Yy0Bc4Dd6E")
    answer = "y" * padding + " AZ9fQ3kLm2Xv7Pp1Rt5Ww8Yy0Bc4Dd6E"
    result = judge(_case(), "m", [recorded_answer(ModelOutput.from_content("m", answer))])
    said = _explanation(result) + json.dumps(_verdict(result))
    assert "AZ9fQ3" not in said


def _scores(values):
    """Reduced sample scores as inspect hands them to a metric: (case, group, score, passed, drawn)."""
    return [
        SampleScore(
            score=Score(value={"score": s, "passed": p, "drawn": d}),
            sample_id=case,
            sample_metadata={"case": case, "family": "circle", "group": group},
        )
        for case, group, s, p, d in values
    ]


def test_the_metrics_are_the_leaderboards_numbers():
    values = [
        ("a", "g1", 90.0, 1.0, 1.0),
        ("b", "g1", 80.0, 0.5, 1.0),
        ("c", "g2", 70.0, 0.0, 1.0),
        ("d", "g2", 75.0, 1.0, 1.0),
        ("e", "g3", 0.0, 0.0, 0.0),  # no drawing: not in the stability
        ("f", "g3", 60.0, 0.0, 1.0),
    ]
    got = shape_metrics()(_scores(values))
    assert got == pytest.approx({"mean_score": 62.5, "pass_rate": 2.5 / 6, "stability": (10.0 + 5.0) / 2})
    records = [
        CaseRecord.from_scores("m", case, "circle", [s], [p == 1.0], group=group) for case, group, s, p, _ in values
    ]
    board = leaderboard(records).standing("m", OVERALL)
    assert board is not None and board.score is not None
    assert got["mean_score"] == pytest.approx(board.score.value)


def test_no_stability_without_two_drawings_in_a_group():
    got = shape_metrics()(_scores([("a", "g1", 90.0, 1.0, 1.0), ("b", "g2", 80.0, 1.0, 1.0)]))
    assert got == pytest.approx({"mean_score": 85.0, "pass_rate": 1.0})


def test_the_entry_point_names_the_package_and_the_task_module():
    """inspect_ai loads the entry point named after the package of ``shape_asserts/shapes``."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["inspect_ai"] == {"shape_asserts": shapes.__module__}
    for extra in ("inspect", "test"):  # test: CI installs only '.[test]', and runs the task end to end
        assert any(r.startswith("inspect-ai") for r in project["optional-dependencies"][extra]), extra
