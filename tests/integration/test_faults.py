"""Live runs against a misbehaving provider: faults are retried, outages are errors, nothing bad is
recorded, and a run killed mid-way leaves only complete fixtures and resumes where it stopped.

A local stub server (127.0.0.1) injects 429 with Retry-After, 500, dropped connections and hangs past
the request timeout; the suite runs in a subprocess with the real litellm, as a user would run it.
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
from shape_asserts.asking.stub_server import Faults, StubServer

from .conftest import CIRCLE, N_CASES, SUBPROCESS_TIMEOUT

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

MODEL = "openai/exact"


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-faults-test-key-0001")
    return "sk-faults-test-key-0001"


def _recordings(root: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.json"))]


def test_a_30_percent_fault_rate_is_retried_to_completion_and_no_fault_is_recorded(suite, key):
    faults = Faults(rate=0.3, retry_after=0.1, hang_seconds=4.0, seed=7)
    with StubServer(faults=faults) as srv:
        result = suite.runpytest_subprocess(
            f"--model={MODEL}",
            f"--api-base={srv.base_url}",
            "--fixtures-dir=recorded",
            *CIRCLE,
            "--request-timeout=3",
            "--max-retries=8",
            "--timeout-retries=8",
            "-p",
            "no:randomly",
            timeout=SUBPROCESS_TIMEOUT,
        )
    assert set(srv.state.faulted) == {"429", "500", "drop", "hang"}  # every kind was injected
    result.assert_outcomes(passed=N_CASES)
    assert "retried" in result.stdout.str()  # the progress line counts retries
    recs = _recordings(suite.path / "recorded" / model_slug(MODEL))
    assert len(recs) == N_CASES
    for rec in recs:  # only drawings were recorded, never an error body
        for sample in rec["samples"]:
            assert sample["text"].startswith('{"grid_size"'), sample["text"][:80]


def test_an_outage_that_outlasts_the_retries_is_an_error_naming_the_last_reply(suite, key):
    with StubServer(faults=Faults(rate=1.0, kinds=("500",))) as srv:
        result = suite.runpytest_subprocess(
            f"--model={MODEL}",
            f"--api-base={srv.base_url}",
            "--fixtures-dir=recorded",
            *CIRCLE,
            "-k",
            "seed",
            "--max-retries=1",
            timeout=SUBPROCESS_TIMEOUT,
        )
    result.assert_outcomes(errors=3)
    out = result.stdout.str()
    assert "ProviderError" in out and "upstream exploded" in out and "after 2 attempts" in out
    assert srv.state.requests == 3 * 2  # each case asked once, plus one retry; never re-asked by the test
    assert not (suite.path / "recorded" / model_slug(MODEL)).exists() or not list(
        (suite.path / "recorded" / model_slug(MODEL)).glob("*.json")
    )


def test_a_run_killed_mid_way_leaves_complete_fixtures_and_the_rerun_asks_only_the_rest(suite, key):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    root = suite.path / "recorded" / model_slug(MODEL)
    with StubServer(latency=0.5) as srv:
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            f"--model={MODEL}",
            f"--api-base={srv.base_url}",
            "--fixtures-dir=recorded",
            *CIRCLE,
            "--samples=2",
            "--concurrency=4",
            "-q",
            "-p",
            "no:cacheprovider",
        ]
        proc = subprocess.Popen(
            cmd, cwd=suite.path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + SUBPROCESS_TIMEOUT
        # kill once a few answers are on disk but well before all 48 are
        while time.monotonic() < deadline:
            if srv.state.requests >= 12:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        first = srv.state.requests
    assert 0 < first < 2 * N_CASES
    partial = list(root.glob("*.json"))
    assert partial, "some answers were recorded before the kill"
    for path in partial:  # complete or absent: every file on disk parses and holds whole samples
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(s["text"], str) and s["text"] for s in doc["samples"])
    assert not [p for p in root.iterdir() if p.name.endswith(".tmp")]  # no half-written temp left visible as fixture
    have = sum(len(json.loads(p.read_text(encoding="utf-8"))["samples"]) for p in partial)

    with StubServer() as srv2:
        result = suite.runpytest_subprocess(
            f"--model={MODEL}",
            f"--api-base={srv2.base_url}",
            "--fixtures-dir=recorded",
            *CIRCLE,
            "--samples=2",
            timeout=SUBPROCESS_TIMEOUT,
        )
    result.assert_outcomes(passed=N_CASES)
    assert srv2.state.requests == 2 * N_CASES - have  # only what was missing was asked


def test_request_timeout_bounds_the_whole_call_not_only_the_first_byte(key):
    """A server that sends its headers at once and then trickles the body over 6 s was accepted
    after 6 s with a 1.5 s timeout; the whole call is bounded now. (In a subprocess: litellm must
    not be imported into this process, whose in-process runs check that replay never imports it.)
    A first call to a well-behaved server pays litellm's first-call set-up, which on a loaded
    machine alone took longer than the 1.5 s and timed out before the trickling server was reached."""
    script = (
        "import asyncio, sys\n"
        "from shape_asserts.asking.call import aask\n"
        "from shape_asserts.cases import load_cases\n"
        "from shape_asserts.exceptions import ProviderError\n"
        "async def main():\n"
        "    messages = load_cases()[0].messages('ru')\n"
        f"    await aask({MODEL!r}, messages, api_base=sys.argv[1], max_retries=0)\n"
        f"    return await aask({MODEL!r}, messages, timeout=1.5, api_base=sys.argv[2], max_retries=0)\n"
        "try:\n"
        "    asyncio.run(main())\n"
        "except ProviderError as exc:\n"
        "    print('ERROR', exc)\n"
        "else:\n"
        "    print('ANSWERED')\n"
    )
    faults = Faults(rate=1.0, kinds=("trickle",), hang_seconds=6.0)
    with StubServer() as warm, StubServer(faults=faults) as srv:
        done = subprocess.run(
            [sys.executable, "-c", script, warm.base_url, srv.base_url],
            capture_output=True,
            text=True,
            timeout=SUBPROCESS_TIMEOUT,
            check=False,
            env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        )
    assert warm.state.requests == 1
    assert "ERROR" in done.stdout, done.stdout + done.stderr
    assert "Timeout: no complete answer within 1.5 s (--request-timeout)" in done.stdout
    assert srv.state.faulted["trickle"] == 1


def test_request_timeout_bounds_the_whole_call_of_a_test_asking_for_itself(key, tmp_path):
    """The same bound on the path a test takes when no fetch ran before it (``Settings.obtain``
    asking for one case): a trickled answer is cut at the timeout, not accepted after 6 s, and not
    asked again (a timeout is not retried by default)."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from shape_asserts.asking.call import aask\n"
        "from shape_asserts.exceptions import ProviderError\n"
        "from shape_asserts.plugin.suite import CaseParam, Settings\n"
        "def settings(base, timeout):\n"
        f"    return Settings(models=({MODEL!r},), fixtures_dir=Path(sys.argv[3]), api_base=base, timeout=timeout)\n"
        "warm = settings(sys.argv[1], 120.0)\n"
        "case = warm.cases()[0]\n"
        f"warm.obtain(CaseParam({MODEL!r}, case))\n"
        "slow = settings(sys.argv[2], 1.5)\n"
        "try:\n"
        f"    slow.obtain(CaseParam({MODEL!r}, slow.cases()[1]))\n"
        "except ProviderError as exc:\n"
        "    print('ERROR', exc)\n"
        "else:\n"
        "    print('ANSWERED')\n"
    )
    faults = Faults(rate=1.0, kinds=("trickle",), hang_seconds=6.0)
    with StubServer() as warm, StubServer(faults=faults) as srv:
        done = subprocess.run(
            [sys.executable, "-c", script, warm.base_url, srv.base_url, str(tmp_path / "recorded")],
            capture_output=True,
            text=True,
            timeout=SUBPROCESS_TIMEOUT,
            check=False,
            env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        )
    assert warm.state.requests == 1, done.stdout + done.stderr
    assert "ERROR" in done.stdout, done.stdout + done.stderr
    assert "Timeout: no complete answer within 1.5 s (--request-timeout)" in done.stdout
    assert "not retried" in done.stdout
    assert srv.state.requests == 1
