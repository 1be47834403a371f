"""What a failed call says, and whether every call to its model would fail so.

:func:`error_reason` is the one line a :class:`~shape_asserts.exceptions.ProviderError` carries: the
provider's own words (litellm's repetition of its class names trimmed), the HTTP status when a
server sent one, secrets masked (:func:`redact`), and what to check where the cause is known. A
connection that could not be opened at all is said so (litellm reports it as an HTTP 500 no server
sent). :func:`describe` also tells the failures every call to the model would meet — no connection,
a key refused, an unknown model or provider — for which the asker asks that model nothing more.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

__all__ = [
    "address",
    "describe",
    "env_base_url",
    "error_reason",
    "hide_address",
    "one_line",
    "redact",
    "redact_json",
]

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
#: A bearer token, an ``api_key``'s value, an OpenAI-style ``sk-…`` key: ``sk-`` only where a key
#: starts, never inside a word (a model "task-classifier-v2", an argument "risk-assessment" or a case
#: "desk-circle" redacted so is a recording that never matches what the run asks again).
_BEARER = re.compile(r"(?i)(\bbearer\s+|api[_-]?key[\"'=:\s]+|(?<![\w-])sk-)[A-Za-z0-9._\-]{6,}")


#: ``scheme://user:pass@`` in a URL: the credentials are masked, the host stays, whatever their
#: length. Every pattern here matches in time linear in the text: a scheme is at most 32 characters,
#: so at most 32 places before a ``://`` start a match, each reading on to the next ``/``; a bare
#: ``user:pass@`` starts only where a run of name characters does; a host name's labels are at most
#: 63 and a parameter's name 64 either side of its secret word. (With an unbounded scheme, a model's
#: answer of 80,000 characters with a ``://`` and no ``@`` took 26 s to mask, the time growing with
#: the square of its length.)
_USERINFO = re.compile(r"(?i)([a-z][a-z0-9+.-]{0,31}://)[^/\s?#]+@")  # no word boundary: "%20http://"
#: ... up to the last ``@`` of the address (a password may hold one); and ``user:pass@host`` without a
#: scheme, as a proxy setting is written (``alice:pw@proxy:3128``).
_BARE_USERINFO = re.compile(r"(?<![\w/:.@%+-])[\w.%+-]+:[^\s/@:]+@(?=[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}(?::\d{1,5})?\b)")
#: A query parameter named for a secret (``?api-key=…``, ``&token=…``, ``&sig=…``).
_SECRET_PARAM = re.compile(
    r"(?i)([?&][\w.-]{0,64}(?:key|token|secret|sig|signature|password|auth)[\w.-]{0,64}=)[^&#\s\"']+"
)


def _secret_values() -> list[str]:
    """The values of the environment variables named for a secret (8 characters or more)."""
    return [value for name, value in os.environ.items() if value and len(value) >= 8 and _SECRET_NAME.search(name)]


def redact(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every secret-looking environment value (``secrets``, by default
    :func:`_secret_values`), bearer/API-key token, URL credential (``user:pass@``) and secret-named
    query parameter masked."""
    out = str(text)
    for value in _secret_values() if secrets is None else secrets:
        if value in out:
            out = out.replace(value, "[REDACTED]")
    out = _USERINFO.sub(r"\1[REDACTED]@", out)
    out = _BARE_USERINFO.sub("[REDACTED]@", out)
    out = _SECRET_PARAM.sub(r"\1[REDACTED]", out)
    return _BEARER.sub(
        lambda m: m.group(1) + "[REDACTED]" if not m.group(1).lower().startswith("sk-") else "[REDACTED]", out
    )


