"""One model call: which provider failures are retried, how long the provider asked us to wait, and
the whole-call timeout (litellm replaced by a stand-in: never imported here)."""

from __future__ import annotations

import asyncio
import email.utils
import importlib
import time
import types

import pytest

from shape_asserts.asking import call
from shape_asserts.asking.call import is_retriable, retry_after
from shape_asserts.asking.failure import error_reason
from shape_asserts.exceptions import ModelUnavailable, ProviderError


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


class FakeLitellm:
    """Stands in for litellm: ``acompletion`` raises the queued failures in turn, then answers."""

    def __init__(self, *failures: Exception, hang: float = 0.0) -> None:
        self.failures = list(failures)
        self.hang = hang
        self.kwargs: list[dict] = []

    async def acompletion(self, **kwargs):
        self.kwargs.append(kwargs)
        if self.hang:
            await asyncio.sleep(self.hang)
        if self.failures:
            raise self.failures.pop(0)
        choice = types.SimpleNamespace(message=types.SimpleNamespace(content="drawn"), finish_reason="stop")
        return types.SimpleNamespace(choices=[choice], usage=None, model="fake", _hidden_params={"response_cost": 0.0})


def _aask(monkeypatch, fake: FakeLitellm, **kwargs):
    monkeypatch.setattr(call, "load_litellm", lambda: fake)
    waits: list[float] = []
    answer = asyncio.run(
        call.aask(
            "openai/m",
            [{"role": "user", "content": "draw"}],
            api_base="http://127.0.0.1:1",
            on_retry=lambda exc, wait: waits.append(wait),
            **kwargs,
        )
    )
    return answer, waits


def test_an_argument_litellm_reads_for_itself_is_refused_before_any_call(monkeypatch):
    """Red-team sweep 54: ``retry_policy`` retried a paid reply five times inside one call,
    ``model_list`` and ``context_window_fallback_dict`` asked other models under the configured
    one's name. The known ones are refused at load; any other litellm reads for itself (a price,
    a logging setting) is refused before the call, as the installed litellm lists them."""
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # offline, as load_litellm imports it
    litellm = importlib.import_module("litellm")
    importlib.import_module("litellm.types.utils")
    own = call.litellms_own(litellm, {"input_cost_per_token": 0.0, "top_k": 5, "api_version": "2024-06-01"})
    assert own == ["input_cost_per_token"]
    fake = FakeLitellm()
    fake.types = litellm.types  # a stand-in for the call, with the real list of litellm's own arguments
    with pytest.raises(
        ProviderError, match="input_cost_per_token is an argument litellm reads for itself.*not made: remove it"
    ):
        _aask(monkeypatch, fake, extra={"input_cost_per_token": 0.0}, max_retries=0)
    assert fake.kwargs == []


def test_litellm_never_writes_into_the_runs_arguments(monkeypatch):
    """litellm may add its own objects to what it is given (a ``model_list``'s deployments did):
    each call is sent a copy, so the configuration's arguments stay what the run recorded."""
    extra = {"extra_body": {"options": {"num_ctx": 4096}}}
    fake = FakeLitellm()
    _aask(monkeypatch, fake, extra=extra, max_retries=0)
    fake.kwargs[0]["extra_body"]["options"]["logging"] = object()
    assert extra == {"extra_body": {"options": {"num_ctx": 4096}}}


def test_a_rate_limit_is_retried_after_the_wait_the_provider_asked_for(monkeypatch):
    from shape_asserts.asking import retry

    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.001)  # (a rate limit's own least wait: 2 s in a run)
    fake = FakeLitellm(
        failure("RateLimitError", 429, {"retry-after": "0.05"}),
        failure("ServiceUnavailableError", 503, {"retry-after-ms": "1"}),
    )
    answer, waits = _aask(monkeypatch, fake, max_retries=2)
    assert answer.text == "drawn"
    assert waits == [0.05, 0.001]
    assert all(k["max_retries"] == 0 and k["num_retries"] == 0 for k in fake.kwargs)  # no hidden retries


def test_the_last_reply_is_named_once_the_retries_are_spent(monkeypatch):
    fake = FakeLitellm(*[failure("ServiceUnavailableError", 503, {"retry-after": "0"}) for _ in range(3)])
    with pytest.raises(
        ProviderError, match=r"openai/m: ServiceUnavailableError \(HTTP 503\): provider said no after 2 attempts"
    ):
        _aask(monkeypatch, fake, max_retries=1)
    assert len(fake.kwargs) == 2


