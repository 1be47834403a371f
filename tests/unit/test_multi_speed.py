"""The multi-circle scorer's shortcut (families/multi/passing.py) against scoring every circle on
its own (circle.score_circle, the scorer's former and fallback path): the same ShapeScore — every
verdict, limit, detail and index, every float to float rounding (the shortcut adds each contour's
sums in another order; NaN, infinities and signed zeros as they are) — on the built-in cases'
ideal answers and on perturbed ones (jittered, gapped, repeated, reversed, shifted, float, huge,
a point on the center), read as the parser reads them and as float drawings."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from shape_asserts.cases import load_cases
from shape_asserts.families.multi import passing, scorer
from shape_asserts.geometry.drawing import Drawing, parse_drawing
from shape_asserts.geometry.score import ShapeScore

CASES = [c for c in load_cases() if c.family in ("concentric", "circles")]


def _plain(v: Any) -> Any:
    """Floats by repr (a last bit, a signed zero and NaN show), containers item by item."""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _close(a: Any, b: Any) -> bool:
    """Equal, floats (by repr) within 1e-9 relative (absolute below 1), as bench/score_fingerprint.py
    --rtol 1e-9 takes them; a NaN, an infinity or a zero's sign as it is."""
    if isinstance(a, list) and isinstance(b, list) or isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if a == b:
        return True
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isfinite(x) and math.isfinite(y) and abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


def _whole(s: ShapeScore) -> Any:
    checks = [
        (c.name, c.passed, _plain(c.value), c.limit, c.detail, c.indices, _plain(c.margin), _plain(c.explicit_margin))
        for c in s.checks
    ]
    return (s.family, _plain(s.score), _plain(dict(s.metrics)), checks, _plain(dict(s.marks)))


