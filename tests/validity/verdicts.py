"""The catalogue of independent drawings scored against their cases: what the validity tests share."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from shape_asserts.cases import Case, load_cases
from shape_asserts.geometry.drawing import parse_drawing
from shape_asserts.geometry.score import ShapeScore
from tests.catalogue import IMPOSTOR, LEGIT, Variant, answer_text, variants

from .overlap import overlap_reason


@dataclass(frozen=True)
class Verdict:
    """One catalogue drawing scored against the case it was drawn for."""

    case: Case
    variant: Variant
    result: ShapeScore

    @property
    def overlap(self) -> str | None:
        """Why this impostor may pass (``tests/validity/overlap.py``), or None."""
        v = self.variant
        return overlap_reason(self.case.family, v.cls, v.note) if v.kind == IMPOSTOR else None

    @property
    def wrong(self) -> bool:
        """A legitimate drawing that fails, or an impostor that passes though the grid can tell it."""
        if self.variant.kind == LEGIT:
            return not self.result.passed
        return self.result.passed and self.overlap is None

    def describe(self) -> str:
        v = self.variant
        if v.kind == LEGIT:
            why = "; ".join(c.describe() for c in self.result.failed)
            return f"{self.case.id}: legitimate {v.name} ({v.note}) FAILS: {why}"
        return f"{self.case.id}: impostor {v.name} [{v.cls}] ({v.note}) PASSES every check"


@lru_cache(maxsize=1)
def builtin_cases() -> tuple[Case, ...]:
    return tuple(load_cases())


def verdicts(case: Case) -> list[Verdict]:
    """Every catalogue drawing of ``case`` with its verdict."""
    return [Verdict(case, v, case.score(parse_drawing(answer_text(v, case.grid_size)))) for v in variants(case)]


__all__ = ["IMPOSTOR", "LEGIT", "Verdict", "builtin_cases", "verdicts"]
