"""The found corners matched to the asked vertices: their order, the fair cells about each, and
the straightest sides through those cells (the polygon scorer's ``placement`` and
``straightness``).

:func:`match` reads a drawing's corners against the asked polygon; :func:`side_runs` says which
runs of the drawing :func:`straightest` will measure for it, so that the corner search can measure
them along with its last pass (:func:`~shape_asserts.geometry.corners.simplify_closed`'s
``along``) when the corners it then holds are the ones it finds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from shape_asserts.families.polygon.plain import back_rolls, rolls, window
from shape_asserts.geometry.fit.polygon import orientation
from shape_asserts.geometry.points import FloatArray
from shape_asserts.geometry.runs import Ring, Run, plain

__all__ = ["Match", "match", "side_pairs", "side_runs", "straightest", "sides", "corner_order"]


def _best_shift(corners: FloatArray, forward: bool, target: FloatArray) -> int:
    """How far to roll the ``corners`` (as many as ``target``) taken clockwise (``forward``: as they
    are, else reversed after the first) to put each vertex nearest its target."""
    # row s: the corners clockwise rolled back s (one index table), less the target
    step = corners[rolls(len(target)) if forward else back_rolls(len(target))] - target
    gap = np.hypot(step[:, :, 0], step[:, :, 1])
    # each row is summed as np.sum sums one rolled ring: a reduction along the rows' contiguous
    # axis runs the same pairwise sum on each
    return int(np.add.reduce(gap, axis=1).argmin())


def corner_order(
    corners: FloatArray, indices: tuple[int, ...], target: FloatArray
) -> tuple[list[int], bool, list[list[float]]]:
    """Drawing index of the found corner matched to each asked vertex, whether the drawing runs
    the asked (clockwise) way (from vertex i to i + 1 its indices grow), and the corners clockwise,
    rolled so that corner i lies nearest to asked vertex i (as plain ``[x, y]`` rows)."""
    k = len(indices)
    forward = orientation(corners) >= 0
    order = list(range(k)) if forward else [0] + list(range(k - 1, 0, -1))  # clockwise, the first kept first
    shift = _best_shift(corners, forward, target)
    v = corners.tolist()
    # np.roll(corners[order], -shift)'s rows: row i is the one the order puts i + shift
    rolled = [order[(i + shift) % k] for i in range(k)]
    return [indices[j] for j in rolled], forward, [v[j] for j in rolled]


class Match(NamedTuple):
    """A drawing's corners read against the asked vertices (:func:`match`)."""

    indices: tuple[int, ...]  # the corners matched, as found (drawing order)
    drawn_at: list[int]  # the drawing index of the corner matched to each asked vertex
    forward: bool  # the drawing runs the asked (clockwise) way
    drawn: list[list[float]]  # the corners clockwise, corner i nearest asked vertex i
    rows: list[list[int]]  # row i: the drawing indices looked at about corner i
    d: FloatArray  # their Chebyshev distance to the nearest fair cell of vertex i
    misses: list[float]  # per corner, the least of its row
    at: list[list[int]]  # per corner, the indices of its row at that least distance
    whole: bool  # forward on whole coordinates, none above 1e100 in size (see sides)
    pairs: list[tuple[int, int]]  # side_pairs(at): the sides straightest measures


