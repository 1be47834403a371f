"""The plugin's hooks and fixtures once pytest is configured (registered by :mod:`shape_asserts.plugin`).

Everything here is cheap for a run without shape tests: markers come from the families' names
(:mod:`shape_asserts.families.names`), the settings and the end-of-run session are built without
loading a case, and the library is imported by the hook or fixture that needs it. The families and
cases load at the first test that requests ``shape_case`` (:func:`pytest_generate_tests`); a
broken third-party family plugin is reported there, as a collection error (a run that collects no
shape test never loads the plugins).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import secrets
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts.exceptions import CaseError, FixtureError, ProviderError
from shape_asserts.families import names
from shape_asserts.plugin.fetcher import FETCHER, Fetcher
from shape_asserts.plugin.options import resolve
from shape_asserts.plugin.record_hint import reproduce
from shape_asserts.plugin.session import VerdictOptions, VerdictSession, with_baseline
from shape_asserts.plugin.suite import CaseParam, CaseRun, Settings

if TYPE_CHECKING:
    from shape_asserts.results.record import CaseRecord

_SETTINGS_KEY = pytest.StashKey[Settings]()
#: Set on a shape test's item once its ``shape_run`` fixture starts, and once it has its run.
_CASE_KEY = pytest.StashKey[CaseParam]()
_RUN_KEY = pytest.StashKey[CaseRun]()
#: The family markers registered so far (the built-in ones, then plugins' as they load).
_MARKERS_KEY = pytest.StashKey[set[str]]()


def _settings(config: pytest.Config, values: dict[str, Any]) -> Settings:
    """The run's settings from the resolved option values (see :mod:`shape_asserts.plugin.options`)."""
    fields = {f.name for f in dataclasses.fields(Settings)}
    return Settings(
        **{k: v for k, v in values.items() if k in fields},
        record_args=reproduce(config),
        state_path=_state_path(config),
        benchmark=benchmark_selected(config),
    )


#: ``-m`` naming the benchmark marker as a word: ``-m benchmark``, ``-m "benchmark and circle"``.
_BENCHMARK_WORD = re.compile(r"(?<![\w.])benchmark(?![\w.])")


def benchmark_selected(config: pytest.Config) -> bool:
    """Whether this run has the benchmark matrix: its ``-m`` expression names ``benchmark``.

    Decided from ``-m`` rather than by deselecting after collection so that a user's project (which
    has none of this project's ini settings) gets the same quick default run, and a default run does
    not even build the benchmark's cases. ``-m "not benchmark"`` builds them and pytest deselects them.
    """
    return bool(_BENCHMARK_WORD.search(getattr(config.option, "markexpr", "") or ""))


def _state_path(config: pytest.Config) -> Path:
    """Where this run's fetch leaves its state: chosen by the controller, handed to xdist workers."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and "shape_state_path" in workerinput:
        return Path(workerinput["shape_state_path"])
    # named, not made: only an xdist controller's fetch makes it (a usage error or a listing leaves nothing);
    # the pid lets a later run remove the folder of one that was killed (runstate.sweep_run_folders)
    return Path(tempfile.gettempdir()) / f"shape-asserts-run-{os.getpid()}-{secrets.token_hex(6)}" / "state.json"


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def configure(config: pytest.Config) -> None:
    """The plugin's ``pytest_configure``: markers, settings, the end-of-run session, the fetch."""
    config.addinivalue_line("markers", "shape: a shape-drawing case asked of a model")
    config.addinivalue_line("markers", "seed: one of the seed post's own prompts")
    config.addinivalue_line(
        "markers", "benchmark: the benchmark matrix (hundreds of cases); run only when -m names it: -m benchmark"
    )
    config.stash[_MARKERS_KEY] = set()
    # built in, then the installed plugins' entry points by name (a plugin loads at collection)
    _add_family_markers(config, names.BUILTIN + names.declared())
    values = resolve(config)
    config.stash[_SETTINGS_KEY] = _verdicts(config, _settings(config, values), values)
    _check_case_files(config.stash[_SETTINGS_KEY])
    if not _is_worker(config):
        config.pluginmanager.register(Fetcher(config, config.stash[_SETTINGS_KEY]), FETCHER)


def _check_case_files(settings: Settings) -> None:
    """Load the user's case files now: a mistake in one is a one-line usage error (exit 4).

    Found at collection instead, it arrived inside pytest's traceback of the hook. A run without
    ``--shape-cases`` (or ``shape_cases``) loads nothing here: the built-in cases wait for a shape test.
    """
    if not settings.case_files:
        return
    try:
        settings.cases()  # kept: pytest_generate_tests uses these
    except CaseError as exc:
        raise pytest.UsageError(f"shape-asserts: {exc}") from None


def _add_family_markers(config: pytest.Config, families: tuple[str, ...]) -> None:
    """Register each family's marker (``-m circle``), once."""
    known = config.stash[_MARKERS_KEY]
    for family in families:
        if family not in known:
            known.add(family)
            config.addinivalue_line("markers", f"{family}: shape family '{family}'")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "shape_case" not in metafunc.fixturenames:
        return
    settings = metafunc.config.stash[_SETTINGS_KEY]
    with collector_off(first=not _FROZEN):
        if not _FROZEN:  # the first shape test: numpy (one BLAS thread for shape tests alone), the families
            from shape_asserts.plugin.blas import import_numpy

            import_numpy(metafunc.config)
        from shape_asserts.families.registry import families

        try:
            loaded = families()  # the first time this run needs them: built in, then installed plugins'
        except CaseError as exc:  # a broken plugin: its message names it and the fix, no traceback
            raise pytest.Collector.CollectError(f"shape-asserts: {exc}") from None
        _add_family_markers(metafunc.config, tuple(loaded))  # a plugin's, when not named as its entry point
        _freeze_at_exit()
        try:
            cases = settings.cases()
        except CaseError as exc:  # one line, as for a broken plugin (the user's files were checked at start)
            raise pytest.Collector.CollectError(f"shape-asserts: {exc}") from None
    params = []
    for model in settings.models:
        for case in cases:
            param = CaseParam(model=model, case=case)
            marks = [pytest.mark.shape, getattr(pytest.mark, case.family)]
            if "seed" in case.tags:
                marks.append(pytest.mark.seed)
            if "benchmark" in case.tags:
                marks.append(pytest.mark.benchmark)
            params.append(pytest.param(param, id=param.id, marks=marks))
    metafunc.parametrize("shape_case", params)