def test_a_rate_limit_is_waited_out_within_its_patience_whatever_max_retries_says(monkeypatch):
    """Red-team sweep 61: Bedrock's 429 states no wait; three retries were spent in 3.5 s, inside
    the quota's window, and 14 of 24 cases lost. A 429 is not billed: it is retried, 2, 4, 8 …
    seconds apart, until the call has waited RATE_LIMIT_PATIENCE for rate limits."""
    from shape_asserts.asking import retry

    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)  # (2 s in a run; a test waits less)
    fake = FakeLitellm(*[failure("RateLimitError", 429) for _ in range(5)])
    answer, waits = _aask(monkeypatch, fake, max_retries=0)
    assert answer.text and len(fake.kwargs) == 6
    assert all(0.002 * 2**k <= w <= 0.004 * 2**k for k, w in enumerate(waits)), waits  # half to all of each
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.01)
    fake = FakeLitellm(*[failure("RateLimitError", 429) for _ in range(9)])
    with pytest.raises(ProviderError, match=r"HTTP 429.*after \d attempts, rate limited for 0s"):
        _aask(monkeypatch, fake, max_retries=0)
    assert 2 <= len(fake.kwargs) <= 4


def test_a_refused_request_is_not_asked_again(monkeypatch):
    fake = FakeLitellm(failure("BadRequestError", 400))
    with pytest.raises(ProviderError, match=r"HTTP 400"):
        _aask(monkeypatch, fake, max_retries=3)
    assert len(fake.kwargs) == 1


def test_the_timeout_bounds_the_whole_call(monkeypatch):
    with pytest.raises(ProviderError, match=r"Timeout: no complete answer within 0.05 s \(--request-timeout\)"):
        _aask(monkeypatch, FakeLitellm(hang=5.0), timeout=0.05, max_retries=0)


def test_a_hosted_model_without_its_key_fails_at_once_without_a_call(monkeypatch):
    fake = FakeLitellm()
    fake.validate_environment = lambda model: {"missing_keys": ["OPENAI_API_KEY"], "keys_in_environment": False}
    monkeypatch.setattr(call, "load_litellm", lambda: fake)
    with pytest.raises(ProviderError, match="openai/m: OPENAI_API_KEY is not set"):
        asyncio.run(call.aask("openai/m", [{"role": "user", "content": "draw"}]))
    assert fake.kwargs == []


def test_a_timeout_is_not_retried_unless_the_user_allows_it(monkeypatch):
    """A local server goes on generating for a client that left: asking again at once (as was
    done three times by default) only piles work onto it. Retries of other failures are kept."""
    fake = FakeLitellm(hang=5.0)
    with pytest.raises(ProviderError, match=r"within 0.05 s.*not retried.*--timeout-retries$"):
        _aask(monkeypatch, fake, timeout=0.05, max_retries=3)
    assert len(fake.kwargs) == 1


def test_a_client_timeout_without_a_status_is_not_retried_by_default(monkeypatch):
    fake = FakeLitellm(failure("Timeout", 408), failure("APITimeoutError"))
    with pytest.raises(ProviderError, match=r"Timeout \(HTTP 408\).*not retried"):
        _aask(monkeypatch, fake, max_retries=3)
    assert len(fake.kwargs) == 1


def test_timeout_retries_allow_a_timed_out_call_to_be_asked_again(monkeypatch):
    fake = FakeLitellm(failure("Timeout", 408), failure("RateLimitError", 429, {"retry-after": "0"}))
    answer, waits = _aask(monkeypatch, fake, max_retries=1, timeout_retries=1)
    assert answer.text == "drawn" and len(fake.kwargs) == 3
    fake = FakeLitellm(failure("Timeout"), failure("Timeout"))
    with pytest.raises(ProviderError, match=r"after 2 attempts; raise --request-timeout$"):
        _aask(monkeypatch, fake, max_retries=5, timeout_retries=1)


def test_a_model_at_an_api_base_without_its_key_fails_at_once_saying_how_to_pass_a_placeholder(monkeypatch):
    """Against a keyless local server the OpenAI client refuses to send a request without a key;
    litellm called that an HTTP 500 'Missing credentials', retried four times."""
    fake = FakeLitellm()
    seen = {}

    def validate_environment(model, api_base=None):
        seen["api_base"] = api_base
        return {"missing_keys": ["OPENAI_API_KEY"], "keys_in_environment": False}

    fake.validate_environment = validate_environment
    with pytest.raises(ProviderError) as info:
        _aask(monkeypatch, fake, max_retries=3)
    assert str(info.value) == (
        "openai/m: OPENAI_API_KEY is not set; a server that needs no key accepts any value: run with OPENAI_API_KEY=dummy"
    )
    assert fake.kwargs == [] and seen["api_base"] == "http://127.0.0.1:1"


def test_an_api_base_variable_with_a_default_is_not_called_a_missing_key(monkeypatch):
    """litellm lists OLLAMA_API_BASE as missing for ollama/..., which defaults to localhost."""
    fake = FakeLitellm()
    fake.validate_environment = lambda model: {"missing_keys": ["OLLAMA_API_BASE"], "keys_in_environment": False}
    monkeypatch.setattr(call, "load_litellm", lambda: fake)
    answer = asyncio.run(call.aask("ollama/m", [{"role": "user", "content": "draw"}]))
    assert answer.text == "drawn"


