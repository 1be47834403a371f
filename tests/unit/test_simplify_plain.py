"""The plain-float Ramer–Douglas–Peucker of open strokes gives what the one-stretch-at-a-time numpy form gave.

:func:`~shape_asserts.geometry.simplify.rdp` (``to="line"``), ``simplify`` and ``segments`` take
:func:`~shape_asserts.geometry.runs.line_rdp` on coordinates that are numbers no larger than
``runs.PLAIN``: every stretch of one depth in one round, short stretches measured in plain floats.
Scores must not move by a bit, so each result is held to the form they replace (``_old_*``: the
numpy forms of 08dd32d, which these functions keep for what the plain form does not take): indices equal, edges byte for byte (a zero's sign, a nan's
place shows), on random strokes and on inputs made to find the edges: ties, collinear runs,
repeated points, strokes back at their start, nan and inf, huge and tiny floats, long strokes.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest

from shape_asserts.geometry import open_rdp, runs
from shape_asserts.geometry.simplify import rdp, segments, simplify

# --- the reference: the code these functions had before the plain-float form (08dd32d) ---------


def _old(fn):
    """``fn`` as 08dd32d had it: ``rdp``, ``simplify`` and ``segments`` keep their numpy forms of
    then, unchanged, for what the plain-float form does not take, so turning that form off gives
    them back (git diff 08dd32d -- shape_asserts/geometry/simplify.py: only the plain branches)."""

    def old(*args, **kwargs):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(runs, "plain", lambda pts: False)
            mp.setattr(runs, "largest", lambda pts: np.inf)  # what plain compares: not plain
            return fn(*args, **kwargs)

    return old


_old_rdp, _old_simplify, _old_segments = _old(rdp), _old(simplify), _old(segments)


# --- inputs --------------------------------------------------------------------------------------

_ODD = [0.0, -0.0, 1.0, -1.0, 0.5, 1e100, -1e100, 1e101, 1e200, 5e-324, -5e-324, 1e-300, np.inf, -np.inf, np.nan]


def _walk(rng: np.random.Generator, n: int, step: int = 1) -> np.ndarray:
    """A stroke of ``n`` cells, each at most ``step`` cells (Chebyshev) from the last."""
    return np.cumsum(rng.integers(-step, step + 1, size=(n, 2)), axis=0).astype(float)


def _inputs(seed: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    for n in [3, 4, 5, 6, 8, 12, 20, 31, 32, 33, 40, 64, 100, 200]:
        yield _walk(rng, n)
        yield _walk(rng, n, 2)
        yield rng.integers(0, 4, size=(n, 2)).astype(float)  # a small grid: repeats and ties everywhere
        yield rng.integers(0, 50, size=(n, 2)).astype(float)
        closed = _walk(rng, n)
        yield np.vstack([closed, closed[:1] + rng.integers(-1, 2, size=(1, 2))])  # ends next to its start
        yield np.vstack([closed, closed[::-1]])  # retraced: back exactly at its start
        yield rng.normal(size=(n, 2)) * 10.0 ** rng.integers(-8, 8)
        yield rng.normal(size=(n, 2)) * 1e99  # just inside the plain bound ...
        yield rng.normal(size=(n, 2)) * 1e-310  # subnormal
        # ... and any odd value anywhere (beyond the bound, inf, nan: the numpy form)
        odd = _walk(rng, n)
        at = rng.integers(0, n, size=rng.integers(1, 4))
        odd[at, rng.integers(0, 2, size=len(at))] = rng.choice(_ODD, size=len(at))
        yield odd
        yield rng.choice(_ODD, size=(n, 2))
    # coordinates whose products overflow: a point on the chord measures nan (inf - inf), which
    # np.argmax picks (and so keeps nothing) where a plain max would pass over it
    yield np.array([[0.0, 0.0], [5.0, 3.0], [1e200, 1e200], [2.0, 9.0], [2e200, 2e200]])
    yield np.array([[0.0, 0.0], [5.0, 3.0], [1e150, 1e150], [2.0, 9.0], [2e150, 2e150], [0.0, 1.0]])
    # symmetric zigzags: equal distances either side, the first must win
    for n in [5, 9, 17, 33, 65]:
        t = np.arange(n, dtype=float)
        yield np.column_stack([t, np.where(t % 2 == 1, 1.0, 0.0)])
        yield np.column_stack([t, np.where(t % 4 == 1, 2.0, np.where(t % 4 == 3, -2.0, 0.0))])
        yield np.column_stack([t, np.zeros(n)])  # one collinear run
        yield np.column_stack([t, t * 3.0])
        yield np.column_stack([np.zeros(n), np.zeros(n)])  # one cell repeated


def _long(seed: int) -> Iterator[np.ndarray]:
    """Long strokes, up to as many points as the parser takes."""
    rng = np.random.default_rng(seed)
    yield _walk(rng, 10_000)
    yield rng.integers(0, 50, size=(10_000, 2)).astype(float)
    yield _walk(rng, 3_000, 3) * 0.37
    yield np.vstack([_walk(rng, 2_000), [[np.nan, 0.0]], _walk(rng, 2_000)])


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


# --- the checks ----------------------------------------------------------------------------------


@pytest.fixture(params=[None, 0, 10**6], ids=["as-is", "all-numpy", "all-plain"])
def few(request, monkeypatch):
    """The threshold between numpy and plain floats as shipped, and each form alone."""
    if request.param is not None:
        monkeypatch.setattr(open_rdp, "FEW_POINTS", request.param)


@pytest.mark.parametrize("seed", [0, 1])
def test_open_stroke_simplification_matches_the_numpy_form(seed, few):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for pts in _inputs(seed):
            for tol in [0.0, 0.5, 1.0, 1.5, 2.0, 7.0, -1.0, np.inf, np.nan]:  # (-1: every point kept)
                want, got = _old_rdp(pts, tol, to="line"), rdp(pts, tol, to="line")
                assert _same(got, want), (pts.tolist(), tol)
                assert simplify(pts, tol) == _old_simplify(pts, tol), (pts.tolist(), tol)
                assert _same(segments(pts, tol), _old_segments(pts, tol)), (pts.tolist(), tol)


@pytest.mark.parametrize("seed", [2])
def test_edges_closed_or_not_and_of_any_length(seed):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for pts in _inputs(seed):
            for tol in [0.5, 1.0, 2.0]:
                for min_length, closed in [(0.0, True), (0.0, False), (3.0, None), (1.0, True), (-1.0, None)]:
                    want = _old_segments(pts, tol, min_length=min_length, closed=closed)
                    got = segments(pts, tol, min_length=min_length, closed=closed)
                    assert _same(got, want), (pts.tolist(), tol, min_length, closed)


def test_long_strokes(few):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for pts in _long(3):
            for tol in [1.0, 3.0]:
                assert _same(rdp(pts, tol, to="line"), _old_rdp(pts, tol, to="line"))
                assert _same(segments(pts, tol), _old_segments(pts, tol))


def test_rdp_to_the_segment_is_unchanged():
    rng = np.random.default_rng(7)
    for n in [3, 10, 50, 300]:
        for _ in range(20):
            pts = _walk(rng, n)
            assert _same(rdp(pts, 1.0), _old_rdp(pts, 1.0))


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_strokes(n):
    pts = np.arange(2 * n, dtype=float).reshape(n, 2)
    assert _same(rdp(pts, 1.0, to="line"), _old_rdp(pts, 1.0, to="line"))
    assert simplify(pts) == _old_simplify(pts)
    assert _same(segments(pts), _old_segments(pts))


def test_plain_is_a_bound_on_every_coordinate():
    assert runs.plain(np.array([[0.0, -1e100], [1e100, 3.0]]))
    for odd in [np.nan, np.inf, -np.inf, 1.5e100, -1e101]:
        assert not runs.plain(np.array([[0.0, 0.0], [odd, 1.0], [2.0, 2.0]]))
