"""``_enclosed`` (regions of empty cells but the outside) agrees with a plain flood fill, on grids
with an empty margin (its fast path, what ``holes`` builds) and without (the general path)."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from shape_asserts.families.scene.regions import _enclosed


def _flood(drawn: np.ndarray) -> list[np.ndarray]:
    """Empty cells numbered by 4-connected flood fills started from each unnumbered empty cell in
    row-major order; every region but the first, in that order."""
    h, w = drawn.shape
    label = np.full((h, w), -1)
    masks = []
    for y in range(h):
        for x in range(w):
            if drawn[y, x] or label[y, x] >= 0:
                continue
            mask = np.zeros((h, w), dtype=bool)
            todo = deque([(y, x)])
            label[y, x] = len(masks)
            while todo:
                cy, cx = todo.popleft()
                mask[cy, cx] = True
                for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                    if 0 <= ny < h and 0 <= nx < w and not drawn[ny, nx] and label[ny, nx] < 0:
                        label[ny, nx] = len(masks)
                        todo.append((ny, nx))
            masks.append(mask)
    return masks[1:]


@pytest.mark.parametrize("margin", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_enclosed_is_a_flood_fill(seed, margin):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        h, w = (int(v) for v in rng.integers(2, 24, 2))
        drawn = rng.random((h, w)) < rng.uniform(0.2, 0.7)
        if margin:
            drawn = np.pad(drawn, 1)
        got, want = _enclosed(drawn), _flood(drawn)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert np.array_equal(a, b)


def test_rings_in_a_margin():
    drawn = np.zeros((9, 12), dtype=bool)
    drawn[1:6, 1:6] = True
    drawn[2:5, 2:5] = False  # a 3x3 hole
    drawn[2, 8:11] = drawn[4, 8:11] = drawn[3, 8] = drawn[3, 10] = True  # a 1-cell hole at (3, 9)
    holes = _enclosed(drawn)
    assert [int(m.sum()) for m in holes] == [9, 1]
    assert holes[1][3, 9]
