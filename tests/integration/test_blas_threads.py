"""A run of shape tests alone imports numpy with one BLAS thread, and leaves nothing behind.

OpenBLAS starts a pool of threads, one a core, when numpy is imported (~70 ms of CPU a process on
a 2-core machine: bench/blas_import.py); the scorers' small matrices never use it. The plugin sets ``OPENBLAS_NUM_THREADS=1`` for numpy's import alone (plugin/blas.py), only
when every test of the run is a shape test, never over a value the user set. Each run here is a
fresh interpreter (numpy not yet imported), as a user's is; what is seen is the process's threads.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from shape_asserts.plugin import blas

from .conftest import CIRCLE

pytestmark = [
    pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads are counted in /proc (Linux)"),
    pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS starts no pool on one core"),
]

#: Notes, once collection is done, the process's threads and what the environment says.
PROBE = """
import json, os, sys

def pytest_collection_finish(session):
    with open("blas.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({
            "var": os.environ.get("OPENBLAS_NUM_THREADS"),
            "numpy": "numpy" in sys.modules,
            "threads": len(os.listdir("/proc/self/task")),
            "worker": os.environ.get("PYTEST_XDIST_WORKER"),
        }) + "\\n")
"""


def _probed(suite: pytest.Pytester, *args: str) -> list[dict]:
    suite.makeconftest(PROBE)
    result = suite.runpytest_subprocess("--record=none", "-p", "no:randomly", *args)
    assert result.ret == 0, result.stdout.str()[-2000:]
    lines = (suite.path / "blas.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture
def unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in blas.BLAS_THREAD_VARS:
        monkeypatch.delenv(name, raising=False)


def test_a_shape_run_imports_numpy_with_one_blas_thread_and_leaves_no_variable(suite, unset):
    (seen,) = _probed(suite, *CIRCLE)
    assert seen["numpy"] and seen["threads"] == 1, seen  # the run's own thread: no pool
    assert seen["var"] is None  # set for numpy's import alone: the tests never see it


def test_n_auto_counting_the_cases_first_does_the_same(suite, unset):
    (seen,) = _probed(suite, *CIRCLE, "-n", "auto")
    assert seen["worker"] is None and seen["threads"] == 1 and seen["var"] is None, seen


def test_xdist_workers_decide_for_themselves(suite, unset, monkeypatch):
    # a worker has a thread of xdist's own too: compared with workers whose numpy has its pool
    seen = _probed(suite, *CIRCLE, "-n", "2")
    assert sorted(s["worker"] for s in seen) == ["gw0", "gw1"]
    (suite.path / "blas.jsonl").unlink()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    pooled = _probed(suite, *CIRCLE, "-n", "2")
    assert all(s["var"] is None for s in seen), seen
    assert max(s["threads"] for s in seen) < min(s["threads"] for s in pooled), (seen, pooled)


def test_a_selection_with_other_tests_keeps_numpys_pool(suite, unset):
    suite.makepyfile(test_other="import numpy\n\ndef test_other():\n    pass\n")
    (seen,) = _probed(suite, *CIRCLE)
    assert seen["threads"] > 1, seen


def test_another_test_in_a_shape_file_keeps_numpys_pool(suite, unset):
    # the file names shape_run, but one of its tests is not a shape test (even when deselected)
    path = suite.path / "test_shapes.py"
    path.write_text(path.read_text() + "\n\ndef test_heavy():\n    pass\n", encoding="utf-8")
    (seen,) = _probed(suite, *CIRCLE)
    assert seen["threads"] > 1, seen


def test_a_doctest_file_in_the_selection_keeps_numpys_pool(suite, unset):
    suite.path.joinpath("test_doc.txt").write_text(">>> 1 + 1\n2\n", encoding="utf-8")
    (seen,) = _probed(suite, *CIRCLE)
    assert seen["threads"] > 1, seen


def test_a_value_the_user_set_is_obeyed(suite, unset, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    (seen,) = _probed(suite, *CIRCLE)
    assert seen["var"] == "2" and seen["threads"] == 2, seen


def test_nothing_is_set_once_numpy_is_imported(suite, unset):
    assert "numpy" in sys.modules  # this process: the library's tests imported it
    config = suite.parseconfig(*CIRCLE)
    assert blas.only_shape_tests(config)
    assert blas.import_numpy(config) is False
    assert "OPENBLAS_NUM_THREADS" not in os.environ
