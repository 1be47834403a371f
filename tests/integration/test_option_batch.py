"""``--batch``: the selection's missing answers go to the provider as one batch, through the real
litellm, against the stub server's OpenAI batch endpoints; answers are recorded like live ones and
replay with the server gone; a killed run resumes its batch; failed rows and an expired batch error
with the provider's reason; a model without a batch interface is a usage error.

The server runs in this process (its counters are the evidence); the suite runs in a subprocess.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from shape_asserts import defaults
from shape_asserts.asking import batch
from shape_asserts.asking.batch_state import STATE_NAME, BatchState, Request
from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_batches import BatchPlan
from shape_asserts.asking.stub_server import StubServer
from shape_asserts.cases import load_cases

from .conftest import (
    CIRCLE,
    CIRCLE_CASES,
    INI,
    LITELLM_PROBE_CONFTEST,
    N_CASES,
    SUBPROCESS_TIMEOUT,
    interruptible,
    junit_cases,
)

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

SECRET = "sk-shape-asserts-BATCH-SECRET-51d0a7"
MODEL = "openai/exact"


#: Loaded with ``-p`` by the runs in a subprocess: polls are instant in tests (how many a batch
#: takes is the stub's plan, not a clock).
FAST_POLLS = "import shape_asserts.asking.batch as batch\n\nbatch.BATCH_POLL = 0.01\n"


@pytest.fixture(autouse=True)
def secret_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(batch, "BATCH_POLL", 0.01)  # the runs in this process: instant polls too
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    return SECRET


def _args(srv: StubServer | None, *more: str) -> list[str]:
    base = [f"--model={MODEL}", "--fixtures-dir=recorded", *CIRCLE, *more]
    return [*base, "--batch", f"--api-base={srv.base_url}"] if srv is not None else base


def _run(suite: pytest.Pytester, srv: StubServer | None, *more: str) -> pytest.RunResult:
    suite.makepyfile(fast_polls=FAST_POLLS)
    return suite.runpytest_subprocess("-p", "fast_polls", *_args(srv, *more), timeout=SUBPROCESS_TIMEOUT)


def _recorded(suite: pytest.Pytester) -> list[str]:
    return sorted(p.stem for p in (suite.path / "recorded" / model_slug(MODEL)).glob("[!.]*.json"))


def _state(suite: pytest.Pytester) -> Path:
    return suite.path / "recorded" / model_slug(MODEL) / STATE_NAME


def _files_containing(root: Path, needle: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_one_batch_asks_the_whole_selection_and_its_replay_gives_identical_results(suite, secret_key):
    with StubServer(batches=BatchPlan(polls=3)) as srv:
        live = _run(suite, srv, "--junitxml=live.xml")
    replay = _run(suite, None, "--record=none", "--junitxml=replay.xml")  # the server is stopped

    live.assert_outcomes(passed=N_CASES)
    book = srv.state.batches
    assert (book.submissions, book.uploads, book.answered_rows) == (1, 1, N_CASES)
    assert srv.state.requests == 0  # not one call outside the batch
    batch = next(iter(book.batches.values()))
    assert batch["request_counts"]["total"] == N_CASES
    assert _recorded(suite) == sorted(CIRCLE_CASES)
    doc = json.loads((suite.path / "recorded" / model_slug(MODEL) / f"{CIRCLE_CASES[0]}.json").read_text())
    sample = doc["samples"][0]
    assert doc["model"] == MODEL and sample["index"] == 0 and sample["finish_reason"] == "stop"
    # asked as a live call asks (the token limit sent), and recorded under the same identity
    sent = [json.loads(line)["body"] for line in book.files[batch["input_file_id"]][1].decode().splitlines()]
    assert {b["max_tokens"] for b in sent} == {defaults.MAX_TOKENS} and doc["max_tokens"] == defaults.MAX_TOKENS
    assert set(sample) >= {"text", "usage", "latency_s", "recorded_at", "litellm_version", "response_model"}
    assert not _state(suite).exists()  # the batch ended: nothing left to resume
    assert f"submitted batch {batch['id']}: {N_CASES} request(s)" in live.stdout.str()
    replay.assert_outcomes(passed=N_CASES)
    assert junit_cases(suite.path / "replay.xml") == junit_cases(suite.path / "live.xml")
    assert _files_containing(suite.path, secret_key) == []


def test_a_run_killed_while_polling_resumes_its_batch_without_submitting_again(suite):
    plan = BatchPlan(polls=10**9)  # in progress until the test lets it finish
    suite.makepyfile(fast_polls=FAST_POLLS)
    with StubServer(batches=plan) as srv:
        book = srv.state.batches
        log = (suite.path / "killed.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "fast_polls", *_args(srv)],
            cwd=suite.path,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + SUBPROCESS_TIMEOUT
            while not (book.batches and max(book.polls.values(), default=0) >= 3):
                assert proc.poll() is None, (suite.path / "killed.log").read_text()
                assert time.monotonic() < deadline, "the run never started polling its batch"
                time.sleep(0.05)
            state = json.loads(_state(suite).read_text())
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            log.close()
        assert _recorded(suite) == []  # killed before anything was answered
        plan.polls = 0  # the batch completes at the next poll
        rerun = _run(suite, srv)

    rerun.assert_outcomes(passed=N_CASES)
    assert (book.submissions, book.uploads, book.answered_rows) == (1, 1, N_CASES)
    assert state["batch_id"] == next(iter(book.batches))
    assert len(state["requests"]) == N_CASES and SECRET not in json.dumps(state)
    assert f"resuming batch {state['batch_id']}" in rerun.stdout.str()
    assert _recorded(suite) == sorted(CIRCLE_CASES)
    assert not _state(suite).exists()


def test_a_run_killed_between_submitting_and_saving_the_batch_id_finds_its_batch(suite):
    """The state is written after the upload: a rerun looks for the batch made from that file."""
    cases = [c for c in load_cases() if c.family == "circle"]
    requests = {}
    lines = []
    for case in cases:
        req = Request(MODEL, case.id, "ru", 0, case.prompt_hash("ru"), None)
        requests[req.custom_id] = req
        body = {"model": "exact", "messages": case.messages("ru")}
        lines.append(
            json.dumps({"custom_id": req.custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body})
        )
    with StubServer(batches=BatchPlan(polls=1)) as srv:
        book = srv.state.batches
        # what the killed run did: uploaded its file, submitted it, and died before saving the batch id
        book.files["file-killed"] = ("batch", ("\n".join(lines) + "\n").encode())
        book.submit({"input_file_id": "file-killed"})
        server = srv.base_url.removesuffix("/v1")
        BatchState(MODEL, "openai", requests, server=server, input_file_id="file-killed").write(_state(suite))
        result = _run(suite, srv)

    result.assert_outcomes(passed=N_CASES)
    assert (book.submissions, book.uploads, book.answered_rows) == (1, 0, N_CASES)
    assert "resuming batch (being submitted)" in result.stdout.str()
    assert _recorded(suite) == sorted(CIRCLE_CASES)


def test_failed_rows_record_nothing_and_error_with_the_providers_reason(suite):
    refused = sorted(c for c in CIRCLE_CASES if "start330" in c)
    plan = BatchPlan(fail_matching=("start330",), fail_message="refused by the stub's content policy")
    with StubServer(batches=plan) as srv:
        first = _run(suite, srv, "--junitxml=first.xml")
        plan.fail_matching = ()
        second = _run(suite, srv)

    assert refused and len(refused) < N_CASES
    first.assert_outcomes(passed=N_CASES - len(refused), errors=len(refused))
    cases = junit_cases(suite.path / "first.xml")
    errored = sorted(name.split("[")[1].split("@")[0] for name, c in cases.items() if c.outcome == "error")
    assert errored == refused
    out = first.stdout.str()
    assert out.count("refused by the stub's content policy") >= len(refused) and "HTTP 400" in out
    # the next run asks only for what failed, in a new batch
    second.assert_outcomes(passed=N_CASES)
    book = srv.state.batches
    assert book.submissions == 2
    assert [b["request_counts"]["total"] for b in book.batches.values()] == [N_CASES, len(refused)]
    assert _recorded(suite) == sorted(CIRCLE_CASES)


def test_an_expired_batch_records_what_it_answered_and_says_so(suite):
    with StubServer(batches=BatchPlan(expire_after=5)) as srv:
        result = _run(suite, srv)

    result.assert_outcomes(passed=5, errors=N_CASES - 5)
    out = result.stdout.str()
    assert "ended expired with 5 of" in out and "the next run submits them in a new batch" in out
    assert (
        "batch_expired: This request could not be executed" in out and "run again to ask for it in a new batch" in out
    )
    assert len(_recorded(suite)) == 5
    assert not _state(suite).exists()


def test_a_failed_batch_errors_every_case_with_the_providers_reason(suite):
    with StubServer(batches=BatchPlan(fail_batch="the input file has a bad line")) as srv:
        result = _run(suite, srv)

    result.assert_outcomes(errors=N_CASES)
    assert "the batch failed (the input file has a bad line)" in result.stdout.str()
    assert _recorded(suite) == []


def test_a_cost_cap_on_a_batch_run_is_a_usage_error_before_anything_is_asked(suite):
    # a batch goes whole: no cap could stop it part-way, so none is taken that would seem to
    with StubServer() as srv:
        result = _run(suite, srv, "--max-cost", "0.5")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--max-cost 0.5 cannot bound a --batch run: a batch is submitted whole" in result.stderr.str()
    assert (srv.state.batches.uploads, srv.state.batches.submissions, srv.state.requests) == (0, 0, 0)
    # a run that asks nothing (both set in a shared ini, say) is not stopped by it
    suite.makeini(INI + "shape_batch = true\nshape_max_cost = 0.5\n")
    listing = suite.runpytest("--collect-only", "-q")
    assert listing.ret == pytest.ExitCode.OK and "cannot bound" not in listing.stderr.str()


def test_a_batch_run_asks_nothing_without_tests_to_run(suite):
    with StubServer() as srv:
        _run(suite, srv, "--collect-only")

    assert (srv.state.batches.uploads, srv.state.batches.submissions, srv.state.requests) == (0, 0, 0)


def test_a_model_without_a_batch_interface_is_a_usage_error_before_anything_is_asked(suite):
    result = suite.runpytest("--batch", "--record=all", "-k", "circle-start330-ccw")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "reference/exact draws in-process and has no batch interface; run it without --batch" in result.stderr.str()


def test_the_ini_twin_turns_batch_runs_on_and_refuses_what_is_not_a_switch(suite):
    suite.makeini(INI + "shape_batch = true\n")
    on = suite.runpytest("--record=all", "-k", "circle-start330-ccw")
    suite.makeini(INI + "shape_batch = maybe\n")
    bad = suite.runpytest("-k", "circle-start330-ccw")

    assert on.ret == pytest.ExitCode.USAGE_ERROR and "has no batch interface" in on.stderr.str()
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "ini setting shape_batch must be true or false, got 'maybe'" in bad.stderr.str()


def test_anthropic_batches_are_a_usage_error_naming_what_litellm_lacks(suite, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-real-key-123456")
    result = _run_model(suite, "anthropic/claude-3-5-haiku-latest")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "can read Anthropic message batches but not create them" in result.stderr.str()


def _run_model(suite: pytest.Pytester, model: str) -> pytest.RunResult:
    return suite.runpytest_subprocess(
        f"--model={model}",
        "--batch",
        "--fixtures-dir=recorded",
        "-k",
        "circle-start330-ccw",
        timeout=SUBPROCESS_TIMEOUT,
    )


def test_a_fully_recorded_selection_replays_under_batch_without_importing_litellm(suite):
    suite.makeconftest(LITELLM_PROBE_CONFTEST)
    result = suite.runpytest_subprocess("--batch", *CIRCLE, timeout=SUBPROCESS_TIMEOUT)

    result.assert_outcomes(passed=N_CASES)
    assert (suite.path / "litellm_imported.txt").read_text() == "False"
    assert "submitted batch" not in result.stdout.str() and "resuming batch" not in result.stdout.str()


# --- issue 32: money spent twice, secrets sent elsewhere ------------------------------------------

#: A few circle cases: these runs are about one batch's fate, not the selection's size.
FEW = ("-k", "circle-start000")
N_FEW = sum("circle-start000" in c for c in CIRCLE_CASES)


def _start(suite: pytest.Pytester, srv: StubServer, log: Path) -> subprocess.Popen[bytes]:
    with log.open("w") as fh:
        return subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *_args(srv, *FEW)],
            cwd=suite.path,
            stdout=fh,
            stderr=subprocess.STDOUT,
        )


@pytest.mark.parametrize("stall", [0.0, 4.0], ids=["an-HTTP-500", "a-timeout"])
def test_a_lost_create_reply_is_never_submitted_again_and_the_next_run_finds_its_batch(suite, stall):
    """C1: the OpenAI client's own retries sent a create whose reply was lost three times; a slow
    one (a timeout) also deleted the state, and the next run submitted a fourth."""
    plan = BatchPlan(polls=1, lose_creates=1, create_stall=stall)
    with StubServer(batches=plan) as srv:
        first = _run(suite, srv, "--request-timeout=2", *FEW)
        book = srv.state.batches
        submitted_first = book.submissions
        kept = json.loads(_state(suite).read_text())
        second = _run(suite, srv, *FEW)

    assert submitted_first == 1
    first.assert_outcomes(errors=N_FEW)
    assert "it may have been made, so it is kept in" in first.stdout.str()
    assert kept["create_sent"] is True and kept["batch_id"] is None
    second.assert_outcomes(passed=N_FEW)
    assert (book.submissions, book.answered_rows) == (1, N_FEW)
    assert "resuming batch (being submitted)" in second.stdout.str()
    assert not _state(suite).exists()


def test_two_batch_runs_for_one_model_submit_one_batch_and_the_waiting_one_names_the_holder(suite):
    """C2: both runs uploaded and submitted (nothing between reading the state and writing it);
    the second's state overwrote the first's. Now the second waits, saying who holds the lock,
    then resumes the first's batch."""
    hold = threading.Event()
    with StubServer(batches=BatchPlan(polls=1, hold_uploads=hold)) as srv:
        book = srv.state.batches
        logs = (suite.path / "first.log", suite.path / "second.log")
        first = _start(suite, srv, logs[0])
        try:
            deadline = time.monotonic() + SUBPROCESS_TIMEOUT
            while book.uploads_started < 1:  # the first run is mid-submission, holding the lock
                assert first.poll() is None and time.monotonic() < deadline, logs[0].read_text()
                time.sleep(0.05)
            second = _start(suite, srv, logs[1])
            # the second run either waits for the lock (said in its log) or uploads too (the bug);
            # a log not yet flushed is given a minute, and the first run let go all the same
            deadline = time.monotonic() + 60
            while "waiting for" not in logs[1].read_text() and book.uploads_started < 2:
                assert second.poll() is None, logs[1].read_text()
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            hold.set()
        codes = (first.wait(SUBPROCESS_TIMEOUT), second.wait(SUBPROCESS_TIMEOUT))

    outputs = [log.read_text() for log in logs]
    assert codes == (0, 0), outputs
    assert (book.uploads, book.submissions) == (1, 1)
    assert f"another --batch run (pid {first.pid} on " in outputs[1]
    # the second resumes the first's batch, or, when the first has recorded its answers by the time the
    # lock is free, finds nothing left to submit (it plans again inside the lock)
    assert "resuming batch" in outputs[1] or book.submissions == 1
    assert _recorded(suite) == sorted(c for c in CIRCLE_CASES if "circle-start000" in c)


