"""Fast paths of the scenes that replace a numpy call by plain floats where the answer is already
settled give what the numpy form gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from shape_asserts.families.scene.strokes import hypot_within

_SIZES = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0, 4.0, -4.0, 3.0, float("nan"), float("inf"), -float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-6, 6).map(float),
)


@given(_SIZES, _SIZES, st.sampled_from([0.0, 1.0, 1.5, 2.0, 4.0, 3.5]))
def test_hypot_within_is_numpys(dx: float, dy: float, limit: float) -> None:
    with np.errstate(all="ignore"):
        assert hypot_within(dx, dy, limit) == bool(np.hypot(dx, dy) <= limit)
