"""The gated exit status, the baseline as one more model, and the one collector of records."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from shape_asserts.plugin.session import VerdictOptions, VerdictSession, exit_status, with_baseline
from shape_asserts.plugin.suite import Settings
from shape_asserts.results.gate import FAIL, PASS, UNDECIDED
from shape_asserts.results.record import CaseRecord


@pytest.mark.parametrize(
    ("verdict", "undecided", "status"),
    [
        (PASS, "pass", 0),
        (PASS, "fail", 0),
        (FAIL, "pass", 1),
        (FAIL, "fail", 1),
        (UNDECIDED, "pass", 0),
        (UNDECIDED, "fail", 1),
    ],
)
def test_the_gate_decides_the_status_of_a_run_whose_tests_ran(verdict, undecided, status):
    for pytest_status in (0, 1):  # failed shape cases alone do not count
        assert exit_status(pytest_status, verdict, errors=0, other_failures=0, undecided=undecided) == status


@pytest.mark.parametrize("verdict", [PASS, UNDECIDED])
def test_harness_errors_or_other_failing_tests_keep_the_status_nonzero(verdict):
    assert exit_status(1, verdict, errors=1, other_failures=0) == 1
    assert exit_status(1, verdict, errors=0, other_failures=2) == 1


@pytest.mark.parametrize("pytest_status", [2, 3, 4, 5])
def test_a_run_that_did_not_get_to_results_keeps_pytests_status(pytest_status):
    assert exit_status(pytest_status, PASS, errors=0, other_failures=0) == pytest_status


def test_without_a_gate_the_status_is_pytests_own():
    assert exit_status(1, None, errors=0, other_failures=0) == 1
    assert exit_status(0, None, errors=0, other_failures=0) == 0


def test_the_baseline_is_asked_after_the_candidates():
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


def test_errors_and_failures_of_other_tests_are_counted_for_the_gated_status():
    c = collector()
    c.take_report(Report("setup", "failed"))  # a fixture of some other test broke
    c.take_report(Report("call", "failed"))  # a test that is not a shape case failed
    c.take_report(Report("teardown", "failed", props("a", "passed")))

    assert (c.errors, c.other_failures) == (2, 1)
    assert c.records == {}


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

    assert c.records == {} and c.other_failures == 0
