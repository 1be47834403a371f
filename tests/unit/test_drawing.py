"""parse_drawing: a model's raw answer text → Drawing, or a DrawingFormatError that says what and where."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from shape_asserts.geometry.drawing import (
    MAX_ANSWER_CHARS,
    MAX_POINTS,
    Drawing,
    DrawingFormatError,
    parse_drawing,
)

POINTS = [[25, 1], [26, 1], [27, 2], [28, 2], [29, 3]]


def _answer(points: list | None = None, **extra: object) -> str:
    """A model-shaped answer: ``{"grid_size": 50, "points": [{"x": .., "y": ..}, ...]}``."""
    pts = POINTS if points is None else points
    return json.dumps({"grid_size": 50, **extra, "points": [{"x": x, "y": y} for x, y in pts]})


# --- accepted shapes -------------------------------------------------------------------------------


def test_bare_json_is_read_in_answer_order():
    d = parse_drawing(_answer())
    assert d.points.tolist() == [[float(x), float(y)] for x, y in POINTS]
    assert d.grid_size == 50


def test_json_in_a_fenced_block_is_read():
    d = parse_drawing(f"```json\n{_answer()}\n```")
    assert d.points.tolist() == [[float(x), float(y)] for x, y in POINTS]


def test_prose_before_and_after_the_json_is_ignored():
    text = f"Sure! Here is the circle {{as asked}}:\n\n{_answer()}\n\nLet me know if you need more."
    d = parse_drawing(text)
    assert d.points.tolist() == [[float(x), float(y)] for x, y in POINTS]


def test_prose_around_a_fenced_block_is_ignored():
    text = f"I drew it clockwise.\n```json\n{_answer()}\n```\nThe start is at the top."
    assert len(parse_drawing(text)) == len(POINTS)


def test_points_may_be_xy_pairs():
    d = parse_drawing(json.dumps({"points": POINTS}))
    assert d.points.tolist() == [[float(x), float(y)] for x, y in POINTS]


def test_xy_objects_and_pairs_may_be_mixed():
    d = parse_drawing('{"points": [{"x": 1, "y": 2}, [3, 4]]}')
    assert d.points.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_integer_valued_floats_are_read_as_the_same_numbers():
    d = parse_drawing('{"grid_size": 50.0, "points": [{"x": 25.0, "y": 1.0}, [26.0, 1]]}')
    assert d.points.tolist() == [[25.0, 1.0], [26.0, 1.0]]
    assert d.grid_size == 50


def test_points_nested_inside_another_object_are_found():
    text = json.dumps({"shape": "circle", "drawing": {"grid_size": 50, "points": POINTS}})
    d = parse_drawing(f"Result:\n{text}")
    assert d.points.tolist() == [[float(x), float(y)] for x, y in POINTS]


def test_answer_center_is_kept_as_metadata_and_a_bad_one_is_ignored():
    assert parse_drawing(_answer(center={"x": 25, "y": 25})).center == (25.0, 25.0)
    assert parse_drawing(_answer(center=[25, 25])).center == (25.0, 25.0)
    assert parse_drawing(_answer(center="middle")).center is None


def test_decoded_answer_is_kept_for_the_seed_score():
    d = parse_drawing(_answer())
    assert d.data["points"][0] == {"x": 25, "y": 1}


# --- the Drawing value -----------------------------------------------------------------------------


def test_drawing_points_are_a_read_only_float_n_by_2_array():
    d = parse_drawing(_answer())
    assert d.points.shape == (len(POINTS), 2)
    assert d.points.dtype == np.float64
    with pytest.raises(ValueError, match="read-only"):
        d.points[0, 0] = 99.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.points = np.zeros((1, 2))  # type: ignore[misc]


def test_drawing_copies_its_input_so_the_caller_cannot_change_it():
    src = np.array(POINTS, dtype=float)
    d = Drawing(points=src)
    src[0, 0] = -1.0
    assert d.points[0, 0] == 25.0


def test_drawing_rejects_points_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        Drawing(points=np.zeros((3, 3)))


# --- rejected answers: the message names the problem and where -------------------------------------


def test_point_missing_y_is_named_by_its_index():
    pts = [{"x": i, "y": i} for i in range(45)]
    del pts[41]["y"]
    with pytest.raises(DrawingFormatError, match=r"point #41 has no 'y'"):
        parse_drawing(json.dumps({"points": pts}))


def test_answer_without_a_points_object_says_so():
    with pytest.raises(DrawingFormatError, match=r"no JSON object with a 'points' list found"):
        parse_drawing('I\'m sorry, I can\'t draw. {"shape": "circle"}')


def test_answer_cut_off_inside_the_points_list_is_reported_as_truncated():
    real = f"Here you go:\n```json\n{_answer([[25 + i % 20, 1 + i // 20] for i in range(60)])}\n```\n"
    cut = real[: real.index('"points"') + 300]  # mid-list, as a token limit would leave it
    assert "]" not in cut  # still inside the list
    with pytest.raises(
        DrawingFormatError, match=r"answer truncated: its JSON ends inside 'points' and no finish reason was recorded"
    ):
        parse_drawing(cut)


def test_bare_answer_cut_off_right_before_the_closing_brackets_is_truncated():
    full = _answer()
    with pytest.raises(DrawingFormatError, match=r"answer truncated"):
        parse_drawing(full[:-2])


def test_empty_points_list_is_rejected():
    with pytest.raises(DrawingFormatError, match=r"'points' is empty"):
        parse_drawing('{"points": []}')


def test_points_that_is_not_a_list_is_rejected():
    with pytest.raises(DrawingFormatError, match=r"'points' is dict, expected a list"):
        parse_drawing('{"points": {"0": [1, 2]}}')


def test_empty_answer_is_rejected():
    with pytest.raises(DrawingFormatError, match="answer is empty"):
        parse_drawing("  \n ")


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ('[{"x": 1, "y": 2}, {"x": "3", "y": 4}]', r"point #1 'x' is str '3', expected a number"),
        ("[[1, 2], [3, null]]", r"point #1 y is NoneType None, expected a number"),
        ("[[1, 2], [3, [4]]]", r"point #1 y is list \[4\], expected a number"),
    ],
)
def test_non_numeric_coordinate_is_named_by_point_and_axis(points: str, expected: str):
    with pytest.raises(DrawingFormatError, match=expected):
        parse_drawing(f'{{"points": {points}}}')


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ('[{"x": true, "y": 2}]', r"point #0 'x' is bool True, expected a number"),
        ("[[1, 2], [3, false]]", r"point #1 y is bool False, expected a number"),
    ],
)
def test_booleans_are_not_coordinates(points: str, expected: str):
    with pytest.raises(DrawingFormatError, match=expected):
        parse_drawing(f'{{"points": {points}}}')


def test_non_finite_coordinates_are_rejected():
    with pytest.raises(DrawingFormatError, match=r"point #0 x is not finite"):
        parse_drawing('{"points": [[1e400, 2]]}')
    with pytest.raises(DrawingFormatError, match=r"point #0 y is not finite"):
        parse_drawing('{"points": [[1, NaN]]}')


def test_pair_of_the_wrong_length_is_rejected():
    with pytest.raises(DrawingFormatError, match=r"point #0 is a list of 3 values, expected \[x, y\]"):
        parse_drawing('{"points": [[1, 2, 3]]}')


def test_point_that_is_neither_object_nor_pair_is_rejected():
    with pytest.raises(DrawingFormatError, match=r"point #2 is int 7"):
        parse_drawing('{"points": [[1, 2], [3, 4], 7]}')


def test_more_than_max_points_is_refused_naming_the_limit():
    text = json.dumps({"points": [[i % 50, i // 50 % 50] for i in range(MAX_POINTS + 1)]})
    assert len(text) < MAX_ANSWER_CHARS  # refused for its point count, not its length
    with pytest.raises(DrawingFormatError, match=rf"{MAX_POINTS + 1:,} entries; the limit is {MAX_POINTS:,}"):
        parse_drawing(text)


def test_exactly_max_points_is_accepted():
    text = json.dumps({"points": [[i % 50, i // 50 % 50] for i in range(MAX_POINTS)]})
    assert len(parse_drawing(text)) == MAX_POINTS


def test_answer_with_a_million_points_is_refused_before_parsing():
    text = '{"points": [' + ", ".join(['{"x": 12, "y": 34}'] * 1_000_000) + "]}"
    with pytest.raises(DrawingFormatError) as info:
        parse_drawing(text)
    message = str(info.value)
    assert f"{MAX_ANSWER_CHARS:,}" in message
    assert f"{MAX_POINTS:,} points" in message


def test_answer_that_is_not_text_is_rejected():
    with pytest.raises(DrawingFormatError, match="answer must be text, got bytes"):
        parse_drawing(b'{"points": [[1, 2]]}')  # type: ignore[arg-type]


def test_deeply_nested_json_is_rejected_without_recursion_error():
    text = '{"points": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(DrawingFormatError):
        parse_drawing(text)
