"""The result record: what one model × case test found, typed, frozen and serialisable.

A test judges its answers (:mod:`shape_asserts.results.verdict`); the plugin's report hook turns
that verdict, with the test's final outcome, into one :class:`CaseRecord` and attaches it to the
test report as a single user property, :data:`PROPERTY`, whose value is the record as JSON text.
That one string crosses from xdist workers to the controller, lands verbatim in JUnit XML, and is
read back with :meth:`CaseRecord.from_properties` or :meth:`CaseRecord.from_json`. A test that
errors or is skipped before it could judge gets a record too, without samples and with the
one-line reason.

Everything a consumer shows is in the record, bounded: the first :data:`MAX_ANSWER` characters of
each answer (and its full length), at most :data:`MAX_POINTS` points of each drawing,
metrics, and every check with its value, limit, margin and one-line description. The run writes
each record as it comes (the results file, :mod:`shape_asserts.results.results_file`, and for the
report the whole record, :mod:`shape_asserts.results.spool`) and holds none in memory meanwhile.

>>> rec = CaseRecord.from_scores("m", "c1", "circle", (90.0, 70.0), (True, False))
>>> (rec.outcome, rec.score, rec.pass_rate)
('failed', 80.0, 0.5)
>>> CaseRecord.from_properties([rec.as_property()]) == rec
True
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from shape_asserts.asking.failure import redact
from shape_asserts.results.jsonable import Jsonable as _Json
from shape_asserts.results.thin import thin
from shape_asserts.results.verdict import meets, share
from shape_asserts.text import printable

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.score import Check
    from shape_asserts.results.verdict import CaseResult, SampleResult

__all__ = [
    "MAX_ANSWER",
    "MAX_POINTS",
    "MAX_REASON",
    "OUTCOMES",
    "PROPERTY",
    "SCHEMA",
    "CaseRecord",
    "CheckRecord",
    "SampleRecord",
    "one_line",
    "plain",
    "report_reason",
]

#: The user property (and JUnit XML property) holding a test's record as JSON text.
PROPERTY = "shape_result"
#: How a model × case test can end.
OUTCOMES = ("passed", "failed", "error", "skipped")
#: Version of the record's JSON layout.
SCHEMA = 1
#: Characters of each answer kept (the report shows them, and says how much was cut; the whole
#: answer is in its recording).
MAX_ANSWER = 4_000
#: Points of a drawing kept: more are thinned to this many, evenly spaced along the path
#: (:func:`shape_asserts.results.thin.thin`), with gaps and breaks marked where they fall, and
#: ``n_points`` counts them all. A record travels to the xdist controller, into JUnit XML, the
#: results spool and the report: twenty models answering 5,000 points a case once made a 260 MB
#: JUnit XML and a 580 MB report.
MAX_POINTS = 1_000
#: Characters of an error, skip or failure reason kept (its first line is what matters).
MAX_REASON = 500
#: Characters of a format error kept.
MAX_FORMAT_ERROR = 2_000
#: Entries of a list-valued metric kept (the report shows the first eight).
MAX_LIST = 32
#: The marks a report draws (point indices): steps over a cell, and breaks between strokes.
DRAWN_MARKS = ("gaps", "breaks")


def plain(value: Any) -> Any:
    """``value`` in JSON's own types: numbers finite (others as text), sequences as bounded tuples.

    >>> plain((1.5, float("inf"), True, "x"))
    (1.5, 'inf', True, 'x')
    """
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        value = value.tolist()
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value[:MAX_LIST])
    return str(value)


def _finite(value: Any) -> float | None:
    v = plain(value)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _tokens(usage: Any) -> dict[str, int]:
    """A reply's token counts, whole numbers only."""
    if not isinstance(usage, Mapping):
        return {}
    return {str(k): int(v) for k, v in usage.items() if isinstance(v, int) and not isinstance(v, bool)}


def _coordinate(v: float) -> int | float:
    return int(v) if v.is_integer() else v


def _kept_drawing(
    pts: np.ndarray, drawn_marks: Mapping[str, Any]
) -> tuple[tuple[tuple[float, float], ...] | None, dict[str, tuple[int, ...]]]:
    """The points a record keeps of a drawing (at most :data:`MAX_POINTS`, evenly spaced along
    its path) and its gaps and breaks as steps of what is kept; ``(None, {})`` when a coordinate
    is not finite."""
    if not bool(np.isfinite(pts).all()):
        return None, {}
    marks = {k: tuple(int(i) for i in drawn_marks.get(k, ())) for k in DRAWN_MARKS}
    if len(pts) <= MAX_POINTS:
        return _points(pts), marks
    kept = thin(pts, MAX_POINTS, gaps=marks["gaps"], breaks=marks["breaks"])
    return _points(kept.points), {"gaps": tuple(kept.gap_steps), "breaks": tuple(kept.breaks)}


