"""The run object: what the plugin's hooks (:mod:`shape_asserts.plugin.hooks`) hand their work to.

One :class:`ShapeRun` is made per pytest process when pytest is configured. It holds the run's
settings, the fetch that asks each answer once (:class:`~shape_asserts.plugin.fetcher.Fetcher`,
not in an xdist worker: the controller asks for them) and the end-of-run collector of records
(:class:`~shape_asserts.plugin.session.VerdictSession`). It turns the shape tests' parameters
into tests, makes each test's :class:`~shape_asserts.plugin.suite.CaseRun`, and gives each
report its record.

Everything here is cheap for a run without shape tests: markers come from the families' names
(:mod:`shape_asserts.families.names`), the settings and the collector are built without loading a
case, and the library is imported where it is needed. The families and cases load at the first
test that requests ``shape_case`` (:meth:`ShapeRun.parametrize`); a broken third-party family
plugin is reported there, as a collection error (a run that collects no shape test never loads
the plugins).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import secrets
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts.exceptions import CaseError, FixtureError, ProviderError
from shape_asserts.families import names
from shape_asserts.plugin.fetcher import Fetcher
from shape_asserts.plugin.model_configs import provider_settings
from shape_asserts.plugin.options import benchmark_selected, resolve
from shape_asserts.plugin.record_hint import reproduce
from shape_asserts.plugin.session import VerdictOptions, VerdictSession, with_baseline
from shape_asserts.plugin.suite import CaseParam, CaseRun, Settings

if TYPE_CHECKING:
    from shape_asserts.results.record import CaseRecord

__all__ = ["ShapeRun"]

#: Set on a shape test's item once its ``shape_run`` fixture starts, and once it has its run.
_CASE_KEY = pytest.StashKey[CaseParam]()
_RUN_KEY = pytest.StashKey[CaseRun]()


class ShapeRun:
    """One pytest process's shape-asserts run: settings, fetch, records (see the module docstring)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        #: The family markers registered so far (the built-in ones, then plugins' as they load).
        self._markers: set[str] = set()
        self._add_markers()
        values = resolve(config)
        settings = self._settings(values)
        try:
            settings = with_baseline(settings, values["baseline"])
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.settings: Settings = settings
        options = VerdictOptions(
            report=values["report"],
            results=values["results"],
            baseline=values["baseline"],
            margin=values["gate_margin"],
            undecided=values["gate_undecided"],
        )
        self.verdicts = VerdictSession(config, settings, options)
        self._check_results_path(values["models_file"])
        self._check_case_files()
        #: The fetch asks once, in the process that sees the whole selection: never an xdist worker.
        self.fetcher: Fetcher | None = None if self.is_worker else Fetcher(config, settings)
        #: Whether this run made shape tests (:meth:`parametrize`), so loaded numpy, the families and the cases.
        self.made_shape_tests = False

    @property
    def is_worker(self) -> bool:
        """Whether this process is an xdist worker (the controller asks, and collects the records)."""
        return hasattr(self.config, "workerinput")

    # --- configuration ------------------------------------------------------------------------

    def _add_markers(self) -> None:
        config = self.config
        config.addinivalue_line("markers", "shape: a shape-drawing case asked of a model")
        config.addinivalue_line("markers", "seed: one of the seed post's own prompts")
        config.addinivalue_line(
            "markers", "benchmark: the benchmark matrix (hundreds of cases); run only when -m names it: -m benchmark"
        )
        # built in, then the installed plugins' entry points by name (a plugin loads at collection)
        self._add_family_markers(names.BUILTIN + names.declared())

    def _add_family_markers(self, families: tuple[str, ...]) -> None:
        """Register each family's marker (``-m circle``), once."""
        for family in families:
            if family not in self._markers:
                self._markers.add(family)
                self.config.addinivalue_line("markers", f"{family}: shape family '{family}'")

    def _settings(self, values: dict[str, Any]) -> Settings:
        """The run's settings from the resolved option values (see :mod:`shape_asserts.plugin.options`)."""
        fields = {f.name for f in dataclasses.fields(Settings)}
        given = {k: v for k, v in values.items() if k in fields}
        given.update(provider_settings(self.config, values["models_file"]))  # parsed, checked: no secret
        return Settings(
            **given,
            record_args=reproduce(self.config),
            state_path=self._state_path(),
            benchmark=benchmark_selected(self.config),
        )

    def _state_path(self) -> Path:
        """Where this run's fetch leaves its state: chosen by the controller, handed to xdist workers."""
        workerinput = getattr(self.config, "workerinput", None)
        if workerinput is not None and "shape_state_path" in workerinput:
            return Path(workerinput["shape_state_path"])
        # named, not made: only an xdist controller's fetch makes it (a usage error or a listing leaves
        # nothing); the pid lets a later run remove the folder of one that was killed
        # (runstate.sweep_run_folders)
        folder = f"shape-asserts-run-{os.getpid()}-{secrets.token_hex(6)}"
        return Path(tempfile.gettempdir()) / folder / "state.json"

    def _check_results_path(self, models_file: str | None) -> None:
        """A ``--shape-results`` or ``--shape-report`` file that could not be written stops the run
        at start (exit 4), before a call is paid for. So does one file named by two outputs (with
        ``--junitxml`` too: the last written would replace the other), an output naming one of the
        run's inputs (a ``--shape-cases`` file, the ``--shape-models`` file, pytest's configuration
        file), and a ``--shape-report``
        naming an existing results file (an earlier job's, which the page would destroy)."""
        options = self.verdicts.options
        outputs = [
            (flag, path)
            for flag, path in (("--shape-results", options.results), ("--shape-report", options.report))
            if path
        ]
        junit = getattr(self.config.option, "xmlpath", None)  # (opened as pytest opens it: ~ and $VARS)
        junit = os.path.expanduser(os.path.expandvars(junit)) if junit else None
        named = [*outputs, *([("--junitxml", junit)] if junit else [])]
        if not named or self.is_worker:  # the controller alone writes them
            return
        from shape_asserts.fileio import same_file
        from shape_asserts.results.results_file import holds_results, unwritable

        for (flag, path), (other, there) in itertools.combinations(named, 2):
            if same_file(path, there):
                raise pytest.UsageError(
                    f"shape-asserts: {flag} and {other} both name {path}: one would be written over the "
                    "other; give each a path of its own"
                )
        inputs = [("the --shape-cases file", str(p)) for p in self.settings.case_files]
        inputs += [("the --shape-models file", models_file)] if models_file else []
        inipath = self.config.inipath  # (its options, and model configurations in pyproject.toml)
        inputs += [("pytest's configuration file", str(inipath))] if inipath else []
        recordings = self.settings.fixtures_dir.resolve()
        for flag, path in named:
            if recordings in Path(path).resolve().parents:
                raise pytest.UsageError(
                    f"shape-asserts: {flag} {path} is in the recordings folder {self.settings.fixtures_dir}, the "
                    "run's input (a recording written over would be asked for again): give the output a path "
                    "outside it"
                )
        for (flag, path), (other, there) in itertools.product(named, inputs):
            if same_file(path, there):
                raise pytest.UsageError(
                    f"shape-asserts: {flag} names {other} {there}: the run would write over its own input; "
                    "give the output a path of its own"
                )
        if options.report and holds_results(options.report):
            raise pytest.UsageError(
                f"shape-asserts: --shape-report {options.report} is a results file (its first line is a "
                "results line): the report would be written over it; give the report a path of its own"
            )

        for flag, path in outputs:
            why = unwritable(path)
            if why is not None:
                raise pytest.UsageError(
                    f"shape-asserts: {flag} {path} cannot be written: {why}; give a file in a folder you can write"
                )

    def _check_case_files(self) -> None:
        """Load the user's case files now: a mistake in one is a one-line usage error (exit 4).

        Found at collection instead, it arrived inside pytest's traceback of the hook. A run without
        ``--shape-cases`` (or ``shape_cases``) loads nothing here: the built-in cases wait for a shape test.
        """
        if not self.settings.case_files:
            return
        try:
            self.settings.cases()  # kept: parametrize uses these
        except CaseError as exc:
            raise pytest.UsageError(f"shape-asserts: {exc}") from None

    def header(self) -> str | None:
        """The run header's line on timed-out calls: retried or not, and why (``None`` for a run
        that asks nothing: replay only, or only the in-process drawers)."""
        from shape_asserts.asking.failure import address, env_base_url
        from shape_asserts.asking.retry import served_locally, timeout_retries_for

        settings = self.settings
        asked = [settings.litellm_model(m) for m in settings.models]
        asked = [m for m in asked if not m.startswith("reference/")]
        if settings.record == "none" or not asked:
            return None
        if settings.timeout_retries is not None:
            return f"shape-asserts: a call that timed out is retried {settings.timeout_retries} time(s) (--timeout-retries)"

        def server(model: str) -> str:  # where the model's calls go
            if settings.api_base:
                return f"at {address(settings.api_base)}"
            from_env = env_base_url(model)
            return f"at {address(from_env[1])} ({from_env[0]})" if from_env else "at its provider's default server"

        parts = []
        for local in (False, True):
            models = [m for m in asked if served_locally(m, settings.api_base) == local]
            if not models:
                continue
            retries = timeout_retries_for(models[0], settings.api_base)
            served = server(models[0])
            if local:
                parts.append(
                    f"not retried for {', '.join(models)} (served on this machine or a private network {served}: "
                    "a local server is slow, not flaky, and goes on generating for a client that left) "
                    "unless it timed out queued behind other calls: then it is asked again, and calls go one at a time"
                )
            else:
                parts.append(f"retried {retries} times for {', '.join(models)} (served {served}, not locally)")
        return f"shape-asserts: a call that timed out is {'; '.join(parts)}; --timeout-retries N sets it"

    # --- collection -----------------------------------------------------------------------------

    def parametrize(self, metafunc: pytest.Metafunc) -> None:
        """Make a test that requests ``shape_case`` one test per model × case, with their markers."""
        from shape_asserts.families.registry import families

        try:
            loaded = families()  # the first time this run needs them: built in, then installed plugins'
        except CaseError as exc:  # a broken plugin: its message names it and the fix, no traceback
            raise pytest.Collector.CollectError(f"shape-asserts: {exc}") from None
        self._add_family_markers(tuple(loaded))  # a plugin's, when not named as its entry point
        try:
            cases = self.settings.cases()
        except CaseError as exc:  # one line, as for a broken plugin (the user's files were checked at start)
            raise pytest.Collector.CollectError(f"shape-asserts: {exc}") from None
        params = []
        for model in self.settings.models:
            for case in cases:
                param = CaseParam(model=model, case=case)
                marks = [pytest.mark.shape, getattr(pytest.mark, case.family)]
                if "seed" in case.tags:
                    marks.append(pytest.mark.seed)
                if "benchmark" in case.tags:
                    marks.append(pytest.mark.benchmark)
                params.append(pytest.param(param, id=param.id, marks=marks))
        metafunc.parametrize("shape_case", params)
        self.made_shape_tests = True

    def collected(self, session: pytest.Session) -> None:
        """Once tests are collected: note the selected cases (a gated run needs a result for each),
        and keep what collection left out of the cycle collector.

        numpy, the families, the cases and the items (~0.4 million objects) live to the end of the
        run, and each full pass of the collector during the tests, and at exit, walked them all
        again. Frozen (:func:`gc.freeze`), they are never walked, as they would never have been
        freed. Side by side, a serial replay of the 139 built-in cases took 3.20 s of CPU with
        this against 3.68 s without (median of 6 rounds on this project's 2-core machine); a run
        without shape tests is left as pytest has it.
        """
        self.verdicts.collected(session)
        if not (self.made_shape_tests and session.items):
            return
        import atexit
        import gc

        gc.freeze()
        # at exit as well, over what the tests left: every object goes to the operating system then
        # anyway; what exit handlers registered later make is collected as usual
        atexit.register(gc.freeze)

    # --- a test ---------------------------------------------------------------------------------

    def case_run(self, request: pytest.FixtureRequest, param: CaseParam) -> CaseRun:
        """One model × case: its answers (recorded, replayed or asked now) ready to be judged."""
        node = request.node
        node.stash[_CASE_KEY] = param  # from here on the test is a shape case, with a record
        fetcher = self.fetcher
        state = fetcher.state if fetcher is not None else None  # None: read the run's state file
        ready = fetcher.ready_for(param) if fetcher is not None else None  # the plan read it whole
        obtained = self.settings.obtain(param, state, ready)
        snapshot = None
        if request.config.pluginmanager.hasplugin("syrupy"):  # -p no:syrupy: nothing is pinned
            snapshot = request.getfixturevalue("snapshot")
        node.stash[_RUN_KEY] = run = CaseRun(param, self.settings, obtained, node, snapshot)
        return run

    def settle_report(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """Give a shape test's report its one-line reason and its record (as a user property)."""
        # A provider outage or a bad recording is the harness's problem, not the model's drawing:
        # show the one-line reason (it names the cause and the fix) instead of a traceback.
        if call.excinfo is not None and isinstance(call.excinfo.value, (ProviderError, FixtureError)):
            from shape_asserts.text import printable

            # the provider's words are hostile text: no escape sequence reaches the terminal
            report.longrepr = printable(f"{type(call.excinfo.value).__name__}: {call.excinfo.value}")
        param = item.stash.get(_CASE_KEY, None)
        if param is not None and (call.when == "call" or (call.when == "setup" and not report.passed)):
            prop = _record(item, param, report).as_property()
            item.user_properties.append(prop)  # later phases' reports and JUnit XML carry it too
            report.user_properties.append(prop)
        if param is not None and call.when == "teardown":
            # its last report carries the record: the item, kept to the session's end, need not
            # hold the answers, drawings and scores any longer
            from shape_asserts.results.record import PROPERTY

            if _RUN_KEY in item.stash:
                del item.stash[_RUN_KEY]
            item.user_properties[:] = [p for p in item.user_properties if p[0] != PROPERTY]


def _record(item: pytest.Item, param: CaseParam, report: pytest.TestReport) -> CaseRecord:
    """A shape test's one record, as its report settles it: judged at its call, or why it is not."""
    from shape_asserts.results.record import CaseRecord, report_reason

    if report.when == "setup":
        outcome = "error" if report.failed else "skipped"
    else:
        outcome = report.outcome
    reason = "" if report.passed else report_reason(report)
    run = item.stash.get(_RUN_KEY, None)
    if run is not None and run.result is not None:
        return CaseRecord.from_result(run.result, outcome, reason, answers=run.obtained.answers)
    if report.when == "call" and report.passed:
        reason = "the test passed without judging its answers (it never called shape_run.check())"
    return CaseRecord.unjudged(param.model, param.case, outcome, reason)
