"""The gated exit status and the baseline as one more model."""

from __future__ import annotations

import pytest

from shape_asserts.results.gate import FAIL, PASS, UNDECIDED
from shape_asserts.plugin.session import exit_status, with_baseline
from shape_asserts.plugin.suite import Settings


@pytest.mark.parametrize(("verdict", "undecided", "status"), [
    (PASS, "pass", 0), (PASS, "fail", 0),
    (FAIL, "pass", 1), (FAIL, "fail", 1),
    (UNDECIDED, "pass", 0), (UNDECIDED, "fail", 1),
])
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
