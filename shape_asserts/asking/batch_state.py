"""A batch's lasting state and its rows: what ``--batch`` keeps on disk and reads back from the provider.

:class:`BatchState` is the file a submitted batch leaves beside a model's recordings
(``.batch.json``: the batch id, the input file id, when it was made, the provider and server it was
sent to, and which model × case × language × sample each request asks; never a key, and the
server only as ``scheme://host:port``), written atomically, so that a killed run resumes the batch
instead of submitting another. It is read back as untrusted input (:meth:`BatchState.read`):
anyone who can write the fixtures folder can write it, so every field is checked, and a state
made for another provider, model or server is refused before anything is sent (resuming it would
send this run's key there). :func:`row_answer` reads one line of a batch's output or error file as an
:class:`~shape_asserts.asking.call.Answer`, or as the provider's reason it has none.
"""

from __future__ import annotations

import json
import math
import re
import stat
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from shape_asserts.asking.call import Answer, _text, _tool_calls, redact
from shape_asserts.asking.failure import redact_json
from shape_asserts.asking.model_config import MAX_DEPTH, nesting
from shape_asserts.defaults import LANGS
from shape_asserts.exceptions import ShapeAssertsError
from shape_asserts.fileio import write_atomic
from shape_asserts.text import single_line

__all__ = [
    "STATE_NAME",
    "BatchState",
    "BatchUnavailable",
    "Expected",
    "Request",
    "checked_id",
    "is_delivered",
    "pending_requests",
    "one_line",
    "row_answer",
]

STATE_NAME = ".batch.json"
#: Longest reason kept for a failed row.
MAX_REASON = 300
#: Largest state file read: a batch of tens of thousands of requests is a few megabytes.
MAX_STATE_BYTES = 64 * 1024 * 1024
#: A provider's file or batch id: it goes into request paths and onto the terminal, so nothing
#: that could leave the path (``/``, ``?``, ``..``) or move the cursor.
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,255}")
#: A case id, as :data:`shape_asserts.cases.model.CASE_ID_RE` allows it (not imported: the asking
#: process does without the families that module loads); a recording's file is named after it.
_CASE_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,99}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: Most samples of one case a state may name (a run asks ``--samples`` of each, a handful).
_MAX_SAMPLE = 10_000


class BatchUnavailable(ShapeAssertsError):
    """``--batch`` cannot go on: no batch interface for the model, or a batch state it must not trust."""


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
    #: The other arguments sent (``--model-arg``, a configuration's keys), as the recording keeps them.
    args: dict[str, Any] = field(default_factory=dict)
    #: The litellm model asked, when ``model`` names a configuration of another name.
    litellm_model: str | None = None

    @property
    def custom_id(self) -> str:
        return f"{self.model}/{self.case_id}/{self.lang}/{self.sample}"


@dataclass(frozen=True)
class Expected:
    """What a state must say to be resumed by this run: the run's model, provider and server."""

    model: str
    provider: str
    #: ``scheme://host:port`` of ``--api-base``; ``None`` for the provider's own address.
    server: str | None


