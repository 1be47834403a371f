"""A spiral's lap spacing (``lap_gaps``: each target's window found among the points sorted by angle)
is what comparing every point with every other gives."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.fit.spiral import lap_gaps, unwrapped_angles


def _lap_gaps_every_pair(points, center, *, min_radius=1.5, window=0.25):
    """``lap_gaps`` as first written: every kept point against every point."""
    pts = np.asarray(points, dtype=float)
    idx, theta = unwrapped_angles(pts, center, min_radius=min_radius)
    if idx.size < 2:
        return idx[:0], np.zeros(0)
    th = theta if theta[-1] >= 0 else -theta
    rel = pts[idx] - np.asarray(center, dtype=float)
    r = np.hypot(rel[:, 0], rel[:, 1])
    keep = np.flatnonzero(th >= th.min() + 2 * math.pi - 1e-9)
    off = np.abs(th[None, :] - (th[keep] - 2 * math.pi)[:, None])
    near = off <= window
    seen = near.any(axis=1)
    with np.errstate(all="ignore"):
        med = np.nanmedian(np.where(seen[:, None], np.where(near, r[None, :], np.nan), 0.0), axis=1)
        if (~seen).any():
            far = off[~seen]
            tied = far <= far.min(axis=1, keepdims=True) + 1e-9
            med[~seen] = np.nanmedian(np.where(tied, r[None, :], np.nan), axis=1)
    return idx[keep], r[keep] - med


def _spirals():
    rng = np.random.default_rng(3)
    out = []
    for i in range(40):
        n = int(rng.integers(20, 800))
        t = np.linspace(0, rng.uniform(1, 5) * 2 * np.pi, n)
        r = 2 + rng.uniform(3, 7) / (2 * np.pi) * t
        pts = np.column_stack([25 + r * np.cos(t), 25 + r * np.sin(t)])
        out.append(np.round(pts) if i % 2 else pts)
    out.append(rng.integers(0, 50, (700, 2)).astype(float))
    out.append(np.array([(0.0, 0.0) if i % 2 else (49.0, 49.0) for i in range(700)]))
    return out


@pytest.mark.parametrize("window", [0.25, 0.05])
def test_lap_gaps_equal_comparing_every_point_with_every_other(window):
    for pts in _spirals():
        fast, slow = lap_gaps(pts, (25, 25), window=window), _lap_gaps_every_pair(pts, (25, 25), window=window)
        assert np.array_equal(fast[0], slow[0])
        assert np.array_equal(fast[1], slow[1])
