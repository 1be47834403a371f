"""numpy's BLAS with one thread in a run of shape tests alone.

OpenBLAS starts a pool of threads, one a core, when numpy is imported: ~70 ms of CPU a process
on this project's 2-core machine (``bench/blas_import.py``; a few ms of wall when the other core
is idle, more when it is busy: a live run's asking process, xdist workers, CI). The scorers'
matrices (a few hundred rows by 2 or 3 columns) never use it. Where the plugin first imports numpy (``-n auto``'s
count of the cases, or the collection of a shape test), :func:`import_numpy` imports it with
``OPENBLAS_NUM_THREADS=1`` set for that import alone (OpenBLAS reads it as it loads), then puts
the environment back: nothing the tests run or start sees the variable.

Only for a run whose every test is a shape test (:func:`only_shape_tests`): every selected test
file is a shape test file, each of its test functions asks for ``shape_run`` or ``shape_case``, and
no doctest file is selected. Never over a thread count the user chose (:data:`BLAS_THREAD_VARS`),
and never once numpy is imported (it would change nothing). xdist workers decide for themselves.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import sys

import pytest

from shape_asserts.defaults import BLAS_THREAD_VARS
from shape_asserts.plugin.workers import SHAPE_NAMES, shape_only_files

__all__ = ["BLAS_THREAD_VARS", "import_numpy", "only_shape_tests"]


def import_numpy(config: pytest.Config) -> bool:
    """Import numpy, with one BLAS thread when the run is of shape tests alone; whether it was."""
    if "numpy" in sys.modules or any(os.environ.get(v) for v in BLAS_THREAD_VARS) or not only_shape_tests(config):
        import numpy  # loaded here as it would be a moment later

        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401 -- OpenBLAS reads the variable as numpy loads it
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]
    return True


def only_shape_tests(config: pytest.Config) -> bool:
    """Whether every test the command line can select is a shape test (see the module docstring)."""
    files = shape_only_files(config)  # None also when a doctest file is selected
    if files is None:
        return False
    functions = tuple(config.getini("python_functions"))
    classes = tuple(config.getini("python_classes"))
    for file in files:
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            return False
        for node in _tests(tree.body, functions, classes):
            names = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
            if not names & set(SHAPE_NAMES):
                return False
    return True


def _tests(
    body: list[ast.stmt], functions: tuple[str, ...], classes: tuple[str, ...]
) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The test functions pytest would collect from a module's body (and its test classes')."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _matches(node.name, functions):
            found.append(node)
        elif isinstance(node, ast.ClassDef) and _matches(node.name, classes):
            found += _tests(node.body, functions, classes)
    return found


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    # pytest's rule: a pattern with a glob character is a glob, anything else a prefix
    return any(fnmatch.fnmatch(name, p) if any(c in p for c in "*?[") else name.startswith(p) for p in patterns)
