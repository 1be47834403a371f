"""The run's asking, once, by the process that sees the whole selection (made by the run object,
:mod:`shape_asserts.plugin.run`, outside xdist workers; driven by :mod:`shape_asserts.plugin.hooks`).

A run without xdist asks every call once its tests are collected, before the first one runs, and
keeps what it got in memory for them. An xdist controller plans every call once its workers have
collected, then asks in a thread of its own while their tests run: each test waits for its own
case only (:func:`~shape_asserts.asking.runstate.wait_for`), so judging goes on beside the asking
instead of after it (a benchmark run of 3,120 calls judged for tens of seconds once they were all
in: bench/scale.py). Nothing is asked for a run that will not execute its tests
(``--collect-only``, a collection error). A ``--batch`` run asks before the tests, as a whole.

Asking from a second process while the tests ran was tried and removed: on this project's 2-core
machine a live run of the 139 built-in cases took 0.97× as long with it (8 rounds, 0.88–1.07×),
and 1.07× with three samples a case; for so few cases the tests' judging was never what a live
run waited for.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from shape_asserts.plugin.suite import CaseParam, Settings, ask_planned, plan, prefetch, refuse_uncapped
from shape_asserts.plugin.workers import shape_only_files, sure_to_ask

if TYPE_CHECKING:
    from shape_asserts.asking.asker import Job
    from shape_asserts.asking.runstate import RunState

__all__ = ["Fetcher", "tests_will_run", "will_ask", "terms_as_interrupt"]

T = TypeVar("T")


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@contextlib.contextmanager
def terms_as_interrupt() -> Iterator[None]:
    """SIGTERM (``timeout``, ``docker stop``, a cancelled CI job) ends the run as Ctrl-C does while
    it is in force: the calls in flight are recorded, not dropped with the process. Only where
    SIGTERM had its default action, and only in the main thread (where handlers are set)."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Fetcher:
    """Plans and makes the run's live calls once, in the process that sees the whole selection."""

    def __init__(self, config: pytest.Config, settings: Settings) -> None:
        self.config = config
        self.settings = settings
        self.session: pytest.Session | None = None
        self.done = False
        self.progress: Any = None
        #: The run state of this process's fetch, for its own tests (no xdist: no state file).
        self.state: RunState | None = None
        #: The cases the plan found whole, by :attr:`Job.key`: this process's tests replay them as read.
        self.ready: dict[str, Job] = {}
        self._last_line = 0.0
        self._last_counts: tuple[int, ...] = ()
        #: An xdist controller's asking, while its workers' tests run (:meth:`_ask_beside`).
        self._beside: threading.Thread | None = None
        self._stop = threading.Event()
        #: SIGTERM read as Ctrl-C while a run that may pay for calls goes on (:func:`terms_as_interrupt`).
        self._terms = contextlib.ExitStack()

    def start(self, session: pytest.Session) -> None:
        """At session start: an xdist controller sure to ask imports litellm while its workers
        start (seconds of its own), since it asks only once they have collected."""
        self.session = session
        if any(not model.startswith("reference/") for model in self.settings.models):
            self._terms.enter_context(terms_as_interrupt())
        if self.config.pluginmanager.has_plugin("dsession") and will_ask(self.config, self.settings):
            from shape_asserts.asking.call import preload_litellm

            preload_litellm()

    def before_tests(self, session: pytest.Session) -> None:
        """Without xdist, the tests are about to run: ask for the collected shape tests."""
        if self.config.pluginmanager.has_plugin("dsession"):
            return  # xdist controller: the workers' collection decides (below)
        if not tests_will_run(session):
            return
        params = [
            item.callspec.params["shape_case"]
            for item in session.items
            if hasattr(item, "callspec") and isinstance(item.callspec.params.get("shape_case"), CaseParam)
        ]
        if params:  # a run without shape tests asks nothing, and loads nothing to say so
            self._fetch(params, in_process=True)

    def workers_collected(self, ids: list[str]) -> None:
        """An xdist controller: a worker collected ``ids``; ask for their shape tests (once)."""
        if self.done or (self.session is not None and not tests_will_run(self.session)):
            return
        # a shape test's id holds its case@model: a run without one need not load the cases
        if not any(nodeid.endswith("]") and "@" in nodeid[nodeid.find("[") :] for nodeid in ids):
            return
        known = self.settings.params()
        params = []
        for nodeid in ids:
            if nodeid.endswith("]") and "[" in nodeid:
                p = known.get(nodeid[nodeid.index("[") + 1 : -1])
                if p is not None:
                    params.append(p)
        self._fetch(params)

    def _fetch(self, params: list[CaseParam], in_process: bool = False) -> None:
        """Plan and ask ``params``' missing answers; ``in_process``: this process runs the tests."""
        if self.done:
            return
        self.done = True
        settings = self.settings
        from shape_asserts.asking.runstate import sweep_run_folders

        sweep_run_folders()  # those of killed runs: this run makes its own now
        say = lambda line: self._write(f"shape-asserts: {line}")
        try:
            # no xdist: the tests run here, and may replay what the plan read
            jobs = plan(settings, params, on_decision=say, ready=self.ready if in_process else None)
            for line in refuse_uncapped(settings, jobs):
                say(line)
            if in_process and settings.batch:  # a batch says itself what Ctrl-C leaves (kept, run again)
                self.state, progress = ask_planned(settings, jobs, on_progress=self._show, on_decision=say)
                self.progress = progress if jobs else None
            elif in_process:  # the tests that read the state run in this process
                self.state, progress = self._ask_interruptibly(
                    lambda: ask_planned(settings, jobs, on_progress=self._show, on_decision=say, stop=self._stop)
                )
                self.progress = progress if jobs else None
            elif jobs and not settings.batch and settings.state_path is not None:
                self._ask_beside(jobs)  # an xdist controller: its workers wait for each case
                return
            else:  # an xdist controller: its workers read the state from the run's file
                self.progress = prefetch(settings, jobs, on_progress=self._show, on_decision=say)
        except pytest.UsageError:
            raise  # --batch for a model without a batch interface, a cap that cannot count: nothing was asked
        except Exception as exc:
            after = (
                "under --batch nothing is asked one by one: the cases without a recording error; run again"
                if settings.batch
                else "cases will be asked one by one"
            )
            self._write(f"shape-asserts: fetching before the tests failed ({type(exc).__name__}: {exc}); {after}")
            if settings.state_path is not None and settings.state_path.exists():
                settings.state_path.unlink()
            return
        self._say_done()

    def _ask_interruptibly(self, ask: Callable[[], T]) -> T:
        """``ask()`` in a thread of its own, this one waiting: Ctrl-C (or SIGTERM, :func:`terms_as_interrupt`)
        stops it starting calls, and the calls in flight are recorded as they come back before the
        interrupt goes on (they are paid for; a second Ctrl-C leaves them). Run in this thread, the
        interrupt cancelled them: answers the provider delivered and billed were lost."""
        outcome: dict[str, Any] = {}
        # (waited for on an event: a join an interrupt breaks into leaves the thread looking ended)
        ended = threading.Event()

        def target() -> None:
            try:
                outcome["value"] = ask()
            except BaseException as exc:  # handed to the waiting thread
                outcome["error"] = exc
            finally:
                ended.set()

        threading.Thread(target=target, name="shape-asserts-asking", daemon=True).start()
        try:
            while not ended.wait(0.2):
                pass
        except KeyboardInterrupt:
            self._stop.set()
            self._write(
                "shape-asserts: interrupted: no new call starts; the calls in flight are recorded as they "
                "come back (Ctrl-C again to leave them)"
            )
            with contextlib.suppress(KeyboardInterrupt):
                while not ended.wait(0.2):
                    pass
            raise
        if "error" in outcome:
            raise outcome["error"]
        value: T = outcome["value"]
        return value

    def _say_done(self) -> None:
        if self.progress is not None:
            self._write(self.progress.line())
            for line in self.progress.usage_lines():
                self._write(line)

    def _ask_beside(self, jobs: list[Job]) -> None:
        """Ask ``jobs`` in a thread while the workers' tests run, each waiting for its own case.

        Its progress lines are written from that thread: each is one whole line, which at worst
        ends a row of progress dots early.
        """
        from shape_asserts.asking.runstate import announce, settle, withdraw

        path = self.settings.state_path
        assert path is not None
        announce(path, [job.key for job in jobs])

        def ask() -> None:
            try:
                self.progress = prefetch(
                    self.settings,
                    jobs,
                    on_progress=self._show,
                    on_settled=lambda key, state: settle(path, key, state),
                    stop=self._stop,
                )
            except Exception as exc:
                withdraw(path)  # the tests still waiting ask for themselves
                self._write(
                    f"shape-asserts: asking beside the tests failed ({type(exc).__name__}: {exc}); "
                    "cases not yet answered will be asked one by one"
                )
                return
            self._say_done()

        self._beside = threading.Thread(target=ask, name="shape-asserts-asking", daemon=True)
        self._beside.start()

    def tests_done(self) -> None:
        """The tests are over: the asking beside them ends too (at once for a run stopped early,
        ``-x`` or Ctrl-C: no new call starts, those in flight are recorded)."""
        if self._beside is not None:
            self._stop.set()
            self._beside.join()
            self._beside = None
        self._terms.close()

    def _write(self, line: str) -> None:
        from shape_asserts.text import printable

        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if tr is None:
            return
        line = printable(line)  # (a line may quote a recording or a provider: hostile text)
        under_way = getattr(getattr(tr, "_tw", None), "width_of_current_line", None)
        if threading.current_thread() is not threading.main_thread() and under_way:
            tr.write("\n")  # asking beside the tests: a row of xdist's progress letters is under way
        capman = self.config.pluginmanager.get_plugin("capturemanager")
        if capman is None:
            tr.write_line(line)
            return
        with capman.global_and_fixture_disabled():  # a test waiting for its answer: not its output
            tr.write_line(line)

    def _show(self, progress: Any) -> None:
        """A progress line when calls completed (at most every 2 s) and a heartbeat while none does,
        never the last one: the fetch's end says that once."""
        now = time.monotonic()
        if progress.finished is not None or progress.done >= progress.planned:
            return
        counts = (progress.done, progress.asked, progress.retried)
        since = now - self._last_line
        # the fetch ticks every heartbeat/4: a line older than 3/4 of it is due, so no gap exceeds it
        due = since >= 0.75 * progress.heartbeat
        if due or (counts != self._last_counts and since >= min(2.0, progress.heartbeat)):
            self._last_line, self._last_counts = now, counts
            self._write(progress.line())

    def ready_for(self, param: CaseParam) -> Job | None:
        """``param``'s case as the plan read it, when its recording was whole (see :attr:`ready`)."""
        if not self.ready:
            return None
        from shape_asserts.asking.runstate import RunState

        return self.ready.get(RunState.key(param.model, param.case.id))

    def close(self) -> None:
        """At the run's very end: remove the state the fetch left for xdist workers."""
        path = self.settings.state_path
        if path is not None and path.parent.name.startswith("shape-asserts-run-"):
            import shutil

            shutil.rmtree(path.parent, ignore_errors=True)


def will_ask(config: pytest.Config, settings: Settings) -> bool:
    """Whether this run of shape tests is sure to ask a model (:func:`~shape_asserts.plugin.workers.sure_to_ask`)."""
    if shape_only_files(config) is None:
        return False
    return sure_to_ask(settings.record, settings.fixtures_dir, settings.models)


def tests_will_run(session: pytest.Session) -> bool:
    """Whether this run goes on to execute tests: no model is asked (and paid) for any other.

    Not for ``--collect-only``, ``--setup-plan`` or ``--setup-only``, nor after a collection error
    (pytest then stops before the first test unless ``--continue-on-collection-errors``); a usage
    error (a bad ``-k``) never reaches here.
    """
    opt = session.config.option
    if getattr(opt, "collectonly", False) or getattr(opt, "setupplan", False) or getattr(opt, "setuponly", False):
        return False
    return not (session.testsfailed and not getattr(opt, "continue_on_collection_errors", False))
