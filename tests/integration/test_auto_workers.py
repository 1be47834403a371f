"""``-n auto`` starts no xdist worker for a small run of shape tests, and leaves any other run to xdist.

A shape run's answers are asked once, before the tests, by the process that sees the selection;
workers only share the judging, which for a small run costs less than starting them
(bench/wall_time.py). The choice is made before collection, from the command line.
"""

from __future__ import annotations

from shape_asserts.plugin import workers
from shape_asserts.plugin.suite import Settings, run_cases

from .conftest import CIRCLE, N_CASES


def test_a_small_shape_run_under_n_auto_runs_in_one_process_and_says_why(suite):
    result = suite.runpytest("-n", "auto", "--record=none", *CIRCLE)
    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines(
        ["shape-asserts: -n auto: * shape tests run in this process*-n 2 starts workers anyway"]
    )
    result.stdout.no_fnmatch_line("created: *")


def test_the_shape_files_alone_are_a_shape_only_selection(suite):
    config = suite.parseconfig("-n", "auto", "--record=none")
    assert [p.name for p in workers.shape_only_files(config) or []] == ["test_shapes.py"]
    assert workers.auto_workers(config) == 0


def test_another_test_file_in_the_selection_leaves_the_choice_to_xdist(suite):
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    config = suite.parseconfig("-n", "auto")
    assert workers.shape_only_files(config) is None
    assert workers.auto_workers(config) is None


def test_a_doctest_file_in_the_selection_leaves_the_choice_to_xdist(suite):
    suite.path.joinpath("test_doc.txt").write_text(">>> 1 + 1\n2\n", encoding="utf-8")
    config = suite.parseconfig("-n", "auto")
    assert workers.shape_only_files(config) is None
    assert workers.auto_workers(config) is None


def test_naming_only_the_shape_file_is_shape_only_even_beside_other_tests(suite):
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    config = suite.parseconfig("-n", "auto", "test_shapes.py::test_drawing")
    assert workers.auto_workers(config) == 0


def test_a_shape_run_past_the_limit_leaves_the_choice_to_xdist(suite, monkeypatch):
    config = suite.parseconfig("-n", "auto", "--model=reference/exact", "--model=reference/noisy")
    n_tests = 2 * len(run_cases(()))
    monkeypatch.setattr(workers, "SERIAL_UP_TO", n_tests)
    assert workers.auto_workers(config) == 0
    monkeypatch.setattr(workers, "SERIAL_UP_TO", n_tests - 1)
    assert workers.auto_workers(config) is None


def test_a_bad_option_is_left_for_the_run_to_report(suite):
    config = suite.parseconfig("-n", "auto", "--samples=0")
    assert workers.auto_workers(config) is None


def _settings(suite, record: str, model: str = "reference/exact") -> Settings:
    return Settings(models=(model,), record=record, fixtures_dir=suite.path / "fixtures")


def test_a_run_sure_to_ask_is_told_from_its_record_mode_and_recordings(suite):
    config = suite.parseconfig("-n", "2")
    assert workers.will_ask(config, _settings(suite, "all"))
    assert workers.will_ask(config, _settings(suite, "missing", model="openai/never-recorded"))
    assert not workers.will_ask(config, _settings(suite, "missing"))  # recordings exist: likely replay
    assert not workers.will_ask(config, _settings(suite, "none", model="openai/never-recorded"))


def test_litellm_is_not_preloaded_for_a_selection_with_other_tests(suite, monkeypatch):
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    started: list[bool] = []
    monkeypatch.setattr("shape_asserts.asking.call.preload_litellm", lambda: started.append(True))
    assert not workers.preload_if_asking(suite.parseconfig("-n", "2"), _settings(suite, "all"))
    assert started == []