def match(pts: FloatArray, indices: tuple[int, ...], target: FloatArray, cells: FloatArray, reach: int) -> Match:
    """The corners of ``pts`` at ``indices`` (as many as ``target``, the asked vertices clockwise)
    matched to the asked vertices: the drawn points within ``reach`` of each matched corner, their
    Chebyshev distance to the vertex's nearest fair cell (``cells``: the scorer's fair cells, x and
    y apart, each vertex's last cell repeated to four), and those nearest it."""
    drawn_at, forward, drawn = corner_order(pts.take(indices, axis=0), indices, target)
    # drawing indices near each corner (row i), their Chebyshev distance to the nearest fair cell of
    # vertex i (each vertex's one, two or four cells, the last repeated to four), and the nearest
    idx = (np.array(drawn_at)[:, None] + window(reach)) % len(pts)
    # (2, n, 4, window): cell less point, x and y apart (the points taken as rows, then turned)
    gap = cells - pts.take(idx, axis=0).transpose(2, 0, 1)[:, :, None, :]
    np.abs(gap, out=gap)
    d = np.minimum.reduce(np.maximum(gap[0], gap[1]), axis=1)
    miss = np.minimum.reduce(d, axis=1)
    rows, misses = idx.tolist(), miss.tolist()
    # the indices at the least distance, row by row (one flat list, cut by each row's count)
    hit = d == miss[:, None]
    flat: list[int] = idx[hit].tolist()
    at, start = [], 0
    for count in np.add.reduce(hit, axis=1).tolist():
        at.append(flat[start : start + count])
        start += count
    # whole coordinates, none above runs.PLAIN in size (asked only of a forward drawing: see sides)
    whole = forward and plain(pts) and bool((pts == np.floor(pts)).all())
    return Match(indices, drawn_at, forward, drawn, rows, d, misses, at, whole, side_pairs(at))


def side_pairs(at: list[list[int]]) -> list[tuple[int, int]]:
    """Every side :func:`straightest` measures: one candidate of a corner and one of the next."""
    n = len(at)
    return sorted({(p, c) for i in range(n) for p in at[i - 1] for c in at[i]})


def side_runs(size: int, pairs: list[tuple[int, int]], forward: bool, whole: bool) -> list[Run]:
    """The runs of a ring of ``size`` points that :func:`sides` measures for ``pairs``."""
    if not (forward and whole):
        return [(p, c, p, (c - p) % size + 1) if forward else (p, c, c, (p - c) % size + 1) for p, c in pairs]
    return [(p, c, p + 1, (c - p) % size - 1) for p, c in pairs if (c - p) % size >= 2]


def straightest(
    ring: Ring, at: list[list[int]], forward: bool, whole: bool, pairs: list[tuple[int, int]] | None = None
) -> tuple[float, int]:
    """Least over choices of one index per corner (``at[i]``: candidates) of the largest distance of
    a drawn point from the segment of its side; and the index of that farthest point.

    A cycle of corners, solved by fixing corner 0's choice and a min-max dynamic programme along
    the others: ``len(at) × choices²`` side measurements (``pairs``: :func:`side_pairs` of ``at``,
    when the caller has them), all taken at once first, on ``ring`` (the drawing's, which may
    remember some: see :func:`sides`).
    """
    n = len(at)
    pairs = side_pairs(at) if pairs is None else pairs
    side = dict(zip(pairs, sides(ring, pairs, forward, whole)))

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


def sides(ring: Ring, pairs: list[tuple[int, int]], forward: bool, whole: bool) -> list[tuple[float, int]]:
    """Per side ``(p, c)``: the farthest of the drawn points from ``p`` to ``c`` (both included) from
    their segment, and where (:meth:`.runs.Ring.farthest` of :func:`side_runs`).

    A side runs forward from p, or back from c when the drawing runs the other way. Forward, on
    ``whole`` coordinates (whole numbers, none above 1e100 in size), its ends lie exactly 0 from it
    (p gives t = 0; c gives t = den / den = 1, den > 0 whenever p and c differ), so its farthest is
    its inner points' when farther than 0, else p itself: those inner runs are the ones RDP
    measured between neighbouring corners (the ring remembers them)."""
    size = ring.n
    found = ring.farthest(side_runs(size, pairs, forward, whole))
    if not (forward and whole):
        return found
    inner = iter(found)
    out = []
    for p, c in pairs:
        top, k = next(inner) if (c - p) % size >= 2 else (0.0, p)
        out.append((top, k) if top > 0 else (0.0, p))
    return out
