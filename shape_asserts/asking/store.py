"""Record/replay: recorded answers on disk, one human-readable JSON file per model and case.

Layout: ``<fixtures-dir>/<model-slug>/<case-id>.json`` (``<case-id>.<lang>.json`` for a language
other than the default one, :data:`shape_asserts.defaults.LANG`); answers to the same prompt asked
with other settings (temperature, token limit, arguments, litellm model) than the file's are kept
beside it, in ``<case-id>[.<lang>]@<settings>.json`` (:attr:`Recording.settings_key`), so that a
run at another temperature never replaces answers paid for at the first. A file holds every
sample's raw answer text with what produced it: the prompt's SHA-256, model, temperature,
language, usage tokens, latency, litellm version and the time of recording. Never an API key, header or API base URL: text is passed through
:func:`~shape_asserts.asking.call.redact` before it is written.

A recording is *stale* when the prompt hash, the temperature, the token limit (``max_tokens``), the
litellm model a configuration names or the other arguments sent (``--model-arg``, a configuration's
keys: :mod:`~shape_asserts.asking.model_config`) no longer match what the run asks; *corrupt* when
it cannot be read. The arguments are kept as ``model_args`` (written only when there are some) and
a configuration's litellm model as ``litellm_model`` (only when it is not the name recorded under). A recording without
``max_tokens`` was made before the limit was sent, with none: it reads as ``None``, "the provider's
own limit". A limit only cuts an answer short, so such a recording still answers a run's
``--max-tokens`` when every sample ended on its own (no ``finish_reason="length"``) within it
(its recorded ``completion_tokens``, where known); else it is stale and says which sample did not fit.
A recording made with another limit is stale, like one at another temperature. The reference drawers'
answers do not depend on the limit (they ignore it), so for ``reference/*`` models it is recorded
but never compared: the shipped recordings stay valid.

Answers are bounded when recorded: a text, refusal or tool-call argument longer than
:data:`MAX_RECORDED_CHARS` keeps its first :data:`MAX_RECORDED_CHARS` characters, and the sample's
``cut_from`` says which field was cut and how long it was (``{"text": 1048576}``); replay reads the
cut answer back as recorded, so live run and replay judge the same text. Files are written atomically
(:func:`shape_asserts.fileio.write_atomic`) under an exclusive lock, so concurrent xdist workers and
a killed run leave every file either complete or absent. Which recordings to replay and which
answers to ask for is the :class:`~shape_asserts.asking.asker.Asker`'s decision; this module only
reads and writes them.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from shape_asserts.asking.call import Answer, redact
from shape_asserts.asking.failure import hide_address, redact_json
from shape_asserts.asking.model_config import MAX_DEPTH, canonical, describe_change, nesting
from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.defaults import LANG, MAX_SAMPLES
from shape_asserts.exceptions import FixtureError
from shape_asserts.fileio import write_atomic
from shape_asserts.text import single_line

if TYPE_CHECKING:  # storing needs a case's id and prompts, not the families' import
    from shape_asserts.cases import Case

__all__ = ["DEFAULT_LANG", "FORMAT_VERSION", "FixtureStore", "Recording", "model_slug", "sample_record"]

FORMAT_VERSION = 1
#: The language whose recordings' file names carry no language suffix: the run's default one.
DEFAULT_LANG = LANG
#: Largest recording read (a million-character answer is the parser's limit; a few samples of that).
MAX_FIXTURE_BYTES = 32 * 1024 * 1024
_MAX_SLUG = 80


def model_slug(model: str) -> str:
    """A filesystem-safe folder name for a model (``openai/gpt-4o`` → ``openai_gpt-4o``).

    Too-long names are cut and suffixed with a hash so that they stay distinct.
    """
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model.replace("/", "_")).strip("._") or "model"
    # '/' → '_' is the only replacement that keeps names apart; any other (or a '_' already in the
    # name, e.g. "openai_gpt-4o" vs "openai/gpt-4o") gets a short hash so two models never share
    if slug != model.replace("/", "_") or "_" in model:
        slug = f"{slug}-{hashlib.sha1(model.encode()).hexdigest()[:8]}"
    if len(slug) > _MAX_SLUG:
        digest = hashlib.sha1(model.encode()).hexdigest()[:10]
        slug = f"{slug[: _MAX_SLUG - 11]}-{digest}"
    return slug


#: Most characters of one answer field (text, refusal, a tool call's arguments) recorded: 256 Ki.
#: A drawing on a 50×50 grid is a few thousand characters; the parser reads at most 1,000,000.
MAX_RECORDED_CHARS = 256 * 1024
#: Most tool calls of one answer recorded.
MAX_TOOL_CALLS = 16
#: Most characters of a reply's names recorded (the model it says answered, why it ended).
MAX_NAME_CHARS = 256
#: The most a sample read back may say an answer cost, or a field's length before its cut: the
#: bounds a results line takes (:data:`~shape_asserts.results.results_file._BOUNDED`).
MAX_COST_USD = 1e9
MAX_CUT_FROM = 10**12


def ignores_max_tokens(model: str) -> bool:
    """Whether ``model``'s answers do not depend on ``max_tokens`` (the reference drawers)."""
    return model.startswith("reference/")