def test_a_client_missing_credentials_is_not_retried_whatever_status_it_carries(monkeypatch):
    fake = FakeLitellm(
        type("InternalServerError", (Exception,), {"status_code": 500})("Missing credentials. Please pass an `apiKey`")
    )
    with pytest.raises(ProviderError, match="Missing credentials"):
        _aask(monkeypatch, fake, max_retries=3)
    assert len(fake.kwargs) == 1


def _raised_from(*chain: BaseException) -> BaseException:
    """The first exception, raised from the second, raised from the third…: as litellm wraps them."""
    for outer, inner in zip(chain, chain[1:]):
        outer.__cause__ = inner
    return chain[0]


def _litellm_wrapped(root: BaseException) -> BaseException:
    """litellm's wrapping of a connection that could not be opened: an HTTP 500 no server sent."""
    server_error = type("InternalServerError", (Exception,), {"status_code": 500})
    connection = type("APIConnectionError", (Exception,), {})
    connect = type("ConnectError", (Exception,), {})
    return _raised_from(
        server_error("litellm.InternalServerError: OpenAIException - Connection error."),
        connection("Connection error."),
        connect("Cannot connect to host 127.0.0.1:9"),
        root,
    )


def test_a_server_that_cannot_be_reached_is_named_with_what_to_check_not_as_an_http_500():
    refused = _litellm_wrapped(ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9)"))
    reason = error_reason(refused, "http://127.0.0.1:9/v1", " after 4 attempts")
    assert reason == (
        "could not connect to the server at http://127.0.0.1:9 ([Errno 111] Connect call failed "
        "('127.0.0.1', 9)) after 4 attempts; is the server running, and is --api-base its address?"
    )
    assert "HTTP 500" not in reason
    # a hosted provider (no --api-base) that cannot be resolved
    unresolved = _litellm_wrapped(OSError(-2, "Name or service not known"))
    assert error_reason(unresolved) == (
        "could not connect to the provider ([Errno -2] Name or service not known); "
        "check the network and the provider's status"
    )


def test_a_real_server_error_or_a_dropped_answer_keeps_the_providers_words():
    server_error = type("InternalServerError", (Exception,), {"status_code": 500})
    assert error_reason(server_error("boom"), "http://h/v1", " after 4 attempts") == (
        "InternalServerError (HTTP 500): boom after 4 attempts"
    )
    # the connection was made and dropped mid-answer: not "could not connect"
    dropped = _raised_from(
        type("APIConnectionError", (Exception,), {})("Connection error."),
        type("ServerDisconnectedError", (Exception,), {})("Server disconnected"),
    )
    assert error_reason(dropped, "http://h/v1") == "APIConnectionError: Connection error."


def test_the_connection_message_names_the_host_and_port_not_the_rest_of_the_address():
    # a path, a query or credentials in --api-base may hold a token: none of it is written
    refused = _litellm_wrapped(ConnectionRefusedError(111, "refused"))
    reason = error_reason(refused, "https://user:pw-0123456789@gw.example:8443/acct/tok-0123456789abcdef/v1?k=v")
    assert reason.startswith("could not connect to the server at https://gw.example:8443 ([Errno 111] refused);")
    assert "tok-0123456789abcdef" not in reason and "pw-0123456789" not in reason and "k=v" not in reason


def test_a_provider_message_echoing_the_api_base_shows_only_its_scheme_host_and_port():
    """C7 (issue 32): a server's 404 that repeats the URL it was asked at carried --api-base's tokens."""
    base = "https://user:pw-0123456789@gw.example:8443/acct/tok-0123456789abcdef/v1?api-key=qk-0123456789"
    said = f"no route {base}/chat/completions; also see https://other:secret-pw@x.example/?token=tk-0123456789"
    echoed = type("NotFoundError", (Exception,), {"status_code": 404})(said)
    reason = error_reason(echoed, base)
    assert reason.startswith("NotFoundError (HTTP 404): no route https://gw.example:8443/chat/completions;")
    for token in ("pw-0123456789", "tok-0123456789abcdef", "qk-0123456789", "secret-pw", "tk-0123456789"):
        assert token not in reason


def test_credentials_in_a_url_glued_to_other_text_are_masked():
    """A URL right after other characters (an HTTP client's "/%20http://…" for an address with a
    leading space) kept its user:password: the mask wanted a word boundary before the scheme."""
    echoed = type("InternalServerError", (Exception,), {"status_code": 500})(
        "/%20http://rtuser:PASSSECRET42@127.0.0.1:18765/v1/chat/completions"
    )
    assert "PASSSECRET42" not in error_reason(echoed, None)


