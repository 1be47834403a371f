"""``regions.enclosed``: the regions of empty cells walled in by drawn ones, the outside left out."""

from __future__ import annotations

import numpy as np

from shape_asserts.families.scene.regions import enclosed


def test_rings_in_a_margin():
    drawn = np.zeros((9, 12), dtype=bool)
    drawn[1:6, 1:6] = True
    drawn[2:5, 2:5] = False  # a 3x3 hole
    drawn[2, 8:11] = drawn[4, 8:11] = drawn[3, 8] = drawn[3, 10] = True  # a 1-cell hole at (3, 9)
    holes = enclosed(drawn)
    assert [int(m.sum()) for m in holes] == [9, 1]
    assert holes[1][3, 9]


def test_a_diagonal_gap_does_not_open_a_region():
    # an 8-connected diamond outline: its inside is 4-connected to nothing outside
    drawn = np.zeros((7, 7), dtype=bool)
    for y, x in [(1, 3), (2, 2), (2, 4), (3, 1), (3, 5), (4, 2), (4, 4), (5, 3)]:
        drawn[y, x] = True
    holes = enclosed(drawn)
    assert len(holes) == 1
    assert holes[0].sum() == 5 and holes[0][3, 3]
