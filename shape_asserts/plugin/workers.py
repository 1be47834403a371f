"""How many xdist workers ``-n auto`` starts for a run of shape tests: none for a small one.

A shape run's answers are obtained once, by the process that sees the whole selection (the fetch,
:mod:`shape_asserts.plugin.fetcher`), so workers only share the judging: tens of milliseconds a
test. Starting a worker costs seconds — a Python process, pytest, numpy, the families, the cases,
and a collection of the whole selection — so for a small run they cost more than they save (a
replay of the 139 built-in cases took 2.1× as long with two workers as without, on 2 cores).
Up to :data:`SERIAL_UP_TO` shape tests, ``-n auto`` (or ``logical``) therefore runs in one
process, as a plain run does, and the header says so; ``-n N`` is always obeyed.

A larger run sure to ask call by call gets one worker fewer than xdist's choice (at least one):
the controller asks in a thread while the workers judge, and on a machine of few cores that thread
competed with them for a core while a worker's judging was never what the run waited for. At 10
models × the 312 benchmark cases on 2 cores (bench/scale.py), one worker instead of two made the
live run no slower and its peak memory a worker's smaller: every worker collects the whole selection.

xdist asks before collection, so the selection is judged from the command line: only when every
test file it names (every ``.py`` file under ``--doctest-modules``) requests ``shape_run`` or
``shape_case`` does the plugin answer; any other test file (a doctest file too), a large tree or
a doubt leaves the choice to xdist. The count is models × cases (an upper bound under
``-k``/``-m``); the cases loaded for it are the ones the run then uses
(:func:`shape_asserts.plugin.suite.run_cases`).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from pathlib import Path

import pytest

from shape_asserts.plugin.options import benchmark_selected, resolve
from shape_asserts.plugin.suite import run_cases

__all__ = ["SERIAL_UP_TO", "SHAPE_NAMES", "auto_workers", "header_note", "shape_only_files", "sure_to_ask"]

#: Shape tests up to which ``-n auto`` starts no worker. A replayed test costs ~25 ms on the 2-core
#: machine of bench/wall_time.py and a worker ~2 s to start (more under load): two workers save
#: half the judging only once it is several times their start-up.
SERIAL_UP_TO = 500
#: Test files past which the selection is not looked through (not a small shape run).
MAX_FILES = 50
#: Names of the fixtures that make a test a shape test.
SHAPE_NAMES = ("shape_run", "shape_case")
_NOTE_KEY = pytest.StashKey[str]()
_FILES_KEY = pytest.StashKey["list[Path] | None"]()


def _python_files(config: pytest.Config) -> list[str]:
    if config.getoption("doctestmodules", False):
        return ["*.py"]
    return list(config.getini("python_files"))


def _wanted(path: Path, patterns: list[str]) -> bool:
    return path.suffix == ".py" and path.name != "conftest.py" and any(fnmatch.fnmatch(path.name, p) for p in patterns)


def shape_only_files(config: pytest.Config) -> list[Path] | None:
    """The test files the command line selects, when every one of them is a shape test file (and no
    doctest file is selected); else ``None``.

    Looked for once a run (the answer is kept in the config's stash)."""
    if _FILES_KEY not in config.stash:
        config.stash[_FILES_KEY] = _shape_only_files(config)
    return config.stash[_FILES_KEY]


def _shape_only_files(config: pytest.Config) -> list[Path] | None:
    patterns = _python_files(config)
    doctests = list(config.getoption("doctestglob", None) or []) or ["test*.txt"]  # pytest's default
    skip = list(config.getini("norecursedirs"))
    base = Path(config.invocation_params.dir)
    files: list[Path] = []
    for arg in config.args:
        path = base / arg.split("::", 1)[0]
        if path.is_file():
            files.append(path)  # a doctest file named here is read below: no shape test in it
        elif path.is_dir():
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not any(fnmatch.fnmatch(d, p) for p in skip))
                if any(fnmatch.fnmatch(n, g) for n in names for g in doctests):
                    return None  # doctests are tests too, and not shape tests
                files += [Path(root) / n for n in sorted(names) if _wanted(Path(n), patterns)]
                if len(files) > MAX_FILES:
                    return None
        else:
            return None  # not a path (pytest reports it); no guess
    if not files or len(files) > MAX_FILES:
        return None
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        if not any(name in text for name in SHAPE_NAMES):
            return None
    return files


def auto_workers(config: pytest.Config) -> int | None:
    """0 (no worker) for a selection of at most :data:`SERIAL_UP_TO` shape tests, else ``None``
    (xdist's own choice)."""
    if shape_only_files(config) is None:
        return None
    try:
        values = resolve(config)
        models = set(values["models"]) | ({values["baseline"]} if values["baseline"] else set())
        # the cases loaded here are the ones collection then uses (run_cases keeps them)
        cases = run_cases(tuple(values["case_files"]), benchmark=benchmark_selected(config))
    except Exception:  # a bad option or case file: reported by the run itself, as without -n auto
        return None
    n_tests = len(models) * len(cases)
    if n_tests > SERIAL_UP_TO:
        return _beside_the_asking(config, values, models, n_tests)
    config.stash[_NOTE_KEY] = (
        f"shape-asserts: -n auto: {n_tests} shape tests run in this process (workers pay off only past "
        f"{SERIAL_UP_TO}: each answer is asked once, before the tests, whatever -n says); -n 2 starts workers anyway"
    )
    return 0


def _beside_the_asking(config: pytest.Config, values: dict, models: set[str], n_tests: int) -> int | None:
    """One worker fewer than xdist's choice (at least one) for a large run sure to ask call by
    call, else ``None``: the controller asks in a thread while the workers judge, and that thread
    needs a core of its own (``PYTEST_XDIST_AUTO_NUM_WORKERS`` is obeyed as it is)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or values["batch"]:
        return None
    if not sure_to_ask(values["record"], values["fixtures_dir"], models):
        return None
    from xdist.plugin import pytest_xdist_auto_num_workers as xdist_choice  # type: ignore[import-untyped]

    workers = max(1, xdist_choice(config) - 1)
    config.stash[_NOTE_KEY] = (
        f"shape-asserts: -n auto: {workers} worker(s) judge {n_tests} shape tests while this process asks "
        "the model, on a core of its own; -n N starts N workers anyway"
    )
    return workers


def sure_to_ask(record: str, fixtures_dir: Path, models: Iterable[str]) -> bool:
    """Whether a run is sure to ask a model: ``--record=all``, or a model with no recordings at all
    (a guess made before collection; when it is wrong, nothing is sent)."""
    if record == "none":
        return False
    if record == "all":
        return True
    from shape_asserts.asking.store import model_slug

    return any(not (fixtures_dir / model_slug(m)).is_dir() for m in models)


def header_note(config: pytest.Config) -> str | None:
    """The report header's line saying why ``-n auto`` started no worker, when it did not."""
    return config.stash.get(_NOTE_KEY, None)