@pytest.mark.parametrize("output", ["html", "none"])
def test_a_batch_whose_answers_cannot_be_read_is_kept_and_fetched_again_not_bought_again(suite, output):
    """M2: an HTML page for the output file, or no output file id at all, deleted the state: the
    answers were lost and the next run bought the batch again."""
    plan = BatchPlan(polls=1, output=output)
    with StubServer(batches=plan) as srv:
        first = _run(suite, srv, *FEW)
        kept = _state(suite).exists()
        plan.output = "rows"  # the provider serves the file again
        second = _run(suite, srv, *FEW)

    first.assert_outcomes(errors=N_FEW)
    assert kept and "run again to fetch them" in first.stdout.str()
    second.assert_outcomes(passed=N_FEW)
    assert srv.state.batches.submissions == 1
    assert not _state(suite).exists()


def test_a_state_naming_another_provider_is_refused_before_any_key_is_sent(suite, monkeypatch):
    """C6: a state's "provider": "anthropic" sent the Anthropic key to the --api-base host."""
    anthropic_key = "sk-ant-shape-asserts-STATE-SECRET-9f3e"
    monkeypatch.setenv("ANTHROPIC_API_KEY", anthropic_key)
    case = next(c for c in load_cases() if c.id.startswith("circle-start000"))
    req = Request(MODEL, case.id, "ru", 0, case.prompt_hash("ru"), None)
    with StubServer() as srv:
        server = srv.base_url.removesuffix("/v1")
        state = BatchState(MODEL, "anthropic", {req.custom_id: req}, server=server, batch_id="batch-1")
        state.write(_state(suite))
        result = _run(suite, srv, *FEW)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert f"the batch state {_state(suite)} names provider 'anthropic', but this run's is 'openai'" in err
    assert srv.state.requests == 0 and not srv.state.batches.polls and srv.state.batches.uploads == 0
    assert _state(suite).exists()  # not the run's to delete


