"""Which failed calls are worth another attempt, and how long to wait first.

Retried: 408, 409, 429, 5xx, dropped connections — and timeouts as ``--timeout-retries`` allows,
by default as the openai client does (twice) except at a server on this machine or a private
network (:func:`timeout_retries_for`). Never a request the provider judged and refused (the
other 4xx), nor one the client never sent (no key). ``Retry-After`` (seconds or an HTTP date) and ``retry-after-ms`` are honoured.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

from shape_asserts.asking.failure import env_base_url, out_of_credit
from shape_asserts.defaults import TIMEOUT_RETRIES_HOSTED, TIMEOUT_RETRIES_LOCAL

__all__ = [
    "MAX_BACKOFF",
    "RETRIABLE_STATUS",
    "RateLimit",
    "Timeout",
    "backoff",
    "interruptible_sleep",
    "is_rate_limited",
    "is_retriable",
    "is_timeout",
    "retry_after",
    "served_locally",
    "timeout_retries_for",
]


#: Failures worth another attempt when no HTTP status says otherwise: rate limits, server errors,
#: timeouts, dropped connections.
_RETRIABLE = (
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "Timeout",
    "APIConnectionError",
    "APIError",
    "BadGatewayError",
    "TooSlow",  # (a batch or file call past its deadline: shape_asserts.asking.bounded)
)
#: HTTP statuses another attempt may change: timeout, conflict, rate limit (and every 5xx).
RETRIABLE_STATUS = (408, 409, 429)
#: Longest wait between attempts, whatever Retry-After says.
MAX_BACKOFF = 60.0


class Timeout(Exception):
    """The whole call (connect to last byte) took longer than ``--request-timeout``."""


#: Class names of the clients' own timeouts (litellm's ``Timeout``, openai's ``APITimeoutError``).
_TIMEOUTS = ("Timeout", "APITimeoutError", "TimeoutError", "ReadTimeout", "ConnectTimeout")
#: Words of a client that refused to send a request for want of a key (litellm may call it a 500).
_NO_KEY = ("Missing credentials", "api_key client option must be set")


def is_timeout(exc: BaseException) -> bool:
    """Whether the call gave up waiting (ours or the client's timeout), rather than being refused.

    Such a call is retried only as :func:`timeout_retries_for` allows: a local server goes on
    generating for a client that left, so asking again at once piles up work it has not finished.
    """
    return isinstance(exc, (Timeout, asyncio.TimeoutError)) or type(exc).__name__ in _TIMEOUTS


#: Class names (httpx's, aiohttp's) of a connection that broke after the request went out, before
#: the reply: the server had the request, and a hosted model may go on generating and bill it.
_DROPPED = ("RemoteProtocolError", "ReadError", "ServerDisconnectedError", "ClientPayloadError")


def maybe_billed(exc: BaseException) -> bool:
    """Whether a failed attempt may still be billed: it timed out, or its connection broke after
    the request was sent (a connection never opened is not: no request reached a server)."""
    if is_timeout(exc):
        return True
    seen: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and all(cur is not s for s in seen):
        if type(cur).__name__ in _DROPPED:
            return True
        seen.append(cur)
        cur = cur.__cause__ or cur.__context__
    return False


def is_retriable(exc: BaseException) -> bool:
    """Whether another attempt may succeed: 408, 409, 429, 5xx, timeouts and dropped connections.

    Never a request the provider judged and refused (400–404, 413, 422 and the other 4xx: a bad key,
    a bad request, an unknown model, too long a prompt), whatever class the client gave the error.
    """
    if any(words in str(exc) for words in _NO_KEY):
        return False  # no request left the machine: another attempt fails the same way
    if out_of_credit(exc):
        return False  # (a 429 from OpenAI: no wait mends an account without credit)
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and not isinstance(status, bool):
        if status in RETRIABLE_STATUS or status >= 500:
            return True
        if 400 <= status < 500:
            return False
    # no status: only the client's kinds of transient failure (an authentication or bad-request
    # error, for one, is not among them)
    return type(exc).__name__ in _RETRIABLE


#: Google's wait in a 429's body (``RetryInfo``: ``"retryDelay": "7s"``), which it sends in no header.
_RETRY_DELAY = re.compile(r'"retryDelay"\s*:\s*"(\d{1,6}(?:\.\d{1,9})?)s"')

#: How much of a failure's text is searched for that wait (a hostile body may be megabytes).
_RETRY_DELAY_SEARCHED = 65_536


def retry_after(exc: BaseException) -> float | None:
    """Seconds the provider asked us to wait, if it said: ``retry-after-ms``, or ``Retry-After`` in
    seconds or as an HTTP date; else Google's ``retryDelay`` in the reply's body."""
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return _body_retry_delay(exc)
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after") or headers.get("Retry-After")
    except (TypeError, ValueError, AttributeError):
        return None
    if value is None:
        return _body_retry_delay(exc)
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        when = parsedate_to_datetime(str(value))
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _body_retry_delay(exc: BaseException) -> float | None:
    """Google's wait in the body of its 429 (Gemini, Vertex), as litellm's message repeats it."""
    try:
        text = str(exc)[:_RETRY_DELAY_SEARCHED]
    except Exception:
        return None
    found = _RETRY_DELAY.search(text)
    return float(found.group(1)) if found else None


def is_rate_limited(exc: BaseException) -> bool:
    """Whether the provider refused the call for its rate limit (429), not for want of credit."""
    status = getattr(exc, "status_code", None)
    limited = status == 429 or (status is None and type(exc).__name__ == "RateLimitError")
    return limited and not out_of_credit(exc)


#: The first wait after a 429 that says no wait of its own, in seconds; each next one doubles.
RATE_LIMIT_BACKOFF = 2.0


def backoff(attempt: int, exc: BaseException | None, base: float = 0.5) -> float:
    """Seconds to wait before attempt ``attempt + 1``: after a rate limit, the wait it states, but
    at least 2, 4, 8 … seconds, each between half and all of that (a quota's window is seconds to a
    minute long: waits near 0 all fall inside it, and a server saying ``Retry-After: 0`` to every
    call was asked 500 times in 34 s); else Retry-After when given, else exponential with full
    jitter. At most :data:`MAX_BACKOFF`."""
    hinted = retry_after(exc) if exc is not None else None
    if exc is not None and is_rate_limited(exc):
        longest = min(MAX_BACKOFF, RATE_LIMIT_BACKOFF * (2 ** min(attempt, 32)))  # (2**1024 overflows a float)
        return min(MAX_BACKOFF, max(hinted or 0.0, random.uniform(longest / 2, longest)))
    if hinted is not None:
        return min(MAX_BACKOFF, hinted)
    return random.uniform(0, min(MAX_BACKOFF, base * (2 ** min(attempt, 32))))


async def interruptible_sleep(seconds: float, interrupted: Callable[[], bool] | None) -> None:
    """Sleep ``seconds`` before another attempt, in steps of at most half a second while
    ``interrupted`` may end the wait early (a Retry-After of a minute, then Ctrl-C)."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if interrupted is not None and interrupted():
            return
        await asyncio.sleep(min(left, 0.5) if interrupted is not None else left)


#: Seconds after which an attempt still under way is taken for one the server took in and is
#: answering (:meth:`RateLimit.patience_over`): a refusal, a 429 or a 503, comes back in well under one.
ADMITTED_AFTER = 5.0


@dataclass
class RateLimit:
    """What the calls to one model share about its rate limit.

    No call is sent before the wait a 429 stated is over (else the first step of a rate limit's
    backoff, :data:`RATE_LIMIT_BACKOFF`), nor the wait a server error stated (a 503's Retry-After:
    down for maintenance): a call sent meanwhile would only be refused too, and each refusal may
    push the quota's window on. The refused call itself waits longer each time (:func:`backoff`),
    the others only what the provider asked.

    A call refused for a rate limit waits as long as the model answers others: a quota of five
    calls a minute serves five of the run's sixteen calls each minute, and a call that loses the
    race at every reset but the last is not the model's failure. It gives up only when the model
    has answered no call for :data:`~shape_asserts.defaults.RATE_LIMIT_PATIENCE` (:meth:`silent_for`)
    with none under way that may still be answered (:meth:`patience_over`), and then the model's
    other calls are not sent (:attr:`given_up`): they would wait as long for nothing.
    """

    #: Before when (``time.monotonic``) no call to the model is sent.
    until: float = 0.0
    #: When a call to the model was last answered (before any was: when its first was sent).
    answered_at: float = field(default_factory=time.monotonic)
    #: Why the model's calls are no longer sent, once one gave up on its rate limit.
    given_up: str | None = None
    #: When each attempt sent to the model with no reply yet was sent: a server holding a quota's
    #: worth of calls may be making their answers.
    under_way: list[float] = field(default_factory=list)

    @contextlib.contextmanager
    def attempt(self) -> Iterator[None]:
        """One attempt sent to the model, until its reply (or failure) is back."""
        sent = time.monotonic()
        self.under_way.append(sent)
        try:
            yield
        finally:
            self.under_way.remove(sent)

    def refused(self, exc: BaseException) -> bool:
        """A call failed (``exc``); whether that holds the model: refused for the rate limit, or
        with a wait stated, no call is sent before the wait it states is over, else for
        :data:`RATE_LIMIT_BACKOFF` (at most :data:`MAX_BACKOFF`). Any other failure's backoff is
        the call's own."""
        stated = retry_after(exc)
        if stated is None and not is_rate_limited(exc):
            return False
        wait = min(MAX_BACKOFF, RATE_LIMIT_BACKOFF if stated is None else stated)
        self.until = max(self.until, time.monotonic() + wait)
        return True

    def answered(self) -> None:
        """A call to the model was answered."""
        self.answered_at = time.monotonic()

    def held_for(self) -> float:
        """Seconds before the model may be asked again (0 when it may now)."""
        return max(0.0, self.until - time.monotonic())

    def silent_for(self) -> float:
        """Seconds since a call to the model was last answered (or, before any was, sent)."""
        return time.monotonic() - self.answered_at

    def patience_over(self, patience: float, timeout: float) -> bool:
        """Whether a call refused for the rate limit gives up: the model has answered none for
        ``patience`` seconds, and no attempt is under way that the server took in (one under way
        for :data:`ADMITTED_AFTER` seconds: a refusal comes back at once), or the longest it may
        take (``timeout``) has passed too (an answer taking minutes still counts as the model's)."""
        now = time.monotonic()
        silent = now - self.answered_at
        admitted = any(now - sent >= ADMITTED_AFTER for sent in self.under_way)
        return silent >= patience and (not admitted or silent >= patience + timeout)


#: litellm providers whose server is, unless ``--api-base`` or the environment says otherwise, on
#: this machine (litellm's default address for each is ``localhost``; vLLM's runs in-process).
_LOCAL_PROVIDERS = (
    "ollama/", "ollama_chat/", "lm_studio/", "llamafile/", "docker_model_runner/", "lemonade/", "langflow/",
    "langgraph/", "vllm/", "reference/",
)  # fmt: skip


#: RFC 6598's shared address space: a carrier's private network, and Tailscale's (its machines'
#: 100.x addresses), which Python's ``is_private`` leaves out.
_SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")


def served_locally(model: str, api_base: str | None) -> bool:
    """Whether ``model`` is served on this machine or a private network: ``--api-base`` names a
    loopback, private, link-local or shared (Tailscale's 100.64/10) address, ``localhost``, a ``.local`` name or a one-word host
    (a container's service name); without it, the same of the server the environment names for the
    model's provider (``OPENAI_BASE_URL`` ...: :func:`~.failure.env_base_url`, as litellm reads it),
    or else the provider's default server is local (ollama, LM Studio, llamafile) or the model draws
    in-process (``reference/``).

    No name is looked up: a name that is not one of those counts as hosted.
    """
    if not api_base:
        from_env = env_base_url(model)
        if from_env is None:
            return model.startswith(_LOCAL_PROVIDERS)
        api_base = from_env[1]
    try:
        host = (urlsplit(api_base if "//" in api_base else f"//{api_base}").hostname or "").rstrip(".")
    except ValueError:
        return False
    if host == "localhost" or host.endswith((".localhost", ".local")) or (host and "." not in host and ":" not in host):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    shared = isinstance(address, ipaddress.IPv4Address) and address in _SHARED_ADDRESS_SPACE
    return address.is_loopback or address.is_private or address.is_link_local or shared


def timeout_retries_for(model: str, api_base: str | None, given: int | None = None) -> int:
    """How often a call to ``model`` that timed out is tried again: ``given`` (``--timeout-retries``)
    when it is, else none for a server on this machine or a private network (it is slow, not flaky)
    and two elsewhere, as the openai client does."""
    if given is not None:
        return given
    return TIMEOUT_RETRIES_LOCAL if served_locally(model, api_base) else TIMEOUT_RETRIES_HOSTED