def _points(pts: np.ndarray) -> tuple[tuple[float, float], ...]:
    """A drawing's finite points as the record keeps them: whole numbers as ints."""
    if len(pts) and float(np.abs(pts).max()) < 2**53 and bool((np.floor(pts) == pts).all()):
        return tuple(map(tuple, pts.astype(np.int64).tolist()))  # a grid drawing: whole cells
    return tuple((_coordinate(float(x)), _coordinate(float(y))) for x, y in pts)


#: Records this process turned into properties lately, by their JSON text: the collector of a run
#: without xdist takes them back as they are instead of parsing the text it was just given. Equal
#: text is an equal record, so a hit is always right; the few kept bound what a worker holds.
_MADE: dict[str, CaseRecord] = {}
_MADE_KEPT = 64


@dataclass(frozen=True)
class CheckRecord(_Json):
    """One check of a sample: what was measured, the limit, how far inside it, and one line."""

    name: str
    passed: bool
    value: Any = None
    limit: str = ""
    detail: str = ""
    margin: float | None = None  # in the check's units, negative outside the limit; None if not numeric
    text: str = ""  # the line a failure message shows

    @classmethod
    def from_check(cls, check: Check) -> CheckRecord:
        return cls(
            name=str(check.name),
            passed=bool(check.passed),
            value=plain(check.value),
            limit=str(check.limit),
            detail=str(check.detail),
            margin=_finite(check.margin),
            text=check.describe(),
        )


@dataclass(frozen=True)
class SampleRecord(_Json):
    """One answer of a case: its score and checks, or why it was not a drawing, and what it said."""

    index: int
    score: float = 0.0
    passed: bool = False
    format_error: str | None = None  # set when the answer was not a drawing
    checks: tuple[CheckRecord, ...] = ()
    metrics: Mapping[str, Any] = field(default_factory=dict)
    answer: str = ""  # the first MAX_ANSWER characters
    answer_length: int = 0  # of the whole answer
    n_points: int = 0
    #: The drawing, thinned to at most MAX_POINTS points (``None`` when not all its coordinates are
    #: finite, as for a non-drawing).
    points: tuple[tuple[float, float], ...] | None = None
    marks: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # DRAWN_MARKS, with the points
    answer_sha256: str = ""  # of the whole answer's UTF-8 text (what a results file says of it)
    tokens: Mapping[str, int] = field(default_factory=dict)  # as the reply counted them, where it did
    cost_usd: float | None = None  # as litellm priced the call, where it could

    _NESTED: ClassVar[Mapping[str, Any]] = {"checks": CheckRecord}

    @property
    def failed(self) -> tuple[CheckRecord, ...]:
        return tuple(c for c in self.checks if not c.passed)

    @classmethod
    def from_sample(cls, sample: SampleResult, answer: Any = None) -> SampleRecord:
        """The record of a judged sample; ``answer`` (a recorded answer) adds its tokens and cost."""
        text = str(sample.text)
        length = len(text) if sample.answer_length is None else int(sample.answer_length)  # before a recorded cut
        common: dict[str, Any] = {
            "index": int(sample.index),
            "answer": text[:MAX_ANSWER],
            "answer_length": length,
            "answer_sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
            "tokens": _tokens(getattr(answer, "usage", None)),
            "cost_usd": _finite(getattr(answer, "cost_usd", None)),
        }
        if sample.score is None or sample.drawing is None:
            return cls(format_error=str(sample.format_error)[:MAX_FORMAT_ERROR], **common)
        sc = sample.score
        pts = sample.drawing.points
        points, marks = _kept_drawing(pts, sc.marks)
        return cls(
            score=float(_finite(sc.score) or 0.0),
            passed=bool(sc.passed),
            checks=tuple(CheckRecord.from_check(c) for c in sc.checks),
            metrics=plain(dict(sc.metrics)),
            n_points=len(pts),
            points=points,
            marks=marks,
            **common,
        )