_FROZEN: list[bool] = []


@contextlib.contextmanager
def collector_off(first: bool) -> Iterator[None]:
    """The first time a run loads the families and the cases (collection, or ``-n auto``'s count
    before it: :func:`.workers.auto_workers`): the cycle collector off meanwhile, then what they
    left frozen (:func:`gc.freeze`), as ``asking/call.py`` does for litellm.

    numpy's, the families' and the cases' objects (~0.3 million) live as long as the process, and
    the collector walked the growing heap again and again while they loaded (a full pass and
    more, ~25 ms CPU of a 139-test replay here). Later calls (another test function asking for
    ``shape_case``) load nothing and change nothing.
    """
    if not first:
        yield
        return
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _freeze_at_exit() -> None:
    """Spare Python's teardown a last pass of the cycle collector over numpy's, the families' and
    the cases' objects (~0.1 s of a replay's 1.5 s here): at exit every object goes to the
    operating system anyway, and what exit handlers registered later make is collected as usual."""
    if not _FROZEN:
        import atexit
        import gc

        atexit.register(gc.freeze)
        _FROZEN.append(True)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left when it collected shape tests, so the cycle collector's passes
    during the tests walk only what the tests make.

    By now the process holds numpy, the families, the cases and the items (~0.4 million objects),
    all kept to the end of the run; each full pass of the collector walked them all again. Frozen
    (:func:`gc.freeze`), they stay where they are and are never collected, as they would not have
    been. A replay of the 139 built-in cases spends ~70 ms less (``bench/wall_time.py``).
    """
    if _FROZEN and session.items:  # this run generated shape cases (pytest_generate_tests)
        import gc

        gc.freeze()


@pytest.fixture
def shape_settings(request: pytest.FixtureRequest) -> Settings:
    """The run's resolved shape-asserts settings."""
    return request.config.stash[_SETTINGS_KEY]


@pytest.fixture
def shape_run(request: pytest.FixtureRequest, shape_case: CaseParam, shape_settings: Settings) -> CaseRun:
    """One model × case: its answers (recorded, replayed or asked now) ready to be judged."""
    node = request.node
    node.stash[_CASE_KEY] = shape_case  # from here on the test is a shape case, with a record
    fetcher = request.config.pluginmanager.get_plugin(FETCHER)
    state = fetcher.settled(shape_case) if fetcher is not None else None  # asked while the tests run
    ready = fetcher.ready_for(shape_case) if fetcher is not None else None  # the plan read it whole
    obtained = shape_settings.obtain(shape_case, state, ready)
    snapshot = None
    if request.config.pluginmanager.hasplugin("syrupy"):  # -p no:syrupy: nothing is pinned
        snapshot = request.getfixturevalue("snapshot")
    ahead = fetcher.ahead if fetcher is not None else None  # -n auto: judged on a second core
    node.stash[_RUN_KEY] = run = CaseRun(shape_case, shape_settings, obtained, node, snapshot, ahead)
    return run


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    # A provider outage or a bad recording is the harness's problem, not the model's drawing:
    # show the one-line reason (it names the cause and the fix) instead of a traceback.
    if call.excinfo is not None and isinstance(call.excinfo.value, (ProviderError, FixtureError)):
        from shape_asserts.results.record import printable

        # the provider's words are hostile text: no escape sequence reaches the terminal
        report.longrepr = printable(f"{type(call.excinfo.value).__name__}: {call.excinfo.value}")
    param = item.stash.get(_CASE_KEY, None)
    if param is not None and (call.when == "call" or (call.when == "setup" and not report.passed)):
        prop = _record(item, param, report).as_property()
        item.user_properties.append(prop)  # later phases' reports and JUnit XML carry it too
        report.user_properties.append(prop)
    return report


def _record(item: pytest.Item, param: CaseParam, report: pytest.TestReport) -> CaseRecord:
    """A shape test's one record, as its report settles it: judged at its call, or why it is not."""
    from shape_asserts.results.record import CaseRecord, report_reason

    if report.when == "setup":
        outcome = "error" if report.failed else "skipped"
    else:
        outcome = report.outcome
    reason = "" if report.passed else report_reason(report)
    run = item.stash.get(_RUN_KEY, None)
    if run is not None and run.result is not None:
        return CaseRecord.from_result(run.result, outcome, reason)
    if report.when == "call" and report.passed:
        reason = "the test passed without judging its answers (it never called shape_run.check())"
    return CaseRecord.unjudged(param.model, param.case, outcome, reason)


def _verdicts(config: pytest.Config, settings: Settings, values: dict[str, Any]) -> Settings:
    """Register the end-of-run report and gate; the settings with the baseline as one more model."""
    try:
        settings = with_baseline(settings, values["baseline"])
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    options = VerdictOptions(
        report=values["report"],
        baseline=values["baseline"],
        margin=values["gate_margin"],
        undecided=values["gate_undecided"],
    )
    config.pluginmanager.register(VerdictSession(config, settings, options), "shape-asserts-verdicts")
    return settings
