"""The polygon scorer's plain-float and batched shortcuts give numpy's floats, bit for bit.

``np_sum``, ``orientation``, ``sides_and_angles`` and :class:`~shape_asserts.geometry.runs.Ring`
replace numpy calls on a few numbers (or many runs measured one at a time) for speed; a score's
every number must stay as it was, so each is held here to the form it replaces, ``repr`` for
``repr`` (a last-bit difference, a nan's place or a zero's sign shows).
"""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.polygon.plain import alternation, alternation_arrays
from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.distances import nearest_on_segment
from shape_asserts.geometry.fit.polygon import interior_angles, np_sum, orientation, side_lengths, sides_and_angles
from shape_asserts.geometry.runs import Ring


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_np_sum_adds_as_numpy_does(kind, odd_floats):
    rng = np.random.default_rng(kind)
    for n in list(range(0, 40)) + [63, 64, 65, 127, 128, 129, 200, 1000]:
        for _ in range(20):
            a = odd_floats(rng, n, kind, whole=(-1000, 1000))
            with np.errstate(all="ignore"):
                want, got = float(np.add.reduce(a)), np_sum(a.tolist())
            assert repr(got) == repr(want), (n, a.tolist())


def test_np_sum_of_negative_zeros_is_positive_zero_as_numpy_gives():
    for n in (1, 2, 7, 8, 9, 16, 17):
        assert repr(np_sum([-0.0] * n)) == repr(float(np.add.reduce(np.full(n, -0.0)))) == "0.0"


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_orientation_is_signed_area(kind, odd_floats):
    rng = np.random.default_rng(10 + kind)
    for k in list(range(3, 30)) + [127, 128, 129, 150]:
        for _ in range(10):
            v = odd_floats(rng, 2 * k, kind, whole=(-1000, 1000)).reshape(k, 2)
            with np.errstate(all="ignore"):
                assert repr(orientation(v)) == repr(signed_area(v))


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_sides_and_angles_are_side_lengths_and_interior_angles(kind, odd_floats):
    rng = np.random.default_rng(20 + kind)
    for k in list(range(1, 25)) + [128, 129]:
        for _ in range(10):
            v = odd_floats(rng, 2 * k, kind, whole=(-1000, 1000)).reshape(k, 2)
            with np.errstate(all="ignore"):
                want = (side_lengths(v).tolist(), interior_angles(v).tolist())
                got = sides_and_angles(v.tolist())
            assert repr(got) == repr(want)


def _farthest_one_at_a_time(pts: np.ndarray, run: tuple[int, int, int, int]) -> tuple[float, int]:
    """A run measured on its own: nearest_on_segment of its points, np.argmax's first largest (or first nan)."""
    n = len(pts)
    a, b, first, count = run
    pos = (first + np.arange(count)) % n
    d = nearest_on_segment(pts[pos], pts[a % n], pts[b % n])[0]
    k = int(np.argmax(d))
    return float(d[k]), int(pos[k])


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_ring_measures_every_run_as_one_at_a_time(kind, odd_floats):
    rng = np.random.default_rng(30 + kind)
    for _ in range(300):
        n = int(rng.integers(2, 50))
        if kind == 3:  # grid points with repeats: ties and segments of no length
            pts = rng.integers(0, 4, size=(n, 2)).astype(float)
        else:
            pts = odd_floats(rng, 2 * n, kind, whole=(-1000, 1000)).reshape(n, 2)
        ring = Ring(pts)
        for _ in range(3):
            k = int(rng.integers(1, 12))
            top = n if rng.random() < 0.8 else 3 * n  # now and then a run round the ring more than once
            runs = [
                (
                    int(rng.integers(-n, 2 * n)),
                    int(rng.integers(-n, 2 * n)),
                    int(rng.integers(-n, 2 * n)),
                    int(rng.integers(1, top + 1)),
                )
                for _ in range(k)
            ]
            with np.errstate(all="ignore"):
                got = ring.farthest(runs)
                want = [_farthest_one_at_a_time(pts, r) for r in runs]
            assert repr(got) == repr(want), runs
            triples = [tuple(int(i) for i in rng.integers(-n, 2 * n, size=3)) for _ in range(k)]
            with np.errstate(all="ignore"):
                got_d = ring.point_dist(triples)
                want_d = [_farthest_one_at_a_time(pts, (a, b, i, 1))[0] for i, a, b in triples]
            assert repr(got_d) == repr(want_d), triples


def test_ring_sides_are_hypot_of_the_steps():
    pts = np.array([[0.0, 0.0], [3.0, 4.0], [3.0, 10.0], [-1.0, 2.5]])
    ring = Ring(pts)
    idx = [0, 1, 2, 3]
    steps = np.roll(pts, -1, axis=0) - pts
    assert ring.sides(idx) == np.hypot(steps[:, 0], steps[:, 1]).tolist()


def test_ring_measures_many_runs_at_once_as_one_at_a_time():
    rng = np.random.default_rng(40)
    for _ in range(20):
        n = int(rng.integers(100, 400))
        pts = rng.integers(0, 50, size=(n, 2)).astype(float)
        runs = [
            (int(rng.integers(0, n)), int(rng.integers(0, n)), int(rng.integers(0, n)), int(rng.integers(1, 8)))
            for _ in range(150)
        ]
        assert repr(Ring(pts).farthest(runs)) == repr([_farthest_one_at_a_time(pts, r) for r in runs])


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_alternation_in_plain_floats_is_the_arrays_one(kind, odd_floats):
    rng = np.random.default_rng(50 + kind)
    for _ in range(300):
        k = int(rng.integers(3, 65))
        if kind == 2:  # a star's corners
            ang = np.linspace(0, 2 * np.pi, k, endpoint=False)
            r = np.where(np.arange(k) % 2 == 0, 30.0, 12.0)
            c = np.round(np.column_stack([50 + r * np.cos(ang), 50 + r * np.sin(ang)]))
        else:
            c = odd_floats(rng, 2 * k, kind, whole=(-1000, 1000)).reshape(k, 2)
        with np.errstate(all="ignore"):
            assert repr(alternation(c)) == repr(alternation_arrays(c))
