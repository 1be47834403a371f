"""The results file: one JSON line per model × case × sample, written as the results come.

``--shape-results FILE`` keeps it; without the option a run writes the same lines to a file of its
own, and reads them back at the end: the summary, the leaderboard, the gate and the job summary
are made from these lines (:func:`shape_asserts.results.merge.read_results`), as
``shape-asserts leaderboard FILE...`` makes them, so a run holds one small record per test in
memory rather than every answer and drawing.

A line (``"format": "shape-asserts.results"``, ``"version"``: :data:`VERSION`) holds the model's
configuration, the case and its parameters, the sample's score, checks and verdict, the answer's
SHA-256 and length, tokens and cost; the case's outcome is repeated on each of its lines. A case
that was never judged (an error, a skip) has one line with ``"sample": null``. The lines of one
test are written together and numbered (``"record"``): a test run again (``--reruns``) writes new
lines with a higher number, and the reader keeps the last. docs/results.md documents every field.

The file is written atomically: lines go to a temporary file beside it, renamed over ``FILE``
only when the run ends; a run that is interrupted leaves ``FILE.partial`` (complete lines only),
and one that is killed leaves no ``FILE`` at all.

>>> rec = CaseRecord.from_scores("m", "c1", "circle", (90.0, 70.0), (True, False))
>>> lines = record_lines(rec, config={"name": "m"}, number=0)
>>> [(line["sample"], line["score"], line["passed"]) for line in lines]
[(0, 90.0, True), (1, 70.0, False)]
>>> back = record_from_lines(lines)
>>> (back.score, back.pass_rate, back.outcome) == (rec.score, rec.pass_rate, rec.outcome)
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import statistics
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from shape_asserts.asking.failure import redact_json
from shape_asserts.fileio import not_a_file, replace_file
from shape_asserts.results.record import OUTCOMES, CaseRecord, CheckRecord, SampleRecord, plain
from shape_asserts.results.verdict import meets, share

if TYPE_CHECKING:
    from shape_asserts.cases import Case

__all__ = [
    "FORMAT",
    "MAX_LINE",
    "VERSION",
    "ResultsWriter",
    "case_fields",
    "config_key",
    "holds_results",
    "problem",
    "record_from_lines",
    "record_lines",
    "unwritable",
]

#: What a line says it is (a line of any other file is refused by this name).
FORMAT = "shape-asserts.results"
#: Version of the line's layout; a reader takes only lines of its own version.
VERSION = 1
#: Most bytes of one line a reader takes (a line is a few KB; a longer one is no result of ours).
MAX_LINE = 1_000_000
#: The fields every line has, with their JSON types (checked when read back).
REQUIRED: Mapping[str, tuple[type, ...]] = {
    "format": (str,),
    "version": (int,),
    "record": (int,),
    "model": (str,),
    "config": (dict,),
    "case": (str,),
    "family": (str,),
    "outcome": (str,),
}


def config_key(config: Mapping[str, Any]) -> str:
    """A model configuration as one canonical text: equal configurations, equal keys."""
    return json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def case_fields(case: Case, lang: str) -> dict[str, Any]:
    """What a line says of the case beyond the record: its parameters and its definition's digest.

    The digest covers the family, the parameters, the threshold overrides and the prompt's
    SHA-256 in ``lang``: two files that name one case id but asked or judged it differently do
    not merge (:mod:`shape_asserts.results.merge`).
    """
    params = plain(dict(case.params))
    thresholds = plain(dict(case.thresholds))
    try:
        prompt = case.prompt_hash(lang)
    except Exception:  # a case without a prompt in this language: its definition still has a digest
        prompt = ""
    definition = {"family": case.family, "params": params, "thresholds": thresholds, "prompt_sha256": prompt}
    digest = hashlib.sha256(config_key(definition).encode()).hexdigest()
    return {"params": params, "thresholds": thresholds, "case_sha256": digest}


def record_lines(
    record: CaseRecord,
    *,
    config: Mapping[str, Any],
    number: int,
    case: Mapping[str, Any] | None = None,
    case_order: int | None = None,
    model_order: int | None = None,
) -> list[dict[str, Any]]:
    """The lines of one test's record: one per sample, or one (``"sample": null``) when not judged.

    ``config`` is the model's configuration (``name``, ``temperature``, ``max_tokens``, ``lang``,
    ``args``: what the run knows), ``number`` the test's number in the file, ``case`` the case's
    :func:`case_fields`, ``case_order`` and ``model_order`` the case's and the model's place in
    the run (a leaderboard read back takes the cases in the run's order: its intervals are the
    run's).
    """
    head: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "record": number,
        "model": record.model,
        "config": dict(config),
        "model_order": model_order,
        "case": record.case,
        "case_order": case_order,
        "family": record.family,
        "group": record.group,
        "variant": record.variant,
        "start_angle": record.start_angle,
        "direction": record.direction,
        "tags": list(record.tags),
        "grid_size": record.grid_size,
        **dict(case or {}),
        "outcome": record.outcome,
        "reason": record.reason,
        "min_pass_rate": record.min_pass_rate,
        "case_score": record.score,
        "case_pass_rate": record.pass_rate,
        "samples": len(record.samples),
    }
    if not record.samples:
        return [{**head, "sample": None}]
    return [{**head, **_sample_fields(s)} for s in record.samples]


def _sample_fields(s: SampleRecord) -> dict[str, Any]:
    return {
        "sample": s.index,
        "score": s.score,
        "passed": s.passed,
        "drawing": s.format_error is None,
        "format_error": s.format_error,
        "checks": [
            {"name": c.name, "passed": c.passed, "value": c.value, "limit": c.limit, "margin": c.margin}
            for c in s.checks
        ],
        "n_points": s.n_points,
        "answer_sha256": s.answer_sha256,
        "answer_length": s.answer_length,
        "tokens": dict(s.tokens),
        "cost_usd": s.cost_usd,
    }


def problem(line: Any) -> str | None:
    """What makes a parsed line no result line of this version, or ``None`` when it is one."""
    if not isinstance(line, dict):
        return f"not a JSON object but {type(line).__name__}"
    if line.get("format") != FORMAT:
        return f"not a shape-asserts results line (its 'format' is {str(line.get('format'))[:60]!r})"
    version = line.get("version")
    if type(version) is not int:  # "1", 1.0 or true is no version number, whatever it equals
        return f"'version' must be a whole number (this shape-asserts reads version {VERSION}), got {json.dumps(version)[:20]}"
    if version != VERSION:
        return f"results version {version}, this shape-asserts reads version {VERSION}"
    for name, types in REQUIRED.items():
        value = line.get(name)
        if not isinstance(value, types) or isinstance(value, bool):
            kind = {"int": "whole number", "str": "string", "float": "number"}.get(types[0].__name__, types[0].__name__)
            return f"'{name}' is missing or not a {kind}"
    if line["outcome"] not in OUTCOMES:
        return f"'outcome' must be one of {', '.join(OUTCOMES)}"
    # read as a list of strings by record_from_lines: a number or true there ended the merge of
    # every file in a TypeError (red team rt44 F5)
    tags = line.get("tags")
    if tags is not None and (not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)):
        return "'tags' must be a list of strings or null"
    sample = line.get("sample")
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
            return "'sample' must be a whole number ≥ 0 or null"
        score = line.get("score")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 100:
            return "'score' must be a number from 0 to 100"
        if not isinstance(line.get("passed"), bool):
            return "'passed' must be true or false"
    # numbers the leaderboard adds up, averages or turns into whole numbers: NaN, infinity or 1e308
    # there ended the command in a traceback, or ranked a model first with "inf"
    for name, low, high in _BOUNDED:
        value = line.get(name)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high
        ):
            return f"'{name}' must be a number from {low:g} to {high:g} or null"
    return None


#: Optional numbers of a line, and the range each must lie in (NaN lies in none).
_BOUNDED = (
    ("min_pass_rate", 0.0, 1.0),
    ("n_points", 0, 1e12),
    ("answer_length", 0, 1e12),
    ("grid_size", 1, 1e6),
    ("cost_usd", 0.0, 1e9),
    ("start_angle", -360.0, 720.0),
    ("case_order", 0, 1e12),
    ("model_order", 0, 1e12),
)


def _number(value: Any, default: float | None = None) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return default


def record_from_lines(lines: Sequence[Mapping[str, Any]], outcome: str | None = None) -> CaseRecord:
    """One test's record from its lines (checked with :func:`problem`), without answers or points.

    ``outcome`` overrides the lines' own (a record merged from several files is judged again
    from its samples); by default the first line's outcome and reason are kept.
    """
    first = lines[0]
    samples = tuple(
        sorted(
            (
                SampleRecord(
                    index=int(line["sample"]),
                    score=float(line["score"]),
                    passed=bool(line["passed"]),
                    format_error=None if line.get("drawing", True) else str(line.get("format_error") or ""),
                    checks=tuple(_check(c) for c in line.get("checks") or () if isinstance(c, dict)),
                    n_points=int(_number(line.get("n_points"), 0) or 0),
                    answer_length=int(_number(line.get("answer_length"), 0) or 0),
                    answer_sha256=str(line.get("answer_sha256") or ""),
                    cost_usd=_number(line.get("cost_usd")),
                )
                for line in lines
                if line.get("sample") is not None
            ),
            key=lambda s: s.index,
        )
    )
    min_rate = _number(first.get("min_pass_rate"), 1.0)
    assert min_rate is not None
    judged = bool(samples)
    rate = share([s.passed for s in samples]) if judged else None
    angle = _number(first.get("start_angle"))
    return CaseRecord(
        model=str(first["model"]),
        case=str(first["case"]),
        family=str(first["family"]),
        group=str(first.get("group") or first["family"]),
        variant=str(first.get("variant") or ""),
        start_angle=angle,
        direction=str(first.get("direction") or ""),
        tags=tuple(first.get("tags") or ()),
        grid_size=int(_number(first.get("grid_size"), 50) or 50),
        outcome=outcome or str(first["outcome"]),
        reason=str(first.get("reason") or "") if outcome is None else "",
        min_pass_rate=min_rate,
        checks_passed=meets(rate, min_rate) if rate is not None else None,
        score=round(statistics.fmean(s.score for s in samples), 2) if judged else None,
        pass_rate=round(rate, 4) if rate is not None else None,
        drawn=sum(1 for s in samples if s.format_error is None),
        samples=samples,
    )


def _check(c: Mapping[str, Any]) -> CheckRecord:
    return CheckRecord(
        name=str(c.get("name", "")),
        passed=bool(c.get("passed")),
        value=c.get("value"),
        limit=str(c.get("limit", "")),
        margin=_number(c.get("margin")),
    )


def holds_results(path: str | os.PathLike[str]) -> bool:
    """Whether the regular file at ``path`` starts with a results line (its ``format`` is
    :data:`FORMAT`): what a page written there would destroy. Only its first line is read."""
    try:
        if not Path(path).is_file():
            return False
        with open(path, "rb") as fh:
            first = json.loads(fh.readline(MAX_LINE))
    except (OSError, ValueError):  # unreadable, not UTF-8 or not JSON: no results file of ours
        return False
    return isinstance(first, dict) and first.get("format") == FORMAT


def unwritable(path: Path) -> str | None:
    """Why a results file could not be written at ``path`` (a run checks before its first test), or ``None``."""
    why = not_a_file(path)
    if why:
        return why
    if path.is_dir():  # a symlink to a folder
        return "it is a folder"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"its folder cannot be made ({exc.strerror or exc})"
    try:  # a file made there, as the writer makes its own (os.access passes root in /proc)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".check", dir=path.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        return f"its folder {path.parent} is not writable ({exc.strerror or exc})"
    return None


class ResultsWriter:
    """Appends each test's lines to a temporary file; at the end, renames it to its final path.

    One writer per run, in the one process that sees every report (an xdist controller). Lines
    are flushed as they are written, so the memory a run holds does not grow with its results;
    :meth:`finish` makes the file whole (``path``) or, for an interrupted run, ``path.partial``.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".writing", dir=path.parent)
        self.tmp = Path(tmp)
        # half an emoji (a lone surrogate) in a model's text cannot be UTF-8: written as its JSON
        # escape (\ud83d, inside a JSON string), it reads back as it was instead of ending the run
        self._fh: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace")
        self.records = 0

    def write(self, lines: Sequence[Mapping[str, Any]]) -> None:
        """Write one test's lines (each a JSON object on a line of its own), redacted as a recording
        is: a password in a provider argument's URL, a secret's value in a case's parameters."""
        assert self._fh is not None, "the results file is finished"
        text = "".join(
            json.dumps(redact_json(line), ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
            for line in lines
        )
        self._fh.write(text)
        self._fh.flush()
        self.records += 1

    def finish(self, complete: bool = True, mode: int = 0o644) -> Path:
        """Close and move the lines to ``path`` (``path.partial`` when not ``complete``); the path."""
        target = self.path if complete else self.path.with_name(self.path.name + ".partial")
        if self._fh is None:
            return target
        fh, self._fh = self._fh, None
        try:
            os.fsync(fh.fileno())
            fh.close()
            os.chmod(self.tmp, mode)  # a results file is meant to travel
            replace_file(self.tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                fh.close()
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            raise
        return target

    def discard(self) -> None:
        """Close and remove the lines (a run whose results file is its own, not the user's)."""
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.close()
            self._fh = None
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)
