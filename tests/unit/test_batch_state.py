"""A batch state file is read as untrusted input (issue 32, C6 and M11): every field is checked, and
a state made for another model, provider or server is refused before anything is sent."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from shape_asserts.asking.batch_state import BatchState, BatchUnavailable, Expected, Request, checked_id

MODEL = "openai/exact"
SHA = "0" * 64
RUN = Expected(model=MODEL, provider="openai", server="http://127.0.0.1:8080")


def _doc(**changes: object) -> dict:
    """A state as this program writes it, with ``changes`` made (``request_<field>`` in its request)."""
    req = Request(MODEL, "circle-start000-cw", "ru", 0, SHA, None, 4096)
    state = BatchState(MODEL, "openai", {req.custom_id: req}, server=RUN.server, batch_id="batch_abc-1")
    doc = {k: v for k, v in asdict(state).items() if k != "requests"}
    doc["requests"] = [asdict(req)]
    for key, value in changes.items():
        if key.startswith("request_"):
            doc["requests"][0][key.removeprefix("request_")] = value
        else:
            doc[key] = value
    return doc


def _read(tmp_path: Path, doc: dict, run: Expected = RUN) -> BatchState | None:
    path = tmp_path / ".batch.json"
    path.write_text(json.dumps(doc))
    return BatchState.read(path, run)


def test_a_state_this_program_wrote_reads_back_whole(tmp_path):
    written = BatchState(MODEL, "openai", {}, server=RUN.server)
    written.requests = {r.custom_id: r for r in (Request(MODEL, "circle-start000-cw", "ru", 0, SHA, None),)}
    written.write(tmp_path / "written.json")
    assert BatchState.read(tmp_path / "written.json", RUN) == written
    state = _read(tmp_path, _doc())
    assert state is not None and state.batch_id == "batch_abc-1" and state.server == RUN.server
    assert [r.case_id for r in state.requests.values()] == ["circle-start000-cw"]
    assert BatchState.read(tmp_path / "absent.json", RUN) is None


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("provider", "anthropic", "names provider 'anthropic', but this run's is 'openai'"),
        ("provider", "azure", "names provider 'azure'"),
        ("server", "https://collector.example:443", "names server 'https://collector.example:443'"),
        ("server", None, 'names server "the provider\'s own"'),
        ("model", "openai/other", "names model 'openai/other'"),
    ],
)
def test_a_state_made_for_another_provider_server_or_model_is_refused(tmp_path, field, value, said):
    """C6: the state's provider was trusted, and this run's key for it went to the --api-base host."""
    doc = _doc(**{field: value})
    if field == "model":
        for r in doc["requests"]:
            r["model"] = value
    with pytest.raises(BatchUnavailable, match="nothing is sent") as info:
        _read(tmp_path, doc)
    assert said in str(info.value)


@pytest.mark.parametrize(
    "case_id", ["../../outside", "/etc/cron.d/x", "a/../../b", ".hidden", "UPPER", "x" * 101, "ok\x1b[2J"]
)
def test_a_case_id_that_would_name_a_file_outside_the_model_folder_is_refused(tmp_path, case_id):
    """M11: a tampered ``case_id`` wrote a recording outside the fixtures folder."""
    with pytest.raises(BatchUnavailable, match="is not one this program wrote"):
        _read(tmp_path, _doc(request_case_id=case_id))


@pytest.mark.parametrize(
    "changes",
    [
        {"batch_id": "../files/x"},
        {"batch_id": "b?x=1"},
        {"input_file_id": "file\x1b]0;pwned\x07"},
        {"created_at": "yesterday"},
        {"create_sent": "yes"},
        {"surprise": 1},
        {"requests": []},
        {"request_lang": "de"},
        {"request_sample": -1},
        {"request_sample": True},
        {"request_temperature": float("nan")},
        {"request_max_tokens": 0},
        {"request_prompt_sha256": "not-a-hash"},
        {"request_model": "openai/other"},
    ],
)
def test_every_field_out_of_shape_is_refused_with_one_line(tmp_path, changes):
    with pytest.raises(BatchUnavailable) as info:
        _read(tmp_path, _doc(**changes))
    said = str(info.value)
    assert "\n" not in said and "\x1b" not in said and "\x07" not in said


def test_a_request_named_twice_is_refused(tmp_path):
    doc = _doc()
    doc["requests"].append(dict(doc["requests"][0]))
    with pytest.raises(BatchUnavailable, match="named twice"):
        _read(tmp_path, doc)


def test_a_state_that_is_not_a_regular_file_is_not_read_without_end(tmp_path):
    path = tmp_path / ".batch.json"
    path.mkdir()
    with pytest.raises(BatchUnavailable, match="cannot be read"):
        BatchState.read(path, RUN)


@pytest.mark.parametrize("sent", ["batch/../../x", "b\nx", "", "a" * 300])
def test_an_id_the_provider_sends_must_look_like_one(sent):
    with pytest.raises(ValueError, match="which is not one"):
        checked_id(sent)
    assert checked_id("batch_69a1b2-c3.d:4") == "batch_69a1b2-c3.d:4"


def test_a_state_nested_too_deep_is_unreadable_not_a_recursion_error(tmp_path):
    """A RecursionError escaped the read: the run said cases would be asked one by one, asked none,
    and never named the file (red-team m1)."""
    path = tmp_path / ".batch.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(BatchUnavailable, match=r"cannot be read \(nested too deep to read\)"):
        BatchState.read(path, RUN)


def test_arguments_nested_deeper_than_a_run_may_give_are_refused_at_read(tmp_path):
    """Arguments 900 deep read as JSON, passed the checks, then broke the recording of the paid
    answer with a RecursionError; the state is refused at read instead, naming the bound."""
    deep: object = []
    for _ in range(900):
        deep = [deep]
    with pytest.raises(BatchUnavailable, match=r"args nested deeper than any argument may be \(16 levels\)"):
        _read(tmp_path, _doc(request_args={"x": deep}))
    sixteen: object = 1
    for _ in range(16):  # as deep as a --model-arg or a configuration may nest
        sixteen = {"k": sixteen}
    state = _read(tmp_path, _doc(request_args={"extra_body": sixteen}))
    assert state is not None and next(iter(state.requests.values())).args == {"extra_body": sixteen}


@pytest.mark.parametrize(("status", "made"), [(429, False), (400, False), (408, None), (409, None), (503, None)])
def test_a_create_refused_with_a_rate_limit_was_not_made_and_its_state_goes(tmp_path, status, made):
    """Red-team sweep 66: one 429 on the batch create kept the state as "may have been made"; every
    later run then stopped on it (no such batch) until the file was deleted by hand, and a call by
    call run refused the cases as paid for. A 429 made nothing: the state goes, the next run
    submits. A lost reply (a 5xx, a 408 or 409 that may follow a create) keeps it."""
    import types

    from shape_asserts.asking import batch_submit
    from shape_asserts.asking.batch_submit import FateUnknown

    class Refusing:
        def create_file(self, **kwargs):
            return types.SimpleNamespace(id="file-abc1")

        def create_batch(self, **kwargs):
            raise type("Refused", (Exception,), {"status_code": status})("no")

    path = tmp_path / ".batch.json"
    state = BatchState(MODEL, "openai", {}, server=RUN.server)
    with pytest.raises(Exception) as raised:
        batch_submit.submit(Refusing(), state, b"{}\n", {}, path, str)
    assert isinstance(raised.value, FateUnknown) == (made is None)
    assert path.exists() == (made is None)
