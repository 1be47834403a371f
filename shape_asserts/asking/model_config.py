"""Arguments for the provider: ``--model-arg KEY=VALUE`` and named model configurations.

A *configuration* is a name standing for a litellm model and the arguments it is asked with, read
from a TOML file (``--shape-models FILE``) of tables ``[models.NAME]``, or from
``[tool.shape-asserts.models.NAME]`` in the rootdir's ``pyproject.toml``::

    [models.gpt-5-low]
    model = "openai/gpt-5.2"
    reasoning_effort = "low"

``--model=gpt-5-low`` then asks ``openai/gpt-5.2`` with ``reasoning_effort="low"``; the summary,
the leaderboard, the gate, the report, the test ids and the recordings all go by the name.

What one model of a run is asked with (:func:`resolve`), the most specific source winning:
a configuration's own key > ``--model-arg`` (command line > ini ``shape_model_args``) >
``--temperature`` / ``--max-tokens``. ``temperature`` and ``max_tokens`` have options of their own,
so ``--model-arg`` refuses them; a configuration may set them for itself.

Every argument is checked before anything is sent (:func:`check_argument`): the keys the harness
sets itself (``messages``, ``timeout``, ``api_base``…) are refused with the option that sets them,
and so is anything that looks like a secret (a key named like ``api_key`` or ``Authorization`` at
any depth, a value like ``sk-…`` or a secret environment variable's value): arguments are written
into every recording, and a secret belongs in the environment. Nothing here imports litellm.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shape_asserts.asking.failure import redact_json
from shape_asserts.exceptions import ModelConfigError
from shape_asserts.fileio import read_text
from shape_asserts.text import single_line

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = [
    "ModelConfig",
    "Sent",
    "canonical",
    "check_argument",
    "describe_change",
    "nesting",
    "parse_model_args",
    "read_models_file",
    "read_pyproject",
    "resolve",
]

#: Largest models file read: far more configurations than any run asks.
MAX_MODELS_FILE_BYTES = 4 * 2**20

#: Keys the harness sets itself, each with what sets it instead.
RESERVED: dict[str, str] = {
    "model": "the litellm model is --model's, or a configuration's `model`",
    "messages": "the prompt is the case's",
    "timeout": "use --request-timeout",
    "request_timeout": "use --request-timeout",
    "api_base": "use --api-base",
    "base_url": "use --api-base",
    "metadata": "the harness uses it to number samples",
    "max_retries": "use --max-retries",
    "num_retries": "use --max-retries",
    "stream": "answers are read whole",
    "n": "use --samples: each sample is its own call",
    "candidate_count": "use --samples: each sample is its own call (Gemini would bill every candidate)",
    "best_of": "use --samples: each sample is its own call (a completions model would bill every answer it drew)",
    "fallbacks": "each call asks the one model it names (litellm would ask others inside it, unpriced and unrecorded)",
    "context_window_fallbacks": "each call asks the one model it names",
    "content_policy_fallbacks": "each call asks the one model it names",
    "mock_response": "answers come from the model (litellm would record its made-up text as one)",
    "mock_tool_calls": "answers come from the model",
    "mock_delay": "answers come from the model",
    "mock_timeout": "answers come from the model",
    "retry_policy": "use --max-retries (litellm would retry inside one call, uncounted and paid)",
    "retry_strategy": "use --max-retries",
    "model_list": "each call asks the one model it names (litellm would route it to another)",
    "context_window_fallback_dict": "each call asks the one model it names",
    "max_fallbacks": "each call asks the one model it names",
    "fallback_depth": "each call asks the one model it names",
    "custom_llm_provider": "the provider is the model name's prefix (another would be sent this run's keys)",
    "client": "the harness's client makes the call",
    "deployment_id": "the model is --model's, or a configuration's `model` (litellm would ask the deployment named, over Azure)",
    "model_id": "the model is --model's, or a configuration's `model` (litellm would ask the Bedrock model or "
    "inference profile named, priced as the one in `model`)",
}


def plain_name(key: str) -> str:
    """A key as a provider may spell it any way: ``candidateCount``, ``candidate_count`` and
    ``candidate-count`` are one name (litellm passes each provider's own spelling on as it is)."""
    return re.sub(r"[^a-z0-9]", "", key.lower())


#: :data:`RESERVED` by plain name (:func:`_plain_name`): Gemini's ``candidateCount`` is ``candidate_count``.
_RESERVED_BY_NAME = {plain_name(key): key for key in RESERVED}

#: Plain names of the arguments that have a call billed for several answers, refused at any depth
#: (Gemini's ``generationConfig.candidateCount`` inside ``extra_body``, Hugging Face's
#: ``parameters.best_of``), but inside a schema the model fills (:data:`SCHEMA_ARGUMENTS`).
_MULTIPLIES = frozenset({"n", "candidatecount", "bestof", "numreturnsequences"})
#: Arguments whose contents are schemas of the model's answer or tools, not settings of the call.
SCHEMA_ARGUMENTS = frozenset({"tools", "functions", "responseformat", "toolchoice"})

#: Keys that name a server (``aws_bedrock_runtime_endpoint``, ``vertex_ai_url``…): where a call goes
#: is ``--api-base``'s alone.
_ADDRESS_KEY = re.compile(r"(?i)(endpoint|_url|_uri|api_base|base_url)$")
#: Keys with an option of their own: refused in ``--model-arg``, allowed in a configuration.
OWN_OPTION: dict[str, str] = {"temperature": "--temperature", "max_tokens": "--max-tokens"}

#: A configuration's name: it goes into test ids (``<case>@<name>``), folder names and messages.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/+-]{0,99}")
#: A litellm keyword argument.
KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
#: Words that make a key (``api_key``, ``X-Api-Keys``, ``Authorization``, ``access_token``) a secret's
#: (not "tokens": ``max_tokens`` counts them).
_SECRET_WORDS = frozenset(
    {"key", "keys", "apikey", "apikeys", "secret", "secrets", "password", "passwords", "passwd", "pwd",
     "passphrase", "token", "auth", "authorization", "authorisation", "credential", "credentials",
     "bearer", "cookie", "cookies", "signature", "jwt", "pass", "passcode", "sessionid"}
)  # fmt: skip
#: ... and words that name a credential even run into others (``xapikey``, ``dbpassword``).
_SECRET_INFIXES = ("apikey", "password", "passwd", "secret", "credential", "authorization")
#: Values shaped like a credential, anywhere in the value: bearer, basic and token credentials,
#: OpenAI and Anthropic keys, GitHub, GitLab, Slack, Google (API keys and OAuth access tokens), AWS
#: (long-term and temporary key ids), Hugging Face, Groq, Replicate, Perplexity, xAI, NVIDIA,
#: Cerebras, Stripe, Together, Fireworks and Voyage keys, JSON web tokens, PEM private keys.
_SECRET_VALUE = re.compile(
    r"(?i)(\bbearer\s+\S|\bbasic\s+[a-z0-9+/=]{8,}|\btoken\s+[a-z0-9_.-]{20,}|\bsk-[a-z0-9_-]{6,}|\bgh[posu]_"
    r"|\bgithub_pat_|\bglpat-|\bxox[abpr]-|\bAIza[0-9a-z_-]{20,}|\bya29\.[0-9a-z_-]{20,}|\bA[KS]IA[0-9A-Z]{16}"
    r"|\bhf_[a-z0-9]{20,}|\bgsk_[a-z0-9]{20,}|\br8_[a-z0-9]{20,}|\bpplx-[a-z0-9]{20,}|\bxai-[a-z0-9]{20,}"
    r"|\bnvapi-[a-z0-9_-]{20,}|\bcsk-[a-z0-9]{20,}|\b[rs]k_(?:live|test)_[a-z0-9]{10,}|\btgp_v1_[a-z0-9_-]{20,}"
    r"|\bfw_[a-z0-9]{20,}|\bpa-[a-z0-9_-]{20,}|\beyJ[a-z0-9_-]{8,}\.eyJ[a-z0-9_-]{8,}\.|-----BEGIN [A-Z ]*PRIVATE KEY)"
)
#: Environment variables whose values are secrets (as :func:`~shape_asserts.asking.failure.redact` takes them).
_SECRET_ENV = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
#: Deepest nesting of an argument's value (``extra_body`` and the like are a level or two).
MAX_DEPTH = 16
#: Most characters a model's arguments take as JSON, all together: every results line, batch
#: state and recording carries them, and no provider argument needs more than a few hundred.
MAX_ARGS_CHARS = 65_536


@dataclass(frozen=True)
class ModelConfig:
    """One named configuration: the litellm model it asks and the arguments it sends."""

    name: str
    model: str
    #: Every other key of its table (``temperature`` and ``max_tokens`` included, when set).
    args: Mapping[str, Any] = field(default_factory=dict)
    #: Where it was defined, for messages: ``models.toml [models.NAME]``.
    source: str = ""


@dataclass(frozen=True)
class Sent:
    """What one model of a run is asked with: the litellm model and every argument of the call."""

    model: str
    temperature: float | None
    max_tokens: int | None
    #: The arguments beyond temperature and max_tokens, sorted by key.
    args: Mapping[str, Any] = field(default_factory=dict)


def resolve(
    name: str,
    configs: Mapping[str, ModelConfig],
    model_args: Mapping[str, Any],
    temperature: float | None,
    max_tokens: int | None,
) -> Sent:
    """What the run's model ``name`` is asked with: its configuration's keys over ``model_args``
    over ``temperature`` and ``max_tokens`` (the options').

    The reference drawers (``reference/*``) draw in-process and ignore arguments: none is sent to
    them, so their recordings answer any run's.
    """
    config = configs.get(name)
    model = config.model if config is not None else name
    merged = dict(model_args)
    if config is not None:
        merged.update(config.args)
    temperature = merged.pop("temperature", temperature)
    max_tokens = merged.pop("max_tokens", max_tokens)
    if model.startswith("reference/"):
        merged = {}
    return Sent(model=model, temperature=temperature, max_tokens=max_tokens, args=dict(sorted(merged.items())))


# --- --model-arg -------------------------------------------------------------------------------


def parse_model_args(items: Iterable[str], where: str) -> dict[str, Any]:
    """``KEY=VALUE`` items as arguments, later items winning; each value read as JSON where it
    parses (``0.5``, ``7``, ``true``, ``{"a": 1}``), else taken as a string (``high``).

    Raises
    ------
    ModelConfigError
        An item that is not ``KEY=VALUE``, a key the harness sets itself or one with an option of
        its own, or a secret (named, never shown).
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = str(item).partition("=")
        key = key.strip()
        if not sep or not KEY_RE.fullmatch(key):
            shown = repr(item) if not _looks_secret_value(str(item)) else "an argument that looks like a secret"
            raise ModelConfigError(
                f"{where} takes KEY=VALUE, a litellm argument and its value (top_p=0.5, seed=7, "
                f'reasoning_effort=high, extra_body={{"x": 1}}), got {shown}'
            )
        if key in OWN_OPTION:
            raise ModelConfigError(
                f"{where} {key}=…: {key} has an option of its own; use {OWN_OPTION[key]} "
                "(or set it in a configuration of --shape-models)"
            )
        if not raw.strip():
            raise ModelConfigError(f"{where} {key}= has no value; give one, as in {key}=0.5 or {key}=high")
        value = _json_or_text(raw)
        check_argument(key, value, f"{where} {key}")
        out[key] = value
    _check_size(out, where)
    return out


def _json_or_text(raw: str) -> Any:
    """``raw`` as JSON where it parses to a finite value, else the string itself."""
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return raw


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number")  # NaN, Infinity: kept as the text


# --- checks ------------------------------------------------------------------------------------


def check_argument(key: str, value: Any, where: str) -> None:
    """Refuse an argument the harness sets itself, a value JSON cannot carry, or a secret.

    ``where`` names the argument in the message (``--model-arg api_key``, ``models.toml
    [models.x] extra_body``). A secret's value is never shown.

    Raises
    ------
    ModelConfigError
        Saying what is wrong and what to do instead.
    """
    if key in RESERVED:
        raise ModelConfigError(f"{where}: {key} is set by the harness, not as an argument; {RESERVED[key]}")
    if _ADDRESS_KEY.search(key):
        raise ModelConfigError(
            f"{where}: {key} names where the call goes, which is --api-base's (the run judges and masks "
            "that address; litellm would send the call, and its keys, to this one)"
        )
    reserved = _RESERVED_BY_NAME.get(plain_name(key))  # (spelled another way: candidateCount)
    if reserved is not None:
        raise ModelConfigError(f"{where}: {key} is set by the harness, not as an argument; {RESERVED[reserved]}")
    if key == "extra_body" and isinstance(value, Mapping):  # its keys join the request's body as they are
        for inner in value:
            reserved = _RESERVED_BY_NAME.get(plain_name(str(inner)))
            if reserved is not None:
                raise ModelConfigError(
                    f"{where}: extra_body.{inner} is set by the harness, not as an argument; {RESERVED[reserved]}"
                )
    _check_value(key, value, where, [key], 0)


def _check_value(key: str, value: Any, where: str, path: list[str], depth: int) -> None:
    shown = ".".join(path)
    if depth > MAX_DEPTH:
        raise ModelConfigError(
            f"{where}: {shown} nests deeper than {MAX_DEPTH} levels; no provider argument needs that"
        )
    if _looks_secret_key(key):
        raise ModelConfigError(_secret_message(where, shown, "its name is a credential's"))
    in_schema = any(plain_name(part) in SCHEMA_ARGUMENTS for part in path[:-1])
    if plain_name(key) in _MULTIPLIES and not in_schema:
        raise ModelConfigError(
            f"{where}: {shown} has a call billed for several answers while one is recorded and held against "
            "--max-cost; use --samples: each sample is its own call"
        )
    if isinstance(value, str):
        if _looks_secret_value(value):
            raise ModelConfigError(_secret_message(where, shown, "its value looks like a key or token"))
    elif isinstance(value, bool) or value is None or isinstance(value, int):
        pass
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ModelConfigError(f"{where}: {shown} is {value}, which JSON cannot send; give a finite number")
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _check_value(str(k), v, where, [*path, str(k)], depth + 1)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_value("", v, where, [*path, str(i)], depth + 1)
    else:
        raise ModelConfigError(
            f"{where}: {shown} is a {type(value).__name__}; an argument is a string, number, boolean, "
            "array or table (a date is written as a string)"
        )


def _looks_secret_key(key: str) -> bool:
    """Whether a key names a credential: one of its words (``api_key`` → api, key) is a secret's."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key)  # apiKey → api Key
    words = {w.lower().rstrip("0123456789") for w in re.split(r"[^A-Za-z0-9]+", spaced) if w}  # KEY2 → key
    joined = re.sub(r"[^a-z0-9]", "", key.lower())
    return bool(words & _SECRET_WORDS) or joined in _SECRET_WORDS or any(w in joined for w in _SECRET_INFIXES)


def _looks_secret_value(value: str) -> bool:
    """Whether a string is shaped like a credential, or holds a secret environment variable's value."""
    if _SECRET_VALUE.search(value):
        return True
    return any(
        secret and len(secret) >= 8 and _SECRET_ENV.search(name) and secret in value
        for name, secret in os.environ.items()
    )


def _secret_message(where: str, shown: str, why: str) -> str:
    what = "refused" if where.endswith(f" {shown}") else f"refused {shown}"  # not "api_key: refused api_key"
    return (
        f"{where}: {what}, since {why}; arguments are written into every recording, and a "
        "secret never is: set it in the environment instead (OPENAI_API_KEY, ANTHROPIC_API_KEY…), "
        "where litellm reads it"
    )


# --- configuration files -----------------------------------------------------------------------


def read_models_file(path: Path) -> dict[str, ModelConfig]:
    """The configurations of a ``--shape-models`` file: its ``[models.NAME]`` tables.

    Raises
    ------
    ModelConfigError
        The file cannot be read or parsed, holds anything but ``[models.NAME]`` tables, or a table
        is not a configuration (named, with the fix).
    """
    doc = _load_toml(path, f"--shape-models file {path}")
    unknown = sorted(set(doc) - {"models"})
    if unknown:
        raise ModelConfigError(
            f"--shape-models file {path}: unknown top-level key(s) {', '.join(unknown)}; "
            'the file holds only [models.NAME] tables, each with model = "<litellm model>"'
        )
    return _configs(doc.get("models", {}), str(path), "models")


def read_pyproject(path: Path) -> dict[str, ModelConfig]:
    """The configurations of ``[tool.shape-asserts.models]`` in a ``pyproject.toml`` (none without one).

    Raises
    ------
    ModelConfigError
        As :func:`read_models_file`, naming the pyproject file.
    """
    if not path.is_file():
        return {}
    doc = _load_toml(path, f"{path}")
    tool = doc.get("tool", {})
    ours = tool.get("shape-asserts", {}) if isinstance(tool, dict) else {}
    if not isinstance(ours, dict):
        raise ModelConfigError(f"{path}: [tool.shape-asserts] must be a table")
    for key in ours:  # a misspelt table would leave a configuration unread, and its model asked bare
        if key != "models":
            raise ModelConfigError(
                f"{path}: [tool.shape-asserts] holds an unknown key {key!r}; it holds [tool.shape-asserts.models.NAME] tables"
            )
    return _configs(ours.get("models", {}), str(path), "tool.shape-asserts.models")


def _load_toml(path: Path, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path, MAX_MODELS_FILE_BYTES))
    except FileNotFoundError:
        raise ModelConfigError(f"{what} does not exist; name a TOML file of [models.NAME] tables") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelConfigError(f"{what} could not be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ModelConfigError(f"{what} is not valid TOML: {exc}; fix the line it names") from None
    except RecursionError:
        raise ModelConfigError(f"{what} nests its values too deep to read") from None


def _configs(tables: Any, source: str, prefix: str) -> dict[str, ModelConfig]:
    """Each ``[prefix.NAME]`` table of ``tables`` as a configuration."""
    if not isinstance(tables, dict):
        raise ModelConfigError(f"{source}: {prefix} must be tables, written [{prefix}.NAME]")
    out = {}
    for name, table in tables.items():
        where = f"{source} [{prefix}.{name}]"
        if not NAME_RE.fullmatch(name):
            raise ModelConfigError(
                f"{where}: a configuration's name is letters, digits and . _ : / + - (at most 100, starting "
                f"with a letter or digit), since it goes into test ids and folder names; rename it"
            )
        if not isinstance(table, dict):
            raise ModelConfigError(f'{where} must be a table, written [{prefix}.{name}] with model = "..." under it')
        out[name] = _config(name, table, where)
    return out


def _config(name: str, table: dict[str, Any], where: str) -> ModelConfig:
    model = table.get("model")
    if not isinstance(model, str) or not model.strip():
        raise ModelConfigError(
            f'{where} has no model; add model = "<litellm model>" (gpt-4o, anthropic/..., openai/<name>)'
        )
    if "/" in name and model.strip() != name:
        # "reference/exact" asking reference/noisy: its results, its gate line and its recordings
        # (in the real model's folder, rewritten as stale) would pass for that model's
        raise ModelConfigError(
            f"{where}: a configuration named like a model (provider/name) must ask that model, not "
            f"{model.strip()}; name it without a '/' (as in {name.replace('/', '-')}-as-{model.strip().split('/')[-1]})"
        )
    args = {k: v for k, v in table.items() if k != "model"}
    for key, value in args.items():
        if key == "temperature" and not _number_in(value, 0, 2):
            raise ModelConfigError(f"{where}: temperature must be a number from 0 to 2, got {value!r}")
        if key == "max_tokens" and not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
            raise ModelConfigError(f"{where}: max_tokens must be a whole number ≥ 1, got {value!r}")
        check_argument(key, value, f"{where} {key}")
    _check_size(args, where)
    return ModelConfig(name=name, model=model.strip(), args=args, source=where)


def _check_size(args: Mapping[str, Any], where: str) -> None:
    size = len(json.dumps(args, ensure_ascii=False))
    if size > MAX_ARGS_CHARS:
        raise ModelConfigError(
            f"{where}: the arguments take {size:,} characters as JSON, over {MAX_ARGS_CHARS:,}: each result, "
            "state and recording carries them, and no provider argument needs that many"
        )


def _number_in(value: Any, low: float, high: float) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and low <= value <= high
    )