# --- issue 32, M1: a batch that never finishes ----------------------------------------------------

#: Instant polls, and a heartbeat line every half second (a minute in a real run).
FAST_HEARTBEAT = FAST_POLLS + "batch.BATCH_HEARTBEAT = 0.5\n"


def test_issue32_m1_a_batch_that_never_finishes_beats_and_is_left_kept_after_the_wait(suite):
    """M1: a batch that never finished printed one line, then nothing, for hours."""
    plan = BatchPlan(polls=10**9)  # in progress for ever
    suite.makepyfile(fast_heartbeat=FAST_HEARTBEAT)
    with StubServer(batches=plan) as srv:
        book = srv.state.batches
        waited = suite.runpytest_subprocess(
            "-p", "fast_heartbeat", *_args(srv, *FEW), "--batch-wait=3", timeout=SUBPROCESS_TIMEOUT
        )
        kept = _state(suite).exists()
        plan.polls = 0  # the batch completes at the next poll
        rerun = _run(suite, srv, *FEW)

    text = waited.stdout.str()
    waited.assert_outcomes(errors=N_FEW)
    beats = re.findall(rf"still batch \S+ in_progress: 0/{N_FEW} done, 0 failed, (\d+)s", text)
    assert len(beats) >= 3, text  # a line at least every heartbeat, though nothing changed
    assert f"(--batch-wait 3); it runs on at the provider and is kept in {_state(suite)}; run again to fetch it" in text
    assert kept
    rerun.assert_outcomes(passed=N_FEW)
    assert book.submissions == 1 and not _state(suite).exists()


