"""One model call: a chat completion through litellm, with retries, as an :class:`Answer`.

litellm is imported here and only here, lazily, on the first live call: it takes seconds to
import, and a replay-only run never pays for it. Before the import we set
``LITELLM_LOCAL_MODEL_COST_MAP=True`` (unless the user set it) so litellm does not fetch its price
list from the network, and silence its banners.

Every failure to get an answer — missing key, authentication, connection, timeout, rate limit,
server error, unknown model — becomes a :class:`ProviderError` with a one-line reason. That is an
*error* of the run, never a model-quality failure, and it is never recorded as an answer. Which
calls are made, when, and how many at once is the :class:`~shape_asserts.asking.asker.Asker`'s
business; this module makes one.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import copy
import functools
import gc
import json
import os
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shape_asserts.asking.failure import describe, error_reason, hide_address, one_line, redact
from shape_asserts.asking.prices import answer_cost, billed_region, list_prices, litellms_figure, uncapped, worst_case
from shape_asserts.asking.retry import (
    RateLimit,
    Timeout,
    backoff,
    interruptible_sleep,
    is_rate_limited,
    is_retriable,
    is_timeout,
    maybe_billed,
    retry_after,
    timeout_retries_for,
)
from shape_asserts.defaults import MAX_RETRIES, RATE_LIMIT_PATIENCE, TIMEOUT
from shape_asserts.exceptions import ModelUnavailable, ProviderError

__all__ = [
    "Answer",
    "TimedOut",
    "Timeout",
    "Unsent",
    "Unusable",
    "aask",
    "is_retriable",
    "litellm_version",
    "load_litellm",
    "preload_litellm",
    "redact",
    "retry_after",
    "why_uncapped",
    "worst_cost",
]


@dataclass(frozen=True)
class Answer:
    """A model's reply to one prompt."""

    text: str
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    latency_s: float = 0.0
    response_model: str | None = None
    cost_usd: float | None = None
    #: What the model said instead of answering, when it refused (OpenAI's ``message.refusal``).
    refusal: str | None = None
    #: ``(name, arguments)`` of each tool call, the arguments as the model wrote them (JSON text).
    tool_calls: tuple[tuple[str, str], ...] = ()


_LITELLM: Any = None
#: Held while litellm is imported: a call that needs it during a preload waits for that import.
_LITELLM_LOCK = threading.Lock()


def load_litellm() -> Any:
    """Import litellm once, offline-safe and quiet (the reference drawers are registered with it
    by the first call that asks one: :func:`aask`)."""
    global _LITELLM
    if _LITELLM is None:
        with _LITELLM_LOCK:  # a preload under way is waited for, not repeated
            if _LITELLM is None:
                _LITELLM = _import_litellm()
    return _LITELLM


def preload_litellm() -> threading.Thread:
    """Start importing litellm in a daemon thread, for a process that will ask but waits first.

    The xdist controller waits seconds for its workers to start and collect before it asks;
    importing litellm meanwhile takes that import off the first call. It sends no request.
    """

    def run() -> None:
        with contextlib.suppress(Exception):  # the first call imports it again and reports what fails
            load_litellm()

    thread = threading.Thread(target=run, name="shape-asserts-litellm-import", daemon=True)
    thread.start()
    return thread


def _import_litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    # litellm's import makes ~0.5 million objects, and the cycle collector walks the growing heap
    # again and again while it runs: a fifth of the import's time (0.6 s of 2.9 s here). Off
    # meanwhile; then what the import left is frozen (kept out of later collections: modules,
    # classes and tables that live as long as the process), so no collection during the calls
    # walks it either (a first call paid ~0.2 s for one).
    collecting = gc.isenabled()
    gc.disable()
    try:
        import litellm
    finally:
        gc.freeze()
        if collecting:
            gc.enable()

    litellm.suppress_debug_info = True
    litellm.set_verbose = False
    from shape_asserts.asking.bounded import install

    install()  # no reply's body, compressed or not, takes more memory than a bound
    litellm.drop_params = True  # e.g. temperature for models that reject it
    # Python's teardown passes litellm's millions of objects through the cycle collector again
    # and again: 3 s and more after the last line on a busy 2-core machine. Frozen at exit, they
    # are left to the operating system, as every object is at exit anyway; exit handlers that run
    # after this one (litellm's) work as before, and what they make is collected as usual.
    atexit.register(gc.freeze)
    return litellm


