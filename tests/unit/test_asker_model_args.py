"""The arguments for the provider as part of a recording's identity: sent, stored, compared.

``--model-arg`` and a configuration's keys reach every call, are written into the recording, and a
recording made with other arguments (or another litellm model behind a configuration's name) is
asked again in record mode, saying why, and is a clear error in replay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shape_asserts.asking.asker import Asker
from shape_asserts.asking.call import Answer
from shape_asserts.asking.model_config import ModelConfig
from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.store import FixtureStore, model_slug
from shape_asserts.cases import load_cases
from shape_asserts.exceptions import FixtureError

REPO = Path(__file__).resolve().parents[2]
CASE = next(c for c in load_cases() if c.family == "circle")


class Capture:
    """An async ``call`` that answers with the reference drawer and keeps what each call was sent."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def __call__(self, model, messages, *, sample, extra=None, **kwargs):
        self.sent.append({"model": model, "extra": dict(extra or {}), **kwargs})
        return Answer(text=answer_text(CASE, "exact", sample))


def _asker(root: Path, record: str = "missing", **kwargs) -> tuple[Asker, Capture]:
    call = Capture()
    return Asker(FixtureStore(root), record, call=call, **kwargs), call


def _recorded(root: Path, model: str) -> dict:
    return json.loads((root / model_slug(model) / f"{CASE.id}.json").read_text(encoding="utf-8"))


def test_model_args_are_sent_with_every_call_and_stored_in_the_recording(tmp_path):
    asker, call = _asker(tmp_path, model_args={"top_p": 0.5, "seed": 7})

    asker.obtain("openai/m", CASE, samples=2)

    assert [c["extra"] for c in call.sent] == [{"seed": 7, "top_p": 0.5}] * 2
    assert _recorded(tmp_path, "openai/m")["model_args"] == {"seed": 7, "top_p": 0.5}


def test_a_recording_made_without_arguments_has_no_model_args_field(tmp_path):
    asker, _ = _asker(tmp_path)

    asker.obtain("openai/m", CASE)

    assert "model_args" not in _recorded(tmp_path, "openai/m")
    assert "litellm_model" not in _recorded(tmp_path, "openai/m")


def test_changed_arguments_are_asked_again_in_record_mode_saying_what_changed(tmp_path):
    _asker(tmp_path, model_args={"top_p": 0.5, "seed": 7})[0].obtain("openai/m", CASE)
    again, call = _asker(tmp_path, model_args={"top_p": 0.6, "seed": 7})

    jobs = again.plan([("openai/m", CASE)], 1)
    again.fetch(jobs)

    (line,) = again.decisions(jobs)
    assert f"asking openai/m/{CASE.id} again" in line
    assert "its model arguments changed: top_p 0.5 → 0.6 (--model-arg" in line
    assert [c["extra"] for c in call.sent] == [{"seed": 7, "top_p": 0.6}]
    # the answers paid for with the first arguments are kept; these go beside them
    assert _recorded(tmp_path, "openai/m")["model_args"] == {"seed": 7, "top_p": 0.5}
    (beside,) = (tmp_path / model_slug("openai/m")).glob(f"{CASE.id}@*.json")
    assert json.loads(beside.read_text(encoding="utf-8"))["model_args"] == {"seed": 7, "top_p": 0.6}


def test_the_same_arguments_replay_without_a_call(tmp_path):
    _asker(tmp_path, model_args={"seed": 7})[0].obtain("openai/m", CASE)
    replay, call = _asker(tmp_path, "none", model_args={"seed": 7})

    assert replay.obtain("openai/m", CASE).replayed == 1
    assert call.sent == []


def test_a_whole_number_written_either_way_is_one_argument(tmp_path):
    """Red-team sweep 46: ``top_p=1`` then ``top_p=1.0`` was a change, and every case was bought again."""
    _asker(tmp_path, model_args={"top_p": 1})[0].obtain("openai/m", CASE)
    replay, call = _asker(tmp_path, "none", model_args={"top_p": 1.0})

    assert replay.obtain("openai/m", CASE).replayed == 1
    assert call.sent == []


def test_changed_arguments_are_a_clear_error_in_replay(tmp_path):
    _asker(tmp_path, model_args={"seed": 7})[0].obtain("openai/m", CASE)
    replay, call = _asker(tmp_path, "none", record_args=("--model-arg=seed=8",))

    with pytest.raises(FixtureError, match=r"is stale: its model arguments changed: seed 7 dropped") as err:
        replay.obtain("openai/m", CASE)
    assert "record it with: pytest --model=openai/m --record=missing --model-arg=seed=8" in str(err.value)
    assert call.sent == []


