"""``--model-arg`` and ``--shape-models``: arguments for the provider, and named configurations run
under their own names (test ids, recordings, summary, gate).

The runs ask a stand-in litellm (in-process, no import of the real one) that logs every argument
it receives; ``test_model_args_live.py`` sends them through the real litellm to the stub server.
"""

from __future__ import annotations

import json

import pytest

# imported here, by the outer process, as the other option tests do: a module first imported inside
# an in-process run is dropped from sys.modules after it, and the stand-in below would then patch
# a copy of call.py the next run does not use
from shape_asserts.asking.store import model_slug

from .conftest import CIRCLE, INI, AskLog, summary_rows

CASE = "circle-start330-ccw"

#: A stand-in litellm that answers like the exact reference drawer and logs each call's arguments.
LOGGING_LITELLM_CONFTEST = """
import json
import types
from pathlib import Path

import importlib

# the module the asking code uses (sys.modules'): after an earlier in-process run, pytester
# leaves the package's attribute a copy of its own, and patching that one changed nothing
ask = importlib.import_module("shape_asserts.asking.call")
from shape_asserts.asking.reference import answer_for_messages

LOG = Path(__file__).with_name("asked.jsonl")
OURS = ("messages", "metadata", "timeout", "max_retries", "num_retries")


async def acompletion(*, model, messages, metadata=None, **kwargs):
    sample = int((metadata or {}).get("shape_sample", 0))
    with LOG.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"model": model, **{k: v for k, v in kwargs.items() if k not in OURS}}) + "\\n")
    text = answer_for_messages("exact", messages, sample)
    choice = types.SimpleNamespace(message=types.SimpleNamespace(content=text), finish_reason="stop")
    return types.SimpleNamespace(choices=[choice], usage=None, model="fake-litellm")


FAKE = types.SimpleNamespace(
    acompletion=acompletion, validate_environment=lambda model: {"missing_keys": [], "keys_in_environment": True}
)
_REAL = ask.load_litellm


def pytest_configure(config):
    ask.load_litellm = lambda: FAKE


def pytest_unconfigure(config):
    ask.load_litellm = _REAL
"""

MODELS_TOML = """
[models.gpt-low]
model = "openai/gpt-5"
reasoning_effort = "low"

[models.gpt-high]
model = "openai/gpt-5"
reasoning_effort = "high"
top_p = 0.9
"""


@pytest.fixture
def asked(suite: pytest.Pytester) -> AskLog:
    suite.makeconftest(LOGGING_LITELLM_CONFTEST)
    suite.path.joinpath("models.toml").write_text(MODELS_TOML, encoding="utf-8")
    return AskLog(suite.path / "asked.jsonl")


def test_model_args_reach_every_call_and_the_ini_s_come_first(suite, asked):
    suite.makeini(INI + "shape_model_args =\n    seed=1\n    user=ci\n")

    result = suite.runpytest("--model=openai/gpt-5", "--model-arg", "seed=7", "--model-arg", "top_p=0.5", *CIRCLE)

    result.assert_outcomes(passed=len(asked.calls()))
    assert asked.calls() and all(
        {k: c.get(k) for k in ("seed", "top_p", "user")} == {"seed": 7, "top_p": 0.5, "user": "ci"}
        for c in asked.calls()
    )


def test_two_configurations_of_one_model_run_under_their_names_each_with_its_arguments(suite, asked):
    result = suite.runpytest(
        "--shape-models=models.toml", "--model=gpt-low", "--model=gpt-high", "--model-arg", "seed=7", "-v", *CIRCLE
    )

    calls = asked.calls()
    result.assert_outcomes(passed=len(calls))
    result.stdout.fnmatch_lines(
        [f"*test_drawing[[]{CASE}@gpt-low[]] PASSED*", f"*test_drawing[[]{CASE}@gpt-high[]] PASSED*"]
    )
    assert {c["model"] for c in calls} == {"openai/gpt-5"}
    by_effort = {c["reasoning_effort"]: {k: v for k, v in c.items() if k != "max_tokens"} for c in calls}
    assert by_effort == {
        "low": {"model": "openai/gpt-5", "reasoning_effort": "low", "seed": 7},
        "high": {"model": "openai/gpt-5", "reasoning_effort": "high", "seed": 7, "top_p": 0.9},
    }
    assert {model for model, _ in summary_rows(result.stdout.str())} == {"gpt-low", "gpt-high"}
    doc = json.loads((suite.path / "fixtures" / model_slug("gpt-high") / f"{CASE}.json").read_text(encoding="utf-8"))
    assert (doc["model"], doc["litellm_model"]) == ("gpt-high", "openai/gpt-5")
    assert doc["model_args"] == {"reasoning_effort": "high", "seed": 7, "top_p": 0.9}


