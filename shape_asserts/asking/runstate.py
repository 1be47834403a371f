"""What a run's asking did and could not do: counters while it runs, and the state the tests read.

:class:`Progress` counts calls as they complete (the progress lines of a long run, and the tokens
and cost per model at its end). :class:`RunState` names, per model × case, what could not be
obtained — the provider's last reply, an answer that could not be written, a case left unasked
at ``--max-cost`` — and travels from the process that asked to the xdist workers as a small file.
:meth:`RunState.raise_for` turns an entry into the error (or skip) its test reports.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from shape_asserts.asking.call import Answer
from shape_asserts.exceptions import FixtureError, ProviderError, ShapeAssertsError
from shape_asserts.fileio import write_atomic

__all__ = [
    "NotAsked",
    "Progress",
    "RunState",
    "announce",
    "heartbeat_interval",
    "settle",
    "sweep_run_folders",
    "wait_for",
    "withdraw",
]

#: Seconds between progress lines while calls are in flight and none completes.
HEARTBEAT = 10.0
#: Sets another heartbeat interval, in seconds (a test uses a short one).
HEARTBEAT_ENV = "SHAPE_ASSERTS_HEARTBEAT"


#: The shortest and longest heartbeat ``$SHAPE_ASSERTS_HEARTBEAT`` may set: a line every tenth of a
#: second at most (1e-9 printed 57,886 lines in 2 s), and one an hour at the least (1e308 was none).
HEARTBEAT_RANGE = (0.1, 3600.0)


def heartbeat_interval() -> float:
    """Seconds between heartbeats: :data:`HEARTBEAT`, or a positive number in
    ``$SHAPE_ASSERTS_HEARTBEAT`` brought within :data:`HEARTBEAT_RANGE`."""
    try:
        value = float(os.environ.get(HEARTBEAT_ENV, HEARTBEAT))
    except ValueError:
        return HEARTBEAT
    if not 0 < value < float("inf"):
        return HEARTBEAT
    return min(max(value, HEARTBEAT_RANGE[0]), HEARTBEAT_RANGE[1])


class NotAsked(ShapeAssertsError):
    """A case left unasked because ``--max-cost`` was reached: its test is skipped with this reason."""


#: The temp folder a run's state is handed to its xdist workers in: ``<prefix><pid>-<random>``
#: (named by :mod:`shape_asserts.plugin.hooks`, made by the fetch, removed at the run's end).
RUN_FOLDER_PREFIX = "shape-asserts-run-"


def sweep_run_folders() -> list[Path]:
    """Remove the state folders of runs that were killed (their process is gone); returns them.

    A folder of a live process, another user's, or one named otherwise is left alone.
    """
    removed = []
    with contextlib.suppress(OSError):
        for path in Path(tempfile.gettempdir()).glob(f"{RUN_FOLDER_PREFIX}*-*"):
            pid = path.name[len(RUN_FOLDER_PREFIX) :].split("-")[0]
            # (a name anyone may make: only ASCII digits of a pid the system could have are read)
            if not (_PID.fullmatch(pid) and 0 < int(pid) <= _MAX_PID):
                continue
            if int(pid) != os.getpid() and not _alive(int(pid)) and path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


#: A process id as a run folder's name writes it, and the largest Linux hands out (2**22).
_PID = re.compile(r"[0-9]{1,7}")
_MAX_PID = 4_194_304


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive, and not ours to judge
        return True
    return True


@dataclass
class Progress:
    """Counters of a run's calls, updated as they complete."""

    planned: int = 0
    asked: int = 0
    answered: int = 0
    failed: int = 0
    retried: int = 0
    unasked: int = 0
    #: Samples another process (a parallel run on the same fixtures) recorded while this run
    #: waited to ask them: taken from its recording, not paid for again.
    shared: int = 0
    cost_usd: float = 0.0
    #: Under ``--max-cost``: the most the calls in flight can still cost (each call's worst case,
    #: held from when it is sent until its price is known), so that the cap holds with concurrency.
    reserved_usd: float = 0.0
    #: Tokens by model, then by kind (``prompt_tokens``, ``completion_tokens``, ``total_tokens``).
    tokens: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    #: Cost by model, of the answers litellm priced (a model is here once one of its answers was).
    cost_by_model: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    #: Answers litellm had no price for, by model: counted in no cost, nor in ``--max-cost``.
    unpriced_by_model: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: Replies of a model litellm has a price for that did not say what they used (no usage, or
    #: counts negative or not whole), by model: each counted at its call's worst case.
    at_worst_by_model: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: Attempts of a priced model that timed out, by model: each counted at its call's worst case.
    timed_out_by_model: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: The run's ``--max-cost`` (USD), to say at the end when it could not count every answer.
    max_cost: float | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    #: Calls in flight: what each asks (``case@model #sample``) → when it started.
    in_flight: dict[str, float] = field(default_factory=dict)
    #: Samples another process is asking (it holds their claim): each → since when this run waits.
    awaiting: dict[str, float] = field(default_factory=dict)
    #: Seconds between progress lines while calls are in flight and none completes.
    heartbeat: float = field(default_factory=heartbeat_interval)
    #: Whether calls go one at a time since a local server queued them past ``--request-timeout``.
    narrowed: bool = False
    #: Models refused for a rate limit (429) → when (``time.perf_counter``) their calls are sent again.
    limited_until: dict[str, float] = field(default_factory=dict)

    @property
    def elapsed(self) -> float:
        return (self.finished or time.perf_counter()) - self.started

    @property
    def done(self) -> int:
        """Calls that ended, one way or another."""
        return self.answered + self.failed + self.unasked + self.shared

    def count_answer(self, model: str, answer: Answer, worst: float = 0.0) -> None:
        """Count one answer, its tokens and its cost (:meth:`count_spent`)."""
        self.answered += 1
        self.count_spent(model, answer, worst)

    def count_spent(self, model: str, answer: Answer, worst: float = 0.0) -> None:
        """Count the tokens and cost of a reply: an answer, or one delivered without an answer in it.
        A reply with no price of its own costs its call's ``worst`` case where there is one (a
        model litellm prices, under ``--max-cost``): the cap then holds whatever the reply says."""
        for kind, n in answer.usage.items():
            self.tokens[model][kind] += int(n)
        cost = 0.0 if model.startswith("reference/") else answer.cost_usd  # drawn in-process: free
        if cost is None and worst > 0:
            cost = worst
            self.at_worst_by_model[model] += 1
        if cost is None:
            self.unpriced_by_model[model] += 1
        else:
            self.cost_usd += cost
            self.cost_by_model[model] += cost

    def count_timed_out(self, model: str, worst: float) -> None:
        """Count an attempt the client gave up on at its call's ``worst`` case: the server may have
        gone on generating the answer and billed it, retried or not."""
        if worst > 0 and not model.startswith("reference/"):
            self.timed_out_by_model[model] += 1
            self.cost_usd += worst
            self.cost_by_model[model] += worst

    @property
    def unpriced(self) -> int:
        """Answers litellm had no price for."""
        return sum(self.unpriced_by_model.values())

    def _cost_text(self) -> str:
        """The run's cost: in dollars, with how many answers no price counts, or unknown."""
        if self.unpriced and not self.cost_by_model:
            return "cost unknown"
        if self.unpriced:
            return f"${self.cost_usd:.4f} + {self.unpriced} unpriced"
        return f"${self.cost_usd:.4f}"

    def usage_lines(self) -> list[str]:
        """Tokens and cost per model asked in this run, and what ``--max-cost`` could not count."""
        out = []
        for model in sorted(set(self.tokens) | set(self.cost_by_model) | set(self.unpriced_by_model)):
            tok = self.tokens.get(model, {})
            unpriced = self.unpriced_by_model.get(model, 0)
            if model not in self.cost_by_model:
                price = "cost unknown (litellm has no price for it)"
            elif unpriced:
                price = f"${self.cost_by_model[model]:.4f} for the answers litellm priced, {unpriced} it did not"
            else:
                price = f"${self.cost_by_model[model]:.4f}"
            out.append(
                f"shape-asserts: {model}: {tok.get('prompt_tokens', 0)} prompt + "
                f"{tok.get('completion_tokens', 0)} completion tokens, {price}"
            )
        if self.at_worst_by_model:
            models = ", ".join(f"{m} ({n})" for m, n in sorted(self.at_worst_by_model.items()))
            out.append(
                "shape-asserts: replies that did not say what they used (no usage, or counts negative, not "
                f"whole or too few for what was sent and written) were counted at their call's worst case against --max-cost: {models}"
            )
        if self.timed_out_by_model:
            models = ", ".join(f"{m} ({n})" for m, n in sorted(self.timed_out_by_model.items()))
            out.append(
                "shape-asserts: attempts that timed out or lost their connection after the request went out "
                "(the server may have gone on and billed them) were "
                f"counted at their call's worst case against --max-cost: {models}"
            )
        if self.max_cost is not None and self.unpriced:
            models = ", ".join(sorted(m for m, n in self.unpriced_by_model.items() if n))
            out.append(
                f"shape-asserts: --max-cost {self.max_cost:g} USD did not count {self.unpriced} answer(s) "
                f"litellm has no price for ({models}): a server on this machine or a private network is taken "
                "to cost nothing (a hosted model without a price is refused before anything is asked)"
            )
        return out

    def line(self) -> str:
        """One progress line: calls done of planned, how each ended, and the calls still waited for."""
        out = (
            f"shape-asserts: {self.done}/{self.planned} calls done — "
            f"asked {self.asked}, answered {self.answered}, failed {self.failed}, "
            f"retried {self.retried}, unasked {self.unasked}, {self._cost_text()}, {self.elapsed:.1f}s"
        )
        if self.shared:
            out += f"; {self.shared} recorded meanwhile by another run on the same fixtures (not asked again)"
        if self.in_flight and self.finished is None:
            oldest, since = min(self.in_flight.items(), key=lambda kv: kv[1])
            out += f"; {len(self.in_flight)} in flight, the longest for {time.perf_counter() - since:.0f}s ({oldest})"
        if self.awaiting and self.finished is None:
            oldest, since = min(self.awaiting.items(), key=lambda kv: kv[1])
            out += (
                f"; {len(self.awaiting)} waiting for another run on the same fixtures to record them, the longest "
                f"for {time.perf_counter() - since:.0f}s ({oldest}; a run that is stopped, as by Ctrl-Z, holds them)"
            )
        limited = {model: until - time.perf_counter() for model, until in self.limited_until.items()}
        limited = {model: left for model, left in limited.items() if left > 0}
        if limited and self.finished is None:
            said = ", ".join(f"{model} for {left:.0f}s" for model, left in sorted(limited.items()))
            out += f"; rate limited (its calls wait, not asked meanwhile): {said}"
        if self.narrowed:
            out += "; one call at a time (calls queued at a local server timed out waiting: asked again)"
        return out


@dataclass
class RunState:
    """What the asking could not get, for the tests to report: key ``model|case-id`` → reason."""

    #: The provider's last reply, for a case a call of which failed.
    failures: dict[str, str] = field(default_factory=dict)
    #: Why a case was not asked (``--max-cost``).
    unasked: dict[str, str] = field(default_factory=dict)
    #: Answers that arrived but could not be written (a recording problem, not the provider's).
    unrecorded: dict[str, str] = field(default_factory=dict)
    #: Whether the run's up-front fetch ran (else every test asks for itself).
    fetched: bool = False

    @staticmethod
    def key(model: str, case_id: str) -> str:
        return f"{model}|{case_id}"

    def raise_for(self, model: str, case_id: str) -> None:
        """Raise what kept this case's answers from being recorded, if anything did.

        Raises
        ------
        ProviderError
            A call for the case failed (the provider's last reply is named).
        FixtureError
            An answer arrived but could not be written.
        NotAsked
            ``--max-cost`` was reached before the case was asked.
        """
        key = self.key(model, case_id)
        if key in self.failures:
            raise ProviderError(self.failures[key])
        if key in self.unrecorded:
            raise FixtureError(self.unrecorded[key])
        if key in self.unasked:
            raise NotAsked(self.unasked[key])

    def write(self, path: Path, *, durable: bool = True) -> None:
        """Leave the state at ``path`` (atomically: a worker reads all of it or none).

        ``durable=False`` skips the fsync: for a file only other processes of this run read
        (one per case asked, :func:`settle`), which a crash makes moot anyway.
        """
        text = json.dumps(
            {
                "failures": self.failures,
                "unasked": self.unasked,
                "unrecorded": self.unrecorded,
                "fetched": self.fetched,
            }
        )
        write_atomic(path, text, durable=durable)

    @classmethod
    def read(cls, path: Path) -> RunState | None:
        """The state left at ``path``, or ``None`` when there is none (or it cannot be read)."""
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return cls(
            failures=dict(doc.get("failures", {})),
            unasked=dict(doc.get("unasked", {})),
            unrecorded=dict(doc.get("unrecorded", {})),
            fetched=bool(doc.get("fetched")),
        )


# --- asking while the tests run ----------------------------------------------------------------
#
# An xdist controller asks in a thread of its own while its workers judge (plugin/fetcher.py):
# a run of thousands of calls would otherwise ask them all, then judge them all. Beside the
# run's state file it announces the cases it asks (ASKING), then leaves each one's state in
# SETTLED as its last sample is recorded or given up; the state file comes at the end, as before.
# A worker's test waits only for its own case (:func:`wait_for`).

#: Beside the state file: the keys of the cases being asked, while the asking is under way.
ASKING = "asking.json"
#: Beside the state file: one small file per case asked, once settled (:func:`settled_path`).
SETTLED = "settled"
#: Seconds between a waiting test's looks for its case.
POLL = 0.02

#: The cases announced at each ``asking.json`` a worker read (read once a process).
_ANNOUNCED: dict[Path, frozenset[str]] = {}


def settled_path(state_path: Path, key: str) -> Path:
    """Where the state of the case ``key`` is left once settled (named by a digest: keys hold ``/``)."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return state_path.parent / SETTLED / f"{digest}.json"


def announce(state_path: Path, keys: list[str]) -> None:
    """Say, before the first call, which cases are asked: their tests wait for them."""
    state_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as mkdtemp's
    (state_path.parent / SETTLED).mkdir(mode=0o700, exist_ok=True)
    write_atomic(state_path.parent / ASKING, json.dumps(sorted(keys)))


def settle(state_path: Path, key: str, state: RunState) -> None:
    """Leave the case ``key``'s part of ``state``: its test may go on."""
    own = RunState(fetched=True)
    for mine, theirs in (
        (own.failures, state.failures),
        (own.unasked, state.unasked),
        (own.unrecorded, state.unrecorded),
    ):
        if key in theirs:
            mine[key] = theirs[key]
    own.write(settled_path(state_path, key), durable=False)


def withdraw(state_path: Path) -> None:
    """The asking failed part-way: tests still waiting stop waiting, and ask for themselves."""
    with contextlib.suppress(FileNotFoundError):
        (state_path.parent / ASKING).unlink()


def wait_for(state_path: Path, key: str) -> RunState | None:
    """The state the test of the case ``key`` goes on with: the run's, once its asking is over;
    while asking is under way, the case's own once settled (a case not asked: at once, replayed);
    ``None`` when nothing was asked before the tests (the test asks for itself)."""
    asking = state_path.parent / ASKING
    while True:
        whole = RunState.read(state_path)
        if whole is not None:
            return whole
        keys = _announced(asking)
        if keys is None:
            return None
        if key not in keys:
            return RunState(fetched=True)
        own = RunState.read(settled_path(state_path, key))
        if own is not None:
            return own
        time.sleep(POLL)


def _announced(asking: Path) -> frozenset[str] | None:
    """The keys announced at ``asking`` while it is there (read once), else ``None``."""
    if not asking.exists():
        return None
    if asking not in _ANNOUNCED:
        try:
            _ANNOUNCED[asking] = frozenset(json.loads(asking.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None
    return _ANNOUNCED[asking]
