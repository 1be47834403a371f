"""The stub server's OpenAI batch endpoints: files in, a batch that moves through its states, files out.

``POST /v1/files`` (multipart, ``purpose=batch``) stores a JSONL file of chat-completion requests;
``POST /v1/batches`` submits one (counted: :attr:`BatchBook.submissions`); ``GET
/v1/batches/{id}`` reports it ``validating``, then ``in_progress``, then — after
:attr:`BatchPlan.polls` polls — ``completed`` (or ``expired`` / ``failed``), with an output file
of answers and an error file of the rows that failed; ``GET /v1/files/{id}/content`` returns a
file; ``GET /v1/batches`` lists them. Answers are the reference drawers', as the chat endpoint's
(the n-th request for a prompt is its sample n).

What goes wrong is configured by :class:`BatchPlan`: rows whose ``custom_id`` contains one of
``fail_matching`` fail with ``fail_status`` and ``fail_message``; ``expire_after`` answers that
many rows and lets the batch expire with the rest unrun; ``fail_batch`` fails the whole batch at
validation with that message; ``lose_creates`` makes batches whose creation reply is lost (a 500,
after a stall); ``output`` serves a finished batch's answers as an HTML page or not at all; and
``hold_uploads`` holds an upload until the test lets it go.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from shape_asserts.asking.reference import answer_for_messages

__all__ = ["BatchBook", "BatchPlan", "route"]


@dataclass
class BatchPlan:
    """How the stub's batches behave."""

    #: Polls (``GET /v1/batches/{id}``) before the batch ends; the first moves it to in_progress.
    polls: int = 2
    fail_matching: tuple[str, ...] = ()
    fail_status: int = 400
    fail_message: str = "the stub refused this request"
    #: Rows answered before the batch expires; ``None``: it never does.
    expire_after: int | None = None
    #: Fail the whole batch at validation with this message.
    fail_batch: str | None = None
    #: Creates whose reply is lost after the batch is made: answered with a 500, after
    #: :attr:`create_stall` seconds (longer than the client waits plays a slow reply).
    lose_creates: int = 0
    create_stall: float = 0.0
    #: How a finished batch's answers come back: ``"rows"`` (a JSONL file), ``"html"`` (the output
    #: file's content is an HTML page) or ``"none"`` (polls report no output file id, the answers counted all the same).
    output: str = "rows"
    #: While set and not yet set free, an upload waits for it (a test holds a run mid-submission).
    hold_uploads: threading.Event | None = None
    #: Appended to a batch's id (a hostile provider's escape sequences).
    hostile_id: str = ""
    #: Every answer row twice in the output file, and counted twice ("completed: 6/3").
    duplicate_rows: bool = False
    #: The last answer rows left out of the output file: ``drop_rows`` uncounted (the provider's
    #: report agrees with its files), ``hide_rows`` still counted as completed (it does not).
    drop_rows: int = 0
    hide_rows: int = 0
    #: Requests whose ``custom_id`` holds one of these come back with HTTP 200 and no choice in the
    #: body (an answer delivered, counted and charged, that cannot be read).
    empty_matching: tuple[str, ...] = ()


