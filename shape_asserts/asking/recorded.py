"""A recorded answer as the verdict reads it: every shape the model answered in, and the facts
that say why it ended.

A fixture's sample is a JSON object (:func:`~shape_asserts.asking.store.sample_record` writes it);
:meth:`RecordedAnswer.from_sample` reads one back. Every field but ``text`` is optional, so
recordings made before a field existed read as they always did: a text, no refusal, no tool call,
the finish reason if one was kept, nothing cut.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RecordedAnswer"]


@dataclass(frozen=True)
class RecordedAnswer:
    """One answer as recorded: its text and what else the model said, and why it ended."""

    text: str
    #: Why the provider says the answer ended (``"stop"``, ``"length"``, ``"content_filter"``…).
    finish_reason: str | None = None
    #: What the model said instead of answering, when it refused.
    refusal: str | None = None
    #: Each tool call's arguments, as the model wrote them (a drawing may come this way).
    tool_arguments: tuple[str, ...] = ()
    #: Fields cut when recorded, with their length before the cut (``{"text": 1048576}``).
    cut_from: Mapping[str, int] = field(default_factory=dict)
    #: The token limit the answer was asked with (``None``: none sent, or not known).
    max_tokens: int | None = None
    #: The tokens the reply says it used (``prompt_tokens``, ``completion_tokens``), where it said.
    usage: Mapping[str, int] = field(default_factory=dict)
    #: What litellm priced the call at, in US dollars, where it could (``None``: not priced).
    cost_usd: float | None = None

    @classmethod
    def from_sample(cls, sample: Mapping[str, Any], max_tokens: int | None = None) -> RecordedAnswer:
        """Read a fixture's sample; optional fields of the wrong type are taken as absent."""

        def text_or_none(value: Any) -> str | None:
            return value if isinstance(value, str) and value else None

        calls = sample.get("tool_calls")
        arguments = (
            tuple(c["arguments"] for c in calls if isinstance(c, dict) and isinstance(c.get("arguments"), str))
            if isinstance(calls, list)
            else ()
        )
        cut = sample.get("cut_from")
        cut_from = (
            {str(k): v for k, v in cut.items() if isinstance(v, int) and not isinstance(v, bool)}
            if isinstance(cut, dict)
            else {}
        )
        used = sample.get("usage")
        usage = {k: v for k, v in used.items() if isinstance(k, str) and _count(v)} if isinstance(used, dict) else {}
        return cls(
            text=str(sample.get("text", "")),
            finish_reason=text_or_none(sample.get("finish_reason")),
            refusal=text_or_none(sample.get("refusal")),
            tool_arguments=arguments,
            cut_from=cut_from,
            max_tokens=max_tokens,
            usage=usage,
            cost_usd=_cost(sample.get("cost_usd")),
        )


def _cost(value: Any) -> float | None:
    """A recorded price: a finite number ≥ 0, else ``None`` (not priced, or not a price)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    return None


def _count(value: Any) -> bool:
    """Whether ``value`` is a token count (a whole number ≥ 0, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