def test_issue32_ctrl_c_while_polling_says_the_batch_runs_on_and_is_kept(suite):
    plan = BatchPlan(polls=10**9)
    suite.makepyfile(fast_polls=FAST_POLLS)
    log = suite.path / "interrupted.log"
    with StubServer(batches=plan) as srv, log.open("w") as fh:
        book = srv.state.batches
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "fast_polls", *_args(srv, *FEW)],
            cwd=suite.path,
            stdout=fh,
            stderr=subprocess.STDOUT,
            preexec_fn=interruptible,
        )
        try:
            deadline = time.monotonic() + SUBPROCESS_TIMEOUT
            while not (book.batches and max(book.polls.values(), default=0) >= 3):
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the run never started polling its batch"
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    text = log.read_text()
    assert f"runs on at the provider; it is kept in {_state(suite)}: run again to fetch it" in text, text
    assert _state(suite).exists()


#: What a hostile provider may put in a batch's id or status: clear the screen, recolour, return.
ESCAPES = "\x1b[2J\x1b[31m\rOWNED\x07"


@pytest.mark.parametrize(
    "plan",
    [
        BatchPlan(polls=3, hostile_id=ESCAPES),
        BatchPlan(polls=1, fail_batch=f"refused {ESCAPES}"),
        BatchPlan(polls=1, fail_matching=("circle",), fail_message=f"refused {ESCAPES}"),
    ],
    ids=["batch-id", "batch-error", "row-error"],
)
def test_issue32_a_providers_control_characters_never_reach_the_terminal(suite, plan):
    """A batch id (refused: it goes into request paths) and the provider's reasons are shown
    printable: no escape sequence clears the screen or recolours the terminal."""
    with StubServer(batches=plan) as srv:
        result = _run(suite, srv, *FEW)

    raw = result.stdout.str() + result.stderr.str()
    assert "\x1b" not in raw and "\x07" not in raw and "\r" not in raw.replace("\r\n", "\n")
    result.assert_outcomes(errors=N_FEW)
    assert "which is not one" in raw if plan.hostile_id else "refused OWNED" in raw


