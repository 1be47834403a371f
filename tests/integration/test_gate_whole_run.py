"""A gated run passes only when every selected case has a result for the candidate and the baseline.

A run stopped early (``-x``, ``--maxfail``), one whose xdist workers crashed on the candidate's
tests, and one whose ``--max-cost`` ran out all once ended ``gate: UNDECIDED`` with exit status 0
(issue 32: C3, C4, C5): the gate judged the cases that happened to finish. Each now fails the gate,
exits non-zero and says why in one line; and the baseline is asked before the candidate spends
the budget.
"""

from __future__ import annotations

import pytest

from .conftest import CIRCLE, FAKE_LITELLM_CONFTEST, N_CASES, AskLog, summary_rows
from .test_option_baseline import EXACT, NOISY, NOISY_PASSED, gate_lines, replay_as


def _gate_fails(result: pytest.RunResult, status: int, why: str) -> None:
    """The run's gate fails, its exit status is ``status``, and the status line gives ``why``."""
    assert result.ret == status, result.stdout.str()
    assert "gate: FAIL" in gate_lines(result.stdout.str())
    result.stdout.fnmatch_lines([f"exit status {status}: *the gate cannot pass: {why}"])


# --- C3: stopped early ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stop", "failures"),
    [(("-x",), 1), (("--maxfail=2",), 2), (("-x", "-n", "auto"), 1)],
    ids=["x", "maxfail", "x-n-auto"],
)
def test_a_gated_run_stopped_early_fails_and_says_so(suite, stop, failures):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE, *stop)

    _gate_fails(result, 1, f"the run stopped early (stopping after {failures} failures); *")
    assert "gate: UNDECIDED" not in result.stdout.str()
    result.stdout.fnmatch_lines([f"* of {N_CASES} baseline {EXACT} case(s) have no result*"])


def test_a_gated_run_stopped_early_under_xdist_keeps_a_nonzero_status_and_says_why(suite):
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE, "-x", "-n", "2")

    _gate_fails(result, pytest.ExitCode.INTERRUPTED, "the run stopped early (stopping after * failures)*")


def test_a_gated_run_that_selects_no_shape_case_fails_and_says_so(suite):
    """Red-team C3 (second sweep): a gated run of other tests only (a path, -k, --deselect) had no
    evidence at all, ended "gate: UNDECIDED … treated as PASS" and exited 0."""
    suite.makepyfile(test_other="def test_other():\n    pass\n")
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", "test_other.py")

    _gate_fails(result, 1, "no shape case was selected *")


# --- C4: crashed xdist workers --------------------------------------------------------------------

#: A worker killed while it runs a test whose id ends with CRASH_ON (as an out-of-memory kill would).
CRASH_CONFTEST = """
import os

CRASH_ON = {crash_on!r}


def pytest_runtest_call(item):
    if hasattr(item.config, "workerinput") and item.nodeid.endswith(CRASH_ON):
        os._exit(137)
"""


def test_a_test_lost_to_a_crashed_worker_fails_a_gate_the_other_cases_pass(suite):
    candidate = replay_as(suite, "replay/exact-copy", EXACT)
    suite.makeconftest(CRASH_CONFTEST.format(crash_on=f"[circle-start090-cw@{candidate}]"))

    # one worker: with two, xdist now and then sends the next test to the worker that just died,
    # before it knows (its own INTERNALERROR "cannot send (already closed?)"; see the test below)
    result = suite.runpytest(f"--model={candidate}", f"--baseline={EXACT}", "--record=none", *CIRCLE, "-n", "1")

    if "cannot send (already closed?)" in result.stdout.str():  # xdist's own race, now and then:
        assert result.ret not in (0, 5)  # its INTERNALERROR still fails the run, so the gate holds
        return
    result.stdout.fnmatch_lines(["*replacing crashed worker*"])
    gate = gate_lines(result.stdout.str())
    assert any(line.split()[:2] == [candidate, "circle"] and line.endswith("PASS") for line in gate)
    _gate_fails(
        result,
        1,
        f"1 test(s) were lost to crashed xdist workers; 1 of {N_CASES} {candidate} case(s) have no result "
        f"(first: {candidate} circle-start090-cw, did not run)",
    )


