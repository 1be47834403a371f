"""A drawing cut down to a bounded number of points, for a picture that stays small.

A hostile answer may hold up to 5,000 points in its record; drawn in full, each point is a cell and
a step of SVG, about 160 bytes, so one such answer added some 800 KB to the report per drawing.
:func:`thin` keeps at most a given number of points, evenly spaced along the path (the first and
the last among them), and carries the drawing's gaps and contour breaks over to the steps of the
thinned path that span them, so the picture still shows where the pen jumped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from shape_asserts.geometry.points import as_points

__all__ = ["Thinned", "thin"]


@dataclass(frozen=True)
class Thinned:
    """A drawing cut down to at most ``limit`` points for a picture, with its marks carried over.

    ``kept`` are the indices of the points kept (the first and the last among them); ``gap_steps``
    the steps of the thinned path (from kept point ``i`` to ``i + 1``) that hold one of the
    drawing's gaps, and ``breaks`` the kept points where a new contour has begun.
    """

    points: np.ndarray
    kept: np.ndarray
    gap_steps: tuple[int, ...]
    breaks: tuple[int, ...]


def thin(points: np.ndarray, limit: int, *, gaps: Sequence[int] = (), breaks: Sequence[int] = ()) -> Thinned:
    """At most ``limit`` (≥ 2) points of ``points``, evenly spaced along the path, for a bounded picture.

    A step of the thinned path that spans a gap of the drawing is a gap step; one that spans the
    start of a new contour ends at a break.

    Examples
    --------
    >>> t = thin(np.array([[i, 0] for i in range(10)]), 4, gaps=[5])
    >>> t.kept.tolist(), t.gap_steps
    ([0, 3, 6, 9], (1,))
    """
    pts = as_points(points)
    n = len(pts)
    if n <= limit:
        kept = np.arange(n)
    else:
        kept = np.unique(np.linspace(0, n - 1, max(2, int(limit))).round().astype(np.int64))

    def step(i: int) -> int:  # the thinned step holding the drawing's step i → i + 1
        return int(np.searchsorted(kept, i, side="right")) - 1

    steps = tuple(sorted({step(int(i)) for i in gaps if 0 <= int(i) < n - 1}))
    lifts = tuple(sorted({step(int(b) - 1) + 1 for b in breaks if 0 < int(b) < n}))
    return Thinned(points=pts[kept], kept=kept, gap_steps=steps, breaks=lifts)
