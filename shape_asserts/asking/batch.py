"""Batch runs (``--batch``): a selection's missing answers asked through the provider's batch interface.

The :class:`~shape_asserts.asking.asker.Asker` plans what is missing as for a live run; instead of
one call per sample, every planned sample of a model becomes one line of a JSONL file of
chat-completion requests (``custom_id`` = ``model/case/lang/sample``), uploaded with
``litellm.create_file`` and submitted with ``litellm.create_batch`` as one batch (providers take one
model per batch). ``litellm.retrieve_batch`` polls it every :data:`~shape_asserts.defaults.BATCH_POLL` seconds,
saying each change; when it ends, ``litellm.file_content`` brings its output and error files, and each answer
is recorded exactly as a live one (same store, same fields, same redaction) and replays like any.

A batch outlives the run that submitted it: its id, input file id, creation time, provider, server
(``scheme://host:port``) and the identities of its requests (no key) are kept in
``<fixtures-dir>/<model>/.batch.json`` (``batch_state.py``, written atomically, read back as
untrusted input: a state made for another provider, model or server stops the run before anything
is sent) from the upload on, and a run that finds that file resumes the same batch instead of
submitting another, so a killed run never pays twice. Submitting holds a lock, and a create whose
reply was lost is looked for before anything is made again (``batch_submit.py``). The file goes
once the batch has ended and its answers are recorded; while an answer it was paid for is not
(its output unreadable, a recording not written), it stays, and the next run fetches them again.

A row that failed records nothing: its case is an ERROR naming the provider's reason. A batch
that expired, failed or was cancelled records what it did answer and says what to do. A model
whose provider has no batch interface litellm can drive (the reference drawers; Anthropic, whose
batches litellm can read but not create) is a :class:`BatchUnavailable`, which the plugin reports
as a usage error before anything is submitted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from shape_asserts.asking.asker import Asker, Job
from shape_asserts.asking.batch_state import (
    MAX_STATE_BYTES,
    STATE_NAME,
    BatchState,
    BatchUnavailable,
    Expected,
    Request,
    batch_id_at,
    checked_id,
    is_delivered,
    one_line,
    row_answer,
)
from shape_asserts.asking.batch_submit import FateUnknown, LockBusy, adopt, submission_lock, submit
from shape_asserts.asking.call import Answer, is_retriable, litellm_version, load_litellm, missing_key_reason
from shape_asserts.asking.failure import address, hide_address
from shape_asserts.asking.runstate import Progress, RunState
from shape_asserts.asking.store import Recording, model_slug, sample_record
from shape_asserts.defaults import BATCH_HEARTBEAT, BATCH_POLL, BATCH_WAIT

__all__ = ["BatchUnavailable", "BatchRunner", "STATE_NAME", "state_path"]

#: Statuses after which a batch changes no more.
TERMINAL = ("completed", "expired", "failed", "cancelled")


def state_path(asker: Asker, model: str) -> Path:
    """Where a model's pending batch is kept: beside its recordings."""
    return asker.store.root / model_slug(model) / STATE_NAME


