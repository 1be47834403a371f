"""Asking in a second process while the tests run: a live run without xdist waits for the
provider and for litellm's import, not for both and then the judging too.

A live run spends most of its time waiting: seconds for litellm's import (CPU, holding the GIL, so
a thread cannot hide it), then the provider's latency. Judging the answers is CPU too. In one
process these add up; here the asking runs in a child process started as soon as the run is sure
to ask (litellm imports there while pytest collects), is handed the plan once the selection is
known (:meth:`BackgroundFetch.submit`), asks and records exactly as the in-process fetch does
(:meth:`~shape_asserts.asking.asker.Asker.fetch`, every answer written atomically the moment it
arrives), and says as each case settles. The tests run meanwhile, each waiting only for its own
case (:meth:`BackgroundFetch.wait`), then replay its recording: two cores at work, not one.

Nothing is lost or asked twice: the child asks only what the plan holds; a case whose calls
failed, or whose answer could not be written, reaches its test as the same error the in-process
fetch gives; closing the child's input (the run ended, normally or not, or the parent died) lets
the calls in flight finish and be recorded but starts none. A child that dies unexpectedly fails
the cases it had not settled, naming its exit status and last words.

Messages travel as JSON lines on a pipe of their own (litellm's own prints go to a log file that
is shown when the child fails); the plan travels once, pickled, on the child's standard input.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from shape_asserts.asking.call import redact
from shape_asserts.asking.runstate import RunState, heartbeat_interval

if TYPE_CHECKING:
    from shape_asserts.asking.asker import Asker, Job
    from shape_asserts.asking.runstate import Progress

__all__ = ["BackgroundFetch", "main"]

#: Seconds between the child's progress messages while calls complete.
_PROGRESS_EVERY = 1.0
#: Characters of the child's log shown when it ends unexpectedly.
_LOG_TAIL = 800


@dataclass(frozen=True)
class _Prompt:
    """All the fetch reads of a case — its id and its messages in the run's language — as the
    child receives it (a case itself holds its family's functions, which do not pickle)."""

    id: str
    msgs: tuple[tuple[tuple[str, str], ...], ...]

    def messages(self, lang: str) -> list[dict[str, str]]:
        return [dict(m) for m in self.msgs]


def _portable(job: Job, lang: str) -> Job:
    msgs = tuple(tuple(m.items()) for m in job.case.messages(lang))  # in order, as sent in-process
    prompt: Any = _Prompt(job.case.id, msgs)
    return dataclasses.replace(job, case=prompt)


class BackgroundFetch:
    """The run's handle on its asking process (see the module docstring)."""

    def __init__(self, proc: subprocess.Popen[bytes], messages: IO[str], log: IO[bytes]) -> None:
        self._proc = proc
        self._messages = messages
        self._log = log
        self.state = RunState(fetched=True)
        self._settled: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self.line = ""  # the latest progress line
        self.final: list[str] = []  # the fetch's last words: its counts, tokens and cost
        self.first_answer: float | None = None  # seconds after submit
        self.submitted: float | None = None

    @classmethod
    def start(cls) -> BackgroundFetch:
        """Start the child now: it imports litellm, then waits for :meth:`submit`.

        Raises ``OSError`` when no process can be started (the caller asks in-process instead).
        """
        read_fd, write_fd = os.pipe()
        log = tempfile.TemporaryFile()  # noqa: SIM115 -- the child writes it for as long as it runs
        env = dict(os.environ)
        here = str(Path(__file__).resolve().parents[2])  # the folder holding this package
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "shape_asserts.asking.background", str(write_fd)],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=log,
                pass_fds=(write_fd,),
                env=env,
            )
        except (OSError, ValueError) as exc:  # ValueError: no pass_fds on this platform
            os.close(read_fd)
            log.close()
            raise OSError(str(exc)) from exc
        finally:
            os.close(write_fd)
        return cls(proc, os.fdopen(read_fd, encoding="utf-8"), log)

    # --- the parent's side ------------------------------------------------------------------

    def submit(self, asker: Asker, jobs: list[Job]) -> None:
        """Hand the child the plan; from now on :meth:`wait` waits for the cases it holds."""
        for job in jobs:
            self._settled.setdefault(job.key, threading.Event())
        payload = pickle.dumps((asker, [_portable(j, asker.lang) for j in jobs]), protocol=pickle.HIGHEST_PROTOCOL)
        self.submitted = time.perf_counter()
        # written from a thread: the child reads it only once litellm is imported, and a pipe
        # holds less than the plan of a few hundred cases
        threading.Thread(target=self._send, args=(payload,), name="shape-asserts-plan", daemon=True).start()
        self._reader = threading.Thread(target=self._read, name="shape-asserts-asking", daemon=True)
        self._reader.start()

    def _send(self, payload: bytes) -> None:
        with contextlib.suppress(OSError, ValueError):  # the child is gone: the reader names why
            assert self._proc.stdin is not None
            self._proc.stdin.write(payload)
            self._proc.stdin.flush()

    def planned(self, key: str) -> bool:
        return key in self._settled

    def wait(self, key: str, on_wait: Callable[[str], None] | None = None) -> RunState:
        """Block until the case ``key`` is settled; ``on_wait`` hears a progress line every heartbeat."""
        event = self._settled.get(key)
        if event is not None:
            beat = heartbeat_interval()
            while not event.wait(beat):
                if on_wait is not None:
                    on_wait(self.line or f"shape-asserts: waiting for {key.replace('|', '/')} to be asked")
        return self.state

    def finish(self, timeout: float | None = None, say: Callable[[str], None] | None = None) -> list[str]:
        """Let the child end: no new call, those in flight recorded; its last words.

        ``say`` hears why the run waits, when calls are still in flight (an interrupted run; a
        second Ctrl-C stops at once, dropping them).
        """
        if self.submitted is None:  # it never had a plan: nothing to wait for
            self.close()
            return []
        self._close_input()
        try:
            self._proc.wait(1.0)
        except subprocess.TimeoutExpired:
            if say is not None:
                say(
                    "shape-asserts: the run ended; waiting for the calls in flight to be recorded "
                    "(they are paid for; Ctrl-C again to drop them)"
                )
            try:
                self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.close()
        if self._reader is not None:
            self._reader.join(5)
        return self.final

    def close(self) -> None:
        """Stop the child now, if it still runs (an interrupted run)."""
        self._close_input()
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        with contextlib.suppress(OSError):
            self._log.close()

    def _close_input(self) -> None:
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()

    def _read(self) -> None:
        try:
            for raw in self._messages:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    with contextlib.suppress(Exception):  # one bad message must not stop the reading
                        self._take(msg)
        finally:  # whatever ended the reading, no test waits for ever
            with contextlib.suppress(Exception):
                self._proc.wait()
            self._orphans()

    def _take(self, msg: dict[str, Any]) -> None:
        if "progress" in msg:
            self.line = str(msg["progress"])
        if "settled" in msg:
            key = str(msg["settled"])
            with self._lock:
                for kind in ("failures", "unasked", "unrecorded"):
                    if msg.get(kind):
                        getattr(self.state, kind)[key] = str(msg[kind])
            if msg.get("answered") and self.first_answer is None and self.submitted is not None:
                self.first_answer = time.perf_counter() - self.submitted
            event = self._settled.get(key)
            if event is not None:
                event.set()
        if "done" in msg:
            self.final = [str(line) for line in msg["done"]]

    def log_tail(self) -> str:
        """The last words the child printed (litellm's warnings, a traceback), bounded."""
        try:
            size = self._log.seek(0, os.SEEK_END)
            self._log.seek(max(0, size - 4 * _LOG_TAIL))  # up to 4 bytes a character
            return self._log.read().decode("utf-8", "replace")[-_LOG_TAIL:]
        except (OSError, ValueError):
            return ""

    def _orphans(self) -> None:
        """Cases the child never settled (it died): each fails, saying how the child ended."""
        left = [key for key, event in self._settled.items() if not event.is_set()]
        if not left:
            return
        code = self._proc.returncode
        words = redact(" ".join(self.log_tail().split())) or "it said nothing"
        why = (
            f"the asking process ended (exit status {code}) before this case was asked or recorded: {words}; "
            "run again: answers recorded so far are kept and only the rest is asked"
        )
        with self._lock:
            for key in left:
                self.state.failures.setdefault(key, why)
        for key in left:
            self._settled[key].set()


