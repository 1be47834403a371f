"""Small helpers of the polygon scorer: a few corners' numbers in plain floats, with numpy's rules
(its first largest, a nan first), and index arrays made once and kept read-only.

A polygon has a handful of corners; a numpy call on a handful of numbers costs more than the
numbers, so the scorer reads them as plain floats where the result is the same float.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from shape_asserts.geometry.points import IntArray

__all__ = ["rolls", "window", "largest", "first_max"]


@lru_cache(maxsize=64)
def rolls(k: int) -> IntArray:
    """Row ``s``: the indices ``0..k-1`` rolled back ``s`` (read-only, made once per ``k``)."""
    out = (np.arange(k)[None, :] + np.arange(k)[:, None]) % k
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
