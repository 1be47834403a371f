"""``bench/score_fingerprint.py --rtol``: floats may move by the tolerance, nothing else may."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any


def _line(score: str = "96.27", passed: bool = True, value: str = "0.125", indices: list[int] | None = None) -> str:
    record: dict[str, Any] = {
        "case": "c",
        "score": score,
        "passed": passed,
        "checks": [["radius", passed, value, 2.0, "detail", indices or [3], "0.5"]],
        "metrics": {"n_points": 100},
    }
    return json.dumps(record)


def test_bit_for_bit_by_default(score_fingerprint: ModuleType) -> None:
    assert score_fingerprint.same(_line(), _line(), 0.0)
    assert not score_fingerprint.same(_line(), _line(score="96.27000000000001"), 0.0)


def test_floats_within_the_tolerance_agree(score_fingerprint: ModuleType) -> None:
    assert score_fingerprint.same(_line(), _line(score="96.27000000000001"), 1e-9)
    assert score_fingerprint.same(_line(value="0.125"), _line(value="0.1250000000001"), 1e-9)  # absolute below 1


def test_floats_beyond_it_differ(score_fingerprint: ModuleType) -> None:
    assert not score_fingerprint.same(_line(), _line(score="96.2701"), 1e-9)
    assert not score_fingerprint.same(_line(value="0.125"), _line(value="0.12501"), 1e-9)


def test_verdicts_and_indices_must_match_exactly(score_fingerprint: ModuleType) -> None:
    assert not score_fingerprint.same(_line(), _line(passed=False), 1e-9)
    assert not score_fingerprint.same(_line(), _line(indices=[4]), 1e-9)
    assert not score_fingerprint.same(_line(), _line(value="radius"), 1e-9)