@dataclass
class BatchState:
    """What a submitted batch is, kept on disk until its answers are recorded (never a secret)."""

    model: str
    provider: str
    requests: dict[str, Request]
    #: Where the batch was sent: ``scheme://host:port`` of ``--api-base``, or ``None`` (the provider's own).
    server: str | None = None
    input_file_id: str | None = None
    batch_id: str | None = None
    #: Whether a request to create the batch was sent (written just before it goes): with no
    #: ``batch_id``, its reply was lost, and the batch may exist.
    create_sent: bool = False
    created_at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))

    def text(self) -> str:
        """The state as written, masked as a recording is (:func:`~.failure.redact_json`: a password
        in a model argument's URL). The arguments kept are only compared as recordings compare
        them, masked; the batch is sent from the run's own."""
        doc = {k: v for k, v in asdict(self).items() if k != "requests"}
        doc["requests"] = [asdict(r) for r in self.requests.values()]
        return json.dumps(redact_json(doc), indent=1, ensure_ascii=False) + "\n"

    def write(self, path: Path) -> None:
        """Write :meth:`text` at ``path`` (atomically)."""
        write_atomic(path, self.text())

    @classmethod
    def read(cls, path: Path, expected: Expected) -> BatchState | None:
        """The state at ``path``, every field checked and matching ``expected``; ``None`` when there is none.

        Raises
        ------
        BatchUnavailable
            When the file exists but cannot be read, holds a field out of shape, or was made for
            another model, provider or server (a batch may be pending: nothing is submitted).
        """
        try:
            doc = _load(path)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise BatchUnavailable(
                f"the batch state {path} cannot be read ({one_line(exc)}); a batch it names may still be "
                "running: check the provider's batches, then delete the file and run again"
            ) from None
        try:
            state = _parse(doc)
        except (ValueError, TypeError, KeyError) as exc:
            raise BatchUnavailable(
                f"the batch state {path} is not one this program wrote ({one_line(exc)}); nothing is sent: "
                "check the provider's batches, then delete the file and run again"
            ) from None
        state._check(path, expected)
        return state

    def _check(self, path: Path, expected: Expected) -> None:
        """Refuse a state made for another model, provider or server: resuming it would send this
        run's key for ``expected.provider`` to a batch that is not this run's to fetch."""
        for what, theirs, ours in (
            ("model", self.model, expected.model),
            ("provider", self.provider, expected.provider),
            ("server", self.server or "the provider's own", expected.server or "the provider's own"),
        ):
            if theirs != ours:
                raise BatchUnavailable(
                    f"the batch state {path} names {what} {_shown(theirs)}, but this run's is {_shown(ours)}: "
                    "nothing is sent; run with the options that submitted it to resume it, or delete the file"
                )


def checked_id(value: object) -> str:
    """A file or batch id the provider sent, if it has an id's shape (it goes into paths and messages).

    Raises
    ------
    ValueError
        When it does not (a slash, a query, a control character...).
    """
    text = str(value)
    if not _ID.fullmatch(text):
        raise ValueError(f"the provider sent the id {_shown(text)}, which is not one")
    return text


def pending_requests(path: Path) -> frozenset[tuple[str, str, int]] | None:
    """The (case id, language, sample) of each request of the batch state at ``path``: empty when
    there is no state, ``None`` when one is there but cannot be read (a batch may be pending)."""
    try:
        state = _parse(_load(path))
    except FileNotFoundError:
        return frozenset()
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return frozenset((r.case_id, r.lang, r.sample) for r in state.requests.values())


def batch_id_at(path: Path) -> str | None:
    """The batch id the state at ``path`` names, ``None`` when it names none or cannot be read."""
    try:
        doc = _load(path)
    except (OSError, ValueError):
        return None
    found = doc.get("batch_id") if isinstance(doc, dict) else None
    return found if isinstance(found, str) else None


