"""A hostile OpenAI-compatible server for the findings tests: it answers what each test crafts.

It listens on 127.0.0.1 only (port chosen by the system) and answers ``POST .../chat/completions``
with whatever the test's ``reply`` function returns for the request: a drawing with one coordinate
at 1e308, thousands of points, a lone UTF-16 surrogate, an error body full of terminal escape
sequences, a valid answer trickled over many seconds. Everything it was asked is kept in
``requests``, so a test can also prove that nothing was asked.

The package's own :mod:`shape_asserts.asking.stub_server` plays a well-behaved provider (with
random faults); this one plays an attacker, and lives with the tests that use it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from shape_asserts.asking.reference import answer_for_messages


@dataclass(frozen=True)
class Request:
    """One chat request: the model named in it, its messages, and which answer to that prompt it is."""

    model: str
    messages: list[dict[str, Any]]
    sample: int

    @property
    def prompt(self) -> str:
        return str(self.messages[-1].get("content", "")) if self.messages else ""


@dataclass(frozen=True)
class Reply:
    """What to send back: an answer's text (``content``) or a raw ``body`` with a ``status``."""

    content: str | None = None
    status: int = 200
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds over which the body is sent, byte by byte, after the headers went out at once.
    trickle: float = 0.0
    #: Bytes of the body sent before the connection is closed (its Content-Length says the whole).
    cut: int | None = None
    #: Close the connection at once, sending nothing back (after the request was read).
    drop: bool = False


def drawing(request: Request, style: str = "exact") -> dict[str, Any]:
    """The reference drawer's answer to the request's prompt, as the JSON object it wrote."""
    text = answer_for_messages(style, request.messages, request.sample)
    return json.loads(text[text.index("{") : text.rindex("}") + 1])


def exact(request: Request) -> Reply:
    """A well-behaved answer: the exact drawing."""
    return Reply(json.dumps(drawing(request)))


def _completion(model: str, content: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-hostile",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
    ).encode()  # ensure_ascii: a lone surrogate travels as the legal JSON escape \ud800


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        model = str(body.get("model", ""))
        messages = body.get("messages") or []
        srv = self.server.owner
        with srv.lock:
            key = json.dumps([model, messages], sort_keys=True)
            request = Request(model=model, messages=messages, sample=srv.answered[key])
            srv.answered[key] += 1
            srv.requests.append(request)
        reply = srv.reply(request)
        if reply.drop:
            self.close_connection = True
            return
        data = reply.body if reply.body is not None else _completion(model, reply.content or "")
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in reply.headers.items():
            self.send_header(k, v)
        self.end_headers()
        if reply.cut is not None:
            self.wfile.write(data[: reply.cut])
            self.wfile.flush()
            self.close_connection = True
            return
        if not reply.trickle:
            self.wfile.write(data)
            return
        pause = reply.trickle / max(1, len(data))
        with contextlib.suppress(OSError):  # the client gave up: that is the point
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                time.sleep(pause)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: HostileServer


class HostileServer:
    """The server on a background thread, answering each request with ``reply(request)``."""

    def __init__(self, reply: Callable[[Request], Reply] = exact) -> None:
        self.reply = reply
        self.requests: list[Request] = []
        self.answered: Counter[str] = Counter()
        self.lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> HostileServer:
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
