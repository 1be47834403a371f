"""The polygon scorer's shortcuts of speed round 7, each held to the form it replaced, ``repr`` for
``repr`` (a last-bit difference, a nan's place or a zero's sign shows):

* ``PolygonModel.from_estimate`` finds repeated points (and a closing point equal to the first) by
  comparing the points as complex numbers, not column by column;
* ``_corner_order`` rolls the corners clockwise by one index table and gives them as plain rows;
* ``score_polygon``'s placement gaps are taken x and y apart from one ``take`` of the points;
* ``corners._corners_fit`` looks first at the corner of a pair that is not ``m``, and
  ``corners._refine`` stops as soon as no corner moves;
* ``corners.simplify_closed`` skips ``_drop_shallow`` and ``_refine`` when ``_settled`` tells from
  what the ring remembers that neither would change a corner.
"""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.polygon.matching import corner_order as _corner_order
from shape_asserts.families.polygon.plain import rolls
from shape_asserts.families.polygon.scorer import _asked, score_polygon
from shape_asserts.geometry.corners import (
    Pair,
    _corners_fit,
    _offset,
    _refine,
    _refine_moves,
    _settled,
    _square_band,
    simplify_closed,
)
from shape_asserts.geometry.fit import PolygonModel
from shape_asserts.geometry.fit.polygon import orientation
from shape_asserts.geometry.points import roll_rows
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.runs import Ring


def _old_repeats(pts: np.ndarray) -> tuple[np.ndarray, bool]:
    """from_estimate's repeats and its test for a drawing without any, as they were."""
    same = pts[1:] == pts[:-1]
    repeats = same[:, 0] & same[:, 1]
    return repeats, bool(not repeats.any() and (len(pts) == 1 or pts[-1].tolist() != pts[0].tolist()))


def _new_repeats(pts: np.ndarray) -> tuple[np.ndarray, bool]:
    """The same, as from_estimate now finds them."""
    z = np.ascontiguousarray(pts).view(np.complex128)[:, 0]
    repeats = z[1:] == z[:-1]
    return repeats, bool(not repeats.any() and (len(pts) == 1 or z[-1] != z[0]))


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_repeats_as_complex_numbers_are_the_columns_repeats(kind, odd_floats):
    rng = np.random.default_rng(700 + kind)
    for _ in range(400):
        n = int(rng.integers(1, 12))
        pts = odd_floats(rng, (n, 2), kind, whole=(-1, 2))
        if rng.random() < 0.3:  # a copied row, a -0.0 beside a 0.0, a row read through a strided view
            pts[rng.integers(0, n)] = pts[rng.integers(0, n)]
        if rng.random() < 0.2:
            pts[pts == 0.0] = -0.0 if rng.random() < 0.5 else 0.0
        if rng.random() < 0.3:
            pts = np.column_stack([pts, rng.normal(size=n)])[:, :2]  # not contiguous
        old, old_clean = _old_repeats(pts)
        new, new_clean = _new_repeats(pts)
        assert new.tolist() == old.tolist() and new_clean == old_clean, pts.tolist()