def _load(path: Path) -> Any:
    """The JSON document at ``path``: a regular file no larger than :data:`MAX_STATE_BYTES`."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > MAX_STATE_BYTES:
        raise ValueError(f"{info.st_size:,} bytes, over {MAX_STATE_BYTES:,}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:  # deep nesting: corrupt, as any other unreadable state
        raise ValueError("nested too deep to read") from None


def _parse(doc: Any) -> BatchState:
    """A state from its JSON document, every field of the expected type and shape (else ValueError)."""
    if not isinstance(doc, dict):
        raise ValueError("not a JSON object")
    unknown = set(doc) - {f for f in BatchState.__dataclass_fields__}
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(sorted(map(_shown, unknown)))}")
    model = _string(doc, "model", re.compile(r"[^\x00-\x1f\x7f]{1,300}"))
    server = doc.get("server")
    if server is not None:
        _string(doc, "server", re.compile(r"[a-z][a-z0-9+.-]*://[A-Za-z0-9.\[\]:-]{1,300}"))
    raw = doc["requests"]
    if not isinstance(raw, list) or not raw:
        raise ValueError("requests must be a non-empty list")
    requests: dict[str, Request] = {}
    for item in raw:
        req = _request(item, model)
        if req.custom_id in requests:
            raise ValueError(f"request {_shown(req.custom_id)} is named twice")
        requests[req.custom_id] = req
    created_at = _string(doc, "created_at", re.compile(r"[0-9T:+.\- Z]{10,40}"))
    datetime.fromisoformat(created_at)
    create_sent = doc.get("create_sent", False)
    if not isinstance(create_sent, bool):
        raise ValueError("create_sent must be true or false")
    return BatchState(
        model=model,
        provider=_string(doc, "provider", re.compile(r"[a-z0-9_]{1,50}")),
        requests=requests,
        server=server,
        input_file_id=_optional_id(doc, "input_file_id"),
        batch_id=_optional_id(doc, "batch_id"),
        create_sent=create_sent,
        created_at=created_at,
    )


def _request(item: Any, model: str) -> Request:
    """One request of a state: a case id that names a file inside the model's folder, and the rest in range."""
    if not isinstance(item, dict) or set(item) - set(Request.__dataclass_fields__):
        raise ValueError("a request is not an object of the expected fields")
    if item["model"] != model:
        raise ValueError(f"a request names model {_shown(item['model'])}, not the state's")
    case_id = _string(item, "case_id", _CASE_ID)  # never '/', '..' first, nor a control character
    if item["lang"] not in LANGS:
        raise ValueError(f"request of {case_id} has language {_shown(item['lang'])}, not one of {', '.join(LANGS)}")
    sample = item["sample"]
    if not _is_int(sample) or not 0 <= sample < _MAX_SAMPLE:
        raise ValueError(f"request of {case_id} has sample {_shown(sample)}")
    temperature, max_tokens = item.get("temperature"), item.get("max_tokens")
    if temperature is not None and not (isinstance(temperature, (int, float)) and math.isfinite(temperature)):
        raise ValueError(f"request of {case_id} has temperature {_shown(temperature)}")
    if max_tokens is not None and not (_is_int(max_tokens) and max_tokens > 0):
        raise ValueError(f"request of {case_id} has max_tokens {_shown(max_tokens)}")
    args, litellm_model = item.get("args", {}), item.get("litellm_model")
    if not isinstance(args, dict):
        raise ValueError(f"request of {case_id} has args {_shown(args)}, not an object")
    if nesting(args) > MAX_DEPTH + 1:  # (the object of arguments is one level; its values, as a run's)
        raise ValueError(f"request of {case_id} has args nested deeper than any argument may be ({MAX_DEPTH} levels)")
    if litellm_model is not None:
        _string(item, "litellm_model", re.compile(r"[^\x00-\x1f\x7f]{1,300}"))
    return Request(
        model=model,
        case_id=case_id,
        lang=item["lang"],
        sample=sample,
        prompt_sha256=_string(item, "prompt_sha256", _SHA256),
        temperature=None if temperature is None else float(temperature),
        max_tokens=max_tokens,
        args=args,
        litellm_model=litellm_model,
    )


def _string(doc: dict[str, Any], key: str, shape: re.Pattern[str]) -> str:
    value = doc[key]
    if not isinstance(value, str) or not shape.fullmatch(value):
        raise ValueError(f"{key} {_shown(value)} is not of the expected shape")
    return value


def _optional_id(doc: dict[str, Any], key: str) -> str | None:
    return None if doc.get(key) is None else _string(doc, key, _ID)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A value from the file as it may be shown: quoted, escaped (no control character reaches the
    terminal) and cut."""
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def one_line(text: object) -> str:
    """A provider's words as a run shows them: secrets masked, printable, on one line, bounded."""
    return single_line(redact(str(text)), MAX_REASON)


def is_delivered(row: dict[str, Any]) -> bool:
    """Whether a batch row holds a response with HTTP 200: an answer the provider counts as given
    (and charges for), whether or not its body can be read."""
    response = row.get("response")
    return isinstance(response, dict) and response.get("status_code") == 200


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
