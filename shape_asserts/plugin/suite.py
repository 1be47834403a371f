"""The suite's per-run objects: settings resolved from options, and one case's run.

The plugin builds a :class:`Settings` from the command line and ini file, parametrizes tests with
:class:`CaseParam` (model × case), and hands each test a :class:`CaseRun` whose ``check()`` scores
the answers, compares the snapshot and asserts. The plugin's report hook turns the run's result and
the test's outcome into the test's one :class:`~shape_asserts.results.record.CaseRecord`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts import defaults

if TYPE_CHECKING:
    from shape_asserts.asking.asker import Asker, Job, Obtained
    from shape_asserts.asking.model_config import ModelConfig
    from shape_asserts.asking.runstate import Progress, RunState
    from shape_asserts.cases import Case
    from shape_asserts.results.verdict import CaseResult

# The library (numpy, the families, the store) is imported by the methods that use it: the plugin
# builds a Settings in every pytest run, and only a run with shape tests loads cases or asks.

__all__ = [
    "Settings",
    "CaseParam",
    "CaseRun",
    "DEFAULT_MODEL",
    "plan",
    "prefetch",
    "ask_planned",
    "refuse_uncapped",
    "run_cases",
    "many_results",
    "drawings_in_terminal",
]

DEFAULT_MODEL = defaults.MODEL


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to ask, record and judge; built once per process."""

    models: tuple[str, ...] = (defaults.MODEL,)
    #: ``--baseline``: one of :attr:`models`, asked before the others (:meth:`Asker.plan`).
    baseline: str | None = None
    record: str = defaults.RECORD
    fixtures_dir: Path = Path(defaults.FIXTURES_DIR)
    snapshots_dir: Path = Path(defaults.SNAPSHOTS_DIR)
    temperature: float | None = None
    max_tokens: int = defaults.MAX_TOKENS
    lang: str = defaults.LANG
    samples: int = defaults.SAMPLES
    min_pass_rate: float = defaults.MIN_PASS_RATE
    api_base: str | None = None
    timeout: float = defaults.TIMEOUT
    case_files: tuple[Path, ...] = ()
    concurrency: int = defaults.CONCURRENCY
    max_retries: int = defaults.MAX_RETRIES
    #: ``None``: by where each model is served (:func:`~shape_asserts.asking.retry.timeout_retries_for`).
    timeout_retries: int | None = None
    max_cost: float | None = None
    batch: bool = defaults.BATCH
    #: Seconds a batch run polls its batch before it stops waiting (the batch is kept).
    batch_wait: float = defaults.BATCH_WAIT
    #: The run's own settings a command recording one of its cases repeats (``--flag=value`` each).
    record_args: tuple[str, ...] = ()
    #: ``--model-arg`` items as given (ini ``shape_model_args`` first); parsed: :attr:`provider_args`.
    model_args: tuple[str, ...] = ()
    #: ``--shape-models``: the file of named configurations; read: :attr:`configs`.
    models_file: Path | None = None
    #: Arguments sent to every model, parsed from :attr:`model_args` (set by the plugin).
    provider_args: Mapping[str, Any] = field(default_factory=dict)
    #: Named model configurations by name: :attr:`models_file`'s and ``[tool.shape-asserts.models]``'s
    #: (set by the plugin).
    configs: Mapping[str, ModelConfig] = field(default_factory=dict)
    #: Where the fetch leaves what it could not get (set per run by the plugin).
    state_path: Path | None = None
    #: Whether the run has the benchmark matrix (``-m`` names ``benchmark``): else cases tagged
    #: ``benchmark`` (built in or the user's) are not even generated, and the quick run stays quick.
    benchmark: bool = False
    _cases: list[Case] = field(default_factory=list, compare=False, repr=False)

    def cases(self) -> list[Case]:
        """The run's cases: built-in ones, then the user's files (loaded once); the benchmark's
        (tagged ``benchmark``) only in a benchmark run."""
        if not self._cases:
            from shape_asserts.asking.reference import serve

            self._cases.extend(run_cases(self.case_files, benchmark=self.benchmark))
            serve(self._cases)  # reference/* answers the run's own case files' prompts too
        return self._cases

    def asker(self, record: str | None = None) -> Asker:
        """The run's asker (under another record mode when ``record`` is given)."""
        if (record or self.record) == "none":
            return self._replayer  # it never writes: every test of the process shares one
        return self._make_asker(record or self.record)

    @functools.cached_property
    def _replayer(self) -> Asker:
        """The replay-only asker, made once (kept in the instance, not a field: a copy made by
        ``dataclasses.replace`` makes its own)."""
        return self._make_asker("none")

    def _make_asker(self, record: str) -> Asker:
        from shape_asserts.asking.asker import Asker
        from shape_asserts.asking.store import FixtureStore

        return Asker(
            FixtureStore(self.fixtures_dir),
            record,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            lang=self.lang,
            timeout=self.timeout,
            api_base=self.api_base,
            max_retries=self.max_retries,
            timeout_retries=self.timeout_retries,
            concurrency=self.concurrency,
            max_cost=self.max_cost,
            record_args=self.record_args,
            model_args=self.provider_args,
            configs=self.configs,
            batch=self.batch,
        )

    def litellm_model(self, model: str) -> str:
        """The litellm model the run's model ``model`` asks: its configuration's, or the name itself."""
        config = self.configs.get(model)
        return config.model if config is not None else model

    def params(self) -> dict[str, CaseParam]:
        """Every model × case of the run, by test id."""
        out = {}
        for model in self.models:
            for case in self.cases():
                p = CaseParam(model=model, case=case)
                out[p.id] = p
        return out

    def obtain(self, param: CaseParam, state: RunState | None = None, ready: Job | None = None) -> Obtained:
        """The answers for one test: replayed after the run's fetch, else recorded/asked here.

        ``state`` is what the asking left for this case when it asked while the tests ran, or what
        this process's fetch left (else the run's state file is read: an xdist worker's).
        ``ready`` is this case's job from that fetch's plan when its recording was whole then: its
        answers are replayed as the plan read them, not read again.

        Raises
        ------
        ProviderError
            A call for this case failed (the provider's last reply is named).
        FixtureError
            No valid recording where one is required, or an answer that could not be recorded.
        pytest.skip.Exception
            ``--max-cost`` was reached before this case was asked.
        """
        from shape_asserts.asking.runstate import NotAsked, RunState, wait_for

        if state is None and self.state_path is not None:  # an xdist worker: the controller asks
            state = wait_for(self.state_path, RunState.key(param.model, param.case.id))
        record = None
        try:
            if state is not None and state.fetched:
                state.raise_for(param.model, param.case.id)
                if ready is not None and not self.batch:
                    return ready.obtained(self.samples)
                # The fetch answered every test it could match, so this replays and never asks
                # twice; a test it could not match (an xdist node id with more parameters than
                # model × case) asks here for what is still missing, as a run without the fetch would.
                record = "none" if self.record == "none" else "missing"
            if self.batch:
                record = "none"  # a batch run asks through its batch only, never call by call
            return self.asker(record).obtain(param.model, param.case, self.samples)
        except NotAsked as exc:
            pytest.skip(str(exc))


