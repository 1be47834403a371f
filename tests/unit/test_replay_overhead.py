"""What a replay saves per test and per run stays what it replaced (issue 11: replay overhead).

Each shortcut here must give what the longer way gave: the run state kept in memory, the replay asker
made once, a record's JSON text written with its field names kept, the job summary's variable
named without importing its module.
"""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

from shape_asserts.asking.runstate import RunState
from shape_asserts.plugin import session
from shape_asserts.plugin.fetcher import Fetcher
from shape_asserts.plugin.suite import CaseParam, Settings
from shape_asserts.results.record import CaseRecord, CheckRecord, SampleRecord


def test_the_session_names_the_job_summary_variable_as_its_module_does():
    from shape_asserts.results import step_summary

    assert session.STEP_SUMMARY_ENV == step_summary.ENV


def test_a_records_json_text_is_its_json_written_out_whatever_records_were_written_before():
    check = CheckRecord(name="gaps", passed=False, value=3, limit="≤ 0", detail="at #4", margin=-3.0, text="gaps: 3")
    sample = SampleRecord(index=0, score=91.5, checks=(check,), metrics={"gaps": 3, "turns": 1.0}, points=((1, 2),))
    record = CaseRecord(model="m", case="c", family="circle", samples=(sample,), score=91.5)
    for _ in range(2):  # the second time the field names are the ones kept from the first
        text = record.to_json_text(ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        assert json.loads(text) == record.to_json()
        assert list(json.loads(text)["samples"][0]["checks"][0]) == [f.name for f in dataclasses.fields(CheckRecord)]
        assert CaseRecord.from_json(text) == record


def test_a_replay_only_run_makes_its_asker_once_and_a_recording_run_one_per_test(tmp_path):
    replay = Settings(record="none", fixtures_dir=tmp_path)
    assert replay.asker() is replay.asker() is replay.asker("none")
    recording = Settings(record="missing", fixtures_dir=tmp_path)
    assert recording.asker() is not recording.asker()
    assert recording.asker("none") is recording.asker("none")  # a test after the fetch replays
    assert recording.asker("none").record == "none" and recording.asker().record == "missing"
    other = dataclasses.replace(replay, fixtures_dir=tmp_path / "other")
    assert other.asker().store.root == tmp_path / "other"  # a copy does not share the first's asker


def test_the_tests_get_the_state_the_fetch_left_without_reading_a_file(tmp_path):
    state_path = tmp_path / "run" / "state.json"
    settings = Settings(record="none", fixtures_dir=tmp_path, state_path=state_path)
    plugins = SimpleNamespace(get_plugin=lambda name: None)
    fetcher = Fetcher(SimpleNamespace(pluginmanager=plugins), settings)  # type: ignore[arg-type]
    param = CaseParam(model="reference/exact", case=settings.cases()[0])
    assert fetcher.state is None  # before the fetch: the test reads the file, if any
    fetcher._fetch([param], in_process=True)  # no xdist: this process runs the tests
    assert fetcher.state == RunState(fetched=True)
    assert not state_path.parent.exists()  # nothing written for workers there are none of
    controller = Fetcher(SimpleNamespace(pluginmanager=plugins), settings)  # type: ignore[arg-type]
    controller._fetch([param])  # an xdist controller: its workers read the file
    assert RunState.read(state_path) == RunState(fetched=True)
