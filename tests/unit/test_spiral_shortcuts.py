"""The spiral's measures without numpy's wrappers (``np.diff``, ``np.concatenate``, ``.mean()``,
``np.sum``) and with the offsets about the center computed once give the same floats, bit for bit,
as the forms they replace (copied here). And two that skip work on ordered angles:

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
from shape_asserts.geometry.fit.spiral import SpiralModel, mean_of, offsets_about, unwrapped_angles


def _angles_before(pts: np.ndarray, center: tuple[float, float], min_radius: float) -> tuple[np.ndarray, np.ndarray]:
    rel = pts - np.asarray(center, dtype=float)
    r = np.hypot(rel[:, 0], rel[:, 1])
    idx = np.flatnonzero((r > 0) & (r >= min_radius))
    if idx.size == 0:
        return idx, np.zeros(0)
    ang = np.arctan2(rel[idx, 1], rel[idx, 0])
    step = (np.diff(ang) + np.pi) % (2 * np.pi) - np.pi
    across = np.abs(np.abs(step) - np.pi) < 1e-6
    if across.any():
        step[across] = np.pi if step[~across].sum() >= 0 else -np.pi
    return idx, np.concatenate([[0.0], np.cumsum(step)])


def _line_before(th: np.ndarray, r: np.ndarray) -> tuple[float, float, float]:
    tm, rm = float(th.mean()), float(r.mean())
    var = float(np.sum((th - tm) ** 2))
    b = float(np.sum((th - tm) * (r - rm)) / var)
    a = rm - b * tm
    res = r - (a + b * th)
    sst = float(np.sum((r - rm) ** 2))
    r2 = 1.0 - float(np.sum(res * res)) / sst if sst > 0 else 0.0
    return a, b, r2


def _drawings() -> list[tuple[np.ndarray, tuple[float, float]]]:
    rng = np.random.default_rng(3)
    out = []
    for i in range(200):
        n = int(rng.integers(0, 300))
        t = np.sort(rng.uniform(0, 8 * np.pi, n)) if i % 2 else np.linspace(0, 6 * np.pi, n)
        r = 1.0 + (t * rng.uniform(0.3, 1.5)) + rng.normal(0, 0.3, n)
        pts = np.column_stack([25 + r * np.cos(t), 25 + r * np.sin(t)])
        if i % 3 == 0:
            pts = np.round(pts)
        if i % 5 == 0 and n > 4:
            pts[n // 2] = [25.0, 25.0]  # on the center
            pts[n // 3] = 2 * np.array([25.0, 25.0]) - pts[n // 3 - 1]  # straight across the center
        out.append((pts, (25.0, 25.0) if i % 4 else (24.5, 25.5)))
    return out


@pytest.mark.parametrize("min_radius", [0.0, 1.5])
def test_unwrapped_angles_as_before(min_radius: float) -> None:
    for pts, center in _drawings():
        want = _angles_before(pts, center, min_radius)
        for got in (
            unwrapped_angles(pts, center, min_radius=min_radius),
            unwrapped_angles(pts, center, min_radius=min_radius, about=offsets_about(pts, center)),
        ):
            assert got[0].tolist() == want[0].tolist()
            assert got[1].tobytes() == want[1].tobytes()


def test_fit_as_before() -> None:
    fitted = 0
    for pts, center in _drawings():
        m = SpiralModel.from_estimate(pts, center)
        idx, theta = unwrapped_angles(pts, center, min_radius=1.5)
        if not m:
            continue
        fitted += 1
        sign = 1.0 if theta[-1] > 0 else -1.0
        r = offsets_about(pts, center)[1][idx]
        a, b, r2 = _line_before(theta * sign, r)
        assert (m.a, m.b, m.r2) == (a, b, r2)
    assert fitted > 100


def test_mean_of_is_numpys_mean() -> None:
    rng = np.random.default_rng(9)
    for n in [*range(1, 40), 127, 128, 129, 1000, 4099]:
        v = rng.normal(0, 10, n) * 10.0 ** rng.integers(-5, 5, n)
        assert mean_of(v) == float(np.mean(v))
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        assert math.isnan(mean_of(np.zeros(0)))


def test_spiral_ends_as_before() -> None:
    """``spiral_ends`` rounds half up in Python floats: the cells numpy's round_half_up gave."""
    from shape_asserts.families.spiral import spiral_ends
    from shape_asserts.geometry.points import round_half_up

    def before(center: tuple[float, float], spacing: float, turns: float, angle: float) -> tuple[object, ...]:
        r = spacing * turns
        a = math.radians(angle)
        cx, cy = round_half_up(center).tolist()
        ex, ey = round_half_up([center[0] + r * math.cos(a), center[1] + r * math.sin(a)]).tolist()
        return (int(cx), int(cy)), (int(ex), int(ey))

    rng = np.random.default_rng(0)
    for i in range(20_000):
        if i % 2:
            c: tuple[float, float] = (int(rng.integers(0, 100)), float(rng.integers(0, 200)) / 2)
        else:
            c = (float(rng.uniform(0, 100)), float(rng.uniform(0, 100)))
        sp, tu, an = float(rng.integers(6, 40)) / 2, float(rng.integers(1, 40)) / 4, float(rng.integers(0, 720)) / 2
        assert spiral_ends(c, sp, tu, an) == before(c, sp, tu, an)
    for bad, error in (((math.nan, 1.0), ValueError), ((math.inf, 1.0), OverflowError)):
        with pytest.raises(error):
            spiral_ends(bad, 3.0, 1.0, 0.0)


def _ordered_drawings(seed: int) -> list[np.ndarray]:
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
    for pts in _ordered_drawings(seed):
        for min_radius in (0.0, 1.5):
            with np.errstate(invalid="ignore"):
                got = sp.unwrapped_angles(pts, (25, 25), min_radius=min_radius)
                want = _angles_before(pts, (25, 25), min_radius)
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
    for pts in _ordered_drawings(seed):
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
