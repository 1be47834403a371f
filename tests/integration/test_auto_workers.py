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
