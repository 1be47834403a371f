"""The corner clean-up's comparisons told from squared lengths decide as ``np.hypot`` decides.

``_corners_fit`` and the shortest-side test of ``simplify_closed`` compare a distance with a limit;
far from the limit they compare its square instead (``_square_band``), near it (or for a nan) they
take ``np.hypot``. Each is held here to the form it replaces: every distance by ``np.hypot``, then
compared. Near-limit cases are made on purpose (distances a few units in the last place off).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.corners import _corners_fit, _point_dists, _sides_longer, _square_band
from shape_asserts.geometry.runs import Ring


def _old_corners_fit(ring: Ring, idx: list[int], deep: list, epsilon: float) -> list:
    """``_corners_fit`` as it was: every distance by ``np.hypot``, then both compared."""
    n, k = ring.n, len(idx)
    triples = []
    for j, a, m, d in deep:
        for b in (idx[j], idx[(j + 1) % k]):
            triples.append((b, a, m) if (b - a) % n <= (m - a) % n else (b, m, d))
    dev = _point_dists(ring, triples)
    return [pair for g, pair in enumerate(deep) if dev[2 * g] <= epsilon and dev[2 * g + 1] <= epsilon]


def _epsilons(ring: Ring, rng: np.random.Generator) -> list[float]:
    """Limits ordinary and odd, and some lying on (or a few units in the last place beside) a
    distance that is measured: the band where only ``np.hypot`` can tell."""
    found = [d for d in ring.point_dist([tuple(int(i) for i in rng.integers(0, ring.n, 3)) for _ in range(4)])]
    out = [0.0, 1e-300, 0.5, 1.0, 1.5, 2.0, 1e150, math.inf, math.nan]
    for d in found:
        if math.isfinite(d):
            out += [d, math.nextafter(d, 0.0), math.nextafter(d, math.inf), d * (1 + 1e-12), d * (1 - 1e-12)]
    return out


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_corners_fit_decides_as_hypot(kind, odd_floats):
    rng = np.random.default_rng(70 + kind)
    for _ in range(200):
        n = int(rng.integers(6, 30))
        pts = odd_floats(rng, (n, 2), kind, whole=(0, 6))
        idx = sorted({int(i) for i in rng.choice(n, size=int(rng.integers(4, min(n, 9))), replace=False)})
        k = len(idx)
        deep = [(j, idx[j - 1], int(rng.integers(0, n)), idx[(j + 2) % k]) for j in range(k)]
        ring = Ring(pts)
        with np.errstate(all="ignore"):
            for eps in _epsilons(ring, rng):
                assert _corners_fit(ring, idx, deep, eps) == _old_corners_fit(ring, idx, deep, eps), (
                    pts.tolist(),
                    idx,
                    deep,
                    eps,
                )


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_sides_longer_only_when_every_side_is(kind, odd_floats):
    """True only when Ring.sides are all above the limit (then simplify_closed's loop stops at once);
    and on ordinary sides well above it, true."""
    rng = np.random.default_rng(80 + kind)
    for _ in range(300):
        n = int(rng.integers(4, 30))
        pts = odd_floats(rng, (n, 2), kind, whole=(0, 6))
        idx = sorted({int(i) for i in rng.choice(n, size=int(rng.integers(3, min(n, 9))), replace=False)})
        ring = Ring(pts)
        with np.errstate(all="ignore"):
            sides = ring.sides(idx)
            limits = [0.5, 1.0, 3.0, 6.0, 1e-300, 1e150, math.inf, math.nan]
            limits += [s for s in sides if math.isfinite(s)] + [math.nextafter(s, 0.0) for s in sides if s > 0]
            for limit in limits:
                if _sides_longer(ring, idx, limit):
                    assert all(s >= limit for s in sides), (pts.tolist(), idx, limit)
                elif 1e-100 <= limit <= 1e100 and all(math.isfinite(s) and s > limit * 1.001 for s in sides):
                    raise AssertionError(("a clear case not told", pts.tolist(), idx, limit))


def test_square_band_brackets_the_limit():
    for limit in (1.0, 1.5, 0.75, 2.0, 6.0, 1e-100, 1e100):
        lo, hi = _square_band(limit)
        assert lo < limit * limit < hi
    for limit in (0.0, 1e-101, 1e101, math.inf, math.nan):
        assert _square_band(limit) == (-math.inf, math.inf)


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_corners_fit_from_remembered_distances_decides_as_hypot(kind, odd_floats):
    """A corner measured before against its neighbours' segment (as ``_settled`` measures it) is
    read from the ring's memory: the same decision as ``np.hypot`` of its step."""
    rng = np.random.default_rng(90 + kind)
    for _ in range(200):
        n = int(rng.integers(6, 30))
        pts = odd_floats(rng, (n, 2), kind, whole=(0, 6))
        idx = sorted({int(i) for i in rng.choice(n, size=int(rng.integers(4, min(n, 9))), replace=False)})
        k = len(idx)
        # m often the pair's own other corner (then the corner checked first has m as a neighbour)
        deep = [
            (
                j,
                idx[j - 1],
                idx[(j + int(rng.integers(0, 2))) % k] if rng.random() < 0.7 else int(rng.integers(0, n)),
                idx[(j + 2) % k],
            )
            for j in range(k)
        ]
        ring = Ring(pts)
        with np.errstate(all="ignore"):
            ring.point_dist([(idx[j], idx[j - 1], idx[(j + 1) % k]) for j in range(k)])
            for eps in _epsilons(ring, rng):
                assert _corners_fit(ring, idx, deep, eps) == _old_corners_fit(Ring(pts), idx, deep, eps), (
                    pts.tolist(),
                    idx,
                    deep,
                    eps,
                )
