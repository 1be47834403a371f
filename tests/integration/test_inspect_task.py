"""End to end: the inspect_ai task asks the stub server and scores every answer as the pytest suite does.

inspect_ai runs in this process (its ``eval()`` of the task; ``tests/unit/test_inspect_task.py``
checks its registered name, ``shape_asserts/shapes``, which inspect resolves from the working
folder's paths first), asking the stub
server on 127.0.0.1 as ``openai/exact`` and ``openai/noisy``. The stub answers the first request
for a prompt with the reference drawer's sample 0, the answer the suite replays from
``fixtures/reference_<drawer>/``; so each answer inspect got is held against that recording, and
each sample's score against the suite's pinned result of it (``snapshots/reference_<drawer>/``,
which every run of the suite compares with). The task's numbers are held against the suite's
leaderboard of those pinned results (the cases grouped as the suite groups them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_server import StubServer
from shape_asserts.cases import Case
from shape_asserts.results.leaderboard import OVERALL, Standing, leaderboard
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.snapshots import family_folder, snapshot_folder

from .conftest import CIRCLE_CASES, SHIPPED_FIXTURES, SHIPPED_SNAPSHOTS

pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed: pip install -e '.[inspect]' (CI installs it with '.[test]')"
)

# imported once inspect_ai is known to be there
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from shape_asserts.inspect_task import select_cases, shapes

# inspect_ai's own call into tenacity, once per request: not ours to fix
pytestmark = [
    pytest.mark.live,
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning"),
]


def _evaluate(drawer: str, families: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> EvalLog:
    """The task over the cases of ``families``, asked of the stub server's ``drawer``."""
    monkeypatch.setenv("OPENAI_API_KEY", "anything")
    # a fresh server per run: the n-th request for a prompt is answered with sample n
    with StubServer() as srv:
        (log,) = inspect_eval(
            shapes(family=",".join(families)),
            model=f"openai/{drawer}",
            model_base_url=srv.base_url,
            # inspect_ai takes an unknown model name for OpenAI's newest and asks its Responses API;
            # the stub (as most local servers) speaks chat completions
            model_args={"responses_api": False},
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success", log.error
    return log


def _suite_result(drawer: str, case: Case) -> dict[str, Any]:
    """The suite's pinned result of ``case`` for the reference drawer (the default language, 1 sample)."""
    folder = snapshot_folder(SHIPPED_SNAPSHOTS, f"reference/{drawer}", "ru", 1)
    return json.loads((folder / family_folder(case) / f"{case.id}.json").read_text(encoding="utf-8"))


def _recorded_text(drawer: str, case: Case) -> str:
    recording = SHIPPED_FIXTURES / model_slug(f"reference/{drawer}") / f"{case.id}.json"
    return json.loads(recording.read_text(encoding="utf-8"))["samples"][0]["text"]


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {m.name: m.value for score in log.results.scores for m in score.metrics.values()}


def _same_scores_as_the_suite(drawer: str, families: list[str], log: EvalLog) -> list[dict[str, Any]]:
    """Every sample scored as the suite scored the same answer; the suite's results, in case order."""
    cases = {c.id: c for c in select_cases(families, False)}
    assert log.samples is not None and sorted(str(s.id) for s in log.samples) == sorted(cases)
    results = []
    for sample in log.samples:
        case = cases[str(sample.id)]
        suite = _suite_result(drawer, case)
        expected = suite["samples"][0]
        assert sample.output.completion == _recorded_text(drawer, case), f"{case.id}: not the answer the suite replays"
        assert sample.scores is not None
        got = sample.scores["shape_scorer"]
        assert isinstance(got.value, dict) and got.metadata is not None
        assert round(float(got.value["score"]), 2) == expected["score"], case.id
        assert bool(got.value["passed"]) is expected["passed"], case.id
        assert got.metadata["verdict"] == ("passed" if suite["passed"] else "failed"), case.id
        assert {c["name"]: c["passed"] for c in got.metadata["checks"]} == expected["checks"], case.id
        results.append({"case": case, **expected})
    return results


def _suite_board(drawer: str, results: list[dict[str, Any]]) -> Standing:
    """The suite's leaderboard over the pinned results: its overall score, pass rate and spread."""
    model = f"reference/{drawer}"
    records = [
        CaseRecord.from_scores(
            model, r["case"].id, r["case"].family, [r["score"]], [r["passed"]], group=r["case"].group
        )
        for r in results
    ]
    standing = leaderboard(records).standing(model, OVERALL)
    assert standing is not None and standing.score and standing.pass_rate and standing.spread
    return standing


def test_an_exact_drawer_passes_every_circle_with_the_suites_scores(tmp_path, monkeypatch):
    log = _evaluate("exact", ["circle"], tmp_path, monkeypatch)
    results = _same_scores_as_the_suite("exact", ["circle"], log)
    assert sorted(r["case"].id for r in results) == sorted(CIRCLE_CASES)
    metrics = _metrics(log)
    assert metrics["pass_rate"] == 1.0
    suite = _suite_board("exact", results)
    assert metrics["mean_score"] == pytest.approx(suite.score.value, abs=0.01)
    assert metrics["stability"] == pytest.approx(suite.spread.value, abs=0.01) == 0.0


def test_a_noisy_drawer_passes_fewer_shapes_with_the_suites_scores(tmp_path, monkeypatch):
    """Circles and ellipses: the circles are one group of start points, the ellipses several."""
    families = ["circle", "ellipse"]
    log = _evaluate("noisy", families, tmp_path, monkeypatch)
    results = _same_scores_as_the_suite("noisy", families, log)
    metrics = _metrics(log)
    assert metrics["pass_rate"] < 1.0
    suite = _suite_board("noisy", results)
    assert metrics["pass_rate"] == pytest.approx(suite.pass_rate.value / 100)
    assert metrics["mean_score"] == pytest.approx(suite.score.value, abs=0.01)
    assert suite.groups > 1 and suite.spread.value > 0
    assert metrics["stability"] == pytest.approx(suite.spread.value, abs=0.01)
