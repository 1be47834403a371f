"""A run of shape tests alone starts numpy's BLAS with one thread, unless the user chose.

OpenBLAS starts a pool of threads, one a core, when numpy is imported (~40 ms of wall and ~150 ms
of CPU a process on a 2-core machine: bench/replay_phases.py); the scorers' small matrices never
use it. The plugin sets ``OPENBLAS_NUM_THREADS=1`` where it first imports numpy, only when every
selected test file is a shape test file, and never over a value the user set. Each run here is a
fresh interpreter (numpy not yet imported), as a user's is.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from shape_asserts.plugin import workers

from .conftest import CIRCLE, N_CASES

#: Notes, once collection is done, what numpy's BLAS was told and how many threads the process has.
PROBE = """
import json, os

def pytest_collection_finish(session):
    with open("blas.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({
            "var": os.environ.get("OPENBLAS_NUM_THREADS"),
            "numpy": "numpy" in __import__("sys").modules,
            "threads": len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None,
            "worker": os.environ.get("PYTEST_XDIST_WORKER"),
        }) + "\\n")
"""


def _probed(suite: pytest.Pytester, *args: str) -> list[dict]:
    suite.makeconftest(PROBE)
    result = suite.runpytest_subprocess("--record=none", "-p", "no:randomly", *CIRCLE, *args)
    assert result.ret == 0, result.stdout.str()[-2000:]
    lines = (suite.path / "blas.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture
def unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in workers.BLAS_THREAD_VARS:
        monkeypatch.delenv(name, raising=False)


def test_a_shape_run_starts_numpy_with_one_blas_thread(suite, unset):
    (seen,) = _probed(suite)
    assert seen["numpy"] and seen["var"] == "1"
    if seen["threads"] is not None:  # Linux: the pool was not started (one thread: the run's)
        assert seen["threads"] == 1, seen


def test_n_auto_counting_the_cases_first_sets_it_too(suite, unset):
    (seen,) = _probed(suite, "-n", "auto")
    assert seen["var"] == "1" and seen["worker"] is None


def test_xdist_workers_set_it_for_themselves(suite, unset):
    seen = _probed(suite, "-n", "2")
    assert sorted(s["worker"] for s in seen) == ["gw0", "gw1"]
    assert all(s["var"] == "1" for s in seen), seen


def test_a_selection_with_other_tests_is_left_as_the_user_has_it(suite, unset):
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    (seen,) = _probed(suite)
    assert seen["var"] is None


@pytest.mark.parametrize("name", workers.BLAS_THREAD_VARS)
def test_a_value_the_user_set_is_obeyed(suite, unset, monkeypatch, name):
    monkeypatch.setenv(name, "2")
    (seen,) = _probed(suite)
    assert seen["var"] == ("2" if name == "OPENBLAS_NUM_THREADS" else None)


def test_nothing_is_set_once_numpy_is_imported(unset):
    assert "numpy" in sys.modules  # this process: the library's tests imported it
    assert workers.one_blas_thread() is False
    assert "OPENBLAS_NUM_THREADS" not in os.environ


def test_the_run_still_passes_every_case(suite, unset):
    suite.makeconftest(PROBE)
    suite.runpytest_subprocess("--record=none", *CIRCLE).assert_outcomes(passed=N_CASES)