def redact_json(value: Any) -> Any:
    """``value`` (what ``json.dumps`` takes: dicts, lists, strings, numbers) with every string in
    it, keys too, masked by :func:`redact`. Mask before serialising, never the JSON text: there a
    quote inside a string is written ``\\"``, and a pattern stopping at the quote would take the
    backslash and leave the text no longer JSON (a recording that never reads back is paid for again
    on every run).

    The environment's secrets are read once for the whole value, not once a string: a results
    line holds about a hundred strings, and reading them each time took 9.1 ms a line against
    1.3 ms (312 benchmark lines): some 25 s of a 3,120-test run's controller."""
    secrets = _secret_values()

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return redact(v, secrets)
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        return v

    return walk(value)


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, secrets masked (:func:`redact`), its whitespace runs made one space, cut
    at ``limit`` characters.

    Masked before it is cut: a key the cut goes through is no longer found whole afterwards, and
    its first part would be shown unmasked. A caller hides its ``--api-base``
    (:func:`hide_address`) before calling this, for the same reason."""
    line = " ".join(redact(str(text)).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


#: Exceptions (by class name, across litellm's, openai's, httpx's and aiohttp's) raised when no
#: connection could be opened at all: litellm reports these as an HTTP 500 no server ever sent.
_CONNECT_FAILED = frozenset({"ConnectError", "ClientConnectorError", "ClientConnectorDNSError", "gaierror"})


def _replied(exc: BaseException) -> bool:
    """Whether ``exc`` is a server's reply (an HTTP status it sent): httpx's or openai's own status
    errors. litellm's exceptions subclass openai's with a made-up status, so they do not count."""
    module = type(exc).__module__
    if module.startswith("httpx"):
        return type(exc).__name__ == "HTTPStatusError"
    return module.startswith("openai") and isinstance(getattr(exc, "status_code", None), int)


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it was raised from, outermost first (each once), down to a server's reply.

    A context suppressed (``raise … from None``) is not followed; nor is anything under a reply a
    server sent: litellm's client retries a refused connection inside its ``except`` block, and a
    reply to that retry (a 429, a 503) still carries the refusal as its context.
    """
    out: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and all(cur is not seen for seen in out):
        out.append(cur)
        if _replied(cur):
            break
        cur = cur.__cause__ or (None if cur.__suppress_context__ else cur.__context__)
    return out


def address(api_base: str) -> str:
    """``api_base`` as it is shown anywhere (messages, the "record it with" command, reports):
    its scheme, host and port only. Its path, query and ``user:pass@`` may hold a token."""
    try:
        parts = urlsplit(api_base)
    except ValueError:  # an unclosed IPv6 bracket
        return "the address given by --api-base"
    if not parts.hostname:
        return "the address given by --api-base"
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.scheme}://{host}{port}" if parts.scheme else f"{host}{port}"


def env_base_url(model: str) -> tuple[str, str] | None:
    """Where ``model``'s calls go when no ``--api-base`` is given and the environment names its
    provider's server, as litellm reads it (``OPENAI_BASE_URL``, ``OPENAI_API_BASE``,
    ``OLLAMA_API_BASE`` ...: ``<PROVIDER>_BASE_URL`` or ``<PROVIDER>_API_BASE``, the provider being the
    model's prefix): ``(variable, url)``, else ``None``. A model named without its prefix has none:
    litellm finds its provider from the name (``gpt-4o``: OpenAI, ``claude-…``: Anthropic), which
    is not guessed here."""
    if "/" not in model:
        return None
    name = re.sub(r"[^A-Za-z0-9]", "_", model.split("/", 1)[0]).upper()
    for var in (f"{name}_BASE_URL", f"{name}_API_BASE", *_OTHER_ADDRESS_VARS.get(name, ())):
        if os.environ.get(var):
            return var, os.environ[var]
    return None


#: Providers whose server litellm reads from a variable of another name.
_OTHER_ADDRESS_VARS = {
    "BEDROCK": ("AWS_BEDROCK_RUNTIME_ENDPOINT",),
    "WATSONX": ("WATSONX_URL", "WX_URL", "WML_URL"),
    "OLLAMA_CHAT": ("OLLAMA_API_BASE",),
    "HUGGINGFACE": ("HF_API_BASE",),
    "TEXT_COMPLETION_OPENAI": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
}