def test_workers_crashing_on_every_candidate_test_fail_the_gate(suite):
    suite.makeconftest(CRASH_CONFTEST.format(crash_on=f"@{NOISY}]"))

    # one worker at a time: two crashing together made xdist itself send tests to the second dead
    # worker before it knew (an INTERNALERROR "cannot send (already closed?)", now and then)
    result = suite.runpytest(
        f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE, "-n", "1", "--max-worker-restart=1"
    )

    result.stdout.fnmatch_lines(["*maximum crashed workers reached: 1*"])
    _gate_fails(result, 1, "* test(s) were lost to crashed xdist workers; *")


# --- C5: --max-cost reached -----------------------------------------------------------------------

#: The fake litellm with a price list: every answer (200 prompt + 300 answer tokens) costs
#: $0.0032, and with --max-tokens 300 a call's worst case is about $0.004, so a $0.005 cap lets one
#: call through (the in-process drawers' count as free).
PRICED_FAKE_CONFTEST = (
    FAKE_LITELLM_CONFTEST
    + """

import types

_unpriced = completion


def completion(**kwargs):
    response = _unpriced(**kwargs)
    # a price is only taken from a reply that says what it used
    response.usage = types.SimpleNamespace(prompt_tokens=200, completion_tokens=300, total_tokens=500)
    return response


def get_model_info(model):
    return {"key": model, "input_cost_per_token": 1e-06, "output_cost_per_token": 1e-05, "max_output_tokens": 4096}


async def acompletion(**kwargs):
    return completion(**kwargs)


class _Listed(dict):  # litellm's price table, as listing every model this stand-in prices
    def __contains__(self, model):
        return True


FAKE.completion, FAKE.acompletion, FAKE.get_model_info = completion, acompletion, get_model_info
FAKE.model_cost = _Listed()
"""
)


def test_the_cost_cap_leaves_the_candidate_short_not_the_baseline_and_the_gate_fails(suite):
    suite.makeconftest(PRICED_FAKE_CONFTEST)
    asked = AskLog(suite.path / "asked.jsonl")
    candidate = "openai/noisy"

    result = suite.runpytest(
        f"--model={candidate}",
        f"--baseline={EXACT}",
        "--fixtures-dir=recorded",
        "--concurrency=1",
        "--max-cost=0.005",
        "--max-tokens=300",
        *CIRCLE,
    )

    # the baseline first (free, in this process), then the candidate's first answer spends the cap
    assert [c["model"] for c in asked.calls()] == [EXACT] * N_CASES + [candidate]
    rows = summary_rows(result.stdout.str())
    assert rows[EXACT, "circle"]["passed"] == str(N_CASES)
    _gate_fails(
        result,
        1,
        f"{N_CASES - 1} of {N_CASES} {candidate} case(s) have no result (first: {candidate} *, "
        "Skipped: not asked: --max-cost 0.005 USD was reached*",
    )
    assert "no paired cases: the baseline has no results" not in result.stdout.str()


def test_a_selection_without_the_baselines_tests_fails_the_gate(suite):
    """``-k noisy`` deselects the baseline's tests: once "no paired cases: the baseline has no
    results", UNDECIDED, exit status 0."""
    result = suite.runpytest(f"--model={NOISY}", f"--baseline={EXACT}", "--record=none", *CIRCLE, "-k", "noisy")

    result.assert_outcomes(passed=NOISY_PASSED, failed=N_CASES - NOISY_PASSED)
    _gate_fails(
        result, 1, f"{N_CASES} of {N_CASES} baseline {EXACT} case(s) have no result (first: {EXACT} *, did not run)"
    )


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_gated_run_that_could_not_collect_a_test_file_fails_and_says_so(suite, workers):
    """Red-team sweep 51: with --continue-on-collection-errors a test file that failed to import
    made pytest's status 1, and a passing gate set it to 0: the tests it held never ran."""
    suite.makepyfile(test_billing="import no_such_module_shape_asserts\n\ndef test_billing():\n    pass\n")
    result = suite.runpytest(
        f"--model={EXACT}",
        f"--baseline={NOISY}",
        "--record=none",
        *CIRCLE,
        "--continue-on-collection-errors",
        *workers,
    )
    assert result.ret == 1, result.stdout.str()
    result.stdout.fnmatch_lines(["exit status 1: *1 collection error(s): what they held never ran*"])
