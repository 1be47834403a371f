"""Round 8 of the shared nearest searches, old form against new, bit for bit: an outline's cell
index read by sample (``sample_corner``, ``sample_d2``) for an answer of whole points gives the
minima of every pair, as the by-corner listing (now made only when a point off the grid asks)
does; and :func:`.nearest.nearest_both` through ``b``'s own index (which no longer re-checks
``b``'s range) gives :func:`.nearest.nearest_sq` both ways."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry import nearest_kernels
from shape_asserts.geometry.nearest import CellIndex, brute_nearest, nearest_both, nearest_sq
from shape_asserts.geometry.nearest_xy import Outline


def _curve(rng: np.random.Generator, kind: int) -> tuple[np.ndarray, bool]:
    if kind == 0:
        t = np.linspace(0, 2 * np.pi, int(rng.integers(200, 900)), endpoint=False)
        return np.column_stack([50 + rng.uniform(5, 40) * np.cos(t + 0.3), 50 + rng.uniform(5, 40) * np.sin(t)]), True
    if kind == 1:
        k = int(rng.integers(3, 9))
        t = np.sort(rng.uniform(0, 2 * np.pi, k))
        return np.column_stack([30 + 20 * np.cos(t), 30 + 20 * np.sin(t)]) + rng.uniform(0, 1, (k, 2)), True
    t = np.linspace(0, 6 * np.pi, 600)
    return np.column_stack([40 + t * np.cos(t), 40 + t * np.sin(t)]), False


def _whole_answers(rng: np.random.Generator, curve: np.ndarray) -> list[np.ndarray]:
    near = np.rint(curve[rng.integers(0, len(curve), 220)] + rng.normal(0, 0.8, (220, 2)))
    lo, hi = curve.min(axis=0) - 6, curve.max(axis=0) + 6
    return [
        near,
        np.concatenate([near, near[:50]]),  # repeats
        np.floor(rng.uniform(lo, hi, (180, 2))),
        np.concatenate([near[:100], near[:20] + 500.0, near[:10] - 500.0]),  # beyond the index's box
        np.concatenate([near, np.full((3, 2), -0.0)]),  # signed zeros
    ]


@pytest.mark.parametrize("seed", range(6))
def test_whole_answers_through_the_sample_table_give_every_pair_s_minima(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for kind in range(3):
        curve, closed = _curve(rng, kind)
        outline = Outline(curve, closed=closed, center=(40.0, 40.0))
        answers = _whole_answers(rng, curve)
        for pts in answers + answers:  # the index is built at the third search: both sides of it
            got = outline.nearest_sq(pts)
            want = brute_nearest(outline.ref, pts, "euclidean")
            assert got.tobytes() == want.tobytes()
            assert got.tobytes() == nearest_sq(outline.ref, pts, distinct=True).tobytes()
        assert outline._cells is not None and outline._cells.ok
        assert outline._cells._by_corner is None  # whole points never asked for the by-corner listing


def test_off_grid_points_after_whole_ones_take_the_by_corner_listing() -> None:
    rng = np.random.default_rng(7)
    curve, closed = _curve(rng, 0)
    outline = Outline(curve, closed=closed, center=(50.0, 50.0))
    whole = np.rint(curve[::4])
    for _ in range(3):
        outline.nearest_sq(whole)
    cells = outline._cells
    assert cells is not None and cells._by_corner is None
    off = whole + rng.uniform(-0.5, 0.5, whole.shape)
    mixed = np.concatenate([whole[:60], off[:60]])
    for pts in (off, mixed, whole):
        assert outline.nearest_sq(pts).tobytes() == brute_nearest(outline.ref, pts, "euclidean").tobytes()
    assert cells._by_corner is not None
    # the by-corner listing is made once and holds every pair the sample table holds
    refs, first, last = cells.by_corner()
    assert cells.by_corner()[0] is refs and cells.refs is refs and cells.ref_first is first
    assert (last == first[1:]).all() and (first[1:] >= first[:-1]).all()
    assert int(first[-1]) == len(cells._listing[0]) == len(refs)


@pytest.mark.parametrize("seed", range(4))
def test_nearest_both_through_b_s_own_index_is_nearest_sq_both_ways(seed: int) -> None:
    rng = np.random.default_rng(seed)
    b = np.rint(rng.uniform(0, 40, (190, 2)))
    b.flags.writeable = False
    index = CellIndex.of(b)
    assert index is not None
    parts = [np.rint(b[:150] + rng.normal(0, 1.5, (150, 2))), b[:120] + rng.uniform(-0.5, 0.5, (120, 2))]
    for given in (parts, parts[:1], [np.concatenate([parts[0], np.array([[np.nan, 1.0], [2e6, 0.0]])])]):
        for ab, a in zip(nearest_both(given, b, index), given):
            assert ab[0].tobytes() == nearest_sq(a, b).tobytes()
            assert ab[1].tobytes() == nearest_sq(b, a).tobytes()


def _scene_parts(rng: np.random.Generator, b: np.ndarray) -> list[list[np.ndarray]]:
    whole = np.rint(b[rng.integers(0, len(b), 160)] + rng.normal(0, 1.2, (160, 2)))
    off = whole[:140] * 0.97 + rng.uniform(-0.5, 0.5, (140, 2))
    far = np.concatenate([whole[:100], whole[:15] + 400.0, whole[:15] - 400.0])  # beyond the index's box
    signed = np.concatenate([whole[:100], np.full((4, 2), -0.0), np.zeros((3, 2))])
    return [[whole], [off], [off, whole], [whole, off], [whole, far, off, signed], [far], [signed, whole]]


@pytest.fixture
def any_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index's tables made whatever its slots (these references have fewer than the default asks)."""
    monkeypatch.setattr(nearest_kernels, "_WHOLE_SLOTS", 0)