def _env_base_urls() -> set[str]:
    """Every server address the environment may give a provider (``*_BASE_URL``, ``*_API_BASE``,
    ``*_ENDPOINT``, and :data:`_OTHER_ADDRESS_VARS`' ``WATSONX_URL``…): whole URLs only, with a host
    (JupyterHub's ``JUPYTERHUB_BASE_URL=/`` is a path, and hidden wherever it stood it would
    rewrite every ``/`` of a recorded answer). Not every ``*_URL``: the words of a database's or a
    CI's address would be hidden in every answer too."""
    others = {var for names in _OTHER_ADDRESS_VARS.values() for var in names}
    urls = set()
    for name, value in os.environ.items():
        address_var = name.upper().endswith(("_BASE_URL", "_API_BASE", "_ENDPOINT")) or name.upper() in others
        if address_var and "://" in value:
            try:
                if urlsplit(value).hostname:
                    urls.add(value)
            except ValueError:  # not a URL
                pass
    return urls


def hide_address(text: str, api_base: str | None) -> str:
    """``text`` with ``api_base`` and every provider server the environment names (litellm's
    address when there is no ``--api-base``: :func:`env_base_url`) shown as :func:`address` shows
    them: a token in their paths is known only by being in the run's own addresses."""
    for url in sorted(_env_base_urls() | ({api_base} if api_base else set())):
        text = _hide_url(text, url)
    return text


def _hide_url(text: str, api_base: str) -> str:
    """``text`` with ``api_base`` (as given, or without its last ``/``) shown as :func:`address`
    shows it, and the words of its path and query that may be a token hidden wherever they stand."""
    shown = address(api_base)
    for form in sorted({api_base, api_base.rstrip("/")}, key=len, reverse=True):
        if form and form != shown:
            text = text.replace(form, shown)
    # a server echoing the request's path ("no route /v1/<token>/chat/completions") shows the
    # path alone: each of its words that may be a token is hidden wherever it stands, and so is
    # every query value, whatever its name (Azure Functions' ?code=<key>)
    try:
        parts = urlsplit(api_base)
    except ValueError:
        return text
    words = set(parts.path.split("/")) - _PATH_WORDS
    words |= {value for _, value in parse_qsl(parts.query, keep_blank_values=True)}
    words |= set(parts.query.split("&"))  # (as sent, before any decoding)
    for word in sorted(words, key=len, reverse=True):
        if len(word) >= 6:
            text = text.replace(word, "[REDACTED]")
    return text


#: Words of an API's path that are no token (kept when a server echoes the path).
_PATH_WORDS = frozenset(
    {"", "v1", "v1beta", "v2", "api", "openai", "chat", "completions", "deployments", "inference", "models",
     "serving-endpoints", "compatible-mode", "compatibility", "openai-compatible"}
)  # fmt: skip


def _connection_reason(exc: BaseException, api_base: str | None) -> tuple[str, str] | None:
    """Why no answer could come when the call never reached a server, and what to check; else ``None``."""
    chain = _causes(exc)
    if not any(type(c).__name__ in _CONNECT_FAILED or isinstance(c, ConnectionRefusedError) for c in chain):
        return None
    said = hide_address(str(chain[-1]) or type(chain[-1]).__name__, api_base)  # e.g. "Connect call failed"
    where = f"the server at {address(api_base)}" if api_base else "the provider"
    check = (
        "is the server running, and is --api-base its address?"
        if api_base
        else "check the network and the provider's status"
    )
    return f"could not connect to {where} ({one_line(said, 160)})", check


#: A provider's code for an account with no credit left (OpenAI's ``insufficient_quota`` 429,
#: Anthropic's words): no wait mends it, and every call to the model meets it. Not the words
#: "exceeded your current quota", which Google's ordinary per-minute 429 says too.
_NO_CREDIT = ("insufficient_quota", "credit balance is too low", "used all available credits", "monthly spending limit")


#: Quotas spent that no wait within a run mends: OpenAI's day's ("on requests per day (RPD)", or
#: tokens, TPD), OpenRouter's free models' ("free-models-per-day"), Cerebras' ("Tokens per day limit
#: exceeded"), and a quota of none at all (Google's "limit: 0": the key's tier does not serve the
#: model). Google's day's quota is told by its ``quotaId`` (``…PerDay…``, not a minute's).
_SPENT_QUOTA = re.compile(
    r"per day \((?:RPD|TPD)\)|free-models-per-day|(?i:(?:tokens|requests) per day limit exceeded)"
    r'|\blimit: 0(?![\d.])|"quotaValue": "0"'
)


