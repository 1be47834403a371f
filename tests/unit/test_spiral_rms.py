"""``SpiralModel.rms`` is the rms of the fit's own residuals (:meth:`SpiralModel.residuals`)."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.fit.spiral import SpiralModel


@pytest.mark.parametrize("seed", range(40))
def test_rms_is_the_residuals_rms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 600))
    t = np.linspace(0, rng.uniform(0.5, 6) * 2 * np.pi, n) * (1 if seed % 2 else -1)
    r = 1 + rng.uniform(1, 8) / (2 * np.pi) * np.abs(t) + rng.normal(0, seed % 4, n)
    pts = np.column_stack([25 + r * np.cos(t), 25 + r * np.sin(t)])
    if seed % 3 == 0:
        pts = np.round(pts)
    center = (25.0, 25.0) if seed % 5 else (24.5, 25.25)
    model = SpiralModel.from_estimate(pts, center, min_radius=1.5)
    assert model
    assert model.rms == float(np.sqrt(np.mean(model.residuals(pts, min_radius=1.5) ** 2)))


def test_named_geometry_has_no_rms() -> None:
    assert SpiralModel((0.0, 0.0), 1.0, 1.0).rms == 0.0