@pytest.mark.usefixtures("any_slots")
@pytest.mark.parametrize("seed", range(6))
def test_whole_parts_through_the_index_s_tables_are_nearest_sq_both_ways(seed: int) -> None:
    rng = np.random.default_rng(seed)
    b = np.rint(rng.uniform(0, 45, (200, 2)))
    if seed % 2:
        b = b + rng.uniform(-0.5, 0.5, b.shape)  # a reference off the grid: its points' cells as floored
    b.flags.writeable = False
    index = CellIndex.of(b)
    assert index is not None
    cases = _scene_parts(rng, b)
    for given in cases + cases:  # the tables are made at the index's fourth use: both sides of it
        for ab, a in zip(nearest_both(given, b, index), given):
            assert ab[0].tobytes() == nearest_sq(a, b).tobytes()
            assert ab[1].tobytes() == nearest_sq(b, a).tobytes()
    assert index.whole.ready


@pytest.mark.usefixtures("any_slots")
@pytest.mark.parametrize("seed", range(4))
def test_the_index_s_tables_give_the_pairs_minima_bit_for_bit(seed: int) -> None:
    """Before :func:`.nearest.nearest_both` settles anything: the tables' minima are the pairs'."""
    from shape_asserts.geometry.nearest import _pairs_through_index, _through_index

    rng = np.random.default_rng(100 + seed)
    b = np.rint(rng.uniform(-20, 30, (150, 2))) + (0.25 if seed % 2 else 0.0)
    b.flags.writeable = False
    index = CellIndex.of(b)
    assert index is not None
    for given in _scene_parts(rng, b):
        a = np.concatenate(given)
        cells = np.clip(np.floor(a).astype(np.int64) - index.origin, 0, index.corner)
        want = _pairs_through_index(given, a, cells[:, 1] * index.width + cells[:, 0], index)
        for _ in range(2):
            got = _through_index(given, a, index)
            assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
    assert index.whole.ready


def test_an_index_of_few_slots_never_makes_the_tables() -> None:
    # points 5 cells apart each way: the 5 × 5 cells about any cell hold one of them
    b = np.array([[x, y] for x in range(0, 46, 5) for y in range(0, 46, 5)], dtype=float)
    b.flags.writeable = False
    index = CellIndex.of(b)
    assert index is not None and index.table.shape[0] < nearest_kernels._WHOLE_SLOTS
    part = np.rint(b + 0.4)
    for _ in range(4):
        ((near_a, near_b),) = nearest_both([part], b, index)
        assert near_a.tobytes() == nearest_sq(part, b).tobytes() and near_b.tobytes() == nearest_sq(b, part).tobytes()
    assert not index.whole.ready