def out_of_credit(exc: BaseException) -> bool:
    """Whether ``exc`` says the account has no credit left, or a quota no wait within the run
    mends is spent (the day's, or one of none), whatever its status. OpenAI's code may be missing
    from litellm's text, whose words ("exceeded your current quota") Google's rate limits say
    too: they are no credit only where no wait is stated (Google states one: "Please retry in
    7.4s"). The quotas: :data:`_SPENT_QUOTA`."""
    try:
        words = " ".join(
            str(part)[:65_536] for part in (exc, getattr(exc, "body", None) or "", getattr(exc, "code", None) or "")
        )
    except Exception:
        return False
    if any(phrase in words for phrase in _NO_CREDIT):
        return True
    if "exceeded your current quota" in words and not re.search(r"(?i)retry in|retryDelay|RESOURCE_EXHAUSTED", words):
        return True
    return _SPENT_QUOTA.search(words) is not None or ("PerDay" in words and "PerMinute" not in words)


def describe(exc: BaseException, model: str, api_base: str | None = None, tries: str = "") -> tuple[str, str | None]:
    """The one line a failed call to ``model`` says (without the model; secrets masked; ``tries``
    and what to check in place) and, for a failure every call to the model would meet, the reason
    that completes "an earlier call …" (else ``None``)."""
    connection = _connection_reason(exc, api_base)
    if connection is not None:
        what, check = connection
        return redact(f"{what}{tries}; {check}"), redact(f"{what}; {check}")
    if "LLM Provider NOT provided" in str(exc):  # litellm's words: it sent nothing
        said = (
            f"litellm does not know which provider serves {model!r}: name it as <provider>/<model> "
            "(gpt-4o, anthropic/claude-…, or openai/<name> with --api-base for an OpenAI-compatible server)"
        )
        return said, f"could not be made: {said}"
    status = getattr(exc, "status_code", None)
    kind = type(exc).__name__
    said = _provider_words(exc, kind, status, api_base)
    # (not a 403: some providers refuse one flagged input so, and another call may pass)
    if status == 401 or kind == "AuthenticationError":
        check = "check the API key the provider gets"
    elif status == 404 or kind == "NotFoundError":
        check = "check the model's name" + (" and --api-base" if api_base else "")
    elif out_of_credit(exc):
        check = "the account has no credit left, or a quota no wait mends is spent (the day's): add credit, or give another key"
    else:
        return said + tries, None
    return f"{said}{tries}; {check}", f"was refused: {said}; {check}"


def error_reason(exc: BaseException, api_base: str | None = None, tries: str = "") -> str:
    """One line: what failed (the provider's words, secrets masked), ``tries``, and what to check
    where the call never reached a server (a timeout's line: no model-wide check applies)."""
    connection = _connection_reason(exc, api_base)
    if connection is not None:
        what, check = connection
        return redact(f"{what}{tries}; {check}")
    return _provider_words(exc, type(exc).__name__, getattr(exc, "status_code", None), api_base) + tries


def _provider_words(exc: BaseException, kind: str, status: object, api_base: str | None) -> str:
    """The provider's words with the exception's kind and HTTP status ahead, on one line, masked
    (``api_base`` shown as :func:`address` shows it)."""
    msg = hide_address(getattr(exc, "message", None) or str(exc), api_base)
    # litellm's repetition of what the prefix says ("litellm.AuthenticationError: AuthenticationError:
    # OpenAIException - invalid api key"): the provider's own words are what is left
    msg = re.sub(rf"^(?:litellm\.{kind}:\s*)?(?:{kind}:\s*)?(?:\w+Exception - )?", "", msg, count=1)
    prefix = f"{kind}" + (f" (HTTP {status})" if status else "")
    return one_line(f"{prefix}: {msg}")
