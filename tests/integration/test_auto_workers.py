"""``-n auto`` starts no xdist worker for a small run of shape tests, one fewer than xdist would for
a large run that asks call by call, and leaves any other run to xdist.

A shape run's answers are asked once, before the tests, by the process that sees the selection;
workers only share the judging, which for a small run costs less than starting them
(bench/wall_time.py). The choice is made before collection, from the command line.
"""

from __future__ import annotations

from types import SimpleNamespace

from shape_asserts.plugin import workers
from shape_asserts.plugin.fetcher import Fetcher, will_ask
from shape_asserts.plugin.options import resolve
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


def test_a_large_run_sure_to_ask_leaves_a_core_to_the_asking(suite, monkeypatch):
    import xdist.plugin

    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(workers, "SERIAL_UP_TO", 1)
    monkeypatch.setattr(xdist.plugin, "pytest_xdist_auto_num_workers", lambda config: 4)
    live = ("-n", "auto", "--model=openai/never-recorded", "--api-base=http://127.0.0.1:9/v1")
    config = suite.parseconfig(*live)
    assert workers.auto_workers(config) == 3  # the controller asks in a thread beside the workers
    assert "3 worker(s) judge" in (workers.header_note(config) or "")
    assert workers.auto_workers(suite.parseconfig(*live, "--record=none")) is None  # nothing to ask
    assert workers.auto_workers(suite.parseconfig(*live, "--batch")) is None  # asked before the tests
    replay = suite.parseconfig("-n", "auto", "--model=reference/exact")  # recorded: likely replayed
    assert workers.auto_workers(replay) is None
    monkeypatch.setattr(xdist.plugin, "pytest_xdist_auto_num_workers", lambda config: 1)
    assert workers.auto_workers(suite.parseconfig(*live)) == 1  # never none at all: -n auto asked for workers
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "4")
    assert workers.auto_workers(suite.parseconfig(*live)) is None  # the user's number, as xdist takes it


def test_a_bad_option_is_left_for_the_run_to_report(suite):
    config = suite.parseconfig("-n", "auto", "--samples=0")
    assert workers.auto_workers(config) is None


def _settings(suite, record: str, model: str = "reference/exact") -> Settings:
    return Settings(models=(model,), record=record, fixtures_dir=suite.path / "fixtures")


def test_a_run_sure_to_ask_is_told_from_its_record_mode_and_recordings(suite):
    config = suite.parseconfig("-n", "2")
    assert will_ask(config, _settings(suite, "all"))
    assert will_ask(config, _settings(suite, "missing", model="openai/never-recorded"))
    assert not will_ask(config, _settings(suite, "missing"))  # recordings exist: likely replay
    assert not will_ask(config, _settings(suite, "none", model="openai/never-recorded"))


def test_a_selection_with_other_tests_is_not_sure_to_ask(suite):
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    assert not will_ask(suite.parseconfig("-n", "2"), _settings(suite, "all"))


def _preloads(suite, monkeypatch, *args: str, workers: bool) -> bool:
    """Whether the fetcher began litellm's import at session start for a run with ``args``
    (an xdist controller when ``workers``: pytest_cmdline_main, which sets xdist up, is not run here)."""
    import importlib

    log: list[str] = []
    # the module as the fetcher imports it (pytester may leave the package's attribute another copy)
    call = importlib.import_module("shape_asserts.asking.call")
    monkeypatch.setattr(call, "preload_litellm", lambda: log.append("preloaded"))
    config = suite.parseconfigure(*args)
    monkeypatch.setattr(config.pluginmanager, "has_plugin", lambda name: workers and name == "dsession")
    values = resolve(config)
    fetcher = Fetcher(config, _settings(suite, values["record"], values["models"][0]))
    fetcher.start(SimpleNamespace(config=config))  # type: ignore[arg-type]
    return log == ["preloaded"]


def test_an_xdist_controller_sure_to_ask_imports_litellm_while_its_workers_start(suite, monkeypatch):
    live = ("--model=openai/never-recorded", "--api-base=http://127.0.0.1:9/v1")
    assert _preloads(suite, monkeypatch, *live, workers=True)
    assert not _preloads(suite, monkeypatch, *live, "--record=none", workers=True)
    assert not _preloads(suite, monkeypatch, *live, workers=False)  # no workers to wait for: it asks at once
