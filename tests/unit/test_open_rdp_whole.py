"""Whole coordinates take :func:`~shape_asserts.geometry.open_rdp.line_rdp`'s exact-integer form
(farthest point by the largest ``|cross|``, ``epsilon`` compared by squares): it keeps exactly the
points the float form (the distances themselves, point by point) keeps.

Small grids make ties (equal distances either side of a chord, collinear runs) and distances
exactly equal to ``epsilon`` (1, 2, 5 on axis-parallel and 3-4-5 chords) common; both numpy and
plain-float stretches are covered by the threshold's settings.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_asserts.geometry import open_rdp, runs

_EPSILONS = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 5.0, 0.6, 0.8, 2**0.5, 1 / 2**0.5, 3.0]


def _both(pts: np.ndarray, spans: list[tuple[int, int]], epsilon: float) -> tuple[list[int], list[int]]:
    xl, yl = pts.T.tolist()
    size = float(np.abs(pts).max())
    whole = open_rdp.line_rdp(xl, yl, pts, spans, epsilon, size)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(open_rdp, "whole", lambda p, s: False)
        floats = open_rdp.line_rdp(xl, yl, pts, spans, epsilon, size)
    return whole, floats


@pytest.mark.parametrize("few", [0, 30, 10**6])
@settings(max_examples=150, deadline=None)
@given(
    cells=st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=3, max_size=80),
    scale=st.sampled_from([1, 2, 7, 1000, 2**17]),
    epsilon=st.sampled_from(_EPSILONS),
    cut=st.integers(0, 100),
)
def test_whole_form_keeps_what_the_float_form_keeps(few, cells, scale, epsilon, cut):
    pts = np.array(cells, dtype=float) * scale
    assert open_rdp.whole(pts, float(np.abs(pts).max()))
    n = len(pts)
    k = cut % n
    spans = [(0, k), (k, n - 1)] if 0 < k < n - 1 else [(0, n - 1)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(open_rdp, "FEW_POINTS", few)
        whole, floats = _both(pts, spans, epsilon * scale)
    assert whole == floats


def test_whole_takes_only_bounded_whole_numbers():
    ok = np.array([[0.0, -(2.0**20)], [2.0**20, 3.0]])
    assert open_rdp.whole(ok, runs.largest(ok))
    for odd in [0.5, -1e-9, 2.0**20 + 1, np.inf, np.nan]:
        bad = np.array([[0.0, 0.0], [odd, 1.0]])
        assert not open_rdp.whole(bad, runs.largest(bad))
