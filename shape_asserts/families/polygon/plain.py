"""Small helpers of the polygon scorer: a few corners' numbers in plain floats, with numpy's rules
(its first largest, a nan first; a star's alternation of tips and inner corners), and index arrays
made once and kept read-only.

A polygon has a handful of corners; a numpy call on a handful of numbers costs more than the
numbers, so the scorer reads them as plain floats where the result is the same float.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from shape_asserts.geometry.fit.polygon import np_sum
from shape_asserts.geometry.points import FloatArray, IntArray, roll_rows

__all__ = ["rolls", "back_rolls", "window", "largest", "first_max", "alternation", "alternation_arrays"]


@lru_cache(maxsize=64)
def rolls(k: int) -> IntArray:
    """Row ``s``: the indices ``0..k-1`` rolled back ``s`` (read-only, made once per ``k``)."""
    out = (np.arange(k)[None, :] + np.arange(k)[:, None]) % k
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def back_rolls(k: int) -> IntArray:
    """:func:`rolls` of the order ``0, k - 1, …, 1`` (a counter-clockwise ring taken clockwise, the
    first kept first): row ``s``, that order rolled back ``s`` (read-only, made once per ``k``)."""
    out = np.array([0, *range(k - 1, 0, -1)])[rolls(k)]
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def window(w: int) -> IntArray:
    """Offsets ``-w..w`` of the drawn points looked at about a corner (read-only, made once per ``w``)."""
    out = np.arange(-w, w + 1)
    out.flags.writeable = False
    return out


def largest(values: list[float]) -> float:
    """``np.maximum.reduce`` of a short list of floats: its largest, nan when one is nan."""
    return float("nan") if any(v != v for v in values) else max(values)


def first_max(values: list[float]) -> int:
    """``np.argmax`` of a short list of floats: the first largest, or the first nan when there is one."""
    for i, v in enumerate(values):
        if v != v:
            return i
    return values.index(max(values))


def alternation(corners: FloatArray) -> tuple[bool, float, str]:
    """Whether the corners alternate far and near about their centroid, and near / far radius.

    A star's ten or so corners, in plain floats where numpy would spend more on each call than on
    its numbers: the centroid as ``mean(axis=0)`` adds the rows in turn from 0.0, each mean is a
    sum (:func:`np_sum`, numpy's order) over the count, and a nan radius makes the middle nan as
    ``np.maximum`` would; only the radii are numpy's (``np.hypot``)."""
    if len(corners) > _FEW_CORNERS:  # a scribble's many "corners": numpy's calls cost less there
        return alternation_arrays(corners)
    v = corners.tolist()
    k = len(v)
    sx = sy = 0.0
    for x, y in v:
        sx += x
        sy += y
    cx, cy = sx / k, sy / k
    r: list[float] = np.hypot(*np.array([(x - cx, y - cy) for x, y in v]).T).tolist()
    mid = float("nan") if any(x != x for x in r) else (max(r) + min(r)) / 2.0
    far = [x > mid for x in r]
    alternates = k % 2 == 0 and all(f != g for f, g in zip(far, far[-1:] + far[:-1]))
    tips = [x for x, f in zip(r, far) if f]
    inner = [x for x, f in zip(r, far) if not f]
    ratio = (np_sum(inner) / len(inner)) / (np_sum(tips) / len(tips)) if tips and inner else 0.0
    runs = "" if alternates else "tips and inner corners do not alternate round the star"
    return alternates, ratio, runs


#: Corners up to this many are read as plain floats (:func:`alternation`).
_FEW_CORNERS = 64


def alternation_arrays(corners: FloatArray) -> tuple[bool, float, str]:
    """:func:`alternation` by numpy's calls, for many corners (the same floats)."""
    rel = corners - corners.mean(axis=0)
    r = np.hypot(rel[:, 0], rel[:, 1])
    mid = (np.maximum.reduce(r) + np.minimum.reduce(r)) / 2.0
    far = r > mid
    alternates = len(r) % 2 == 0 and bool(np.logical_and.reduce(far != roll_rows(far, 1)))
    tips, inner = r[far], r[~far]
    # a mean is the sum over the count: np.mean's float, without its wrapper
    ratio = (
        float((np.add.reduce(inner) / len(inner)) / (np.add.reduce(tips) / len(tips)))
        if len(tips) and len(inner)
        else 0.0
    )
    return alternates, ratio, "" if alternates else "tips and inner corners do not alternate round the star"
