"""ask: which provider failures are retried, and how long the provider asked us to wait."""

from __future__ import annotations

import email.utils
import time

import pytest

from shape_asserts.asking.call import is_retriable, retry_after


class Failure(Exception):
    """A provider error as litellm raises them: a class name, a status code, response headers."""

    def __init__(self, status=None, headers=None):
        super().__init__("provider said no")
        self.status_code = status
        self.litellm_response_headers = headers or {}


def failure(name: str, status=None, headers=None) -> Exception:
    return type(name, (Failure,), {})(status, headers)


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 529])
def test_statuses_another_attempt_may_change_are_retried(status):
    assert is_retriable(failure("APIError", status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 413, 422])
def test_a_request_the_provider_judged_is_never_retried_whatever_its_class(status):
    """A generic APIError carrying 413 (prompt too large) or 422 was once retried: it cannot change."""
    assert not is_retriable(failure("APIError", status))
    assert not is_retriable(failure("InternalServerError", status))


def test_timeouts_and_dropped_connections_without_a_status_are_retried():
    assert is_retriable(failure("Timeout")) and is_retriable(failure("APIConnectionError"))
    assert not is_retriable(failure("AuthenticationError"))


def test_retry_after_in_seconds_as_an_http_date_and_in_milliseconds():
    assert retry_after(failure("RateLimitError", 429, {"retry-after": "7"})) == 7.0
    assert retry_after(failure("RateLimitError", 429, {"retry-after-ms": "1500"})) == 1.5
    soon = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= retry_after(failure("RateLimitError", 429, {"retry-after": soon})) <= 30
    past = email.utils.formatdate(time.time() - 30, usegmt=True)
    assert retry_after(failure("RateLimitError", 429, {"retry-after": past})) == 0.0
    assert retry_after(failure("RateLimitError", 429, {"retry-after": "soon"})) is None
    assert retry_after(failure("RateLimitError", 429)) is None
