"""Session summary: per model × shape family — cases, passed, mean/worst score and stability.

Stability is the seed post's question: how much does the score move when only the start point and
direction change? Cases that ask the same thing but for those variant parameters share a *group*;
for each group we take the spread (max − min) and the population standard deviation of the case
scores, and report the mean over the family's groups. Lower is steadier. Only answers that are
drawings count: a model whose every answer is prose scores 0 everywhere, which is no steadiness,
so its stability shows "—".

Rows are built from the tests' :class:`~shape_asserts.results.record.CaseRecord` s alone, so the
same table comes from one process, from xdist workers, or from a JUnit XML file read back.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from shape_asserts.geometry.score import fmt_fixed
from shape_asserts.results.record import CaseRecord

__all__ = ["FamilyRow", "summarize", "format_table"]


@dataclass(frozen=True)
class FamilyRow:
    """One line of the summary: a model's cases of one family, counted by outcome, and their scores."""

    model: str
    family: str
    cases: int
    passed: int
    failed: int
    errors: int
    skipped: int
    mean: float | None
    worst: float | None
    spread: float | None
    std: float | None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarize(records: Iterable[CaseRecord]) -> list[FamilyRow]:
    """One row per model × family, in first-seen model order and family name order."""
    by_key: dict[tuple[str, str], list[CaseRecord]] = defaultdict(list)
    model_order: dict[str, int] = {}
    for r in records:
        model_order.setdefault(r.model, len(model_order))
        by_key[(r.model, r.family)].append(r)
    rows = []
    for (model, family), recs in sorted(by_key.items(), key=lambda kv: (model_order[kv[0][0]], kv[0][1])):
        scored = [(r, r.score) for r in recs if r.score is not None and r.outcome in ("passed", "failed")]
        scores = [score for _, score in scored]
        groups: dict[str, list[float]] = defaultdict(list)
        for r, score in scored:
            if r.drawn:  # stability over drawings only: a model that never drew is not "steady"
                groups[r.group].append(score)
        multi = [g for g in groups.values() if len(g) >= 2]
        spread = statistics.fmean(max(g) - min(g) for g in multi) if multi else None
        std = statistics.fmean(statistics.pstdev(g) for g in multi) if multi else None
        rows.append(
            FamilyRow(
                model=model,
                family=family,
                cases=len(recs),
                passed=sum(r.outcome == "passed" for r in recs),
                failed=sum(r.outcome == "failed" for r in recs),
                errors=sum(r.outcome == "error" for r in recs),
                skipped=sum(r.outcome == "skipped" for r in recs),
                mean=statistics.fmean(scores) if scores else None,
                worst=min(scores) if scores else None,
                spread=spread,
                std=std,
            )
        )
    return rows


def _f(v: float | None) -> str:
    return "—" if v is None else fmt_fixed(v)


def format_table(rows: list[FamilyRow]) -> list[str]:
    """Plain-text table lines for the terminal."""
    header = ["model", "family", "cases", "passed", "failed", "errors", "mean", "worst", "spread", "std"]
    body = [
        [
            r.model,
            r.family,
            str(r.cases),
            str(r.passed),
            str(r.failed),
            str(r.errors),
            _f(r.mean),
            _f(r.worst),
            _f(r.spread),
            _f(r.std),
        ]
        for r in rows
    ]
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return [line(header), line(["-" * w for w in widths])] + [line(b) for b in body]
