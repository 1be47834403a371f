"""Verdict: a case's answer texts → parsed, scored samples → pass/fail with a readable reason.

A case passes when at least ``min_pass_rate`` of its samples pass every check. An answer that is
not a drawing (format error) is a failed sample with score 0 — the model failed to draw, which is
a test *failure*, unlike a provider outage (an error, raised before this module is reached).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.cases import Case
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.results.assertions import failure_message
from shape_asserts.results.diagnosis import read_answer
from shape_asserts.text import single_line

__all__ = ["SampleResult", "CaseResult", "judge", "share", "meets", "MAX_PICTURES", "MAX_LINE_REASON"]

#: Failing samples drawn in one failure message (the rest are listed by number).
MAX_PICTURES = 3
#: Fewer points than this cannot draw any shape: a failure message says so before the checks.
MIN_POINTS = 3
#: Characters of a non-drawing answer quoted in a failure message.
MAX_QUOTE = 300
#: Characters of why a sample is not a drawing, in a one-line failure (it may quote the model).
MAX_LINE_REASON = 120
#: Failing samples named in a one-line failure (the rest are counted).
MAX_LINE_SAMPLES = 3


def share(passed: Sequence[bool]) -> float:
    """The share of samples that passed (0 for none)."""
    return sum(bool(p) for p in passed) / len(passed) if passed else 0.0


def meets(pass_rate: float, min_pass_rate: float) -> bool:
    """Whether ``pass_rate`` satisfies the required rate, as the user wrote it."""
    # half a unit of the 4th decimal: 2/3 must satisfy a user's "0.66" and "0.6667" alike
    return pass_rate + 5e-5 >= min_pass_rate


@dataclass(frozen=True)
class SampleResult:
    """One answer to a case, parsed and scored (or the reason it could not be)."""

    index: int
    text: str
    drawing: Drawing | None
    score: ShapeScore | None
    format_error: str | None = None
    #: Where broken JSON broke (the text and a caret under it), for the failure message.
    excerpt: str = ""
    #: The answer's full length, when ``text`` is not all of it (cut when recorded).
    answer_length: int | None = None

    @property
    def passed(self) -> bool:
        return self.score is not None and self.score.passed

    @property
    def value(self) -> float:
        return float(self.score.score) if self.score is not None else 0.0

    def summary(self) -> dict[str, Any]:
        if self.score is None:
            return {"format_error": self.format_error, "passed": False, "score": 0.0}
        return self.score.summary()


@dataclass(frozen=True)
class CaseResult:
    """All samples of one model × case and the case's verdict."""

    case: Case
    model: str
    samples: tuple[SampleResult, ...]
    min_pass_rate: float = 1.0

    @property
    def pass_rate(self) -> float:
        return share([s.passed for s in self.samples])

    @property
    def passed(self) -> bool:
        return bool(self.samples) and meets(self.pass_rate, self.min_pass_rate)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(s.value for s in self.samples) if self.samples else 0.0

    def summary(self) -> dict[str, Any]:
        """What snapshots pin: rounded metrics and pass/fail per check, per sample."""
        return {
            "case": self.case.id,
            "family": self.case.family,
            "passed": self.passed,
            "pass_rate": round(self.pass_rate, 4),
            "samples": [s.summary() for s in self.samples],
        }

    def failure_line(self) -> str:
        """Why the case failed, in one line: model, case, score and the failed checks' names.

        What a run of many models prints per failing case; :meth:`failure_message` adds the
        drawings. A reason quoting the model (a refusal, the parser's excerpt) is made printable
        and cut at :data:`MAX_LINE_REASON` characters.
        """
        failing = [s for s in self.samples if not s.passed]
        head = f"{self.model} · {self.case.id}: score {self.mean_score:.2f}"
        if len(self.samples) > 1:
            head += (
                f", {len(failing)} of {len(self.samples)} samples failed "
                f"(pass rate {self.pass_rate:.2f} < required {self.min_pass_rate:.2f})"
            )
        parts = [_sample_words(s, numbered=len(self.samples) > 1) for s in failing[:MAX_LINE_SAMPLES]]
        if len(failing) > MAX_LINE_SAMPLES:
            parts.append(f"+{len(failing) - MAX_LINE_SAMPLES} more")
        return f"{head}; {'; '.join(parts)}" if parts else head

    def failure_message(self) -> str:
        """Why the case failed, with the failing samples' drawings as ASCII art."""
        failing = [s for s in self.samples if not s.passed]
        head = (
            f"{self.model} · {self.case.id}: {len(failing)} of {len(self.samples)} sample(s) failed "
            f"(pass rate {self.pass_rate:.2f} < required {self.min_pass_rate:.2f})"
        )
        parts = [head]
        try:
            ideal = self.case.ideal()
        except Exception:
            ideal = None
        for s in failing[:MAX_PICTURES]:
            parts.append("")
            if s.score is None or s.drawing is None:
                quote = s.text[:MAX_QUOTE] + ("…" if len(s.text) > MAX_QUOTE else "")
                parts.append(f"sample #{s.index}: not a drawing — {s.format_error}")
                parts.extend("    " + line for line in s.excerpt.splitlines())
                parts.append("answer began: " + repr(quote))
                continue
            grid = self.case.grid_size
            n = len(s.drawing)
            # too few points to draw any shape is the cause the failed checks follow from: said first
            few = f", only {n} point{'s' if n != 1 else ''}" if n < MIN_POINTS else ""
            parts.append(
                failure_message(
                    s.score, s.drawing.points, grid, ideal=ideal, title=f"sample #{s.index} ({self.case.family}{few})"
                )
            )
        if len(failing) > MAX_PICTURES:
            rest = ", ".join(f"#{s.index}" for s in failing[MAX_PICTURES:])
            parts.append(f"\n(also failed: samples {rest})")
        return "\n".join(parts)


def _sample_words(sample: SampleResult, *, numbered: bool) -> str:
    """One failing sample in a few words: its failed checks' names, or why it is not a drawing."""
    label = f"#{sample.index} " if numbered else ""
    if sample.score is None:
        return f"{label}not a drawing: {single_line(sample.format_error, MAX_LINE_REASON)}"
    names = ", ".join(c.name for c in sample.score.failed)
    score = f"{sample.value:.2f} " if numbered else ""
    return f"{label}{score}failed: {names}"


def judge(case: Case, model: str, texts: Sequence[str | RecordedAnswer], min_pass_rate: float = 1.0) -> CaseResult:
    """Parse and score every answer of a case (texts, or recorded answers with their facts: see
    :mod:`shape_asserts.results.diagnosis`); never raises for a bad answer."""
    if not 0.0 <= min_pass_rate <= 1.0 or math.isnan(min_pass_rate):
        raise ValueError(f"min_pass_rate must be in [0, 1], got {min_pass_rate}")
    results = []
    for i, answer in enumerate(texts):
        got = read_answer(answer)
        length = got.length if got.length != len(got.text) else None
        if got.drawing is None:
            results.append(
                SampleResult(
                    index=i,
                    text=got.text,
                    drawing=None,
                    score=None,
                    format_error=got.error,
                    excerpt=got.excerpt,
                    answer_length=length,
                )
            )
            continue
        results.append(
            SampleResult(
                index=i, text=got.text, drawing=got.drawing, score=case.score(got.drawing), answer_length=length
            )
        )
    return CaseResult(case=case, model=model, samples=tuple(results), min_pass_rate=min_pass_rate)
