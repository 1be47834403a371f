"""The shapes the stub server's answers come in: how real models answer besides plain text.

A drawing as text (the default), as a tool call's arguments (``content: null``), a refusal, a
content-filter stop, or a fixed text with a fixed finish reason — each honouring ``max_tokens`` as a
real server does where it applies (:meth:`Shape.message`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CHARS_PER_TOKEN", "SHAPES", "Shape"]

#: How the server may answer: the drawing as text, as a tool call's arguments, a refusal, a
#: content-filter stop, or ``Shape.text`` verbatim with ``Shape.finish_reason``.
SHAPES = ("text", "tool_call", "refusal", "content_filter", "fixed")
#: Characters a token, for usage and for ``max_tokens``.
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Shape:
    """The shape of the server's answers (``kind`` from :data:`SHAPES`)."""

    kind: str = "text"
    #: ``fixed``: the answer's text; ``refusal``: what the model says instead of answering.
    text: str = "I can't help with that request."
    #: ``fixed``: the finish reason sent (``None``: none).
    finish_reason: str | None = "stop"

    def __post_init__(self) -> None:
        if self.kind not in SHAPES:
            raise ValueError(f"answer shape must be one of {', '.join(SHAPES)}, got {self.kind!r}")

    def message(self, drawing: str, max_tokens: int | None) -> tuple[dict[str, Any], str | None]:
        """The assistant message answering with ``drawing`` in this shape, and its finish reason."""
        if self.kind == "tool_call":
            call = {"id": "call_0", "type": "function", "function": {"name": "draw", "arguments": drawing}}
            return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        if self.kind == "refusal":
            return {"role": "assistant", "content": None, "refusal": self.text}, "stop"
        if self.kind == "content_filter":
            return {"role": "assistant", "content": None}, "content_filter"
        text, finish = (self.text, self.finish_reason) if self.kind == "fixed" else (drawing, "stop")
        if max_tokens is not None and len(text) > max_tokens * CHARS_PER_TOKEN:
            text, finish = text[: max_tokens * CHARS_PER_TOKEN], "length"
        return {"role": "assistant", "content": text}, finish
