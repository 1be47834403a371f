"""A live run without xdist asks from a second process while its tests run
(``shape_asserts/asking/background.py``): every prompt once, every paid answer recorded even when
the run stops early, and a second process that dies is an error naming it — never a pass, never a hang.

The server runs in this process; the suite runs in a subprocess, serially, as ``pytest -n auto``
runs a small selection.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_server import StubServer

from .conftest import CIRCLE, CIRCLE_CASES, N_CASES, SUBPROCESS_TIMEOUT, junit_cases

SECRET = "sk-shape-asserts-BACKGROUND-SECRET-5d1f0a77"
CHILD = "shape_asserts.asking.background"


def _run(suite: pytest.Pytester, model: str, *args: str) -> pytest.RunResult:
    return suite.runpytest_subprocess(
        f"--model={model}", "--fixtures-dir=recorded", *CIRCLE, *args, timeout=SUBPROCESS_TIMEOUT
    )


def _recorded(suite: pytest.Pytester, model: str) -> list[str]:
    return sorted(p.stem for p in (suite.path / "recorded" / model_slug(model)).glob("*.json"))


def test_a_serial_live_run_asks_each_prompt_once_from_a_second_process(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with StubServer(latency=0.2) as srv:
        live = _run(suite, "openai/exact", f"--api-base={srv.base_url}", "--junitxml=live.xml")
    replay = _run(suite, "openai/exact", "--record=none", "--junitxml=replay.xml")

    live.assert_outcomes(passed=N_CASES)
    out = live.stdout.str()
    assert f"asking {N_CASES} call(s) in a second process while the tests run" in out
    assert f"{N_CASES}/{N_CASES} calls done — asked {N_CASES}, answered {N_CASES}, failed 0" in out
    assert srv.state.requests == N_CASES and set(srv.state.answered.values()) == {1}
    assert _recorded(suite, "openai/exact") == sorted(CIRCLE_CASES)
    replay.assert_outcomes(passed=N_CASES)
    assert junit_cases(suite.path / "replay.xml") == junit_cases(suite.path / "live.xml")
    assert not [p for p in suite.path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert SECRET not in out + live.stderr.str()


def test_a_run_stopped_early_keeps_every_answer_it_paid_for_and_never_asks_one_twice(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    model = "openai/noisy"  # draws badly: the first failing test stops the run (-x)
    with StubServer(latency=0.5) as srv:
        first = _run(suite, model, f"--api-base={srv.base_url}", "--concurrency=2", "-x", "-p", "no:randomly")
        asked_first = srv.state.requests
        recorded_first = _recorded(suite, model)
        second = _run(suite, model, f"--api-base={srv.base_url}", "--concurrency=2")

    assert first.ret == 1 and "stopping after 1 failures" in first.stdout.str()
    assert 0 < asked_first < N_CASES  # it stopped starting calls...
    assert len(recorded_first) == asked_first  # ...and recorded every one it had started
    assert srv.state.requests == N_CASES and set(srv.state.answered.values()) == {1}  # the rest, once
    assert _recorded(suite, model) == sorted(CIRCLE_CASES)
    assert f"asking {N_CASES - asked_first} call(s) in a second process" in second.stdout.str()


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` and that run the asking process."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and CHILD in cmdline:
            found.append(int(proc.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux", reason="finds the child through /proc")
def test_an_asking_process_that_dies_errors_the_cases_it_had_not_settled_naming_it(suite, monkeypatch):
    env = {**os.environ, "OPENAI_API_KEY": "dummy"}
    with StubServer(latency=3.0) as srv:  # the answers are slow: the child dies with calls in flight
        cmd = [sys.executable, "-m", "pytest", "--model=openai/exact", "--fixtures-dir=recorded", *CIRCLE]
        cmd += [f"--api-base={srv.base_url}", "-p", "no:cacheprovider"]
        proc = subprocess.Popen(cmd, cwd=suite.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + SUBPROCESS_TIMEOUT
        while not _children(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        while srv.state.requests == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # it is asking now
        for child in _children(proc.pid):
            os.kill(child, signal.SIGKILL)
        out, _ = proc.communicate(timeout=SUBPROCESS_TIMEOUT)
    text = out.decode(errors="replace")

    assert proc.returncode == 1, text
    assert f" {N_CASES} errors in " in text.splitlines()[-1], text  # every case, none passed
    assert "ProviderError: the asking process ended (exit status -9) before this case was asked" in text
    assert "run again: answers recorded so far are kept" in text
    assert not list((suite.path / "recorded").rglob("*.json"))  # no call finished: nothing recorded


def test_ctrl_c_starts_no_new_call_and_records_the_calls_in_flight(suite):
    env = {**os.environ, "OPENAI_API_KEY": "dummy"}
    with StubServer(latency=2.0) as srv:
        cmd = [sys.executable, "-m", "pytest", "--model=openai/exact", "--fixtures-dir=recorded", *CIRCLE]
        cmd += [f"--api-base={srv.base_url}", "--concurrency=2", "-p", "no:cacheprovider"]
        # a session of its own: the interrupt goes to its whole process group, as a terminal's Ctrl-C
        proc = subprocess.Popen(
            cmd, cwd=suite.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + SUBPROCESS_TIMEOUT
        while srv.state.in_flight == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=SUBPROCESS_TIMEOUT)
        asked = srv.state.requests
    text = out.decode(errors="replace")

    assert proc.returncode == 2, text  # interrupted
    assert "waiting for the calls in flight to be recorded" in text, text
    assert 0 < asked < N_CASES
    assert len(_recorded(suite, "openai/exact")) == asked  # every call it paid for is on disk


def test_the_cost_cap_holds_in_the_asking_process_and_the_cases_left_are_skipped(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    model = "openai/gpt-4o-mini"  # litellm knows its price: the stub's usage is priced
    with StubServer() as srv:
        result = _run(suite, model, f"--api-base={srv.base_url}", "--max-cost=0.00001", "--concurrency=1", "-rs")

    out = result.stdout.str()
    assert "in a second process" in out
    # each call holds its worst case (4,096 answer tokens) against the cap before it is sent, and
    # one call's is more than the cap: nothing is started (issue 32, M4; once the first answer
    # was bought and passed the cap, and with calls in flight the rest passed it further)
    assert srv.state.requests == 0
    result.assert_outcomes(skipped=N_CASES)
    assert f"SKIPPED [{N_CASES}] test_shapes.py:8: not asked: --max-cost 1e-05 USD was reached" in out
    assert _recorded(suite, model) == []


def test_two_samples_in_english_are_each_asked_once_from_the_second_process(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    with StubServer() as srv:
        result = _run(suite, "openai/exact", f"--api-base={srv.base_url}", "--samples=2", "--lang=en")

    result.assert_outcomes(passed=N_CASES)
    assert f"asking {2 * N_CASES} call(s) in a second process" in result.stdout.str()
    assert srv.state.requests == 2 * N_CASES and set(srv.state.answered.values()) == {2}
    folder = suite.path / "recorded" / model_slug("openai/exact")
    recorded = sorted(folder.glob("*.en.json"))
    assert [p.name.removesuffix(".en.json") for p in recorded] == sorted(CIRCLE_CASES)
    for path in recorded:
        assert [s["index"] for s in json.loads(path.read_text(encoding="utf-8"))["samples"]] == [0, 1]
