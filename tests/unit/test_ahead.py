"""results/ahead: a second process judges recorded answers ahead of the tests, exactly as they would.

Its results must be the tests' own, bit for bit (the same code on the same cases and answers); a
test takes one only for the very answers it is about to judge, never waits for one, and judges
for itself whatever the process did not send: a case not sent, other answers, a dead process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.cases import load_cases
from shape_asserts.results import ahead as ahead_module
from shape_asserts.results.ahead import Ahead, Work, case_print
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.verdict import judge

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the process is polled with select (POSIX)")

REPO = Path(__file__).resolve().parents[2]
MODEL = "reference/exact"
CASES = {c.id: c for c in load_cases()}
#: A case of each family, and answers that are not drawings or are cut, as recorded answers.
IDS = sorted({c.family: c.id for c in CASES.values()}.values())


def _answers(case_id: str) -> tuple[RecordedAnswer, ...]:
    doc = json.loads((REPO / "fixtures" / "reference_exact" / f"{case_id}.json").read_text(encoding="utf-8"))
    return (RecordedAnswer(text=doc["samples"][0]["text"]),)


def _work() -> list[Work]:
    work = [Work(f"{MODEL}/{i}", i, MODEL, _answers(i), 1.0, case_print(CASES[i])) for i in IDS]
    broken = IDS[0]
    bad = ("not json", '{"points": [[1, 2], [3')
    work.append(Work(f"other/{broken}", broken, "other", bad, 0.5, case_print(CASES[broken])))
    return work


#: Coordinates whose products overflow: judging this answer raises numpy's RuntimeWarnings.
OVERFLOWING = json.dumps(
    {"points": [{"x": 1e308, "y": -1e308}, {"x": -1e308, "y": 1e308}, {"x": 1e308, "y": 1e308}, {"x": 0, "y": 0}]}
)


def _all_taken(ahead: Ahead, work: list[Work]) -> dict[str, object]:
    """Every result, taking each as soon as it is there (the process judges the last first)."""
    got: dict[str, object] = {}
    pending = list(reversed(work))
    while pending:
        w = pending[0]
        result = ahead.take(w.key, CASES[w.case_id], w.model, w.answers, w.min_pass_rate)
        if result is not None:
            got[w.key] = result
            pending.pop(0)
        elif ahead._ended:
            break
        else:
            time.sleep(0.001)  # the process runs at the least priority: leave it the core
    return got


@pytest.fixture
def started():
    ahead = Ahead.start((), benchmark=False)
    assert ahead is not None
    yield ahead
    ahead.close()


def _record(result) -> str:
    return CaseRecord.from_result(result, "passed").to_json_text()


def test_it_runs_at_the_least_priority(started):
    # it does work the run would do itself: on a machine with no idle core it must not slow the run
    pid, deadline = started._proc.pid, time.monotonic() + 60
    while os.getpriority(os.PRIO_PROCESS, pid) != 19 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19


def test_its_results_are_the_tests_own_bit_for_bit(started):
    work = _work()
    started.submit(work)
    got = _all_taken(started, work)
    assert set(got) == {w.key for w in work}
    for w in work:
        here = judge(CASES[w.case_id], w.model, w.answers, w.min_pass_rate)
        there = got[w.key]
        assert _record(there) == _record(here), w.key
        assert there.summary() == here.summary()
        assert there.case is CASES[w.case_id] and there.min_pass_rate == w.min_pass_rate


def test_other_answers_or_an_unsent_case_are_left_to_the_test(started):
    work = _work()
    started.submit(work)
    w = work[-1]
    case = CASES[w.case_id]
    while w.key not in started._got and not started._ended:
        started._drain()
    assert started.take(w.key, case, w.model, ("[[0, 0], [1, 1]]",), w.min_pass_rate) is None
    assert started.take(w.key, case, "another/model", w.answers, w.min_pass_rate) is None
    assert started.take(w.key, case, w.model, w.answers, 1.0 if w.min_pass_rate != 1.0 else 0.5) is None
    other_case = CASES[IDS[1]]
    assert started.take(w.key, other_case, w.model, w.answers, w.min_pass_rate) is None
    assert started.take("never/sent", case, w.model, w.answers, w.min_pass_rate) is None
    assert started.take(w.key, case, w.model, w.answers, w.min_pass_rate) is not None  # the very answers


def test_a_dead_process_leaves_every_case_to_its_test(started):
    work = _work()
    started._proc.kill()
    started._proc.wait()
    started.submit(work)  # its pipe is closed: nothing is sent, nothing raised
    for w in work:
        assert started.take(w.key, CASES[w.case_id], w.model, w.answers, w.min_pass_rate) is None


def test_the_work_is_handed_over_without_waiting_for_the_process_to_read_it():
    # a process that does not read yet (on a busy machine, at the least priority, it may not run
    # for seconds) and work larger than a pipe holds: submit returns, and closing ends the writing
    proc = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    ahead = Ahead(proc)
    case = CASES[IDS[0]]
    big = tuple("x" * 100_000 for _ in range(20))  # 2 MB of answers: more than any pipe holds
    work = [Work(f"m/{IDS[0]}", IDS[0], "m", big, 1.0, case_print(case))]
    before = set(threading.enumerate())
    submitter = threading.Thread(target=ahead.submit, args=(work,), daemon=True)
    submitter.start()
    submitter.join(timeout=60)
    try:
        assert not submitter.is_alive()  # (were it to wait for the process, it would still be writing)
        assert ahead.take(work[0].key, case, "m", big, 1.0) is None  # nothing judged yet: left to the test
    finally:
        writers = [t for t in set(threading.enumerate()) - before if t is not submitter]
        ahead.close()
    for writer in writers:
        writer.join(timeout=60)
        assert not writer.is_alive()  # the write failed once the process was gone, and ended
    assert proc.poll() is not None


def test_a_silent_process_is_never_waited_for():
    # a process that reads its input and never answers: each take returns at once (were it to
    # wait, this test would hang)
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; sys.stdin.buffer.read(); time.sleep(60)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
    )
    ahead = Ahead(proc)
    try:
        work = _work()
        ahead.submit(work)
        for w in work:
            assert ahead.take(w.key, CASES[w.case_id], w.model, w.answers, w.min_pass_rate) is None
    finally:
        ahead.close()
    assert proc.poll() is not None  # closed: it does not outlive the run


def test_a_process_running_other_code_judges_nothing(monkeypatch, tmp_path):
    # it checks that it imported the run's own package: judging with other code could differ
    monkeypatch.setattr(ahead_module, "_package_home", lambda: tmp_path / "shape_asserts")
    ahead = Ahead.start((), benchmark=False)
    assert ahead is not None
    try:
        monkeypatch.undo()
        work = _work()
        ahead.submit(work)
        assert ahead._proc.wait(timeout=60) == 0
        assert _all_taken(ahead, work) == {}
    finally:
        ahead.close()


def test_an_answer_whose_judging_warns_is_left_to_its_test(started):
    # so its warnings meet the run's own filters (a forwarded copy would not match them alike)
    case_id = next(i for i in IDS if CASES[i].family == "spiral")
    with pytest.warns(RuntimeWarning):
        judge(CASES[case_id], MODEL, (OVERFLOWING,))
    warns = Work("warns", case_id, MODEL, (OVERFLOWING,), 1.0, case_print(CASES[case_id]))
    quiet = _work()[0]
    started.submit([warns, quiet])  # judged last first: the quiet one's result comes after
    assert quiet.key in _all_taken(started, [quiet])
    assert started.take(warns.key, CASES[case_id], MODEL, warns.answers, 1.0) is None


def test_a_case_that_differs_between_the_processes_is_left_to_its_test(started):
    w = _work()[0]
    other = Work(w.key, w.case_id, w.model, w.answers, w.min_pass_rate, case_print=w.case_print[::-1])
    later = _work()[1]
    started.submit([other, later])
    assert later.key in _all_taken(started, [later])  # sent after the other: it was judged first
    assert started.take(other.key, CASES[other.case_id], MODEL, other.answers, 1.0) is None


def test_a_familys_first_result_is_checked_here_and_a_difference_ends_judging_ahead():
    import pickle

    w, next_one = _work()[:2]
    case = CASES[w.case_id]
    wrong = judge(case, MODEL, ("[[1, 1], [2, 2], [3, 3]]",)).samples  # as if judged by other code
    ahead = Ahead(subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    try:
        ahead._sent = {w.key: w, next_one.key: next_one}  # as submit leaves them
        ahead._ended = True  # nothing more to read
        ahead._got = {w.key: pickle.dumps(wrong), next_one.key: pickle.dumps(wrong)}
        result = ahead.take(w.key, case, MODEL, w.answers, 1.0)
        assert result is not None
        assert _record(result) == _record(judge(case, MODEL, w.answers))  # the test's own, not the sent one
        assert ahead.take(next_one.key, CASES[next_one.case_id], MODEL, next_one.answers, 1.0) is None  # ended
    finally:
        ahead.close()


def test_a_broken_result_is_left_to_its_test():
    w = _work()[0]
    ahead = Ahead(subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    try:
        ahead._sent = {w.key: w}
        ahead._ended = True
        ahead._got = {w.key: b"not a pickle"}
        assert ahead.take(w.key, CASES[w.case_id], MODEL, w.answers, 1.0) is None
    finally:
        ahead.close()


def test_the_case_print_follows_what_a_verdict_depends_on():
    a, b = CASES[IDS[0]], CASES[IDS[1]]
    assert case_print(a) == case_print(load_cases_by_id()[a.id])  # loaded again: the same
    assert case_print(a) != case_print(b)
    import dataclasses

    assert case_print(dataclasses.replace(a, thresholds={**a.thresholds, "x": 1})) != case_print(a)
    assert case_print(dataclasses.replace(a, params={**a.params, "grid_size": 99})) != case_print(a)


def load_cases_by_id() -> dict:
    return {c.id: c for c in load_cases()}
