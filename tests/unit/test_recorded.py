"""Recorded answers: every shape an answer came in is kept (text, refusal, tool calls, finish reason),
bounded, read back as it was written; the token limit is part of a live recording's identity.

Issue 14.6 (answers recorded lossily), 14.8 (recorded answers unbounded), 13.2 (``--max-tokens``).
"""

from __future__ import annotations

import asyncio
import json
import types

import pytest

from shape_asserts.asking import call
from shape_asserts.asking.asker import Asker
from shape_asserts.asking.call import Answer
from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.asking.store import MAX_RECORDED_CHARS, FixtureStore, Recording, sample_record
from shape_asserts.cases import Case, builtin_cases
from shape_asserts.exceptions import FixtureError

LIVE = "openai/gpt-4o"


def _recording(case: Case, samples: list[dict], *, model: str = LIVE, max_tokens: int | None = None) -> Recording:
    return Recording(
        model=model,
        case_id=case.id,
        lang="ru",
        temperature=None,
        prompt_sha256=case.prompt_hash("ru"),
        samples=samples,
        max_tokens=max_tokens,
    )


def _sample(i: int, finish: str = "stop", tokens: int = 100) -> dict:
    return sample_record(i, Answer(text=f"answer {i}", finish_reason=finish, usage={"completion_tokens": tokens}), None)


# --- what litellm hands back ------------------------------------------------------------------------


def _response(message: types.SimpleNamespace, finish: str) -> types.SimpleNamespace:
    choice = types.SimpleNamespace(message=message, finish_reason=finish)
    return types.SimpleNamespace(choices=[choice], usage=None, model="m", _hidden_params={"response_cost": 0.0})


def test_a_tool_call_answer_keeps_the_calls_arguments_and_why_it_ended():
    fn = types.SimpleNamespace(name="draw", arguments='{"points": [[1, 2]]}')
    message = types.SimpleNamespace(content=None, tool_calls=[types.SimpleNamespace(function=fn)])
    answer = call._to_answer(None, "m", _response(message, "tool_calls"), 0.1)
    assert (answer.text, answer.tool_calls, answer.finish_reason) == (
        "",
        (("draw", '{"points": [[1, 2]]}'),),
        "tool_calls",
    )


def test_a_refusal_and_a_content_filter_stop_are_kept_not_turned_into_an_empty_answer():
    refused = call._to_answer(None, "m", _response(types.SimpleNamespace(content=None, refusal="No."), "stop"), 0.1)
    assert refused.refusal == "No."
    filtered = call._to_answer(None, "m", _response(types.SimpleNamespace(content=None), "content_filter"), 0.1)
    assert (filtered.text, filtered.finish_reason) == ("", "content_filter")


def test_max_tokens_is_sent_with_the_call(monkeypatch):
    sent: list[dict] = []

    async def acompletion(**kwargs):
        sent.append(kwargs)
        return _response(types.SimpleNamespace(content="drawn"), "stop")

    monkeypatch.setattr(call, "load_litellm", lambda: types.SimpleNamespace(acompletion=acompletion))
    asyncio.run(call.aask("openai/m", [{"role": "user", "content": "draw"}], api_base="http://x", max_tokens=321))
    asyncio.run(call.aask("openai/m", [{"role": "user", "content": "draw"}], api_base="http://x"))
    assert sent[0]["max_tokens"] == 321 and "max_tokens" not in sent[1]


# --- what a fixture keeps ---------------------------------------------------------------------------


def test_every_answer_shape_is_recorded_and_read_back_as_it_was(store, case):
    answer = Answer(
        text="",
        finish_reason="tool_calls",
        refusal="I would rather not.",
        tool_calls=(("draw", '{"points": [[1, 2]]}'), ("note", "{}")),
    )
    store.write(_recording(case, [sample_record(0, answer, None)], max_tokens=512))
    rec = store.read(LIVE, case)
    assert rec.max_tokens == 512
    assert rec.answers(1) == [
        RecordedAnswer(
            text="",
            finish_reason="tool_calls",
            refusal="I would rather not.",
            tool_arguments=('{"points": [[1, 2]]}', "{}"),
            max_tokens=512,
        )
    ]