# --- recordings --------------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """``value`` as compact JSON with sorted keys, redacted as a recording is written: how two
    argument sets are compared and shown (``true`` is not ``1``, as it would be in Python, but
    ``1.0`` is ``1``, the one number a provider reads; a password in a URL is ``[REDACTED]`` on both
    sides, as the recording keeps no more of it, so the arguments a run sends still match what it
    recorded)."""
    return json.dumps(redact_json(_whole_numbers(value)), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _whole_numbers(value: Any) -> Any:
    """``value`` with every float that is a whole number made an int (``top_p=1.0`` is ``top_p=1``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_whole_numbers(v) for v in value]
    return value


#: Changed arguments a stale recording's message names one by one; the rest are counted.
MAX_CHANGES_SHOWN = 8


def describe_change(recorded: Mapping[str, Any], sent: Mapping[str, Any]) -> str:
    """How this run's arguments differ from a recording's, key by key (``top_p 0.9 → 0.5, seed 7 added``):
    keys and values printable and cut to 60 characters, at most :data:`MAX_CHANGES_SHOWN` of them (a recording's
    arguments are read from a file, however many and however long)."""

    def shown(key: str, value: Any) -> str:
        try:  # an argument no run may send (a key, a token: an old or tampered recording's) is not shown
            check_argument(key, value, key)
        except ModelConfigError:
            return "(a value not shown)"
        return single_line(canonical(value), 60)

    parts = []
    for key in sorted(set(recorded) | set(sent)):
        if key not in sent:
            parts.append(f"{single_line(key, 60)} {shown(key, recorded[key])} dropped")
        elif key not in recorded:
            parts.append(f"{single_line(key, 60)} {shown(key, sent[key])} added")
        elif canonical(recorded[key]) != canonical(sent[key]):
            parts.append(f"{single_line(key, 60)} {shown(key, recorded[key])} → {shown(key, sent[key])}")
    if len(parts) > MAX_CHANGES_SHOWN:
        parts[MAX_CHANGES_SHOWN:] = [f"and {len(parts) - MAX_CHANGES_SHOWN:,} more"]
    return ", ".join(parts)


def nesting(value: Any) -> int:
    """How deep a JSON value nests (a number or a string: 0), counted without recursion and no
    further than a level past ``MAX_DEPTH + 1``, the deepest an object of a run's arguments can be
    (:func:`check_argument` refuses a value nested past :data:`MAX_DEPTH`)."""
    deepest, left = 0, [(value, 0)]
    while left and deepest <= MAX_DEPTH + 1:
        item, depth = left.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            left.extend((inner, depth + 1) for inner in item.values())
        elif isinstance(item, list):
            left.extend((inner, depth + 1) for inner in item)
    return deepest