#: What a missing-key message adds when the model is served at ``--api-base``: many local servers
#: need no key, but the OpenAI client refuses to send a request without one.
KEYLESS_HINT = "; a server that needs no key accepts any value: run with {var}=dummy"


def missing_key_reason(model: str, api_base: str | None) -> str | None:
    """Which environment variable (a key, a region…) the model needs and lacks, or ``None``.

    Asked also with ``--api-base``: an ``openai/<name>`` model behind a local server still needs
    ``OPENAI_API_KEY`` set (to anything), or the client fails before sending a request. Missing
    ``*_API_BASE`` variables are not named: the provider has a default, or ``--api-base`` gives it.
    """
    if model.startswith("reference/"):
        return None
    litellm = load_litellm()
    try:
        extra = {"api_base": api_base} if api_base else {}
        env = litellm.validate_environment(model=model, **extra)
    except Exception:
        return None
    missing = [k for k in env.get("missing_keys", []) if k and not k.endswith(("_API_BASE", "_BASE_URL"))]
    if not missing or env.get("keys_in_environment"):
        return None
    reason = f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not set"
    return reason + (KEYLESS_HINT.format(var=missing[0]) if api_base else "")


def _text(value: Any) -> str | None:
    """A message field as text: strings as they are, anything else (a list of parts…) as JSON."""
    if value is None or isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _tool_calls(message: Any) -> tuple[tuple[str, str], ...]:
    """Every tool call's function name and arguments; a drawing may come as a call's arguments."""
    out = []
    for tc in getattr(message, "tool_calls", None) or ():
        fn = getattr(tc, "function", None)
        if fn is None and isinstance(tc, dict):
            fn = tc.get("function")
        get = fn.get if isinstance(fn, dict) else lambda k, f=fn: getattr(f, k, None)
        out.append((str(get("name") or ""), _text(get("arguments")) or ""))
    return tuple(out)


def worst_cost(
    model: str, messages: list[dict[str, str]], max_tokens: int | None, args: Mapping[str, Any] | None = None
) -> float | None:
    """The most one call to ``model`` with ``messages`` and ``args`` can cost in USD
    (:func:`~shape_asserts.asking.prices.worst_case`), or ``None`` when litellm has no price for
    the model or nothing bounds its answer's length."""
    if model.startswith("reference/"):
        return 0.0  # drawn in-process
    prices = list_prices(load_litellm(), model)
    if prices is None:
        return None
    sent = sum(len(json.dumps(m, ensure_ascii=False).encode("utf-8")) for m in messages)
    carried = len(json.dumps(dict(args), ensure_ascii=False, default=str).encode("utf-8")) if args else 0
    return worst_case(prices, sent, max_tokens, carried)


def why_uncapped(model: str, max_tokens: int | None, args: Mapping[str, Any], local: bool) -> str | None:
    """Why ``--max-cost`` cannot bound a call to ``model`` (:func:`~shape_asserts.asking.prices.uncapped`;
    ``local``: served on this machine or a private network), else ``None``."""
    if model.startswith("reference/"):
        return None  # drawn in-process
    return uncapped(list_prices(load_litellm(), model), max_tokens, args, local)


#: More tokens than any one chat call uses (the largest context windows hold about 10 million): a
#: count above it is not believed, as a count that is negative is not.
MOST_TOKENS_BELIEVED = 100_000_000


#: The most bytes one token stands for, in any tokenizer's reckoning: a reply saying it used fewer
#: tokens than what was sent and what it wrote need (its bytes over this) is not believed (1
#: prompt token for a prompt of 600 bytes, 0 answer tokens for a drawing of 5,000 characters).
MOST_BYTES_PER_TOKEN = 16


