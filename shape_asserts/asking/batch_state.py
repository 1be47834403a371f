"""A batch's lasting state and its rows: what ``--batch`` keeps on disk and reads back from the provider.

:class:`BatchState` is the file a submitted batch leaves beside a model's recordings
(``.batch.json``: the batch id, the input file id, when it was made and which model × case ×
language × sample each request asks; never a key or a URL), written atomically, so that a killed
run resumes the batch instead of submitting another. :func:`row_answer` reads one line of a
batch's output or error file as an :class:`~shape_asserts.asking.call.Answer`, or as the
provider's reason it has none.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from shape_asserts.asking.call import Answer, _text, _tool_calls, redact
from shape_asserts.exceptions import ShapeAssertsError
from shape_asserts.fileio import write_atomic

__all__ = ["STATE_NAME", "BatchState", "BatchUnavailable", "Request", "one_line", "row_answer"]

STATE_NAME = ".batch.json"
#: Longest reason kept for a failed row.
MAX_REASON = 300


class BatchUnavailable(ShapeAssertsError):
    """``--batch`` was asked of a model whose provider has no batch interface litellm can drive."""


@dataclass(frozen=True)
class Request:
    """One line of a batch: which model × case × language × sample it asks, and for what prompt."""

    model: str
    case_id: str
    lang: str
    sample: int
    prompt_sha256: str
    temperature: float | None
    max_tokens: int | None = None

    @property
    def custom_id(self) -> str:
        return f"{self.model}/{self.case_id}/{self.lang}/{self.sample}"


@dataclass
class BatchState:
    """What a submitted batch is, kept on disk until its answers are recorded (never a secret)."""

    model: str
    provider: str
    requests: dict[str, Request]
    input_file_id: str | None = None
    batch_id: str | None = None
    created_at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))

    def write(self, path: Path) -> None:
        doc = {k: v for k, v in asdict(self).items() if k != "requests"}
        doc["requests"] = [asdict(r) for r in self.requests.values()]
        write_atomic(path, json.dumps(doc, indent=1) + "\n")

    @classmethod
    def read(cls, path: Path) -> BatchState | None:
        """The state at ``path``; ``None`` when there is none.

        Raises
        ------
        BatchUnavailable
            When the file exists but cannot be read (a batch may be pending: nothing is submitted).
        """
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            reqs = [Request(**r) for r in doc.pop("requests")]
            return cls(**doc, requests={r.custom_id: r for r in reqs})
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise BatchUnavailable(
                f"the batch state {path} cannot be read ({type(exc).__name__}); a batch it names may still be "
                "running: check the provider's batches, then delete the file and run again"
            ) from None


def one_line(text: object) -> str:
    one = " ".join(redact(str(text)).split())
    return one if len(one) <= MAX_REASON else one[: MAX_REASON - 1] + "…"


def row_answer(row: dict[str, Any]) -> Answer | str:
    """A batch output or error line as an :class:`Answer`, or the provider's reason it is none."""
    response = row.get("response") if isinstance(row.get("response"), dict) else None
    error = row.get("error")
    if isinstance(error, dict) and (response is None or response.get("status_code") != 200):
        return one_line(f"{error.get('code') or 'error'}: {error.get('message') or 'no reason given'}")
    if response is None:
        return "the provider's row has neither a response nor an error"
    status, body = response.get("status_code"), response.get("body")
    if status != 200 or not isinstance(body, dict):
        err = body.get("error") if isinstance(body, dict) else None
        message = err.get("message") if isinstance(err, dict) else body
        return one_line(f"HTTP {status}: {message}")
    try:
        choice = body["choices"][0]
        message = choice["message"]
        # every shape an answer comes in is kept, as a live call keeps it (call.py)
        text = _text(message.get("content")) or ""
        refusal = _text(message.get("refusal"))
        calls = message.get("tool_calls")
        tool_calls = _tool_calls(SimpleNamespace(tool_calls=calls if isinstance(calls, list) else None))
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        return one_line(f"the provider's answer could not be read ({type(exc).__name__}: {exc})")
    usage_doc = body.get("usage")
    usage_doc = usage_doc if isinstance(usage_doc, dict) else {}
    usage = {
        k: v
        for k, v in usage_doc.items()
        if k in ("prompt_tokens", "completion_tokens", "total_tokens")
        and isinstance(v, int)
        and not isinstance(v, bool)
    }
    model = body.get("model")
    return Answer(
        text=text,
        finish_reason=_text(choice.get("finish_reason")),
        usage=usage,
        latency_s=0.0,  # a batch times no single request
        response_model=model if isinstance(model, str) else None,
        refusal=refusal or None,
        tool_calls=tool_calls,
    )
