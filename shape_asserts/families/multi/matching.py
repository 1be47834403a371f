"""Matching contours to the asked circles: the least total cost, one to one (:func:`assign`)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray

__all__ = ["assign"]


def assign(cost: ArrayLike) -> list[tuple[int, int]]:
    """Pairs ``(row, column)`` matching rows to columns one-to-one with the least total cost.

    Exact (brute force over permutations) when neither side has more than 7 entries, greedy by
    increasing cost otherwise; ``min(rows, columns)`` pairs, sorted by row. Totals within
    :data:`TIE` (relative; absolute below 1) of the least are a tie, won by the first permutation
    in ``itertools.permutations`` order: equal costs (two fitted radii on the same side of both
    asked ones) are matched the same way whatever their last bits, so a fit that differs by a
    rounding matches as before.

    Examples
    --------
    >>> assign(np.array([[5.0, 1.0], [1.0, 5.0], [9.0, 9.0]]))
    [(0, 1), (1, 0)]
    """
    cost = np.asarray(cost, dtype=float)
    m, k = cost.shape
    if m == 0 or k == 0:
        return []
    if max(m, k) <= 7:
        return _least_permutation(cost)
    return _greedy(cost)


def _least_permutation(cost: FloatArray) -> list[tuple[int, int]]:
    """:func:`assign` by brute force: every one-to-one matching's total, the first least one."""
    m, k = cost.shape
    # Python floats, added one by one left to right (not sum(), which adds exact floats with
    # compensation from Python 3.12 on): every permutation's total the same float whatever it is
    # compared with
    c = cost.tolist()
    perms = list(itertools.permutations(range(max(m, k)), min(m, k)))
    # m >= k: perm[j] is the row of column j; else perm[i] is the column of row i
    lines = list(zip(*c)) if m >= k else c  # columns (lines[j][i] is cost[i, j]), or rows
    totals = []
    for perm in perms:
        total = 0.0
        for line, at in zip(lines, perm):
            total += line[at]
        totals.append(total)
    first = _first_least(totals)
    if first is None:
        return []
    perm = perms[first]
    return sorted((perm[j], j) for j in range(k)) if m >= k else [(i, perm[i]) for i in range(m)]


def _greedy(cost: FloatArray) -> list[tuple[int, int]]:
    """:func:`assign` for many rows or columns: the cheapest free pair taken, again and again."""
    order = np.dstack(np.unravel_index(np.argsort(cost, axis=None, kind="stable"), cost.shape))[0]
    rows, cols, pairs = set(), set(), []
    for i, j in order:
        if i not in rows and j not in cols:
            rows.add(int(i))
            cols.add(int(j))
            pairs.append((int(i), int(j)))
    return sorted(pairs)


#: Totals this close to the least (relative; absolute below 1) tie with it: :func:`assign`.
TIE = 1e-9


def _first_least(totals: list[float]) -> int | None:
    """The first total within :data:`TIE` of the least (NaN totals count as none), or ``None``."""
    least = min((t for t in totals if t == t), default=math.inf)
    if not least < math.inf:
        return None
    near = least + TIE * max(1.0, abs(least))
    return next(i for i, t in enumerate(totals) if t <= near)