def _to_answer(
    litellm: Any, model: str, response: Any, latency: float, prompt_bytes: int = 0, region: str | None = None
) -> Answer:
    """``response`` as an :class:`Answer`: its first choice, and what the reply cost (of a reply
    without a choice, the cost alone): the list price of ``model``, the model asked, in the
    ``region`` billed where the list prices it apart, for the tokens the reply says it used, where
    those are enough for the ``prompt_bytes`` sent and what it wrote."""
    choice = response.choices[0] if getattr(response, "choices", None) else None
    message = getattr(choice, "message", None)
    # every shape an answer comes in is kept: the text, a refusal, tool calls and why it ended
    text = _text(getattr(message, "content", None)) or ""
    refusal = _text(getattr(message, "refusal", None))
    usage_obj = getattr(response, "usage", None)
    usage = {}
    for k in ("prompt_tokens", "completion_tokens", "total_tokens"):
        v = getattr(usage_obj, k, None) if usage_obj is not None else None
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MOST_TOKENS_BELIEVED:
            usage[k] = v
    cost = None
    # a price is only as good as the counts it is made of: a reply that does not say what it used
    # (no usage, which litellm reads as 0 prompt tokens, or counts negative, absurd, not whole or
    # too few for what was sent and written) has no price here, and the cap counts it at its worst
    # case. Nothing else the reply says of its price is believed: neither the model it names (a
    # proxy's, a router's, a hostile server's "gpt-4o-mini", which litellm priced it by) nor a
    # price it states ("usage": {"cost": 0}) where that is less than the list's
    prices = list_prices(litellm, model)
    parts = [text, refusal or "", *(piece for call in _tool_calls(message) for piece in call)]
    written = sum(len(part.encode("utf-8", "surrogatepass")) for part in parts)
    enough = (
        usage.get("prompt_tokens", 0) * MOST_BYTES_PER_TOKEN >= max(prompt_bytes, 1)
        and usage.get("completion_tokens", 0) * MOST_BYTES_PER_TOKEN >= written
    )
    if prices is not None and enough and "completion_tokens" in usage:
        figure = litellms_figure(response)
        cost = answer_cost(prices, usage["prompt_tokens"], usage["completion_tokens"], region, figure)
    return Answer(
        text=str(text),
        finish_reason=_text(getattr(choice, "finish_reason", None)),
        usage=usage,
        latency_s=round(latency, 4),
        response_model=getattr(response, "model", None),
        cost_usd=cost,
        refusal=refusal or None,
        tool_calls=_tool_calls(message),
    )


async def aask(
    model: str,
    messages: list[dict[str, str]],
    *,
    temperature: float | None = None,
    max_tokens: int | None = None,
    timeout: float = TIMEOUT,
    api_base: str | None = None,
    sample: int = 0,
    max_retries: int = MAX_RETRIES,
    on_retry: Callable[[BaseException, float], None] | None = None,
    timeout_retries: int | None = None,
    extra: Mapping[str, Any] | None = None,
    interrupted: Callable[[], bool] | None = None,
    rate_limit: RateLimit | None = None,
    pause: Callable[[float], Awaitable[None]] | None = None,
) -> Answer:
    """Send ``messages`` to ``model`` and return its answer, retrying what another attempt may fix.

    429 (honouring Retry-After), 5xx and dropped connections are retried up to ``max_retries``
    times; a timeout up to ``timeout_retries`` times (by default none at a server on this machine
    or a private network, else two: :func:`~shape_asserts.asking.retry.timeout_retries_for`);
    ``on_retry(exc, wait)`` is told of each. ``timeout`` bounds each whole attempt, connect to last
    byte (the call is not streamed, so there is no separate time-to-first-token bound).
    ``max_tokens``, when given, is sent as litellm's ``max_tokens``: the most tokens the answer may
    have (an answer cut there ends with ``finish_reason="length"``). ``extra`` are the other
    arguments sent (``--model-arg``, a configuration's keys), checked by
    :mod:`~shape_asserts.asking.model_config` before the run. ``interrupted()`` true (Ctrl-C,
    SIGTERM) ends the wait before another attempt, and the call.

    A 429 is retried apart from ``max_retries``: ``rate_limit`` is what the model's calls share
    about its rate limit (:class:`~shape_asserts.asking.retry.RateLimit`: none is sent while one
    waits out a 429 or a stated wait, and the call gives up once the model has answered none for
    :data:`~shape_asserts.defaults.RATE_LIMIT_PATIENCE`, none under way); without it, the call's own.
    ``pause(seconds)`` waits out a rate limit (the asker's lets other calls go meanwhile); without
    it, and for every other wait before another attempt, a sleep that ``interrupted`` ends.

    Raises
    ------
    ProviderError
        Naming the provider's last reply when every attempt failed, or at once for a failure that
        retrying cannot fix (missing key, authentication, bad request, unknown model); secrets masked.
    """
    litellm = _client(model, api_base)
    _refuse_litellms_own(litellm, model, extra or {})
    request = _request(model, messages, temperature, max_tokens, timeout, api_base, sample, extra)
    allowed_timeouts = timeout_retries_for(model, api_base, timeout_retries)
    rate_limit = rate_limit or RateLimit()
    sleep = functools.partial(interruptible_sleep, interrupted=interrupted)
    pause = pause or sleep
    tries = _Tries()
    while True:
        await _wait_for_the_model(model, rate_limit, pause, interrupted, tries.failed)
        started = time.perf_counter()
        try:
            with rate_limit.attempt():
                response = await _attempt(litellm, request, timeout)
        except Exception as exc:
            _raise_unless_retried(exc, model, api_base, tries, rate_limit, max_retries, allowed_timeouts, timeout)
            wait = tries.count(exc)
            held = rate_limit.refused(exc)  # a stated wait, or a rate limit's: every call to the model waits it
            if on_retry is not None:
                on_retry(exc, wait)
            # the model's wait lets other calls go; a call's own backoff keeps its place (a short
            # outage then holds the calls in flight, not every call of the run)
            await (pause if held else sleep)(wait)
            if interrupted is not None and interrupted():
                raise ProviderError(
                    f"{model}: {error_reason(exc, api_base, '')}; not tried again: the run was interrupted"
                ) from None
            continue
        rate_limit.answered()
        sent = sum(len(json.dumps(m, ensure_ascii=False).encode("utf-8")) for m in messages)
        region = billed_region(extra or {})
        return _delivered(litellm, model, response, time.perf_counter() - started, sent, region)


