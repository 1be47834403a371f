"""Round 8 of the shared run code: the faster forms against the ones they replace, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry import runs
from shape_asserts.geometry.simplify import segments

SEEDS = range(60)


def _walk(rng: np.random.Generator, n: int) -> np.ndarray:
    """An 8-connected walk of ``n`` cells with repeats, jumps, retraces, closed loops, odd floats."""
    steps = rng.integers(-1, 2, (n - 1, 2))
    steps[rng.random(n - 1) < 0.08] *= 2
    pts = np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)
    if rng.random() < 0.3:
        pts = pts + rng.choice([0.0, 0.5, -0.25, -0.0, 1e-9], pts.shape)
    if rng.random() < 0.2:
        pts = np.vstack([pts, pts[::-1][1:]])  # retraced
    if rng.random() < 0.3 and n >= 4:
        pts[-1] = pts[0] + rng.integers(-1, 2, 2)  # closed (within a cell)
    if rng.random() < 0.1:
        pts = pts * rng.choice([1e-300, 1e90, 3.7])
    return pts


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _cuts(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """Ordered (first, last) pieces of ``n`` points: some sharing an end, some apart, two-point ones."""
    cut = sorted({int(c) for c in rng.integers(0, n, int(rng.integers(1, 8)))} | {0, n - 1})
    out = []
    for a, b in zip(cut[:-1], cut[1:]):
        if rng.random() < 0.3 and b - a >= 2:
            a += 1  # a gap before this piece
        if b > a:
            out.append((a, b))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_plain_span_edges_is_segments_of_each(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = np.vstack([_walk(rng, int(rng.integers(2, 150))) for _ in range(int(rng.integers(1, 4)))])
    cuts = _cuts(rng, len(pts))
    for tol in (1.0, 0.5, 2.0):
        got = runs.plain_span_edges(pts, cuts, tol)
        assert got is not None
        segs = [s for s in (segments(pts[a : b + 1], tol) for a, b in cuts) if len(s)]
        want = np.concatenate(segs) if segs else np.zeros((0, 2, 2))
        assert _same(got, want)
        joined = runs.plain_edges([pts[a : b + 1] for a, b in cuts], tol)
        assert joined is not None and _same(got, joined)


def test_plain_span_edges_declines() -> None:
    pts = np.arange(40.0).reshape(20, 2)
    assert runs.plain_span_edges(pts, [(5, 9), (0, 4)], 1.0) is None  # out of order
    assert runs.plain_span_edges(pts, [(0, 9), (5, 12)], 1.0) is None  # overlapping
    assert runs.plain_span_edges(pts, [(3, 3)], 1.0) is None  # one point
    assert runs.plain_span_edges(pts, [(0, 20)], 1.0) is None  # past the end
    assert runs.plain_span_edges(pts, [], 1.0) is None
    bad = pts.copy()
    bad[7, 1] = np.inf
    assert runs.plain_span_edges(bad, [(0, 4)], 1.0) is None  # a coordinate not plain
    assert runs.plain_span_edges(pts, [(0, 4), (4, 9)], 1.0) is not None  # sharing an end
