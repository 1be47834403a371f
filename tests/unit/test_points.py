"""shape_asserts.geometry.points: the one shape guard and the cell rounding."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.points import as_points, roll_rows, round_half_up


def test_as_points_gives_a_float_n_by_2_array():
    pts = as_points([[1, 2], [3, 4]])
    assert pts.dtype == np.float64 and pts.shape == (2, 2)


@pytest.mark.parametrize("bad", [[1, 2, 3], [[1, 2, 3]], np.zeros((2, 2, 2))])
def test_as_points_rejects_other_shapes_with_value_error(bad):
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        as_points(bad)


def test_halves_round_up_so_a_whole_cell_shift_moves_the_cell_by_one():
    """``np.rint`` rounds 24.5 and 25.5 to 24 and 26 (to even); a shifted case would move by two."""
    values = np.array([24.5, 25.5, -0.5, 0.49, 3.5000001])
    assert round_half_up(values).tolist() == [25.0, 26.0, 0.0, 0.0, 4.0]
    assert (round_half_up(values + 7) - round_half_up(values)).tolist() == [7.0] * 5


@pytest.mark.parametrize("shift", [-7, -1, 0, 1, 3, 8])
def test_roll_rows_is_np_roll_along_rows(shift):
    a = np.arange(10.0).reshape(5, 2)
    assert np.array_equal(roll_rows(a, shift), np.roll(a, shift, axis=0))
    assert roll_rows(np.zeros((0, 2)), shift).shape == (0, 2)
