"""A local OpenAI-compatible chat server that answers with the reference drawers.

For tests, benchmarks and trying the suite end to end without a key: it listens on 127.0.0.1
only, answers ``POST /v1/chat/completions`` (and ``/chat/completions``) with the drawing of the
case whose prompt it receives, and can add a fixed latency and inject faults (429 with
``Retry-After``, 500, dropped connections, hangs, a body trickled in byte by byte) at a seeded rate. It counts what it was asked
and keeps each request's body (:attr:`_State.bodies`).

Like a real server it honours ``max_tokens`` (counting 4 characters a token, as its usage does): a
longer answer is cut there and ends with ``finish_reason="length"``. An :class:`Shape` makes it
answer in another of the shapes real models use: the drawing as a tool call's arguments, a
refusal, a content-filter stop, or a fixed text with a fixed finish reason; given several, it
answers the n-th request for a prompt (sample n) in the n-th.

It also serves the OpenAI batch endpoints (``/v1/files``, ``/v1/batches``: ``stub_batches.py``).

Run it by hand::

    python -m shape_asserts.asking.stub_server --port 8765 --latency 0.3
    pytest --model=openai/exact --api-base=http://127.0.0.1:8765/v1   # OPENAI_API_KEY=anything

It answers every case a run can load: the built-in ones, the benchmark's (``-m benchmark``) and
those of the case files it is given (``--shape-cases FILE``, as the run's own option takes them).

The model name picks the drawer: a name whose last part holds ``noisy`` (``openai/noisy``,
``openai/noisy-3``) draws like ``reference/noisy``, anything else like ``reference/exact``. The n-th
request of a model for the same prompt is its sample n.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from shape_asserts.asking.reference import answer_for_messages, prepare
from shape_asserts.asking.stub_batches import BatchBook, BatchPlan, route
from shape_asserts.asking.stub_shapes import CHARS_PER_TOKEN, SHAPES, Shape
from shape_asserts.exceptions import CaseError

__all__ = ["StubServer", "Faults", "Shape", "SHAPES", "drawer_style", "sample_key"]

#: Largest request body read (a prompt is ~1 KB).
MAX_BODY = 1_000_000


@dataclass
class Faults:
    """Which faults to inject, and how often (``rate`` of requests, kinds chosen evenly)."""

    rate: float = 0.0
    #: "trickle" (not among the defaults) sends the headers at once and the body over hang_seconds.
    kinds: tuple[str, ...] = ("429", "500", "drop", "hang")
    retry_after: float = 0.2
    hang_seconds: float = 30.0
    seed: int = 0


#: Request bodies kept for inspection.
MAX_BODIES = 1000


@dataclass
class _State:
    latency: float
    faults: Faults
    require_key: str | None
    rng: random.Random
    #: Sample n of a prompt is answered in shapes[n % len(shapes)].
    shapes: tuple[Shape, ...] = (Shape(),)
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    answered: Counter = field(default_factory=Counter)  # sample_key(model, messages) → answers given
    faulted: Counter = field(default_factory=Counter)  # fault kind → count
    auth_headers: list[str] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)  # the requests' JSON bodies, in order
    #: Each chat request's (received, answered) ``time.monotonic()``, in the order answered: when
    #: a client's first request came and its last answer went (bench/wall_time.py).
    served: list[tuple[float, float]] = field(default_factory=list)
    #: The batch endpoints' files, batches and counters (``stub_batches.py``).
    batches: BatchBook = field(default_factory=BatchBook)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as asyncio's and Go's servers set: with Nagle's algorithm, an answer's body waited
    # for the client's (delayed, up to 40 ms) acknowledgement of its headers
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _batch_route(self, method: str, body: bytes = b"") -> bool:
        """Answer a file or batch request (``stub_batches.py``); whether it was one."""
        reply = route(self.server.state.batches, method, self.path, self.headers, body)
        if reply is None:
            return False
        status, payload = reply
        if isinstance(payload, bytes):
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        else:
            self._send(status, payload)
        return True

    def do_GET(self) -> None:
        if self._batch_route("GET"):
            return
        if self.path.rstrip("/").endswith("/models"):
            self._send(
                200,
                {"object": "list", "data": [{"id": "exact", "object": "model"}, {"id": "noisy", "object": "model"}]},
            )
        else:
            self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        st = self.server.state
        if not self.path.rstrip("/").endswith("/chat/completions"):
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            # a batch's input file is one request per line: up to 16 times a prompt's limit
            if 0 <= length <= 16 * MAX_BODY and self._batch_route("POST", self.rfile.read(length)):
                return
            self.close_connection = True  # a body may be left unread
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            self.close_connection = True  # the body is left unread: the connection cannot be reused
            self._send(
                413 if length > 0 else 400,
                {
                    "error": {
                        "message": "request too large or without a valid Content-Length",
                        "type": "invalid_request_error",
                    }
                },
            )
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:  # malformed JSON or UTF-8: a client error, never a dropped connection
            body = None
        messages = body.get("messages") if isinstance(body, dict) else None
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            self._send(
                400,
                {
                    "error": {
                        "message": "the body must be a JSON object with a 'messages' list of objects",
                        "type": "invalid_request_error",
                    }
                },
            )
            return
        received = time.monotonic()
        with st.lock:
            st.requests += 1
            if len(st.bodies) < MAX_BODIES:
                st.bodies.append(body)
            st.auth_headers.append(self.headers.get("Authorization", ""))
            st.in_flight += 1
            st.max_in_flight = max(st.max_in_flight, st.in_flight)
            fault = None
            if st.faults.rate and st.rng.random() < st.faults.rate:
                fault = st.rng.choice(st.faults.kinds)
                st.faulted[fault] += 1
        try:
            self._answer(st, body, fault)
        finally:
            with st.lock:
                st.in_flight -= 1
                if len(st.served) < MAX_BODIES:
                    st.served.append((received, time.monotonic()))

    def _answer(self, st: _State, body: dict[str, Any], fault: str | None) -> None:
        if st.require_key is not None and self.headers.get("Authorization") != f"Bearer {st.require_key}":
            self._send(
                401,
                {"error": {"message": "invalid api key", "type": "invalid_request_error", "code": "invalid_api_key"}},
            )
            return
        if st.latency:
            time.sleep(st.latency)
        if fault is not None and self._fault(st, body, fault):
            return
        self._drawing(st, body)

    def _fault(self, st: _State, body: dict[str, Any], fault: str) -> bool:
        """Play the injected ``fault`` instead of an answer; False for a fault this method does not play."""
        if fault == "429":
            self._send(
                429,
                {"error": {"message": "rate limited", "type": "rate_limit_error"}},
                {"Retry-After": f"{st.faults.retry_after:g}"},
            )
        elif fault == "500":
            self._send(500, {"error": {"message": "upstream exploded", "type": "server_error"}})
        elif fault == "drop":
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        elif fault == "hang":
            time.sleep(st.faults.hang_seconds)
            self.close_connection = True
        elif fault == "trickle":
            self._trickle(st, body)
        else:
            return False
        return True

    def _trickle(self, st: _State, body: dict[str, Any]) -> None:
        """A complete, valid answer whose body dribbles in over ``hang_seconds``.

        The headers come at once, so only a bound on the whole call (not on connect or first byte)
        catches it.
        """
        data = json.dumps(
            {
                "id": "chatcmpl-trickle",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": str(body.get("model", "exact")),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": '{"points": []}'},
                    }
                ],
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        pause = st.faults.hang_seconds / max(1, len(data))
        try:
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                time.sleep(pause)
        except OSError:  # the client gave up: that is the point
            pass

    def _drawing(self, st: _State, body: dict[str, Any]) -> None:
        """The reference drawer's answer to the prompt in ``body``, as a chat completion."""
        messages = body.get("messages") or []
        model = str(body.get("model", "exact"))
        style = drawer_style(model)
        prompt = json.dumps(messages, sort_keys=True, ensure_ascii=False)
        key = sample_key(model, messages)
        with st.lock:
            sample = st.answered[key]
            st.answered[key] += 1
        try:
            text = answer_for_messages(style, messages, sample)
        except (LookupError, ValueError) as exc:
            with st.lock:
                st.answered[key] -= 1
            self._send(400, {"error": {"message": str(exc), "type": "invalid_request_error"}})
            return
        limit = body.get("max_tokens", body.get("max_completion_tokens"))
        limit = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None
        message, finish = st.shapes[sample % len(st.shapes)].message(text, limit)
        prompt_tokens = len(prompt) // CHARS_PER_TOKEN
        written = len(message.get("content") or "") // CHARS_PER_TOKEN
        self._send(
            200,
            {
                "id": f"chatcmpl-{key[:12]}-{sample}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "finish_reason": finish, "message": message}],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": written,
                    "total_tokens": prompt_tokens + written,
                },
            },
        )


