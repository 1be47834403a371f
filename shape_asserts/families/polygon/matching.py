"""The found corners matched to the asked vertices: their order and the fair cells about each (the
polygon scorer's ``placement``).

:func:`match` reads a drawing's corners against the asked polygon.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.distances import chebyshev, segment_distance
from shape_asserts.geometry.fit.polygon import interior_angles
from shape_asserts.geometry.points import BoolArray, FloatArray, IntArray

__all__ = ["Match", "match", "corner_order", "cut_cells", "straightest", "side_deviation"]


def corner_order(
    corners: FloatArray, indices: tuple[int, ...], target: FloatArray
) -> tuple[list[int], bool, FloatArray]:
    """Drawing index of the found corner matched to each asked vertex, whether the drawing runs
    the asked (clockwise) way (from vertex i to i + 1 its indices grow), and the corners clockwise,
    rolled so that corner i lies nearest to asked vertex i.

    The roll is the one with the least sum of distances from each corner to its vertex (the
    first such roll on a tie)."""
    k = len(indices)
    forward = signed_area(corners) >= 0
    # clockwise, the first kept first
    order = np.arange(k) if forward else np.concatenate(([0], np.arange(k - 1, 0, -1)))
    # row s: that order rolled back s
    rolled = order[(np.arange(k)[None, :] + np.arange(k)[:, None]) % k]
    step = corners[rolled] - target
    gap = np.hypot(step[:, :, 0], step[:, :, 1])
    best = rolled[int(np.argmin(gap.sum(axis=1)))]
    return [indices[j] for j in best.tolist()], forward, corners[best]


class Match(NamedTuple):
    """A drawing's corners read against the asked vertices (:func:`match`)."""

    forward: bool  # the drawing runs the asked (clockwise) way
    drawn: FloatArray  # the corners clockwise, corner i nearest asked vertex i
    near: list[IntArray]  # per corner, the drawing indices looked at about it
    d: list[FloatArray]  # their Chebyshev distance to the nearest fair cell of the corner's vertex
    misses: FloatArray  # per corner, the least of its distances
    at: list[list[int]]  # per corner, the drawing indices at that least distance
    placed: FloatArray  # per corner, the cell (drawn, or cut round) at that least distance


def cut_cells(pts: FloatArray, idx: IntArray, turn: int) -> FloatArray:
    """Per index, the cell a diagonal step from that point to the next one cuts round, turning the
    way ``turn`` says (+1: clockwise on screen, -1: counter-clockwise), shape (len(idx), 2); the
    point itself where the step is not diagonal.

    An 8-connected line turns an L-corner by a diagonal step: the corner cell it goes round is
    passed, not drawn. Of the two cells a diagonal step cuts, the drawing goes round the one on
    the outside of its turn; the one on the inside is a cell it turned before reaching."""
    here = pts[idx]
    after = pts[(idx + 1) % len(pts)]
    step = after - here
    diagonal = (np.abs(step[:, 0]) == 1) & (np.abs(step[:, 1]) == 1)
    # the L through (x after, y here) turns the way of dx·dy (clockwise on screen when positive),
    # the L through (x here, y after) the other way
    same_way = np.sign(step[:, 0] * step[:, 1]) == turn
    cut = np.where(
        same_way[:, None],
        np.column_stack([after[:, 0], here[:, 1]]),
        np.column_stack([here[:, 0], after[:, 1]]),
    )
    out: FloatArray = np.where(diagonal[:, None], cut, here)
    return out


def match(pts: FloatArray, indices: tuple[int, ...], target: FloatArray, cells: list[FloatArray], reach: int) -> Match:
    """The corners of ``pts`` at ``indices`` (as many as ``target``, the asked vertices clockwise)
    matched to the asked vertices: the drawn points within ``reach`` of each matched corner and
    their Chebyshev distance to the vertex's nearest fair cell (``cells``: each vertex's fair cells,
    as :func:`~shape_asserts.geometry.fit.polygon.vertex_cells` gives them), a cell the drawing
    cuts round at that corner (:func:`cut_cells`) counting as drawn."""
    drawn_at, forward, drawn = corner_order(pts[list(indices)], indices, target)
    # the way the drawing turns at each corner: with its run round the polygon at a convex vertex,
    # against it at a star's inner corner
    run = 1 if forward else -1
    convex = interior_angles(target) < 180.0
    window = np.arange(-reach, reach + 1)
    near, d, at, placed = [], [], [], []
    for corner, fair, out in zip(drawn_at, cells, convex.tolist()):
        idx = (corner + window) % len(pts)
        # every drawn point about the corner (and the cell its step cuts round) against every fair cell
        drawn_d = chebyshev(pts[idx][:, None, :], fair[None, :, :]).min(axis=1)
        cut = cut_cells(pts, idx, run if out else -run)
        cut_d = chebyshev(cut[:, None, :], fair[None, :, :]).min(axis=1)
        dist = np.minimum(drawn_d, cut_d)
        near.append(idx)
        d.append(dist)
        at.append(idx[dist == dist.min()].tolist())
        best = int(np.argmin(dist))
        placed.append(pts[idx[best]] if drawn_d[best] <= cut_d[best] else cut[best])
    misses = np.array([row.min() for row in d])
    return Match(forward, drawn, near, d, misses, at, np.array(placed, dtype=float))


def side_deviation(pts: FloatArray, p: int, c: int, forward: bool, on_outline: BoolArray) -> tuple[float, int]:
    """The farthest of the drawn points from ``p`` to ``c`` (both included) from their segment, and
    where; a point marked ``on_outline`` (it lies on the asked polygon's exact side, as a cell the
    side passes through does) counts as straight. A side runs forward from ``p``, or back from
    ``c`` when the drawing runs the other way."""
    n = len(pts)
    first, count = (p, (c - p) % n + 1) if forward else (c, (p - c) % n + 1)
    at = (first + np.arange(count)) % n
    d = np.where(on_outline[at], 0.0, segment_distance(pts[at], pts[p], pts[c]))
    k = int(np.argmax(d))
    return float(d[k]), int(at[k])


def straightest(pts: FloatArray, at: list[list[int]], forward: bool, on_outline: BoolArray) -> tuple[float, int]:
    """Least over choices of one index per corner (``at[i]``: candidates) of the largest distance of
    a drawn point from the segment of its side (a point ``on_outline`` counting as straight); and
    the index of that farthest point.

    A cycle of corners, solved by fixing corner 0's choice and a min-max dynamic programme along
    the others: ``len(at) × choices²`` side measurements (:func:`side_deviation`).
    """
    n = len(at)
    pairs = sorted({(p, c) for i in range(n) for p in at[i - 1] for c in at[i]})
    side = {(p, c): side_deviation(pts, p, c, forward, on_outline) for p, c in pairs}

    best: tuple[float, int] = (float("inf"), 0)
    for first_at in at[0]:
        # cost[c]: the worst side so far ending with corner i at candidate c; each worse / least is
        # the builtin max(a, b) / min of a list: the first of equals kept (tuples: a nan compares as
        # they compare it)
        cost = {first_at: (0.0, first_at)}
        for i in range(1, n + 1):
            new: dict[int, tuple[float, int]] = {}
            for c in (first_at,) if i == n else at[i]:
                least = None
                for p, so_far in cost.items():
                    s = side[(p, c)]
                    worse = s if s > so_far else so_far
                    if least is None or worse < least:
                        least = worse
                new[c] = least  # type: ignore[assignment]  # (every cost holds one candidate or more)
            cost = new
        if cost[first_at] < best:
            best = cost[first_at]
    return best