def _variants(ideal: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    pts = ideal.astype(float)
    out = [pts, pts[::-1].copy(), pts + 1, pts - 3]
    for _ in range(6):
        jit = pts + rng.integers(-1, 2, size=pts.shape)
        out.append(jit)
        keep = rng.random(len(pts)) > 0.05
        out.append(pts[keep])
        rep = np.repeat(pts, rng.integers(1, 3, size=len(pts)) * (rng.random(len(pts)) < 0.1) + 1, axis=0)
        out.append(rep)
        out.append(pts + rng.normal(0, 0.4, size=pts.shape))
    scaled = pts.copy()
    scaled[: len(pts) // 3] = (scaled[: len(pts) // 3] - 25) * 1.5 + 25
    out.append(np.rint(scaled))
    out.append(pts * 1e9)
    out.append(pts + 2**29)
    out.append(pts + 2**31)
    return out


def _drawings(pts: np.ndarray) -> list[Drawing]:
    out = [Drawing.from_points(pts)]
    if np.isfinite(pts).all() and np.all(pts == np.rint(pts)) and np.abs(pts).max() < 2**52:
        text = json.dumps({"points": [{"x": int(x), "y": int(y)} for x, y in pts.tolist()]})
        out.append(parse_drawing(text))
    return out


def _no_shortcut(*args: Any, **kwargs: Any) -> list[None]:
    return [None] * len(args[0])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_shortcut_scores_as_each_circle_alone(case: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(abs(hash(case.id)) % 2**32)
    taken = 0
    real = passing.passing_circles

    def counting(*args: Any, **kwargs: Any) -> list[Any]:
        nonlocal taken
        got = real(*args, **kwargs)
        taken += sum(g is not None for g in got)
        return got

    for pts in _variants(np.asarray(case.ideal()), rng):
        for drawing in _drawings(pts):
            monkeypatch.setattr(scorer, "passing_circles", counting)
            fast = case.score(drawing)
            monkeypatch.setattr(scorer, "passing_circles", _no_shortcut)
            slow = case.score(drawing)
            assert _close(_whole(fast), _whole(slow)), (_whole(fast), _whole(slow))
    assert taken > 0  # the shortcut was taken, not only the fallback


def test_point_on_center_and_failures_fall_back() -> None:
    case = next(c for c in CASES if c.family == "concentric")
    pts = np.asarray(case.ideal()).astype(float)
    c = np.array(case.params["center"], dtype=float)
    # the innermost ring pulled onto its center at one point: that circle is scored on its own
    pts[1] = c
    s = case.score(Drawing.from_points(pts))
    assert not math.isnan(s.score)


def test_order_rounding_is_numpys() -> None:
    """The order check's radii to 6 decimals, ``round(r * 1e6) / 1e6`` in Python floats, are
    ``np.round(r, 6)`` (rint of the scaled value over the scale): the same values, so the same
    distinct ones (halfway cases, whole numbers, large and tiny radii)."""
    rng = np.random.default_rng(11)
    radii = np.concatenate(
        [
            rng.random(20_000) * 100,
            rng.integers(0, 10**8, 20_000) / 1e6 + 5e-7,
            rng.integers(0, 10**8, 20_000) * 0.5e-6,
            rng.random(2_000) * 1e15,
            rng.random(200) * 1e25,
            [0.0, 2.5e-6, 1.5e-6, 0.5e-6, 3.0, 1e-300],
        ]
    )
    want = np.round(radii, 6)
    got = np.array([round(r * 1e6) / 1e6 for r in radii.tolist()])
    assert np.array_equal(got, want)


def test_margin_functions_are_score_margin() -> None:
    """Each check's margin function (passing._margin_of, made once per limit) gives
    ``score.limit_margin(value, limit)``, bit for bit, for the finite numbers and the strings a passing
    circle's checks hold, over limits from default and odd thresholds."""
    from dataclasses import replace

    from shape_asserts.families.multi.scorer import CIRCLES
    from shape_asserts.geometry.score import limit_margin

    rng = np.random.default_rng(5)
    thresholds = [
        CIRCLES,
        replace(CIRCLES, min_seed_score=85.123456789, max_gaps=2, max_closure=0.0, min_turns=0.0, max_turns=3.25),
        replace(CIRCLES, min_coverage=11 / 12, max_center_offset=1e-7, min_radius=1234567.0),
    ]
    values: list[Any] = [0, 1, 3, 0.0, -0.0, 1.0, 85.0, 99.99, 1e-300, 2.5e15, "cw", "ccw", "none"]
    values += (rng.normal(size=200) * 10.0 ** rng.integers(-6, 6, size=200)).tolist()
    for t in thresholds:
        for start in (False, True):
            for direction in (None, "cw", "ccw"):
                checks, margin_of = passing._circle_checks(t, start, direction)
                assert [name for name, _ in checks] == [name for name, _ in passing.circle_limits(t, start, direction)]
                for (_, limit), margin in zip(checks, margin_of):
                    for v in values:
                        if isinstance(v, str) and limit_margin(v, limit) is None and limit[0] in "≤≥0123456789":
                            continue  # (a string is a direction's value only, held to a direction)
                        assert repr(margin(v)) == repr(limit_margin(v, limit)), (limit, v)


def test_harmonic_amplitudes_are_radial_harmonics() -> None:
    """The stacked contours' harmonic weights and amplitudes (passing._harmonic_weights: one
    lexsort; passing._harmonic_amplitudes: one running product of phases, each contour's sums by
    reduceat) are radial_harmonics of each contour alone, to float rounding (the sums are added in
    another order): angles with ties and signed zeros, contours of 3 to 500 points, in any number."""
    from shape_asserts.geometry.fit.circle import radial_harmonics

    rng = np.random.default_rng(9)
    for trial in range(300):
        lens = rng.integers(3, 500 if trial % 10 == 0 else 80, size=int(rng.integers(1, 7))).tolist()
        m = sum(lens)
        theta = rng.uniform(-np.pi, np.pi, m)
        if trial % 3 == 0:  # ties and signed zeros, as grid points give them
            theta = np.round(theta, 1)
            theta[rng.random(m) < 0.05] = -0.0
        res = rng.normal(0, 0.4, m)
        ends = np.cumsum(lens).tolist()
        spans = [(e - n, e) for e, n in zip(ends, lens)]
        firsts, lasts = [a for a, _ in spans], [b - 1 for _, b in spans]
        ids = np.arange(len(lens)).repeat(lens)
        w = np.empty(m)
        passing._harmonic_weights(theta, ids, firsts, lasts, w)
        totals = np.add.reduceat(w, firsts).tolist()
        got = passing._harmonic_amplitudes(theta, res, w, totals, firsts).T.tolist()
        # (and from the points' offsets and distances: e^{-iθ} without the exponential)
        r = rng.uniform(0.5, 40, m)
        polar = (r * np.cos(theta), r * np.sin(theta), r)
        theta_of = np.arctan2(polar[1], polar[0])
        from_polar = passing._harmonic_amplitudes(theta_of, res, w, totals, firsts, polar).T.tolist()
        for (a, b), amp, amp_polar in zip(spans, got, from_polar):
            want = radial_harmonics(theta[a:b].copy(), res[a:b].copy()).tolist()
            assert np.allclose(amp, want, rtol=1e-12, atol=1e-12)
            assert np.allclose(amp_polar, want, rtol=1e-12, atol=1e-12)