def sample_key(model: str, messages: list[dict[str, Any]]) -> str:
    """What the server counts samples under (:attr:`_State.answered`): the model and its prompt.

    Per model, so that ten models asking one prompt each get their sample 0, whichever asks first.
    """
    prompt = json.dumps(messages, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(f"{model}\n{prompt}".encode()).hexdigest()


def drawer_style(model: str) -> str:
    """The reference drawer a model name asks for: ``noisy`` when its last part holds the word.

    >>> drawer_style("openai/noisy-3"), drawer_style("noisy"), drawer_style("openai/exact-1")
    ('noisy', 'noisy', 'exact')
    """
    return "noisy" if "noisy" in model.rsplit("/", 1)[-1] else "exact"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    state: _State


class StubServer:
    """The stub server on a background thread; use as a context manager.

    Examples
    --------
    >>> with StubServer(latency=0.0) as srv:
    ...     srv.base_url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(
        self,
        *,
        port: int = 0,
        latency: float = 0.0,
        faults: Faults | None = None,
        require_key: str | None = None,
        shape: Shape | Sequence[Shape] | None = None,
        batches: BatchPlan | None = None,
        case_files: Sequence[str | Path] = (),
    ) -> None:
        faults = faults or Faults()
        #: Case files whose prompts it answers besides the built-in ones (loaded at :meth:`start`).
        self.case_files = tuple(case_files)
        self._httpd = _Server(("127.0.0.1", port), _Handler)
        self._httpd.state = _State(
            latency=latency,
            faults=faults,
            require_key=require_key,
            rng=random.Random(faults.seed),
            shapes=(shape,) if isinstance(shape, Shape) else tuple(shape or ()) or (Shape(),),
        )
        self._httpd.state.batches.plan = batches or BatchPlan()
        self._thread: threading.Thread | None = None

    @property
    def state(self) -> _State:
        return self._httpd.state

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StubServer:
        prepare(self.case_files)  # the prompts indexed before the first request, not by it
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="stub-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m shape_asserts.asking.stub_server", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    parser.add_argument("--fault-rate", type=float, default=0.0, help="share of requests that fail")
    parser.add_argument("--require-key", default=None, help="answer 401 unless this bearer key is sent")
    parser.add_argument("--shape", choices=SHAPES, default="text", help="how answers come: see Shape")
    parser.add_argument("--batch-polls", type=int, default=2, help="polls before a batch completes")
    parser.add_argument(
        "--shape-cases",
        action="append",
        default=[],
        metavar="FILE",
        help="case file (TOML) whose prompts it answers too, as the run's --shape-cases (repeatable)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port}: a port is a number from 0 to 65535 (0: any free one)")
    try:
        prepare(args.shape_cases)
    except CaseError as exc:
        parser.error(str(exc))
    try:
        srv = StubServer(
            port=args.port,
            latency=args.latency,
            faults=Faults(rate=args.fault_rate),
            require_key=args.require_key,
            shape=Shape(args.shape),
            batches=BatchPlan(polls=args.batch_polls),
        )
    except OSError as exc:  # the port taken, or not ours to open
        parser.error(f"--port {args.port}: {exc.strerror or exc}")
    # Ctrl-C or a TERM stops it, even when started in the background by a shell that ignores SIGINT
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.default_int_handler)
    print(f"stub server on {srv.base_url} (Ctrl-C to stop)", flush=True)
    try:
        srv._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv._httpd.server_close()
        st = srv.state
        # what a bench driving it from another process reads back (bench/scale.py)
        print(
            f"stub server stopped: {st.requests} chat requests, {sum(st.answered.values())} answered, "
            f"peak {st.max_in_flight} in flight",
            flush=True,
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
