"""Fast paths of the scenes that replace a numpy call by plain floats where the answer is already
settled give what the numpy form gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shape_asserts.families.scene.stick import _body_spans
from shape_asserts.families.scene.strokes import heal_spans, holes, hypot_within, scene_strokes
from shape_asserts.geometry.simplify import segment_angles

_SIZES = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0, 4.0, -4.0, 3.0, float("nan"), float("inf"), -float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-6, 6).map(float),
)


@given(_SIZES, _SIZES, st.sampled_from([0.0, 1.0, 1.5, 2.0, 4.0, 3.5]))
def test_hypot_within_is_numpys(dx: float, dy: float, limit: float) -> None:
    with np.errstate(all="ignore"):
        assert hypot_within(dx, dy, limit) == bool(np.hypot(dx, dy) <= limit)


@pytest.mark.parametrize("seed", range(60))
def test_body_spans_on_the_grid_are_the_lookups(seed: int) -> None:
    """The stick's body spans from the head marked on the drawing's box are those of the cell-by-cell
    lookup (``_off_cells``, then each healed span's runs)."""
    rng = np.random.default_rng(seed)
    steps = rng.integers(-1, 2, (int(rng.integers(1, 150)), 2))
    steps[rng.random(len(steps)) < 0.1] *= 3
    pts = np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)
    pts = np.clip(pts, -1, 50)
    if rng.random() < 0.3:
        pts = pts + rng.choice([0.0, 0.5, -0.5, 0.25], pts.shape)
    strokes = scene_strokes(pts)
    healed = heal_spans(pts, strokes, 2.0)
    ext = (np.minimum.reduce(pts, axis=0).tolist(), np.maximum.reduce(pts, axis=0).tolist())
    rings = holes(pts, [s for _, s in strokes], 2.0, 2.0, 50, ext)
    cells = np.rint(pts[rng.random(len(pts)) < 0.4])
    for ring in [*rings, cells, np.zeros((0, 2))]:
        assert _body_spans(pts, ring, healed, ext, 50) == _body_spans(pts, ring, healed, None, 50)


_COORDS = st.one_of(st.integers(-60, 60).map(float), st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 0.5, -0.5]))


@given(_COORDS, _COORDS, _COORDS, _COORDS)
def test_one_segments_direction_is_segment_angles(ax: float, ay: float, bx: float, by: float) -> None:
    """torso_chain's direction of the segment a to b on two floats is segment_angles' of it."""
    want = float(segment_angles(np.array([[[ax, ay], [bx, by]]]))[0][0])
    assert repr(float(np.degrees(np.arctan2(by - ay, bx - ax)) % 180.0)) == repr(want)
