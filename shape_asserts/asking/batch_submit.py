"""Submitting a batch exactly once: the lock around it, and finding a batch whose reply was lost.

A batch is paid for when it is created, so its creation is never repeated blindly:

* No hidden retries: every file and batch call passes ``max_retries=0`` (the OpenAI client would
  otherwise send a create again when its reply is lost or slow, and each copy is a batch paid for).
* One submitter per model: :func:`submission_lock` holds ``<fixtures-dir>/<model>/.batch.lock``
  from reading the state to writing it after the create, so two ``--batch`` runs for one model
  cannot both submit; the second finds the first's state and resumes that batch. A lock held
  elsewhere is named (process, host, since when) while it is waited for.
* A create whose reply never came keeps its state (``create_sent``, no batch id); the next run
  looks the batch up by its input file in the provider's batch list (:func:`find_batch`) and
  resumes it. When the list does not show it, the batch's fate is unknown and
  :class:`FateUnknown` says how to settle it by hand: nothing is submitted again.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from shape_asserts.asking.batch_state import BatchState, checked_id, one_line
from shape_asserts.asking.store import model_slug
from shape_asserts.exceptions import ShapeAssertsError

__all__ = ["LOCK_NAME", "FateUnknown", "LockBusy", "adopt", "find_batch", "submission_lock", "submit"]

LOCK_NAME = ".batch.lock"
#: Pages of the provider's batch list searched for a batch whose creation reply was lost (newest first).
MAX_LIST_PAGES = 20
#: Seconds between two attempts at a lock held by another run.
LOCK_POLL = 0.2


class LockBusy(ShapeAssertsError):
    """Another run held a model's submission lock for longer than this run waits."""


class FateUnknown(ShapeAssertsError):
    """A batch was asked to be created, its reply was lost, and the provider's list does not show it."""


