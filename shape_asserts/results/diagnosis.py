"""Diagnosis: one recorded answer → the drawing in it, or the one-line cause it is not one.

Said from the facts recorded with the answer, one message per cause, first cause first:

1. the model refused (``refused: <what it said>``);
2. the provider filtered it (``filtered (content_filter)``);
3. the answer was longer than a recording keeps (cut when recorded, its full length said);
4. otherwise the text is parsed — the content, or when the content is empty (or holds no drawing)
   the tool calls' arguments — with the finish reason, so that "cut at the token limit" is said
   only when the provider said so (:class:`~shape_asserts.geometry.drawing.TruncatedAnswer`) and
   broken JSON gets the decoder's own message with a caret excerpt
   (:class:`~shape_asserts.geometry.drawing.InvalidJSON`).

Each is a model's failure to draw: a failed sample, never an error of the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.asking.store import MAX_RECORDED_CHARS
from shape_asserts.exceptions import DrawingFormatError
from shape_asserts.geometry.drawing import Drawing, InvalidJSON, TruncatedAnswer, parse_drawing
from shape_asserts.text import single_line

__all__ = ["Reading", "read_answer", "RAISE_LIMIT"]

#: How to let a model write longer answers, as a cut answer's message says it.
RAISE_LIMIT = "raise it with --max-tokens (ini shape_max_tokens)"
#: Characters of a refusal quoted.
MAX_REFUSAL = 200


@dataclass(frozen=True)
class Reading:
    """What one answer is: its drawing, or why it is not one."""

    #: The text judged: the content, the tool call's arguments that held the drawing, or the refusal.
    text: str
    drawing: Drawing | None = None
    #: The one-line cause when it is not a drawing.
    error: str | None = None
    #: Where broken JSON broke: the text around it and a caret under it (two lines), or "".
    excerpt: str = ""
    #: The judged text's full length (before a cut when recorded).
    length: int = 0


def _said(text: str, limit: int = MAX_REFUSAL) -> str:
    """A model's words for a one-line message: printable, on one line, bounded."""
    return single_line(text, limit)


def read_answer(answer: RecordedAnswer | str) -> Reading:
    """The drawing in ``answer`` or the one-line cause it holds none; never raises for a bad answer."""
    if isinstance(answer, str):
        answer = RecordedAnswer(text=answer)
    if answer.refusal:
        return Reading(text=answer.refusal, error=f"refused: {_said(answer.refusal)}", length=len(answer.refusal))
    if answer.finish_reason == "content_filter":
        return Reading(
            text=answer.text,
            error="filtered (content_filter): the provider withheld the answer",
            length=len(answer.text),
        )
    tries = [("text", answer.text)] if answer.text.strip() or not answer.tool_arguments else []
    tries += [(f"tool_calls[{i}].arguments", a) for i, a in enumerate(answer.tool_arguments)]
    readings = [_read(answer, field, text) for field, text in tries]
    found = next((r for r in readings if r.drawing is not None), None)
    if found is not None:
        return found
    # the tool call is where a model that answers with one meant its drawing to be
    return readings[1] if len(readings) > 1 and tries[0][0] == "text" else readings[0]


def _read(answer: RecordedAnswer, field: str, text: str) -> Reading:
    where = "" if field == "text" else "tool call: "
    full = answer.cut_from.get(field)
    if full is not None:
        return Reading(
            text=text,
            error=f"{where}answer is {full:,} characters long; a recording keeps the first "
            f"{MAX_RECORDED_CHARS:,}, so it was cut when recorded",
            length=full,
        )
    try:
        drawing = parse_drawing(text, finish_reason=answer.finish_reason)
    except TruncatedAnswer as exc:
        if exc.by_limit:
            error = _cut_by_limit(answer, str(exc))
        else:
            error = f"{exc}; if a token limit cut it, {RAISE_LIMIT}"
        return Reading(text=text, error=where + error, length=len(text))
    except InvalidJSON as exc:
        return Reading(text=text, error=where + str(exc), excerpt=exc.excerpt, length=len(text))
    except DrawingFormatError as exc:
        return Reading(text=text, error=where + str(exc), length=len(text))
    return Reading(text=text, drawing=drawing, length=len(text))


def _cut_by_limit(answer: RecordedAnswer, message: str) -> str:
    """Why an answer the provider cut (``finish_reason=length``) was cut, naming the limit it hit.

    ``--max-tokens`` is advised only where it can help: when the answer used every token it
    allowed, when none was sent, or when the reply says nothing of its usage. An answer that
    stopped short of it while its prompt and answer filled the server's context window (a local
    server started with a small one: 639 + 1,409 = 2,048) needs a larger window instead.
    """
    limit = answer.max_tokens
    prompt = answer.usage.get("prompt_tokens")
    written = answer.usage.get("completion_tokens")
    if limit is None or written is None or written >= limit:
        said = f"the token limit of {limit:,}" if limit else "the provider's token limit"
        return message.replace("the token limit", said, 1) + f"; {RAISE_LIMIT}"
    cut = message.replace("at the token limit", "at the server's context window", 1)
    if prompt is None:
        used = f"the answer has {written:,} tokens, short of --max-tokens {limit:,}"
    else:
        used = f"prompt {prompt:,} + answer {written:,} = {prompt + written:,} tokens, the answer short of --max-tokens {limit:,}"
    return f"{cut}: {used}; {CONTEXT_HINT}"


#: What an answer cut by the server's context window says to do (``--max-tokens`` cannot help).
CONTEXT_HINT = "a larger --max-tokens cannot help: give the server a larger context window (llama.cpp: --ctx-size)"