@dataclass(frozen=True)
class CaseRecord(_Json):
    """One model × case test: the case, how the test ended, and (when judged) every sample.

    ``score`` (the mean sample score, to 2 decimals), ``pass_rate`` (to 4) and ``checks_passed``
    (whether enough samples passed every check) are ``None`` when the case was not judged: it
    errored or was skipped before its answers were scored.
    """

    model: str
    case: str
    family: str
    group: str = ""
    variant: str = ""
    start_angle: float | None = None  # degrees, the start about the center (None: the case has none)
    direction: str = ""  # cw/ccw as the case asks ("" when it names none)
    tags: tuple[str, ...] = ()
    grid_size: int = 50
    outcome: str = "passed"
    reason: str = ""  # why it did not pass: the one-line cause ("" when it passed)
    min_pass_rate: float = 1.0
    checks_passed: bool | None = None
    score: float | None = None
    pass_rate: float | None = None
    drawn: int = 0  # samples that were drawings at all
    samples: tuple[SampleRecord, ...] = ()
    schema: int = SCHEMA

    _NESTED: ClassVar[Mapping[str, Any]] = {"samples": SampleRecord}

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {self.outcome!r}")

    @property
    def judged(self) -> bool:
        """Whether the answers were scored (else the test ended before: see ``reason``)."""
        return self.score is not None

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(s.score for s in self.samples)

    @property
    def sample_passed(self) -> tuple[bool, ...]:
        return tuple(s.passed for s in self.samples)

    def as_property(self) -> tuple[str, str]:
        """The ``(name, JSON text)`` user property carrying this record."""
        text = self.to_json_text(ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        _MADE[text] = self
        while len(_MADE) > _MADE_KEPT:
            del _MADE[next(iter(_MADE))]
        return PROPERTY, text

    @classmethod
    def from_properties(cls, props: Iterable[Any]) -> CaseRecord | None:
        """The record among a test report's user properties (the last one), or ``None``.

        In the process that made it (a run without xdist) the record is the one
        :meth:`as_property` wrote, not parsed again; elsewhere it is read from its JSON text.
        """
        found = [value for name, value in props if name == PROPERTY]
        if not found:
            return None
        made = _MADE.pop(found[-1], None) if isinstance(found[-1], str) else None
        return made if made is not None else cls.from_json(found[-1])

    @classmethod
    def from_result(cls, result: CaseResult, outcome: str, reason: str = "", answers: Sequence[Any] = ()) -> CaseRecord:
        """The record of a judged case, ending with ``outcome``; ``answers`` (the recorded answers
        judged, in sample order) add each sample's tokens and cost."""
        case = result.case
        return cls(
            model=result.model,
            case=case.id,
            family=case.family,
            group=case.group,
            variant=case.variant,
            start_angle=case.start_angle,
            direction=case.direction,
            tags=tuple(case.tags),
            grid_size=case.grid_size,
            outcome=outcome,
            reason=one_line(reason),
            min_pass_rate=float(result.min_pass_rate),
            checks_passed=bool(result.passed),
            score=round(float(result.mean_score), 2),
            pass_rate=round(float(result.pass_rate), 4),
            drawn=sum(1 for s in result.samples if not s.format_error),
            samples=tuple(
                SampleRecord.from_sample(s, answers[i] if i < len(answers) else None)
                for i, s in enumerate(result.samples)
            ),
        )

    @classmethod
    def unjudged(cls, model: str, case: Case, outcome: str, reason: str = "") -> CaseRecord:
        """The record of a case whose answers were never scored (an error, a skip)."""
        return cls(
            model=model,
            case=case.id,
            family=case.family,
            group=case.group,
            variant=case.variant,
            start_angle=case.start_angle,
            direction=case.direction,
            tags=tuple(case.tags),
            grid_size=case.grid_size,
            outcome=outcome,
            reason=one_line(reason),
        )

    @classmethod
    def from_scores(
        cls,
        model: str,
        case: str,
        family: str,
        scores: Iterable[float],
        passed: Iterable[bool],
        *,
        group: str | None = None,
        min_pass_rate: float = 1.0,
    ) -> CaseRecord:
        """A judged record from sample scores and pass/fail alone (for examples and tests)."""
        samples = tuple(
            SampleRecord(index=i, score=float(s), passed=bool(p)) for i, (s, p) in enumerate(zip(scores, passed))
        )
        rate = share([s.passed for s in samples])
        ok = bool(samples) and meets(rate, min_pass_rate)
        return cls(
            model=model,
            case=case,
            family=family,
            group=group or family,
            outcome="passed" if ok else "failed",
            min_pass_rate=min_pass_rate,
            checks_passed=ok,
            score=round(statistics.fmean(s.score for s in samples), 2) if samples else 0.0,
            pass_rate=round(rate, 4),
            drawn=len(samples),
            samples=samples,
        )


# --- reasons ---------------------------------------------------------------------------------------

_XDIST_HEADER = re.compile(r"^\[gw\d+\] \S+ -- Python ")


def one_line(text: str) -> str:
    """The first line of ``text`` that says something, secrets masked, printable and bounded ("" for none).

    Under xdist a report's text starts with the worker's header ("[gw1] linux -- Python 3.11 ..."),
    which says where the test ran, not why it failed: such lines are passed over. Secrets are
    masked (:func:`~shape_asserts.asking.failure.redact`) before the line is cut: the results file
    masks them again as it is written, but a key the cut went through is no longer found whole.
    """
    lines = [printable(line).strip() for line in redact(str(text)).splitlines()]
    lines = [line for line in lines if line and not _XDIST_HEADER.match(line)]
    return lines[0][:MAX_REASON] if lines else ""


def report_reason(report: Any) -> str:
    """The one line that says why a test report did not pass."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, "Skipped: why")
        text = str(longrepr[2])
    else:
        crash = getattr(longrepr, "reprcrash", None)
        text = getattr(crash, "message", None) or getattr(report, "longreprtext", "") or str(longrepr or "")
    return one_line(text) or "no reason given"