def test_issue32_duplicate_batch_rows_are_said_not_resolved_silently(suite):
    """The provider's files held every row twice ("completed: 6/3") and the run said nothing of it."""
    with StubServer(batches=BatchPlan(polls=1, duplicate_rows=True)) as srv:
        result = _run(suite, srv, *FEW)

    text = result.stdout.str()
    result.assert_outcomes(passed=N_FEW)
    assert f"its files hold {N_FEW} more row(s) than requests, for {N_FEW} request(s)" in text, text
    assert "each request's first answer is recorded, the rest ignored" in text
    assert not _state(suite).exists()


def test_a_completed_batch_without_a_row_records_the_rest_and_asks_that_one_anew(suite):
    """A completed batch whose files lacked one request's row (the provider's count agreeing) lost
    every answer: the batch was kept "to fetch them again", and every later run fetched the same
    files to the same end. The delivered answers are recorded; the one never answered errors and
    the next run asks it alone, in a new batch."""
    with StubServer(batches=BatchPlan(polls=1, drop_rows=1)) as srv:
        first = _run(suite, srv, *FEW)
        recorded = _recorded(suite)
        srv.state.batches.plan.drop_rows = 0
        second = _run(suite, srv, *FEW)
        book = srv.state.batches

    first.assert_outcomes(passed=N_FEW - 1, errors=1)
    assert "the batch ended without an answer for this request; run again to ask for it" in first.stdout.str()
    assert len(recorded) == N_FEW - 1
    second.assert_outcomes(passed=N_FEW)
    assert book.submissions == 2 and book.answered_rows == N_FEW + 1  # the second batch asked the one alone
    assert not _state(suite).exists()


