"""Record/replay policy: which answers come from disk and which from the model.

``--record`` modes (the safe one is the default):

* ``none`` — replay only. A missing, short, stale or corrupt recording is a :class:`FixtureError`
  saying how to record it. litellm is never imported.
* ``missing`` (default) — replay what is recorded and valid; ask the model only for what is not
  (a missing file, missing samples, a stale recording). A corrupt file is moved aside, not lost.
* ``all`` — ask the model for every sample again and overwrite the recording.

A failed call raises :class:`ProviderError` and records nothing; samples already answered in the
same case are kept (written before the error propagates).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from shape_asserts.asking.call import Answer, ask
from shape_asserts.cases import Case
from shape_asserts.exceptions import FixtureError
from shape_asserts.asking.store import FixtureStore, Recording, sample_record

__all__ = ["RECORD_MODES", "Obtained", "Recorder"]

RECORD_MODES = ("none", "missing", "all")

AskFn = Callable[..., Answer]


@dataclass(frozen=True)
class Obtained:
    """The answer texts of one case and where they came from."""

    texts: tuple[str, ...]
    asked: int
    replayed: int
    note: str = ""


def _how_to_record(model: str, case: Case) -> str:
    return f"record it with: pytest --model={model} --record=missing -k {case.id}"


class Recorder:
    """Gets ``samples`` answers for a model × case under a record mode."""

    def __init__(self, store: FixtureStore, mode: str = "missing", *, temperature: float | None = None,
                 lang: str = "ru", timeout: float = 120.0, api_base: str | None = None,
                 ask_fn: AskFn = ask) -> None:
        if mode not in RECORD_MODES:
            raise ValueError(f"record mode must be one of {', '.join(RECORD_MODES)}, got {mode!r}")
        self.store = store
        self.mode = mode
        self.temperature = temperature
        self.lang = lang
        self.timeout = timeout
        self.api_base = api_base
        self.ask_fn = ask_fn

    def _valid(self, model: str, case: Case) -> tuple[Recording | None, str]:
        """The usable recording (or None) and, if unusable, why."""
        path = self.store.path(model, case.id, self.lang)
        try:
            rec = self.store.read(model, case, self.lang)
        except FixtureError:
            if self.mode == "none":
                raise
            self.store.quarantine(model, case.id, self.lang)
            return None, f"corrupt fixture {path} moved aside"
        if rec is None:
            return None, f"no recorded answer at {path}"
        why = self.store.stale_reason(rec, case, self.lang, self.temperature)
        if why:
            return None, f"fixture {path} is stale: {why}"
        return rec, ""

    def new_recording(self, model: str, case: Case) -> Recording:
        """An empty recording for what this run asks."""
        return Recording(model=model, case_id=case.id, lang=self.lang, temperature=self.temperature,
                         prompt_sha256=case.prompt_hash(self.lang), samples=[])

    def pending(self, model: str, case: Case, samples: int) -> tuple[Recording | None, list[int], str]:
        """The usable recording, the sample indices still to ask, and why (``none`` mode asks none)."""
        if self.mode == "all":
            return None, list(range(samples)), "re-recording (--record=all)"
        rec, why = self._valid(model, case)
        todo = rec.missing(samples) if rec is not None else list(range(samples))
        return rec, todo, why

    def obtain(self, model: str, case: Case, samples: int = 1) -> Obtained:
        """``samples`` answer texts for ``case`` from ``model``, recording what had to be asked.

        Raises
        ------
        FixtureError
            In ``none`` mode, when the recording is missing, short, stale or corrupt.
        ProviderError
            When the model could not be asked (nothing is recorded for that sample).
        """
        rec, todo, why = self.pending(model, case, samples)
        if not todo and rec is not None:
            return Obtained(texts=tuple(rec.texts(samples)), asked=0, replayed=samples)
        if self.mode == "none":
            if rec is not None:
                why = (f"fixture {self.store.path(model, case.id, self.lang)} lacks sample(s) "
                       f"{', '.join(map(str, todo))} of the {samples} requested")
            raise FixtureError(f"{why} for {model}/{case.id}; {_how_to_record(model, case)}")
        rec = rec or self.new_recording(model, case)
        asked = 0
        litellm_version = None
        try:
            for index in todo:
                answer = self.ask_fn(model, case.messages(self.lang), temperature=self.temperature,
                                     timeout=self.timeout, api_base=self.api_base, sample=index)
                if litellm_version is None:
                    litellm_version = litellm_version_string()
                rec.add(sample_record(index, answer, litellm_version))
                asked += 1
        finally:
            if asked:
                try:
                    self.store.save(rec)
                except OSError as exc:
                    path = self.store.path(model, case.id, self.lang)
                    raise FixtureError(f"the answer for {model}/{case.id} arrived but could not be recorded "
                                       f"at {path}: {exc.strerror or exc} (errno {exc.errno}); free the disk "
                                       "or make the folder writable, then run again") from None
        return Obtained(texts=tuple(rec.texts(samples)), asked=asked, replayed=samples - asked, note=why)


def litellm_version_string() -> str | None:
    """The installed litellm's version (read from metadata: no import)."""
    try:
        from importlib.metadata import version

        return version("litellm")
    except Exception:  # noqa: BLE001
        return None
