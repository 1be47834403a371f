"""``raster_ellipse`` makes each ellipse's ring once per process (the cases load one per start they
ask of it): the same drawing as the ring made afresh, whatever the start, direction and argument
types, and a caller that writes into its drawing changes no later one."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.geometry.raster import _roll_to, raster_curve, raster_ellipse
from shape_asserts.geometry.samples import ellipse_xy


def _afresh(center, a, b, rotation, start, direction):
    """The drawing as raster_ellipse made it before the ring was kept: rasterised on every call."""
    m = int(max(64, 16 * math.pi * (a + b)))
    ring = raster_curve(ellipse_xy(center, a, b, rotation, np.linspace(0, 2 * math.pi, m, endpoint=False)), closed=True)
    if direction == "ccw":
        ring = ring[::-1]
    ex, ey = ellipse_xy(center, a, b, rotation, [0.0])[0].tolist()
    return _roll_to(ring, start if start is not None else (ex, ey))


@pytest.mark.parametrize(
    ("center", "a", "b", "rotation"),
    [((25, 25), 20, 12, 0), ((25.0, 25.0), 20.0, 12.0, 0.0), ((25, 25), 20, 10, 90), ((23.5, 26.25), 14.2, 5.5, 212.7)],
)
def test_every_start_and_direction_is_the_drawing_made_afresh(center, a, b, rotation):
    for direction in ("cw", "ccw"):
        for start in (None, (45, 25), (25, 13), (5.5, 30.2), (25, 25)):
            got = raster_ellipse(center, a, b, rotation, start=start, direction=direction)
            want = _afresh(center, a, b, rotation, start, direction)
            assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_writing_into_a_drawing_changes_no_later_one():
    first = raster_ellipse((25, 25), 18, 9, 30, start=(40, 30))
    before = first.tolist()
    first[:] = -1  # a caller's own array: writable, and not the kept ring
    again = raster_ellipse((25, 25), 18, 9, 30, start=(40, 30))
    assert again.tolist() == before
    assert raster_ellipse((25, 25), 18, 9, 30, start=(40, 30), direction="ccw")[0].tolist() == before[0]