def test_from_estimate_finds_the_corners_with_repeats_a_closing_point_or_strided_rows():
    square = np.array([[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3], [2, 3], [1, 3], [0, 3], [0, 2], [0, 1]])
    corners = {(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (0.0, 3.0)}
    drawn = square.astype(float)
    # as drawn; closed by its first point; every point twice; its columns swapped (a strided view)
    for pts in (drawn, np.vstack([drawn, drawn[:1]]), np.repeat(drawn, 2, axis=0), drawn[:, ::-1]):
        m = PolygonModel.from_estimate(pts, 0.5, 0.0)
        assert isinstance(m, PolygonModel)
        assert {(x, y) for x, y in m.vertices.tolist()} == corners
        assert all(type(i) is int for i in m.indices) and pts[list(m.indices)].tolist() == m.vertices.tolist()
        assert (m.ring is not None) == (pts is drawn or pts.base is drawn)


def _old_best_shift(ring: np.ndarray, target: np.ndarray) -> int:
    step = ring[rolls(len(target))] - target
    gap = np.hypot(step[:, :, 0], step[:, :, 1])
    return int(np.add.reduce(gap, axis=1).argmin())


def _old_corner_order(
    corners: np.ndarray, indices: tuple[int, ...], target: np.ndarray
) -> tuple[list[int], bool, np.ndarray]:
    """_corner_order as it was: the clockwise ring made, rolled by np.roll's two slices."""
    k = len(indices)
    forward = orientation(corners) >= 0
    order = list(range(k)) if forward else [0] + list(range(k - 1, 0, -1))
    ring = corners[order]
    shift = _old_best_shift(ring, target)
    return [int(indices[order[(i + shift) % k]]) for i in range(k)], forward, roll_rows(ring, -shift)


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_corner_order_by_one_table_is_the_rolled_ring(kind, odd_floats):
    rng = np.random.default_rng(710 + kind)
    for _ in range(400):
        k = int(rng.integers(3, 14))
        corners = odd_floats(rng, (k, 2), kind, whole=(-3, 4))
        target = odd_floats(rng, (k, 2), kind, whole=(-3, 4))
        indices = tuple(int(i) for i in np.sort(rng.choice(1000, size=k, replace=False)))
        with np.errstate(all="ignore"):
            want = _old_corner_order(corners, indices, target)
            got = _corner_order(corners, indices, target)
        assert got[0] == want[0] and got[1] == want[1], (corners.tolist(), target.tolist())
        assert repr(got[2]) == repr(want[2].tolist()), (corners.tolist(), target.tolist())


def _old_placement(pts: np.ndarray, idx: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The Chebyshev gaps of the points about each corner to its fair cells ((n, 4, 2)), as they were."""
    px, py = pts[idx, 0][:, None, :], pts[idx, 1][:, None, :]
    return np.minimum.reduce(np.maximum(np.abs(cells[:, :, 0, None] - px), np.abs(cells[:, :, 1, None] - py)), axis=1)


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_placement_gaps_x_and_y_apart_are_the_columns_gaps(kind, odd_floats):
    rng = np.random.default_rng(720 + kind)
    for _ in range(300):
        n, k = int(rng.integers(8, 40)), int(rng.integers(3, 11))
        pts = odd_floats(rng, (n, 2), kind)
        idx = (rng.integers(0, n, size=k)[:, None] + np.arange(-3, 4)) % n
        cells = odd_floats(rng, (k, 4, 2), kind)
        with np.errstate(all="ignore"):
            want = _old_placement(pts, idx, cells)
            gap = cells.transpose(2, 0, 1)[..., None].copy() - pts.take(idx, axis=0).transpose(2, 0, 1)[:, :, None, :]
            np.abs(gap, out=gap)
            got = np.minimum.reduce(np.maximum(gap[0], gap[1]), axis=1)
        assert repr(got.tolist()) == repr(want.tolist()), (pts.tolist(), idx.tolist(), cells.tolist())


def test_the_asked_cells_are_the_fair_cells_x_and_y_apart():
    asked = _asked(np.array([[10.0, 10.2], [20.5, 3.0], [15.4, 18.6]]))
    assert asked.cells.shape == (2, 3, 4, 1) and not asked.cells.flags.writeable
    for i, fair in enumerate(asked.fair):
        want = [fair[min(c, len(fair) - 1)] for c in range(4)]
        assert [(x, y) for x, y in zip(asked.cells[0, i, :, 0].tolist(), asked.cells[1, i, :, 0].tolist())] == want


def test_a_failing_placement_and_straightness_still_say_where():
    # a square with its corner (30, 10) drawn at (34, 14): placement fails, and says where
    target = np.array([[10.0, 10.0], [30.0, 10.0], [30.0, 30.0], [10.0, 30.0]])
    pts = np.asarray(raster_polyline([(10, 10), (34, 14), (30, 30), (10, 30), (10, 10)]), dtype=float)[:-1]
    result = score_polygon(pts, vertices=target, start=(10, 10), direction="cw")
    checks = {c.name: c for c in result.checks}
    assert checks["vertices"].passed and checks["vertices"].detail == ""
    assert not checks["placement"].passed
    assert checks["placement"].detail.startswith("no corner on the asked vertex (30,10) (cell (30,10)); the nearest")
    assert checks["placement"].detail.endswith(f"{checks['placement'].value:g} cell(s) off")
    # a square drawn with a bulging side: straightness fails, and names the point
    pts = np.asarray(raster_polyline([(10, 10), (20, 11), (30, 10), (30, 30), (10, 30), (10, 10)]), dtype=float)[:-1]
    checks = {c.name: c for c in score_polygon(pts, vertices=target, start=(10, 10), direction="cw").checks}
    assert checks["vertices"].passed and checks["placement"].passed and checks["placement"].detail == ""
    assert not checks["straightness"].passed and checks["straightness"].indices == (5,)
    assert checks["straightness"].detail == (
        "point #5 (15,11) is 1.00 cells off the straight side between the asked vertices"
    )


def _old_corners_fit(ring: Ring, idx: list[int], deep: list[Pair], epsilon: float) -> list[Pair]:
    """corners._corners_fit as it was: corner j looked at first, then j + 1."""
    n, k = ring.n, len(idx)
    xl, yl = ring.x.data, ring.y.data
    lo, hi = _square_band(epsilon)
    out = []
    for pair in deep:
        j, a, m, d = pair
        for b in (idx[j], idx[(j + 1) % k]):
            qx, qy = _offset(xl, yl, (b, a, m) if (b - a) % n <= (m - a) % n else (b, m, d))
            sq = qx * qx + qy * qy
            if sq < lo:
                continue
            if sq > hi or not np.hypot(np.array([qx]), np.array([qy]))[0] <= epsilon:
                break
        else:
            out.append(pair)
    return out


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_corners_fit_in_either_order_fits_the_same_pairs(kind, odd_floats):
    rng = np.random.default_rng(730 + kind)
    for _ in range(400):
        n = int(rng.integers(6, 30))
        pts = odd_floats(rng, (n, 2), kind, whole=(0, 5))
        idx = sorted(int(i) for i in rng.choice(n, size=int(rng.integers(4, min(n, 10))), replace=False))
        k = len(idx)
        deep = []
        for j in range(k):
            a, d = idx[j - 1], idx[(j + 2) % k]
            between = [(a + s) % n for s in range(1, (d - a) % n)]
            # m anywhere between a and d, often one of the pair itself (as for a square's corners)
            m = int(rng.choice([idx[j], idx[(j + 1) % k], *between]))
            deep.append((j, a, m, d))
        eps = float(rng.choice([0.5, 1.0, 2.0, 1e-300, 1e300, np.inf]))
        ring = Ring(pts)
        with np.errstate(all="ignore"):
            assert _corners_fit(ring, idx, deep, eps) == _old_corners_fit(ring, idx, deep, eps), (pts.tolist(), deep)


def _old_refine(ring: Ring, idx: list[int], rounds: int = 4) -> list[int]:
    """corners._refine as it was: every corner walked even when none moves."""
    n, k = ring.n, len(idx)
    if k < 3:
        return idx
    idx = list(idx)
    for _ in range(rounds):
        moved = False
        pre = _refine_moves(ring, idx, range(k), pairs_along=k > 3)
        for j in range(k):
            p, q = idx[j - 1], idx[(j + 1) % k]
            if (q - p) % n < 2:
                continue
            got = pre.get(j)
            if got is None or got[0] != (p, q):
                got = _refine_moves(ring, idx, [j])[j]
            if got[1] is not None:
                idx[j], moved = got[1], True
        if not moved:
            break
    return sorted(idx)


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_refine_stopping_when_none_moves_refines_alike(kind, odd_floats):
    rng = np.random.default_rng(740 + kind)
    for _ in range(300):
        n = int(rng.integers(4, 40))
        pts = odd_floats(rng, (n, 2), kind, whole=(0, 6))
        idx = sorted(int(i) for i in rng.choice(n, size=int(rng.integers(3, min(n, 9) + 1)), replace=False))
        with np.errstate(all="ignore"):
            assert _refine(Ring(pts), idx) == _old_refine(Ring(pts), idx), (pts.tolist(), idx)


def _wobbly_polygon(rng: np.random.Generator, odd: bool) -> np.ndarray:
    """A rastered polygon of 3 to 10 corners, sometimes wobbled; ``odd``: scaled by a power of ten."""
    k = int(rng.integers(3, 11))
    ang = np.sort(rng.uniform(0, 2 * np.pi, size=k))
    r = rng.uniform(5, 20, size=k)
    v = np.round(np.column_stack([25 + r * np.cos(ang), 25 + r * np.sin(ang)]))
    pts = np.asarray(raster_polyline(np.vstack([v, v[:1]])), dtype=float)[:-1]
    if rng.random() < 0.4:
        pts = pts + rng.integers(-1, 2, size=pts.shape) * (rng.random(len(pts)) < 0.15)[:, None]
    return pts * 10.0 ** int(rng.integers(-3, 4)) if odd else pts


@pytest.mark.parametrize("odd", [False, True])
def test_settled_corners_are_what_drop_and_refine_leave(odd, monkeypatch):
    import shape_asserts.geometry.corners as corners

    rng = np.random.default_rng(750 + odd)
    cases = []
    for _ in range(300):
        pts = _wobbly_polygon(rng, odd)
        scale = float(np.abs(pts).max()) / 45.0 if odd else 1.0
        eps = float(rng.choice([1.0, 1.4, 2.0])) * scale
        cases.append((pts, eps, float(rng.choice([0.0, 3.0, 6.0])) * scale, int(rng.integers(0, 11))))
    got = [simplify_closed(p, e, min_side=s, ahead=a).tolist() for p, e, s, a in cases]
    monkeypatch.setattr(corners, "_settled", lambda ring, idx, epsilon: False)  # the former path, always
    want = [simplify_closed(p, e, min_side=s, ahead=a).tolist() for p, e, s, a in cases]
    assert got == want
    taken = []
    monkeypatch.setattr(corners, "_settled", lambda ring, idx, epsilon: taken.append(_settled(ring, idx, epsilon)))
    for pts, eps, side, ahead in cases:
        simplify_closed(pts, eps, min_side=side, ahead=ahead)
    assert 50 < sum(map(bool, taken)) < len(taken)  # the shortcut is taken, and so is the full path
