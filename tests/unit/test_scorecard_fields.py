"""``Scorecard.add`` and ``Scorecard.result`` write their dataclasses' fields directly: the same
objects as the dataclasses' own ``__init__`` (and ``__post_init__``) make, non-finite numbers included."""

from __future__ import annotations

import math

from shape_asserts.geometry.score import Check, ShapeScore
from shape_asserts.geometry.scorecard import Scorecard


def test_checks_and_result_as_their_init_makes_them() -> None:
    for bad in (None, math.nan, math.inf):
        card = Scorecard()
        got = card.add("a", True, 1.5, "≥ 1", "unused", (3, 1), note="")
        assert got == Check("a", True, 1.5, "≥ 1", "", (3, 1), None)
        card.add("b", False, 0.5, "≥ 1", "too small", margin=-0.5)
        card.add("c", True, 2.0, "≤ 3", note="about x")
        card.metrics.update(x=1.0, n=3, word="cw")
        if bad is not None:
            card.metrics["y"] = bad
            card.add("d", True, bad, "≤ 1")
        card.marks["gaps"] = (2,)
        want = ShapeScore(
            family="f", score=99.5, metrics=dict(card.metrics), checks=tuple(card.checks), marks=dict(card.marks)
        )
        result = card.result("f", 99.5)
        assert result == want
        assert repr(result) == repr(want)
        assert list(vars(result)) == ["family", "score", "metrics", "checks", "marks"]