@pytest.mark.parametrize(
    "text, secret",
    [
        ("HTTPS_PROXY=alice:hunter2pw@proxy.example:3128", "hunter2pw"),  # no scheme, as a proxy is set
        ("https://user:p@ss-word9@host.example/v1", "ss-word9"),  # an @ in the password
    ],
    ids=["no-scheme", "at-in-password"],
)
def test_credentials_without_a_scheme_or_holding_an_at_are_masked(text, secret):
    """Minor (sixth sweep): a proxy credential without a scheme reached recordings and the results
    file in clear, and a password holding an ``@`` was masked only up to it."""
    from shape_asserts.asking.failure import redact

    said = redact(text)
    assert secret not in said and "[REDACTED]@" in said
    assert redact("llama3:8b ft:gpt-4o-mini:acme:risk:abc123") == "llama3:8b ft:gpt-4o-mini:acme:risk:abc123"


def test_a_provider_message_echoing_the_api_base_path_alone_hides_its_token():
    """A server's 404 that repeats only the request's path (no scheme, no host) carried the token
    in --api-base's path to the terminal, the JUnit XML, the report and the results file."""
    base = "http://127.0.0.1:8000/v1/TOKPATHSECRET/"
    echoed = type("NotFoundError", (Exception,), {"status_code": 404})("no route /v1/TOKPATHSECRET/chat/completions")
    reason = error_reason(echoed, base)
    assert "TOKPATHSECRET" not in reason
    assert reason == "NotFoundError (HTTP 404): no route /v1/[REDACTED]/chat/completions"


AZURE_STYLE_KEY = "AZ9fQ3kLm2Xv7Pp1Rt5Ww8Yy0Bc4Dd6E"  # nothing but the environment says it is a key


@pytest.mark.parametrize("padding", range(0, 400, 5))
def test_a_key_the_one_line_reason_is_cut_through_is_masked_whole(monkeypatch, padding):
    """Red team rt44 F1: the reason was cut at 300 characters, then masked. A key the cut went
    through no longer equalled the environment value, and its first part was written (terminal,
    JUnit XML, report, results file). The reason is now masked first, then cut."""
    monkeypatch.setenv("AZURE_API_KEY", AZURE_STYLE_KEY)
    said = "y" * padding + f" your key {AZURE_STYLE_KEY} is not valid"
    reason = error_reason(type("BadRequestError", (Exception,), {"status_code": 400})(said))
    assert len(reason) <= 300
    assert AZURE_STYLE_KEY[:6] not in reason, reason


def test_an_api_base_path_the_unreadable_reply_line_is_cut_through_is_hidden_whole():
    """The same order for a reply litellm could not read: its words, echoing --api-base's path,
    were cut at 200 characters before the path's token was hidden."""
    base = "http://127.0.0.1:8000/v1/TOKPATHSECRET0123/"
    for padding in range(120, 200, 3):
        said = "Empty or invalid response from LLM endpoint" + "y" * padding + " at /v1/TOKPATHSECRET0123/"
        reason = call._unreadable(Exception(said), base)
        assert reason is not None and "TOKPATH" not in reason, reason


def test_a_reply_to_a_retry_is_not_taken_for_the_refusal_before_it():
    # litellm's own client retries a refused connection from inside its except block: the reply to
    # that retry (here a 429) carries the refusal as its context, and is what the call met
    status_error = type("HTTPStatusError", (Exception,), {"__module__": "httpx"})(
        "Client error '429 Too Many Requests'"
    )
    try:
        try:
            raise ConnectionRefusedError(111, "refused")
        except ConnectionRefusedError:
            raise status_error  # noqa: B904 (as litellm's client does: the refusal its context)
    except Exception as exc:
        replied = exc
    assert isinstance(replied.__context__, ConnectionRefusedError)
    wrapped = _raised_from(type("RateLimitError", (Exception,), {"status_code": 429})("slow down"), replied)
    assert error_reason(wrapped, "http://h:1/v1") == "RateLimitError (HTTP 429): slow down"
    # a context suppressed by "raise ... from None" (the call's own timeout) is not followed either
    try:
        try:
            raise ConnectionRefusedError(111, "refused")
        except ConnectionRefusedError:
            raise call.Timeout("no complete answer within 5 s (--request-timeout)") from None
    except Exception as exc:
        timeout = exc
    assert error_reason(timeout).startswith("Timeout: no complete answer within 5 s")


def test_a_call_that_never_connects_raises_unreachable_after_its_retries(monkeypatch):
    refused = _litellm_wrapped(ConnectionRefusedError(111, "refused"))
    fake = FakeLitellm(refused, refused)
    with pytest.raises(ModelUnavailable) as caught:
        _aask(monkeypatch, fake, max_retries=1)
    assert len(fake.kwargs) == 2  # retried as before: a server may be starting
    assert caught.value.reason == (
        "could not connect to the server at http://127.0.0.1:1 ([Errno 111] refused); "
        "is the server running, and is --api-base its address?"
    )
    assert str(caught.value).startswith(
        "openai/m: could not connect to the server at http://127.0.0.1:1 ([Errno 111] refused) after 2 attempts; "
    )
    # a server's own 500 is not taken for an absent server
    fake = FakeLitellm(type("InternalServerError", (Exception,), {"status_code": 500})("boom"))
    with pytest.raises(ProviderError) as caught:
        _aask(monkeypatch, fake, max_retries=0)
    assert not isinstance(caught.value, ModelUnavailable)