@dataclass
class Recording:
    """What a fixture file holds for one model × case × language."""

    model: str
    case_id: str
    lang: str
    temperature: float | None
    prompt_sha256: str
    samples: list[dict[str, Any]] = field(default_factory=list)
    #: The token limit the answers were asked with (``None``: none was sent).
    max_tokens: int | None = None
    #: The other arguments sent (``--model-arg``, a configuration's keys), sorted by key.
    args: dict[str, Any] = field(default_factory=dict)
    #: The litellm model asked, when ``model`` names a configuration of another name (else ``None``).
    litellm_model: str | None = None

    @property
    def asked_model(self) -> str:
        """The litellm model the answers came from."""
        return self.litellm_model or self.model

    @property
    def settings_key(self) -> str:
        """Eight hex digits naming what the answers were asked with: the temperature, the token
        limit (not for the reference drawers, which ignore it), the other arguments and the litellm
        model. Answers to the same prompt asked otherwise are kept under this name
        (:meth:`FixtureStore.save`)."""
        limit = None if ignores_max_tokens(self.asked_model) else self.max_tokens
        # (temperature 1 and 1.0 are one setting, as the stale check has it)
        temperature = None if self.temperature is None else float(self.temperature)
        settings = [temperature, limit, canonical(self.args), self.asked_model]
        return hashlib.sha256(json.dumps(settings).encode()).hexdigest()[:8]

    def _by_index(self) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        for pos, s in enumerate(self.samples):
            idx = s.get("index", pos)
            out[int(idx) if isinstance(idx, int) and not isinstance(idx, bool) else pos] = s
        return out

    def sample(self, index: int) -> dict[str, Any] | None:
        """The recorded sample ``index``, or ``None``."""
        return self._by_index().get(index)

    def missing(self, n: int) -> list[int]:
        """Sample indices below ``n`` that have no recorded answer."""
        have = self._by_index()
        return [i for i in range(n) if i not in have]

    def texts(self, n: int) -> list[str]:
        """Answer texts of samples ``0..n-1`` in order (all must be present)."""
        have = self._by_index()
        return [have[i]["text"] for i in range(n)]

    def answers(self, n: int) -> list[RecordedAnswer]:
        """Samples ``0..n-1`` in order (all must be present), with every shape and fact recorded."""
        have = self._by_index()
        return [RecordedAnswer.from_sample(have[i], self.max_tokens) for i in range(n)]

    def add(self, sample: dict[str, Any]) -> None:
        """Add (or replace) the sample with ``sample["index"]``, keeping samples in index order."""
        have = self._by_index()
        have[int(sample["index"])] = sample
        self.samples = [have[i] for i in sorted(have)]

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": FORMAT_VERSION, "model": self.model}
        # written only when present: a recording asked without them reads as it always did
        if self.litellm_model is not None:
            doc["litellm_model"] = self.litellm_model
        doc.update(case=self.case_id, lang=self.lang, temperature=self.temperature, max_tokens=self.max_tokens)
        if self.args:
            doc["model_args"] = self.args
        doc.update(prompt_sha256=self.prompt_sha256, samples=self.samples)
        return doc


def _bounded(
    text: str, name: str, cut: dict[str, int], limit: int = MAX_RECORDED_CHARS, api_base: str | None = None
) -> str:
    """``text`` redacted (``api_base``'s path and query too, as :func:`~.failure.hide_address`
    hides them: a server may echo the request's path) and cut to ``limit`` characters; a cut is
    noted in ``cut`` under ``name``."""
    text = hide_address(redact(text), api_base)
    if len(text) > limit:
        cut[name] = len(text)
        text = text[:limit]
    return text


