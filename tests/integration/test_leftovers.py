"""A run leaves nothing behind in the temp dir: its state folder is made only by a run that asks,
removed at its end, and a killed run's is removed by the next run that asks (41 were found)."""

from __future__ import annotations

import subprocess
import sys
import tempfile

import pytest

from .conftest import CIRCLE

ONE = ("-k", "circle-start330-ccw")


@pytest.fixture
def tmpdir_runs(tmp_path, monkeypatch):
    """The temp dir the suite's runs use (in this process, so ``tempfile`` is patched)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _run_folders(folder):
    return sorted(p.name for p in folder.glob("shape-asserts-run-*"))


@pytest.mark.parametrize(
    "args",
    [
        ("--model=reference/exact", "--baseline=reference/exact"),  # refused after the options were read
        ("-k", "circle and ("),
        ("--collect-only",),
    ],
    ids=["baseline-is-a-candidate", "bad-keyword", "collect-only"],
)
def test_a_run_that_asks_nothing_leaves_no_state_folder(suite, fake_litellm, tmpdir_runs, args):
    suite.runpytest("--record=all", *CIRCLE, *args)
    assert _run_folders(tmpdir_runs) == []
    assert fake_litellm.calls() == []


def test_a_run_that_asks_removes_its_state_folder_and_those_of_killed_runs(suite, fake_litellm, tmpdir_runs):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = tmpdir_runs / f"shape-asserts-run-{int(dead.stdout)}-0a1b2c3d4e5f"
    live = tmpdir_runs / "shape-asserts-run-1-0a1b2c3d4e5f"  # pid 1 is alive: another run's, kept
    other = tmpdir_runs / "shape-asserts-run-somebody-else"  # not named by a run: kept
    for folder in (killed, live, other):
        folder.mkdir()
        (folder / "state.json").write_text("{}", encoding="utf-8")

    result = suite.runpytest("--record=all", *ONE)

    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1
    assert _run_folders(tmpdir_runs) == sorted([live.name, other.name])
