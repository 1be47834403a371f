"""The polygon scorer's min-max programme over the choices of corner cells (``_straightest``),
written as plain loops, picks what the list form it replaces picked: the same worst side and
point, ties and nans decided by the builtins' ``max`` / ``min`` alike."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.polygon.matching import sides as _sides
from shape_asserts.families.polygon.matching import straightest as _straightest
from shape_asserts.geometry.runs import Ring


def _old_straightest(ring: Ring, at: list[list[int]], forward: bool, whole: bool) -> tuple[float, int]:
    """``_straightest`` as it was: a list of options per candidate, ``max`` and ``min`` of them."""
    n = len(at)
    pairs = sorted({(p, c) for i in range(n) for p in at[i - 1] for c in at[i]})
    side = dict(zip(pairs, _sides(ring, pairs, forward, whole)))
    best: tuple[float, int] = (float("inf"), 0)
    for first_at in at[0]:
        cost = {first_at: (0.0, first_at)}
        for i in range(1, n + 1):
            nxt = [first_at] if i == n else at[i]
            new: dict[int, tuple[float, int]] = {}
            for c in nxt:
                new[c] = min([max(cost[p], side[(p, c)]) for p in cost])
            cost = new
        best = min(best, cost[first_at])
    return best


@pytest.mark.parametrize("seed", range(4))
def test_straightest_as_the_list_form(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        size = int(rng.integers(8, 40))
        # whole points on a small grid (many equal distances: ties), now and then a nan
        pts = rng.integers(0, 5, (size, 2)).astype(float)
        if rng.random() < 0.1:
            pts[int(rng.integers(0, size))] = np.nan
        k = int(rng.integers(3, min(size // 2, 8) + 1))
        starts = sorted(int(i) for i in rng.choice(size, size=k, replace=False))
        at = [sorted({(s + int(d)) % size for d in rng.integers(0, 3, int(rng.integers(1, 4)))}) for s in starts]
        forward = bool(rng.random() < 0.7)
        whole = forward and not np.isnan(pts).any()
        with np.errstate(all="ignore"):
            got = _straightest(Ring(pts), at, forward, whole)
            want = _old_straightest(Ring(pts), at, forward, whole)
        assert repr(got) == repr(want), (pts.tolist(), at, forward)
