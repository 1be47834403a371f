"""runstate's handoff while an xdist controller asks beside the tests: each test waits for its own
case only, goes on at once for a case not asked, and asks for itself when the asking failed."""

from __future__ import annotations

import os
import tempfile
import threading

from shape_asserts.asking.asker import Asker
from shape_asserts.asking.call import Answer
from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.runstate import (
    RUN_FOLDER_PREFIX,
    RunState,
    announce,
    settle,
    settled_path,
    sweep_run_folders,
    wait_for,
    withdraw,
)
from shape_asserts.asking.store import FixtureStore
from shape_asserts.cases import load_cases
from shape_asserts.exceptions import ProviderError

CASES = [c for c in load_cases() if c.family == "circle"][:3]

KEY, OTHER, UNASKED = "m|a", "m|b", "m|not-asked"


def test_a_test_goes_on_once_its_case_is_settled_while_others_are_still_asked(tmp_path):
    state_path = tmp_path / "state.json"
    announce(state_path, [KEY, OTHER])
    done = RunState(fetched=True, failures={KEY: "m: HTTP 503", OTHER: "not this one's"})
    timer = threading.Timer(0.05, settle, args=(state_path, KEY, done))
    timer.start()

    got = wait_for(state_path, KEY)  # OTHER is never settled: only KEY's own file is waited for

    timer.join()
    assert got is not None and got.fetched
    assert got.failures == {KEY: "m: HTTP 503"}


def test_a_case_not_asked_goes_on_at_once_to_replay(tmp_path):
    state_path = tmp_path / "state.json"
    announce(state_path, [KEY])
    got = wait_for(state_path, UNASKED)
    assert got == RunState(fetched=True)


def test_the_whole_run_s_state_wins_once_written(tmp_path):
    state_path = tmp_path / "state.json"
    announce(state_path, [KEY])
    RunState(fetched=True, unasked={KEY: "not asked: --max-cost"}).write(state_path)
    got = wait_for(state_path, KEY)
    assert got is not None and got.unasked == {KEY: "not asked: --max-cost"}


def test_waiting_tests_ask_for_themselves_once_the_asking_is_withdrawn(tmp_path):
    state_path = tmp_path / "state.json"
    announce(state_path, [KEY])
    timer = threading.Timer(0.05, withdraw, args=(state_path,))
    timer.start()
    got = wait_for(state_path, KEY)
    timer.join()
    assert got is None


def test_without_asking_before_the_tests_there_is_nothing_to_wait_for(tmp_path):
    assert wait_for(tmp_path / "state.json", KEY) is None


async def _answer_all_but_the_second(model, messages, *, sample, **kwargs):
    case = next(c for c in CASES if c.messages("ru") == messages)
    if case is CASES[1]:
        raise ProviderError(f"{model}: HTTP 503")
    return Answer(text=answer_text(case, "exact", sample))


def test_a_fetch_settles_every_case_it_asks_into_its_own_file(tmp_path):
    asker = Asker(FixtureStore(tmp_path / "fixtures"), "missing", call=_answer_all_but_the_second)
    jobs = asker.plan([("m", case) for case in CASES], 1)
    state_path = tmp_path / "run" / "state.json"
    announce(state_path, [job.key for job in jobs])

    asker.fetch(jobs, on_settled=lambda key, state: settle(state_path, key, state))

    for job in jobs:
        own = RunState.read(settled_path(state_path, job.key))
        assert own is not None and own.fetched
        assert bool(own.failures) == (job.case.id == CASES[1].id)


def test_the_run_folder_the_asking_announces_in_is_private(tmp_path):
    state_path = tmp_path / "shape-asserts-run-1-ab" / "state.json"
    announce(state_path, [KEY])
    assert state_path.parent.stat().st_mode & 0o777 == 0o700
    assert (state_path.parent / "settled").stat().st_mode & 0o777 == 0o700


def test_run_folders_of_any_name_are_swept_without_failing_the_run(tmp_path, monkeypatch):
    """Red-team sweep 50: a folder /tmp/shape-asserts-run-99999999999999999999-x (or with a
    Unicode digit) ended every run in INTERNALERROR: anyone may make one in the shared /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for name in ("99999999999999999999-x", "²-x", "0-x", "-1-x", "12ab-x"):
        (tmp_path / f"{RUN_FOLDER_PREFIX}{name}").mkdir()
    dead = tmp_path / f"{RUN_FOLDER_PREFIX}4194304-x"  # the largest pid, not running here
    dead.mkdir()
    mine = tmp_path / f"{RUN_FOLDER_PREFIX}{os.getpid()}-x"
    mine.mkdir()

    assert sweep_run_folders() == [dead]
    assert mine.is_dir() and (tmp_path / f"{RUN_FOLDER_PREFIX}²-x").is_dir()
