"""The scene and multi-circle shortcuts give what the forms they replace give, bit for bit:
the multi scorer's int16 cell gap and the stick's runs of flags."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.multi.scorer import _cell_gap
from shape_asserts.families.scene.stick import _runs
from shape_asserts.families.scene.strokes import _closing
from shape_asserts.geometry.contours import intersection
from shape_asserts.geometry.distances import cell_distance


def _walk(rng: np.random.Generator, n: int) -> np.ndarray:
    """An 8-connected walk of ``n`` cells, with some repeats and jumps."""
    steps = rng.integers(-1, 2, (n - 1, 2))
    steps[rng.random(n - 1) < 0.05] *= 3
    return np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)


def _int16_cols(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(c.T.astype(np.int16, order="C") for c in (a, b))


@pytest.mark.parametrize("seed", range(5))
def test_cell_gap_on_int16_is_the_float_gap(seed):
    rng = np.random.default_rng(seed)
    for size in (1, 3, 40, 200):
        a = np.rint(rng.normal(0, 30, (size, 2)))
        b = np.rint(rng.normal(10, 30, (int(rng.integers(1, 120)), 2)))
        b[: len(b) // 3] = -0.0 * b[: len(b) // 3]  # -0.0 cells (rint of a small negative)
        want = _cell_gap(a, b, None)
        got = _cell_gap(a, b, _int16_cols(a, b))
        assert repr(got) == repr(want) and want == cell_distance(a, b)
        assert repr(_cell_gap(a, a, _int16_cols(a, a))) == repr(_cell_gap(a, a, None)) == "0.0"


@pytest.mark.parametrize("seed", range(5))
def test_runs_are_the_true_stretches(seed):
    rng = np.random.default_rng(seed)
    for n in (0, 1, 2, 7, 50):
        flags = (rng.random(n) < rng.random()).tolist()
        want, i = [], 0
        while i < n:
            if flags[i]:
                j = i + 1
                while j < n and flags[j]:
                    j += 1
                want.append((i, j))
                i = j
            else:
                i += 1
        assert _runs(flags) == want


@pytest.mark.parametrize("seed", range(4))
def test_contours_that_meet_have_cells_under_two_apart(seed):
    """The multi scorer skips ``intersection`` for a pair whose cells' least gap is 2 or more: a
    shared cell is 0 apart and a crossing's cells 1 apart."""
    rng = np.random.default_rng(seed)
    met = 0
    for _ in range(200):
        a, b = _walk(rng, 12), _walk(rng, 12) + rng.integers(-4, 5, 2)
        x = intersection(a, b)
        met += bool(x)
        if cell_distance(np.rint(a), np.rint(b)) >= 2:
            assert not x
    assert met  # some pairs do meet


def _closing_at_once(strokes, close_gap, grid_size):
    """``strokes._closing`` as it was: every stroke's grid check and closure in arrays."""
    long = [s for s in strokes if len(s) >= 3]
    if not long:
        return []
    sizes = [len(s) for s in long]
    every = np.concatenate(long)
    ok = np.logical_and.reduce(np.isfinite(every) & (every >= -1) & (every <= grid_size), axis=1)
    starts = np.cumsum([0, *sizes[:-1]])
    on_grid = np.logical_and.reduceat(ok, starts)
    closure = np.max(np.abs(every[starts + np.array(sizes) - 1] - every[starts]), axis=-1)
    keep = on_grid & (closure > 1) & (closure <= close_gap)
    return [long[i] for i in np.flatnonzero(keep).tolist()]


@pytest.mark.parametrize("seed", range(6))
def test_closing_strokes_are_those_the_arrays_found(seed):
    rng = np.random.default_rng(seed)
    strokes = []
    for _ in range(40):
        s = _walk(rng, int(rng.integers(1, 12)))
        if len(s) >= 3 and rng.random() < 0.5:
            s[-1] = s[0] + rng.integers(-3, 4, 2)  # ends near its start
        if rng.random() < 0.15:
            s[rng.integers(len(s))] = rng.choice([np.nan, np.inf, -5.0, 60.0])
        strokes.append(s)
    for gap in (1.5, 2.0, 3.0):
        got, want = _closing(strokes, gap, 50), _closing_at_once(strokes, gap, 50)
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want))
