"""Fetch: plan a run's live calls, make them concurrently in one place, leave the rest to replay.

A live run's limit is the provider — N calls × latency L ÷ allowed concurrency C — not the two
CPU cores xdist has here. So before any test runs, the process that sees the whole selection (the
xdist controller, or the only process) plans which model × case × sample has no valid recording,
asks for all of them with at most ``concurrency`` calls in flight (async litellm), and writes each
answer to its fixture the moment it arrives (atomically: a killed run leaves complete files and
asks only for the rest next time). Tests on any worker then replay.

What could not be fetched is written to a small *run state* file that the tests read: a case
whose calls all failed ends as an ERROR naming the provider's last reply (it is not asked again);
a case left unasked because ``--max-cost`` was reached is SKIPPED with that reason.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from shape_asserts.asking.call import aask
from shape_asserts.cases import Case
from shape_asserts.exceptions import ProviderError
from shape_asserts.asking.store import Recording, sample_record
from shape_asserts.asking.recorder import Recorder, litellm_version_string

__all__ = ["Job", "Progress", "plan", "fetch", "RunState"]


@dataclass(frozen=True)
class Job:
    """One case's samples that must be asked."""

    model: str
    case: Case
    indices: tuple[int, ...]
    recording: Recording | None
    reason: str


@dataclass
class Progress:
    """Counters of a fetch, updated as calls complete (shown on long runs, and in the summary)."""

    planned: int = 0
    asked: int = 0
    answered: int = 0
    failed: int = 0
    retried: int = 0
    unasked: int = 0
    cost_usd: float = 0.0
    tokens: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cost_by_model: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None

    @property
    def elapsed(self) -> float:
        return (self.finished or time.perf_counter()) - self.started

    def usage_lines(self) -> list[str]:
        """Tokens and cost per model asked in this run."""
        models = sorted({k.split(":", 1)[0] for k in self.tokens} | set(self.cost_by_model))
        out = []
        for m in models:
            tok = {k.split(":", 1)[1]: v for k, v in self.tokens.items() if k.split(":", 1)[0] == m}
            cost = self.cost_by_model.get(m)
            price = f"${cost:.4f}" if cost else "cost unknown (litellm has no price for it)"
            out.append(f"shape-asserts: {m}: {tok.get('prompt_tokens', 0)} prompt + "
                       f"{tok.get('completion_tokens', 0)} completion tokens, {price}")
        return out

    def line(self) -> str:
        return (f"shape-asserts: {self.answered + self.failed + self.unasked}/{self.planned} calls done — "
                f"asked {self.asked}, answered {self.answered}, failed {self.failed}, "
                f"retried {self.retried}, unasked {self.unasked}, ${self.cost_usd:.4f}, {self.elapsed:.1f}s")


def plan(recorder: Recorder, pairs: Iterable[tuple[str, Case]], samples: int) -> list[Job]:
    """The calls a run needs: every model × case × sample without a valid recording.

    In ``none`` mode nothing is planned (the tests report what is missing).
    """
    if recorder.mode == "none":
        return []
    jobs = []
    for model, case in pairs:
        rec, todo, why = recorder.pending(model, case, samples)
        if todo:
            jobs.append(Job(model=model, case=case, indices=tuple(todo), recording=rec, reason=why))
    return jobs


@dataclass
class RunState:
    """What the fetch could not get, for the tests to report: key ``model|case-id`` → reason."""

    failures: dict[str, str] = field(default_factory=dict)
    unasked: dict[str, str] = field(default_factory=dict)
    #: Answers that arrived but could not be written (a recording problem, not the provider's).
    unrecorded: dict[str, str] = field(default_factory=dict)
    fetched: bool = False

    @staticmethod
    def key(model: str, case_id: str) -> str:
        return f"{model}|{case_id}"

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".state.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"failures": self.failures, "unasked": self.unasked, "unrecorded": self.unrecorded,
                       "fetched": self.fetched}, fh)
        os.replace(tmp, path)

    @classmethod
    def read(cls, path: Path) -> "RunState | None":
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return cls(failures=dict(doc.get("failures", {})), unasked=dict(doc.get("unasked", {})),
                   unrecorded=dict(doc.get("unrecorded", {})), fetched=bool(doc.get("fetched")))