# --- the child's side ------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """The child: import litellm, read the plan, ask, say as each case settles."""
    args = sys.argv[1:] if argv is None else argv
    out = os.fdopen(int(args[0]), "w", encoding="utf-8", buffering=1)
    lock = threading.Lock()

    def send(msg: dict[str, Any]) -> None:
        with lock, contextlib.suppress(OSError, ValueError):
            out.write(json.dumps(msg) + "\n")

    # Ctrl-C at the terminal reaches the whole process group: the parent ends the run by closing
    # our input, and the calls in flight (paid for) are still recorded
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from shape_asserts.asking.call import load_litellm

    with contextlib.suppress(Exception):  # the first call imports it again and reports what fails
        load_litellm()
    try:
        asker, jobs = pickle.load(sys.stdin.buffer)
    except (EOFError, pickle.UnpicklingError):
        return 0  # the run asked nothing
    stop = threading.Event()

    def watch() -> None:  # the parent closed our input (the run ended) or died
        with contextlib.suppress(OSError, ValueError):
            sys.stdin.buffer.read()
        stop.set()

    threading.Thread(target=watch, daemon=True).start()
    last = [0.0]
    every = min(_PROGRESS_EVERY, 0.75 * heartbeat_interval())  # the parent shows one a heartbeat

    def on_progress(progress: Progress) -> None:
        now = time.monotonic()
        if now - last[0] >= every:
            last[0] = now
            send({"progress": progress.line()})

    def on_settled(key: str, state: RunState) -> None:
        msg: dict[str, Any] = {"settled": key, "answered": key not in state.failures and key not in state.unasked}
        for kind in ("failures", "unasked", "unrecorded"):
            if key in getattr(state, kind):
                msg[kind] = getattr(state, kind)[key]
        send(msg)

    _, progress = asker.fetch(jobs, on_progress, on_settled=on_settled, stop=stop)
    send({"done": [progress.line(), *progress.usage_lines()]})
    out.close()
    # every answer is on disk (written atomically, synced): nothing is left for Python's teardown,
    # which for litellm's heap takes a second and more
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
