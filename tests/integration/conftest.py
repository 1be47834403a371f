"""Helpers for running the shape suite inside pytest (``pytester``).

Every test gets a fresh folder holding the suite's one-line test file and a copy of the repo's
recorded answers, so a run replays them and never imports litellm. Tests that must record use
``fake_litellm`` (a stand-in that answers with the reference drawers and logs each call); only the
end-to-end tests (``test_local_server.py``, ``test_errors.py``) pay for the real litellm.
"""

from __future__ import annotations

import json
import shutil
import signal
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shape_asserts.cases import load_cases

REPO = Path(__file__).resolve().parents[2]
SUITE_TEST = REPO / "tests" / "suite" / "test_shapes.py"
SHIPPED_FIXTURES = REPO / "fixtures"
SHIPPED_SNAPSHOTS = REPO / "snapshots"

#: The circle family: the cases whose answers (``fixtures/``) and results (``snapshots/``) the repo
#: ships for both reference drawers. Runs that replay select it with ``-m circle``; other families'
#: recordings may not be shipped yet, and their count changes as families are added.
CIRCLE = ("-m", "circle")
CIRCLE_CASES = tuple(c.id for c in load_cases() if c.family == "circle")
N_CASES = len(CIRCLE_CASES)
SEED_CASES = tuple(c.id for c in load_cases() if "seed" in c.tags)

#: The suite folder's ini: the plugin is imported before pytester's run, so pytest cannot rewrite it.
INI = "[pytest]\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"

#: Seconds a subprocess run may take on a busy machine (one that imports litellm spends ~10 s on it).
SUBPROCESS_TIMEOUT = 300


def interruptible() -> None:
    """``preexec_fn`` of a run a test interrupts with SIGINT: Ctrl-C's default restored in it. A
    shell's background job (``pytest … &`` in a script, some CI runners) ignores SIGINT, and an
    ignored signal stays ignored across exec: the signal would never reach the run."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: Stands in for litellm inside the pytester run: ``shape_asserts.asking.call`` still builds the request and
#: reads the response, the asker still writes the files; only the transport is replaced.
FAKE_LITELLM_CONFTEST = '''
"""A fake litellm: answers like the reference drawers and appends every call to asked.jsonl."""
import json
import types
from pathlib import Path

import importlib

# the module the asking code uses (sys.modules'): after an earlier in-process run, pytester
# leaves the package's attribute a copy of its own, and patching that one changed nothing
ask = importlib.import_module("shape_asserts.asking.call")
from shape_asserts.asking.reference import answer_for_messages

LOG = Path(__file__).with_name("asked.jsonl")


def completion(*, model, messages, metadata=None, **kwargs):
    sample = int((metadata or {}).get("shape_sample", 0))
    with LOG.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"model": model, "sample": sample, "messages": messages,
                             "temperature": kwargs.get("temperature")}, ensure_ascii=False) + "\\n")
    text = answer_for_messages("noisy" if model.endswith("noisy") else "exact", messages, sample)
    choice = types.SimpleNamespace(message=types.SimpleNamespace(content=text), finish_reason="stop")
    return types.SimpleNamespace(choices=[choice], usage=None, model="fake-litellm")


async def acompletion(**kwargs):
    return completion(**kwargs)


FAKE = types.SimpleNamespace(
    completion=completion,
    acompletion=acompletion,
    validate_environment=lambda model: {"missing_keys": [], "keys_in_environment": True},
)
_REAL = ask.load_litellm


def pytest_configure(config):  # before collection: live calls may be made as soon as it ends
    ask.load_litellm = lambda: FAKE


def pytest_unconfigure(config):
    ask.load_litellm = _REAL
'''

#: Records whether litellm was imported by the end of the run (xdist: the controller's view).
LITELLM_PROBE_CONFTEST = """
import sys
from pathlib import Path

# an in-process run shares sys.modules with the test process, where an earlier test may have
# imported litellm: hidden for the run, so only an import made by the run itself shows
_EARLIER = sys.modules.pop("litellm", None)


