"""The circle family computes its points about their mean once (``fit.circle.about_mean``) for the
circle fit and the seed score: both give the numbers they give without it, bit for bit."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import shape_asserts.geometry.seed as seed
from shape_asserts.families.circle import parsed_ints
from shape_asserts.geometry.drawing import parse_drawing
from shape_asserts.geometry.fit.circle import CircleModel, about_mean


def _bits(x: float) -> tuple[float, float]:
    return (x, math.copysign(1, x))


@pytest.fixture(scope="module")
def drawings(int_point_sets) -> list[np.ndarray]:
    """Int drawings (small, near the small-int limit, one point repeated, negative; some collinear),
    then floats."""
    ints = int_point_sets(5, 600, min_points=3)
    for pts in ints[::11]:  # collinear
        pts[:, 1] = pts[:, 0]
    rng = np.random.default_rng(6)
    return ints + [rng.uniform(-60, 60, (int(rng.integers(3, 90)), 2)) for _ in range(200)]


def test_seed_score_from_about_mean(drawings) -> None:
    taken = 0
    for pts in drawings:
        d = parse_drawing(json.dumps({"points": [{"x": x, "y": y} for x, y in pts.tolist()]}))
        if not parsed_ints(d):  # (the int path's contract: every point two ints)
            continue
        got = seed.int_points_score(d.points, about_mean(d.points))
        want = seed.int_points_score(d.points)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            taken += 1
            assert _bits(got) == _bits(want)
    assert taken > 400


def test_fit_from_about_mean(drawings) -> None:
    for pts in drawings:
        pts = pts.astype(float)
        with np.errstate(all="ignore"):
            got = CircleModel.from_estimate(pts, about=about_mean(pts))
            want = CircleModel.from_estimate(pts)
        assert type(got) is type(want)
        if isinstance(want, CircleModel) and isinstance(got, CircleModel):
            assert [_bits(v) for v in (*got.center, got.radius)] == [_bits(v) for v in (*want.center, want.radius)]
        else:
            assert str(got) == str(want)


def _extremes(pts: np.ndarray) -> tuple[float, float]:
    return float(np.minimum.reduce(pts, axis=None)), float(np.maximum.reduce(pts, axis=None))


def test_seed_and_bounds_from_the_callers_extremes(drawings) -> None:
    from shape_asserts.geometry.checks import out_of_bounds

    rng = np.random.default_rng(8)
    for i, pts in enumerate(drawings):
        pts = pts.astype(float)
        if i % 9 == 0:
            pts[0, 1] = np.nan
        with np.errstate(invalid="ignore"):
            ext = _extremes(pts)
            grid = int(rng.integers(1, 80))
            assert out_of_bounds(pts, grid, extremes=ext) == out_of_bounds(pts, grid)
            if i < 600 and i % 9:  # (the int path: int drawings only)
                got = seed.int_points_score(pts, about_mean(pts), ext)
                want = seed.int_points_score(pts)
                assert (got is None and want is None) or (
                    got is not None and want is not None and _bits(got) == _bits(want)
                )