@pytest.mark.parametrize(
    ("failure", "message", "reason"),
    [
        (
            type("AuthenticationError", (Exception,), {"status_code": 401})("invalid api key"),
            "AuthenticationError (HTTP 401): invalid api key; check the API key the provider gets",
            "was refused: AuthenticationError (HTTP 401): invalid api key; check the API key",
        ),
        (
            type("NotFoundError", (Exception,), {"status_code": 404})("model 'exactt' not found"),
            "NotFoundError (HTTP 404): model 'exactt' not found; check the model's name and --api-base",
            "was refused: NotFoundError (HTTP 404): model 'exactt' not found; check the model's name",
        ),
        (
            type("BadRequestError", (Exception,), {"status_code": 400})(
                "litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call."
            ),
            "litellm does not know which provider serves 'openai/m': name it as <provider>/<model>",
            "could not be made: litellm does not know which provider serves 'openai/m'",
        ),
    ],
)
def test_a_failure_every_call_would_meet_ends_the_models_asking(monkeypatch, failure, message, reason):
    with pytest.raises(ModelUnavailable) as caught:
        _aask(monkeypatch, FakeLitellm(failure), max_retries=3)
    assert str(caught.value).startswith(f"openai/m: {message}")
    assert caught.value.reason.startswith(reason)


def test_a_case_of_its_own_is_not_taken_for_the_model(monkeypatch):
    # a prompt too long for the model, a rate limit exhausted: this call's, not every call's
    too_long = type("BadRequestError", (Exception,), {"status_code": 400})("context length exceeded")
    with pytest.raises(ProviderError) as caught:
        _aask(monkeypatch, FakeLitellm(too_long), max_retries=0)
    assert not isinstance(caught.value, ModelUnavailable)
    # a 403: some providers refuse one flagged input so, and another call may pass
    flagged = type("PermissionDeniedError", (Exception,), {"status_code": 403})("input flagged by moderation")
    with pytest.raises(ProviderError) as caught:
        _aask(monkeypatch, FakeLitellm(flagged), max_retries=0)
    assert not isinstance(caught.value, ModelUnavailable)
    limited = type("RateLimitError", (Exception,), {"status_code": 429})("slow down")
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.0)  # (waited out at once)
    with pytest.raises(ProviderError) as caught:
        _aask(monkeypatch, FakeLitellm(limited), max_retries=0)
    assert not isinstance(caught.value, ModelUnavailable)


@pytest.mark.parametrize(
    ("var", "url", "local"),
    [
        ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1", True),
        ("OPENAI_API_BASE", "http://10.0.0.5/v1", True),
        ("OPENAI_BASE_URL", "https://gateway.example.com/v1", False),
    ],
)
def test_a_server_the_environment_names_is_judged_local_or_not_as_api_base_is(monkeypatch, var, url, local):
    """Red-team sweep 54: a one-slot local server named by OPENAI_BASE_URL (litellm's address
    when no --api-base is given) was judged the provider's hosted one: timeouts retried at once,
    queued calls never asked again alone, 20 of 24 cases lost."""
    from shape_asserts.asking.retry import served_locally, timeout_retries_for

    for other in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(other, raising=False)
    monkeypatch.setenv(var, url)
    assert served_locally("openai/m", None) is local
    # a name without its provider's prefix: litellm finds the provider (claude-…: Anthropic's
    # hosted server), which is not guessed here, so no environment variable is taken for it
    assert served_locally("claude-sonnet-4-20250514", None) is False and served_locally("gpt-4o", None) is False
    assert timeout_retries_for("openai/m", None) == (0 if local else 2)
    assert served_locally("openai/m", "https://api.example.com/v1") is False  # --api-base wins
    assert served_locally("anthropic/claude", None) is False  # another provider's server