@dataclass
class BatchBook:
    """The stub's files and batches, and what it was asked."""

    plan: BatchPlan = field(default_factory=BatchPlan)
    lock: threading.Lock = field(default_factory=threading.Lock)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # id → (purpose, content)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)
    polls: Counter = field(default_factory=Counter)  # batch id → polls
    #: ``POST /v1/batches`` received.
    submissions: int = 0
    uploads: int = 0
    #: Uploads received, counted as they arrive (before a held one is answered).
    uploads_started: int = 0
    #: Rows answered (not failed) across every batch.
    answered_rows: int = 0
    answered: Counter = field(default_factory=Counter)  # prompt sha → answers given

    def _id(self, prefix: str) -> str:
        return f"{prefix}-{len(self.files) + len(self.batches) + 1:06d}"

    # --- endpoints --------------------------------------------------------------------------

    def upload(self, content_type: str, body: bytes) -> tuple[int, dict[str, Any]]:
        msg = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        fields: dict[str, tuple[str | None, bytes]] = {}
        for part in msg.iter_parts() if msg.is_multipart() else ():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if isinstance(name, str) and isinstance(payload, bytes):
                fields[name] = (part.get_filename(), payload)
        if "file" not in fields:
            return 400, _error("a multipart body with a 'file' part is required")
        purpose = fields.get("purpose", (None, b"batch"))[1].decode()
        with self.lock:
            self.uploads_started += 1
        if self.plan.hold_uploads is not None:
            self.plan.hold_uploads.wait()
        with self.lock:
            self.uploads += 1
            file_id = self._id("file")
            self.files[file_id] = (purpose, fields["file"][1])
        return 200, _file(file_id, purpose, fields["file"][0] or "upload.jsonl", len(fields["file"][1]))

    def submit(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        file_id = str(body.get("input_file_id", ""))
        with self.lock:
            if file_id not in self.files:
                return 404, _error(f"no file {file_id!r}")
            self.submissions += 1
            batch_id = self._id("batch") + self.plan.hostile_id
            lines = [line for line in self.files[file_id][1].decode().splitlines() if line.strip()]
            self.batches[batch_id] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": str(body.get("endpoint", "/v1/chat/completions")),
                "errors": None,
                "input_file_id": file_id,
                "completion_window": str(body.get("completion_window", "24h")),
                "status": "validating",
                "output_file_id": None,
                "error_file_id": None,
                "created_at": int(time.time()),
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
                "metadata": body.get("metadata"),
            }
            lose = self.plan.lose_creates > 0
            self.plan.lose_creates -= lose
            made = dict(self.batches[batch_id])
        if lose:
            time.sleep(self.plan.create_stall)
            return 500, _error("the stub made this batch and lost the reply")
        return 200, made

    def retrieve(self, batch_id: str) -> tuple[int, dict[str, Any]]:
        with self.lock:
            batch = self.batches.get(batch_id)
            if batch is None:
                return 404, _error(f"no batch {batch_id!r}")
            self.polls[batch_id] += 1
            if batch["status"] in ("validating", "in_progress"):
                if self.plan.fail_batch is not None:
                    batch["status"] = "failed"
                    batch["errors"] = {"object": "list", "data": [{"code": "invalid", "message": self.plan.fail_batch}]}
                elif self.polls[batch_id] >= self.plan.polls:
                    self._run(batch)
                else:
                    batch["status"] = "in_progress"
            reply = dict(batch)
            if self.plan.output == "none":
                reply["output_file_id"] = None
            return 200, reply

    def listing(self) -> tuple[int, dict[str, Any]]:
        with self.lock:
            data = [dict(b) for b in reversed(list(self.batches.values()))]
        return 200, {"object": "list", "data": data, "has_more": False}

    def content(self, file_id: str) -> bytes | None:
        with self.lock:
            found = self.files.get(file_id)
        if found is not None and found[0] == "batch_output" and self.plan.output == "html":
            return b"<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>\n"
        return None if found is None else found[1]

    # --- running a batch --------------------------------------------------------------------

    def _run(self, batch: dict[str, Any]) -> None:
        """Answer every row (the lock is held): output and error files, counts, final status."""
        out, err = [], []
        lines = self.files[batch["input_file_id"]][1].decode().splitlines()
        expired = False
        for n, line in enumerate(ln for ln in lines if ln.strip()):
            row = json.loads(line)
            custom_id = str(row.get("custom_id"))
            if self.plan.expire_after is not None and n >= self.plan.expire_after:
                expired = True
                err.append(
                    _row(
                        custom_id,
                        None,
                        {
                            "code": "batch_expired",
                            "message": "This request could not be executed before the completion window expired.",
                        },
                    )
                )
                continue
            if any(s in custom_id for s in self.plan.fail_matching):
                status = self.plan.fail_status
                err.append(
                    _row(
                        custom_id,
                        {"status_code": status, "request_id": f"req-{n}", "body": _error(self.plan.fail_message)},
                        None,
                    )
                )
                continue
            body = self._answer(row.get("body") or {})
            if any(s in custom_id for s in self.plan.empty_matching):
                body["choices"] = []
            out.append(_row(custom_id, {"status_code": 200, "request_id": f"req-{n}", "body": body}, None))
        self.answered_rows += len(out)
        if self.plan.duplicate_rows:
            out += out
        out = out[: len(out) - self.plan.drop_rows] if self.plan.drop_rows else out
        counts = batch["request_counts"]
        counts["completed"], counts["failed"] = len(out), len(err)
        out = out[: len(out) - self.plan.hide_rows] if self.plan.hide_rows else out
        batch["status"] = "expired" if expired else "completed"
        batch[f"{batch['status']}_at"] = int(time.time())
        for kind, rows in (("output", out), ("error", err)):
            if rows:
                file_id = self._id("file")
                self.files[file_id] = (f"batch_{kind}", "".join(json.dumps(r) + "\n" for r in rows).encode())
                batch[f"{kind}_file_id"] = file_id

    def _answer(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body.get("messages") or []
        model = str(body.get("model", "exact"))
        prompt = json.dumps(messages, sort_keys=True, ensure_ascii=False)
        key = hashlib.sha256(prompt.encode()).hexdigest()
        sample = self.answered[key]
        self.answered[key] += 1
        text = answer_for_messages("noisy" if model.endswith("noisy") else "exact", messages, sample)
        prompt_tokens = len(prompt) // 4
        return {
            "id": f"chatcmpl-{key[:12]}-{sample}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(text) // 4,
                "total_tokens": prompt_tokens + len(text) // 4,
            },
        }


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error"}}


def _file(file_id: str, purpose: str, name: str, size: int) -> dict[str, Any]:
    return {
        "id": file_id,
        "object": "file",
        "bytes": size,
        "created_at": int(time.time()),
        "filename": name,
        "purpose": purpose,
        "status": "processed",
    }


def _row(custom_id: str, response: dict[str, Any] | None, error: dict[str, Any] | None) -> dict[str, Any]:
    return {"id": f"batch_req_{custom_id}", "custom_id": custom_id, "response": response, "error": error}


def route(book: BatchBook, method: str, path: str, headers: Any, body: bytes) -> tuple[int, Any] | None:
    """The reply to a batch or file request: ``(status, JSON body or raw bytes)``, or ``None`` when
    ``path`` is not one of these endpoints."""
    parts = [p for p in path.split("?")[0].split("/") if p]
    if parts[:1] == ["v1"]:
        parts = parts[1:]
    if method == "POST" and parts == ["files"]:
        return book.upload(headers.get("Content-Type", ""), body)
    if method == "POST" and parts == ["batches"]:
        try:
            doc = json.loads(body or b"{}")
        except ValueError:
            return 400, _error("the body must be JSON")
        return book.submit(doc if isinstance(doc, dict) else {})
    if method == "GET" and parts == ["batches"]:
        return book.listing()
    if method == "GET" and len(parts) == 2 and parts[0] == "batches":
        return book.retrieve(parts[1])
    if method == "GET" and len(parts) == 3 and parts[0] == "files" and parts[2] == "content":
        content = book.content(parts[1])
        return (404, _error(f"no file {parts[1]!r}")) if content is None else (200, content)
    return None
