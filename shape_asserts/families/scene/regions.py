"""Regions of empty cells walled in by drawn ones: what :func:`.strokes.holes` finds loops by.

A drawing's cells are read row by row as runs of empty cells; runs of neighbouring rows that share
a column are one region (4-connected), joined by union–find, so the work grows with the runs, not
the cells. The first region in row-major order is the outside.
"""

from __future__ import annotations

import numpy as np

from shape_asserts.geometry.points import BoolArray, IntArray

__all__: list[str] = []


#: A region as its runs of empty cells, row-major: ``(row, first column, one past the last)``.
Runs = list[tuple[int, int, int]]


def _enclosed(drawn: BoolArray, *, empty_margin: bool = False) -> list[BoolArray]:
    """The regions of empty cells (4-connected) but the first in row-major order (the one holding
    the margin's top-left cell: the outside), each as a mask, in the order of their first cells
    (the order a flood fill from every empty cell in turn numbers them): :func:`_enclosed_runs`
    of ``drawn``, each region's runs marked."""
    out = []
    for region in _enclosed_runs(drawn, empty_margin=empty_margin):
        mask = np.zeros(drawn.shape, dtype=bool)
        for y, start, stop in region:
            mask[y, start:stop] = True
        out.append(mask)
    return out


def _enclosed_runs(drawn: BoolArray, *, empty_margin: bool = False) -> list[Runs]:
    """:func:`_enclosed`'s regions, each as its runs (:data:`Runs`), in the same order.

    Found by runs: the empty cells of each row in runs, runs of neighbouring rows that share a
    column joined (union–find), so the work grows with the runs, not the cells.
    ``empty_margin``: the caller knows the outer rows and columns hold no drawn cell (and there
    are at least two rows), as :func:`.strokes.holes` makes the grid: they are not looked at.
    """
    h, w = drawn.shape
    padded = np.zeros((h, w + 2), dtype=bool)
    padded[:, 1:-1] = ~drawn
    # where a row turns from drawn (or the padding) to empty and back, row-major: each row's
    # turns alternate, a run's start then one past its last cell (the padding ends every row
    # drawn), so every second one is a start (np.diff's +1s) and the others its stop (its -1s)
    # (found along the rows laid end to end: a row's last cell and the next row's first are both
    # padding, never a turn; each turn's row and column by one divmod)
    flat = padded.ravel()
    turn_rows, turns = np.divmod((flat[1:] != flat[:-1]).nonzero()[0], w + 2)
    rows, starts, stops = turn_rows[::2], turns[::2], turns[1::2]
    if empty_margin or (h >= 2 and not (drawn[0].any() or drawn[-1].any() or drawn[:, 0].any() or drawn[:, -1].any())):
        return _enclosed_in_margin(drawn.shape, rows, starts, stops)
    ry, rs, re = rows.tolist(), starts.tolist(), stops.tolist()
    parent = list(range(len(ry)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # join each run with the runs of the row above that share a column (two pointers per row pair)
    first: dict[int, int] = {}
    for i, y in enumerate(ry):
        first.setdefault(y, i)
    for y, lo in first.items():
        above = first.get(y - 1)
        if above is None:
            continue
        i, j = above, lo
        while i < lo and j < len(ry) and ry[j] == y:
            if rs[i] < re[j] and rs[j] < re[i]:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            if re[i] <= re[j]:
                i += 1
            else:
                j += 1
    # the first region in row-major order is the outside: it holds the margin's top-left cell
    outside = root(0) if ry else -1
    regions: dict[int, list[int]] = {}
    for i in range(len(ry)):
        r = root(i)
        if r != outside:
            regions.setdefault(r, []).append(i)
    return _region_runs(regions, ry, rs, re)


def _region_runs(regions: dict[int, list[int]], ry: list[int], rs: list[int], re: list[int]) -> list[Runs]:
    """Each region's runs (indices into ``ry``, ``rs``, ``re``) as :data:`Runs`, regions in the
    order of their first runs."""
    # a region's first run in row-major order holds its first cell; runs are listed in that order
    return [[(ry[i], rs[i], re[i]) for i in region] for region in sorted(regions.values(), key=lambda rr: rr[0])]


def _enclosed_in_margin(shape: tuple[int, int], rows: IntArray, starts: IntArray, stops: IntArray) -> list[Runs]:
    """:func:`_enclosed` when the grid's outer rows and columns are empty (as :func:`holes` makes
    it), from its runs: every row's first and last run touch the margin, so every run touching the
    left or right edge is in the outside (the margin joins them all). Those are put there at once
    and only the inner runs are joined to the runs above and below them that share a column: the
    same regions, found with a fraction of the work."""
    h, w = shape
    n = len(rows)
    border = (starts == 0) | (stops == w)
    inner = (~border).nonzero()[0].tolist()
    if not inner:
        return []
    # run 0 is the top row, all margin: the outside, which every border run is put in
    parent = [0] * n
    for j in inner:
        parent[j] = j
    on_border = border.tolist()
    # each row's runs are the indices row_at[y] .. row_at[y + 1] - 1 (every row has runs)
    row_at = rows.searchsorted(np.arange(h + 1)).tolist()
    ry, rs, re = rows.tolist(), starts.tolist(), stops.tolist()

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # every pair of runs sharing a column once: an inner run joins each run above it, and the
    # outside where a border run lies below it (an inner run below joins it from its own side);
    # inner runs never lie in the top or bottom row
    for j in inner:
        y, lo, hi = ry[j], rs[j], re[j]
        i, stop = row_at[y - 1], row_at[y]
        while i < stop and re[i] <= lo:
            i += 1
        while i < stop and rs[i] < hi:
            # root(i) and root(j), called only past a parent that is a root itself (the
            # roots are the same: a component's least run, whatever is compressed)
            a, b = parent[i], parent[j]
            if parent[a] != a:
                a = root(a)
            if parent[b] != b:
                b = root(b)
            if a != b:
                parent[max(a, b)] = min(a, b)
            i += 1
        i, stop = row_at[y + 1], row_at[y + 2]
        while i < stop and re[i] <= lo:
            i += 1
        while i < stop and rs[i] < hi:
            if on_border[i]:  # (the outside's root is 0, the least run: it stays the root)
                b = parent[j]
                if parent[b] != b:
                    b = root(b)
                parent[b] = 0
                break
            i += 1
    outside = root(0)
    regions: dict[int, list[int]] = {}
    for i in inner:
        r = root(i)
        if r != outside:
            regions.setdefault(r, []).append(i)
    return _region_runs(regions, ry, rs, re)
