"""The run's asking, once, by the process that sees the whole selection (made by the run object,
:mod:`shape_asserts.plugin.run`, outside xdist workers; driven by :mod:`shape_asserts.plugin.hooks`).

A run without xdist hands its plan to a second process that asks while the tests run, each test
waiting only for its own case (:mod:`shape_asserts.asking.background`); an xdist controller asks
every call before its workers' tests start (they replay); ``--batch`` and the in-process reference
drawers ask before the tests, in this process. Nothing is asked for a run that will not execute
its tests (``--collect-only``, a collection error).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts.plugin.suite import CaseParam, Settings, ask_planned, plan, prefetch
from shape_asserts.plugin.workers import shape_only_files

if TYPE_CHECKING:
    from shape_asserts.asking.asker import Job
    from shape_asserts.asking.background import BackgroundFetch
    from shape_asserts.asking.runstate import RunState

__all__ = ["Fetcher", "tests_will_run", "will_ask"]


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
        self._last_line = 0.0
        self._last_counts: tuple[int, ...] = ()
        self._last_wait_line = ""

    def start(self, session: pytest.Session) -> None:
        """At session start, before collection: begin what takes long in a run sure to ask.

        An xdist controller imports litellm while its workers start (it asks once they have
        collected, seconds later); a run without xdist starts its asking process, which imports
        litellm while pytest collects. Nothing is sent before the plan."""
        self.session = session
        if self.config.pluginmanager.has_plugin("dsession"):
            if will_ask(self.config, self.settings):
                from shape_asserts.asking.call import preload_litellm

                preload_litellm()
        elif _in_background(self.settings) and _may_run_tests(self.config) and will_ask(self.config, self.settings):
            self._start_background()

    def _start_background(self) -> BackgroundFetch | None:
        if self.background is None:
            from shape_asserts.asking.background import BackgroundFetch

            try:
                self.background = BackgroundFetch.start()
            except OSError as exc:  # no second process here: ask before the tests, in this one
                self._write(f"shape-asserts: cannot start the asking process ({exc}); asking before the tests")
        return self.background

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
            self._fetch(params, background=True)

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
                calls = sum(len(j.indices) for j in jobs)
                say(f"asking {calls} call(s) in a second process while the tests run; each test waits for its own")
                return
            if background:  # no xdist: the tests that read the state run in this process
                self.state, progress = ask_planned(settings, jobs, on_progress=self._show, on_decision=say)
                self.progress = progress if jobs else None
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

    def finish(self) -> None:
        """At session end: the asking process's last words, once its calls in flight are recorded."""
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

    def close(self) -> None:
        """At the run's very end: stop an asking process still running; remove the run's state."""
        if self.background is not None:  # an interrupted run: stop asking now
            self.background.close()
        path = self.settings.state_path
        if path is not None and path.parent.name.startswith("shape-asserts-run-"):
            import shutil

            shutil.rmtree(path.parent, ignore_errors=True)


def will_ask(config: pytest.Config, settings: Settings) -> bool:
    """Whether this run of shape tests is sure to ask a model: ``--record=all``, or a model with
    no recordings at all (a guess made before collection; when it is wrong, nothing is sent)."""
    if settings.record == "none" or shape_only_files(config) is None:
        return False
    if settings.record == "all":
        return True
    from shape_asserts.asking.store import model_slug

    return any(not (settings.fixtures_dir / model_slug(m)).is_dir() for m in settings.models)


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
