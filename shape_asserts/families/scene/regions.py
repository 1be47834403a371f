"""Regions of a drawing's grid: the empty cells walled in by drawn ones (what
:func:`.strokes.holes` finds loops by), and the pieces a drawing falls into (what
:func:`.strokes.solid_parts` tells attached parts from floating ones by)."""

from __future__ import annotations

from collections import deque

import numpy as np

from shape_asserts.geometry.points import BoolArray, IntArray

__all__ = ["enclosed", "pieces"]


def enclosed(drawn: BoolArray) -> list[BoolArray]:
    """The regions of empty cells (4-connected) but the first in row-major order, each as a mask,
    in the order of their first cells. The caller leaves a margin of empty cells all round the
    drawing, so the first region, the one holding the top-left cell, is the outside.

    A flood fill from each empty cell not yet reached, in row-major order; the grid is the
    drawing's box of at most ``(grid_size + 4)²`` cells (:func:`.strokes.holes` leaves points off
    the grid out), so a hostile answer costs no more than a fair one."""
    h, w = drawn.shape
    reached = drawn.tolist()  # (nested lists: one cell's look-up is cheaper than an array's)
    regions: list[BoolArray] = []
    for y0 in range(h):
        for x0 in range(w):
            if reached[y0][x0]:
                continue
            reached[y0][x0] = True
            cells = [(y0, x0)]
            queue = deque(cells)
            while queue:
                y, x = queue.popleft()
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < h and 0 <= nx < w and not reached[ny][nx]:
                        reached[ny][nx] = True
                        cells.append((ny, nx))
                        queue.append((ny, nx))
            region = np.zeros((h, w), dtype=bool)
            ys, xs = zip(*cells)
            region[list(ys), list(xs)] = True
            regions.append(region)
    return regions[1:]


def pieces(mask: BoolArray) -> IntArray:
    """The 8-connected pieces of ``mask``: each cell's piece, numbered from 1 in row-major order
    of their first cells, 0 where ``mask`` is empty. A flood fill, as :func:`enclosed`'s, over a
    grid of at most ``(grid_size + 4)²`` cells."""
    h, w = mask.shape
    label = [[0] * w for _ in range(h)]
    filled = mask.tolist()
    count = 0
    for y0 in range(h):
        for x0 in range(w):
            if not filled[y0][x0] or label[y0][x0]:
                continue
            count += 1
            label[y0][x0] = count
            queue = deque([(y0, x0)])
            while queue:
                y, x = queue.popleft()
                for ny in (y - 1, y, y + 1):
                    for nx in (x - 1, x, x + 1):
                        if 0 <= ny < h and 0 <= nx < w and filled[ny][nx] and not label[ny][nx]:
                            label[ny][nx] = count
                            queue.append((ny, nx))
    return np.array(label, dtype=np.int64).reshape(h, w)
