"""The most a call can cost before it is made: what ``--max-cost`` holds for each call in flight.

The price of an answer is known only once it has come back (``call.py``: the tokens it says it
used at the asked model's list price); a cap checked against that alone is passed by every call
already in flight. So each call holds its worst case against the cap from when it is sent
(:class:`~shape_asserts.asking.asker.Asker`), reckoned here from the same list price.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from shape_asserts.asking import call

__all__ = ["worst_cost", "answer_limit", "ANSWER_LIMITS"]

#: Arguments that bound an answer's length, by provider: OpenAI's for reasoning models, Gemini's,
#: Hugging Face's and Ollama's; litellm passes each on as it is.
ANSWER_LIMITS = ("max_tokens", "max_completion_tokens", "max_output_tokens", "max_new_tokens", "num_predict")


def answer_limit(max_tokens: int | None, args: Mapping[str, Any]) -> int | None:
    """The longest answer a call may be sent for: the largest of ``max_tokens`` and every limit
    the call's arguments set (:data:`ANSWER_LIMITS`, also inside ``extra_body``), ``None`` when
    none is set. The largest, because which one a server obeys is the server's choice: a
    ``max_completion_tokens=32768`` set beside ``--max-tokens`` 4096 let 16 calls in flight spend
    twice a ``--max-cost``."""
    found = [max_tokens]
    for where in (args, args.get("extra_body")):
        if isinstance(where, Mapping):
            found += [where.get(key) for key in ANSWER_LIMITS]
    limits = [n for n in found if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    return max(limits) if limits else None


def worst_cost(
    model: str, messages: list[dict[str, str]], max_tokens: int | None, args: Mapping[str, Any] | None = None
) -> float | None:
    """The most one call can cost in USD, or ``None`` when litellm has no price for the model.

    Every byte of the prompt, and of the arguments sent with it (``args``: a model reads and
    bills tool definitions as prompt), is counted a token (a token is at least a byte) and the answer is as
    long as ``max_tokens`` (else the model's own limit) allows, each at the costliest price litellm
    lists for the model (any tier, speed, region or context length), with the costliest fee a
    call may add: a bound, never an estimate, so that ``--max-cost`` holds whatever the calls in
    flight turn out to cost and whatever tier their arguments ask (:class:`~.call.Prices`).
    """
    if model.startswith("reference/"):
        return 0.0  # drawn in-process
    # through the module: a test's stand-in for litellm (call.load_litellm patched) is the one asked
    prices = call.list_prices(call.load_litellm(), model)
    if prices is None:
        return None
    limits = [n for n in (max_tokens, prices.longest) if n]
    if not limits:
        return None
    prompt_bytes = sum(len(json.dumps(m, ensure_ascii=False).encode("utf-8")) for m in messages)
    if args:
        prompt_bytes += len(json.dumps(dict(args), ensure_ascii=False, default=str).encode("utf-8"))
    return prompt_bytes * prices.most_prompt + min(limits) * prices.most_answer + prices.per_call
