"""A correct drawing of one family, placed where another family's case asks, fails that case.

For every pair of families (asked, drawn), the drawn family's legitimate catalogue drawing closest
in size to the asked case's ideal is moved onto the asked case twice — its box's center onto the
ideal's, and its first point onto the asked start — and must fail both times: a circle is not an
octagon, a square not a rectangle, nested circles not separate ones.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from shape_asserts.geometry.drawing import Drawing
from tests.catalogue import LEGIT, variants
from tests.sweep import pick, sample

from .verdicts import builtin_cases

#: A sweep over catalogue cases: a fixed sample by default, every case with --full (tests/sweep.py).
pytestmark = pytest.mark.sweep

CASES = builtin_cases()
FAMILIES = sorted({c.family for c in CASES})
#: Cases per asked family (the first ones of each file: the main variant of each family's matrix).
PER_FAMILY = pick(1, 3)
#: The drawn family's cases whose fair drawing may be moved onto the asked case: a fixed sample of
#: each family's, every one with ``--full`` (``tests/sweep.py``).
DRAWN = sample(CASES)


@cache
def _fair_drawings(family: str) -> tuple[np.ndarray, ...]:
    """One legitimate catalogue drawing of every case of ``family``."""
    out = []
    for case in DRAWN:
        if case.family == family:
            fair = next(v for v in variants(case) if v.kind == LEGIT)
            out.append(np.array(fair.points, dtype=float))
    return tuple(out)


def _box(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return (lo + hi) / 2.0, hi - lo


def _placements(drawn: np.ndarray, case) -> list[tuple[str, np.ndarray]]:
    ideal = np.asarray(case.ideal(), dtype=float)
    (center, _), (c0, _) = _box(ideal), _box(drawn)
    out = [("box center", drawn + np.round(center - c0))]
    start = case.params.get("start")
    if isinstance(start, (tuple, list)) and len(start) == 2:
        out.append(("first point on the start", drawn + (np.asarray(start, float) - drawn[0])))
    return out


@pytest.mark.parametrize("asked", FAMILIES)
def test_a_correct_drawing_of_another_family_fails_the_case(asked):
    cases = [c for c in CASES if c.family == asked][:PER_FAMILY]
    passed = []
    for case in cases:
        size = _box(np.asarray(case.ideal(), dtype=float))[1]
        for drawn_family in FAMILIES:
            if drawn_family == asked:
                continue
            # the other family's fair drawing nearest in size: the hardest one to tell apart
            drawn = min(_fair_drawings(drawn_family), key=lambda p: float(np.abs(_box(p)[1] - size).sum()))
            for how, moved in _placements(drawn, case):
                result = case.score(Drawing.from_points(moved, grid_size=case.grid_size))
                if result.passed:
                    passed.append(f"{case.id}: a fair {drawn_family} drawing ({how}) passes")
    assert not passed, "\n".join(passed)
