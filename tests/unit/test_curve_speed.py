"""Shortcuts in the spiral and ellipse scorers (speed round 7) against the forms they replace:

- ``SpiralModel.from_estimate`` (and the ellipse fit) write the model's fields into its ``__dict__``:
  the same instance as the frozen dataclass's ``__init__`` makes (it has no ``__post_init__``);
- the spiral's ``laps`` check looks for the points off by more than the limit only when the largest
  deviation is: the same indices as the mask on every deviation;
- the ellipse fit and its radial together are ``from_estimate`` and ``radial``.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import shape_asserts.geometry.fit.spiral as sp
from shape_asserts.families.spiral import SPIRAL, score_spiral
from shape_asserts.geometry.fit import EllipseModel, SpiralModel


def _spirals(seed: int) -> list[tuple[np.ndarray, tuple[float, float]]]:
    rng = np.random.default_rng(700 + seed)
    out = []
    for i in range(40):
        n = int(rng.integers(0, 260))
        t = np.sort(rng.uniform(0, 8 * np.pi, n)) if i % 2 else np.linspace(0, 6 * np.pi, n)
        r = 1.0 + t * rng.uniform(0.3, 1.5) + rng.normal(0, rng.choice([0.1, 0.5, 2.0]), n)
        sign = 1 if i % 3 else -1
        pts = np.column_stack([25 + r * np.cos(sign * t), 25 + r * np.sin(sign * t)])
        if i % 4 == 0:
            pts = np.round(pts)
        if i % 5 == 0:
            pts = pts[::-1].copy()
        out.append((pts, (25.0, 25.0) if i % 6 else (24.5, 25.5)))
    return out


def _same_instance(model: object, cls: type) -> None:
    """``model`` is what ``cls(**its fields)`` makes: the same fields, in field order, and no
    ``__post_init__`` that the shortcut would skip."""
    assert type(model) is cls
    assert not hasattr(cls, "__post_init__")
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    assert list(model.__dict__) == names
    made = cls(**model.__dict__)
    assert made.__dict__ == model.__dict__ and made == model
    assert [repr(v) for v in made.__dict__.values()] == [repr(v) for v in model.__dict__.values()]


@pytest.mark.parametrize("seed", range(3))
def test_spiral_model_is_the_dataclass_s(seed: int) -> None:
    made = 0
    for pts, center in _spirals(seed):
        model = SpiralModel.from_estimate(pts, center)
        if model:
            made += 1
            _same_instance(model, SpiralModel)
    assert made


def test_ellipse_model_is_the_dataclass_s() -> None:
    rng = np.random.default_rng(5)
    made = 0
    for i in range(60):
        t = np.linspace(0, 2 * np.pi, int(rng.integers(8, 200)), endpoint=False)
        a, b, rot = rng.uniform(3, 30), rng.uniform(2, 20), math.radians(rng.uniform(0, 360))
        x, y = a * np.cos(t), b * np.sin(t)
        pts = np.column_stack([25 + x * math.cos(rot) - y * math.sin(rot), 25 + x * math.sin(rot) + y * math.cos(rot)])
        if i % 2:
            pts = np.round(pts)
        model = EllipseModel.from_estimate(pts)
        if model:
            made += 1
            _same_instance(model, EllipseModel)
    assert made


def test_none_off_when_the_largest_is_not() -> None:
    """The ``laps`` check skips the mask only where it finds nothing: np.maximum keeps a NaN."""
    rng = np.random.default_rng(11)
    skipped = 0
    for i in range(3000):
        v = np.abs(rng.normal(0, 3, int(rng.integers(1, 50))))
        if i % 7 == 0:
            v[rng.integers(0, len(v))] = np.inf
        if i % 11 == 0:
            v[rng.integers(0, len(v))] = np.nan
        limit = float(rng.uniform(1, 12))
        if float(np.maximum.reduce(v)) <= limit:
            skipped += 1
            assert not np.logical_or.reduce(v > limit)
    assert skipped > 100


@pytest.mark.parametrize("seed", range(3))
def test_laps_indices_as_the_mask(seed: int) -> None:
    """The ``laps`` check's indices and detail are the mask's on every deviation, whether any is off."""
    seen = set()
    for pts, center in _spirals(seed):
        for spacing in (2.0, 4.0):
            result = score_spiral(pts, center=center, spacing=spacing, turns=3, direction="cw")
            laps = next(c for c in result.checks if c.name == "laps")
            radii = sp.radii_about(pts, center)
            angles = sp.unwrapped_angles(pts, center, min_radius=SPIRAL.fit_min_radius)
            idx, gaps = (
                sp.lap_gaps(pts, center, min_radius=SPIRAL.fit_min_radius, angles=angles, radii=radii)
                if len(pts)
                else (np.zeros(0, int), np.zeros(0))
            )
            if not gaps.size:
                continue
            limit = max(SPIRAL.lap_tolerance, SPIRAL.lap_tolerance_fraction * spacing)
            off = np.abs(np.abs(gaps) - spacing) > limit
            assert laps.indices == tuple(int(i) for i in idx[off][:50])
            seen.add((bool(off.any()), laps.passed))
    assert {(False, True), (True, True), (True, False)} <= seen  # none off; some off but passing; failing


def test_fit_with_radial_is_from_estimate_and_radial() -> None:
    """The fit and its radial together are ``from_estimate`` and ``radial`` of it, bit for bit
    (polished and round fits, turns taken back into [0, 180), swapped axes, failures)."""
    from shape_asserts.geometry.fit import ellipse as fit

    rng = np.random.default_rng(21)
    measured = 0
    real = fit.EllipseModel.radial
    for i in range(300):
        n = int(rng.integers(3, 220))
        a, b = float(rng.uniform(3, 40)), float(rng.uniform(1, 30))
        rot = float(rng.choice([0.0, 90.0, 179.99, rng.uniform(0, 360)]))
        t = rng.uniform(0, 2 * np.pi, n) if i % 2 else np.linspace(0, 2 * np.pi, n, endpoint=False)
        c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        x, y = a * np.cos(t), b * np.sin(t)
        pts = np.column_stack([30 + x * c - y * s, 30 + x * s + y * c])
        pts += rng.normal(0, [0.0, 0.3, 1.0][i % 3], (n, 2))
        if i % 4 == 0:
            pts = np.round(pts)
        if i % 9 == 0:
            pts[0] = [30.0, 30.0]  # a point on the center
        if i % 50 == 0:
            pts[:, 1] = pts[:, 0]  # collinear: a failure
        with np.errstate(all="ignore"):
            model, (angles, normal) = fit.EllipseModel.fit_with_radial(pts)
            want = fit.EllipseModel.from_estimate(pts)
            assert bool(model) == bool(want)
            if not model:
                continue
            assert model == want and repr(model) == repr(want)
            want_angles, want_normal = real(model, pts)
        assert angles.tobytes() == want_angles.tobytes() and angles.shape == want_angles.shape
        assert normal.tobytes() == want_normal.tobytes() and normal.shape == want_normal.shape
        measured += 1
    assert measured > 200


def test_fit_spread_as_before() -> None:
    """The fit's spread (a row's two squares by one +) is ``np.add.reduce(np.add.reduce(u * u,
    axis=1))``, bit for bit: C- and F-ordered points, signed zeros, NaN, infinities and overflow."""
    rng = np.random.default_rng(31)
    for i in range(3000):
        pts = rng.normal(0, 10 ** float(rng.uniform(-3, 3)), (int(rng.integers(1, 300)), 2))
        if i % 3 == 0:
            pts = np.round(pts)
        if i % 5 == 0:
            pts[:, int(rng.integers(0, 2))] = -0.0
        if i % 7 == 0:
            pts[rng.integers(0, len(pts))] = rng.choice([np.nan, np.inf, -np.inf, 1e308, -0.0])
        if i % 2:
            pts = np.asfortranarray(pts)
        with np.errstate(all="ignore"):
            u = pts - np.add.reduce(pts, axis=0) / len(pts)
            sq = u * u
            assert np.add.reduce(sq[:, 0] + sq[:, 1]).tobytes() == np.add.reduce(np.add.reduce(u * u, axis=1)).tobytes()
