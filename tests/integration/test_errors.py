"""What goes wrong is reported as the right outcome: the harness's problems are ERRORs with a
one-line reason (cause and fix), a bad drawing is a FAILURE with a picture."""

from __future__ import annotations

import pytest

from shape_asserts.asking.store import model_slug
from shape_asserts.asking.stub_server import StubServer

from .conftest import SUBPROCESS_TIMEOUT, recording

CASE = "circle-start330-ccw"


@pytest.mark.live  # through the real litellm
def test_a_missing_api_key_is_an_error_naming_the_variable(suite, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    result = suite.runpytest_subprocess("--model=gpt-4o", "--record=missing", "-k", CASE, timeout=SUBPROCESS_TIMEOUT)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["ProviderError: gpt-4o: OPENAI_API_KEY is not set*"])
    assert "Traceback" not in result.stdout.str()
    # a call that failed records nothing
    assert list((suite.path / "fixtures").glob(f"{model_slug('gpt-4o')}/*.json")) == []


@pytest.mark.live  # through the real litellm
def test_a_missing_key_for_a_local_server_is_one_line_naming_the_variable_and_the_placeholder(suite, monkeypatch):
    """It read "InternalServerError (HTTP 500) ... Missing credentials ... after 4 attempts" though
    no request left the machine."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    with StubServer() as srv:
        result = suite.runpytest_subprocess(
            "--model=openai/exact", f"--api-base={srv.base_url}", "-k", CASE, timeout=SUBPROCESS_TIMEOUT
        )

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "ProviderError: openai/exact: OPENAI_API_KEY is not set; a server that needs no key accepts any "
            "value: run with OPENAI_API_KEY=dummy"
        ]
    )
    assert "attempts" not in result.stdout.str() and "Traceback" not in result.stdout.str()
    assert srv.state.requests == 0


@pytest.mark.live  # through the real litellm
def test_a_server_that_is_not_there_is_named_once_and_the_rest_are_not_asked(suite, monkeypatch):
    """It read "InternalServerError (HTTP 500) ... Connection error. after 4 attempts" for every
    case, each retrying on its own, though no server had answered anything."""
    import socket

    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    with socket.socket() as sock:  # a port nothing listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        server = f"http://127.0.0.1:{sock.getsockname()[1]}"
        base = f"{server}/v1"
        result = suite.runpytest_subprocess(
            "--model=openai/exact",
            f"--api-base={base}",
            "-m",
            "seed",
            "--concurrency=1",
            "--max-retries=0",
            timeout=SUBPROCESS_TIMEOUT,
        )

    result.assert_outcomes(errors=3)
    out = result.stdout.str()
    # each error's own line (the short summary repeats them, cut to the terminal's width except in CI)
    said = [line for line in out.splitlines() if line.startswith("ProviderError: ")]
    first = f"ProviderError: openai/exact: could not connect to the server at {server} ("
    rest = f"ProviderError: openai/exact: not asked: an earlier call could not connect to the server at {server} ("
    assert [line.startswith(first) for line in said].count(True) == 1
    assert [line.startswith(rest) for line in said].count(True) == 2
    assert "is the server running, and is --api-base its address?" in out
    assert "HTTP 500" not in out and "Traceback" not in out
    assert list((suite.path / "fixtures").glob(f"{model_slug('openai/exact')}/*.json")) == []


@pytest.mark.live  # through the real litellm
def test_a_rejected_api_key_is_an_error_that_does_not_show_the_key(suite, monkeypatch):
    wrong_key = "wrong-key-4f1d9c2b7e"
    monkeypatch.setenv("OPENAI_API_KEY", wrong_key)

    with StubServer(require_key="right-key-0a8e3d") as srv:
        result = suite.runpytest_subprocess(
            "--model=openai/exact", f"--api-base={srv.base_url}", "-k", CASE, timeout=SUBPROCESS_TIMEOUT
        )

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["ProviderError: openai/exact: AuthenticationError*401*"])
    assert srv.state.auth_headers == [f"Bearer {wrong_key}"]
    assert wrong_key not in result.stdout.str() + result.stderr.str()
    assert list((suite.path / "fixtures").glob(f"{model_slug('openai/exact')}/*.json")) == []


def test_a_bad_drawing_is_a_failure_with_a_picture_not_an_error(suite):
    result = suite.runpytest("--model=reference/noisy", "--record=none", "-k", "circle-start000-cw")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*reference/noisy · circle-start000-cw: 1 of 1 sample(s) failed*",
            "legend: S start, E end, *",
        ]
    )


def test_a_corrupt_recording_is_named_in_none_mode_and_left_untouched(suite):
    path = recording(suite, CASE)
    broken = b'{"format": 1, "samples": "oops"'
    path.write_bytes(broken)

    result = suite.runpytest("--record=none", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"FixtureError: fixture {path} is corrupt (*); delete it or re-record with --record=all",
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert path.read_bytes() == broken
    assert sorted(p.name for p in path.parent.glob(f"{CASE}.json*")) == [f"{CASE}.json"]


@pytest.mark.parametrize("content", ["", "[]", '{"format": 99}', '{"format": 1, "samples": [{"no": "text"}]}'])
def test_every_kind_of_unreadable_recording_is_a_fixture_error(suite, content):
    recording(suite, CASE).write_text(content, encoding="utf-8")

    result = suite.runpytest("--record=none", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["FixtureError: fixture * is corrupt*"])
