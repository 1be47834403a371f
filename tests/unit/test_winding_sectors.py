"""``checks.winding``'s coverage from the sector bounds against the expression they replace."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry import checks


def _sectors(ang: np.ndarray) -> np.ndarray:
    """The sector expression ``winding`` used before the bounds (numpy's operations, in order)."""
    return (np.degrees(ang) % 360.0 // 30.0).astype(np.int64) % 12


def _expr_coverage(ang: np.ndarray) -> float:
    return float(np.count_nonzero(np.bincount(_sectors(ang), minlength=12)) / 12.0)


def _bound_sectors(ang: np.ndarray) -> np.ndarray:
    place = np.searchsorted(checks.SECTOR_BOUNDS, ang, side="right")
    return (place + 6) % 12  # before the first bound: 6; place 12 (π): 18 % 12 = 6


def test_each_bound_starts_its_sector() -> None:
    bounds = checks.SECTOR_BOUNDS[:-1]
    assert np.all(np.diff(bounds) > 0) and np.isinf(checks.SECTOR_BOUNDS[-1])
    after = _sectors(bounds)
    before = _sectors(np.nextafter(bounds, -np.inf))
    assert after.tolist() == [7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6]
    assert before.tolist() == [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5]
    assert bounds[-1] == np.pi  # π is the largest angle arctan2 gives


def test_every_angle_gets_the_expressions_sector() -> None:
    rng = np.random.default_rng(7)
    bounds = checks.SECTOR_BOUNDS[:-1]
    near = [np.nextafter(bounds, -np.inf), bounds, np.nextafter(bounds, np.inf)]
    for _ in range(3):  # a few floats either side of each bound
        near += [np.nextafter(near[0], -np.inf), np.nextafter(near[-1], np.inf)]
    special = np.array([-np.pi, np.pi, -0.0, 0.0, 5e-324, -5e-324, -1e-300, 1e-300, -4.9e-16, -5e-16])
    grid = np.arctan2(*np.mgrid[-60:61, -60:61].reshape(2, -1).astype(float))  # every grid direction
    ang = np.concatenate([*near, special, rng.uniform(-np.pi, np.pi, 200_000), grid.ravel()])
    ang = ang[(ang >= -np.pi) & (ang <= np.pi)]
    assert np.array_equal(_bound_sectors(ang), _sectors(ang))


@pytest.mark.parametrize("seed", range(40))
def test_coverage_as_before(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 40))
    pts = rng.integers(0, 9, size=(n, 2)).astype(float)
    center = (4.0, 4.0) if seed % 2 else (float(rng.uniform(0, 8)), float(rng.uniform(0, 8)))
    if seed % 5 == 0 and n:
        pts[rng.integers(0, n)] = np.nan if seed % 10 == 0 else np.inf
    rel = pts - np.asarray(center)
    ang = np.arctan2(rel[:, 1], rel[:, 0])
    off = ang[~((rel[:, 0] == 0) & (rel[:, 1] == 0))]
    with np.errstate(invalid="ignore"):
        expect = _expr_coverage(off) if n >= 2 else 0.0
        assert checks.winding(pts, center).coverage == expect
        assert checks._coverage(off) == _expr_coverage(off)


@pytest.mark.parametrize("seed", range(40))
def test_winding_about_the_callers_differences(seed: int) -> None:
    """``about=(rel, hypot(rel))`` (the circle scorer's) gives the winding computed inside."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(0, 40))
    pts = rng.integers(0, 9, size=(n, 2)).astype(float)
    center = (4, 4) if seed % 2 else (float(rng.uniform(0, 8)), float(rng.uniform(0, 8)))
    if seed % 5 == 0 and n:
        pts[rng.integers(0, n)] = [np.nan, 4.0] if seed % 10 == 0 else [np.inf, np.nan]
    if seed % 3 == 0 and n:
        pts[rng.integers(0, n)] = [5e-324 + center[0], center[1]]
    with np.errstate(invalid="ignore"):
        rel = np.subtract(pts, np.asarray(center, dtype=float), order="C")
        got = checks.winding(pts, center, about=(rel, np.hypot(rel[:, 0], rel[:, 1])))
        want = checks.winding(pts, center)
    assert got == want or (np.isnan(want.turns) and np.isnan(got.turns) and got.coverage == want.coverage)
