"""Batch runs (``--batch``): a selection's missing answers asked through the provider's batch interface.

The :class:`~shape_asserts.asking.asker.Asker` plans what is missing as for a live run; instead of
one call per sample, every planned sample of a model becomes one line of a JSONL file of
chat-completion requests (``custom_id`` = ``model/case/lang/sample``), uploaded with
``litellm.create_file`` and submitted with ``litellm.create_batch`` as one batch (providers take one
model per batch). ``litellm.retrieve_batch`` polls it every :data:`~shape_asserts.defaults.BATCH_POLL` seconds,
saying each change; when it ends, ``litellm.file_content`` brings its output and error files, and each answer
is recorded exactly as a live one (same store, same fields, same redaction) and replays like any.

A batch outlives the run that submitted it: its id, input file id, creation time and the
identities of its requests (no key, no URL) are kept in ``<fixtures-dir>/<model>/.batch.json``
(``batch_state.py``, written atomically) from the upload on, and a run that finds that file resumes the same batch
instead of submitting another, so a killed run never pays twice. The file goes once the batch
has ended and its answers are recorded.

A row that failed records nothing: its case is an ERROR naming the provider's reason. A batch
that expired, failed or was cancelled records what it did answer and says what to do. A model
whose provider has no batch interface litellm can drive (the reference drawers; Anthropic, whose
batches litellm can read but not create) is a :class:`BatchUnavailable`, which the plugin reports
as a usage error before anything is submitted.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shape_asserts.asking.asker import Asker, Job
from shape_asserts.asking.batch_state import STATE_NAME, BatchState, BatchUnavailable, Request, one_line, row_answer
from shape_asserts.asking.call import Answer, is_retriable, litellm_version, load_litellm, missing_key_reason
from shape_asserts.asking.runstate import Progress, RunState
from shape_asserts.asking.store import Recording, model_slug, sample_record
from shape_asserts.defaults import BATCH_POLL

__all__ = ["BatchUnavailable", "BatchRunner", "STATE_NAME", "state_path"]

#: Statuses after which a batch changes no more.
TERMINAL = ("completed", "expired", "failed", "cancelled")


def state_path(asker: Asker, model: str) -> Path:
    """Where a model's pending batch is kept: beside its recordings."""
    return asker.store.root / model_slug(model) / STATE_NAME


