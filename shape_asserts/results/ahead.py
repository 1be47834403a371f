"""Judging ahead on a second core: a second process judges the run's recorded answers while the
tests go through pytest, snapshots and reports; each test then takes its case's judged samples.

``-n auto`` asks for the machine's cores, but for a run of a few hundred shape tests an xdist
worker costs more than it saves (:mod:`shape_asserts.plugin.workers`): a Python process, pytest,
numpy, the families, the cases, and a collection of the whole selection. This process needs only
numpy, the families and the cases. It is started when ``-n auto`` chooses no worker (before the
session) and loads them on the other core while pytest configures and collects. Once the plan has
read the recordings, it is handed every case whose answers were whole, in the order the tests
will run, and judges them from the last one backwards with
:func:`~shape_asserts.results.verdict.judge`: the same code on the same cases and answers, so the
same numbers bit for bit. Each result goes back pickled, with any warning judging raised, on its
standard output. Meanwhile the first tests judge their own cases; the rest find theirs judged.

A test takes a result only when it is already there, for the same case and the very answers the
test is about to judge; it never waits for one. Anything else — a case not sent or not judged yet,
other answers, a process that failed or died — is judged in the test's own process, as it always
was. The process writes no file, and ends once the work is done or the run closes its pipes.

Tried first and dropped: a fork of the run made once the tests were collected, and a thread reading
the results as they came. Both judged ahead, but the run was no faster. The fork's tests paid a
copy-on-write fault for each page they touched, and the thread made every test wait for the
interpreter's lock.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

try:
    import fcntl
except ImportError:  # not POSIX: the plugin starts no such process there (plugin/workers.py)
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from shape_asserts.asking.recorded import RecordedAnswer
    from shape_asserts.cases import Case
    from shape_asserts.results.verdict import CaseResult

__all__ = ["Ahead", "Work", "main"]

_HEADER = struct.Struct("!I")
#: A result's header: its key's length and its pickled samples' length.
_RESULT = struct.Struct("!II")
#: Bytes the results' pipe is asked to hold (Linux; a result is ~8 KB): the process judges on
#: without waiting for the tests to read.
PIPE_SIZE = 1 << 20


@dataclass(frozen=True)
class Work:
    """One case to judge ahead: its key, the case's id, the model and the answers, as the test will."""

    key: str
    case_id: str
    model: str
    answers: tuple[str | RecordedAnswer, ...]
    min_pass_rate: float


def _send(out: IO[bytes], obj: Any) -> None:
    blob = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(blob)) + blob)
    out.flush()


def _receive(src: IO[bytes]) -> Any:
    head = src.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError
    (size,) = _HEADER.unpack(head)
    blob = src.read(size)
    if len(blob) < size:
        raise EOFError
    return pickle.loads(blob)


