"""The seed score from a parsed drawing's int points (``seed.int_points_score``) is the PHP loop's
score of the answer, bit for bit; the parser marks only all-int answers, and a drawing whose
``data`` lost the list it read (replaced, grown, cut) reads ``data`` again."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

import shape_asserts.geometry.seed as seed
from shape_asserts.cases import load_cases
from shape_asserts.families.circle import parsed_ints
from shape_asserts.geometry.drawing import Drawing, parse_drawing


def _bits(x: float) -> tuple[float, float]:
    return (x, math.copysign(1, x))


def test_int_points_score_is_the_php_loops(monkeypatch, int_point_sets):
    answers = [{"points": [{"x": int(x), "y": int(y)} for x, y in pts]} for pts in int_point_sets(23, 800)]
    drawings = [parse_drawing(json.dumps(a)) for a in answers]
    assert all(parsed_ints(d) for d in drawings)
    from_points = [seed.int_points_score(d.points) for d in drawings]
    monkeypatch.setattr(seed, "_fast_int_score", lambda entries: None)  # the loop, as in PHP
    loop = [seed.seed_score(a) for a in answers]
    taken = 0
    for d, got, want in zip(drawings, from_points, loop):
        if got is None:  # too large for the small-int path: only beyond 2**24
            assert float(np.abs(d.points).max()) >= 2**24 - 1
            continue
        taken += 1
        assert _bits(got) == _bits(want)
    assert taken > 500


@pytest.mark.parametrize(
    "points, marked",
    [
        ([{"x": 1, "y": 2}] * 6, True),
        ([{"x": 1, "y": 2.0}] * 6, False),  # a float: the seed's other path
        ([{"x": 1.5, "y": 2.5}] * 6, False),
        ([{"x": 1, "y": 2}] * 5 + [[1, 2]], False),  # a pair: read point by point
        ([{"x": True, "y": 2}] * 6, False),  # a bool is no number to the parser
    ],
)
def test_the_parser_marks_only_answers_of_int_points(points, marked):
    try:
        d = parse_drawing(json.dumps({"points": points}))
    except Exception:
        assert not marked
        return
    assert parsed_ints(d) is marked


def test_a_drawing_whose_data_changed_reads_it_again():
    text = json.dumps({"points": [{"x": 25 + i % 3, "y": 10 + i} for i in range(20)]})
    d = parse_drawing(text)
    assert parsed_ints(d)
    d.data["points"].append({"x": 1, "y": 1})  # grown
    assert not parsed_ints(d)
    d = parse_drawing(text)
    d.data["points"] = list(d.data["points"])  # replaced
    assert not parsed_ints(d)
    d = parse_drawing(text)
    assert not parsed_ints(replace(d, data={"points": d.data["points"][:5]}))  # other data
    assert not parsed_ints(Drawing(points=d.points, data=d.data))  # not from the parser


def test_circle_cases_score_the_same_with_and_without_the_mark():
    cases = [c for c in load_cases() if c.family == "circle"]
    assert cases
    for case in cases:
        pts = case.ideal()
        for shift in (0, 1):
            text = json.dumps({"points": [{"x": int(x) + shift, "y": int(y)} for x, y in pts]})
            d = parse_drawing(text)
            assert parsed_ints(d)
            a = case.score(d)
            b = case.score(Drawing(points=d.points, grid_size=d.grid_size, center=d.center, data=d.data))
            assert _bits(a.score) == _bits(b.score)
            assert a.metrics == b.metrics
            assert [(c.name, c.passed, c.value) for c in a.checks] == [(c.name, c.passed, c.value) for c in b.checks]


def test_the_left_sum_is_phps_from_int_zero():
    """``0 + v0 + v1 + ...`` left to right: cumsum + 0.0 against the sum with PHP's 0 in front."""
    rng = np.random.default_rng(31)
    special = [-0.0, 0.0, 1e-300, -1e-300, 1.0, -1.0, 1e16, -1e16, math.inf, -math.inf, math.nan]
    rows = [np.array([-0.0] * 6), np.array([-0.0, 0.0, -0.0]), np.array([-0.0, -0.0, 1.0])]
    for _ in range(5000):
        n = int(rng.integers(1, 40))
        rows.append(rng.choice(special, n) if rng.random() < 0.5 else rng.normal(size=n) * 10.0 ** rng.integers(-8, 8))
    with np.errstate(invalid="ignore"):
        for v in rows:
            want = float(np.cumsum(np.concatenate([[0.0], v]))[-1])
            got = seed._left_sum(v)
            assert (math.isnan(got) and math.isnan(want)) or _bits(got) == _bits(want)