def test_a_gate_between_two_configurations_replays_both_under_their_names(suite, asked):
    suite.runpytest("--shape-models=models.toml", "--model=gpt-low", "--model=gpt-high", "-k", CASE)
    before = len(asked.calls())

    result = suite.runpytest(
        "--shape-models=models.toml",
        "--model=gpt-high",
        "--baseline=gpt-low",
        "--record=none",
        "--shape-report=report.html",
        "-k",
        CASE,
    )

    assert result.ret == 0
    result.stdout.fnmatch_lines(["*shape-asserts gate*", "*baseline gpt-low*", "gate: *"])
    assert len(asked.calls()) == before  # replayed: nothing asked
    report = (suite.path / "report.html").read_text(encoding="utf-8")  # what each name stands for
    assert "model gpt-low <b>openai/gpt-5 {&quot;reasoning_effort&quot;:&quot;low&quot;}</b>" in report


def test_changed_arguments_ask_again_saying_why(suite, asked):
    suite.runpytest("--model=openai/gpt-5", "--model-arg", "top_p=0.5", "-k", CASE)

    result = suite.runpytest("--model=openai/gpt-5", "--model-arg", "top_p=0.7", "-k", CASE)

    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [f"shape-asserts: asking openai/gpt-5/{CASE} again: *its model arguments changed: top_p 0.5 → 0.7*"]
    )
    assert [c["top_p"] for c in asked.calls()] == [0.5, 0.7]


def test_configurations_are_read_from_the_rootdir_pyproject(suite, asked):
    suite.path.joinpath("pyproject.toml").write_text(
        '[tool.shape-asserts.models.mini]\nmodel = "openai/gpt-5-mini"\nseed = 3\n', encoding="utf-8"
    )

    result = suite.runpytest("--model=mini", "-k", CASE)

    result.assert_outcomes(passed=1)
    assert [(c["model"], c["seed"]) for c in asked.calls()] == [("openai/gpt-5-mini", 3)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--model-arg", "top_p"), "*--model-arg takes KEY=VALUE*got 'top_p'"),
        (("--model-arg", "api_key=sk-test-123456789"), "*--model-arg api_key: refused, since its name*environment*"),
        (("--model-arg", "temperature=0.2"), "*temperature has an option of its own; use --temperature*"),
        (("--shape-models=bad.toml",), "*bad.toml*[[]models.x[]] has no model; add model = *"),
    ],
)
def test_bad_arguments_or_configurations_stop_the_run_at_start_with_one_line(suite, asked, args, message):
    suite.path.joinpath("bad.toml").write_text("[models.x]\ntop_p = 0.9\n", encoding="utf-8")

    result = suite.runpytest("--model=openai/gpt-5", *args, "-k", CASE)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: shape-asserts: {message}"])
    assert "Traceback" not in result.stderr.str() and "sk-test-123456789" not in result.stderr.str()
    assert asked.calls() == []


def test_the_header_says_what_each_configuration_of_the_run_asks(suite, asked):
    result = suite.runpytest("--shape-models=models.toml", "--model=gpt-high", "--collect-only", "-k", CASE)

    result.stdout.fnmatch_lines(
        ["shape-asserts: model configurations (results and recordings go by the name): gpt-high = *"]
    )


def test_a_model_name_that_nearly_names_a_configuration_is_pointed_out_in_the_header(suite, asked):
    result = suite.runpytest("--shape-models=models.toml", "--model=gpt-hihg", "--collect-only", "-k", CASE)

    result.stdout.fnmatch_lines(
        ["shape-asserts: gpt-hihg (did you mean gpt-high?) names no model configuration, so it is asked as a litellm*"]
    )