AskFn = Callable[..., Any]


def _write(recorder: Recorder, rec: Recording) -> None:
    recorder.store.save(rec)


async def _run(jobs: list[Job], recorder: Recorder, *, concurrency: int, max_retries: int,
               max_cost: float | None, progress: Progress, on_progress: Callable[[Progress], None] | None,
               ask_fn: AskFn) -> RunState:
    state = RunState(fetched=True)
    sem = asyncio.Semaphore(max(1, concurrency))
    recordings: dict[tuple[str, str], Recording] = {}
    version = litellm_version_string()
    stop_issuing = False
    locks: dict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    def note() -> None:
        if on_progress is not None:
            on_progress(progress)

    def on_retry(exc: BaseException, wait: float) -> None:
        progress.retried += 1
        note()

    async def one(job: Job, index: int) -> None:
        nonlocal stop_issuing
        key = RunState.key(job.model, job.case.id)
        async with sem:
            if max_cost is not None and progress.cost_usd >= max_cost:
                stop_issuing = True
            if stop_issuing:
                progress.unasked += 1
                state.unasked.setdefault(key, f"not asked: --max-cost {max_cost:g} USD was reached "
                                              f"(spent {progress.cost_usd:.4f} USD)")
                note()
                return
            progress.asked += 1
            try:
                answer = await ask_fn(job.model, job.case.messages(recorder.lang),
                                      temperature=recorder.temperature, timeout=recorder.timeout,
                                      api_base=recorder.api_base, sample=index,
                                      max_retries=max_retries, on_retry=on_retry)
            except ProviderError as exc:
                progress.failed += 1
                state.failures.setdefault(key, str(exc))
                note()
                return
            progress.answered += 1
            for k, v in answer.usage.items():
                progress.tokens[f"{job.model}:{k}"] += int(v)
            if answer.cost_usd:
                progress.cost_usd += answer.cost_usd
                progress.cost_by_model[job.model] += answer.cost_usd
            rec = recordings.setdefault((job.model, job.case.id),
                                        job.recording or recorder.new_recording(job.model, job.case))
            rec.add(sample_record(index, answer, version))
            # written at once, atomically: a killed run keeps every answer that arrived. The write
            # (fsync included) runs in a thread so the other calls in flight are not held up; a
            # per-case lock keeps two samples of one case from writing out of order.
            snapshot = Recording(**{**rec.__dict__, "samples": list(rec.samples)})
            async with locks[(job.model, job.case.id)]:
                try:
                    await asyncio.get_running_loop().run_in_executor(None, _write, recorder, snapshot)
                except OSError as exc:
                    # one file that cannot be written (read-only folder, full disk) is that case's
                    # error; the other answers in flight are still recorded
                    path = recorder.store.path(job.model, job.case.id, recorder.lang)
                    state.unrecorded.setdefault(key, f"the answer for {job.model}/{job.case.id} arrived but could "
                                                     f"not be recorded at {path}: {exc.strerror or exc} "
                                                     f"(errno {exc.errno}); free the disk or make the folder "
                                                     "writable, then run again")
            note()

    tasks = [one(job, i) for job in jobs for i in job.indices]
    progress.planned = len(tasks)
    note()
    await asyncio.gather(*tasks)
    progress.finished = time.perf_counter()
    note()
    return state


def fetch(jobs: list[Job], recorder: Recorder, *, concurrency: int = 16, max_retries: int = 3,
          max_cost: float | None = None, on_progress: Callable[[Progress], None] | None = None,
          ask_fn: AskFn = aask) -> tuple[RunState, Progress]:
    """Ask for every planned sample, ``concurrency`` at a time; returns what failed and counters."""
    progress = Progress()
    if not jobs:
        progress.finished = progress.started
        return RunState(fetched=True), progress
    state = asyncio.run(_run(jobs, recorder, concurrency=concurrency, max_retries=max_retries,
                             max_cost=max_cost, progress=progress, on_progress=on_progress,
                             ask_fn=ask_fn))
    return state, progress