class BatchRunner:
    """Asks a run's planned samples as one batch per model, and records the answers."""

    def __init__(
        self,
        asker: Asker,
        samples: int,
        poll: float | None = None,
        say: Callable[[str], None] | None = None,
        wait: float = BATCH_WAIT,
    ) -> None:
        self.asker = asker
        self.samples = samples
        # read when the runner is made, not imported: a test makes the polls instant by setting them
        self.poll = BATCH_POLL if poll is None else poll
        self.heartbeat = BATCH_HEARTBEAT
        #: Seconds a batch is polled before the run stops waiting for it (``--batch-wait``).
        self.wait = wait
        self.say = say or (lambda line: None)
        #: (model, case id, sample) of every answer this run recorded from a batch.
        self._recorded: set[tuple[str, str, int]] = set()
        #: The prompt each case of the run asks now, by (case id, language): a resumed batch may
        #: answer an earlier one (:meth:`_record`).
        self._prompts: dict[tuple[str, str], str] = {}

    def fetch(self, jobs: list[Job]) -> tuple[RunState, Progress]:
        """Ask for every planned sample through batches; what could not be obtained, and the counters.

        Raises
        ------
        BatchUnavailable
            A model with something to ask has no batch interface, or its batch state cannot be
            trusted (made for another provider, model or server, or out of shape): nothing is sent then.
        """
        state, progress = RunState(fetched=True), Progress()
        by_model: dict[str, list[Job]] = {}
        for job in jobs:
            by_model.setdefault(job.model, []).append(job)
            self._prompts[job.case.id, self.asker.lang] = job.case.prompt_hash(self.asker.lang)
        for model in by_model:
            if self.asker.sent(model).model.startswith("reference/"):
                raise BatchUnavailable(
                    f"--batch: {model} draws in-process and has no batch interface; run it without --batch"
                )
        providers = {model: self._provider(model) for model in by_model}  # every model checked before any submit
        for model in by_model:  # and every state: one made for another provider or server stops the run here
            BatchState.read(state_path(self.asker, model), self._expected(model, providers[model]))
        for model, model_jobs in by_model.items():
            self._run_model(model, providers[model], model_jobs, state, progress)
        progress.finished = time.perf_counter()
        return state, progress

    def _provider(self, model: str) -> tuple[str, str]:
        """The model's provider and the name the provider knows it by, if litellm can batch it
        (``model`` is the run's: a configuration's name stands for its litellm model)."""
        litellm = load_litellm()
        from litellm.types.utils import OPENAI_COMPATIBLE_BATCH_AND_FILES_PROVIDERS

        asked = self.asker.sent(model).model
        try:
            name, provider, _, _ = litellm.get_llm_provider(asked, api_base=self.asker.api_base)
        except Exception as exc:
            raise BatchUnavailable(
                f"--batch: litellm does not know the provider of {model}: {self._said(exc)}"
            ) from None
        if provider == "anthropic":
            raise BatchUnavailable(
                f"--batch: litellm {litellm_version()} can read Anthropic message batches but not create them; "
                f"run {model} without --batch"
            )
        if provider not in OPENAI_COMPATIBLE_BATCH_AND_FILES_PROVIDERS:
            known = ", ".join(sorted(OPENAI_COMPATIBLE_BATCH_AND_FILES_PROVIDERS))
            raise BatchUnavailable(
                f"--batch: {model} is served by {provider}, which has no batch interface litellm drives here "
                f"({known} have one); run it without --batch"
            )
        return str(provider), str(name)

    def _litellm(self) -> Any:
        """litellm, its batch and file calls each given ``--request-timeout`` from the first byte
        sent to the last one read, as a live call is (a sync client's timeout bounds each read)."""
        litellm = load_litellm()  # (first: it loads httpx, which bounded needs)
        from shape_asserts.asking.bounded import Deadlined

        return Deadlined(litellm, self.asker.timeout)

    def _api(self, provider: str) -> dict[str, Any]:
        """The arguments every batch or file call takes (the key comes from the environment).

        ``max_retries=0``: the OpenAI client's own retries would send a create again when its
        reply is lost or slow, and each copy is a batch paid for (retries here are ours, counted).
        """
        kwargs: dict[str, Any] = {"custom_llm_provider": provider, "timeout": self.asker.timeout, "max_retries": 0}
        if self.asker.api_base:
            kwargs["api_base"] = self.asker.api_base
        return kwargs

    def _said(self, exc: BaseException) -> str:
        """What a failed call says, on one line, secrets masked and ``--api-base`` shown as scheme://host:port."""
        return one_line(hide_address(str(exc), self.asker.api_base))

    def _expected(self, model: str, provider: tuple[str, str]) -> Expected:
        """What a state must name for this run to resume it: the model, its provider and the server."""
        server = address(self.asker.api_base) if self.asker.api_base else None
        return Expected(model=model, provider=provider[0], server=server)

    # --- one model ------------------------------------------------------------------------------

    def _run_model(
        self, model: str, provider: tuple[str, str], jobs: list[Job], state: RunState, progress: Progress
    ) -> None:
        path = state_path(self.asker, model)
        reason = missing_key_reason(self.asker.sent(model).model, self.asker.api_base)
        if reason:
            for job in jobs:
                state.failures.setdefault(job.key, f"{model}: {reason}")
            return
        # a pending batch is resumed first; what it did not answer is then submitted anew, so at
        # most two rounds (a third only when another run submitted between them)
        for _ in range(3):
            try:
                bstate, resumed = self._submitted(model, provider, jobs, path)
            except (LockBusy, FateUnknown) as exc:
                self._fail(jobs, state, str(exc))
                return
            except Exception as exc:
                self._fail(jobs, state, f"{model}: the batch could not be submitted: {self._said(exc)}; run again")
                return
            if bstate is None:
                return
            if not self._finish(bstate, path, state, progress):
                self._fail(self._replanned(jobs), state, self._kept(bstate, path))
                return
            if not resumed:
                return
            jobs = [j for j in self._replanned(jobs) if j.key not in state.failures]
            if not jobs:
                return

    def _submitted(
        self, model: str, provider: tuple[str, str], jobs: list[Job], path: Path
    ) -> tuple[BatchState | None, bool]:
        """The model's batch to wait for, and whether it was found pending rather than submitted now.

        Under the model's submission lock: the state on disk (another run's, or a killed run's) is
        resumed, finding its batch when only the create was sent; else a new batch is submitted
        for ``jobs`` (``None`` when there are none).
        """
        wait = 3 * self.asker.timeout + 10  # a holder's upload, create and batch lookup, each bounded
        with submission_lock(path.parent, wait, self.say):
            pending = BatchState.read(path, self._expected(model, provider))
            if pending is not None:
                self.say(
                    f"resuming batch {pending.batch_id or '(being submitted)'} of {model}, submitted "
                    f"{pending.created_at} with {len(pending.requests)} request(s) ({path})"
                )
                if pending.batch_id is None:
                    adopt(self._litellm(), pending, self._api(pending.provider), path)
                return pending, True
            # planned before the lock: a run that held it may have recorded these answers since
            jobs = self._replanned(jobs)
            if not jobs:
                return None, False
            bstate = self._new_state(model, provider, jobs)
            size = len(bstate.text().encode("utf-8"))
            if size > MAX_STATE_BYTES:  # (nothing is sent: a state no run could read back is a batch lost)
                raise BatchUnavailable(
                    f"--batch: the state of a batch of {len(bstate.requests):,} request(s) of {model} would be "
                    f"{size:,} bytes, over the {MAX_STATE_BYTES:,} a run reads back; ask fewer cases or samples "
                    "at once (-k), or with smaller model arguments"
                )
            self._submit(bstate, provider, {j.case.id: j for j in jobs}, path)
            return bstate, False

    def _new_state(self, model: str, provider: tuple[str, str], jobs: list[Job]) -> BatchState:
        sent = self.asker.sent(model)
        requests = {}
        for job in jobs:
            for index in job.indices:
                r = Request(
                    model,
                    job.case.id,
                    self.asker.lang,
                    index,
                    job.case.prompt_hash(self.asker.lang),
                    sent.temperature,
                    sent.max_tokens,
                    dict(sent.args),
                    sent.model if sent.model != model else None,
                )
                requests[r.custom_id] = r
        server = self._expected(model, provider).server
        return BatchState(model=model, provider=provider[0], requests=requests, server=server)

    def _replanned(self, jobs: list[Job]) -> list[Job]:
        """``jobs`` as they stand now: what is still missing of each (recordings may have arrived),
        less what this run recorded from a batch (under ``--record=all`` every sample is asked
        again, but not one a resumed batch has just answered: that would be paid for twice)."""
        out = []
        for job in (self.asker.job(j.model, j.case, self.samples) for j in jobs):
            left = tuple(i for i in job.indices if (job.model, job.case.id, i) not in self._recorded)
            if left:
                out.append(dataclasses.replace(job, indices=left))
        return out

    @staticmethod
    def _fail(jobs: list[Job], state: RunState, why: str) -> None:
        """``why`` for each of ``jobs`` not already failed or unrecorded (those say more)."""
        for job in jobs:
            if job.key not in state.unrecorded:
                state.failures.setdefault(job.key, why)

    def _submit(self, bstate: BatchState, provider: tuple[str, str], jobs: dict[str, Job], path: Path) -> None:
        """Upload the requests as a JSONL file and create the batch (:func:`~.batch_submit.submit`)."""
        lines = []
        for r in bstate.requests.values():
            # the extra arguments first: model_config refuses every key set here
            body: dict[str, Any] = {**r.args, "model": provider[1], "messages": jobs[r.case_id].case.messages(r.lang)}
            if r.temperature is not None:
                body["temperature"] = r.temperature
            if r.max_tokens is not None:
                body["max_tokens"] = r.max_tokens
            line = {"custom_id": r.custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}
            lines.append(json.dumps(line, ensure_ascii=False))
        data = ("\n".join(lines) + "\n").encode("utf-8")
        submit(self._litellm(), bstate, data, self._api(bstate.provider), path, self._said)
        self.say(f"submitted batch {bstate.batch_id}: {len(bstate.requests)} request(s) of {bstate.model} ({path})")

    def _forget(self, bstate: BatchState, path: Path) -> None:
        """Delete the state at ``path`` if it is still this batch's, under the submission lock:
        another run may have resumed this batch and written its own new one there since, and
        without its state that one would be asked (paid for) again. Where the lock is not had in
        time, the state stays: the next run resumes the finished batch and records it again."""
        wait = 3 * self.asker.timeout + 10  # (as a waiting submitter waits for the holder)
        with contextlib.suppress(OSError, LockBusy), submission_lock(path.parent, wait, self.say):
            if batch_id_at(path) == bstate.batch_id:
                path.unlink()

    @staticmethod
    def _kept(bstate: BatchState, path: Path) -> str:
        return f"{bstate.model}: batch {bstate.batch_id} is kept in {path}; run again to resume it"

    # --- polling and recording --------------------------------------------------------------------

    def _finish(self, bstate: BatchState, path: Path, state: RunState, progress: Progress) -> bool:
        """Poll the batch to its end and record its answers; whether it is done with (else it is kept).

        The state is kept, not deleted, whenever an answer the batch was paid for is not recorded:
        its output could not be read, the provider reports more answers than it delivered, or a
        recording could not be written. The next run fetches them again from the same batch.
        """
        progress.planned += len(bstate.requests)
        progress.asked += len(bstate.requests)
        keys = {RunState.key(r.model, r.case_id) for r in bstate.requests.values()}

        def fail_all(why: str) -> None:
            for key in keys:
                state.failures.setdefault(key, why)
            progress.failed += len(bstate.requests)

        try:
            batch = self._poll(bstate, path, progress)
        except KeyboardInterrupt:
            self.say(
                f"interrupted: batch {bstate.batch_id} of {bstate.model} runs on at the provider; it is kept in "
                f"{path}: run again to fetch it"
            )
            raise
        except _Unfinished as exc:
            fail_all(str(exc))
            return False
        kept = f"it is kept in {path}: run again to fetch them"
        try:
            rows, seen, delivered = self._rows(batch, bstate)
        except Exception as exc:
            fail_all(
                f"{bstate.model}: the results of batch {bstate.batch_id} could not be downloaded: {self._said(exc)}; "
                + kept
            )
            return False
        self._say_duplicates(bstate, seen)
        # every answer delivered is recorded at once, whatever is missing beside it
        lost = self._lost(batch, delivered)
        if not self._record(bstate, batch, rows, state, progress, kept=lost):
            return False
        if lost:  # the provider says it answered more than its files hold: fetched again next run
            self.say(f"{bstate.model}: batch {bstate.batch_id} ended {batch.status} but {lost}; {kept}")
            return False
        self._forget(bstate, path)
        if batch.status != "completed":
            self.say(self._ended(bstate, batch))
        return True

    def _poll(self, bstate: BatchState, path: Path, progress: Progress) -> Any:
        """The batch once it has ended, polled every :attr:`poll` seconds.

        Each change is said, and at least every :attr:`heartbeat` seconds a line says it is still
        waited for (state, counts, time), so a run waiting hours is never silent.

        Raises
        ------
        _Unfinished
            It could not be polled, or it did not end within :attr:`wait` seconds: it is kept.
        """
        litellm = self._litellm()
        started = time.monotonic()
        failures, last, said_at = 0, "", started
        while True:
            try:
                batch = litellm.retrieve_batch(bstate.batch_id, **self._api(bstate.provider))
            except Exception as exc:
                failures += 1
                waited = time.monotonic() - started
                if failures > self.asker.max_retries or not is_retriable(exc) or waited >= self.wait:
                    raise _Unfinished(
                        f"{bstate.model}: batch {bstate.batch_id} could not be polled: {self._said(exc)}; "
                        f"it is kept in {path}: run again to resume it"
                    ) from None
                time.sleep(min(self.poll, max(0.0, self.wait - waited)))
                continue
            failures = 0
            now = self._status(bstate, batch)
            if batch.status in TERMINAL:
                if now != last:
                    self.say(f"{now}, {progress.elapsed:.0f}s")
                return batch
            waited = time.monotonic() - started
            if waited >= self.wait:
                raise _Unfinished(
                    f"{bstate.model}: {now} after {waited:.0f} s of waiting (--batch-wait {self.wait:g}); it runs on "
                    f"at the provider and is kept in {path}; run again to fetch it"
                )
            if now != last or time.monotonic() - said_at >= self.heartbeat:
                still = "" if now != last else "still "
                self.say(f"{still}{now}, {progress.elapsed:.0f}s")
                last, said_at = now, time.monotonic()
            time.sleep(min(self.poll, max(0.0, self.wait - waited)))

    @staticmethod
    def _status(bstate: BatchState, batch: Any) -> str:
        """One line on where the batch stands: its state and its counts (as the provider reports
        them, numbers only)."""
        counts = getattr(batch, "request_counts", None)
        done = f"{_count(counts, 'completed')}/{_count(counts, 'total', len(bstate.requests))}"
        return f"batch {bstate.batch_id} {one_line(batch.status)}: {done} done, {_count(counts, 'failed')} failed"

    def _say_duplicates(self, bstate: BatchState, seen: Counter[str]) -> None:
        """Say so when the batch's files hold more than one row for a request (which one is kept)."""
        twice = sorted(cid for cid, n in seen.items() if n > 1)
        if twice:
            extra = sum(seen[cid] - 1 for cid in twice)
            self.say(
                f"batch {bstate.batch_id} of {bstate.model}: its files hold {extra} more row(s) than requests, for "
                f"{len(twice)} request(s) (first: {twice[0]}); each request's first answer is recorded, the rest ignored"
            )

    @staticmethod
    def _lost(batch: Any, delivered: int) -> str:
        """Why answers the batch was paid for are missing from its files, or ``""`` when none are.

        A provider's count of answers is held against every answer row its files hold (``delivered``:
        each row of a request that came back with HTTP 200), duplicates included (those are said, not
        taken for lost answers), and rows this program cannot read too: a row that came is no longer
        owed, and its request errors and is asked in a new batch next run. A request with no row
        that the count does not claim was never answered: the same (kept for either, the batch
        would be fetched again and again to the same end).
        """
        reported = getattr(getattr(batch, "request_counts", None), "completed", 0)
        if isinstance(reported, int) and reported > delivered:
            return f"it reports {reported} answer(s) and its files hold {delivered}"
        return ""

    def _rows(self, batch: Any, bstate: BatchState) -> tuple[dict[str, Answer | str], Counter[str], int]:
        """Every request's answer, or the provider's reason it has none (rows not ours are ignored),
        how many rows each request has (more than one: the provider repeated it; an answer is
        taken before an error, else the first row), and how many of the rows are answers delivered
        (HTTP 200, read or not).

        Raises
        ------
        ValueError
            A line of a file is not a batch row (an HTML page, a cut download): what the file holds
            is unknown, so nothing of it is taken as read.
        """
        litellm = self._litellm()
        out: dict[str, Answer | str] = {}
        seen: Counter[str] = Counter()
        delivered = 0
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = litellm.file_content(file_id=checked_id(file_id), **self._api(bstate.provider)).content
            for number, raw in enumerate(_lines(content), 1):
                if not raw.strip():
                    continue
                try:
                    row = json.loads(raw)
                    cid = row["custom_id"]
                except (ValueError, TypeError, KeyError):
                    raise ValueError(f"line {number} of file {file_id} is not a batch row: {raw[:60]!r}") from None
                if not (isinstance(cid, str) and cid in bstate.requests):
                    continue
                seen[cid] += 1
                delivered += is_delivered(row)
                if not isinstance(out.get(cid), Answer):
                    out[cid] = row_answer(row)
        return out, seen, delivered

    def _record(
        self,
        bstate: BatchState,
        batch: Any,
        rows: dict[str, Answer | str],
        state: RunState,
        progress: Progress,
        kept: str = "",
    ) -> bool:
        """Record every answer of ``rows``; whether all were written (else the batch is kept, to fetch
        them again once the folder is writable). ``kept`` says why the batch is kept though they
        were (the provider reports answers its files do not hold): a request without a row then
        waits for the next run's fetch instead of a new batch."""
        version = litellm_version()
        recordings: dict[tuple[str, str], Recording] = {}
        waits = (
            f"no row for this request yet ({kept}); batch {bstate.batch_id} is kept: run again to fetch it"
            if kept
            else ""
        )
        for cid, req in bstate.requests.items():
            key = RunState.key(req.model, req.case_id)
            got = rows.get(cid) or waits or self._unanswered(bstate, batch)
            if isinstance(got, str):
                progress.failed += 1
                again = "" if "run again" in got else "; run again to ask for it in a new batch"
                state.failures.setdefault(key, f"{req.model}: batch {bstate.batch_id}, request {cid}: {got}{again}")
                continue
            progress.count_answer(req.model, got)
            rec = recordings.setdefault(
                (req.case_id, req.lang),
                Recording(
                    req.model,
                    req.case_id,
                    req.lang,
                    req.temperature,
                    req.prompt_sha256,
                    [],
                    req.max_tokens,
                    args=dict(req.args),
                    litellm_model=req.litellm_model,
                ),
            )
            rec.add(sample_record(req.sample, got, version, self.asker.api_base))
        written = True
        for rec in recordings.values():
            now = self._prompts.get((rec.case_id, rec.lang))
            if now is not None and rec.prompt_sha256 != now:
                self.say(self._earlier(bstate, rec, "the run asks it anew"))
                continue
            try:
                # a case the run has nothing to ask for: its recording on disk may answer a later prompt
                if self.asker.store.save(rec, keep_other_prompt=now is None) is None:
                    self.say(self._earlier(bstate, rec, "the recording on disk, of another prompt, is kept"))
                    continue
                if rec.settings_key == self._settings_key(rec.model):  # (else it answers other settings)
                    self._recorded.update((rec.model, rec.case_id, s["index"]) for s in rec.samples)
            except OSError as exc:
                written = False
                where = self.asker.store.path(rec.model, rec.case_id, rec.lang)
                state.unrecorded.setdefault(
                    RunState.key(rec.model, rec.case_id),
                    f"the answer for {rec.model}/{rec.case_id} arrived but could not be recorded at {where}: "
                    f"{exc.strerror or exc}; batch {bstate.batch_id} is kept: free the disk or make the folder "
                    "writable, then run again to fetch it",
                )
        return written

    def _settings_key(self, model: str) -> str:
        """The :attr:`~.store.Recording.settings_key` of what this run asks ``model`` with: a resumed
        batch sent at other settings (another temperature, other arguments) answers other questions."""
        sent = self.asker.sent(model)
        litellm_model = sent.model if sent.model != model else None
        own = Recording(model, "", "", sent.temperature, "", [], sent.max_tokens, dict(sent.args), litellm_model)
        return own.settings_key

    @staticmethod
    def _earlier(bstate: BatchState, rec: Recording, instead: str) -> str:
        """Why a resumed batch's answer is not recorded: it answers a prompt the case no longer asks."""
        return (
            f"batch {bstate.batch_id} of {rec.model} answered {rec.case_id} ({rec.lang}) for a prompt it no longer "
            f"asks (the case changed since the batch was submitted): that answer is not recorded; {instead}"
        )

    @staticmethod
    def _unanswered(bstate: BatchState, batch: Any) -> str:
        """Why a request has no row at all, by how the batch ended."""
        if batch.status == "failed":
            errors = getattr(getattr(batch, "errors", None), "data", None) or []
            said = "; ".join(one_line(getattr(e, "message", e)) for e in errors[:3]) or "no reason given"
            return f"the batch failed ({said}); fix what it says and run again to submit a new batch"
        if batch.status in ("expired", "cancelled"):
            return f"the batch was {batch.status} before this request ran; run again to ask for it in a new batch"
        return "the batch ended without an answer for this request; run again to ask for it"

    @staticmethod
    def _ended(bstate: BatchState, batch: Any) -> str:
        counts = getattr(batch, "request_counts", None)
        return (
            f"batch {bstate.batch_id} of {bstate.model} ended {batch.status} with "
            f"{getattr(counts, 'completed', 0)} of {len(bstate.requests)} answered; the rest error, and the next "
            "run submits them in a new batch"
        )


def _lines(content: bytes) -> Iterator[str]:
    """The lines of a batch file, each decoded as it is reached: the file is held once, not again
    as one decoded text and again as a list of lines (a 300 MB output peaked at 1.2 GB)."""
    start = 0
    while start < len(content):
        end = content.find(b"\n", start)
        end = len(content) if end < 0 else end
        yield content[start:end].decode("utf-8", errors="replace").rstrip("\r")
        start = end + 1


class _Unfinished(Exception):
    """A batch the run stops waiting for (it could not be polled, or did not end in time): kept."""


def _count(counts: Any, name: str, default: int = 0) -> str:
    """A count of the provider's report as shown: a whole number, or ``?`` for anything else."""
    value = getattr(counts, name, default)
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "?"