def test_a_configuration_asks_its_litellm_model_and_records_under_its_own_name(tmp_path):
    low = ModelConfig("gpt-low", "openai/gpt-5", {"reasoning_effort": "low"})
    asker, call = _asker(tmp_path, configs={"gpt-low": low}, model_args={"seed": 7})

    asker.obtain("gpt-low", CASE)

    assert call.sent[0]["model"] == "openai/gpt-5"
    assert call.sent[0]["extra"] == {"reasoning_effort": "low", "seed": 7}
    doc = _recorded(tmp_path, "gpt-low")
    assert (doc["model"], doc["litellm_model"], doc["model_args"]) == (
        "gpt-low",
        "openai/gpt-5",
        {"reasoning_effort": "low", "seed": 7},
    )


def test_a_configuration_naming_another_litellm_model_is_stale(tmp_path):
    configs = {"fast": ModelConfig("fast", "openai/gpt-4o-mini")}
    _asker(tmp_path, configs=configs)[0].obtain("fast", CASE)
    replay, _ = _asker(tmp_path, "none", configs={"fast": ModelConfig("fast", "openai/gpt-5-mini")})

    with pytest.raises(FixtureError, match=r"recorded from the litellm model openai/gpt-4o-mini, and fast now names"):
        replay.obtain("fast", CASE)


def test_the_shipped_reference_recordings_replay_whatever_the_arguments():
    replay, call = _asker(REPO / "fixtures", "none", model_args={"top_p": 0.5, "seed": 7})

    assert replay.obtain("reference/exact", CASE).replayed == 1
    assert call.sent == []


def test_a_batch_sends_each_configuration_s_arguments_and_its_state_keeps_them(tmp_path, monkeypatch):
    from shape_asserts.asking import batch
    from shape_asserts.asking.batch_state import BatchState, Expected

    sent: list[bytes] = []
    monkeypatch.setattr(batch, "load_litellm", lambda: None)
    monkeypatch.setattr(batch, "submit", lambda litellm, bstate, data, *rest: sent.append(data))
    configs = {"gpt-high": ModelConfig("gpt-high", "openai/gpt-5", {"reasoning_effort": "high"})}
    asker, _ = _asker(tmp_path, configs=configs, model_args={"seed": 7})
    runner = batch.BatchRunner(asker, samples=1)
    (job,) = asker.plan([("gpt-high", CASE)], 1)
    path = tmp_path / "state.json"

    bstate = runner._new_state("gpt-high", ("openai", "gpt-5"), [job])
    runner._submit(bstate, ("openai", "gpt-5"), {CASE.id: job}, path)
    bstate.write(path)

    (line,) = [json.loads(row) for row in sent[0].decode().splitlines()]
    assert line["body"]["model"] == "gpt-5"
    assert {k: line["body"][k] for k in ("reasoning_effort", "seed")} == {"reasoning_effort": "high", "seed": 7}
    (request,) = BatchState.read(path, Expected("gpt-high", "openai", None)).requests.values()
    assert (request.args, request.litellm_model) == ({"reasoning_effort": "high", "seed": 7}, "openai/gpt-5")


def test_a_finished_batch_deletes_its_own_state_and_never_another_runs(tmp_path, monkeypatch):
    """Red-team sweep 49: a run whose batch ended deleted whatever state was on disk; another run
    that had resumed that batch and written its own new one there lost it, and paid for it again."""
    from shape_asserts.asking import batch

    monkeypatch.setattr(batch, "load_litellm", lambda: None)
    monkeypatch.setattr(batch, "submit", lambda *args: None)
    asker, _ = _asker(tmp_path)
    runner = batch.BatchRunner(asker, samples=1)
    (job,) = asker.plan([("gpt-4o", CASE)], 1)
    mine = runner._new_state("gpt-4o", ("openai", "gpt-4o"), [job])
    mine.batch_id = "batch-1"
    path = tmp_path / "folder" / "state.json"
    path.parent.mkdir()

    other = runner._new_state("gpt-4o", ("openai", "gpt-4o"), [job])
    other.batch_id = "batch-2"
    other.write(path)
    runner._forget(mine, path)
    assert path.exists()  # another run's batch: kept

    mine.write(path)
    runner._forget(mine, path)
    assert not path.exists()
