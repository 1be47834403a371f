"""The parser's one-pass read of ``{"x": n, "y": n}`` points gives exactly the floats of the
point-by-point read, and leaves everything it does not take (and every error message) to it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shape_asserts.exceptions import DrawingFormatError
from shape_asserts.geometry.drawing import _checked_points, _plain_points, parse_drawing

coordinate = st.one_of(
    st.integers(-(2**60), 2**60),
    st.integers(-100, 100),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.integers(2**1000, 2**1100),
)
point = st.one_of(
    st.fixed_dictionaries({"x": coordinate, "y": coordinate}),
    st.fixed_dictionaries({"x": coordinate}),
    st.lists(coordinate, min_size=0, max_size=3),
    coordinate,
)


@given(st.lists(point, min_size=1, max_size=20))
def test_the_one_pass_read_is_the_checked_read_wherever_it_answers(raw):
    read = _plain_points(raw)
    fast = None if read is None else read[0]
    try:
        checked = _checked_points(raw)
    except DrawingFormatError:
        assert fast is None  # a point the checked read refuses is never taken in one pass
        return
    if fast is not None:
        assert fast.shape == checked.shape and fast.flags["C_CONTIGUOUS"]
        assert fast.tobytes() == checked.tobytes()  # the same floats, bit for bit
        assert read is not None and read[1] == all(type(v) is int for p in raw for v in (p["x"], p["y"]))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"points": [{"x": 1, "y": true}]}', "point #0 'y' is bool True, expected a number"),
        ('{"points": [{"x": 1, "y": 2}, {"x": NaN, "y": 2}]}', "point #1 'x' is not finite"),
        ('{"points": [{"x": 1' + "0" * 400 + ', "y": 2}]}', "point #0 'x' is too large"),
        ('{"points": [{"x": 1, "y": 2}, [3]]}', "point #1 is a list of 1 values"),
    ],
)
def test_answers_the_one_pass_read_leaves_are_still_refused_by_name(text, message):
    with pytest.raises(DrawingFormatError) as exc:
        parse_drawing(text)
    assert message in str(exc.value)


def test_large_integers_are_read_as_the_checked_read_rounds_them():
    raw = [{"x": 2**53 + 1, "y": -(2**62) + 3}, {"x": 7, "y": 9}]
    assert _plain_points(raw) is None  # past 2**53: point by point
    pts = parse_drawing(json.dumps({"points": raw})).points
    assert pts[0, 0] == float(2**53 + 1) and pts[0, 1] == float(-(2**62) + 3) and not math.isnan(pts[1, 0])
    assert np.array_equal(parse_drawing('{"points": [{"x": 1, "y": 2.5}]}').points, [[1.0, 2.5]])
