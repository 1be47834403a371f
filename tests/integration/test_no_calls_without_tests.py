"""A model is asked only by a run that goes on to execute tests: listing, planning, a broken module
or a bad option never spends a call (the fetch used to start as soon as collection ended)."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE, SUBPROCESS_TIMEOUT

ONE = ("-k", "circle-start330-ccw")


def test_a_recording_run_asks_the_model(suite, fake_litellm):
    """The control: the same options with tests to run do ask (so the tests below can fail)."""
    result = suite.runpytest("--record=all", *ONE)
    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1


@pytest.mark.parametrize("option", ["--collect-only", "--co", "--setup-plan"])
def test_listing_or_planning_asks_nothing(suite, fake_litellm, option):
    suite.runpytest("--record=all", *CIRCLE, option)
    assert fake_litellm.calls() == []


def test_a_collection_error_elsewhere_asks_nothing(suite, fake_litellm):
    suite.makepyfile(test_broken="def test_x(:\n    pass\n")
    result = suite.runpytest("--record=all", *CIRCLE)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert fake_litellm.calls() == []


def test_a_bad_keyword_expression_asks_nothing(suite, fake_litellm):
    result = suite.runpytest("--record=all", "-k", "circle and (")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert fake_litellm.calls() == []


def test_under_xdist_a_collection_error_asks_only_for_the_tests_that_run(suite, fake_litellm):
    """xdist runs the collected tests despite another module's error: those, and only those, are asked."""
    suite.makepyfile(test_broken="def test_x(:\n    pass\n")
    result = suite.runpytest_subprocess("--record=all", *CIRCLE, "-n", "2", timeout=SUBPROCESS_TIMEOUT)
    ran = result.parseoutcomes().get("passed", 0) + result.parseoutcomes().get("failed", 0)
    assert len(fake_litellm.calls()) == ran


def test_a_recording_run_under_xdist_asks_each_case_once(suite, fake_litellm):
    result = suite.runpytest_subprocess("--record=all", *ONE, "-n", "2", timeout=SUBPROCESS_TIMEOUT)
    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1
