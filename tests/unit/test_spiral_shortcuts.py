"""The spiral's measures without numpy's wrappers (``np.diff``, ``np.concatenate``, ``.mean()``,
``np.sum``) and with the offsets about the center computed once give the same floats, bit for bit,
as the forms they replace (copied here)."""

from __future__ import annotations

import math

import numpy as np
import pytest

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