@pytest.mark.parametrize(
    "model,api_base,local",
    [
        ("openai/m", "http://127.0.0.1:8080/v1", True),
        ("openai/m", "http://localhost:11434", True),
        ("openai/m", "http://[::1]:8000/v1", True),
        ("openai/m", "http://192.168.1.20:8000/v1", True),
        ("openai/m", "http://10.0.0.5/v1", True),
        ("openai/m", "http://llama:8080/v1", True),  # a container's service name
        ("openai/m", "http://gpu-box.local:8080/v1", True),
        ("openai/m", "https://api.example.com/v1", False),
        ("openai/m", "http://8.8.8.8/v1", False),
        ("gpt-4o", None, False),
        ("ollama/llama3", None, True),
        ("ollama/llama3", "https://ollama.example.com", False),
        # red-team sweep 59: litellm's default servers for these are on localhost
        ("docker_model_runner/ai/smollm2", None, True),
        ("openai/m", "http://100.100.1.2:8080/v1", True),  # red-team sweep 60: Tailscale's shared space
        ("openai/m", "http://100.128.0.1:8080/v1", False),  # (past it)
        ("lemonade/Qwen3-4B-Instruct-2507-GGUF", None, True),
    ],
)
def test_timeouts_are_retried_twice_by_default_except_at_a_local_server(monkeypatch, model, api_base, local):
    from shape_asserts.asking.retry import served_locally, timeout_retries_for

    for var in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OLLAMA_BASE_URL", "OLLAMA_API_BASE", "LEMONADE_API_BASE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("DOCKER_MODEL_RUNNER_API_BASE", raising=False)
    assert served_locally(model, api_base) is local
    assert timeout_retries_for(model, api_base) == (0 if local else 2)
    assert timeout_retries_for(model, api_base, 5) == 5


@pytest.mark.parametrize(
    ("model", "var", "url", "local"),
    [
        ("ollama_chat/llama3", "OLLAMA_API_BASE", "https://ollama.com", False),
        ("huggingface/tgi", "HF_API_BASE", "http://127.0.0.1:8080", True),
        ("text-completion-openai/m", "OPENAI_BASE_URL", "http://127.0.0.1:8080/v1", True),
    ],
)
def test_a_providers_server_is_read_from_the_variable_litellm_reads(monkeypatch, model, var, url, local):
    """Red-team sweep 59: ollama_chat/ at a hosted OLLAMA_API_BASE was judged local, and
    huggingface/ at a local HF_API_BASE hosted: each reads a variable not named after its prefix."""
    from shape_asserts.asking.retry import served_locally

    monkeypatch.setenv(var, url)
    assert served_locally(model, None) is local


def test_googles_wait_in_a_429s_body_is_honoured():
    """Red-team sweep 60: Gemini says how long to wait only in its 429's body (``RetryInfo``); the
    three retries were spent in 3.5 s, inside the same quota window, and 14 of 24 cases lost."""
    from shape_asserts.asking.retry import backoff, retry_after

    said = (
        'litellm.RateLimitError: GeminiException - {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", '
        '"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}]}}'
    )
    assert retry_after(Exception(said)) == 7.0
    assert backoff(0, Exception(said.replace('"7s"', '"7.5s"'))) == 7.5
    assert retry_after(Exception("rate limited")) is None


def test_a_rate_limit_saying_to_retry_at_once_is_still_waited_out(monkeypatch):
    """Red-team sweep 62: a 429 with Retry-After: 0 was asked again at once, 500 times in 34 s,
    for ever (the patience added up waits, and these were 0). Each wait is at least the rate
    limit's own, and the patience runs from the first 429."""
    from shape_asserts.asking import retry

    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.05)
    fake = FakeLitellm(*[failure("RateLimitError", 429, {"retry-after": "0"}) for _ in range(1000)])
    with pytest.raises(ProviderError, match="rate limited for"):
        _aask(monkeypatch, fake, max_retries=0)
    assert len(fake.kwargs) < 20


def test_an_account_without_credit_is_not_waited_on_and_stops_the_model(monkeypatch):
    """Red-team sweep 62: OpenAI's insufficient_quota 429 was waited on for 2.5 minutes a case."""
    from shape_asserts.exceptions import ModelUnavailable

    no_credit = type("RateLimitError", (Exception,), {"status_code": 429})(
        "You exceeded your current quota, please check your plan and billing details. "
        "{'error': {'type': 'insufficient_quota', 'code': 'insufficient_quota'}}"
    )
    fake = FakeLitellm(no_credit)
    with pytest.raises(ModelUnavailable, match="no credit left"):
        _aask(monkeypatch, fake, max_retries=3)
    assert len(fake.kwargs) == 1


def test_googles_per_minute_quota_is_a_rate_limit_not_an_empty_account():
    """Red-team sweep 63: Gemini's per-minute 429 says "exceeded your current quota" as OpenAI's
    empty account does; taken for one, every case after it was lost unasked."""
    from shape_asserts.asking.retry import is_rate_limited, is_retriable

    said = (
        'GeminiException - {"error": {"code": 429, "message": "You exceeded your current quota, please check '
        'your plan and billing details. Please retry in 7.4s.", "status": "RESOURCE_EXHAUSTED", "details": '
        '[{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]}}'
    )
    limited = type("RateLimitError", (Exception,), {"status_code": 429})(said)
    assert is_rate_limited(limited) and is_retriable(limited)


