"""Why a run stopped early, the baseline as one more model, and the one collector of records."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from shape_asserts.plugin.session import VerdictOptions, VerdictSession, stopped_early, with_baseline
from shape_asserts.plugin.suite import Settings
from shape_asserts.results.record import CaseRecord


def session_stopped(shouldfail=False, shouldstop=False, dsession=None):
    """The parts of a pytest session :func:`stopped_early` reads."""
    plugins = SimpleNamespace(get_plugin=lambda name: dsession if name == "dsession" else None)
    return SimpleNamespace(shouldfail=shouldfail, shouldstop=shouldstop, config=SimpleNamespace(pluginmanager=plugins))


def test_the_reason_pytest_stopped_early_is_read_from_the_session_or_the_xdist_controller():
    assert stopped_early(session_stopped()) == ""
    assert stopped_early(session_stopped(shouldfail="stopping after 1 failures")) == "stopping after 1 failures"
    assert stopped_early(session_stopped(shouldstop="interrupted")) == "interrupted"
    controller = SimpleNamespace(shouldstop="stopping after 2 failures")
    assert stopped_early(session_stopped(dsession=controller)) == "stopping after 2 failures"


def test_the_baseline_runs_as_one_more_model_after_the_candidates():
    s = with_baseline(Settings(models=("new/a", "new/b")), "old")

    assert s.models == ("new/a", "new/b", "old")
    assert with_baseline(s, None) is s


def test_a_baseline_that_is_also_a_candidate_is_refused():
    with pytest.raises(ValueError, match="also a --model"):
        with_baseline(Settings(models=("same",)), "same")


# --- the one collector ------------------------------------------------------------------------------


@dataclass
class Report:
    """The parts of a test report the collector reads."""

    when: str
    outcome: str
    user_properties: list = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.outcome == "failed"

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


def collector(**options) -> VerdictSession:
    return VerdictSession(SimpleNamespace(), Settings(models=("m",)), VerdictOptions(**options))


def props(case: str, outcome: str) -> list:
    return [CaseRecord.from_scores("m", case, "circle", (90.0,), (outcome == "passed",)).as_property()]


def test_the_collector_keeps_the_record_the_settling_phase_carries():
    c = collector()
    c.take_report(Report("setup", "passed"))
    c.take_report(Report("call", "passed", props("a", "passed")))
    c.take_report(Report("teardown", "passed", props("a", "passed")))  # the same record again

    assert [(r.case, r.outcome) for r in c.ordered()] == [("a", "passed")]
    assert (c.errors, c.other_failures) == (0, 0)


def test_a_test_run_again_counts_once_as_it_ended_last():
    c = collector()
    c.take_report(Report("call", "failed", props("a", "failed")))
    c.take_report(Report("call", "passed", props("a", "passed")))

    assert [(r.case, r.outcome) for r in c.ordered()] == [("a", "passed")]


def test_a_test_lost_to_a_crashed_xdist_worker_is_counted_and_has_no_record():
    c = collector()
    c.take_report(Report("???", "failed"))  # "worker 'gw0' crashed while running ..."

    assert (c.crashed, c.errors, c.other_failures) == (1, 0, 0)
    assert c.records == []


def test_errors_and_failures_of_other_tests_are_counted_for_the_gated_status():
    c = collector()
    c.take_report(Report("setup", "failed"))  # a fixture of some other test broke
    c.take_report(Report("call", "failed"))  # a test that is not a shape case failed
    c.take_report(Report("teardown", "failed", props("a", "passed")))

    assert (c.errors, c.other_failures) == (2, 1)
    assert c.records == []


def test_records_come_out_in_the_runs_case_order_then_model_order():
    c = VerdictSession(SimpleNamespace(), Settings(models=("m2", "m")), VerdictOptions())
    ids = [case.id for case in c.settings.cases()[:2]]
    for case in reversed(ids):
        for model in ("m", "m2"):
            rec = CaseRecord.from_scores(model, case, "circle", (90.0,), (True,))
            c.take_report(Report("call", "passed", [rec.as_property()]))

    assert [(r.case, r.model) for r in c.ordered()] == [(ids[0], "m2"), (ids[0], "m"), (ids[1], "m2"), (ids[1], "m")]


def test_an_xdist_worker_leaves_collecting_to_the_controller():
    c = VerdictSession(SimpleNamespace(workerinput={}), Settings(models=("m",)), VerdictOptions())
    c.take_report(Report("call", "failed", props("a", "failed")))

    assert c.records == [] and c.other_failures == 0


def test_a_passed_phase_with_nothing_captured_leaves_the_terminal_reporter_and_others_stay():
    """For each failure it prints, pytest's terminal reporter searches every kept setup and
    teardown: quadratic in tests. Only what has nothing to print is taken back out."""
    from types import SimpleNamespace

    from shape_asserts.plugin.hooks import _forget_quiet_phase

    quiet = SimpleNamespace(passed=True, when="teardown", sections=[])
    captured = SimpleNamespace(passed=True, when="teardown", sections=[("Captured stdout teardown", "x")])
    failed = SimpleNamespace(passed=False, when="setup", sections=[])
    reporter = SimpleNamespace(stats={"": [captured, failed, quiet]})
    config = SimpleNamespace(pluginmanager=SimpleNamespace(get_plugin=lambda name: reporter))

    for report in (quiet, captured, failed):
        _forget_quiet_phase(config, report)  # type: ignore[arg-type]

    assert reporter.stats[""] == [captured, failed]
