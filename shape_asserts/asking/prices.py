"""Prices: what a model's calls cost, as litellm's price list has them.

Two figures come from here. Before a call is made, the most it can cost (:func:`worst_case`):
``--max-cost`` holds it for each call in flight (:class:`~shape_asserts.asking.asker.Asker`),
since a cap checked against answers alone is passed by every call already sent. After the call,
what its answer cost (:func:`answer_cost`): the tokens the reply says it used, at the list price
of the model asked, in the region billed.

litellm is passed in, never imported here: :mod:`~shape_asserts.asking.call` loads it.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shape_asserts.asking.model_config import SCHEMA_ARGUMENTS, plain_name

__all__ = [
    "ANSWER_LIMITS",
    "Prices",
    "answer_cost",
    "answer_limit",
    "billed_region",
    "list_prices",
    "litellms_figure",
    "provider_tools",
    "uncapped",
    "worst_case",
]

#: Arguments that bound an answer's length, by provider, as plain names (lower case, nothing but
#: letters and digits: ``maxTokens`` is ``max_tokens``): OpenAI's (for reasoning models too),
#: Gemini's, Hugging Face's, Ollama's, Bedrock's (Meta's ``max_gen_len``, Titan's
#: ``maxTokenCount``) and Anthropic's older one. litellm passes each on as it is, over its own.
ANSWER_LIMITS = frozenset(
    {"maxtokens", "maxcompletiontokens", "maxoutputtokens", "maxnewtokens", "numpredict", "maxgenlen",
     "maxtokencount", "maxtokenstosample"}
)  # fmt: skip


def answer_limit(max_tokens: int | None, args: Mapping[str, Any]) -> int | None:
    """The longest answer a call may be sent for: the largest of ``max_tokens`` and every limit
    the call's arguments set (:data:`ANSWER_LIMITS`, however spelled and at any depth, as
    ``extra_body.generationConfig.max_output_tokens``, but inside a schema), ``None`` when none is
    set. The largest, because which one a server obeys is the server's choice: a
    ``max_completion_tokens=32768`` set beside ``--max-tokens`` 4096 let 16 calls in flight spend
    twice a ``--max-cost``, and Bedrock's ``maxTokens`` replaced it."""
    limits = [n for n in [max_tokens, *_limits_in(args)] if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    return max(limits) if limits else None


def _limits_in(value: Any) -> list[Any]:
    """Every value under an answer-length key in ``value`` (a mapping or list, walked whole but
    for schemas)."""
    found: list[Any] = []
    if isinstance(value, Mapping):
        for key, inner in value.items():
            plain = plain_name(str(key))
            if plain in ANSWER_LIMITS:
                found.append(inner)
            elif plain not in SCHEMA_ARGUMENTS:
                found += _limits_in(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            found += _limits_in(inner)
    return found


@dataclass(frozen=True)
class Prices:
    """A model's prices in USD, as litellm's price list has them.

    ``prompt`` and ``answer`` are the list prices per token. A call may be billed above them: at
    a service tier (priority), a speed, a region or a context length of its own, and with a fee
    per call (a web search, a grounding query). ``most_prompt``, ``most_answer`` and
    ``per_call`` are the costliest of those the list has for the model, whatever the call's
    arguments, the per-token ones with every uplift it lists applied (fast mode, a region's,
    FedRAMP's): what a call's worst case is reckoned from, so that ``--max-cost`` holds however a
    provider spells its tiers."""

    prompt: float
    answer: float
    #: The list prices per token in each region the list prices apart (Bedrock's), by region.
    regional: Mapping[str, tuple[float, float]]
    most_prompt: float
    most_answer: float
    per_call: float
    #: The longest answer the model writes, as the list has it.
    longest: int | None
    #: What the model bills that no argument of a call bounds, else ``None``: a model that runs
    #: searches of its own, as many as it likes, and bills the pages it reads (its citation tokens).
    unbounded: str | None = None
    #: Whether litellm drops a call's ``max_tokens`` for the model (it takes neither that nor
    #: ``max_completion_tokens``, as v0's): its answers are as long as the model likes.
    drops_limit: bool = False


#: Each model's prices, read once per model (``None`` for a model litellm has no price for).
_PRICES: dict[str, Prices | None] = {}


def list_prices(litellm: Any, model: str) -> Prices | None:
    """``model``'s :class:`Prices` in ``litellm``'s price list, else ``None``."""
    if model not in _PRICES:
        _PRICES[model] = _read_prices(litellm, model)
    return _PRICES[model]


def _read_prices(litellm: Any, model: str) -> Prices | None:
    """``model``'s prices, ``None`` where litellm's table has no entry for it (for a name it does
    not list, litellm makes up an entry priced 0) or its entry prices it at nothing."""
    table = getattr(litellm, "model_cost", None)
    try:
        info = litellm.get_model_info(model)
    except Exception:  # not in litellm's price list
        return None
    if not isinstance(table, dict) or info.get("key") not in table:
        return None
    tiers = [tier for tier in info.get("tiered_pricing") or () if isinstance(tier, dict)]
    if tiers:  # priced by the prompt's length alone: the list price is the shortest prompts' tier
        listed = _list_price(min(tiers, key=_tier_start))
    else:
        listed = _list_price(info)
    if (
        listed is None or 0.0 in listed
    ):  # (a side priced at nothing, as a router's answers: no price a cap can count by)
        return None
    prompt, answer = listed
    by_region = _regional_entries(table, model)
    regional = {region: listed for region, entry in by_region.items() if (listed := _list_price(entry))}
    entries = [info, *by_region.values(), *tiers]
    longest = info.get("max_output_tokens")
    supported = info.get("supported_openai_params")
    searches_own = any(_priced([info], ("citation_cost_per_token",)))  # (Perplexity's deep research)
    uplift = math.prod(max(1.0, v) for v in _uplifts(info))
    return Prices(
        prompt=prompt,
        answer=answer,
        regional=regional,
        most_prompt=uplift * max([prompt, *_priced(entries, ("input_cost_per_token",))]),
        # (an answer in another kind, audio or image, asked by the call's arguments: priced apart)
        most_answer=uplift * max([answer, *_priced(entries, ("output_cost_per_",), per_token=True)]),
        per_call=sum(
            max(_priced([info], (key,)), default=0.0)
            for key in info
            if "cost_per_query" in key or "cost_per_request" in key
        ),
        longest=longest if isinstance(longest, int) and longest > 0 else None,
        drops_limit=isinstance(supported, list) and not {"max_tokens", "max_completion_tokens"} & set(supported),
        unbounded="searches of its own and the pages they read" if searches_own else None,
    )


def _regional_entries(table: Any, model: str) -> dict[str, dict]:
    """The model's entries by region in litellm's price table (``bedrock/<region>/<name>``,
    whatever route the model is named by: ``bedrock/converse/<name>``), by region; their prices
    may be higher than the model's own entry."""
    if "/" not in model or not isinstance(table, dict):
        return {}
    provider, name = model.split("/", 1)[0], model.rsplit("/", 1)[-1]
    return {
        key[len(provider) + 1 : -len(name) - 1]: entry
        for key, entry in table.items()
        if key.startswith(provider + "/")
        and key.endswith("/" + name)
        and len(key) > len(provider) + len(name) + 2  # (not the model's own entry)
        and isinstance(entry, dict)
    }


def _tier_start(tier: dict) -> float:
    """Where a tier of prices by prompt length begins, in prompt tokens (``range: [start, end]``)."""
    span = tier.get("range")
    if not isinstance(span, (list, tuple)) or not span:
        return math.inf
    try:
        return float(span[0])
    except (TypeError, ValueError):
        return math.inf


def _list_price(entry: Any) -> tuple[float, float] | None:
    """An entry's list price per prompt token and per answer token, when both are prices."""
    try:
        prompt, answer = float(entry["input_cost_per_token"]), float(entry["output_cost_per_token"])
    except (KeyError, TypeError, ValueError):
        return None
    return (prompt, answer) if all(math.isfinite(p) and p >= 0 for p in (prompt, answer)) else None


#: The keys of a price entry's ``provider_specific_entry`` that multiply its prices (Anthropic's
#: fast mode, its US-only inference); the entry's own ``*_uplift_multiplier*`` fields do too.
_UPLIFT_KEYS = ("fast", "us", "eu")


def _uplifts(info: Any) -> list[float]:
    """Every multiplier ``info`` lists for a call's price (none where its fields are ``None``)."""
    specific = info.get("provider_specific_entry")
    values = [specific.get(key) for key in _UPLIFT_KEYS] if isinstance(specific, dict) else []
    values += [value for key, value in info.items() if isinstance(key, str) and "uplift_multiplier" in key]
    numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return [v for v in numbers if math.isfinite(v) and v <= 100]


def _priced(entries: list[Any], prefixes: tuple[str, ...], *, per_token: bool = False) -> list[float]:
    """Every price in ``entries`` under a key starting with one of ``prefixes`` (a number, or
    each number of a table of them, as a search's cost by context size): finite and ≥ 0 only.
    ``per_token``: only the prices per token (``output_cost_per_audio_token``, not ``…_per_second``)."""
    found: list[Any] = []
    for entry in entries:
        for key, value in entry.items():
            if isinstance(key, str) and key.startswith(prefixes) and (not per_token or "token" in key):
                found += value.values() if isinstance(value, dict) else [value]
    numbers = [float(v) for v in found if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return [v for v in numbers if math.isfinite(v) and v >= 0]


def worst_case(prices: Prices, prompt_bytes: int, max_tokens: int | None, args_bytes: int = 0) -> float | None:
    """The most one call can cost in USD, or ``None`` when no answer length bounds it.

    Every byte sent is counted a token (a token is at least a byte), and the answer is as long as
    ``max_tokens`` (else the model's own limit) allows, each at the costliest price the list has
    for the model (any tier, speed, region or context length), with the costliest fee a call may
    add: a bound, never an estimate, so that ``--max-cost`` holds whatever the calls in flight
    turn out to cost and whatever tier their arguments ask. The prompt's bytes are priced as
    prompt; the arguments' (``args_bytes``) at the dearer of prompt and answer, since a provider
    may bill what they carry either way (tool definitions are read as prompt; a predicted output's
    rejected tokens are billed as answer).
    """
    # (the model's own longest answer alone where litellm drops the call's limit)
    limits = [n for n in (None if prices.drops_limit else max_tokens, prices.longest) if n]
    if not limits:
        return None
    prompt = prompt_bytes * prices.most_prompt + args_bytes * max(prices.most_prompt, prices.most_answer)
    return prompt + min(limits) * prices.most_answer + prices.per_call


def uncapped(prices: Prices | None, max_tokens: int | None, args: Mapping[str, Any], local: bool) -> str | None:
    """Why ``--max-cost`` cannot bound a call asked with ``max_tokens`` and ``args`` at these
    ``prices`` (``None`` for a model litellm lists no price for), else ``None``. A model without a
    price served on this machine or a private network (``local``) is taken to cost nothing; one
    with a price there is a paid model behind a proxy, and held as anywhere."""
    if prices is None:
        return (
            None
            if local
            else "litellm lists no price for it, or nothing for its prompts or its answers (a newer litellm may)"
        )
    if prices.unbounded:
        return f"it bills {prices.unbounded}, which no argument bounds"
    tools = provider_tools(args)
    if tools:
        return f"{', '.join(tools)} {'has' if len(tools) == 1 else 'have'} the provider run tools of its own, billed beyond the tokens"
    unknown = unaccounted(args)
    if unknown:
        one = len(unknown) == 1
        return (
            f"what {', '.join(unknown)} {'does' if one else 'do'} to a call's bill is not known to it (under "
            "--max-cost the arguments sent are sampling, answer limits, tools, reasoning and regions)"
        )
    if worst_case(prices, 0, max_tokens) is None:
        if prices.drops_limit:
            return "nothing bounds its answers' length: litellm drops --max-tokens for it and lists no longest answer"
        return "nothing bounds its answers' length: give --max-tokens"
    return None


#: The arguments whose effect on what a call is billed the worst case holds (plain names,
#: :func:`~.model_config.plain_name`): sampling and format, answer limits (:data:`ANSWER_LIMITS`:
#: the largest is held), tools (plain functions only, :func:`provider_tools`; their bytes held),
#: reasoning (bounded by the answer limit), regions (priced apart), answers in another kind (the
#: dearest kind is held), a predicted output (its bytes at the answer's price). Anything else may
#: change a bill in ways no price list says (a tier or a speed the list has no price for, a header
#: asking for another kind of service; every sweep of provider-native spellings found one), so
#: under ``--max-cost`` it is not sent.
ACCOUNTED_ARGUMENTS = ANSWER_LIMITS | frozenset(
    {"temperature", "topp", "topk", "minp", "seed", "stop", "stopsequences", "presencepenalty",
     "frequencypenalty", "repetitionpenalty", "logitbias", "logprobs", "toplogprobs", "responseformat",
     "tools", "toolchoice", "paralleltoolcalls", "functions", "functioncall", "reasoningeffort", "verbosity",
     "thinking", "user", "safetyidentifier", "safetysettings", "apiversion", "regionname", "awsregionname",
     "modalities", "audio", "prediction", "store", "promptcachekey", "extrabody"}
)  # fmt: skip


def unaccounted(args: Mapping[str, Any]) -> list[str]:
    """The arguments (and ``extra_body``'s keys) outside :data:`ACCOUNTED_ARGUMENTS`."""
    found = [str(key) for key in args if plain_name(str(key)) not in ACCOUNTED_ARGUMENTS]
    body = args.get("extra_body")
    if isinstance(body, Mapping):
        found += [
            f"extra_body.{key}" for key in body if plain_name(str(key)) not in ACCOUNTED_ARGUMENTS - {"extrabody"}
        ]
    return found


#: The keys of a function the model may call, as OpenAI's and Anthropic's formats spell it: a tool
#: with any other key is the provider's own (Gemini's code reads ``googleSearch`` from a tool
#: whatever its ``type`` says).
_FUNCTION_KEYS = frozenset({"name", "description", "parameters", "strict", "input_schema", "format", "cache_control"})


def provider_tools(args: Mapping[str, Any]) -> list[str]:
    """The arguments (also inside ``extra_body``) that have the provider run a tool of its own: a
    web search (``web_search_options``), or any tool or function but a plain function the model may
    call (Anthropic's ``web_search_*``, Gemini's ``googleSearch``, code execution), each billed by
    the use or by the pages it reads."""
    found = []
    for prefix, where in (("", args), ("extra_body.", args.get("extra_body"))):
        if not isinstance(where, Mapping):
            continue
        if "web_search_options" in where:
            found.append(prefix + "web_search_options")
        for key, plain in (("tools", _plain_tool), ("functions", _plain_function)):
            listed = where.get(key)
            if listed is not None and not (isinstance(listed, list) and all(plain(t) for t in listed)):
                found.append(prefix + key)
    return found


def _plain_tool(tool: Any) -> bool:
    """Whether ``tool`` is a function the model may call and nothing more (``{"type": "function",
    "function": {...}}``, OpenAI's custom tool, Anthropic's ``name`` and ``input_schema``)."""
    if not isinstance(tool, Mapping) or tool.get("type", "custom") not in ("function", "custom"):
        return False
    if not set(tool) <= _FUNCTION_KEYS | {"type", "function", "custom"}:
        return False
    return all(_plain_function(tool[key]) for key in ("function", "custom") if key in tool)


def _plain_function(function: Any) -> bool:
    """Whether ``function`` is a function's definition and nothing more."""
    return isinstance(function, Mapping) and set(function) <= _FUNCTION_KEYS


#: More than any one chat call costs, in USD: a figure above it is not believed.
MOST_COST_BELIEVED = 1_000.0


def litellms_figure(response: Any) -> float:
    """What litellm reckoned ``response`` cost (its ``response_cost``), 0 when it has none or one
    that is no price (not a number, negative, absurd)."""
    hidden = getattr(response, "_hidden_params", None)
    value = hidden.get("response_cost") if isinstance(hidden, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value) if math.isfinite(value) and 0 <= value <= MOST_COST_BELIEVED else 0.0


def answer_cost(prices: Prices, prompt_tokens: int, answer_tokens: int, region: str | None, figure: float) -> float:
    """What an answer cost: its tokens at the list price of the ``region`` billed (where the list
    prices it apart), raised to litellm's own ``figure`` where that is more. litellm's figure
    knows what a call was billed above the list price for (the tier the server says it served, a
    speed, a search's fee), but not the region: it goes by the model's base price, so it is scaled
    by the region's. It never lowers the cost: a hostile server's "cost": 0 counts nothing off."""
    per_prompt, per_answer = prices.regional.get(region or "", (prices.prompt, prices.answer))
    cost = prompt_tokens * per_prompt + answer_tokens * per_answer
    listed = prompt_tokens * prices.prompt + answer_tokens * prices.answer
    return max(cost, figure * (cost / listed if listed > 0 else 1.0))


def billed_region(args: Mapping[str, Any]) -> str | None:
    """The region a call is served and billed in, found in the order litellm looks for Bedrock's:
    the call's ``aws_region_name`` (or ``region_name``), ``AWS_REGION_NAME``, ``AWS_REGION``, then
    the AWS session's own (``AWS_DEFAULT_REGION``, the ``region`` of ``~/.aws/config``, read by
    boto3 where it is installed); else ``None``. (litellm reads a ``model_id`` ARN's region first:
    ``model_id`` is refused, :data:`~.model_config.RESERVED`.)"""
    for key in ("aws_region_name", "region_name"):
        if isinstance(args.get(key), str):
            return str(args[key])
    found = os.environ.get("AWS_REGION_NAME") or os.environ.get("AWS_REGION")
    return found or _session_region()


@functools.lru_cache(maxsize=1)
def _session_region() -> str | None:
    """The AWS session's region (``AWS_DEFAULT_REGION``, ``~/.aws/config``), as boto3 reads it
    (once: a session reads its files)."""
    try:
        import boto3  # type: ignore[import-untyped]  # litellm's Bedrock calls need it

        region = boto3.session.Session().region_name
    except Exception:
        return os.environ.get("AWS_DEFAULT_REGION") or None
    return region if isinstance(region, str) and region else None