def test_a_batch_reporting_answers_its_files_lack_records_the_rest_and_is_kept(suite):
    """The provider counts an answer its files do not hold: the answers delivered are recorded at
    once, and the batch is kept to fetch the missing one."""
    with StubServer(batches=BatchPlan(polls=1, hide_rows=1)) as srv:
        result = _run(suite, srv, *FEW)

    text = result.stdout.str()
    result.assert_outcomes(passed=N_FEW - 1, errors=1)
    assert len(_recorded(suite)) == N_FEW - 1
    assert f"it reports {N_FEW} answer(s) and its files hold {N_FEW - 1}" in text, text
    assert _state(suite).exists()


def test_a_delivered_answer_that_cannot_be_read_errors_and_is_asked_anew_not_waited_for(suite):
    """Red-team sweep 49: a row the provider counts as answered (HTTP 200) with no choice in it was
    not counted as delivered, so the batch was kept "to fetch it again" on every run for ever and
    the case never settled. It errors once, saying why, and the next run asks it in a new batch."""
    with StubServer(batches=BatchPlan(polls=1, empty_matching=("circle-start000-cw/",))) as srv:
        first = _run(suite, srv, *FEW)
        kept = _state(suite).exists()
        srv.state.batches.plan.empty_matching = ()
        second = _run(suite, srv, *FEW)
        book = srv.state.batches

    first.assert_outcomes(passed=N_FEW - 1, errors=1)
    assert "the provider's answer could not be read (IndexError" in first.stdout.str()
    assert "run again to ask for it in a new batch" in first.stdout.str()
    assert not kept
    second.assert_outcomes(passed=N_FEW)
    assert book.submissions == 2 and book.answered_rows == N_FEW + 1  # the second batch asked the one alone


