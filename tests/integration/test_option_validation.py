"""Option values are checked once, at start, as one-line usage errors (exit 4): a NaN temperature, an
endless timeout or a NaN cost cap (which silently turned the cap off) never reach a model."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE


@pytest.mark.parametrize("option,message", [
    ("--temperature=nan", "--temperature must be a number from 0 to 2, got nan"),
    ("--temperature=inf", "--temperature must be a number from 0 to 2, got inf"),
    ("--temperature=-5", "--temperature must be a number from 0 to 2, got -5.0"),
    ("--request-timeout=nan", "--request-timeout must be a positive number of seconds, got nan"),
    ("--request-timeout=inf", "--request-timeout must be a positive number of seconds, got inf"),
    ("--max-cost=nan", "*--max-cost ≥ 0"),
    ("--fixtures-dir=", "--fixtures-dir needs a folder*"),
    ("--gate-margin=nan", "--gate-margin must be a finite number ≥ 0, got nan"),
])
def test_a_bad_option_value_is_a_one_line_usage_error(suite, fake_litellm, option, message):
    result = suite.runpytest("--record=all", option, *CIRCLE)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert "Traceback" not in result.stderr.str()
    assert fake_litellm.calls() == []