class Ahead:
    """The run's judging process (see the module docstring)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._sent: dict[str, Work] = {}
        self._got: dict[str, Any] = {}
        self._ended = False

    @classmethod
    def start(cls, case_files: Sequence[Path], benchmark: bool) -> Ahead | None:
        """Start the process, loading the run's cases (those of ``case_files`` after the built-in
        ones; the benchmark's when ``benchmark``); ``None`` when none can be started here."""
        # this very code, wherever it was imported from (a checkout on sys.path, an installed copy)
        home = _package_home()
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(home.parent), os.environ.get("PYTHONPATH"))))
        )
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "shape_asserts.results.ahead"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                bufsize=0,  # its results are read from the pipe itself, polled (select)
            )
        except OSError:
            return None
        ahead = cls(proc)
        if proc.stdout is not None and fcntl is not None and hasattr(fcntl, "F_SETPIPE_SZ"):
            with contextlib.suppress(OSError):  # room for many results: the process need not wait for the tests
                fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        try:
            assert proc.stdin is not None
            _send(proc.stdin, (str(home), [str(p) for p in case_files], benchmark))
        except OSError:
            ahead.close()
            return None
        return ahead

    def submit(self, work: Sequence[Work]) -> None:
        """Hand over the cases to judge, in the order the tests will take them; no more follow."""
        self._sent = {w.key: w for w in work}
        try:
            assert self._proc.stdin is not None
            _send(self._proc.stdin, list(work))
            self._proc.stdin.close()
        except OSError:  # it died: the tests judge everything themselves
            self._sent = {}

    def _drain(self) -> None:
        """Read every result already sent, without waiting; each is kept as sent (unpickled only
        when its test takes it)."""
        if self._ended or self._proc.stdout is None:
            return
        fd = self._proc.stdout.fileno()
        try:
            while select.select([fd], [], [], 0)[0]:
                key_size, size = _RESULT.unpack(_read_exact(fd, _RESULT.size))
                key = _read_exact(fd, key_size).decode()
                self._got[key] = _read_exact(fd, size)
        except Exception:  # the end, a broken pipe or message: the tests judge what is missing
            self._ended = True

    def take(self, key: str, case: Case, model: str, answers: Sequence[Any], min_pass_rate: float) -> CaseResult | None:
        """The case's judged result when the process already sent it for these very answers of
        this case; else ``None``, at once (the test judges them itself).

        Never waits: the process judges from the last test backwards, so while it starts, the
        first tests judge their own cases, and the rest find theirs judged. Results are read
        here, in the test's own thread: a thread reading them meanwhile made every test wait for
        the interpreter's lock (5 ms switches) and cost more than judging here."""
        sent = self._sent.get(key)
        if (
            sent is None
            or sent.case_id != case.id
            or sent.model != model
            or sent.min_pass_rate != min_pass_rate
            or tuple(answers) != sent.answers
        ):
            return None
        self._drain()
        blob = self._got.pop(key, None)
        payload = pickle.loads(blob) if blob else None
        if payload is None:
            return None
        samples, said = payload
        for message, category, filename, lineno in said:  # as judging here would have warned
            warnings.warn_explicit(message, category, filename, lineno)
        from shape_asserts.results.verdict import CaseResult

        return CaseResult(case=case, model=model, samples=samples, min_pass_rate=min_pass_rate)

    def close(self) -> None:
        """End the process (done or not) and collect it."""
        for pipe in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        with contextlib.suppress(OSError):
            self._proc.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)


def _package_home() -> Path:
    """The folder of the ``shape_asserts`` package this process runs (this module is in it)."""
    return Path(__file__).resolve().parents[1]


def _read_exact(fd: int, n: int) -> bytes:
    parts, left = [], n
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            raise EOFError
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def main() -> int:
    """The judging process: load the cases, receive the work, judge it in order, send each result."""
    src, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may corrupt the results' stream
    home, case_files, benchmark = _receive(src)
    if str(_package_home()) != home:  # other code than the run's: judging here could differ
        return 0
    # the work is read while the cases load: the run that sends it never waits on a full pipe
    rest: list[bytes] = []
    drain = threading.Thread(target=lambda: rest.append(src.read()), daemon=True)
    drain.start()
    from shape_asserts.cases import load_cases
    from shape_asserts.results.verdict import judge

    cases = {c.id: c for c in load_cases([Path(p) for p in case_files], benchmark=benchmark)}
    drain.join()
    try:
        work: list[Work] = _receive(io.BytesIO(rest[0] if rest else b""))
    except EOFError:
        return 0
    for w in reversed(work):  # the run's first tests judge their own while this one starts
        case = cases.get(w.case_id)
        payload = b""
        if case is not None:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    result = judge(case, w.model, w.answers, w.min_pass_rate)
                said = [(str(c.message), c.category, c.filename, c.lineno) for c in caught]
                payload = pickle.dumps((result.samples, said), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # judged again by its test, which then fails or errs as it would have
                payload = b""
        key = w.key.encode()
        try:
            out.write(_RESULT.pack(len(key), len(payload)) + key + payload)
            out.flush()
        except OSError:  # the run ended
            return 1
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        os._exit(main())
    os._exit(1)
