"""The command lines of ``docs/local-models.md``, run as written against the project's stub server.

The lines are read from that page (so they cannot drift from what is tested): each sets
``OPENAI_API_KEY=dummy`` and runs the seed cases of ``tests/suite`` against ``--api-base``; here
``tests/suite`` is the pytester folder and the URL is the stub's. Everything else is kept.
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_server import StubServer

from .conftest import REPO, SEED_CASES, SUBPROCESS_TIMEOUT


def _local_model_lines() -> list[str]:
    text = (REPO / "docs" / "local-models.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith("OPENAI_API_KEY=")]


LINES = _local_model_lines()


def _model(words: list[str]) -> str:
    return next(w.split("=", 1)[1] for w in words if w.startswith("--model="))


def test_the_page_names_a_command_line_for_each_local_server():
    assert len(LINES) == 4
    assert all("--api-base=" in line and "--concurrency=1" in line for line in LINES)


@pytest.mark.live  # through the real litellm
@pytest.mark.parametrize("line", LINES, ids=[_model(shlex.split(line)) for line in LINES])
def test_a_local_model_line_records_the_seed_cases_from_a_server_without_a_key(suite, monkeypatch, line):
    words = shlex.split(line)
    env, command = words[0], words[1:]
    name, value = env.split("=", 1)
    assert command[:2] == ["pytest", "tests/suite"], line
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv(name, value)  # the placeholder the page says to pass
    with StubServer() as srv:
        args = [f"--api-base={srv.base_url}" if w.startswith("--api-base=") else w for w in command[2:]]
        result = suite.runpytest_subprocess(*args, timeout=SUBPROCESS_TIMEOUT)
    result.assert_outcomes(passed=len(SEED_CASES))
    assert srv.state.requests == len(SEED_CASES)
    assert set(srv.state.auth_headers) == {f"Bearer {value}"}
    recorded = sorted((suite.path / "fixtures" / model_slug(_model(command))).glob("*.json"))
    assert [p.stem for p in recorded] == sorted(SEED_CASES)
    assert {json.loads(p.read_text(encoding="utf-8"))["temperature"] for p in recorded} == {0.0}
