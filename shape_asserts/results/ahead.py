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
same numbers bit for bit. Each result goes back pickled on its standard output. Meanwhile the first
tests judge their own cases; the rest find theirs judged.

A test takes a result only when it is already there, for the very answers the test is about to
judge, of a case that is the same in both processes (:func:`case_print`: its parameters, limits,
prompts and its family's limits and modules); it never waits for one. The process runs with the
run's ``sys.path`` and refuses to judge with another copy of the package. The first result taken
for each family is judged again in the test and compared, record for record: a difference (a
scorer patched in the run, say) ends the judging ahead for the rest of the run. An answer whose
judging warned is not sent, so its test judges it and its warnings meet the run's own filters.
Anything else — a case not sent or not judged yet, other answers, a process that failed or died —
is judged in the test's own process, as it always was. The process writes no file, and ends once
the work is done or the run closes its pipes. It runs at the least priority (``nice`` 19): on a
machine whose other core is busy it takes only what the run's own process leaves idle, so ``-n
auto`` is then no slower than the same run without it (``bench/wall_time.py --load``).

Tried first and dropped: a fork of the run made once the tests were collected, and a thread reading
the results as they came. Both judged ahead, but the run was no faster. The fork's tests paid a
copy-on-write fault for each page they touched, and the thread made every test wait for the
interpreter's lock.
"""

from __future__ import annotations

import contextlib
import hashlib
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

from shape_asserts.defaults import BLAS_THREAD_VARS

try:
    import fcntl
except ImportError:  # not POSIX: the plugin starts no such process there (plugin/workers.py)
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from shape_asserts.asking.recorded import RecordedAnswer
    from shape_asserts.cases import Case
    from shape_asserts.results.verdict import CaseResult

__all__ = ["Ahead", "Work", "case_print", "main"]

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
    #: :func:`case_print` of the run's case: the process judges only a case that is the same.
    case_print: str = ""


def case_print(case: Case) -> str:
    """A digest of everything a case's verdict depends on besides the answer and the code: its id,
    family, parameters, limits, tags and prompts, its family's limits, and the files its family's
    functions come from."""
    spec = case.spec
    modules = sorted({getattr(f, "__module__", "") or "" for f in (spec.params, spec.prompt, spec.ideal, spec.score)})
    files = [getattr(sys.modules.get(m), "__file__", None) for m in modules]
    text = repr(
        (
            case.id,
            case.family,
            sorted(case.params.items(), key=repr),
            sorted(case.thresholds.items(), key=repr),
            case.tags,
            sorted(case.prompts.items()),
            repr(spec.thresholds),
            modules,
            files,
        )
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _framed(obj: Any) -> bytes:
    """``obj`` pickled, after its length: one message, as :func:`_receive` reads it."""
    blob = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(blob)) + blob


def _send(out: IO[bytes], obj: Any) -> None:
    out.write(_framed(obj))
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
        #: Families whose first taken result was judged again here and found the same.
        self._checked: set[str] = set()

    @classmethod
    def start(cls, case_files: Sequence[Path], benchmark: bool) -> Ahead | None:
        """Start the process, loading the run's cases (those of ``case_files`` after the built-in
        ones; the benchmark's when ``benchmark``); ``None`` when none can be started here."""
        # this very code, wherever it was imported from (a checkout on sys.path, an installed copy)
        home = _package_home()
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(home.parent), os.environ.get("PYTHONPATH"))))
        )
        if not any(os.environ.get(v) for v in BLAS_THREAD_VARS):  # it only judges: no BLAS pool to start
            env["OPENBLAS_NUM_THREADS"] = "1"
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
            _send(proc.stdin, (str(home), list(sys.path), [str(p) for p in case_files], benchmark))
        except OSError:
            ahead.close()
            return None
        return ahead

    def submit(self, work: Sequence[Work]) -> None:
        """Hand over the cases to judge, in the order the tests will take them; no more follow.

        Written by a thread of its own: the work (the answers, a few hundred KB for the built-in
        cases) is more than a pipe holds, and on a busy machine the process, at the least priority,
        may not read it for a while; the run never waits for it (a write that fails leaves every
        case to its test, as a process that died does: :meth:`take` finds no result)."""
        self._sent = {w.key: w for w in work}
        stdin = self._proc.stdin
        if stdin is None:
            self._sent = {}
            return
        threading.Thread(
            target=_write_all,
            args=(stdin, _framed(list(work))),
            name="shape-asserts-ahead-work",
            daemon=True,
        ).start()

    def _drain(self) -> None:
        """Read every result already sent, without waiting; each is kept as sent (unpickled only
        when its test takes it)."""
        if self._ended or self._proc.stdout is None:
            return
        try:
            fd = self._proc.stdout.fileno()
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            while poller.poll(0):
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
        if not blob:
            return None
        from shape_asserts.results.verdict import CaseResult

        try:
            samples = pickle.loads(blob)
            result = CaseResult(case=case, model=model, samples=samples, min_pass_rate=min_pass_rate)
        except Exception:  # a broken result: judged here
            return None
        if case.family not in self._checked:
            return self._checked_against_here(result, answers)
        return result

    def _checked_against_here(self, result: CaseResult, answers: Sequence[Any]) -> CaseResult:
        """The first result of a family, judged again here: the same record, or the judging ahead
        ends for the rest of the run (the process judged with something the run does not)."""
        from shape_asserts.results.record import CaseRecord
        from shape_asserts.results.verdict import judge

        here = judge(result.case, result.model, answers, result.min_pass_rate)
        same = (
            CaseRecord.from_result(here, "passed").to_json_text()
            == CaseRecord.from_result(result, "passed").to_json_text()
        )
        if not same:
            self._sent, self._got, self._ended = {}, {}, True
            return here
        self._checked.add(result.case.family)
        return result

    def close(self) -> None:
        """End the process (done or not) and collect it."""
        with contextlib.suppress(OSError):  # first: a write of the work still under way then fails and ends
            self._proc.kill()
        for pipe in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if pipe is not None:
                    pipe.close()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)


def _write_all(out: IO[bytes], data: bytes) -> None:
    """Write ``data`` whole to the unbuffered pipe ``out`` (a raw write may take only part), then
    close it; a pipe that broke or was closed ends the writing."""
    view = memoryview(data)
    try:
        while view:
            written = out.write(view)
            if not written:  # (a blocking pipe writes something or raises: never taken)
                return
            view = view[written:]
        out.close()
    except (OSError, ValueError):
        pass


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
    # the least priority: this is work the run would do itself, so on a machine with no idle core
    # (a loaded CI runner) it must not slow the run's own process; on an idle one it changes nothing
    with contextlib.suppress(AttributeError, OSError):  # (os.nice: POSIX)
        os.nice(19)
    src, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may corrupt the results' stream
    home, path, case_files, benchmark = _receive(src)
    if str(_package_home()) != home:  # other code than the run's: judging here could differ
        return 0
    sys.path[:] = path  # the run's: its families' modules (entry points, a checkout) come from there
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
        if case is not None and case_print(case) == w.case_print:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    result = judge(case, w.model, w.answers, w.min_pass_rate)
                if not caught:  # one that warned is judged by its test, under the run's filters
                    payload = pickle.dumps(result.samples, protocol=pickle.HIGHEST_PROTOCOL)
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
