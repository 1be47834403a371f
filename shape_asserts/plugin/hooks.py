"""The plugin's hooks and fixtures: each hands its work to the run (:class:`~shape_asserts.plugin.run.ShapeRun`).

Registered through :mod:`shape_asserts.plugin`, the ``pytest11`` entry point, so this module is
imported by every pytest run in an environment where shape-asserts is installed: it imports
nothing heavy. numpy, the families and the cases load only when a run collects a shape test;
litellm only when one is asked of a model.

Which hook does what, in the order a run meets them:

* ``pytest_addoption``: the options (:mod:`shape_asserts.plugin.options`);
* ``pytest_xdist_auto_num_workers``: how many workers ``-n auto`` starts (:mod:`shape_asserts.plugin.workers`);
* ``pytest_configure``: the run object, with its settings, fetch and collector of records;
* ``pytest_sessionstart``, ``pytest_runtestloop``, ``pytest_configure_node``,
  ``pytest_xdist_node_collection_finished``: the fetch, which asks every answer once
  (:mod:`shape_asserts.plugin.fetcher`);
* ``pytest_generate_tests``: one test per model × case; ``pytest_collection_finish``: what
  collection loaded kept out of the cycle collector;
* the ``shape_run`` fixture and ``pytest_runtest_makereport``: a test's answers, then its record;
* ``pytest_runtest_logreport``, ``pytest_collectreport``, ``pytest_sessionfinish``,
  ``pytest_terminal_summary``: the records (and the collections that failed) gathered, then the
  summary, the gate, the report and the exit status (:mod:`shape_asserts.plugin.session`);
* ``pytest_unconfigure``: the fetch's leftovers removed.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from shape_asserts.plugin.run import ShapeRun
from shape_asserts.plugin.suite import CaseParam, CaseRun, Settings

__all__ = [
    "pytest_addoption",
    "pytest_collection_finish",
    "pytest_collectreport",
    "pytest_configure",
    "pytest_configure_node",
    "pytest_generate_tests",
    "pytest_report_header",
    "pytest_runtest_logreport",
    "pytest_runtest_makereport",
    "pytest_runtestloop",
    "pytest_sessionfinish",
    "pytest_sessionstart",
    "pytest_terminal_summary",
    "pytest_unconfigure",
    "pytest_xdist_auto_num_workers",
    "pytest_xdist_node_collection_finished",
    "shape_run",
    "shape_settings",
]

_RUN = pytest.StashKey[ShapeRun]()
#: The runs configured in this process and not yet unconfigured, the latest last: a report reaches
#: ``pytest_runtest_logreport`` without its config (on an xdist controller it comes from a worker),
#: and pytester's in-process runs nest one run inside another.
_ACTIVE: list[ShapeRun] = []


def _run(config: pytest.Config) -> ShapeRun:
    return config.stash[_RUN]


def pytest_addoption(parser: pytest.Parser) -> None:
    from shape_asserts.plugin.options import register

    register(parser)


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own, whichever plugin loaded first
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    from shape_asserts.plugin.workers import auto_workers

    return auto_workers(config)


def pytest_configure(config: pytest.Config) -> None:
    run = ShapeRun(config)
    config.stash[_RUN] = run
    _ACTIVE.append(run)


def pytest_report_header(config: pytest.Config) -> list[str]:
    from shape_asserts.plugin.model_configs import configured, near_misses
    from shape_asserts.plugin.workers import header_note

    settings = _run(config).settings
    lines = [
        header_note(config),
        _run(config).header(),
        configured(settings.models, settings.configs),
        near_misses(settings.models, settings.configs),
    ]
    return [line for line in lines if line]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:  # xdist controller: tell each worker where the state is
    node.workerinput["shape_state_path"] = str(_run(node.config).settings.state_path)


def pytest_sessionstart(session: pytest.Session) -> None:
    fetcher = _run(session.config).fetcher
    if fetcher is not None:
        fetcher.start(session)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "shape_case" in metafunc.fixturenames:
        _run(metafunc.config).parametrize(metafunc)


def pytest_collection_finish(session: pytest.Session) -> None:
    _run(session.config).collected(session)


@pytest.hookimpl(tryfirst=True)  # the answers are asked before the first test runs
def pytest_runtestloop(session: pytest.Session) -> None:
    fetcher = _run(session.config).fetcher
    if fetcher is not None:
        fetcher.before_tests(session)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    run = _run(node.config)
    run.verdicts.workers_collected(ids)
    fetcher = run.fetcher
    if fetcher is not None:
        fetcher.workers_collected(ids)


@pytest.fixture
def shape_settings(request: pytest.FixtureRequest) -> Settings:
    """The run's resolved shape-asserts settings."""
    return _run(request.config).settings


@pytest.fixture
def shape_run(request: pytest.FixtureRequest, shape_case: CaseParam) -> CaseRun:
    """One model × case: its answers (recorded, replayed or asked now) ready to be judged."""
    return _run(request.config).case_run(request, shape_case)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    _run(item.config).settle_report(item, call, report)
    return report


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if _ACTIVE and report.failed:  # (an xdist controller hears its workers' failed ones)
        _ACTIVE[-1].verdicts.take_collect_report(report)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> Generator[None, None, None]:
    # around the other plugins: JUnit XML has read the record off the report, and an xdist worker
    # has sent it to the controller, before the record is taken (and dropped from the report)
    result = yield
    if _ACTIVE:
        _ACTIVE[-1].verdicts.take_report(report)
        _forget_quiet_phase(_ACTIVE[-1].config, report)
    return result


def _forget_quiet_phase(config: pytest.Config, report: pytest.TestReport) -> None:
    """Take a passed setup or teardown with nothing captured back out of the terminal reporter.

    The terminal reporter keeps every report to the end, and for each failure it prints it looks
    through all the kept setups and teardowns for that test's teardown output: with 3,120 tests
    and 1,250 failures, 6 s at the end of the run, growing with the square of the tests. A passed
    phase with no captured section has nothing to print and counts in no total.
    """
    if not (report.passed and report.when in ("setup", "teardown") and not report.sections):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    quiet = getattr(reporter, "stats", {}).get("")
    if quiet and quiet[-1] is report:
        quiet.pop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    run = _run(session.config)
    if run.fetcher is not None:
        run.fetcher.tests_done()  # an xdist controller's asking beside the tests: its last line first
    run.verdicts.finish(session)


@pytest.hookimpl(wrapper=True)
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> Generator[None, None, None]:
    # the table before other plugins' summaries (syrupy's), the gate and the status after them
    verdicts = _run(config).verdicts
    verdicts.write_results(terminalreporter)
    yield
    verdicts.write_gate(terminalreporter)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(_RUN, None)
    if run is None:
        return
    if run in _ACTIVE:
        _ACTIVE.remove(run)
    if run.fetcher is not None:
        run.fetcher.close()
