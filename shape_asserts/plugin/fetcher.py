"""The run's asking, once, by the process that sees the whole selection (registered by
:mod:`shape_asserts.plugin.hooks` outside xdist workers).

A run without xdist hands its plan to a second process that asks while the tests run, each test
waiting only for its own case (:mod:`shape_asserts.asking.background`); an xdist controller asks
every call before its workers' tests start (they replay); ``--batch`` and the in-process reference
drawers ask before the tests, in this process. Nothing is asked for a run that will not execute
its tests (``--collect-only``, a collection error).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts.plugin.suite import CaseParam, Settings, ask_planned, plan, prefetch

if TYPE_CHECKING:
    from shape_asserts.asking.asker import Job
    from shape_asserts.asking.background import BackgroundFetch
    from shape_asserts.asking.runstate import RunState
    from shape_asserts.results.ahead import Ahead

__all__ = ["FETCHER", "Fetcher", "tests_will_run"]

#: The name the fetcher is registered under.
FETCHER = "shape-asserts-fetcher"


def _in_background(settings: Settings, params: list[CaseParam] | None = None) -> bool:
    """Whether this run asks from a second process while its tests run: a live run outside xdist,
    not ``--batch``, not the reference drawers (they answer in this process, from its cases), and
    not when litellm was replaced in this process (a test's stand-in)."""
    models = {p.model for p in params} if params is not None else set(settings.models)
    if settings.batch or settings.record == "none" or any(m.startswith("reference/") for m in models):
        return False
    from shape_asserts.asking import call

    # a stand-in for litellm put in this process (a test's fake) is not in the second one
    return getattr(call.load_litellm, "__module__", None) == call.__name__


class Fetcher:
    """Plans and makes the run's live calls once, in the process that sees the whole selection."""

    def __init__(self, config: pytest.Config, settings: Settings) -> None:
        self.config = config
        self.settings = settings
        self.background: BackgroundFetch | None = None
        self.session: pytest.Session | None = None
        self.done = False
        self.progress: Any = None
        #: The run state of this process's fetch, for its own tests (no xdist: no state file).
        self.state: RunState | None = None
        #: The cases the plan found whole, by :attr:`Job.key`: this process's tests replay them as read.
        self.ready: dict[str, Job] = {}
        #: The process judging those ahead, in a ``-n auto`` run that runs in one process.
        self.ahead: Ahead | None = None
        self._last_line = 0.0
        self._last_counts: tuple[int, ...] = ()
        self._last_wait_line = ""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:  # xdist controller: tell workers the path
        node.workerinput["shape_state_path"] = str(self.settings.state_path)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session
        from shape_asserts.plugin.workers import preload_if_asking, will_ask

        early = self.config.stash.get(_EARLY_KEY, None)
        if early is not None:
            del self.config.stash[_EARLY_KEY]
        if self.config.pluginmanager.has_plugin("dsession"):  # workers start now; the asking waits for them
            if early is not None:  # -n auto chose workers after all: the controller asks
                early.close()
            preload_if_asking(self.config, self.settings)
        elif _in_background(self.settings) and _may_run_tests(self.config) and will_ask(self.config, self.settings):
            self.background = early  # started with the options (start_early), or now
            self._start_background()  # litellm imports there while pytest collects
        elif early is not None:
            early.close()

    def _start_background(self) -> BackgroundFetch | None:
        if self.background is None:
            from shape_asserts.asking.background import BackgroundFetch

            try:
                self.background = BackgroundFetch.start()
            except OSError as exc:  # no second process here: ask before the tests, in this one
                self._write(f"shape-asserts: cannot start the asking process ({exc}); asking before the tests")
        return self.background

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:  # no xdist: the tests are about to run
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
            self._fetch(params, background=True)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
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

    def _fetch(self, params: list[CaseParam], background: bool = False) -> None:
        if self.done:
            return
        self.done = True
        settings = self.settings
        from shape_asserts.asking.runstate import sweep_run_folders

        sweep_run_folders()  # those of killed runs: this run makes its own now
        say = lambda line: self._write(f"shape-asserts: {line}")
        try:
            # no xdist (background): the tests run here, and may replay what the plan read
            jobs = plan(settings, params, on_decision=say, ready=self.ready if background else None)
            if jobs and background and _in_background(settings, params) and self._start_background() is not None:
                assert self.background is not None
                self.background.submit(settings.asker(), jobs)
                self._judge_ahead(params)  # what was recorded already, while the rest is asked
                calls = sum(len(j.indices) for j in jobs)
                say(f"asking {calls} call(s) in a second process while the tests run; each test waits for its own")
                return
            if background:  # no xdist: the tests that read the state run in this process
                self.state, progress = ask_planned(settings, jobs, on_progress=self._show, on_decision=say)
                self.progress = progress if jobs else None
                self._judge_ahead(params)
            else:  # an xdist controller: its workers read the state from the run's file
                self.progress = prefetch(settings, jobs, on_progress=self._show, on_decision=say)
        except pytest.UsageError:
            raise  # --batch for a model without a batch interface: nothing was asked
        except Exception as exc:
            self._write(
                f"shape-asserts: fetching before the tests failed ({type(exc).__name__}: {exc}); "
                f"cases will be asked one by one"
            )
            if settings.state_path is not None and settings.state_path.exists():
                settings.state_path.unlink()
            return
        if self.progress is not None:
            self._write(self.progress.line())
            for line in self.progress.usage_lines():
                self._write(line)

    def _judge_ahead(self, params: list[CaseParam]) -> None:
        """In a ``-n auto`` run that runs in one process: hand the process started to judge ahead
        (:mod:`shape_asserts.results.ahead`) the recorded answers the plan read whole, in the tests'
        order; without any, stop it."""
        from shape_asserts.plugin.workers import JUDGE_AHEAD

        ahead = self.config.stash.get(JUDGE_AHEAD, None)
        if ahead is None:
            return
        del self.config.stash[JUDGE_AHEAD]
        from shape_asserts.asking.runstate import RunState
        from shape_asserts.results.ahead import Work, case_print

        work, seen = [], set()
        for p in params:
            key = RunState.key(p.model, p.case.id)
            job = self.ready.get(key)
            if job is None or key in seen:
                continue
            seen.add(key)
            got = job.obtained(self.settings.samples)
            answers = got.answers or got.texts
            work.append(Work(key, p.case.id, p.model, answers, self.settings.min_pass_rate, case_print(p.case)))
        if not work:
            ahead.close()
            return
        ahead.submit(work)
        self.ahead = ahead

    def _write(self, line: str) -> None:
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if tr is None:
            return
        capman = self.config.pluginmanager.get_plugin("capturemanager")
        if capman is None:
            tr.write_line(line)
            return
        with capman.global_and_fixture_disabled():  # a test waiting for its answer: not its output
            tr.write_line(line)

    def _waiting(self, line: str) -> None:
        """A test waits for its case to be asked: the asking's latest progress line, once each."""
        if line != self._last_wait_line:
            self._last_wait_line = line
            self._write(line)

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

    def settled(self, param: CaseParam, on_wait: Callable[[str], None] | None = None) -> RunState | None:
        """What the asking left for ``param``'s case once it is settled, when a second process asks
        while the tests run, else what this process's fetch left (``None``: no fetch here; the test
        reads the run's state file, if any, or asks for itself)."""
        bg = self.background
        if bg is None or bg.submitted is None:
            return self.state
        from shape_asserts.asking.runstate import RunState

        return bg.wait(RunState.key(param.model, param.case.id), on_wait or self._waiting)

    @pytest.hookimpl(tryfirst=True)  # before the terminal's summary: the asking's last words come first
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        bg = self.background
        if bg is None:
            return
        self._write("")
        for line in bg.finish(timeout=self.settings.timeout + 30, say=self._write):
            self._write(line)
        if bg.first_answer is not None:
            self._write(f"shape-asserts: the first answer came {bg.first_answer:.1f}s after the plan was handed over")
        bg.close()
        self.background = None

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.background is not None:  # an interrupted run: stop asking now
            self.background.close()
        if self.ahead is not None:
            self.ahead.close()
            self.ahead = None
        path = self.settings.state_path
        if path is not None and path.parent.name.startswith("shape-asserts-run-"):
            import shutil

            shutil.rmtree(path.parent, ignore_errors=True)


#: The asking process :func:`start_early` started, until the fetcher takes it at session start.
_EARLY_KEY = pytest.StashKey["BackgroundFetch"]()


def start_early(config: pytest.Config) -> None:
    """Start the asking process now, from ``pytest_cmdline_main``, for a run sure to ask from one.

    Its first seconds are litellm's import; begun here, they overlap pytest's configuration, the
    families' and cases' loading (``-n auto`` counts the cases before the session starts) and
    collection. The fetcher takes it over at session start, or stops it when the run turns out not
    to ask from it (``-n auto`` chose workers, litellm was replaced): nothing is sent before the
    plan, and the plan is handed over only once the tests are certain to run.
    """
    # a test's stand-in for litellm is not in the second process (a stand-in is put in the module,
    # so a run that has not imported it has none, and need not pay for importing it here)
    call = sys.modules.get("shape_asserts.asking.call")
    if call is not None and getattr(call.load_litellm, "__module__", None) != call.__name__:
        return
    from shape_asserts.asking.background import BackgroundFetch

    try:
        early = BackgroundFetch.start()
    except OSError:
        return  # the fetcher says so at session start, when it tries again
    config.stash[_EARLY_KEY] = early
    config.add_cleanup(early.close)  # a usage error after this point: the process does not outlive the run


def _may_run_tests(config: pytest.Config) -> bool:
    """Whether the options let the run execute tests (collection may still say otherwise)."""
    opt = config.option
    return not (
        getattr(opt, "collectonly", False) or getattr(opt, "setupplan", False) or getattr(opt, "setuponly", False)
    )


def tests_will_run(session: pytest.Session) -> bool:
    """Whether this run goes on to execute tests: no model is asked (and paid) for any other.

    Not for ``--collect-only``, ``--setup-plan`` or ``--setup-only``, nor after a collection error
    (pytest then stops before the first test unless ``--continue-on-collection-errors``); a usage
    error (a bad ``-k``) never reaches here.
    """
    opt = session.config.option
    if not _may_run_tests(session.config):
        return False
    return not (session.testsfailed and not getattr(opt, "continue_on_collection_errors", False))
