"""Whether the contours matched to the asked circles meet, and how near they come
(:func:`meetings`, for :func:`.scorer.score_circles`' ``intersections`` check and its
``min_separation`` metric)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from shape_asserts.geometry.contours import CellPath, Contour, Intersection, cell_paths, intersection
from shape_asserts.geometry.distances import cell_distance
from shape_asserts.geometry.points import FloatArray

__all__ = ["meetings"]


#: Pairs of cells compared at once by :func:`_cell_gap` (larger contours go to ``cell_distance``).
_GAP_PAIRS = 65_536


#: Cells as 16-bit integers (see :func:`_cell_gap`).
Int16Array = npt.NDArray[np.int16]
#: Cells within this of 0 in x and y are compared as 16-bit integers by :func:`_cell_gap` (their
#: differences stay within the type).
_SMALL_CELL = 16_000


def _cell_gap(a: FloatArray, b: FloatArray, small: tuple[Int16Array, Int16Array] | None) -> float:
    """``cell_distance(a, b)``: the least Chebyshev distance between a cell of ``a`` and one of
    ``b`` — for contours of a few hundred cells every pair at once (the same minimum of the same
    differences), else its near-linear search.

    ``small``: ``a``'s and ``b``'s cells as int16 rows of x and of y (``(2, n)`` each) when every
    cell lies within :data:`_SMALL_CELL` of 0: both coordinates' differences then come from one
    subtraction (``(2, len(a), len(b))``). Cells are whole numbers, so their differences, absolute
    values and larger ones are exact either way, and the least as a float is the same number (a
    zero is +0.0 both ways: ``abs`` clears the sign); the narrow type moves a quarter of the bytes."""
    if len(a) == 0 or len(b) == 0 or len(a) * len(b) > _GAP_PAIRS:
        return cell_distance(a, b)
    if small is not None:
        rows_a, rows_b = small
        d = rows_a[:, :, None] - rows_b[:, None, :]
        np.abs(d, out=d)
        np.maximum(d[0], d[1], out=d[0])
        return float(np.minimum.reduce(d[0], axis=None))
    dx = np.abs(a[:, 0, None] - b[None, :, 0])
    dy = np.abs(a[:, 1, None] - b[None, :, 1])
    return float(np.minimum.reduce(np.maximum(dx, dy), axis=None))


def meetings(
    pts: FloatArray,
    contours: Sequence[Contour],
    matched: list[int],
    meet: Callable[[CellPath, CellPath], Intersection] = intersection,
) -> tuple[list[tuple[int, int, Intersection]], float]:
    """The pairs ``(i, j, where)`` of the ``matched`` contours (indices into ``contours``, ascending)
    that share a cell or cross (``meet``: :func:`.contours.intersection`), and the least Chebyshev
    distance between two of their cells (infinite below two contours)."""
    hits: list[tuple[int, int, Intersection]] = []
    least = math.inf
    if len(matched) < 2:
        return hits, least
    # the contours' cells, repeats kept: the least distance between two contours is the same
    # minimum over the same pairs of cells (``min_distance`` drops the repeats only to search
    # less); all matched contours rounded at once, each one's a slice (a matched contour has a
    # fit, so its points are finite: the boxes' gaps are plain floats)
    spans = [(contours[ci].start, contours[ci].stop) for ci in matched]
    whole = spans[0][0] == 0 and spans[-1][1] == len(pts) and all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    rounded = np.rint(pts if whole else np.concatenate([pts[a:b] for a, b in spans]))
    ends = list(itertools.accumulate(b - a for a, b in spans))
    offsets = [0, *ends[:-1]]
    slices = {ci: slice(o, e) for ci, o, e in zip(matched, offsets, ends)}
    cells = {ci: rounded[at] for ci, at in slices.items()}
    # each contour's box: the least and the largest of its cells' x and y (CellPath.of's cells)
    lows = np.minimum.reduceat(rounded, offsets, axis=0).tolist()
    highs = np.maximum.reduceat(rounded, offsets, axis=0).tolist()
    box = dict(zip(matched, zip(lows, highs)))
    # every cell within _SMALL_CELL of 0: x and y apart as int16 for _cell_gap
    cols: dict[int, Int16Array] = {}
    if min(min(lo) for lo in lows) >= -_SMALL_CELL and max(max(hi) for hi in highs) <= _SMALL_CELL:
        rows16 = rounded.T.astype(np.int16, order="C")  # (2, m): each coordinate's row contiguous
        cols = {ci: rows16[:, at] for ci, at in slices.items()}
    # each pair's boxes' gap: no two cells of boxes this far apart are nearer
    aparts: dict[tuple[int, int], float] = {}
    for i, j in itertools.combinations(matched, 2):
        (lo_i, hi_i), (lo_j, hi_j) = box[i], box[j]
        aparts[i, j] = max(max(lo_j[0] - hi_i[0], lo_i[0] - hi_j[0]), max(lo_j[1] - hi_i[1], lo_i[1] - hi_j[1]))
    pair_gap: dict[tuple[int, int], float] = {}  # the cells' least gap of each pair that could lower the least
    # (nearest boxes first: the least found early spares the pairs whose boxes are farther apart)
    for (i, j), apart in sorted(aparts.items(), key=lambda pair: pair[1]):
        if apart < least:  # (else the pair cannot lower the least)
            pair_gap[i, j] = _cell_gap(cells[i], cells[j], (cols[i], cols[j]) if cols else None)
            least = min(least, pair_gap[i, j])
    # contours meet on a shared cell (0 apart) or crossing diagonal steps (cells 1 apart): only
    # pairs whose boxes lie within two cells, and whose measured gap (whole numbers with cols:
    # the CellPaths' cells) is under 2, are walked for their cells and steps
    close = [pair for pair, apart in aparts.items() if apart < 2 and not (cols and pair_gap.get(pair, 0.0) >= 2)]
    near = sorted({ci for pair in close for ci in pair})
    paths = {}
    if near:
        stacked = np.concatenate([rounded[slices[ci]] for ci in near]).astype(np.int64)
        paths = dict(zip(near, cell_paths(stacked, [(contours[ci].start, contours[ci].stop) for ci in near])))
    for i, j in close:
        x = meet(paths[i], paths[j])
        if x:
            hits.append((i, j, x))
    return hits, least