class _FakeFetch:
    """Stands in for the asking process: records that it was started and stopped."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        log.append("started")

    def close(self) -> None:
        self.log.append("closed")


def _early_starts(suite, monkeypatch, *args: str) -> list[str]:
    """What ``pytest_cmdline_main`` (:func:`workers.start_if_asking`) did with the asking process for a run with ``args``."""
    from shape_asserts.asking.background import BackgroundFetch

    log: list[str] = []
    monkeypatch.setattr(BackgroundFetch, "start", classmethod(lambda cls: _FakeFetch(log)))
    config = suite.parseconfig(*args)
    workers.start_if_asking(config)
    config._ensure_unconfigure()  # what pytest does at the end of every run, a usage error's too
    return log


def test_a_live_run_sure_to_ask_starts_its_asking_process_with_the_options(suite, monkeypatch):
    live = ("--model=openai/never-recorded", "--api-base=http://127.0.0.1:9/v1")
    # started before the session (the fetcher takes it over then); stopped by the run's end
    assert _early_starts(suite, monkeypatch, *live) == ["started", "closed"]
    assert _early_starts(suite, monkeypatch, "-n", "auto", *live, "--record=all") == ["started", "closed"]


def test_the_asking_process_starts_before_n_auto_counts_the_cases(suite, monkeypatch):
    # the count loads numpy, the families and the cases (~0.25 s): litellm's import overlaps it
    from shape_asserts.asking.background import BackgroundFetch

    log: list[str] = []
    monkeypatch.setattr(BackgroundFetch, "start", classmethod(lambda cls: _FakeFetch(log)))
    count = workers.auto_workers
    monkeypatch.setattr(workers, "auto_workers", lambda config: log.append("counted") or count(config))
    config = suite.parseconfig("-n", "auto", "--model=openai/never-recorded", "--api-base=http://127.0.0.1:9/v1")
    # every plugin's pytest_cmdline_main (xdist's too) but pytest's own, which would run the session
    pm = config.pluginmanager
    pm.subset_hook_caller("pytest_cmdline_main", remove_plugins=[pm.get_plugin("main")])(config=config)
    assert config.option.numprocesses == 0  # xdist's count ran, and chose no worker
    config._ensure_unconfigure()
    assert log == ["started", "counted", "closed"]


def test_no_asking_process_starts_early_for_a_run_that_will_not_ask_from_one(suite, monkeypatch):
    live = ("--model=openai/never-recorded", "--api-base=http://127.0.0.1:9/v1")
    assert _early_starts(suite, monkeypatch, "--record=all") == []  # the reference drawers: in-process
    assert _early_starts(suite, monkeypatch, *live, "--record=none") == []
    assert _early_starts(suite, monkeypatch, *live, "--batch") == []
    assert _early_starts(suite, monkeypatch, *live, "-n", "2") == []  # the xdist controller asks
    assert _early_starts(suite, monkeypatch, *live, "--collect-only") == []
    assert _early_starts(suite, monkeypatch, *live, "--samples=0") == []  # a bad option: the run reports it
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    assert _early_starts(suite, monkeypatch, *live) == []  # not a shape-only selection


def test_no_asking_process_starts_early_beside_a_stand_in_for_litellm(suite, monkeypatch):
    import sys
    import types

    import shape_asserts.asking.background  # noqa: F401 -- imported before the stand-in, as in a run

    # the module as a test's stand-in leaves it (pytester may swap sys.modules' entry between tests)
    replaced = types.ModuleType("shape_asserts.asking.call")
    replaced.load_litellm = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "shape_asserts.asking.call", replaced)
    assert _early_starts(suite, monkeypatch, "--model=openai/never-recorded", "--record=all") == []


def test_the_fetcher_takes_the_early_process_over_or_stops_it_when_workers_ask(suite, monkeypatch):
    from types import SimpleNamespace

    from shape_asserts.asking.background import BackgroundFetch
    from shape_asserts.plugin.fetcher import _EARLY_KEY, FETCHER

    def no_second_start(cls):
        raise AssertionError("a second asking process")

    monkeypatch.setattr(BackgroundFetch, "start", classmethod(no_second_start))
    log: list[str] = []
    config = suite.parseconfigure("--model=openai/never-recorded", "--record=all")
    fetcher = config.pluginmanager.get_plugin(FETCHER)
    early = config.stash[_EARLY_KEY] = _FakeFetch(log)
    fetcher.pytest_sessionstart(SimpleNamespace(config=config))
    assert fetcher.background is early and log == ["started"]

    log.clear()
    config = suite.parseconfigure("-n", "2", "--model=openai/never-recorded", "--record=none")
    fetcher = config.pluginmanager.get_plugin(FETCHER)
    config.stash[_EARLY_KEY] = _FakeFetch(log)
    fetcher.pytest_sessionstart(SimpleNamespace(config=config))
    assert fetcher.background is None and log == ["started", "closed"]


def test_n_auto_counts_the_cases_with_the_collector_off_and_freezes_what_they_left(suite, monkeypatch):
    # as collection does when it loads them (plugin.hooks.collector_off): -n auto loads them first
    import gc

    import shape_asserts.plugin.suite as suite_module

    seen: list[bool] = []
    frozen: list[bool] = []
    count = suite_module.run_cases
    monkeypatch.setattr(suite_module, "run_cases", lambda *a, **k: seen.append(gc.isenabled()) or count(*a, **k))
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    was = gc.isenabled()
    assert workers.auto_workers(suite.parseconfig("-n", "auto", "--record=none")) == 0
    assert seen == [False] and frozen == [True]
    assert gc.isenabled() == was