async def _wait_for_the_model(
    model: str,
    rate_limit: RateLimit,
    pause: Callable[[float], Awaitable[None]],
    interrupted: Callable[[], bool] | None,
    failed: int,
) -> None:
    """Wait while another call to ``model`` waits out its rate limit (:class:`RateLimit`).

    Raises
    ------
    ProviderError
        When the run was interrupted meanwhile, or the model's calls were given up on (this one is
        not sent: it would be refused too; :class:`Unsent` when it was never sent).
    """
    said = "not tried again" if failed else "not asked"
    while True:
        if rate_limit.given_up is not None:
            raise (ProviderError if failed else Unsent)(f"{model}: {said}: {rate_limit.given_up}")
        held = rate_limit.held_for()
        if held <= 0:
            return
        await pause(held)
        if interrupted is not None and interrupted():
            raise ProviderError(f"{model}: {said}: the run was interrupted while its rate limit was waited out")


#: litellm's own arguments a call may carry: they say where and how a provider is reached, and
#: neither retry, re-route nor price a call.
LITELLMS_OWN_ALLOWED = frozenset({"api_version", "region_name", "ssl_verify"})


def litellms_own(litellm: Any, extra: Mapping[str, Any]) -> list[str]:
    """The keys of ``extra`` that litellm reads for itself instead of sending them (a retry policy,
    a list of deployments, a price, a logging callback's settings: any of which would retry, re-route
    or misprice a call behind the run's back), but :data:`LITELLMS_OWN_ALLOWED`. The known ones are
    refused at load (:data:`~.model_config.RESERVED`); this asks ``litellm``, the module the call
    goes through, whose list grows with its versions (one without it leaves the load's refusals
    alone)."""
    own = getattr(getattr(getattr(litellm, "types", None), "utils", None), "all_litellm_params", ())
    return [key for key in extra if key in own and key not in LITELLMS_OWN_ALLOWED]


def _refuse_litellms_own(litellm: Any, model: str, extra: Mapping[str, Any]) -> None:
    """Raise :class:`ProviderError` when ``extra`` holds arguments litellm reads for itself
    (:func:`litellms_own`): the call is not made."""
    own = litellms_own(litellm, extra)
    if own:
        one = len(own) == 1
        raise ProviderError(
            f"{model}: {', '.join(sorted(own))} {'is an argument' if one else 'are arguments'} litellm reads "
            "for itself (its routing, retries, prices or logging), not one sent to the model; the call was "
            f"not made: remove {'it' if one else 'them'} from --model-arg or the configuration"
        )


def _client(model: str, api_base: str | None) -> Any:
    """litellm, ready to ask ``model``.

    Raises
    ------
    ProviderError
        When a key the model needs is not set.
    """
    reason = missing_key_reason(model, api_base)
    if reason:
        raise ProviderError(f"{model}: {reason}")
    litellm = load_litellm()
    if model.startswith("reference/") and litellm is _LITELLM:  # the real module (not a test's stand-in),
        # registered on first use: a run asking other models spares the import
        from shape_asserts.asking.reference import register_with_litellm

        register_with_litellm(litellm)
    return litellm


