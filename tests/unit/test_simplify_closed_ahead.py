"""``simplify_closed``'s shortcuts change when the work is done, never what is found.

``ahead`` (the expected corner count) only moves measurements into an earlier pass, and
``_point_dists`` measures a few points in plain floats: each is held to the form it replaces,
``repr`` for ``repr`` (a last-bit difference, a nan's place or a zero's sign shows).
"""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.polygon.matching import sides as _sides
from shape_asserts.geometry.corners import _point_dists, simplify_closed
from shape_asserts.geometry.fit import PolygonModel
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.runs import Ring


#: Values that find the edges: signed zeros, the largest and smallest floats, infinities, nan.
@pytest.mark.parametrize("kind", [0, 1, 2])
def test_point_dists_in_plain_floats_are_the_rings(kind, odd_floats):
    rng = np.random.default_rng(50 + kind)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        pts = odd_floats(rng, (n, 2), kind)
        triples = [tuple(int(i) for i in rng.integers(0, n, size=3)) for _ in range(int(rng.integers(1, 12)))]
        with np.errstate(all="ignore"):
            want = Ring(pts).point_dist(triples)
            got = _point_dists(Ring(pts), triples)
        assert repr(got) == repr(want), (pts.tolist(), triples)


def _polygon(rng: np.random.Generator) -> np.ndarray:
    k = int(rng.integers(3, 11))
    ang = np.sort(rng.uniform(0, 2 * np.pi, size=k))
    r = rng.uniform(5, 20, size=k)
    v = np.round(np.column_stack([25 + r * np.cos(ang), 25 + r * np.sin(ang)]))
    pts = raster_polyline(np.vstack([v, v[:1]]))
    if rng.random() < 0.3:  # a wobble here and there
        pts = pts + rng.integers(-1, 2, size=pts.shape) * (rng.random(len(pts)) < 0.1)[:, None]
    return np.asarray(pts, dtype=float)


def test_ahead_finds_what_no_guess_finds():
    rng = np.random.default_rng(60)
    for _ in range(300):
        pts = _polygon(rng)
        if len(pts) > 1 and (pts[-1] == pts[0]).all():
            pts = pts[:-1]
        eps = float(rng.choice([1.0, 1.4, 2.0]))
        side = float(rng.choice([0.0, 3.0, 6.0]))
        want = simplify_closed(pts, eps, min_side=side).tolist()
        for ahead in range(1, 14):
            assert simplify_closed(pts, eps, min_side=side, ahead=ahead).tolist() == want, (pts.tolist(), ahead)


def _old_corners(pts: np.ndarray, eps: float) -> list[int]:
    """``PolygonModel.from_estimate``'s corners as it found them before (a keep mask, then the closing point)."""
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = (pts[1:, 0] != pts[:-1, 0]) | (pts[1:, 1] != pts[:-1, 1])
    idx = keep.nonzero()[0]
    if len(idx) > 1 and pts[idx[-1]].tolist() == pts[idx[0]].tolist():
        idx = idx[:-1]
    found = simplify_closed(pts if len(idx) == len(pts) else pts[idx], eps, min_side=3.0 * eps)
    return (found if len(idx) == len(pts) else idx[found]).tolist()


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_from_estimate_drops_repeats_as_before(kind, odd_floats):
    rng = np.random.default_rng(70 + kind)
    for _ in range(200):
        if kind == 3:
            pts = _polygon(rng)
        else:
            pts = odd_floats(rng, (int(rng.integers(1, 30)), 2), kind)
        if rng.random() < 0.5:  # points written twice, and now and then the start again at the end
            pts = np.repeat(pts, rng.integers(1, 3, size=len(pts)), axis=0)
        if rng.random() < 0.3:
            pts = np.vstack([pts, pts[:1]])
        with np.errstate(all="ignore"):
            want = _old_corners(pts, 1.0)
            got = PolygonModel.from_estimate(pts, 1.0)
        assert (list(got.indices) if got else []) == (want if len(want) >= 3 else []), pts.tolist()


@pytest.mark.parametrize("scale", [1.0, 1e6, 1e99])
def test_forward_sides_from_their_inner_runs_are_the_whole_sides(scale):
    """The scorer's straightness reads a forward side on whole coordinates from its inner points
    (its ends lie exactly 0 from it): the same as measuring the side, ends included."""
    rng = np.random.default_rng(80)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        pts = np.floor(rng.integers(-5, 6, size=(n, 2)) * scale * rng.random())  # repeats and ties too
        pairs = [(int(p), int(c)) for p, c in rng.integers(0, n, size=(int(rng.integers(1, 10)), 2))]
        ring = Ring(pts)
        simplify_closed(pts, 1.0, ring=ring, ahead=4)  # the ring remembers some inner runs already
        got = _sides(ring, pairs, True, True)
        want = Ring(pts).farthest([(p, c, p, (c - p) % n + 1) for p, c in pairs])
        assert repr(got) == repr(want), (pts.tolist(), pairs)
        back = Ring(pts).farthest([(p, c, c, (p - c) % n + 1) for p, c in pairs])
        assert repr(_sides(Ring(pts), pairs, False, True)) == repr(back)


def test_a_scribble_is_not_measured_again_at_every_depth(monkeypatch):
    """``ahead`` looks ahead only while about the expected corners are kept: a 10,000-point scribble
    keeps thousands, and measuring their clean-up at each of its ~30 depths cost 9× the points
    (0.6 s a hostile answer instead of 0.05 s). The points measured stay within 2× of no guess."""
    measured: list[int] = []
    farthest = Ring.farthest

    def counting(self, runs):
        runs = list(runs)
        measured.append(sum(r[3] for r in runs))
        return farthest(self, runs)

    monkeypatch.setattr(Ring, "farthest", counting)
    pts = np.random.default_rng(0).integers(0, 50, (10_000, 2)).astype(float)
    guessed = simplify_closed(pts, 1.0, ahead=4)
    with_guess = sum(measured)
    measured.clear()
    assert simplify_closed(pts, 1.0).tolist() == guessed.tolist()
    assert with_guess <= 2 * sum(measured)


def test_along_finds_what_no_guess_finds():
    """``along``'s runs ride along a pass that measures ahead: what is found stays; each time it is
    asked, it gets the corners then held, sorted."""
    rng = np.random.default_rng(61)
    for _ in range(200):
        pts = _polygon(rng)
        if len(pts) > 1 and (pts[-1] == pts[0]).all():
            pts = pts[:-1]
        n = len(pts)
        eps = float(rng.choice([1.0, 1.4, 2.0]))
        side = float(rng.choice([0.0, 3.0, 6.0]))
        want = simplify_closed(pts, eps, min_side=side).tolist()
        asked: list[list[int]] = []

        def along(corners: list[int], asked: list[list[int]] = asked, n: int = n) -> list[tuple[int, int, int, int]]:
            asked.append(corners)
            return [(int(a), int(b), int(f), int(c)) for a, b, f, c in rng.integers(0, n, (3, 4)) if c > 0]

        for ahead in (2, 4, 7):
            got = simplify_closed(pts, eps, min_side=side, ahead=ahead, ring=Ring(pts), along=along)
            assert got.tolist() == want, (pts.tolist(), ahead)
        assert all(c == sorted(set(c)) for c in asked)
