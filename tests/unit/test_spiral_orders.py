"""Two shortcuts of the spiral's angle measures, against the forms they stand for:

- ``unwrapped_angles`` looks for steps across the center (within 1e-6 of ±π) only when the largest
  step is that large (every step is at most π), a NaN taking the mask as before;
- ``lap_gaps`` of an angle that never turns back takes its points a lap on as a tail and skips the
  sort (``ordered``): the same indices and gaps as the mask and the sort.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import shape_asserts.geometry.fit.spiral as sp


def _unwrapped_reference(points: np.ndarray, center: tuple[float, float], min_radius: float):  # type: ignore[no-untyped-def]
    """unwrapped_angles with the mask always computed (copied from the form before)."""
    rel, r = sp.offsets_about(points, center)
    idx = np.flatnonzero((r > 0) & (r >= min_radius))
    if idx.size == 0:
        return idx, np.zeros(0)
    ang = np.arctan2(rel[idx, 1], rel[idx, 0])
    step = (np.diff(ang) + np.pi) % (2 * np.pi) - np.pi
    across = np.abs(np.abs(step) - np.pi) < 1e-6
    if across.any():
        step[across] = np.pi if step[~across].sum() >= 0 else -np.pi
    return idx, np.concatenate([[0.0], np.cumsum(step)])


def _drawings(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(30):
        n = int(rng.integers(1, 400))
        if i % 3 == 0:  # through the center and back: steps of exactly ±π
            pts = rng.choice([-1.0, 1.0], size=(n, 1)) * rng.integers(2, 20, size=(n, 1)) * [[1.0, 0.0]] + 25
        elif i % 3 == 1:
            t = np.linspace(0, rng.uniform(0.5, 5) * 2 * np.pi, n) * rng.choice([-1, 1])
            r = 2 + rng.uniform(2, 7) / (2 * np.pi) * np.abs(t) + rng.normal(0, i % 4, n)
            pts = np.round(np.column_stack([25 + r * np.cos(t), 25 + r * np.sin(t)]))
        else:
            pts = rng.integers(0, 50, (n, 2)).astype(float)
        if i % 5 == 0:
            pts[rng.integers(0, n)] = np.nan
        out.append(pts)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_unwrapped_angles_as_the_mask(seed: int) -> None:
    for pts in _drawings(seed):
        for min_radius in (0.0, 1.5):
            with np.errstate(invalid="ignore"):
                got = sp.unwrapped_angles(pts, (25, 25), min_radius=min_radius)
                want = _unwrapped_reference(pts, (25, 25), min_radius)
            assert got[0].tolist() == want[0].tolist()
            assert got[1].tobytes() == want[1].tobytes()


def _lap_gaps_sorted(points: np.ndarray, center: tuple[float, float], window: float):  # type: ignore[no-untyped-def]
    """lap_gaps with the mask and the sort always (the form before)."""
    idx, theta = sp.unwrapped_angles(points, center, min_radius=1.5)
    if idx.size < 2:
        return idx[:0], np.zeros(0)
    th = theta if theta[-1] >= 0 else -theta
    r = sp.radii_about(points, center)[idx]
    keep = np.flatnonzero(th >= th.min() + 2 * math.pi - 1e-9)
    return idx[keep], r[keep] - sp._lap_medians(th, r, th[keep] - 2 * math.pi, window)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("window", [0.25, 0.05])
def test_lap_gaps_ordered_as_sorted(seed: int, window: float) -> None:
    ordered = 0
    for pts in _drawings(seed):
        with np.errstate(invalid="ignore"):
            fast = sp.lap_gaps(pts, (25, 25), window=window)
            slow = _lap_gaps_sorted(pts, (25, 25), window)
            theta = sp.unwrapped_angles(pts, (25, 25), min_radius=1.5)[1]
        ordered += theta.size > 1 and bool(np.all(np.diff(theta) >= 0) or np.all(np.diff(theta) <= 0))
        assert fast[0].tolist() == slow[0].tolist()
        assert fast[1].tobytes() == slow[1].tobytes()
    assert ordered  # the shortcut is reached


def test_ordered_medians_as_sorted() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        th = np.sort(np.round(rng.uniform(0, 30, int(rng.integers(2, 300))) * 8) / 8)
        r = rng.uniform(0, 20, th.size)
        targets = th[th >= th[0] + 2 * math.pi] - 2 * math.pi
        a = sp._lap_medians(th, r, targets, 0.25, ordered=True)
        assert a.tobytes() == sp._lap_medians(th, r, targets, 0.25).tobytes()