class BatchRunner:
    """Asks a run's planned samples as one batch per model, and records the answers."""

    def __init__(
        self, asker: Asker, samples: int, poll: float | None = None, say: Callable[[str], None] | None = None
    ) -> None:
        self.asker = asker
        self.samples = samples
        # read when the runner is made, not imported: a test makes the polls instant by setting it
        self.poll = BATCH_POLL if poll is None else poll
        self.say = say or (lambda line: None)

    def fetch(self, jobs: list[Job]) -> tuple[RunState, Progress]:
        """Ask for every planned sample through batches; what could not be obtained, and the counters.

        Raises
        ------
        BatchUnavailable
            A model with something to ask has no batch interface (nothing is submitted then).
        """
        state, progress = RunState(fetched=True), Progress()
        by_model: dict[str, list[Job]] = {}
        for job in jobs:
            by_model.setdefault(job.model, []).append(job)
        for model in by_model:
            if model.startswith("reference/"):
                raise BatchUnavailable(
                    f"--batch: {model} draws in-process and has no batch interface; run it without --batch"
                )
        providers = {model: self._provider(model) for model in by_model}  # every model checked before any submit
        for model, model_jobs in by_model.items():
            self._run_model(model, providers[model], model_jobs, state, progress)
        progress.finished = time.perf_counter()
        return state, progress

    def _provider(self, model: str) -> tuple[str, str]:
        """The model's provider and the name the provider knows it by, if litellm can batch it."""
        litellm = load_litellm()
        from litellm.types.utils import OPENAI_COMPATIBLE_BATCH_AND_FILES_PROVIDERS

        try:
            name, provider, _, _ = litellm.get_llm_provider(model, api_base=self.asker.api_base)
        except Exception as exc:
            raise BatchUnavailable(f"--batch: litellm does not know the provider of {model}: {one_line(exc)}") from None
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

    def _api(self, provider: str) -> dict[str, Any]:
        """The arguments every batch or file call takes (the key comes from the environment)."""
        kwargs: dict[str, Any] = {"custom_llm_provider": provider, "timeout": self.asker.timeout}
        if self.asker.api_base:
            kwargs["api_base"] = self.asker.api_base
        return kwargs

    # --- one model ------------------------------------------------------------------------------

    def _run_model(
        self, model: str, provider: tuple[str, str], jobs: list[Job], state: RunState, progress: Progress
    ) -> None:
        path = state_path(self.asker, model)
        reason = missing_key_reason(model, self.asker.api_base)
        if reason:
            for job in jobs:
                state.failures.setdefault(job.key, f"{model}: {reason}")
            return
        pending = BatchState.read(path)
        if pending is not None:
            self.say(
                f"resuming batch {pending.batch_id or '(being submitted)'} of {model}, submitted "
                f"{pending.created_at} with {len(pending.requests)} request(s) ({path})"
            )
            if not self._finish(pending, path, state, progress):
                for job in jobs:  # still pending: nothing more is submitted for this model now
                    state.failures.setdefault(job.key, self._kept(pending, path))
                return
            # what the resumed batch did not answer is planned again
            jobs = [j for j in (self.asker.job(j.model, j.case, self.samples) for j in jobs) if j.indices]
            jobs = [j for j in jobs if j.key not in state.failures]
        if not jobs:
            return
        requests = {}
        for job in jobs:
            for index in job.indices:
                r = Request(
                    model,
                    job.case.id,
                    self.asker.lang,
                    index,
                    job.case.prompt_hash(self.asker.lang),
                    self.asker.temperature,
                    self.asker.max_tokens,
                )
                requests[r.custom_id] = r
        bstate = BatchState(model=model, provider=provider[0], requests=requests)
        by_id = {j.case.id: j for j in jobs}
        try:
            self._submit(bstate, provider, by_id, path)
        except Exception as exc:
            # a batch may have been made if the reply was lost (timeout, dropped connection, 5xx):
            # the state stays, and the next run adopts it; one the provider refused was never made
            if bstate.input_file_id is None or not is_retriable(exc):
                with contextlib.suppress(OSError):
                    path.unlink()
            why = f"{model}: the batch could not be submitted: {one_line(exc)}; run again"
            for job in jobs:
                state.failures.setdefault(job.key, why)
            return
        self._finish(bstate, path, state, progress)

    def _submit(self, bstate: BatchState, provider: tuple[str, str], jobs: dict[str, Job], path: Path) -> None:
        """Upload the requests and create the batch, keeping the state on disk from the upload on."""
        litellm = load_litellm()
        lines = []
        for r in bstate.requests.values():
            body: dict[str, Any] = {"model": provider[1], "messages": jobs[r.case_id].case.messages(r.lang)}
            if r.temperature is not None:
                body["temperature"] = r.temperature
            if r.max_tokens is not None:
                body["max_tokens"] = r.max_tokens
            line = {"custom_id": r.custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}
            lines.append(json.dumps(line, ensure_ascii=False))
        data = ("\n".join(lines) + "\n").encode("utf-8")
        upload = litellm.create_file(
            file=(f"shape-asserts-{model_slug(bstate.model)}.jsonl", data),
            purpose="batch",
            **self._api(bstate.provider),
        )
        bstate.input_file_id = str(upload.id)
        bstate.write(path)  # from here on a rerun looks for this file's batch before making one
        bstate.batch_id = self._create_batch(litellm, bstate)
        bstate.write(path)
        self.say(f"submitted batch {bstate.batch_id}: {len(bstate.requests)} request(s) of {bstate.model} ({path})")

    def _adopt(self, bstate: BatchState, path: Path) -> None:
        """For a state killed between upload and batch: the batch made from its file, else a new one."""
        litellm = load_litellm()
        listed = litellm.list_batches(limit=100, **self._api(bstate.provider))
        for batch in getattr(listed, "data", None) or []:
            if getattr(batch, "input_file_id", None) == bstate.input_file_id:
                bstate.batch_id = str(batch.id)
                break
        else:
            bstate.batch_id = self._create_batch(litellm, bstate)
        bstate.write(path)

    def _create_batch(self, litellm: Any, bstate: BatchState) -> str:
        """A new batch of the state's uploaded file; its id."""
        batch = litellm.create_batch(
            completion_window="24h",
            endpoint="/v1/chat/completions",
            input_file_id=bstate.input_file_id,
            metadata={"made_by": "shape-asserts"},
            **self._api(bstate.provider),
        )
        return str(batch.id)

    @staticmethod
    def _kept(bstate: BatchState, path: Path) -> str:
        return f"{bstate.model}: batch {bstate.batch_id} is still pending (kept in {path}); run again to resume it"

    # --- polling and recording --------------------------------------------------------------------

    def _finish(self, bstate: BatchState, path: Path, state: RunState, progress: Progress) -> bool:
        """Poll the batch to its end and record its answers; whether it ended (else it is kept)."""
        litellm = load_litellm()
        progress.planned += len(bstate.requests)
        progress.asked += len(bstate.requests)
        keys = {RunState.key(r.model, r.case_id) for r in bstate.requests.values()}

        def fail_all(why: str) -> None:
            for key in keys:
                state.failures.setdefault(key, why)
            progress.failed += len(bstate.requests)

        failures, last = 0, ""
        while True:
            try:
                if bstate.batch_id is None:
                    self._adopt(bstate, path)
                batch = litellm.retrieve_batch(bstate.batch_id, **self._api(bstate.provider))
            except Exception as exc:
                failures += 1
                if failures > self.asker.max_retries or not is_retriable(exc):
                    fail_all(
                        f"{bstate.model}: batch {bstate.batch_id} could not be polled: {one_line(exc)}; "
                        f"it is kept in {path}: run again to resume it"
                    )
                    return False
                time.sleep(self.poll)
                continue
            failures = 0
            counts = getattr(batch, "request_counts", None)
            done = f"{getattr(counts, 'completed', 0)}/{getattr(counts, 'total', len(bstate.requests))}"
            now = f"batch {bstate.batch_id} {batch.status}: {done} done, {getattr(counts, 'failed', 0)} failed"
            if now != last:
                self.say(f"{now}, {progress.elapsed:.0f}s")
                last = now
            if batch.status in TERMINAL:
                break
            time.sleep(self.poll)
        try:
            rows = self._rows(batch, bstate)
        except Exception as exc:
            fail_all(
                f"{bstate.model}: the results of batch {bstate.batch_id} could not be downloaded: {one_line(exc)}; "
                f"it is kept in {path}: run again to fetch them"
            )
            return False
        self._record(bstate, batch, rows, state, progress)
        with contextlib.suppress(OSError):
            path.unlink()
        if batch.status != "completed":
            self.say(self._ended(bstate, batch))
        return True

    def _rows(self, batch: Any, bstate: BatchState) -> dict[str, Answer | str]:
        """Every request's answer, or the provider's reason it has none (rows not ours are ignored)."""
        litellm = load_litellm()
        out: dict[str, Answer | str] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = litellm.file_content(file_id=file_id, **self._api(bstate.provider)).content
            for raw in content.decode("utf-8", errors="replace").splitlines():
                try:
                    row = json.loads(raw)
                    cid = row["custom_id"]
                except (ValueError, TypeError, KeyError):
                    continue
                if isinstance(cid, str) and cid in bstate.requests and cid not in out:
                    out[cid] = row_answer(row)
        return out

    def _record(
        self, bstate: BatchState, batch: Any, rows: dict[str, Answer | str], state: RunState, progress: Progress
    ) -> None:
        version = litellm_version()
        recordings: dict[tuple[str, str], Recording] = {}
        for cid, req in bstate.requests.items():
            key = RunState.key(req.model, req.case_id)
            got = rows.get(cid) or self._unanswered(bstate, batch)
            if isinstance(got, str):
                progress.failed += 1
                again = "" if "run again" in got else "; run again to ask for it in a new batch"
                state.failures.setdefault(key, f"{req.model}: batch {bstate.batch_id}, request {cid}: {got}{again}")
                continue
            progress.count_answer(req.model, got)
            rec = recordings.setdefault(
                (req.case_id, req.lang),
                Recording(req.model, req.case_id, req.lang, req.temperature, req.prompt_sha256, [], req.max_tokens),
            )
            rec.add(sample_record(req.sample, got, version))
        for rec in recordings.values():
            try:
                self.asker.store.save(rec)
            except OSError as exc:
                where = self.asker.store.path(rec.model, rec.case_id, rec.lang)
                state.unrecorded.setdefault(
                    RunState.key(rec.model, rec.case_id),
                    f"the answer for {rec.model}/{rec.case_id} arrived but could not be recorded at {where}: "
                    f"{exc.strerror or exc}; free the disk or make the folder writable, then run again",
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
