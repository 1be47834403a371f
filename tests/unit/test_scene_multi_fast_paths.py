"""The scene shortcuts give what the forms they replace give, bit for bit: every piece's edges in
one pass (``runs.plain_edges``) and a cell index's table (queries off its box, crowded references)."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.scene.strokes import _turns, edges
from shape_asserts.geometry import runs
from shape_asserts.geometry.nearest import CellIndex, brute_nearest, nearest_both
from shape_asserts.geometry.simplify import segments


def _walk(rng: np.random.Generator, n: int) -> np.ndarray:
    """An 8-connected walk of ``n`` cells, with some repeats and jumps."""
    steps = rng.integers(-1, 2, (n - 1, 2))
    steps[rng.random(n - 1) < 0.05] *= 3
    return np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)


def _strokes(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    loop = np.rint(np.column_stack([20 + 9 * np.cos(t), 20 + 6 * np.sin(t)]))
    line = np.column_stack([np.arange(10.0), np.full(10, 3.0)])
    out = [loop, np.vstack([loop, loop[:1]]), line, np.vstack([line, line[::-1][1:]]), line[:2], line[:1]]
    out += [_walk(rng, int(rng.integers(2, 90))) for _ in range(6)]
    out += [_walk(rng, 30) + rng.choice([0.0, 0.25, -0.5], (30, 2))]
    return out


def _edges_one_by_one(strokes: list[np.ndarray], tol: float) -> np.ndarray:
    segs = [segments(piece, tol) for s in strokes if len(s) >= 2 for piece in _turns(s)]
    segs = [s for s in segs if len(s)]
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tol", [0.5, 1.0, 2.0])
def test_edges_in_one_pass_are_each_pieces_segments(seed, tol):
    strokes = _strokes(seed)
    rng = np.random.default_rng(seed)
    for pick in [strokes, strokes[:1], strokes[4:6], [strokes[i] for i in rng.permutation(len(strokes))[:5]]]:
        got, want = edges(pick, tol), _edges_one_by_one(pick, tol)
        assert got.shape == want.shape and np.array_equal(got, want)


def test_edges_of_far_off_or_non_finite_strokes_take_segments():
    line = np.column_stack([np.arange(10.0), np.full(10, 3.0)])
    for bad in (line * 1e120, np.vstack([line, [[np.nan, 1.0]]])):
        pieces = [line, bad]
        assert runs.plain_edges([p for s in pieces for p in _turns(s)], 1.0) is None
        assert np.array_equal(edges(pieces, 1.0), _edges_one_by_one(pieces, 1.0), equal_nan=True)
    assert edges([], 1.0).shape == (0, 2, 2)


@pytest.mark.parametrize("seed", range(4))
def test_cell_index_with_queries_off_its_box(seed):
    rng = np.random.default_rng(seed)
    b = rng.integers(10, 30, (150, 2)).astype(float)
    index = CellIndex.of(b)
    assert index is not None
    far = np.vstack([rng.integers(-60, 90, (120, 2)).astype(float), [[-1e5, 20.0], [20.0, 1e5], [35.5, 9.25]]])
    parts = [far, b + 0.5, rng.random((60, 2)) * 40]
    for a, (near_a, near_b) in zip(parts, nearest_both(parts, b, index)):
        assert np.array_equal(near_a, brute_nearest(a, b, "euclidean"))
        assert np.array_equal(near_b, brute_nearest(b, a, "euclidean"))


def test_a_crowded_reference_has_no_cell_index():
    b = np.repeat(np.array([[5.0, 5.0], [6.0, 5.0]]), 20, axis=0)  # 40 points in a 5x5 block
    assert CellIndex.of(b) is None
