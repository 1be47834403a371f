"""Option values are checked once, at start, as one-line usage errors (exit 4) naming the flag or
ini key, the value and what is allowed: a NaN temperature, an endless timeout or a NaN cost cap
(which silently turned the cap off) never reach a model."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE, INI

URL = (
    "an http:// or https:// URL with a host, no space and no user:password@ (a key goes in the provider's "
    "variable, OPENAI_API_KEY for openai/<name>)"
)


@pytest.mark.parametrize(
    "option,message",
    [
        ("--temperature=nan", "--temperature must be a number from 0 to 2, got nan"),
        ("--temperature=inf", "--temperature must be a number from 0 to 2, got inf"),
        ("--temperature=-5", "--temperature must be a number from 0 to 2, got -5.0"),
        ("--request-timeout=nan", "--request-timeout must be a positive number of seconds, got nan"),
        ("--request-timeout=inf", "--request-timeout must be a positive number of seconds, got inf"),
        ("--request-timeout=0", "--request-timeout must be a positive number of seconds, got 0.0"),
        ("--max-cost=nan", "--max-cost must be a finite number ≥ 0, got nan"),
        ("--concurrency=0", "--concurrency must be a whole number ≥ 1, got 0"),
        ("--max-retries=-1", "--max-retries must be a whole number ≥ 0, got -1"),
        ("--fixtures-dir=", "--fixtures-dir needs a folder, got an empty one"),
        ("--snapshots-dir=", "--snapshots-dir needs a folder, got an empty one"),
        ("--baseline=", "--baseline needs a model name, got an empty one"),
        ("--shape-report=", "--shape-report needs a file path, got an empty one"),
        ("--gate-margin=nan", "--gate-margin must be a finite number ≥ 0, got nan"),
        # a hundred million samples planned at the start stalled the run without a word
        ("--samples=100000000", "--samples must be a whole number from 1 to 1,000, got 100000000"),
        # an unclosed IPv6 bracket was an INTERNALERROR where the "record it with" hint shows the address
        ("--api-base=http://[::1", f"--api-base must be {URL}, got http://[::1"),
        ("--api-base=127.0.0.1:8000/v1", f"--api-base must be {URL}, got 127.0.0.1:8000…"),
        # credentials in the URL: the HTTP client refused every call beside the key, and each refusal
        # was retried as a server error; the message must not repeat them (nor a token in the path)
        ("--api-base=http://user:s3cret@127.0.0.1:8000/v1", f"--api-base must be {URL}, got http://127.0.0.1:8000…"),
        ("--api-base=http://[::1/tok3n", f"--api-base must be {URL}, got http://[::1…"),
        # a leading space passed the check (urlsplit strips it) and reached the HTTP client, whose
        # error then carried the whole URL, credentials and all, past the masking of "scheme://"
        ("--api-base= http://u:s3cret@127.0.0.1:8000/v1", f"--api-base must be {URL}, got  http://127.0.0.1:8000…"),
        ("--api-base=http://127.0.0.1:8000/v1 ", f"--api-base must be {URL}, got http://127.0.0.1:8000…"),
    ],
)
def test_a_bad_option_value_is_a_one_line_usage_error(suite, fake_litellm, option, message):
    result = suite.runpytest("--record=all", option, *CIRCLE)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: {message}" in result.stderr.lines  # the whole line ("[" is no pattern here)
    assert "Traceback" not in result.stderr.str()
    assert fake_litellm.calls() == []


@pytest.mark.parametrize(
    "line,message",
    [
        (
            "shape_request_timeout = 0",
            "ini setting shape_request_timeout must be a positive number of seconds, got 0.0",
        ),
        ("shape_samples = many", "ini setting shape_samples must be a whole number from 1 to 1,000, got 'many'"),
        ("shape_concurrency = 1.5", "ini setting shape_concurrency must be a whole number ≥ 1, got '1.5'"),
        ("shape_temperature = nan", "ini setting shape_temperature must be a number from 0 to 2, got nan"),
        ("shape_lang = fr", "ini setting shape_lang must be one of ru, en, got 'fr'"),
        ("shape_gate_undecided = maybe", "ini setting shape_gate_undecided must be one of pass, fail, got 'maybe'"),
    ],
)
def test_a_bad_ini_value_is_the_same_usage_error_naming_the_ini_key(suite, fake_litellm, line, message):
    suite.makeini(INI + line + "\n")

    result = suite.runpytest("--record=all", *CIRCLE)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert fake_litellm.calls() == []


def test_every_option_and_its_ini_twin_are_in_the_help(suite):
    from shape_asserts.plugin.options import OPTIONS

    text = suite.runpytest("--help").stdout.str()

    for option in OPTIONS:
        assert option.flag in text and f"{option.ini} (" in text, option.flag


@pytest.mark.parametrize(
    "option,message",
    [
        ("--fixtures-dir=somefile", "--fixtures-dir must be a folder, but */somefile is a file: name a folder*"),
        ("--fixtures-dir=somefile/sub", "--fixtures-dir must be a folder, but */somefile, on its way, is a file*"),
        ("--snapshots-dir=somefile", "--snapshots-dir must be a folder, but */somefile is a file*"),
    ],
)
def test_issue32_m5_a_folder_option_naming_a_file_is_one_usage_error_line(suite, fake_litellm, option, message):
    suite.path.joinpath("somefile").write_text("not a folder\n", encoding="utf-8")

    result = suite.runpytest_subprocess("--model=openai/exact", option, *CIRCLE)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert fake_litellm.calls() == []
