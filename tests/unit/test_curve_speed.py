"""Shortcuts in the spiral and ellipse scorers (speed round 7) against the forms they replace:

- ``SpiralModel.from_estimate`` (and the ellipse fit) write the model's fields into its ``__dict__``:
  the same instance as the frozen dataclass's ``__init__`` makes (it has no ``__post_init__``);
- the spiral's ``laps`` check looks for the points off by more than the limit only when the largest
  deviation is: the same indices as the mask on every deviation;
- the ellipse polish's batch writes its nudged sets out: the same error and Jacobian as before.
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


def _former_batch(px: np.ndarray, py: np.ndarray, xy: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, object]:
    """``fit.ellipse._cost_and_jacobian`` as it was (main 479ca97): the nudged sets from
    ``(q + _NUDGES).tolist()``, each one's trig and squares in a loop."""
    from shape_asserts.geometry.fit import ellipse as fit

    if q[2] <= 0 or q[3] <= 0:
        return fit._cost(px, py, q), None
    nudged = (q + fit._NUDGES).tolist()
    if any(r[2] <= 0 or r[3] <= 0 for r in nudged):
        return fit._cost(px, py, q), None
    r0 = math.radians(q[4])
    c0, s0 = math.cos(r0), math.sin(r0)
    sets = [(q[0], q[1], c0, c0, s0, -s0, q[2], q[3], q[2] ** 2, q[3] ** 2)]
    try:
        for cx, cy, a, b, rot in nudged:
            r = math.radians(rot)
            c, s = math.cos(r), math.sin(r)
            sets.append((cx, cy, c, c, s, -s, a, b, a**2, b**2))
    except OverflowError:
        return fit._cost(px, py, q), None
    k = np.array(sets).T[:, :, None]
    d = xy - k[0:2]
    uv = d * k[2:4]
    uv += d[::-1] * k[4:6]
    q_ab = uv / k[6:8]
    rho = np.hypot(q_ab[0], q_ab[1])
    np.divide(uv, k[8:10], out=uv)
    grad = np.hypot(uv[0], uv[1])
    if np.minimum.reduce(grad, axis=None) > 0:
        res = rho - 1.0
        res *= rho
        res /= grad
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -k[7])
    return res[0], ((res[1:] - res[0]) / fit._STEPS[:, None]).T


def _bits(x: object) -> object:
    return None if x is None else np.asarray(x).tobytes() + str(np.asarray(x).shape).encode()


def test_polish_batch_as_before() -> None:
    """The batch's sets written out give the former batch's error and Jacobian, bit for bit: signed
    zeros in the center and the turn, NaN and infinite parameters, semi-axes ≤ 0 or whose square
    overflows, points on the center and at -0.0."""
    from shape_asserts.geometry.fit import ellipse as fit

    rng = np.random.default_rng(9)
    specials = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e200, 1e-300, -1.0, 3.0]
    compared = 0
    for i in range(1500):
        n = int(rng.integers(1, 40))
        pts = np.round(rng.uniform(-5, 30, (n, 2)) * (2 if i % 2 else 1)) / (2 if i % 2 else 1)
        if i % 7 == 0:
            pts[rng.integers(0, n)] = [-0.0, -0.0]
        q = np.array([rng.uniform(-5, 30), rng.uniform(-5, 30), rng.uniform(0.5, 20), rng.uniform(0.5, 20), 0.0])
        q[4] = rng.uniform(-200, 200)
        for _ in range(int(rng.integers(0, 3))):
            q[rng.integers(0, 5)] = specials[int(rng.integers(0, len(specials)))]
        if i % 5 == 0:
            pts[rng.integers(0, n)] = q[:2]  # a point on the center
        px, py = pts[:, 0], pts[:, 1]
        xy = np.array([px, py])[:, None, :]
        with np.errstate(all="ignore"):
            try:
                want = _former_batch(px, py, xy, q)
            except ValueError:  # (math.cos of an infinite turn, in both)
                with pytest.raises(ValueError):
                    fit._cost_and_jacobian(px, py, xy, q)
                continue
            got = fit._cost_and_jacobian(px, py, xy, q)[:2]
        assert _bits(got[0]) == _bits(want[0])
        assert _bits(got[1]) == _bits(want[1])
        compared += got[1] is not None
    assert compared > 500


def test_fit_with_radial_is_from_estimate_and_radial() -> None:
    """The fit and its radial together are ``from_estimate`` and ``radial`` of it, bit for bit,
    whether the polish's last step knew them (elongated fits) or they are measured (round fits,
    turns taken back into [0, 180), swapped axes, failures)."""
    from shape_asserts.geometry.fit import ellipse as fit

    rng = np.random.default_rng(21)
    known = measured = 0
    real = fit.EllipseModel.radial
    calls: list[int] = []

    def spy(self: EllipseModel, points: object) -> object:
        calls.append(1)
        return real(self, points)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(fit.EllipseModel, "radial", spy)
    try:
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
            calls.clear()
            with np.errstate(all="ignore"):
                model, (angles, normal) = fit.EllipseModel.fit_with_radial(pts)
                was_known = not calls  # (radial not called: the polish knew it)
                want = fit.EllipseModel.from_estimate(pts)
                assert bool(model) == bool(want)
                if not model:
                    continue
                assert model == want and repr(model) == repr(want)
                want_angles, want_normal = real(model, pts)
            assert angles.tobytes() == want_angles.tobytes() and angles.shape == want_angles.shape
            assert normal.tobytes() == want_normal.tobytes() and normal.shape == want_normal.shape
            known += was_known
            measured += not was_known
    finally:
        mp.undo()
    assert known > 50 and measured > 20


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
