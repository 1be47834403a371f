"""End to end through the real litellm and the local stub server: ``--model-arg`` reaches every
request's body, and two configurations of one model send their own arguments and rank as two rows.

One subprocess run (the real litellm is never imported in this process's in-process runs), on the
seed post's three prompts.
"""

from __future__ import annotations

import re

import pytest

from shape_asserts.asking.stub_server import StubServer

from .conftest import SUBPROCESS_TIMEOUT, summary_rows

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

MODELS_TOML = """
[models.exact-low]
model = "openai/exact"
reasoning_effort = "low"

[models.exact-high]
model = "openai/exact"
reasoning_effort = "high"
extra_body = { verbosity = "low" }
"""


def test_model_args_reach_every_request_and_two_configurations_send_their_own(suite, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "anything")  # the stub asks for none; the client needs one
    suite.path.joinpath("models.toml").write_text(MODELS_TOML, encoding="utf-8")

    with StubServer() as srv:
        result = suite.runpytest_subprocess(
            "--shape-models=models.toml",
            "--model=exact-low",
            "--model=exact-high",
            "--model-arg",
            "top_p=0.5",
            "--model-arg",
            "seed=7",
            f"--api-base={srv.base_url}",
            "--fixtures-dir=recorded",
            "-m",
            "seed",
            timeout=SUBPROCESS_TIMEOUT,
        )

    result.assert_outcomes(passed=6)
    bodies = srv.state.bodies
    assert len(bodies) == 6
    assert all(b["model"] == "exact" and b["top_p"] == 0.5 and b["seed"] == 7 for b in bodies)
    own = sorted((b["reasoning_effort"], b.get("verbosity")) for b in bodies)
    assert own == [("high", "low")] * 3 + [("low", None)] * 3  # extra_body's keys join the body
    rows = summary_rows(result.stdout.str())
    assert set(rows) == {("exact-low", "circle"), ("exact-high", "circle")}
    board = result.stdout.str().split("shape-asserts leaderboard", 1)[1].splitlines()
    # one leaderboard row each (three shared cases are too few to rank: "—")
    rows = [line.split()[1] for line in board if re.match(r"(=?\d+|—)\s+exact-(low|high)\s+3\s", line)]
    assert sorted(rows) == ["exact-high", "exact-low"]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stub listens on 127.0.0.1: a proxy set in the environment must not be asked for it."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
