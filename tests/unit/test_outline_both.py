"""``Outline.both`` (geometry/nearest_xy.py): the two searches of an answer's outline measures with
the points' safety and cells worked out once, the same floats as comparing every pair; the cell
index is left unbuilt by one answer's two searches, and a polygon's few sides use it once built."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.nearest import brute_nearest, brute_to_segments, seg_dist
from shape_asserts.geometry.nearest_xy import Outline, _Cells


def _outlines() -> list[tuple[np.ndarray, bool]]:
    t = np.linspace(0, 2 * np.pi, 804, endpoint=False)
    ellipse = np.column_stack([50 + 40 * np.cos(t + 0.3), 50 + 24 * np.sin(t)])
    square = np.array([[25.0, 25.0], [75.0, 25.0], [75.0, 75.0], [25.0, 75.0]])
    triangle = np.array([[10.0, 40.0], [30.5, 5.25], [45.0, 44.0]])
    return [(ellipse, True), (square, True), (triangle, True), (triangle, False)]


def _answers(rng: np.random.Generator, curve: np.ndarray, closed: bool) -> list[np.ndarray]:
    ends = np.vstack([curve, curve[:1]]) if closed else curve
    steps = [np.linspace(a, b, max(2, int(np.hypot(*(b - a))) + 1)) for a, b in zip(ends[:-1], ends[1:])]
    cells = np.rint(np.concatenate(steps))[::2]
    lo, hi = curve.min(axis=0) - 5, curve.max(axis=0) + 5
    return [
        cells,
        cells + rng.normal(0, 0.6, cells.shape),
        np.floor(rng.uniform(lo, hi, (150, 2))),
        np.concatenate([cells[:40], cells[:30] + 300.0, -cells[:10]]),
        cells[:3],
        np.zeros((0, 2)),
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_both_searches_give_every_pair_s_minima(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for curve, closed in _outlines():
        outline = Outline(curve, closed=closed, center=(40, 40))
        ends = np.vstack([curve, curve[:1]]) if closed else curve
        for _round in range(3):  # the index is built from the third search on
            for pts in _answers(rng, curve, closed):
                if not len(pts):
                    continue
                near, dist = outline.both(pts)
                assert np.array_equal(near, brute_nearest(outline.ref, pts, "euclidean"))
                assert np.array_equal(dist, brute_to_segments(pts, ends[:-1], ends[1:]))
                assert np.array_equal(outline.distance(pts), dist)
                assert np.array_equal(outline.nearest_sq(pts), near)
        assert outline._index() is not None


def test_one_answer_s_two_searches_build_no_index() -> None:
    t = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    curve = np.column_stack([50 + 30 * np.cos(t), 50 + 20 * np.sin(t)])
    outline = Outline(curve, closed=True, center=(50, 50))
    outline.both(np.rint(curve[::2]))
    assert outline._cells is None
    outline.both(np.rint(curve[::2]))
    assert outline._cells is not None


def test_cell_keys_are_the_clipped_floors() -> None:
    rng = np.random.default_rng(5)
    cells = _Cells(-3.0, 7.0, 20, 30)
    pts = np.concatenate([rng.uniform(-40, 60, (500, 2)), np.floor(rng.uniform(-10, 40, (200, 2)))])
    ix = np.clip(np.floor(pts[:, 0]) - cells.x0, 0, cells.nx - 1).astype(np.intp)
    iy = np.clip(np.floor(pts[:, 1]) - cells.y0, 0, cells.ny - 1).astype(np.intp)
    assert np.array_equal(cells.key(pts), ix * cells.ny + iy)


@pytest.mark.parametrize(
    "offset", [0.0, 0.2, 0.25, 0.2499999999, 0.2500000001, 0.5, 0.7, 0.75, 0.8, 0.95, 0.9999999999, 0.05]
)
def test_whole_points_at_the_side_reach_and_off_the_grid(offset: float) -> None:
    """Sides whose whole points lie near :data:`_SIDE_REACH` (and a point off the grid beside them):
    the sides listed with a point's corner settle it only where every side that near is listed."""
    rng = np.random.default_rng(int(offset * 1e4))
    box = np.array([[10.0, 10.0], [40.0, 10.0], [40.0, 30.0], [10.0, 30.0]]) + [offset, -offset]
    slant = np.array([[5.0, 5.0], [45.0 + offset, 21.0], [20.0, 40.0 - offset]])
    for curve in (box, slant):
        outline = Outline(curve, closed=True, center=(25, 20))
        ends = np.vstack([curve, curve[:1]])
        lo, hi = curve.min(axis=0) - 3, curve.max(axis=0) + 3
        grid = np.stack(np.meshgrid(np.arange(lo[0] // 1, hi[0]), np.arange(lo[1] // 1, hi[1])), -1).reshape(-1, 2)
        for pts in (grid[rng.permutation(len(grid))[:300]], grid[:200] + [0.0, 0.5], grid[:150] + [1e-9, 0.0]):
            mixed = np.concatenate([pts[:120], pts[:60] + rng.uniform(-0.5, 0.5, (60, 2))])
            for drawn in (pts, mixed):
                for _ in range(3):
                    near, dist = outline.both(drawn)
                    assert np.array_equal(dist, brute_to_segments(drawn, ends[:-1], ends[1:]))
                    assert np.array_equal(near, brute_nearest(outline.ref, drawn, "euclidean"))
        assert outline._index() is not None


@pytest.mark.parametrize("seed", range(4))
def test_random_polygons_every_grid_point_about_them(seed: int) -> None:
    """Polygons of long sides at random fractional places (sharp corners among them, where a point's
    second-nearest side is nearly as near as its nearest), every whole point about them."""
    rng = np.random.default_rng(100 + seed)
    for _ in range(25):
        k = int(rng.integers(3, 9))
        curve = rng.uniform(5, 35, (k, 2))
        outline = Outline(curve, closed=True, center=(20, 20))
        ends = np.vstack([curve, curve[:1]])
        xs, ys = np.arange(2.0, 39.0), np.arange(2.0, 39.0)
        grid = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
        ref = brute_to_segments(grid, ends[:-1], ends[1:])
        near = grid[ref < 1.3]
        for part in range(0, len(near), 400):
            pts = near[part : part + 400]
            for _round in range(3):
                assert np.array_equal(outline.both(pts)[1], ref[ref < 1.3][part : part + 400])


@pytest.mark.parametrize("seed", range(3))
def test_each_corner_holds_its_nearest_side_within_reach(seed: int) -> None:
    """The index itself: each corner inside the border holds its distance to the nearest side, the
    same float as every pair's minimum, wherever that lies within reach; the border corners none."""
    rng = np.random.default_rng(200 + seed)
    t = np.linspace(0, 2 * np.pi, 300, endpoint=False)
    curves = [rng.uniform(5, 35, (int(rng.integers(3, 9)), 2)) for _ in range(6)]
    curves.append(np.column_stack([20 + 14 * np.cos(t), 20 + 6.5 * np.sin(t)]) + rng.uniform(0, 1, 2))
    for curve in curves:
        outline = Outline(curve, closed=True, center=(20, 20))
        cells = _Cells.of(outline)
        assert cells.ok and cells.reach == (1.0 if len(curve) < 10 else 0.75)
        sx, sy = outline._sx, outline._sy
        a, b = np.column_stack([sx, sy]), np.column_stack([sx + outline._abx, sy + outline._aby])
        for i, x in enumerate(np.arange(cells.x0, cells.x0 + cells.nx)):
            col = np.column_stack([np.full(cells.ny, x), cells.y0 + np.arange(cells.ny)])
            d = seg_dist(col[:, 0, None], col[:, 1, None], a[None, :, 0], a[None, :, 1], b[None, :, 0], b[None, :, 1])
            near = d.min(axis=1)
            held = cells.corner_min[cells.key(col)]
            inner = np.arange(cells.ny) % (cells.ny - 1) != 0 if 0 < i < cells.nx - 1 else np.zeros(cells.ny, bool)
            assert np.isinf(held[~inner]).all()
            assert np.array_equal(held[inner & (near <= cells.reach)], near[inner & (near <= cells.reach)])
            assert (held[inner & (near > cells.reach)] > cells.reach).all()


@pytest.mark.parametrize("seed", range(3))
def test_each_corner_lists_every_sample_within_a_cell(seed: int) -> None:
    """The index's samples: every outline sample within a cell of a whole point along x and along y
    is listed with that point's cell (off the grid, a point's four corners between them list them)."""
    rng = np.random.default_rng(300 + seed)
    t = np.linspace(0, 2 * np.pi, 250, endpoint=False)
    for curve in (rng.uniform(5, 35, (5, 2)), np.column_stack([20 + 12 * np.cos(t), 20 + 7.25 * np.sin(t)])):
        outline = Outline(curve, closed=True, center=(20, 20))
        cells = _Cells.of(outline)
        ref = outline.ref
        for x in np.arange(cells.x0, cells.x0 + cells.nx):
            col = np.column_stack([np.full(cells.ny, x), cells.y0 + np.arange(cells.ny)])
            for row, k in enumerate(cells.key(col).tolist()):
                within = np.flatnonzero(np.max(np.abs(ref - col[row]), axis=1) <= 1.0)
                assert set(within.tolist()) <= set(cells.refs[cells.ref_first[k] : cells.ref_first[k + 1]].tolist())
        off = rng.uniform(cells.x0, cells.x0 + cells.nx, (300, 2))
        for _round in range(3):
            assert np.array_equal(outline.nearest_sq(off), brute_nearest(ref, off, "euclidean"))
