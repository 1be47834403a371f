"""Whether the contours matched to the asked circles meet, and how near they come
(:func:`meetings`, for :func:`.scorer.score_circles`' ``intersections`` check and its
``min_separation`` metric)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from shape_asserts.geometry.contours import CellPath, Contour, Intersection, intersection
from shape_asserts.geometry.distances import cell_distance

__all__ = ["meetings"]


def meetings(contours: Sequence[Contour], matched: list[int]) -> tuple[list[tuple[int, int, Intersection]], float]:
    """The pairs ``(i, j, where)`` of the ``matched`` contours (indices into ``contours``, ascending)
    that share a cell or cross (:func:`.contours.intersection`), and the least Chebyshev distance
    between two of their cells (infinite below two contours).

    Only the matched contours are compared (at most the asked count, six), so the work stays a few
    pairs whatever the answer's size: a hostile answer of thousands of contours costs no more."""
    hits: list[tuple[int, int, Intersection]] = []
    least = math.inf
    # each contour's cells, repeats kept: the least distance between two contours is the same
    # minimum over the same pairs of cells
    cells = {ci: np.rint(contours[ci].points) for ci in matched}
    paths = {ci: CellPath.of(contours[ci].points) for ci in matched}
    for i, j in itertools.combinations(matched, 2):
        least = min(least, cell_distance(cells[i], cells[j]))
        where = intersection(paths[i], paths[j])
        if where:
            hits.append((i, j, where))
    return hits, least