def test_a_plain_answer_records_no_new_fields_and_old_recordings_read_as_before(store, case):
    sample = sample_record(0, Answer(text="t", finish_reason="stop"), None)
    assert not {"refusal", "tool_calls", "cut_from"} & set(sample)
    path = store.write(_recording(case, [sample]))
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["max_tokens"]  # as every recording made before --max-tokens
    path.write_text(json.dumps(doc), encoding="utf-8")
    rec = store.read(LIVE, case)
    assert rec.max_tokens is None and rec.answers(1) == [RecordedAnswer(text="t", finish_reason="stop")]


def test_an_answer_over_the_limit_is_recorded_cut_with_its_length_and_replays_identically(store, case):
    huge = '{"points": [' + "[1, 2], " * 40_000 + "[3, 4]]}"
    assert len(huge) > MAX_RECORDED_CHARS
    sample = sample_record(0, Answer(text=huge, finish_reason="stop", tool_calls=(("draw", huge),)), None)
    assert len(sample["text"]) == MAX_RECORDED_CHARS == len(sample["tool_calls"][0]["arguments"])
    assert sample["cut_from"] == {"text": len(huge), "tool_calls[0].arguments": len(huge)}
    store.write(_recording(case, [sample]))
    first = store.read(LIVE, case).answers(1)
    store.write(store.read(LIVE, case))  # read and written again: nothing changes
    assert store.read(LIVE, case).answers(1) == first
    assert first[0].cut_from["text"] == len(huge) and first[0].text == huge[:MAX_RECORDED_CHARS]


# --- the token limit as part of a recording's identity -----------------------------------------------


def test_a_live_recording_made_with_another_max_tokens_is_stale_and_says_both():
    case = builtin_cases()[0]
    rec = _recording(case, [_sample(0)], max_tokens=2048)
    assert FixtureStore.stale_reason(rec, case, "ru", None, 4096) == (
        "it was recorded with max_tokens 2048, this run asks max_tokens 4096 (--max-tokens)"
    )
    assert FixtureStore.stale_reason(rec, case, "ru", None, 2048) is None


def test_the_reference_drawers_recordings_ignore_max_tokens(case):
    rec = _recording(case, [_sample(0)], model="reference/exact", max_tokens=None)
    assert FixtureStore.stale_reason(rec, case, "ru", None, 10) is None


def test_a_recording_made_before_max_tokens_stays_valid_while_its_answers_fit(case):
    fits = _recording(case, [_sample(0, tokens=900), _sample(1, tokens=1000)])
    assert FixtureStore.stale_reason(fits, case, "ru", None, 1000) is None
    long = _recording(case, [_sample(0, tokens=900), _sample(1, tokens=1001)])
    assert FixtureStore.stale_reason(long, case, "ru", None, 1000) == (
        "it was recorded without a token limit and sample #1 used 1001 tokens, over this run's max_tokens 1000 "
        "(--max-tokens)"
    )
    cut = _recording(case, [_sample(0, finish="length")])
    assert "sample #0 was cut at the provider's own (finish_reason=length)" in FixtureStore.stale_reason(
        cut, case, "ru", None, 1000
    )


class _Fake:
    def __init__(self) -> None:
        self.max_tokens: list[int | None] = []

    async def __call__(self, model, messages, *, max_tokens=None, sample, **kwargs) -> Answer:
        self.max_tokens.append(max_tokens)
        return Answer(text=f"new {sample}", finish_reason="stop")


def test_the_asker_sends_its_max_tokens_records_it_and_asks_again_when_it_changes(store, case):
    fake = _Fake()
    Asker(store, max_tokens=300, call=fake).obtain(LIVE, case, samples=2)
    assert fake.max_tokens == [300, 300] and store.read(LIVE, case).max_tokens == 300
    assert Asker(store, max_tokens=300, call=fake).obtain(LIVE, case, samples=2).asked == 0
    again = Asker(store, max_tokens=600, call=fake).obtain(LIVE, case, samples=2)
    assert again.asked == 2 and "max_tokens 300, this run asks max_tokens 600" in again.note
    # the answers asked with 300 are kept, those with 600 beside them: each replays
    assert store.read(LIVE, case).max_tokens == 300
    for limit in (300, 600):
        assert Asker(store, max_tokens=limit, call=fake).obtain(LIVE, case, samples=2).asked == 0


@pytest.mark.parametrize("bad", ["many", 1.5, True])
def test_a_recording_with_a_bad_max_tokens_is_corrupt(store, case, bad):
    path = store.write(_recording(case, [_sample(0)], max_tokens=5))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["max_tokens"] = bad
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FixtureError, match="max_tokens"):
        store.read(LIVE, case)