def many_results(settings: Settings) -> bool:
    """Whether the run is one of many results: two models or more (a ``--baseline`` counts), or
    the benchmark matrix (``-m benchmark``), the runs that also end with a leaderboard."""
    return len(settings.models) > 1 or settings.benchmark


def drawings_in_terminal(settings: Settings, verbosity: int) -> bool:
    """Whether a failing case's message shows its drawings, or is one line.

    One line per failing case in a run of many results (:func:`many_results`): ten models of the
    benchmark once printed 14 MB, a drawing of ~60 lines per failing case, with the leaderboard at
    the bottom of it. ``-v`` (``verbosity`` 1 or more) brings the drawings back, and the HTML
    report (``--shape-report``) always has them.
    """
    return verbosity >= 1 or not many_results(settings)


#: The last cases loaded in this process, by their files' paths, sizes and times: ``-n auto`` counts
#: the run's tests before pytest is configured (plugin/workers.py), and the run reuses what it loaded.
_LOADED: list[tuple[object, list[Case]]] = []


def run_cases(case_files: tuple[Path, ...], *, benchmark: bool = False) -> list[Case]:
    """The built-in cases, then ``case_files``' (loaded again only when a file changed); the
    benchmark's (tagged ``benchmark``, user cases too) only in a ``benchmark`` run."""
    from shape_asserts.cases import builtin_case_files, load_cases
    from shape_asserts.cases.load import BENCHMARK

    def stamp(path: Path) -> object:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    key = (benchmark, *((str(p), stamp(p)) for p in (*builtin_case_files(), *case_files)))
    if not _LOADED or _LOADED[0][0] != key:
        loaded = load_cases(case_files, benchmark=benchmark)
        _LOADED[:] = [(key, [c for c in loaded if benchmark or BENCHMARK not in c.tags])]
    return list(_LOADED[0][1])


