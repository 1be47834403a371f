"""``split_contours`` finds a contour at a time with arrays (``_split_finite``); it must give what
the point-by-point walk (``_walk``) gives, on drawings with loops, lifts, jumps, gaps and repeats."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry import contours as C
from shape_asserts.geometry.raster import raster_circle


def _spans(cs):
    return [(c.start, c.stop, c.opened_by, c.gaps, c.repeats) for c in cs]


def _drawings(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(30):
        parts = []
        for _ in range(int(rng.integers(1, 7))):
            c = (int(rng.integers(8, 42)), int(rng.integers(8, 42)))
            ring = raster_circle(c, int(rng.integers(1, 9)), direction=str(rng.choice(["cw", "ccw"])))
            laps = int(rng.integers(1, 3))
            ring = np.vstack([ring] * laps)
            keep = rng.random(len(ring)) > rng.choice([0.0, 0.05, 0.3])  # gaps
            ring = ring[keep | (np.arange(len(ring)) == 0)]
            if rng.random() < 0.3:  # repeats
                ring = np.repeat(ring, rng.integers(1, 3, len(ring)), axis=0)
            if rng.random() < 0.3:  # a tail leaving the loop
                tail = ring[-1] + np.cumsum(rng.integers(-1, 2, (int(rng.integers(1, 12)), 2)), axis=0)
                ring = np.vstack([ring, tail])
            parts.append(ring)
        out.append(np.vstack(parts).astype(float))
    out.append(rng.integers(0, 50, (300, 2)).astype(float))  # a scatter: every step a jump
    out.append(np.cumsum(rng.integers(-1, 2, (400, 2)), axis=0).astype(float))  # a random walk
    small = [raster_circle((10 + 6 * (i % 6), 10 + 6 * (i // 6)), 2) for i in range(30)]
    out.append(np.vstack(small).astype(float))  # many small loops a step apart: past _ARRAY_CONTOURS
    out.append(np.vstack([raster_circle((20, 20), 4)] * 12).astype(float))  # laps: more rounds than _ARRAY_ROUNDS
    rings = [raster_circle((25, 25), r, start=(25, 25 - r)) for r in range(3, 24, 3)]
    out.append(np.vstack(rings).astype(float))  # nested rings 3 apart: lifts, no jumps
    out.append(np.vstack(rings + rings[::-1] + rings).astype(float))
    out.append(np.zeros((1, 2)))
    out.append(np.array([[0.0, 0.0], [10.0, 0.0]]))
    return out


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    "rule", [(4, 2, 8, True), (4, 2, 8, False), (10, 1, 3, True), (1.5, 3, 5, True), (4, 2, 0, True)]
)
def test_arrays_give_the_walk(seed, rule):
    for pts in _drawings(seed):
        steps = C.chebyshev(pts[1:], pts[:-1])
        walk = C._walk(pts, steps.tolist(), 0, "first", rule)
        assert _spans(C._split_finite(pts, steps, rule)) == _spans(walk)
        got = C.split_contours(pts, break_step=rule[0], close_tol=rule[1], min_loop=rule[2], split_on_close=rule[3])
        assert _spans(got) == _spans(walk)
        assert all(np.array_equal(c.points, pts[c.start : c.stop]) for c in got)


@pytest.mark.parametrize("seed", range(3))
def test_cell_paths_are_each_spans_cell_path(seed):
    rng = np.random.default_rng(seed)
    for pts in _drawings(seed):
        pts = pts + rng.choice([0.0, 0.4, -0.5], pts.shape)  # off-cell points round to cells
        bounds = sorted({0, len(pts), *rng.integers(0, len(pts), 5).tolist()})
        spans = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        spans = [sp for sp in spans if rng.random() < 0.7] or spans[:1]
        cells = np.rint(np.concatenate([pts[a:b] for a, b in spans])).astype(np.int64)
        got = C.cell_paths(cells, spans)
        want = [C.CellPath.of(pts[a:b]) for a, b in spans]
        assert got == want
        for (a, b), p, q in zip(spans, got, want[::-1]):  # crossings found through the flipped steps
            assert C.intersection(p, q) == C.intersection(pts[a:b], q)
