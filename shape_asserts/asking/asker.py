"""The asker: gets a run's answers, replayed from the recordings or asked of the model and recorded.

``--record`` modes (the safe one is the default):

* ``none`` — replay only. A missing, short, stale or corrupt recording is a :class:`FixtureError`
  saying how to record it. litellm is never imported.
* ``missing`` (default) — replay what is recorded and valid; ask the model only for what is not
  (a missing file, missing samples, a stale recording). A corrupt file is moved aside, not lost.
* ``all`` — ask the model for every sample again and replace those samples in the recording.

One path serves both ways a run asks. A live run's limit is the provider — N calls × latency ÷
allowed concurrency — not the CPU cores xdist has, so the process that sees the whole selection
plans every model × case × sample without a valid recording (:meth:`Asker.plan`) and asks for all
of them at once (:meth:`Asker.fetch`), before the tests; the tests then replay. A test the fetch did not cover asks for itself (:meth:`Asker.obtain`)
through the same plan and the same calls.

Every answer is written to its fixture the moment it arrives (atomically: a killed run leaves
complete files and asks only for the rest next time). A failed call records nothing, and once a
sample of a case failed its samples not yet asked are not asked (the test errors anyway); samples
already answered are kept. Once ``--max-cost`` is spent no call is started; the cases left are
skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shlex
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from shape_asserts.asking.call import Answer, TimedOut, Unsent, aask, litellm_version, why_uncapped, worst_cost
from shape_asserts.asking.failure import error_reason
from shape_asserts.asking.model_config import ModelConfig, Sent, resolve
from shape_asserts.asking.prices import answer_limit
from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.asking.retry import RateLimit, interruptible_sleep, is_rate_limited, maybe_billed, served_locally
from shape_asserts.asking.runstate import NotAsked, Progress, RunState
from shape_asserts.asking.store import FixtureStore, Recording, model_slug, sample_record
from shape_asserts.asking.turns import Turn, Turns
from shape_asserts.defaults import (
    CONCURRENCY,
    LANG,
    MAX_RETRIES,
    MAX_TOKENS,
    RATE_LIMIT_PATIENCE,
    RECORD,
    RECORD_MODES,
    SAMPLES,
    TIMEOUT,
)
from shape_asserts.exceptions import FixtureError, ModelUnavailable, ProviderError

if TYPE_CHECKING:  # asking needs a case's prompts, not the families' import
    from shape_asserts.cases import Case

__all__ = ["RECORD_MODES", "Asker", "Job", "Obtained"]

#: Asks one model once: :func:`shape_asserts.asking.call.aask` or a stand-in with its signature.
CallFn = Callable[..., Awaitable[Answer]]

#: Decisions said one line each before a fetch; past this many, one line counts the rest.
MAX_DECISION_LINES = 20
#: Seconds between looks at a sample's claim another process holds (:meth:`_Fetch._claim`).
CLAIM_POLL_S = 0.2
#: Seconds between looks at the room ``--max-cost`` leaves while calls in flight hold it
#: (:meth:`_Fetch._budget_room`).
BUDGET_POLL_S = 0.05


@dataclass(frozen=True)
class Job:
    """One case's samples that must be asked (none when it replays), the recording they complete,
    and why they are asked."""

    model: str
    case: Case
    indices: tuple[int, ...]
    recording: Recording
    reason: str = ""
    #: Whether a recording exists and is asked again (stale, corrupt, ``--record=all``).
    again: bool = False

    @property
    def key(self) -> str:
        return RunState.key(self.model, self.case.id)

    def obtained(self, samples: int, asked: int = 0) -> Obtained:
        """The ``samples`` answers the recording holds (all of them: nothing is left to ask),
        ``asked`` of which this run asked."""
        return Obtained(
            texts=tuple(self.recording.texts(samples)),
            asked=asked,
            replayed=samples - asked,
            note=self.reason,
            answers=tuple(self.recording.answers(samples)),
        )


@dataclass(frozen=True)
class Obtained:
    """The answer texts of one case and where they came from."""

    texts: tuple[str, ...]
    asked: int
    replayed: int
    note: str = ""
    #: The same answers with every shape and fact recorded (refusal, tool calls, finish reason, cuts).
    answers: tuple[RecordedAnswer, ...] = ()


@dataclass(frozen=True)
class Asker:
    """A run's way of asking: the call parameters over one store.

    Every model of the run is asked with the same parameters, except what :attr:`configs` names
    for it (:meth:`sent` says what it is asked with).
    """

    store: FixtureStore
    record: str = RECORD
    temperature: float | None = None
    #: Most tokens an answer may have (sent with every call; part of a live recording's identity).
    max_tokens: int | None = MAX_TOKENS
    lang: str = LANG
    timeout: float = TIMEOUT
    api_base: str | None = None
    max_retries: int = MAX_RETRIES
    #: Retries of a call that timed out; ``None``: by where the model is served (none on this
    #: machine or a private network, where a server goes on generating for a client that left;
    #: else two: :func:`~shape_asserts.asking.retry.timeout_retries_for`).
    timeout_retries: int | None = None
    #: Most calls in flight at once.
    concurrency: int = CONCURRENCY
    #: USD after which no call is started (where litellm knows prices); ``None``: no limit.
    max_cost: float | None = None
    #: The run's own settings the "record it with" command repeats (``--flag=value`` each).
    record_args: tuple[str, ...] = ()
    #: Arguments sent to every model (``--model-arg``), under each configuration's own.
    model_args: Mapping[str, Any] = field(default_factory=dict)
    #: Named configurations by name (``--shape-models``): a model of the run named so asks its
    #: litellm model with its arguments.
    configs: Mapping[str, ModelConfig] = field(default_factory=dict)
    #: Whether the run asks through provider batches (``--batch``): then a pending batch is the
    #: run's to resume; a run asking call by call asks nothing a pending batch holds (:meth:`job`).
    batch: bool = False
    #: Each model's pending batch requests, read once (:meth:`_held_by_batch`).
    _pending: dict[str, frozenset[tuple[str, str, int]] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    call: CallFn = field(default=aask, repr=False, compare=False)
    #: The most one call can cost (``model, messages, max_tokens, args``): :func:`~shape_asserts.asking.call.worst_cost`
    #: or a stand-in; held against ``--max-cost`` while the call is in flight.
    bound_cost: Callable[[str, list[dict[str, str]], int | None, Mapping[str, Any]], float | None] = field(
        default=worst_cost, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.record not in RECORD_MODES:
            raise ValueError(f"record mode must be one of {', '.join(RECORD_MODES)}, got {self.record!r}")

    def sent(self, model: str) -> Sent:
        """What the run's model ``model`` (a litellm model, or a configuration's name) is asked with."""
        return resolve(model, self.configs, self.model_args, self.temperature, self.max_tokens)

    # --- replay or ask --------------------------------------------------------------------------

    def job(self, model: str, case: Case, samples: int) -> Job:
        """What must be asked for ``samples`` answers to ``case`` from ``model``, and why.

        Raises
        ------
        FixtureError
            In ``none`` mode, when the recording is missing, short, stale or corrupt (saying how
            to record it); asking call by call, when a pending batch of the model holds a sample
            that would be asked (it is paid for already: :meth:`_held_by_batch`).
        """
        path = self.store.path(model, case.id, self.lang)
        if self.record == "all":
            rec, why, again = None, "re-recording (--record=all)", True
        else:
            rec, why, again = self._usable(model, case, path)
        todo = rec.missing(samples) if rec is not None else list(range(samples))
        if todo and self.record == "none":
            if rec is not None:
                why = f"fixture {path} lacks sample(s) {', '.join(map(str, todo))} of the {samples} requested"
            command = " ".join(
                ("pytest", shlex.quote(f"--model={model}"), "--record=missing", *self.record_args, "-k", case.id)
                + (("-m", "benchmark") if "benchmark" in case.tags else ())
            )
            raise FixtureError(f"{why} for {model}/{case.id}; record it with: {command}")
        if todo and not self.batch:
            self._held_by_batch(model, case, todo)
        if rec is None:
            rec = self._blank(model, case)
        return Job(model=model, case=case, indices=tuple(todo), recording=rec, reason=why, again=again)

    def _held_by_batch(self, model: str, case: Case, todo: list[int]) -> None:
        """FixtureError when a pending batch of ``model`` (its ``.batch.json``, left by a ``--batch``
        run that stopped waiting or was interrupted) holds one of the samples ``todo`` of ``case``:
        asked call by call it would be paid for twice, and the batch's answer never fetched."""
        from shape_asserts.asking.batch_state import STATE_NAME, pending_requests

        path = self.store.root / model_slug(model) / STATE_NAME
        if model not in self._pending:
            self._pending[model] = pending_requests(path)
        held = self._pending[model]
        if held is None or any((case.id, self.lang, index) in held for index in todo):
            state = "cannot be read" if held is None else "holds this case's request"
            raise FixtureError(
                f"{model}/{case.id} is not asked: the pending batch at {path} {state}, and it is paid for "
                "already; run with --batch to fetch it (or delete the file to ask call by call)"
            )

    def _blank(self, model: str, case: Case) -> Recording:
        """A recording of no answers yet, of what this run asks ``model`` for ``case``."""
        sent = self.sent(model)
        return Recording(
            model=model,
            case_id=case.id,
            lang=self.lang,
            temperature=sent.temperature,
            max_tokens=sent.max_tokens,
            prompt_sha256=case.prompt_hash(self.lang),
            samples=[],
            args=dict(sent.args),
            litellm_model=sent.model if sent.model != model else None,
        )

    def _usable(self, model: str, case: Case, path: Path) -> tuple[Recording | None, str, bool]:
        """The recording at ``path`` if it answers what this run asks, else the one kept beside it
        for this run's settings (when ``path`` is missing, unreadable, or holds answers to this
        prompt asked with other settings) if that one does; else why not, and whether one existed."""
        corrupt: FixtureError | None = None
        try:
            rec, missing, again = self._read(model, case, path, None)
        except FixtureError as exc:  # (replay only: raised once the answers beside it are looked at)
            rec, missing, again, corrupt = None, str(exc), True, exc
        why = self._stale(rec, model, case) if rec is not None else None
        other_settings = rec is not None and why is not None and rec.prompt_sha256 == case.prompt_hash(self.lang)
        if rec is None or other_settings:
            settings = self._blank(model, case).settings_key
            beside = self.store.path(model, case.id, self.lang, settings)
            found, _, _ = self._read(model, case, beside, settings)
            if found is not None:
                stale = self._stale(found, model, case)
                return (None, f"fixture {beside} is stale: {stale}", True) if stale else (found, "", False)
            if other_settings:  # (said as asked again: a paid call is never made without a word)
                kept = f"it is kept, this run's answers go beside it ({beside.name})"
                return None, f"fixture {path} is stale: {why}; {kept}", True
        if corrupt is not None:
            raise corrupt
        if rec is None:
            return None, missing, again
        if why:
            return None, f"fixture {path} is stale: {why}", True
        return rec, "", False

    def _read(self, model: str, case: Case, path: Path, settings: str | None) -> tuple[Recording | None, str, bool]:
        """The recording at ``path``; else why not, and whether one existed. A corrupt one is moved
        aside (in ``none`` mode, raised)."""
        try:
            rec = self.store.read(model, case, self.lang, settings)
        except FixtureError:
            if self.record == "none":
                raise
            self.store.quarantine(model, case.id, self.lang, settings)
            return None, f"corrupt fixture {path} moved aside", True
        if rec is None:
            return None, f"no recorded answer at {path}", False
        return rec, "", False

    def answering(self, model: str, case: Case) -> Recording | None:
        """The recording on disk that answers what this run asks, or ``None`` (none, stale, or
        unreadable)."""
        try:
            rec, _, _ = self._usable(model, case, self.store.path(model, case.id, self.lang))
        except FixtureError:
            return None
        return rec

    def _stale(self, rec: Recording, model: str, case: Case) -> str | None:
        """Why ``rec`` does not answer what this run asks ``model`` for ``case``, or nothing."""
        sent = self.sent(model)
        return self.store.stale_reason(
            rec, case, self.lang, sent.temperature, sent.max_tokens, args=sent.args, litellm_model=sent.model
        )

    def plan(
        self,
        pairs: Iterable[tuple[str, Case]],
        samples: int,
        ready: dict[str, Job] | None = None,
        *,
        first: str | None = None,
    ) -> list[Job]:
        """The calls a run needs: every model × case × sample without a valid recording, each case
        once however many tests share it. In ``none`` mode nothing is planned (the tests report
        what is missing).

        ``first`` names a model whose cases are planned, and so asked, before every other's: the
        gate's baseline. Every candidate is measured against its answers, so it must not be the
        one left unasked when ``--max-cost`` runs out (the candidate then is, and the gate fails
        for the missing results instead of passing for want of a baseline).

        ``ready`` receives, by :attr:`Job.key`, the cases that need no call: their recordings as
        read and found whole (a test in this process replays :meth:`Job.obtained` instead of reading them again).
        In ``none`` mode too, then: a recording that is missing, short, stale or corrupt is left
        out, and its test reads it and says what is wrong (reading changes nothing in this mode).
        """
        if self.record == "none":
            if ready is not None:
                for model, case in pairs:
                    key = RunState.key(model, case.id)
                    if key not in ready:
                        with contextlib.suppress(FixtureError):
                            ready[key] = self.job(model, case, samples)
            return []
        if first is not None:
            pairs = sorted(pairs, key=lambda pair: pair[0] != first)  # stable: the rest keep their order
        jobs: dict[tuple[str, str], Job] = {}
        for model, case in pairs:
            if (model, case.id) not in jobs:
                try:
                    jobs[model, case.id] = self.job(model, case, samples)
                except FixtureError:  # (one recording that cannot be read nor moved aside: its test says so)
                    continue
        if ready is not None:
            ready.update((job.key, job) for job in jobs.values() if not job.indices)
        return [job for job in jobs.values() if job.indices]

    def decisions(self, jobs: list[Job]) -> list[str]:
        """Why recordings that exist are asked again, one line each (a few at most), so that no
        paid call is made without a word."""
        said = [f"asking {j.model}/{j.case.id} again: {j.reason}" for j in jobs if j.again]
        if self.record == "all" and said:
            return [f"asking {len(said)} recorded case(s) again: --record=all"]
        if len(said) > MAX_DECISION_LINES:
            more = len(said) - MAX_DECISION_LINES
            said = [*said[:MAX_DECISION_LINES], f"... and {more} more asked again for the same kinds of reason"]
        return said

    def obtain(self, model: str, case: Case, samples: int = SAMPLES) -> Obtained:
        """``samples`` answer texts for ``case`` from ``model``, asking and recording what must be.

        Raises
        ------
        FixtureError
            In ``none`` mode, when the recording is missing, short, stale or corrupt; or when an
            answer arrived but could not be recorded.
        ProviderError
            When the model could not be asked (nothing is recorded for that sample).
        NotAsked
            When ``--max-cost`` is spent before every sample was asked; or when a cap is set at
            all: it is kept by the one fetch before the tests, and a test that fetch did not
            cover (it failed, or it could not tell the test was selected) would ask outside it,
            each on a budget of its own.
        """
        job = self.job(model, case, samples)
        if job.indices and self.max_cost is not None:
            raise NotAsked(
                f"not asked: --max-cost {self.max_cost:g} USD is kept by the asking done before the tests, and "
                f"{model}/{case.id} was not among it (see the lines above the tests); run again"
            )
        if job.indices:
            # The run's concurrency limit is the fetch's; a test asking for itself (on any xdist
            # worker) cannot share its semaphore, so it asks one call at a time.
            state, _ = dataclasses.replace(self, concurrency=1).fetch([job])
            state.raise_for(model, case.id)
        return job.obtained(samples, asked=len(job.indices))

    # --- asking and recording -------------------------------------------------------------------

    def fetch(
        self,
        jobs: list[Job],
        on_progress: Callable[[Progress], None] | None = None,
        *,
        on_settled: Callable[[str, RunState], None] | None = None,
        stop: threading.Event | None = None,
    ) -> tuple[RunState, Progress]:
        """Ask for every planned sample, ``concurrency`` at a time, recording each answer as it
        arrives; returns what could not be obtained, and the counters (``on_progress`` hears of
        each change).

        ``on_settled(key, state)`` hears of each case (:attr:`Job.key`) once every one of its
        samples is recorded or given up, so its test can go on while the rest is asked. Once
        ``stop`` is set no call is started (those in flight are still recorded); the cases left
        are unasked.
        """
        progress = Progress(max_cost=self.max_cost)
        if not jobs:
            progress.finished = progress.started
            return RunState(fetched=True), progress
        fetching = _Fetch(self, jobs, progress, on_progress, on_settled, stop)
        return asyncio.run(fetching.run()), progress

    def uncapped(self, jobs: Iterable[Job]) -> tuple[list[str], list[str]]:
        """Under ``--max-cost``, why the cap cannot bound the calls of each model ``jobs`` ask (one
        line per model), and the models it takes to cost nothing: without a price, served on this
        machine or a private network (a proxy there to a paid provider is not counted)."""
        if self.max_cost is None:
            return [], []
        reasons, free = [], []
        for model in dict.fromkeys(job.model for job in jobs if job.indices):
            sent = self.sent(model)
            limit = answer_limit(sent.max_tokens, sent.args)
            local = served_locally(sent.model, self.api_base)
            why = why_uncapped(sent.model, limit, sent.args, local)
            if why:
                reasons.append(f"{model}: {why}")
            elif local and why_uncapped(sent.model, limit, sent.args, False):
                free.append(model)
        return reasons, free

    def _worst_cost(self, job: Job) -> float:
        """The most one call for ``job`` can cost, held against ``--max-cost`` while it is in flight
        (0 without a cap, or for a model litellm has no price for: the cap cannot count those)."""
        if self.max_cost is None:
            return 0.0
        sent = self.sent(job.model)
        limit = answer_limit(sent.max_tokens, sent.args)
        return self.bound_cost(sent.model, job.case.messages(self.lang), limit, sent.args) or 0.0