@dataclass(frozen=True)
class CaseParam:
    """One test's parameter: a model and a case."""

    model: str
    case: Case

    @property
    def id(self) -> str:
        return f"{self.case.id}@{self.model}"


class CaseRun:
    """One model × case inside a test: answers obtained at setup, verdict at ``check()``.

    ``result`` holds the verdict once judged; the report hook makes the test's record from it.
    """

    def __init__(
        self,
        param: CaseParam,
        settings: Settings,
        obtained: Obtained,
        node: pytest.Item,
        snapshot: Any | None,
    ) -> None:
        self.param = param
        self.settings = settings
        self.obtained = obtained
        self.node = node
        self._snapshot = snapshot
        self.result: CaseResult | None = None

    def judge(self) -> CaseResult:
        """Parse and score every sample (once); the test's record is made from this result."""
        if self.result is None:
            from shape_asserts.results.verdict import judge

            p = self.param
            answers = self.obtained.answers or self.obtained.texts
            self.result = judge(p.case, p.model, answers, self.settings.min_pass_rate)
        return self.result

    def _compare_snapshot(self, result: CaseResult) -> str | None:
        """Compare with the pinned summary; the reason it differs, or ``None``."""
        snap = self._snapshot
        if snap is None:
            return None
        from shape_asserts.results.snapshots import extension_for, family_folder, snapshot_folder

        s = self.settings
        folder = snapshot_folder(s.snapshots_dir, self.param.model, s.lang, s.samples)
        if not folder.is_dir() and not snap.update_snapshots:
            return None  # this model has no snapshots: nothing pinned, not an error
        case = self.param.case
        family = family_folder(case)
        plain = snap.include is None and snap.exclude is None and snap.matcher is None
        ext = snap.use_extension(extension_for(folder, family, case.id, plain=plain))
        if ext == result.summary():
            return None
        from shape_asserts.text import printable

        # the diff quotes the snapshot file's lines: a committed file is read as hostile text
        diff = printable("\n".join(ext.get_assert_diff()))
        return (
            f"result differs from the snapshot in {folder / family / (case.id + '.json')}; "
            f"review and accept with --snapshot-update\n{diff}"
        )

    def check(self) -> CaseResult:
        """Judge, compare the snapshot, and fail the test with a readable reason if needed."""
        result = self.judge()
        mismatch = self._compare_snapshot(result)
        if not result.passed:
            if drawings_in_terminal(self.settings, self.node.config.get_verbosity()):
                message = result.failure_message()
            else:
                message = result.failure_line()
            if mismatch:
                message += "\n\n" + mismatch.splitlines()[0]
            pytest.fail(message, pytrace=False)
        if mismatch:
            pytest.fail(mismatch, pytrace=False)
        return result