def _dumped(doc: dict[str, Any]) -> str:
    """A recording's JSON text: UTF-8 where it can be, ASCII escapes for what cannot (a lone
    surrogate, half an emoji)."""
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
    return text


def _fitted(doc: dict[str, Any], fresh: frozenset[int] = frozenset()) -> str:
    """The recording ``doc``'s text, no larger than a read takes (:data:`MAX_FIXTURE_BYTES`):
    a file larger would never read back, and its answers would be paid for again on every run.
    Many samples of answers near :data:`MAX_RECORDED_CHARS` each (control characters are
    written six bytes each, tool calls are 16 fields) can pass it: then the answer fields of the
    samples recorded before are cut to half as many characters until the text fits, and those of
    the samples just asked (``fresh``, by index) only if that is not enough; each cut is noted in
    its sample's ``cut_from``.

    Raises
    ------
    OSError
        When even answers of one character leave it too large (nothing is written).
    """
    text = _dumped(doc)
    samples = doc.get("samples", [])
    for group in ([s for s in samples if s.get("index") not in fresh], samples):
        limit = MAX_RECORDED_CHARS
        while len(text.encode("utf-8")) > MAX_FIXTURE_BYTES and limit > 1:
            limit //= 2
            for sample in group:
                _cut_answers(sample, limit)
            text = _dumped(doc)
    size = len(text.encode("utf-8"))
    if size > MAX_FIXTURE_BYTES:
        raise OSError(
            errno.EFBIG, f"the recording would be {size:,} bytes, over the {MAX_FIXTURE_BYTES:,} a read takes"
        )
    return text


def _cut_answers(sample: dict[str, Any], limit: int) -> None:
    """Cut each answer field of ``sample`` (its text, refusal, tool calls) to ``limit`` characters,
    noting each field's length before its first cut in ``cut_from``."""
    cut = sample.setdefault("cut_from", {})
    fields = [(sample, "text", "text"), (sample, "refusal", "refusal")]
    fields += [
        (call, key, f"tool_calls[{i}].{key}")
        for i, call in enumerate(sample.get("tool_calls") or [])
        for key in ("name", "arguments")
    ]
    for owner, key, name in fields:
        value = owner.get(key)
        if isinstance(value, str) and len(value) > limit:
            cut[name] = max(cut.get(name, 0), len(value))
            owner[key] = value[:limit]
    if not cut:
        del sample["cut_from"]