class _Fetch:
    """One :meth:`Asker.fetch` under way: what its calls share, and the steps each call takes
    (wait its turn, decide whether it may still be asked, ask, count and record what came back)."""

    def __init__(
        self,
        asker: Asker,
        jobs: list[Job],
        progress: Progress,
        on_progress: Callable[[Progress], None] | None,
        on_settled: Callable[[str, RunState], None] | None,
        stop: threading.Event | None,
    ) -> None:
        self.asker = asker
        self.jobs = jobs
        self.progress = progress
        self.on_progress = on_progress
        self.on_settled = on_settled
        self.stop = stop
        self.state = RunState(fetched=True)
        self.turns = Turns(asker.concurrency)
        # what each model's calls share about its rate limit (by the litellm model asked)
        self.rate_limits: defaultdict[str, RateLimit] = defaultdict(RateLimit)
        # one writer per case at a time, so two samples of a case are never written out of order
        self.locks = {job.key: asyncio.Lock() for job in jobs}
        # samples not yet settled, per case
        self.left = Counter(job.key for job in jobs for _ in job.indices)
        # models every call to which would fail (ModelUnavailable) before any answered: why; their
        # cases not yet asked error at once. A model that has answered in this run may be restarting,
        # rate limited or refusing one input: its other cases are asked as usual
        self.unavailable: dict[str, str] = {}
        self.answered: set[str] = set()
        self.version = litellm_version()
        #: The threads answers are recorded in (:meth:`_record`).
        self.writer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="shape-asserts-record")

    async def run(self) -> RunState:
        """Ask every planned sample; what could not be obtained."""
        self._refuse_unwritable()
        tasks = [self._one(job, i) for job in self.jobs for i in job.indices]
        self.progress.planned = len(tasks)
        self._note()
        beating = asyncio.ensure_future(self._heartbeat())
        try:
            with self.writer:
                await asyncio.gather(*tasks)
        finally:
            beating.cancel()
        self.progress.finished = time.perf_counter()
        self._note()
        return self.state

    def _refuse_unwritable(self) -> None:
        """Every model's folder proven writable before the first paid call: an answer that could
        not be recorded would be bought for nothing (the case is not asked, and says why)."""
        store = self.asker.store
        unwritable = {model: store.unwritable(model) for model in {job.model for job in self.jobs}}
        for job in self.jobs:
            if unwritable[job.model]:
                self.state.unrecorded.setdefault(job.key, unwritable[job.model])

    def _note(self) -> None:
        """Tell the progress listener of a change. One that fails with its output gone (a reader
        that quit the run's pipe: ``| head``, ``less`` closed) is told nothing more, and the asking
        goes on: the calls in flight are paid for, and are recorded as they come back."""
        if self.on_progress is None:
            return
        try:
            self.on_progress(self.progress)
        except (OSError, ValueError):  # (a closed pipe; a closed file)
            self.on_progress = None

    def _interrupted(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def _on_retry(self, model: str, exc: BaseException, worst: float) -> None:
        """An attempt failed and the call is about to try again: count what the failed one may
        cost (a rate limit: the model's wait is said); no new attempt once the run is interrupted,
        or when it would pass ``--max-cost`` (its worst case is held again).

        Raises
        ------
        ProviderError
            When the run was interrupted, or the cap leaves no room for another attempt.
        """
        if maybe_billed(exc):
            self.progress.count_timed_out(model, worst)
        if self.stop is not None and self.stop.is_set():  # Ctrl-C, SIGTERM: no new attempt either
            error = ProviderError(
                f"{model}: {error_reason(exc, self.asker.api_base, '')}; not tried again: the run was interrupted"
            )
            error.maybe_billed = False  # (counted just now)
            raise error
        if maybe_billed(exc):
            cap = self.asker.max_cost
            if cap is not None and self.progress.cost_usd + self.progress.reserved_usd > cap:
                error = ProviderError(
                    f"{model}: {error_reason(exc, self.asker.api_base, '')}; not tried again: "
                    f"another would pass --max-cost {cap:g} USD"
                )
                error.maybe_billed = False  # (counted just now)
                raise error
        if is_rate_limited(exc):  # (said by the progress line)
            held = self.rate_limits[self.asker.sent(model).model].held_for()
            self.progress.limited_until[model] = time.perf_counter() + held
        self.progress.retried += 1
        self._note()

    async def _heartbeat(self) -> None:
        """Tell the listener of time passing while every call waits."""
        while True:
            await asyncio.sleep(self.progress.heartbeat / 4)
            self._note()

    async def _one(self, job: Job, index: int) -> None:
        """Ask one sample (again when it timed out queued at a local server: :mod:`.turns`), then
        tell ``on_settled`` when it was its case's last. A case whose settling cannot be told (the
        run's state folder gone or full) waits for the end of the asking instead: the calls in
        flight go on, and are recorded as they come back."""
        try:
            again = True
            while again:
                turn = await self.turns.take()
                try:
                    again = await self._ask(job, index, turn)
                finally:
                    self.turns.give(turn)
        finally:
            self.left[job.key] -= 1
            if not self.left[job.key] and self.on_settled is not None:
                with contextlib.suppress(OSError):
                    self.on_settled(job.key, self.state)

    async def _record(self, rec: Recording) -> str:
        """Save ``rec``; why it could not be, or ``""``.

        The write (fsync included) runs in a thread so the other calls in flight are not held up:
        the fetch's own threads, not the event loop's default ones, which litellm takes for part of
        every call. A write waiting for its model's folder lock held up the calls waiting for a
        default thread, some for tens of seconds in a run of thousands of calls.
        One file that cannot be written (read-only folder, full disk) is that case's error; the
        other answers are still recorded.
        """
        store = self.asker.store
        try:
            await asyncio.get_running_loop().run_in_executor(self.writer, store.save, rec)
        except OSError as exc:
            path = store.path(rec.model, rec.case_id, rec.lang)
            return (
                f"the answer for {rec.model}/{rec.case_id} arrived but could not be recorded at {path}: "
                f"{exc.strerror or exc} (errno {exc.errno}); free the disk or make the folder writable, "
                "then run again"
            )
        except Exception as exc:  # (a fault of ours: this case's error, not the end of every answer's recording)
            path = store.path(rec.model, rec.case_id, rec.lang)
            return (
                f"the answer for {rec.model}/{rec.case_id} arrived but could not be recorded at {path}: "
                f"{type(exc).__name__}: {exc}; move the file aside and run again"
            )
        return ""

    def _refuse(self, job: Job, worst: float) -> bool:
        """Whether ``job`` is no longer asked (the run stopping, ``--max-cost``, an unavailable
        model, or an earlier sample of the case that failed); the reason is kept in the state."""
        asker, progress, state = self.asker, self.progress, self.state
        if self.stop is not None and self.stop.is_set():
            state.unasked.setdefault(job.key, "not asked: the run ended before this case's turn")
        # (room the calls in flight hold is waited for: :meth:`_budget_room`)
        if asker.max_cost is not None and (
            progress.cost_usd >= asker.max_cost or progress.cost_usd + worst > asker.max_cost
        ):
            state.unasked.setdefault(
                job.key,
                f"not asked: --max-cost {asker.max_cost:g} USD was reached (spent {progress.cost_usd:.4f} USD, "
                f"this call may cost {worst:.4f} USD)",
            )
        if job.model in self.unavailable:
            state.failures.setdefault(job.key, f"{job.model}: not asked: an earlier call {self.unavailable[job.model]}")
        sent = asker.sent(job.model).model
        given_up = self.rate_limits[sent].given_up if sent in self.rate_limits else None
        if given_up is not None:  # (its calls were given up on: :class:`RateLimit`)
            state.failures.setdefault(job.key, f"{sent}: not asked: {given_up}")
        return job.key in state.unasked or job.key in state.failures or job.key in state.unrecorded

    async def _ask(self, job: Job, index: int, turn: Turn) -> bool:
        """Ask one sample of ``job`` in its ``turn``, and count and record what comes back; whether
        to ask it again (:meth:`_queued_too_long`)."""
        asker, progress = self.asker, self.progress
        worst = asker._worst_cost(job)
        # refused before the claim (an unwritable folder has no claim to take) and after it (the
        # cost spent while another run held it)
        claim = None if self._refuse(job, worst) else await self._claim(job, index, turn)
        try:
            if claim is not None:
                await self._budget_room(worst, turn)
            if claim is None or self._refuse(job, worst):
                progress.unasked += 1
                self._note()
                return False
            if self._recorded_meanwhile(job, index):
                progress.shared += 1
                self._note()
                return False
            return await self._send(job, index, turn, worst)
        finally:
            if claim is not None:
                claim.close()  # lets go of the lock

    async def _budget_room(self, worst: float, turn: Turn) -> None:
        """Wait while the calls in flight hold the room under ``--max-cost`` this call's ``worst``
        case needs: each holds its own worst case until its price is known, mostly far less, so the
        room comes back as they end. Returns at once when the call may go, or may never (spent and
        this call's worst case alone pass the cap: :meth:`_refuse` then says so). The call's
        ``turn`` is set aside while it waits: a call holding the room may need one to try again."""
        asker, progress = self.asker, self.progress
        while (
            asker.max_cost is not None
            and progress.reserved_usd > 0
            and progress.cost_usd + worst <= asker.max_cost < progress.cost_usd + progress.reserved_usd + worst
            and not (self.stop is not None and self.stop.is_set())
        ):
            await self.turns.aside(turn, asyncio.sleep(BUDGET_POLL_S))

    async def _claim(self, job: Job, index: int, turn: Turn) -> IO[str] | None:
        """The claim on asking sample ``index`` of ``job`` (:meth:`.FixtureStore.claim`), waited
        for while another process holds it (its call under way), with the call's ``turn`` set
        aside; ``None`` when the run stops first or the claim's file cannot be made (the sample is
        then not asked, and says so)."""
        label = f"{job.case.id}@{job.model} #{index}"
        try:
            while True:
                try:
                    claim = self.asker.store.claim(job.model, job.case.id, self.asker.lang, index)
                except OSError as exc:  # its lock file cannot be made: nor could its answer be recorded
                    self.state.unrecorded.setdefault(
                        job.key,
                        f"nothing was asked of {job.model}: its claim could not be taken ({exc.strerror or exc})",
                    )
                    return None
                if claim is not None:
                    return claim
                if self.stop is not None and self.stop.is_set():
                    self.state.unasked.setdefault(job.key, "not asked: the run ended before this case's turn")
                    return None
                self.progress.awaiting.setdefault(label, time.perf_counter())  # (said by the heartbeat)
                await self.turns.aside(turn, asyncio.sleep(CLAIM_POLL_S))
        finally:
            self.progress.awaiting.pop(label, None)

    def _recorded_meanwhile(self, job: Job, index: int) -> bool:
        """Whether another process recorded sample ``index`` of the question ``job`` asks while this
        run waited for its claim (a parallel run on the same fixtures): then that answer is taken
        (added to ``job``'s recording) and not paid for again. ``--record=all`` asks afresh."""
        asker = self.asker
        if asker.record == "all":
            return False
        rec = asker.answering(job.model, job.case)
        if rec is None or (sample := rec.sample(index)) is None:
            return False
        job.recording.add(sample)
        return True

    async def _send(self, job: Job, index: int, turn: Turn, worst: float) -> bool:
        """Send the call for sample ``index`` of ``job`` (its claim held), count and record what
        comes back; whether to ask it again (:meth:`_queued_too_long`)."""
        asker, progress = self.asker, self.progress
        progress.asked += 1
        label = f"{job.case.id}@{job.model} #{index}"
        progress.in_flight[label] = time.perf_counter()
        progress.reserved_usd += worst  # held until the call's own cost is counted
        sent = asker.sent(job.model)
        limit = self.rate_limits[sent.model]
        timeout = self.turns.timeout(asker.timeout, turn)
        started = time.monotonic()
        try:
            answer = await asker.call(
                sent.model,
                job.case.messages(asker.lang),
                temperature=sent.temperature,
                max_tokens=sent.max_tokens,
                extra=sent.args,
                timeout=timeout,
                api_base=asker.api_base,
                sample=index,
                max_retries=asker.max_retries,
                on_retry=lambda exc, wait: self._on_retry(job.model, exc, worst),
                timeout_retries=asker.timeout_retries,
                interrupted=self._interrupted,
                rate_limit=limit,
                pause=lambda seconds: self._rate_limited(label, turn, seconds, limit),
            )
        except Unsent as exc:  # (its model given up on while it waited: it counts as not asked)
            self._settle(label, worst)
            progress.asked -= 1
            progress.unasked += 1
            self.state.failures.setdefault(job.key, str(exc))
        except ProviderError as exc:
            self._settle(label, worst)
            if self._queued_too_long(exc, sent.model, turn.shared, worst):
                return True
            if not turn.shared and served_locally(sent.model, asker.api_base):
                self.turns.ended_alone(isinstance(exc, TimedOut))
            if isinstance(exc, TimedOut):
                _give_up_if_silent(limit, started, timeout)
            self._failed(job, exc, worst)
        else:
            self._settle(label, worst)
            if not turn.shared and served_locally(sent.model, asker.api_base):
                self.turns.ended_alone(False)
            await self._answered(job, index, answer, worst)
        self._note()
        return False

    async def _rate_limited(self, label: str, turn: Turn, seconds: float, limit: RateLimit) -> None:
        """The call ``label`` waits ``seconds`` for its model's rate ``limit``, its ``turn`` set
        aside: not at the server meanwhile, so not said to be in flight. The wait ends early when
        the model's calls are given up on (:attr:`RateLimit.given_up`)."""

        def ended() -> bool:
            return self._interrupted() or limit.given_up is not None

        since = self.progress.in_flight.pop(label, None)
        try:
            await self.turns.aside(turn, interruptible_sleep(seconds, ended))
        finally:
            if since is not None:
                self.progress.in_flight[label] = since

    def _queued_too_long(self, exc: ProviderError, model: str, shared: bool, worst: float) -> bool:
        """Whether a failed call timed out queued behind the run's other calls at a local server:
        then it is asked again, and every call after it alone (:mod:`.turns`); a hosted server's
        timeouts are retried by ``--timeout-retries``. Nothing was delivered, but a server on this
        network may be a proxy to a priced model that goes on and bills the call it dequeues: the
        attempt left counts against ``--max-cost`` at its ``worst``, as every timed-out call does."""
        if not (isinstance(exc, TimedOut) and shared and served_locally(model, self.asker.api_base)):
            return False
        self.progress.count_timed_out(model, worst)
        if self.turns.narrow():
            self.progress.narrowed = True
        self.progress.asked -= 1  # counted again when it is sent again
        self.progress.retried += 1
        self._note()
        return True

    def _settle(self, label: str, worst: float) -> None:
        """The call is no longer in flight: its worst case is no longer held (its own cost, once
        counted, is)."""
        self.progress.in_flight.pop(label, None)
        self.progress.reserved_usd -= worst

    def _failed(self, job: Job, exc: ProviderError, worst: float) -> None:
        """Count a call that brought no answer, and keep why for its case (a reply delivered
        without an answer still costs: what it says, else its ``worst`` case)."""
        self.progress.failed += 1
        spent = getattr(exc, "spent", None)
        if spent is not None:
            self.progress.count_spent(job.model, spent, worst)
        if exc.maybe_billed:
            self.progress.count_timed_out(job.model, worst)
        self.state.failures.setdefault(job.key, str(exc))
        if isinstance(exc, ModelUnavailable) and job.model not in self.answered:
            self.unavailable.setdefault(job.model, exc.reason)

    async def _answered(self, job: Job, index: int, answer: Answer, worst: float) -> None:
        """Count ``answer`` (at its call's ``worst`` case when it says nothing of what it used) and
        record it at once."""
        self.answered.add(job.model)
        self.progress.count_answer(job.model, answer, worst)
        job.recording.add(sample_record(index, answer, self.version, self.asker.api_base))
        snapshot = dataclasses.replace(job.recording, samples=list(job.recording.samples))
        async with self.locks[job.key]:
            why = await self._record(snapshot)
        if why:
            self.state.unrecorded.setdefault(job.key, why)


def _give_up_if_silent(limit: RateLimit, started: float, timeout: float) -> None:
    """A call to the model whose calls share ``limit``, begun at ``started`` (``time.monotonic``),
    timed out for good (its attempts took ``timeout`` each): when the model had answered nothing
    for the patience already when it began, and has not since, with no attempt under way the
    server took in (:meth:`RateLimit.patience_over`), its other calls are not sent. A server that
    takes calls in and never answers (a hung slot, a port forwarded to nothing) would otherwise
    hold each call for its timeout, one after the other: hours. The silence before the call is
    asked for, not only during it: one call at a time, a single answer that runs past the timeout
    (a small model generating to its length limit) is silence as long as the timeout, and ends only
    its own case. A call that timed out queued behind others at a local server is asked again
    before this (:meth:`_Fetch._send`)."""
    silent_before = started - limit.answered_at
    if (
        limit.given_up is None
        and silent_before >= RATE_LIMIT_PATIENCE
        and limit.patience_over(RATE_LIMIT_PATIENCE, timeout)
    ):
        limit.given_up = f"an earlier call timed out, no call to the model answered for {limit.silent_for():.0f}s"