def plan(
    settings: Settings, params: list[CaseParam], on_decision: Any = None, ready: dict[str, Job] | None = None
) -> list[Job]:
    """The run's calls: every selected model × case × sample without a valid recording.

    ``on_decision(line)`` hears, once each, why a recording that exists is asked again (stale,
    corrupt and moved aside, ``--record=all``), so no paid call is made without a word. ``ready``
    receives the cases needing no call (:meth:`Asker.plan`).
    """
    asker = settings.asker()
    jobs = asker.plan([(p.model, p.case) for p in params], settings.samples, ready, first=settings.baseline)
    if on_decision is not None:
        for line in asker.decisions(jobs):
            on_decision(line)
    return jobs


def prefetch(
    settings: Settings,
    jobs: list[Job],
    on_progress: Any = None,
    on_decision: Any = None,
    on_settled: Any = None,
    stop: threading.Event | None = None,
) -> Progress | None:
    """Ask for the planned calls (:func:`plan`) concurrently, before the tests run (or while they
    wait for their case: ``on_settled(key, state)`` hears of each case once it is settled, and
    once ``stop`` is set no call is started).

    Writes the run state (failures, unasked cases) to ``settings.state_path`` for the tests (an
    xdist controller's, for its workers; :func:`ask_planned` keeps it in memory instead).
    Returns the fetch's counters, or ``None`` when nothing had to be asked. ``on_decision(line)``
    hears what a batch run says as it goes.
    """
    state, progress = ask_planned(settings, jobs, on_progress, on_decision, on_settled, stop)
    if settings.state_path is not None:
        settings.state_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as mkdtemp's
        state.write(settings.state_path)
    return progress if jobs else None


def ask_planned(
    settings: Settings,
    jobs: list[Job],
    on_progress: Any = None,
    on_decision: Any = None,
    on_settled: Any = None,
    stop: threading.Event | None = None,
) -> tuple[RunState, Progress]:
    """Ask for the planned calls as :func:`prefetch` does; the run state and the counters, for a
    process whose own tests read the state (no file written)."""
    asker = settings.asker()
    if settings.batch:
        from shape_asserts.asking.batch import BatchRunner, BatchUnavailable

        if jobs and settings.max_cost is not None:  # a batch is submitted whole: no cap could stop it part-way
            raise pytest.UsageError(
                f"shape-asserts: --max-cost {settings.max_cost:g} cannot bound a --batch run: a batch is submitted "
                "whole, so nothing could stop it once the cap was spent; drop --max-cost (or shape_max_cost), "
                "or ask without --batch"
            )

        try:
            return BatchRunner(asker, settings.samples, say=on_decision, wait=settings.batch_wait).fetch(jobs)
        except BatchUnavailable as exc:
            raise pytest.UsageError(f"shape-asserts: {exc}") from None
    return asker.fetch(jobs, on_progress, on_settled=on_settled, stop=stop)


def refuse_uncapped(settings: Settings, jobs: list[Job]) -> list[str]:
    """Refuse, before the first call, a ``--max-cost`` that cannot count what the planned calls
    cost (:meth:`~shape_asserts.asking.asker.Asker.uncapped`): a cap that lets a model's calls
    through uncounted is no cap. Returns the line to say, before asking, of the models it takes
    to cost nothing (none, or one).

    Raises
    ------
    pytest.UsageError
        Naming each such model and why.
    """
    uncapped, free = settings.asker().uncapped(jobs)
    if uncapped:
        raise pytest.UsageError(
            f"shape-asserts: --max-cost {settings.max_cost:g} cannot bound what these calls cost, so nothing was "
            f"asked: {'; '.join(uncapped)}. Drop --max-cost (or shape_max_cost) to ask them without a cap, or "
            "leave the model out of this run"
        )
    if not free:
        return []
    return [
        f"--max-cost {settings.max_cost:g} takes {', '.join(free)} to cost nothing: litellm lists no price for "
        f"{'it' if len(free) == 1 else 'them'}, and {'it is' if len(free) == 1 else 'they are'} served on this "
        "machine or a private network (a proxy there to a paid provider is not counted)"
    ]