def _recording_of(doc: Any) -> Recording:
    """The recording a file's JSON document holds, every field checked (else ``ValueError``)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_VERSION:
        raise ValueError(f"not a format-{FORMAT_VERSION} recording")
    samples = doc["samples"]
    if not isinstance(samples, list) or not all(
        isinstance(s, dict) and isinstance(s.get("text"), str) for s in samples
    ):
        raise ValueError("'samples' must be a list of objects with a 'text'")
    max_tokens = doc.get("max_tokens")
    if max_tokens is not None and (isinstance(max_tokens, bool) or not isinstance(max_tokens, int)):
        raise ValueError(f"'max_tokens' must be a whole number or null, got {max_tokens!r}")
    temperature = doc.get("temperature")
    if temperature is not None and not (
        isinstance(temperature, (int, float)) and not isinstance(temperature, bool) and math.isfinite(temperature)
    ):
        raise ValueError(f"'temperature' must be a finite number or null, got {temperature!r:.40}")
    args = doc.get("model_args", {})
    if not isinstance(args, dict):
        raise ValueError(f"'model_args' must be an object, got {type(args).__name__}")
    if nesting(args) > MAX_DEPTH + 1:  # a run's own arguments nest no deeper (--model-arg)
        raise ValueError(f"'model_args' nest deeper than any argument may ({MAX_DEPTH} levels)")
    litellm_model = doc.get("litellm_model")
    if litellm_model is not None and not isinstance(litellm_model, str):
        raise ValueError(f"'litellm_model' must be a string or absent, got {litellm_model!r}")
    return Recording(
        max_tokens=max_tokens,
        args=args,
        litellm_model=litellm_model,
        model=str(doc["model"]),
        case_id=str(doc["case"]),
        lang=str(doc["lang"]),
        temperature=temperature,
        prompt_sha256=str(doc["prompt_sha256"]),
        samples=[_as_written(sample, position) for position, sample in enumerate(samples)],
    )


def _as_written(sample: dict[str, Any], position: int) -> dict[str, Any]:
    """A sample read from a recording as :func:`sample_record` writes one: its fields only, each
    bounded as written (a file may hold anything: a field of 30 MB would crowd the answers of
    the samples recorded beside it out of the file, the next time one is added). An index that
    is no sample number (a list, a fraction, one past :data:`~shape_asserts.defaults.MAX_SAMPLES`)
    is read as the sample's ``position`` in the file, as where there is none."""

    def name(value: Any) -> str | None:
        return value[:MAX_NAME_CHARS] if isinstance(value, str) else None

    def number(value: Any) -> float | int | None:
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    usage: dict[str, Any] = sample["usage"] if isinstance(sample.get("usage"), dict) else {}
    index = sample.get("index", position)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_SAMPLES:
        index = position
    out: dict[str, Any] = {
        "index": index,
        "text": str(sample.get("text", ""))[:MAX_RECORDED_CHARS],
        "finish_reason": name(sample.get("finish_reason")),
        "usage": {
            k: v
            for k, v in usage.items()
            if k in ("prompt_tokens", "completion_tokens", "total_tokens") and number(v) is not None
        },
        "latency_s": number(sample.get("latency_s")),
        "recorded_at": name(sample.get("recorded_at")),
        "litellm_version": name(sample.get("litellm_version")),
    }
    if name(sample.get("response_model")) is not None:
        out["response_model"] = name(sample.get("response_model"))
    cost = number(sample.get("cost_usd"))
    if cost is not None and 0 <= cost <= MAX_COST_USD:  # (a results line takes no more)
        out["cost_usd"] = cost
    if isinstance(sample.get("refusal"), str):
        out["refusal"] = sample["refusal"][:MAX_RECORDED_CHARS]
    calls = sample.get("tool_calls")
    if isinstance(calls, list):
        out["tool_calls"] = [
            {k: str(call.get(k, ""))[:MAX_RECORDED_CHARS] for k in ("name", "arguments")}
            for call in calls[:MAX_TOOL_CALLS]
            if isinstance(call, dict)
        ]
    cut = sample.get("cut_from")
    if isinstance(cut, dict):
        # a field's length before its cut: a whole number past what is kept (else the answer's
        # length, which the report's budget and a results line read, would be a lie)
        kept = {"text": len(out["text"]), "refusal": len(out.get("refusal", ""))}
        out["cut_from"] = {
            k[:MAX_NAME_CHARS]: v
            for k, v in list(cut.items())[: 4 + 2 * MAX_TOOL_CALLS]
            if isinstance(k, str)
            and isinstance(v, int)
            and not isinstance(v, bool)
            and kept.get(k, 0) < v <= MAX_CUT_FROM
        }
    return out


def sample_record(
    index: int, answer: Answer, litellm_version: str | None, api_base: str | None = None
) -> dict[str, Any]:
    """One recorded sample: every shape of the answer (text, refusal, tool calls, why it ended),
    each bounded and masked (``api_base``: the run's, whose path may hold a token), and how it was
    obtained."""
    cut: dict[str, int] = {}
    rec: dict[str, Any] = {
        "index": index,
        "text": _bounded(answer.text, "text", cut, api_base=api_base),
        "finish_reason": None
        if answer.finish_reason is None
        else _bounded(answer.finish_reason, "finish_reason", cut, MAX_NAME_CHARS, api_base),
        "usage": dict(answer.usage),
        "latency_s": answer.latency_s,
        "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "litellm_version": litellm_version,
    }
    if answer.response_model:
        rec["response_model"] = _bounded(str(answer.response_model), "response_model", cut, MAX_NAME_CHARS, api_base)
    if answer.cost_usd is not None:
        rec["cost_usd"] = answer.cost_usd
    # the shapes below are written only when present: a plain text answer's record is as it was
    if answer.refusal:
        rec["refusal"] = _bounded(answer.refusal, "refusal", cut, api_base=api_base)
    if answer.tool_calls:
        rec["tool_calls"] = [
            {
                "name": _bounded(name, f"tool_calls[{i}].name", cut, api_base=api_base),
                "arguments": _bounded(args, f"tool_calls[{i}].arguments", cut, api_base=api_base),
            }
            for i, (name, args) in enumerate(answer.tool_calls[:MAX_TOOL_CALLS])
        ]
        if len(answer.tool_calls) > MAX_TOOL_CALLS:
            cut["tool_calls"] = len(answer.tool_calls)
    if cut:
        rec["cut_from"] = cut
    return rec


