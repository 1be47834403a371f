"""A live run says what it is doing: heartbeat lines naming the calls in flight while a slow server
thinks, and the fetch's final line once (it was printed twice)."""

from __future__ import annotations

import pytest

from shape_asserts.asking.stub_server import StubServer

from .conftest import SUBPROCESS_TIMEOUT

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

CASE = "circle-start330-ccw"


def test_a_slow_server_shows_heartbeats_and_one_final_line(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    monkeypatch.setenv("SHAPE_ASSERTS_HEARTBEAT", "0.5")  # the default is 10 s
    with StubServer(latency=4.0) as srv:  # answers after 8 heartbeat intervals
        result = suite.runpytest_subprocess(
            "--model=openai/exact",
            f"--api-base={srv.base_url}",
            "--fixtures-dir=recorded",
            "-k",
            CASE,
            timeout=SUBPROCESS_TIMEOUT,
        )
    result.assert_outcomes(passed=1)
    lines = result.stdout.lines
    beats = [line for line in lines if line.startswith("shape-asserts: 0/1 calls done") and "in flight" in line]
    assert len(beats) >= 2, "\n".join(lines)
    assert "1 in flight, the longest for" in beats[-1] and f"({CASE}@openai/exact #0)" in beats[-1]
    assert len([line for line in lines if line.startswith("shape-asserts: 1/1 calls done")]) == 1