def test_a_model_arguments_url_password_never_reaches_the_batch_state_and_its_batch_resumes(suite):
    """Red-team sweep 48: the batch state kept the request's arguments unmasked: a password in a
    ``--model-arg`` URL was on disk while the batch ran. Kept masked, the resumed batch still
    records answers that replay with the same argument, asking nothing again."""
    password = "hunter2pass48xyz"
    arg = f'--model-arg=extra_body={{"callback": "https://bot:{password}@hooks.example.com/x"}}'
    plan = BatchPlan(polls=10**9)  # in progress until told
    with StubServer(batches=plan) as srv:
        book = srv.state.batches
        waited = _run(suite, srv, *FEW, arg, "--batch-wait=1")
        on_disk = _files_containing(suite.path / "recorded", password)
        kept = _state(suite).exists()
        plan.polls = 0
        resumed = _run(suite, srv, *FEW, arg)
        replay = suite.runpytest_subprocess(*_args(None, *FEW, arg, "--record=none"), timeout=SUBPROCESS_TIMEOUT)

    waited.assert_outcomes(errors=N_FEW)
    assert kept and not on_disk
    resumed.assert_outcomes(passed=N_FEW)
    replay.assert_outcomes(passed=N_FEW)
    assert book.submissions == 1
    assert not _files_containing(suite.path, password)


def _left_then_resumed(
    suite: pytest.Pytester, first: tuple[str, ...], then: tuple[str, ...]
) -> tuple[pytest.RunResult, pytest.RunResult, Any]:
    """A run (``first``) that stops waiting for its batch and keeps it, then one (``then``) once
    the batch has ended; both runs, and the stub's book of batches."""
    plan = BatchPlan(polls=10**9)  # in progress until the first run has stopped waiting
    with StubServer(batches=plan) as srv:
        waited = _run(suite, srv, *FEW, *first, "--batch-wait=1")
        plan.polls = 0
        resumed = _run(suite, srv, *FEW, *then)
    return waited, resumed, srv.state.batches


def test_resuming_a_batch_under_record_all_submits_nothing_again(suite):
    """Red-team sweep 49: a --record=all run that resumed a pending batch recorded it, then asked
    the whole selection again in a second batch: every request paid for twice."""
    waited, resumed, book = _left_then_resumed(suite, ("--record=all",), ("--record=all",))

    waited.assert_outcomes(errors=N_FEW)
    resumed.assert_outcomes(passed=N_FEW)
    assert book.submissions == 1


def test_a_batch_lock_that_is_a_link_is_never_followed(suite):
    """Red-team sweep 49: the lock was opened through a symlink (a fixtures folder from a checkout
    may hold one) and the file it pointed to was truncated."""
    victim = suite.path / "victim.txt"
    victim.write_text("IMPORTANT\n", encoding="utf-8")
    folder = suite.path / "recorded" / model_slug(MODEL)
    folder.mkdir(parents=True)
    (folder / ".batch.lock").symlink_to(victim)
    with StubServer(batches=BatchPlan(polls=0)) as srv:
        result = _run(suite, srv, *FEW)

    assert victim.read_text(encoding="utf-8") == "IMPORTANT\n"
    result.stdout.fnmatch_lines(["*.batch.lock cannot be opened*must be a plain file*"])