def _request(
    model: str,
    messages: list[dict[str, str]],
    temperature: float | None,
    max_tokens: int | None,
    timeout: float,
    api_base: str | None,
    sample: int,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """litellm's ``acompletion`` arguments for one call."""
    # retries are ours (counted, Retry-After aware); none hidden below. The extra arguments never
    # name a key set here (model_config refuses those), so none is overridden either way.
    request: dict[str, Any] = {
        **copy.deepcopy(dict(extra or {})),  # litellm may write into what it is given: never into the run's
        "model": model,
        "messages": messages,
        "timeout": timeout,
        "metadata": {"shape_sample": sample},
        "max_retries": 0,
        "num_retries": 0,
    }
    if temperature is not None:
        request["temperature"] = temperature
    if max_tokens is not None:
        request["max_tokens"] = max_tokens
    if api_base:
        request["api_base"] = api_base
    return request


async def _attempt(litellm: Any, request: dict[str, Any], timeout: float) -> Any:
    """One attempt at the call: the response, or what went wrong raised."""
    # the client's timeout bounds connecting and each read; this bounds the whole call, so
    # a server that sends its headers and then trickles the body cannot hold a call longer
    try:
        return await asyncio.wait_for(litellm.acompletion(**request), timeout)
    except asyncio.TimeoutError:
        raise Timeout(f"no complete answer within {timeout:g} s (--request-timeout)") from None


@dataclass
class _Tries:
    """How one call's failed attempts so far went: each kind is retried on terms of its own."""

    #: Attempts that failed.
    failed: int = 0
    #: Of those, the ones that timed out (retried as ``--timeout-retries`` allows).
    timeouts: int = 0
    #: Of those, the ones refused for a rate limit (retried while the model answers other calls:
    #: :class:`~shape_asserts.asking.retry.RateLimit`).
    limited: int = 0

    @property
    def others(self) -> int:
        """The failed attempts neither timed out nor rate limited (``--max-retries``' to retry)."""
        return self.failed - self.timeouts - self.limited

    def count(self, exc: BaseException) -> float:
        """Count ``exc``'s failed attempt; the seconds to wait before the next one."""
        if is_rate_limited(exc):
            wait = backoff(self.limited, exc)
            self.limited += 1
        else:
            wait = backoff(self.failed, exc)
            self.timeouts += is_timeout(exc)
        self.failed += 1
        return wait


def _raise_unless_retried(
    exc: Exception,
    model: str,
    api_base: str | None,
    tries: _Tries,
    rate_limit: RateLimit,
    max_retries: int,
    timeout_retries: int,
    timeout: float,
) -> None:
    """Return when the failed attempt ``exc`` (after the earlier ones, ``tries``) is tried again;
    else raise the :class:`ProviderError` that says why not."""
    unreadable = _unreadable(exc, api_base)
    if unreadable is not None:  # litellm calls it a 500, but the server delivered (and may bill) a reply
        said = redact(hide_address(unreadable, api_base))
        # what it cost is unknown: counted as a reply litellm did not price
        raise Unusable(
            f"{model}: the server's reply is not a chat completion ({said}){UNUSABLE_HINT}", Answer("")
        ) from None
    after = f" after {tries.failed + 1} attempts" if tries.failed else ""
    if is_timeout(exc):
        if tries.timeouts >= timeout_retries:
            hint = TIMEOUT_HINT if not timeout_retries else "; raise --request-timeout"
            raise TimedOut(f"{model}: {error_reason(exc, api_base, after)}{hint}") from None
        return
    retriable = is_retriable(exc)
    over = rate_limit.patience_over(RATE_LIMIT_PATIENCE, timeout)
    if retriable and not over and (is_rate_limited(exc) or tries.others < max_retries):
        return
    if retriable and over:
        # the model has answered nothing for the patience, nor may: this call ends whatever retries
        # it has left, and the model's other calls are not sent, they would wait as long for nothing
        # (a 503 saying "retry after a minute" to every call: each minute's few attempts are spread
        # over every waiting call, and none would spend its retries for many minutes)
        silent = rate_limit.silent_for()
        if is_rate_limited(exc):
            after += f", rate limited for {silent:.0f}s with no call to the model answered"
            ended = "was refused for the model's rate limit"
        else:
            after += f", no call to the model answered for {silent:.0f}s"
            ended = f"ended on {type(exc).__name__} (HTTP {getattr(exc, 'status_code', '?')})"
        rate_limit.given_up = f"an earlier call {ended}, no call to the model answered for {silent:.0f}s"
    said, wide = describe(exc, model, api_base, after)
    if wide is not None:  # every call would fail so: the run asks the model nothing more
        raise ModelUnavailable(f"{model}: {said}", wide) from None
    error = ProviderError(f"{model}: {said}")
    error.maybe_billed = maybe_billed(exc)  # (the cap counts it at its call's worst case)
    raise error from None


class Unsent(ProviderError):
    """The call was never sent: its model's calls were given up on (:attr:`RateLimit.given_up`)
    before its first attempt."""


class TimedOut(ProviderError):
    """Every attempt the call was allowed timed out (``--request-timeout``)."""

    maybe_billed = True


class Unusable(ProviderError):
    """The server delivered a reply that holds no answer (a body that is not JSON, no choices).

    Never retried: the reply was delivered, and a provider may bill it. ``spent`` is what it cost
    where the reply says (its usage, litellm's price), else ``None``.
    """

    def __init__(self, message: str, spent: Answer | None = None) -> None:
        super().__init__(message)
        self.spent = spent

    def __reduce__(self) -> tuple[type[Unusable], tuple[str, Answer | None]]:
        return type(self), (str(self), self.spent)


#: What an :class:`Unusable` reply's reason adds.
UNUSABLE_HINT = "; not retried: a delivered reply may have been paid for"


#: How litellm's words start when the body it was delivered is not a JSON object (a list, null,
#: a string) ...
_NOT_AN_OBJECT = "Empty or invalid response from LLM endpoint"
#: ... or is one it could not turn into a response (its traceback follows: not shown).
_NOT_A_COMPLETION = "Invalid response object"


def _unreadable(exc: BaseException, api_base: str | None = None) -> str | None:
    """What was wrong with a delivered reply's body, when the call failed reading it (the client
    had a reply to read, which a provider may bill), else ``None``.

    litellm reports each such body as an HTTP 500 of its own making: a body that is not JSON (a
    :class:`json.JSONDecodeError` in the chain) or not UTF-8 text, JSON that is no object, or an object its
    conversion to a response choked on (``message: null``, ``choices: "abc"``, ``usage: "lots"``,
    an ``error`` object sent with a 200). Said in one line, without litellm's traceback, ``api_base``
    shown as :func:`~shape_asserts.asking.failure.address` shows it."""
    from shape_asserts.asking.bounded import ReplyCut, ReplyTooLarge  # (litellm, and so httpx, are loaded)

    seen: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and all(cur is not s for s in seen):
        if isinstance(cur, json.JSONDecodeError):
            return f"not JSON: {cur.msg} at character {cur.pos}"
        if isinstance(cur, UnicodeDecodeError):  # (a body in Latin-1, UTF-16, a wrong charset)
            return f"not {cur.encoding} text: {cur.reason} at byte {cur.start}"
        if isinstance(cur, (ReplyTooLarge, ReplyCut)):
            return str(cur)
        words = str(getattr(cur, "message", None) or cur)
        converting = any(
            f.filename.endswith("convert_dict_to_response.py") for f in traceback.extract_tb(cur.__traceback__)
        )
        if converting or words.startswith(_NOT_A_COMPLETION):
            return "litellm could not read it as a chat completion"
        if words.startswith(_NOT_AN_OBJECT):
            return one_line(hide_address(words, api_base), 200)  # hidden and masked before it is cut
        seen.append(cur)
        cur = cur.__cause__ or cur.__context__
    return None


def _delivered(
    litellm: Any, model: str, response: Any, latency: float, prompt_bytes: int = 0, region: str | None = None
) -> Answer:
    """The answer ``response`` holds.

    Raises
    ------
    Unusable
        When it holds no choice to read an answer from (what it cost is kept).
    """
    answer = _to_answer(litellm, model, response, latency, prompt_bytes, region)
    if not getattr(response, "choices", None):
        raise Unusable(f"{model}: the server's reply has no choices, so no answer{UNUSABLE_HINT}", answer)
    return answer


#: What a timeout that is not retried adds to its reason.
TIMEOUT_HINT = "; not retried (a server may still be generating): raise --request-timeout, or allow --timeout-retries"


def litellm_version() -> str | None:
    """The installed litellm's version, recorded with each answer (read from metadata: no import)."""
    try:
        from importlib.metadata import version

        return version("litellm")
    except Exception:
        return None
