"""How many xdist workers ``-n auto`` starts for a run of shape tests: none for a small one.

A shape run's answers are obtained once, by the process that sees the whole selection (the fetch,
:mod:`shape_asserts.plugin.hooks`), so workers only share the judging: tens of milliseconds a
test. Starting a worker costs seconds — a Python process, pytest, numpy, the families, the cases,
and a collection of the whole selection — so for a small run they cost more than they save
(``bench/wall_time.py`` measured a replay of the 139 built-in cases with ``-n auto`` at 2.1× the
same run without it, on 2 cores). Below :data:`SERIAL_UP_TO` shape tests, ``-n auto`` (or
``logical``) therefore runs in one process, and the header says so; ``-n N`` is always obeyed.

xdist asks before collection, so the selection is judged from the command line: only when every
test file it names (every ``.py`` file under ``--doctest-modules``) requests ``shape_run`` or
``shape_case`` does the plugin answer; any other test file (a doctest file too), a large tree or
a doubt leaves the choice to xdist. The count is models × cases (an upper bound under ``-k``/``-m``); the cases
loaded for it are the ones the run then uses (:func:`shape_asserts.plugin.suite.run_cases`).

The same look at the command line, made in ``pytest_cmdline_main`` (a wrapper: before xdist's count), starts
the asking process of a live run that is sure to ask (:func:`will_ask`), so that litellm's import
there overlaps the count, the configuration and collection.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from shape_asserts.plugin.suite import Settings
    from shape_asserts.results.ahead import Ahead

__all__ = [
    "JUDGE_AHEAD",
    "SERIAL_UP_TO",
    "SHAPE_NAMES",
    "auto_workers",
    "preload_if_asking",
    "shape_only_files",
    "start_if_asking",
    "will_ask",
]

#: Shape tests up to which ``-n auto`` starts no worker. A replayed test costs ~25 ms on the 2-core
#: machine of bench/wall_time.py and a worker ~2 s to start (more under load): two workers save
#: half the judging only once it is several times their start-up.
SERIAL_UP_TO = 500
#: Test files past which the selection is not looked through (not a small shape run).
MAX_FILES = 50
#: Names of the fixtures that make a test a shape test.
SHAPE_NAMES = ("shape_run", "shape_case")
_NOTE_KEY = pytest.StashKey[str]()
#: Started when ``-n auto`` chose no worker: a process that judges the run's recorded answers ahead
#: of its tests (:mod:`shape_asserts.results.ahead`), the cheap way to use the cores it asked for.
JUDGE_AHEAD: pytest.StashKey[Ahead] = pytest.StashKey()
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
    from shape_asserts.plugin.blas import import_numpy
    from shape_asserts.plugin.hooks import benchmark_selected, collector_off
    from shape_asserts.plugin.options import resolve
    from shape_asserts.plugin.suite import run_cases

    try:
        values = resolve(config)
        n_models = len(set(values["models"]) | ({values["baseline"]} if values["baseline"] else set()))
        # the families and the cases load here, not in collection: as there, with the collector off
        # and numpy's BLAS at one thread for a run of shape tests alone
        with collector_off(first=True):
            import_numpy(config)
            n_tests = n_models * len(run_cases(tuple(values["case_files"]), benchmark=benchmark_selected(config)))
    except Exception:  # a bad option or case file: reported by the run itself, as without -n auto
        return None
    if n_tests > SERIAL_UP_TO:
        return None
    ahead = _start_judging_ahead(config, values)
    config.stash[_NOTE_KEY] = (
        f"shape-asserts: -n auto: {n_tests} shape tests run in this process (workers pay off only past "
        f"{SERIAL_UP_TO}: each answer is asked once, before the tests, whatever -n says)"
        + (", their recorded answers judged ahead by a second process" if ahead else "")
        + "; -n 2 starts workers anyway"
    )
    return 0


#: Options under which no test runs, or none is judged as in a plain run: nothing to judge ahead.
_NO_TESTS_RUN = (
    "usepdb",
    "trace",
    "collectonly",
    "setupplan",
    "setuponly",
    "showfixtures",
    "show_fixtures_per_test",
    "markers",
)


def _start_judging_ahead(config: pytest.Config, values: dict[str, Any]) -> bool:
    """Start the process that judges recorded answers ahead of the tests (``-n auto``'s second
    core, :mod:`shape_asserts.results.ahead`) for a run that replays: not one sure to ask (its
    asking process has that core), not ``--batch``, ``--pdb`` or a run that executes no test, and
    only where pipes can be polled (POSIX). Whether it was started."""
    models = tuple(values["models"]) + ((values["baseline"],) if values["baseline"] else ())
    opt = config.option
    if os.name != "posix" or values["batch"] or any(getattr(opt, name, False) for name in _NO_TESTS_RUN):
        return False
    if _will_ask(config, values["record"], models, Path(values["fixtures_dir"])):
        return False
    from shape_asserts.plugin.hooks import benchmark_selected
    from shape_asserts.results.ahead import Ahead

    ahead = Ahead.start(tuple(values["case_files"]), benchmark_selected(config))
    if ahead is None:
        return False
    config.stash[JUDGE_AHEAD] = ahead  # its cases load on the other core while pytest configures and collects
    config.add_cleanup(ahead.close)
    return True


def will_ask(config: pytest.Config, settings: Settings) -> bool:
    """Whether this run of shape tests is sure to ask a model: ``--record=all``, or a model with
    no recordings at all (a guess made before collection; when it is wrong, nothing is sent)."""
    return _will_ask(config, settings.record, settings.models, settings.fixtures_dir)


def _will_ask(config: pytest.Config, record: str, models: tuple[str, ...], fixtures_dir: Path) -> bool:
    if record == "none" or shape_only_files(config) is None:
        return False
    if record == "all":
        return True
    from shape_asserts.asking.store import model_slug

    return any(not (fixtures_dir / model_slug(m)).is_dir() for m in models)


def preload_if_asking(config: pytest.Config, settings: Settings) -> bool:
    """In an xdist controller, start importing litellm while the workers start, when the run will ask.

    The controller asks once the workers have collected (seconds later); the import, seconds of
    its own, then overlaps their start-up instead of delaying the first call. Nothing is sent
    before the tests are certain to run (:mod:`shape_asserts.plugin.hooks`).
    """
    if not will_ask(config, settings):
        return False
    from shape_asserts.asking.call import preload_litellm

    preload_litellm()
    return True


# A wrapper: it runs before every plain implementation. tryfirst was not enough: xdist's own is
# tryfirst too and, registered after this one, ran first, so -n auto's count of the cases (numpy,
# the families, the cases: ~0.25 s) came before the asking process was started.
@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config) -> Generator[None, object, object]:
    """Before xdist counts the cases for ``-n auto``: :func:`start_if_asking`."""
    start_if_asking(config)
    return (yield)


def start_if_asking(config: pytest.Config) -> None:
    """Start the asking process as soon as the options are known, when the run is sure to ask
    from one (see :func:`shape_asserts.plugin.fetcher.start_early`): litellm's import there (seconds)
    then overlaps all of pytest's own start-up — loading the families and the cases, ``-n auto``'s
    count of them, collection — instead of beginning only at session start."""
    if hasattr(config, "workerinput") or getattr(config.option, "numprocesses", None) not in (
        None,
        0,
        "auto",
        "logical",
    ):
        return  # an xdist worker, or -n N: the controller asks (workers start)
    opt = config.option
    if getattr(opt, "collectonly", False) or getattr(opt, "setupplan", False) or getattr(opt, "setuponly", False):
        return
    from shape_asserts.plugin.options import resolve

    try:
        values = resolve(config)
    except Exception:  # a bad option: reported by the run itself
        return
    models = tuple(values["models"]) + ((values["baseline"],) if values["baseline"] else ())
    if values["batch"] or any(m.startswith("reference/") for m in models):
        return  # asked before the tests, in this process
    if not _will_ask(config, values["record"], models, Path(values["fixtures_dir"])):
        return
    from shape_asserts.plugin.fetcher import start_early

    start_early(config)


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own, whichever plugin loaded first
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    return auto_workers(config)


def pytest_report_header(config: pytest.Config) -> str | None:
    return config.stash.get(_NOTE_KEY, None)
