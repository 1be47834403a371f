"""The house's wall height is ``np.median`` of the wall edges' lengths, computed without the array."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.scene.house import _median


@pytest.mark.parametrize("n", range(1, 9))
def test_median_is_numpys(n):
    rng = np.random.default_rng(n)
    for scale in (1.0, 30.0, 1e-3, 1e6):
        for _ in range(500):
            values = (rng.random(n) * scale).tolist()
            assert _median(values) == float(np.median(values))
    assert _median([3.0] * n) == 3.0
