"""Ideal drawings: what a perfect answer looks like, as ordered 8-connected grid points.

One function per shape, used everywhere an ideal is needed: the reference drawer answers with it,
the report overlays it, calibration and property tests start from it.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["raster_circle", "circle_pixels", "angle_of", "point_on_circle"]


def angle_of(point: tuple[float, float], center: tuple[float, float]) -> float:
    """Angle of ``point`` about ``center`` in degrees, the seed post's convention.

    Measured in grid coordinates (y down): 0° points right and angles grow *clockwise on screen*,
    so the seed's starts about (25, 25) sit at (25, 1) → 270°, (46, 13) → ~330° ("~330°" in the
    post) and (4, 37) → ~150°. Result in [0, 360).
    """
    return math.degrees(math.atan2(point[1] - center[1], point[0] - center[0])) % 360.0


def point_on_circle(center: tuple[float, float], radius: float, angle_deg: float) -> tuple[int, int]:
    """The grid point nearest to the circle point at ``angle_deg`` (see :func:`angle_of`)."""
    a = math.radians(angle_deg)
    return (
        int(round(center[0] + radius * math.cos(a))),
        int(round(center[1] + radius * math.sin(a))),
    )


def circle_pixels(center: tuple[int, int], radius: int) -> np.ndarray:
    """The midpoint-circle pixels of an integer circle, unordered, shape (M, 2)."""
    cx, cy = int(center[0]), int(center[1])
    r = int(radius)
    if r < 1:
        raise ValueError(f"radius must be at least 1, got {radius}")
    pts = set()
    x, y, d = r, 0, 1 - r
    while x >= y:
        for px, py in ((x, y), (y, x), (-y, x), (-x, y), (-x, -y), (-y, -x), (y, -x), (x, -y)):
            pts.add((cx + px, cy + py))
        y += 1
        if d < 0:
            d += 2 * y + 1
        else:
            x -= 1
            d += 2 * (y - x) + 1
    return np.array(sorted(pts), dtype=np.int64)


def raster_circle(
    center: tuple[int, int],
    radius: int,
    start: tuple[float, float] | None = None,
    direction: str = "cw",
) -> np.ndarray:
    """An ideal circle drawing: ordered, 8-connected, closed, one lap, no repeats.

    Parameters
    ----------
    center : (int, int)
        Integer grid center.
    radius : int
        Integer radius, at least 1.
    start : (float, float), optional
        The drawing starts at the raster point nearest to it (default: the top point).
    direction : {"cw", "ccw"}
        Direction of travel as seen on screen (y down).

    Returns
    -------
    ndarray, shape (N, 2), int64

    Examples
    --------
    >>> pts = raster_circle((25, 25), 24, start=(25, 1), direction="cw")
    >>> pts[0].tolist(), pts[1].tolist()
    ([25, 1], [26, 1])
    """
    if direction not in ("cw", "ccw"):
        raise ValueError(f"direction must be 'cw' or 'ccw', got {direction!r}")
    pix = circle_pixels(center, radius)
    # With y down the angle grows clockwise on screen, so ascending angle walks clockwise.
    ang = np.degrees(np.arctan2(pix[:, 1] - center[1], pix[:, 0] - center[0])) % 360.0
    order = np.argsort(ang, kind="stable")
    ring = pix[order]
    if direction == "ccw":
        ring = ring[::-1]
    if start is None:
        start = (center[0], center[1] - radius)
    d = np.hypot(ring[:, 0] - start[0], ring[:, 1] - start[1])
    i0 = int(np.argmin(d))
    return np.roll(ring, -i0, axis=0)