@pytest.mark.parametrize(
    "said",
    [
        # OpenAI's empty account as litellm's text has it (red-team sweep 64: without its code)
        "You exceeded your current quota, please check your plan and billing details. For more information "
        "on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        # Google's day's quota: the same words, and a per-day quota id (red-team sweep 64)
        '{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "You exceeded your current quota. '
        'Please retry in 30s.", "details": [{"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}}',
        # xAI's team without credit
        "Your team has either used all available credits or reached its monthly spending limit.",
    ],
)
def test_an_account_without_credit_or_a_spent_days_quota_is_not_waited_on(said):
    from shape_asserts.asking.retry import is_rate_limited, is_retriable

    refused = type("RateLimitError", (Exception,), {"status_code": 429})(said)
    assert not is_rate_limited(refused) and not is_retriable(refused)


def test_a_refused_call_waits_as_long_as_the_model_answers_other_calls(monkeypatch):
    """Red-team sweep 64: under a quota of five calls a minute, sixteen calls in flight all retried
    at each reset, and a call that lost two resets gave up (its two minutes had passed): 9 of 24
    cases lost. A refused call gives up only once the model has answered no call for the patience;
    and no call is sent while another waits out the model's 429."""
    from shape_asserts.asking import retry
    from shape_asserts.asking.retry import RateLimit

    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.3)
    shared = RateLimit()

    async def others_answered():  # the model's other calls are served meanwhile
        for _ in range(12):
            await asyncio.sleep(0.05)
            shared.answered()

    async def go():
        fake = FakeLitellm(*[failure("RateLimitError", 429) for _ in range(40)])
        monkeypatch.setattr(call, "load_litellm", lambda: fake)
        ask = call.aask("openai/m", [{"role": "user", "content": "draw"}], api_base="http://127.0.0.1:1",
                        max_retries=0, rate_limit=shared)  # fmt: skip
        started = time.monotonic()
        with pytest.raises(ProviderError, match=r"rate limited for \d+s with no call to the model answered"):
            await asyncio.gather(ask, others_answered())
        return time.monotonic() - started

    took = asyncio.run(go())
    assert took > 0.6 + 0.3  # retried while the others answered (0.6 s), given up after the patience
    # given up: the model's other calls are not sent (they would wait as long for nothing)
    fake = FakeLitellm()
    monkeypatch.setattr(call, "load_litellm", lambda: fake)
    with pytest.raises(ProviderError, match=r"openai/m: not asked: an earlier call was refused for the model's rate"):
        asyncio.run(call.aask("openai/m", [{"role": "user", "content": "draw"}], api_base="http://127.0.0.1:1", rate_limit=shared))  # fmt: skip
    assert fake.kwargs == []

    async def held():
        shared = RateLimit()
        shared.refused(failure("RateLimitError", 429, {"retry-after": "0.2"}))  # another call was refused
        paused: list[float] = []

        async def pause(seconds):
            paused.append(seconds)
            await asyncio.sleep(seconds)

        fake = FakeLitellm()
        monkeypatch.setattr(call, "load_litellm", lambda: fake)
        await call.aask("openai/m", [{"role": "user", "content": "draw"}], api_base="http://127.0.0.1:1", rate_limit=shared, pause=pause)  # fmt: skip
        return paused, len(fake.kwargs)

    paused, asked = asyncio.run(held())
    assert len(paused) == 1 and 0.15 < paused[0] <= 0.2 and asked == 1  # not sent before the wait was over


def test_the_other_calls_wait_what_the_provider_stated_not_the_refused_calls_own_backoff():
    """A call refused many times waits longer each time (up to a minute); the model's other calls
    wait only what the 429 stated, else the first step of a rate limit's backoff: a busy provider's
    one-second waits must not hold the whole model for a minute."""
    from shape_asserts.asking.retry import MAX_BACKOFF, RATE_LIMIT_BACKOFF, RateLimit, backoff

    said = failure("RateLimitError", 429, {"retry-after": "7"})
    unsaid = failure("RateLimitError", 429)
    assert backoff(6, unsaid) >= MAX_BACKOFF / 2  # the call's own, after six refusals
    for exc, expected in [(said, 7.0), (unsaid, RATE_LIMIT_BACKOFF), (failure("RateLimitError", 429, {"retry-after": "600"}), MAX_BACKOFF)]:  # fmt: skip
        limit = RateLimit()
        limit.refused(exc)
        assert expected - 0.5 < limit.held_for() <= expected


def test_only_a_rate_limits_wait_lets_other_calls_go(monkeypatch):
    """Red-team sweep 65: with every wait before another attempt letting other calls go, an 8-s
    outage of 503s drew every call of the run into it, each spending its retries there: 139 of 139
    cases lost (16 at a time had held the rest back). A 5xx's wait keeps the call's place."""
    from shape_asserts.asking import retry

    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)
    paused: list[float] = []

    async def pause(seconds):
        paused.append(seconds)
        await asyncio.sleep(seconds)

    _aask(monkeypatch, FakeLitellm(failure("ServiceUnavailableError", 503)), max_retries=1, pause=pause)
    assert paused == []
    _aask(monkeypatch, FakeLitellm(failure("RateLimitError", 429)), max_retries=0, pause=pause)
    assert paused  # (the wait after the 429, and maybe the rest of the model's)


