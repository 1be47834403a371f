"""The multi-circle scorer's batched steps against the single-contour functions they stand for:
``fit.circle.fit_circles`` against ``CircleModel.from_estimate`` of each span (the same fit, its
sums added in another order: equal to float rounding, the same failures)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_asserts.geometry.fit.circle import CircleModel, about_mean, fit_circles


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _batched(spans_pts: list[np.ndarray]) -> list[object]:
    abouts = [about_mean(p) for p in spans_pts]
    ends = np.cumsum([len(p) for p in spans_pts]).tolist()
    spans = [(e - len(p), e) for e, p in zip(ends, spans_pts)]
    return fit_circles(
        np.concatenate(spans_pts),
        np.array([a[0] for a in abouts]),
        np.concatenate([a[1] for a in abouts]),
        np.concatenate([a[2] for a in abouts]),
        spans,
    )


def _agree(spans_pts: list[np.ndarray]) -> None:
    for pts, got in zip(spans_pts, _batched(spans_pts)):
        want = CircleModel.from_estimate(pts)
        assert bool(got) == bool(want)
        if want:
            assert isinstance(got, CircleModel) and isinstance(want, CircleModel)
            assert all(_close(a, b) for a, b in zip((*got.center, got.radius), (*want.center, want.radius)))
        else:
            assert str(got) == str(want)


_coord = st.integers(-60, 60).map(float)
_span = st.lists(st.tuples(_coord, _coord), min_size=3, max_size=40).map(lambda p: np.array(p, dtype=float))


@settings(max_examples=300, deadline=None)
@given(st.lists(_span, min_size=1, max_size=6))
def test_fit_circles_is_each_fit(spans_pts: list[np.ndarray]) -> None:
    _agree(spans_pts)


def test_fit_circles_rasters_lines_and_odd_spans() -> None:
    rng = np.random.default_rng(3)
    t = np.linspace(0, 2 * math.pi, 60, endpoint=False)
    ring = np.rint(np.column_stack([30 + 9 * np.cos(t), 20 + 9 * np.sin(t)]))
    line = np.column_stack([np.arange(10.0), 2 * np.arange(10.0)])
    same = np.full((5, 2), 7.0)
    two = np.array([[1.0, 1.0], [4.0, 5.0], [1.0, 1.0]])
    noisy = ring + rng.normal(0, 0.3, ring.shape)
    _agree([ring, line, noisy])
    _agree([ring, same, noisy])  # (a span with no spread: every span takes the single fit)
    _agree([two, ring * 1e9, ring + 2**31])
    _agree([ring, np.array([[0.0, 0.0], [np.nan, 1.0], [2.0, 3.0]])])
    arc = np.rint(np.column_stack([25 + 40 * np.cos(t[:6] / 8), 25 + 40 * np.sin(t[:6] / 8)]))
    _agree([arc, ring[:5], noisy[:9], ring + 0.5])  # short arcs: the fits least well conditioned