def _over_limit(rec: Recording, max_tokens: int) -> str | None:
    """Why a recording made without a token limit does not fit under ``max_tokens``, or ``None``."""
    for pos, sample in enumerate(rec.samples):
        index = sample.get("index", pos)
        used = (sample.get("usage") or {}).get("completion_tokens") if isinstance(sample.get("usage"), dict) else None
        if sample.get("finish_reason") == "length":
            return f"it was recorded without a token limit and sample #{index} was cut at the provider's own (finish_reason=length)"
        if isinstance(used, int) and used > max_tokens:
            return (
                f"it was recorded without a token limit and sample #{index} used {used} tokens, "
                f"over this run's max_tokens {max_tokens} (--max-tokens)"
            )
    return None


def _not_a_folder(path: Path) -> str:
    """Why a recording under ``path``'s folder cannot be had: something other than a folder stands
    where that model's recordings go (a file, a link to one)."""
    return (
        f"{path.parent} is not a folder: a file stands where the recordings of a model go; "
        "move or delete it, then run again"
    )


class FixtureStore:
    """Recorded answers under one folder."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._swept: set[str] = set()

    def path(self, model: str, case_id: str, lang: str = DEFAULT_LANG, settings: str | None = None) -> Path:
        """The recording's file; with ``settings`` (a :attr:`Recording.settings_key`), the one kept
        beside it for answers asked with other settings."""
        suffix = "" if lang == DEFAULT_LANG else f".{lang}"
        beside = "" if settings is None else f"@{settings}"
        return self.root / model_slug(model) / f"{case_id}{suffix}{beside}.json"

    def read(self, model: str, case: Case, lang: str = DEFAULT_LANG, settings: str | None = None) -> Recording | None:
        """The recording on disk (with ``settings``, the one kept beside it for them), or ``None``
        when there is none.

        Raises
        ------
        FixtureError
            When the file exists but is not a readable recording (named by path).
        """
        return self._load(self.path(model, case.id, lang, settings), (model, case.id, lang))

    def _load(self, path: Path, expect: tuple[str, str, str] | None = None) -> Recording | None:
        """The recording at ``path``; ``None`` if there is no file; ``FixtureError`` if unreadable.

        Only a regular file of at most :data:`MAX_FIXTURE_BYTES` is read (a fixture committed as a
        link to ``/dev/zero`` or a FIFO would otherwise be read without end), and it must say it
        records ``expect`` — the model, case and language its path stands for.
        """
        bad: Exception | None = None
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise FixtureError(f"fixture {path} is not a regular file; delete it or re-record with --record=all")
            if info.st_size > MAX_FIXTURE_BYTES:
                raise FixtureError(
                    f"fixture {path} is {info.st_size:,} bytes, over the {MAX_FIXTURE_BYTES:,} a "
                    "recording may have; delete it or re-record with --record=all"
                )
            with path.open("rb") as fh:
                data = fh.read(MAX_FIXTURE_BYTES + 1)
            raw: str | None = data.decode("utf-8")
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            raise FixtureError(_not_a_folder(path)) from None
        except UnicodeDecodeError as exc:
            raw = None
            bad = exc
        except OSError as exc:
            raise FixtureError(f"fixture {path} could not be read: {exc}") from None
        try:
            if raw is None:
                raise ValueError(f"not UTF-8 text: {bad}")
            rec = _recording_of(json.loads(raw))
            if expect is not None and (rec.model, rec.case_id, rec.lang) != expect:
                raise ValueError(
                    f"it records {rec.model}/{rec.case_id} ({rec.lang}), not "
                    f"{expect[0]}/{expect[1]} ({expect[2]}) as its path says"
                )
            return rec
        except RecursionError:
            raise FixtureError(
                f"fixture {path} is corrupt (nested too deep to read); delete it or re-record with --record=all"
            ) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise FixtureError(f"fixture {path} is corrupt ({exc}); delete it or re-record with --record=all") from None

    @staticmethod
    def stale_reason(
        rec: Recording,
        case: Case,
        lang: str,
        temperature: float | None,
        max_tokens: int | None = None,
        *,
        args: Mapping[str, Any] | None = None,
        litellm_model: str | None = None,
    ) -> str | None:
        """Why ``rec`` does not answer what this run asks, or ``None`` when it does.

        ``args`` are the other arguments this run sends, ``litellm_model`` the model it asks when
        the recording's ``model`` names a configuration (``None``: the name itself).
        """
        if rec.prompt_sha256 != case.prompt_hash(lang):
            return "the prompt changed since it was recorded"
        asked = litellm_model or rec.model
        if rec.asked_model != asked:
            return (
                f"it was recorded from the litellm model {single_line(rec.asked_model, 80)}, and {rec.model} now names "
                f"{single_line(asked, 80)} (--shape-models)"
            )
        if rec.temperature != temperature:

            def said(t: float | None) -> str:
                return "the provider's default temperature" if t is None else f"temperature {t:g}"

            return f"it was recorded at {said(rec.temperature)}, this run asks {said(temperature)}"
        if rec.max_tokens != max_tokens and not ignores_max_tokens(rec.asked_model):
            if rec.max_tokens is None and max_tokens is not None:
                # recorded before a limit was sent: a limit only cuts, so answers that ended on
                # their own within it are what this run would get
                return _over_limit(rec, max_tokens)

            def limit(n: int | None) -> str:
                return "no token limit (the provider's own)" if n is None else f"max_tokens {n}"

            return f"it was recorded with {limit(rec.max_tokens)}, this run asks {limit(max_tokens)} (--max-tokens)"
        sent = dict(args or {})
        if canonical(rec.args) != canonical(sent):
            return (
                f"its model arguments changed: {describe_change(rec.args, sent)} "
                "(--model-arg, or the model's configuration in --shape-models)"
            )
        return None

    @staticmethod
    def same_question(a: Recording, b: Recording) -> bool:
        """Whether ``a`` (on disk) and ``b`` record answers to one question (their samples may be merged)."""
        limits = (
            a.max_tokens == b.max_tokens
            or ignores_max_tokens(a.asked_model)
            or (a.max_tokens is None and b.max_tokens is not None and _over_limit(a, b.max_tokens) is None)
        )
        same_args = a.asked_model == b.asked_model and canonical(a.args) == canonical(b.args)
        return (
            limits
            and same_args
            and (a.prompt_sha256, a.temperature, a.lang) == (b.prompt_sha256, b.temperature, b.lang)
        )

    @contextlib.contextmanager
    def locked(self, model: str) -> Iterator[None]:
        """Exclusive lock over one model's folder (xdist workers and parallel runs)."""
        with self._lock_file(model) as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def claim(self, model: str, case_id: str, lang: str, index: int) -> IO[str] | None:
        """Take the claim on asking sample ``index`` of a case: the open lock file that holds it
        (close it to let go), or ``None`` while another process holds it (never waits).

        Held from before the call until its answer is recorded, so that two runs on one fixtures
        folder (or an xdist worker beside its controller) never pay for the same answer: the one
        that waited reads it from the recording instead. The lock files live in the model's
        ``.asking/`` folder, beside the folder's ``.lock``.
        """
        folder = self.root / model_slug(model) / ".asking"
        folder.mkdir(parents=True, exist_ok=True)
        fh = open(folder / f"{self.path(model, case_id, lang).stem}.{index}.lock", "a+")  # noqa: SIM115 (returned open)
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            return None
        except BaseException:
            fh.close()
            raise
        return fh

    def _lock_file(self, model: str) -> IO[str]:
        """The model folder's ``.lock``, open (made if missing), never through a link: a fixtures
        folder from a checkout could point it anywhere, or hold a folder by that name."""
        folder = self.root / model_slug(model)
        folder.mkdir(parents=True, exist_ok=True)
        lock = folder / ".lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as exc:  # (a link, a folder by that name, no permission): say which file
            raise OSError(exc.errno, f"{exc.strerror}: the folder's lock file {lock} must be a plain file") from exc
        return open(fd, "a+")

    def unwritable(self, model: str) -> str:
        """Why the model's recordings could not be written, or ``""``: proven by opening the
        folder's lock (every recording is written under it) and writing a file there.

        Asked before the first paid call, so that no answer is bought that could not be kept.
        """
        folder = self.root / model_slug(model)
        try:
            with self._lock_file(model):
                pass
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".writable.", suffix=".tmp"):
                pass
        except OSError as exc:
            return (
                f"nothing was asked of {model}: its recordings' folder {folder} cannot be written "
                f"({exc.strerror or exc}); make it writable, or choose another with --fixtures-dir, then run again"
            )
        return ""

    def save(self, rec: Recording, *, keep_other_prompt: bool = False) -> Path | None:
        """Record ``rec``'s samples, keeping every other sample already on disk for the same question.

        The read, merge and write happen under the model's lock, so two runs recording different
        samples of one case at once (``--samples 2`` beside ``--samples 3``) both keep theirs, and
        ``--record=all`` replaces the samples it asked and keeps the rest: samples are only ever
        added or replaced. Answers on disk to the same prompt asked with other settings (temperature,
        token limit, arguments) are kept: ``rec`` then goes beside them, under its
        :attr:`~Recording.settings_key`, merged with what is there. A recording for another prompt
        is replaced whole (the prompt was changed: its answers answer nothing asked now), unless
        ``keep_other_prompt``: then nothing is written and ``None`` returned (``rec`` may answer the
        older prompt: a batch submitted before the change). One that cannot be read is moved aside
        first, never overwritten.
        """
        path = self.path(rec.model, rec.case_id, rec.lang)
        with self.locked(rec.model):
            self._sweep(path.parent)
            on_disk = self._readable(path, rec)
            if keep_other_prompt and on_disk is not None and on_disk.prompt_sha256 != rec.prompt_sha256:
                return None
            if (
                on_disk is not None
                and on_disk.prompt_sha256 == rec.prompt_sha256
                and not self.same_question(on_disk, rec)
            ):
                path = self.path(rec.model, rec.case_id, rec.lang, rec.settings_key)
                on_disk = self._readable(path, rec)
            # the samples ``rec`` brings that the file does not hold: the answers just asked
            fresh = frozenset(s["index"] for s in rec.samples if on_disk is None or on_disk.sample(s["index"]) != s)
            if on_disk is not None and self.same_question(on_disk, rec):
                merged = Recording(**{**rec.__dict__, "samples": list(on_disk.samples)})
                for sample in rec.samples:
                    merged.add(sample)
                rec = merged
            return self.write(rec, path, fresh=fresh)

    def _readable(self, path: Path, rec: Recording) -> Recording | None:
        """The recording at ``path`` (of ``rec``'s model, case and language), or ``None``; a file
        that cannot be read is moved aside (:meth:`quarantine`)."""
        try:
            return self._load(path, (rec.model, rec.case_id, rec.lang))
        except FixtureError:
            self._move_aside(path)
            return None

    def _sweep(self, folder: Path) -> None:
        """Remove the temporary files a killed write left in ``folder`` (``.<case>.json.<random>.tmp``).

        Called under the folder's lock, which every recording write holds: no live writer has a
        temporary file there then, so each one found is a leftover. Once per folder and store.
        """
        if folder.name in self._swept:
            return
        self._swept.add(folder.name)
        for tmp in folder.glob(".*.json.*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()

    def write(self, rec: Recording, path: Path | None = None, *, fresh: frozenset[int] = frozenset()) -> Path:
        """Write ``rec`` atomically (at ``path``, by default its own file): the file is either the
        old one or the complete new one.

        Any text a JSON string can carry is kept: an answer with a lone surrogate (half an emoji,
        legal JSON on the wire) cannot be UTF-8, so such a file is written with ASCII escapes.
        """
        text = _fitted(redact_json(rec.to_json()), fresh)  # (``fresh``: the samples just asked, cut last)
        return write_atomic(path or self.path(rec.model, rec.case_id, rec.lang), text)

    def quarantine(self, model: str, case_id: str, lang: str, settings: str | None = None) -> Path:
        """Move a corrupt file aside (``*.corrupt``) so re-recording never destroys it."""
        return self._move_aside(self.path(model, case_id, lang, settings))

    def _move_aside(self, path: Path) -> Path:
        dest = path.with_name(path.name + f".corrupt-{datetime.now(timezone.utc):%Y%m%dT%H%M%S}")
        try:
            os.replace(path, dest)
        except NotADirectoryError:
            raise FixtureError(_not_a_folder(path)) from None
        except OSError as exc:
            raise FixtureError(
                f"fixture {path} cannot be read nor moved aside ({exc.strerror or exc}); move or delete it"
            ) from None
        return dest