@pytest.mark.parametrize(
    "said",
    [
        # OpenAI's day's limit: it states a wait, of hours
        "Rate limit reached for gpt-4o-mini in organization org-abc123 on requests per day (RPD): Limit 10000, "
        "Used 10000, Requested 1. Please try again in 1h12m0s.",
        "Rate limit reached for gpt-4o in organization org-abc on tokens per day (TPD): Limit 90000, Used 89000.",
        # OpenRouter's free models' day's limit, Cerebras' day's tokens
        '{"error":{"message":"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free '
        'model requests per day","code":429}}',
        "Tokens per day limit exceeded - too many tokens processed.",
        # Google's quota of none: the key's tier does not serve the model
        "You exceeded your current quota. * Quota exceeded for metric: generativelanguage.googleapis.com/"
        'generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro\\nPlease retry in 7.4s. "details": '
        '[{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaValue": "0"}]',
    ],
)
def test_a_quota_no_wait_within_the_run_mends_stops_the_model_at_once(said):
    """Red-team sweep 65: OpenAI's spent day's limit (RPD) and Google's "limit: 0" were waited on as
    a minute's rate limit: a full run took 10 and more than 15 minutes to fail."""
    from shape_asserts.asking.retry import is_rate_limited, is_retriable

    spent = type("RateLimitError", (Exception,), {"status_code": 429})(said)
    assert not is_rate_limited(spent) and not is_retriable(spent)
    minute = type("RateLimitError", (Exception,), {"status_code": 429})(
        "Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500. "
        "Please try again in 120ms. limit: 10, model: x"
    )
    assert is_rate_limited(minute)


def test_a_model_still_making_answers_is_not_given_up_on():
    """Red-team sweep 66: a server admitting four calls at a time and refusing the rest, whose
    answers took 130 s: the refused calls gave up at 120 s (no answer yet) and every other case of
    the model with them, while four answers were on their way. An attempt under way may be an
    answer: the patience waits for it, up to the longest an attempt may take."""
    from shape_asserts.asking.retry import RateLimit

    limit = RateLimit()
    limit.answered_at -= 125.0  # nothing answered for 125 s
    assert limit.patience_over(120.0, timeout=300.0)
    with limit.attempt():  # one just sent: a refusal comes back at once, it is no answer yet
        assert limit.patience_over(120.0, timeout=300.0)
    limit.under_way.append(time.monotonic() - 10.0)  # one the server took in 10 s ago, its answer being made
    assert not limit.patience_over(120.0, timeout=300.0)
    limit.answered_at -= 300.0  # ... until the longest an attempt may take has passed too
    assert limit.patience_over(120.0, timeout=300.0)


def test_a_server_errors_stated_wait_holds_the_model_and_lets_other_calls_go(monkeypatch):
    """Red-team sweep 66: 503s saying Retry-After: 60 were each call's own wait, slept holding its
    turn: a wave of 16 slept three minutes, then the next wave: 27 minutes for a full run. A wait
    the server states is the model's, as a 429's is."""
    from shape_asserts.asking.retry import RateLimit

    paused: list[float] = []

    async def pause(seconds):
        paused.append(seconds)
        await asyncio.sleep(seconds)

    shared = RateLimit()
    down = failure("ServiceUnavailableError", 503, {"retry-after": "0.05"})
    _aask(monkeypatch, FakeLitellm(down), max_retries=1, pause=pause, rate_limit=shared)
    assert paused and shared.until > 0  # waited aside, and the model's other calls with it


def test_a_model_silent_for_the_patience_is_given_up_whatever_retries_a_call_has_left(monkeypatch):
    """Red-team sweep 67: 503s saying Retry-After: 60 to every call of a full run (139 cases). The
    model was given up only when one call had spent its own retries, but each minute's sixteen
    attempts went to whichever waiting calls woke first, so no call spent its four before ten
    minutes. Once the model has answered nothing for the patience, a call's next failure ends it
    and the model's other calls, however many retries it has left."""
    from shape_asserts.asking.retry import RateLimit

    shared = RateLimit()
    shared.answered_at -= 200.0  # nothing answered for 200 s, nothing under way
    down = failure("ServiceUnavailableError", 503, {"retry-after": "60"})
    fake = FakeLitellm(down, down, down)
    with pytest.raises(ProviderError, match=r"no call to the model answered for \d+s"):
        _aask(monkeypatch, fake, max_retries=3, rate_limit=shared)
    assert len(fake.kwargs) == 1  # one attempt, not four spread over minutes
    assert shared.given_up is not None and "ServiceUnavailableError (HTTP 503)" in shared.given_up

    answering = RateLimit()  # a model that answers others: the same failure is retried as usual
    _aask(monkeypatch, FakeLitellm(failure("ServiceUnavailableError", 503)), max_retries=3, rate_limit=answering)
    assert answering.given_up is None