@contextlib.contextmanager
def submission_lock(folder: Path, wait: float, say: Any) -> Iterator[None]:
    """Hold the folder's batch submission lock, waiting up to ``wait`` seconds for another run's.

    The lock is the operating system's (``flock``): it goes with the process that held it, so a
    killed run leaves none behind. The file says who holds it, for the message of a run that waits.

    Raises
    ------
    LockBusy
        When the lock is still held after ``wait`` seconds (naming its holder).
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    try:  # never through a link: a fixtures folder from a checkout could point it at any file
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise LockBusy(
            f"the batch lock {path} cannot be opened ({exc.strerror or exc}); it must be a plain file: "
            "delete it and run again"
        ) from None
    with open(fd, "a+", encoding="utf-8") as fh:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _holder(path)
                if time.monotonic() >= deadline:
                    raise LockBusy(
                        f"another --batch run ({holder}) has held {path} for over {wait:.0f} s while "
                        "submitting a batch of this model; run again when it has submitted, and this run "
                        "resumes its batch"
                    ) from None
                if not told:
                    say(f"waiting for {path}: another --batch run ({holder}) is submitting a batch of this model")
                    told = True
                time.sleep(LOCK_POLL)
        try:
            fh.seek(0)
            fh.truncate()
            when = datetime.now(timezone.utc).isoformat(timespec="seconds")
            fh.write(f"pid {os.getpid()} on {socket.gethostname()}, since {when}\n")
            fh.flush()
            yield
        finally:
            fh.seek(0)
            fh.truncate()
            fcntl.flock(fh, fcntl.LOCK_UN)


def _holder(path: Path) -> str:
    """Who holds the lock at ``path``, as its holder wrote it (one line, escaped)."""
    try:
        said = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        said = ""
    return one_line(said.encode("ascii", "backslashreplace").decode()) if said else "a process that has not said"


def find_batch(litellm: Any, bstate: BatchState, api: dict[str, Any], path: Path) -> str | None:
    """The id of the batch made from the state's input file, looked up in the provider's batch list.

    ``None`` when no create was ever sent for it (a run killed between upload and create): the
    caller creates it then.

    Raises
    ------
    FateUnknown
        A create was sent, its reply was lost, and the list (as far as it was searched) does not show it.
    """
    after: str | None = None
    complete = False
    for _ in range(MAX_LIST_PAGES):
        listed = litellm.list_batches(limit=100, **({"after": after} if after else {}), **api)
        data = list(getattr(listed, "data", None) or [])
        for batch in data:
            if getattr(batch, "input_file_id", None) == bstate.input_file_id:
                return checked_id(batch.id)
        if not data or not getattr(listed, "has_more", False):
            complete = True
            break
        after = str(getattr(data[-1], "id", "")) or None
        if after is None:
            break
    if not bstate.create_sent:
        return None
    searched = "the provider's whole batch list" if complete else f"the newest {MAX_LIST_PAGES} pages of batches"
    raise FateUnknown(
        f"{bstate.model}: a batch of input file {bstate.input_file_id} was submitted at {bstate.created_at}, its "
        f"reply was lost, and {searched} does not show it, so whether it was made is unknown; nothing is submitted "
        f"again: look at the provider's batches, then either write the batch's id as batch_id in {path} (it was "
        "made) or delete that file (it was not), and run again"
    )


def submit(
    litellm: Any, bstate: BatchState, data: bytes, api: dict[str, Any], path: Path, said: Callable[[BaseException], str]
) -> None:
    """Upload ``data`` (the batch's JSONL requests) and create the batch, keeping the state on disk from the upload on.

    A create whose reply is lost (a timeout, a dropped connection, a 5xx) leaves the state with
    ``create_sent`` and no batch id: the next run looks for the batch before making one. Only a
    create the provider refused outright (a 4xx but 408 and 409, a 429 included) was surely not made:
    its state goes.

    Raises
    ------
    FateUnknown
        The create's reply was lost (``said(exc)`` tells how); the state is kept.
    """
    upload = litellm.create_file(file=(f"shape-asserts-{model_slug(bstate.model)}.jsonl", data), purpose="batch", **api)
    bstate.input_file_id = checked_id(upload.id)
    bstate.write(path)  # from here on a rerun looks for this file's batch before making one
    try:
        bstate.batch_id = _create(litellm, bstate, api, path)
    except Exception as exc:
        if _refused(exc):
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        raise FateUnknown(
            f"{bstate.model}: the reply to the batch's submission was lost ({said(exc)}); it may have been made, "
            f"so it is kept in {path}: run again, and the next run looks for it before submitting anything"
        ) from None
    bstate.write(path)


def adopt(litellm: Any, bstate: BatchState, api: dict[str, Any], path: Path) -> None:
    """Give a state with no batch id the batch made from its file, else (no create was ever sent) a new one.

    Raises
    ------
    FateUnknown
        A create was sent and the provider's list does not show its batch.
    """
    found = find_batch(litellm, bstate, api, path)
    bstate.batch_id = found if found is not None else _create(litellm, bstate, api, path)
    bstate.write(path)


def _create(litellm: Any, bstate: BatchState, api: dict[str, Any], path: Path) -> str:
    """A new batch of the state's uploaded file; its id. The state says a create was sent before it goes."""
    bstate.create_sent = True
    bstate.write(path)
    batch = litellm.create_batch(
        completion_window="24h",
        endpoint="/v1/chat/completions",
        input_file_id=bstate.input_file_id,
        metadata={"made_by": "shape-asserts"},
        **api,
    )
    return checked_id(batch.id)


def _refused(exc: BaseException) -> bool:
    """Whether the provider answered with a refusal (a 4xx but 408 and 409, a rate limit's 429
    included): nothing was made. A 408 or 409 may follow a create that was (a timeout at a proxy, a
    conflict with the batch just made)."""
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and 400 <= status < 500 and status not in (408, 409)
