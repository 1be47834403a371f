"""End to end: the suite asks a local OpenAI-compatible server through the real litellm, records what
it got, and replays it identically with the server gone; the API key is written nowhere.

The server runs in this process; the suite runs in a subprocess (``-n 2``), as a user would run it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_server import StubServer, sample_key
from shape_asserts.cases import load_cases

from .conftest import CIRCLE, CIRCLE_CASES, N_CASES, SUBPROCESS_TIMEOUT, junit_cases

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

#: Recognisable, so that finding it anywhere on disk is unambiguous.
SECRET = "sk-shape-asserts-LOCAL-SECRET-7c41e9d2"
MODEL = "openai/exact"


def _circle_prompt_shas() -> set[str]:
    # the server is sent the model's name without litellm's provider prefix
    return {sample_key(MODEL.split("/", 1)[1], c.messages("ru")) for c in load_cases() if c.family == "circle"}


def _run(suite: pytest.Pytester, *args: str) -> pytest.RunResult:
    return suite.runpytest_subprocess(
        f"--model={MODEL}", "--fixtures-dir=recorded", *CIRCLE, *args, timeout=SUBPROCESS_TIMEOUT
    )


def _files_containing(root: Path, needle: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


@pytest.fixture
def secret_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    return SECRET


def test_a_live_run_asks_each_prompt_once_and_its_replay_gives_identical_results(suite, secret_key):
    with StubServer() as srv:
        live = _run(suite, "-n", "2", f"--api-base={srv.base_url}", "--junitxml=live.xml")
    replay = _run(suite, "--record=none", "--junitxml=replay.xml")  # the server is stopped

    live.assert_outcomes(passed=N_CASES)
    assert srv.state.requests == N_CASES
    assert dict(srv.state.answered) == {sha: 1 for sha in _circle_prompt_shas()}
    assert set(srv.state.auth_headers) == {f"Bearer {secret_key}"}  # the key was used...
    recorded = sorted((suite.path / "recorded" / model_slug(MODEL)).glob("*.json"))
    assert [p.stem for p in recorded] == sorted(CIRCLE_CASES)
    for path in recorded:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["model"] == MODEL and [s["index"] for s in doc["samples"]] == [0]
    replay.assert_outcomes(passed=N_CASES)
    assert junit_cases(suite.path / "replay.xml") == junit_cases(suite.path / "live.xml")
    # ...and is written nowhere: not in recordings, reports, caches or any other file of the run
    assert _files_containing(suite.path, secret_key) == []
    assert secret_key not in live.stdout.str() + live.stderr.str()


def test_two_samples_ask_each_prompt_exactly_twice(suite, secret_key):
    with StubServer() as srv:
        result = _run(suite, "-n", "2", f"--api-base={srv.base_url}", "--samples=2")

    result.assert_outcomes(passed=N_CASES)
    assert srv.state.requests == 2 * N_CASES
    assert dict(srv.state.answered) == {sha: 2 for sha in _circle_prompt_shas()}
    recorded = sorted((suite.path / "recorded" / model_slug(MODEL)).glob("*.json"))
    assert [p.stem for p in recorded] == sorted(CIRCLE_CASES)
    for path in recorded:
        assert [s["index"] for s in json.loads(path.read_text(encoding="utf-8"))["samples"]] == [0, 1]
    assert _files_containing(suite.path, secret_key) == []