@pytest.mark.parametrize("planned", [False, True], ids=["recording-whole", "case-asked"])
def test_a_resumed_batch_answering_an_earlier_prompt_never_replaces_the_current_answer(suite, planned):
    """Red-team sweep 49: a batch submitted before a case's prompt changed was resumed after a live
    run had recorded the new prompt's answer, and its answer replaced that recording: the case
    errored and was bought again. The earlier prompt's answer is not recorded; a case the run asks
    anyway is asked in a new batch for its prompt of now."""
    cw, ccw = "circle-start000-cw", "circle-start000-ccw"
    with StubServer(batches=BatchPlan(polls=0)) as srv:
        live = suite.runpytest_subprocess(
            *_args(None, *FEW), f"--api-base={srv.base_url}", timeout=SUBPROCESS_TIMEOUT
        )  # both recorded for the prompts of now
        folder = suite.path / "recorded" / model_slug(MODEL)
        current = json.loads((folder / f"{cw}.json").read_text())["prompt_sha256"]
        (folder / f"{ccw}.json").unlink()  # the run has something to ask: the pending batch is resumed
        if planned:
            (folder / f"{cw}.json").unlink()
        # the pending batch: submitted for cw when its prompt was another
        case = next(c for c in load_cases() if c.id == cw)
        old = Request(MODEL, cw, "ru", 0, "1" * 64, None, defaults.MAX_TOKENS)
        body = {"model": "exact", "messages": case.messages("ru")}
        line = {"custom_id": old.custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}
        book = srv.state.batches
        book.files["file-earlier"] = ("batch", (json.dumps(line) + "\n").encode())
        _, made = book.submit({"input_file_id": "file-earlier"})
        server = srv.base_url.removesuffix("/v1")
        BatchState(
            MODEL, "openai", {old.custom_id: old}, server=server, input_file_id="file-earlier", batch_id=made["id"]
        ).write(_state(suite))
        resumed = _run(suite, srv, *FEW)

    live.assert_outcomes(passed=N_FEW)
    resumed.assert_outcomes(passed=N_FEW)
    text = resumed.stdout.str()
    assert f"answered {cw} (ru) for a prompt it no longer asks" in text, text
    assert ("the run asks it anew" if planned else "the recording on disk, of another prompt, is kept") in text
    assert json.loads((folder / f"{cw}.json").read_text())["prompt_sha256"] == current
    uploads = [data for f, (purpose, data) in book.files.items() if purpose == "batch" and f != "file-earlier"]
    asked_again = [json.loads(row)["custom_id"].split("/")[2] for data in uploads for row in data.decode().splitlines()]
    assert sorted(asked_again) == sorted([ccw, cw] if planned else [ccw])
    assert not _state(suite).exists()


def test_a_resumed_batch_asked_at_other_settings_leaves_the_runs_own_questions_asked(suite):
    """Red-team sweep 50: a batch resumed from a run at another temperature was counted as this
    run's answers, so its own questions were never submitted and every case errored as stale.
    Those answers are recorded beside (they answer other settings), and this run's are asked."""
    waited, resumed, book = _left_then_resumed(suite, ("--temperature=0.5",), ("--temperature=1",))

    waited.assert_outcomes(errors=N_FEW)
    resumed.assert_outcomes(passed=N_FEW)
    assert book.submissions == 2
    assert "resuming batch" in resumed.stdout.str() and "submitted batch" in resumed.stdout.str()


def test_a_run_asking_call_by_call_asks_nothing_a_pending_batch_holds(suite):
    """Red-team sweep 52: after a --batch run stopped waiting (its batch kept), a run without
    --batch asked every case again, live: each answer paid twice, and the batch never fetched.
    Those cases error naming the batch; the --batch run then fetches it."""
    plan = BatchPlan(polls=10**9)
    with StubServer(batches=plan) as srv:
        waited = _run(suite, srv, *FEW, "--batch-wait=1")
        live = suite.runpytest_subprocess(*_args(None, *FEW), f"--api-base={srv.base_url}", timeout=SUBPROCESS_TIMEOUT)
        asked_live = srv.state.requests
        plan.polls = 0
        fetched = _run(suite, srv, *FEW)

    waited.assert_outcomes(errors=N_FEW)
    live.assert_outcomes(errors=N_FEW)
    assert asked_live == 0
    live.stdout.fnmatch_lines(["*is not asked: the pending batch at *.batch.json holds this case's request*"])
    fetched.assert_outcomes(passed=N_FEW)
    assert srv.state.batches.submissions == 1 and not _state(suite).exists()


def test_a_batch_whose_state_no_run_could_read_back_is_never_submitted(suite):
    """Red-team sweep 53: a state of 85 MB (long non-ASCII arguments, many samples), over what a
    run reads back, was written after the batch was paid for; no run could resume it. Its size
    is known before anything is sent, and such a batch is refused."""
    suite.makepyfile(small_state="import shape_asserts.asking.batch as batch\n\nbatch.MAX_STATE_BYTES = 200\n")
    with StubServer(batches=BatchPlan(polls=0)) as srv:
        result = _run(suite, srv, *FEW, "-p", "small_state")
        book = srv.state.batches

    result.assert_outcomes(errors=N_FEW)
    result.stdout.fnmatch_lines(["*would be * bytes, over the 200 a run reads back; ask fewer cases or samples*"])
    assert (book.uploads, book.submissions) == (0, 0) and not _state(suite).exists()