def pytest_sessionfinish(session):
    Path(__file__).with_name("litellm_imported.txt").write_text(str("litellm" in sys.modules))
    if _EARLIER is not None:
        sys.modules["litellm"] = _EARLIER
"""


@pytest.fixture(autouse=True)
def _no_job_summary_from_inner_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of the suite inside a test (pytester) must not write to the CI job's real summary.

    The outer session still writes it (its end is outside any test); a test that wants a summary
    sets ``GITHUB_STEP_SUMMARY`` to a file of its own. Only the tests here run pytest; the shape
    suite's own 139 tests (tests/suite) need no monkeypatch each.
    """
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester folder holding the shape suite and the repo's recorded answers (no snapshots)."""
    # Under `-n`, this process is an xdist worker; the runs inside it must not think they are one
    # (syrupy, for one, then keeps its report to itself).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    # The outer session may have imported the repo's own tests/suite/test_shapes.py as module
    # `test_shapes`; an inner run's file of the same name would then be an "import file mismatch".
    monkeypatch.delitem(sys.modules, "test_shapes", raising=False)
    pytester.makeini(INI)
    pytester.path.joinpath("test_shapes.py").write_text(SUITE_TEST.read_text(encoding="utf-8"), encoding="utf-8")
    # the benchmark matrix's recordings (-m benchmark) only where a test asks for them: bench_suite
    shutil.copytree(SHIPPED_FIXTURES, pytester.path / "fixtures", ignore=shutil.ignore_patterns("bench-*"))
    return pytester


@pytest.fixture
def bench_suite(suite: pytest.Pytester) -> pytest.Pytester:
    """The suite folder with the benchmark matrix's recordings too."""
    shutil.copytree(SHIPPED_FIXTURES, suite.path / "fixtures", dirs_exist_ok=True)
    return suite


@pytest.fixture
def suite_with_snapshots(suite: pytest.Pytester) -> pytest.Pytester:
    """The suite folder plus a copy of the repo's snapshots, so results are compared with them."""
    shutil.copytree(SHIPPED_SNAPSHOTS, suite.path / "snapshots")
    return suite


@pytest.fixture
def fake_litellm(suite: pytest.Pytester) -> AskLog:
    """Replace litellm in the suite's runs by the fake; returns the log of what was asked."""
    suite.makeconftest(FAKE_LITELLM_CONFTEST)
    return AskLog(suite.path / "asked.jsonl")


@dataclass
class AskLog:
    """The calls the fake litellm received, one dict each (model, sample, messages, temperature)."""

    path: Path

    def calls(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines()]


def recording(
    pytester: pytest.Pytester, case_id: str, model_dir: str = "reference_exact", name: str | None = None
) -> Path:
    """Path of a recorded answer in the suite folder."""
    return pytester.path / "fixtures" / model_dir / (name or f"{case_id}.json")


def files_under(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path, to tell exactly what a run changed."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@dataclass(frozen=True)
class JunitCase:
    """One test case of a JUnit XML report: its outcome and its properties (as strings)."""

    outcome: str
    properties: dict[str, str]


def junit_cases(path: Path) -> dict[str, JunitCase]:
    """The test cases of a JUnit XML report, by test name (``test_drawing[<case>@<model>]``)."""
    cases = {}
    for tc in ET.parse(path).getroot().iter("testcase"):
        outcome = next(
            (
                name
                for tag, name in (("failure", "failed"), ("error", "error"), ("skipped", "skipped"))
                if tc.find(tag) is not None
            ),
            "passed",
        )
        props = {p.get("name"): p.get("value") for p in tc.iter("property")}
        cases[tc.get("name")] = JunitCase(outcome, props)
    return cases


def summary_rows(output: str) -> dict[tuple[str, str], dict[str, str]]:
    """The shape-asserts summary table of a run's terminal output, by (model, family)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "shape-asserts summary" in line)
    at = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("model "))
    header = lines[at].split()
    rows = {}
    for line in lines[at + 2 :]:
        cells = line.split()
        if len(cells) != len(header):
            break
        row = dict(zip(header, cells))
        rows[(row["model"], row["family"])] = row
    return rows
