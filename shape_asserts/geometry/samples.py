"""The asked curves as fine float samples: what ideal drawings are rasterised from and outlines measured against.

Angles follow the seed post (:func:`shape_asserts.geometry.raster.angle_of`): degrees, 0° pointing
right and growing clockwise on screen (y down).

Examples
--------
>>> ellipse_xy((25, 25), 10, 5, 90, [0.0]).round(6).tolist()
[[25.0, 35.0]]
>>> spiral_samples((25, 25), 6, 2, 0, "cw", 50)[[0, -1]].round(6).tolist()  # 2 laps 6 cells apart
[[25.0, 25.0], [37.0, 25.0]]
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray, Point

__all__ = ["ellipse_xy", "spiral_xy", "spiral_samples"]


def ellipse_xy(center: Point, a: float, b: float, rotation: float, t: ArrayLike) -> FloatArray:
    """Points of an ellipse at parameters ``t`` (radians), shape (len(t), 2).

    ``a`` is the semi-axis along ``rotation`` (degrees, the :func:`angle_of` convention: 0° right,
    clockwise on screen); growing ``t`` travels clockwise on screen.
    """
    t = np.asarray(t, dtype=float)
    phi = math.radians(rotation)
    c, s = math.cos(phi), math.sin(phi)
    u, v = a * np.cos(t), b * np.sin(t)
    return np.column_stack([center[0] + u * c - v * s, center[1] + u * s + v * c])


def spiral_xy(
    center: Point, spacing: float, turns: float, angle: float, direction: str, t: ArrayLike, *, inner: float = 0.0
) -> FloatArray:
    """Points of an outward Archimedean spiral at ``t`` ∈ [0, 1] of its length in turns, shape (len(t), 2).

    The spiral starts ``inner`` cells from ``center`` (0: on it), turns ``direction`` ("cw"/"ccw" on
    screen) while its radius grows evenly with the angle, and ends, after ``turns`` laps, at radius
    ``spacing · turns`` and polar angle ``angle`` (degrees, :func:`angle_of` convention). With
    ``inner`` = 0 this is ``r = spacing · θ / 2π``; an inner offset keeps both the laps and the outer
    end, so its laps lie ``spacing − inner / turns`` apart.
    """
    if direction not in ("cw", "ccw"):
        raise ValueError(f"direction must be 'cw' or 'ccw', got {direction!r}")
    theta = np.asarray(t, dtype=float) * 2 * math.pi * turns
    sign = 1.0 if direction == "cw" else -1.0
    # written so that no offset gives exactly spacing · θ / 2π
    r = inner + (spacing - inner / turns) * theta / (2 * math.pi)
    phi = math.radians(angle) - sign * (2 * math.pi * turns - theta)
    return np.column_stack([center[0] + r * np.cos(phi), center[1] + r * np.sin(phi)])


def spiral_samples(
    center: Point,
    spacing: float,
    turns: float,
    angle: float,
    direction: str,
    count: int,
    *,
    inward: bool = False,
    inner: float = 0.0,
) -> FloatArray:
    """``count`` points of the asked spiral evenly spaced along it, from the center out, shape (count, 2).

    ``direction`` is the way the *drawing* turns: drawn inward one way, the same curve traced
    outward turns the other way. ``inner`` is the inner end's distance from the center
    (:func:`spiral_xy`).
    """
    grow = direction if not inward else ("ccw" if direction == "cw" else "cw")
    # arc length grows as θ², so t = √u spaces the samples evenly along the curve (with an inner
    # offset it grows a little faster near the center: the samples there are only closer)
    return spiral_xy(center, spacing, turns, angle, grow, np.sqrt(np.linspace(0, 1, count)), inner=inner)
