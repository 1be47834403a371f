"""Points as arrays: the array types every geometry function uses, and the one shape guard.

Every function in :mod:`shape_asserts.geometry` takes an ``(N, 2)`` array of ``(x, y)`` grid points
in drawing order (y down, as on screen) and passes it through :func:`as_points` first, so a wrong
shape fails in one place with one message.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

__all__ = ["FloatArray", "IntArray", "BoolArray", "Point", "as_points", "round_half_up", "roll_rows"]

#: Float arrays: points ``(N, 2)``, distances ``(N,)``, angles.
FloatArray = npt.NDArray[np.float64]
#: Integer arrays: cells, indices.
IntArray = npt.NDArray[np.int64]
#: Masks.
BoolArray = npt.NDArray[np.bool_]
#: One ``(x, y)`` position.
Point = tuple[float, float]


def as_points(points: ArrayLike) -> FloatArray:
    """``points`` as a float ``(N, 2)`` array; ``ValueError`` for any other shape.

    Examples
    --------
    >>> as_points([[1, 2], [3, 4]]).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    >>> as_points([1, 2])
    Traceback (most recent call last):
    ...
    ValueError: points must have shape (N, 2), got (2,)
    """
    pts = np.asarray(points, dtype=float)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"points must have shape (N, 2), got {pts.shape}")
    return pts


def round_half_up(values: ArrayLike) -> FloatArray:
    """The cells coordinates fall in, halves rounded up (not to even, as ``np.rint`` does).

    Shifting a case by whole cells then shifts its cells exactly: 24.5 and 25.5 both round up.

    Examples
    --------
    >>> round_half_up([24.5, 25.5, -0.5, 3.49]).tolist()
    [25.0, 26.0, 0.0, 3.0]
    """
    return np.floor(np.asarray(values, dtype=float) + 0.5)


def roll_rows(a: npt.NDArray[Any], shift: int) -> npt.NDArray[Any]:
    """``a`` rolled by ``shift`` along its first axis: the neighbours along a closed path.

    >>> roll_rows(np.array([1, 2, 3]), -1).tolist()
    [2, 3, 1]
    """
    out: npt.NDArray[Any] = np.roll(a, shift, axis=0)
    return out
