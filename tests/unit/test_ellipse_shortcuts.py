"""The ellipse fit's shortcuts give what they replace: the rank test by the determinant only says
"full rank" where ``matrix_rank`` says 3, and the normal distance with its checks by reductions and
its quotient in place is the same array, bit for bit (points on the center included)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.fit import EllipseModel
from shape_asserts.geometry.fit.base import matrix_rank
from shape_asserts.geometry.fit.ellipse import _surely_full_rank


def _scatter(pts: np.ndarray) -> np.ndarray:
    """The fit's linear scatter: [x, y, 1] of the centred, scaled points, as from_estimate builds it."""
    n = len(pts)
    u = pts - np.add.reduce(pts, axis=0) / n
    scale = float(np.sqrt(np.add.reduce(np.add.reduce(u * u, axis=1)) / n))
    d2 = np.empty((n, 3))
    np.divide(u, scale, out=d2[:, :2])
    d2[:, 2] = 1.0
    out: np.ndarray = d2.T @ d2
    return out


def test_full_rank_only_where_matrix_rank_says_three() -> None:
    rng = np.random.default_rng(4)
    taken = 0
    for i in range(3000):
        n = int(rng.integers(5, 200))
        t = rng.uniform(0, 2 * np.pi, n)
        squash = [1.0, 0.3, 1e-3, 1e-6, 1e-9, 0.0][i % 6]  # down to collinear
        pts = np.column_stack([rng.uniform(5, 40) * np.cos(t), squash * rng.uniform(5, 40) * np.sin(t)])
        c, s = math.cos(i), math.sin(i)
        pts = pts @ np.array([[c, s], [-s, c]]) + 25.0
        if i % 5 == 0:
            pts = np.round(pts)
        if len(np.unique(pts, axis=0)) < 2:
            continue
        m = _scatter(pts)
        if _surely_full_rank(m):
            taken += 1
            assert matrix_rank(m) == 3
    assert taken > 1000
    assert not _surely_full_rank(np.full((3, 3), np.nan))
    assert not _surely_full_rank(np.zeros((3, 3)))


def _reference(px, py, cx, cy, a, b, rotation):  # type: ignore[no-untyped-def]
    c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
    a2, b2 = a**2, b**2
    dx, dy = px - cx, py - cy
    u, v = dx * c + dy * s, dy * c - dx * s
    rho = np.hypot(u / a, v / b)
    grad = np.hypot(u / a2, v / b2)
    if (grad > 0).all():
        return (rho - 1.0) * rho / grad
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -b)


@pytest.mark.parametrize("seed", range(20))
def test_normal_distance_as_before(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = rng.integers(0, 50, (int(rng.integers(1, 200)), 2)).astype(float)
    cx, cy = (25.0, 25.0) if seed % 2 else tuple(rng.uniform(10, 40, 2))
    if seed % 3 == 0:
        pts[0] = [cx, cy]  # on the center
    if seed % 7 == 0:
        pts[-1] = [np.nan, 3.0]
    a, b, rot = float(rng.uniform(3, 20)), float(rng.uniform(1, 3)), float(rng.uniform(0, 180))
    with np.errstate(invalid="ignore"):
        want = _reference(pts[:, 0], pts[:, 1], cx, cy, a, b, rot)
        m = EllipseModel((cx, cy), a, b, rot)
        assert m.radial(pts)[1].tobytes() == want.tobytes()
