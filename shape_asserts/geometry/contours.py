"""Contours: one answer's point list split into the separate strokes it draws, and compared.

The seed's free-scene template asks for several objects "in one common list, in the order the
objects are drawn", so an answer with three circles is a single ``points`` list and the pen lift
between two objects is only visible as a jump. :func:`split_contours` finds those jumps; the other
helpers tell whether a contour is closed, where two contours meet, and place a drawing in a box
(distances between contours and whole drawings are in :mod:`shape_asserts.geometry.distances`,
their edges in :mod:`shape_asserts.geometry.simplify`).

How a contour break is told from a gap inside a contour
-------------------------------------------------------
A step of more than one cell (Chebyshev) is either a gap in a contour (the model skipped a few
points) or the pen moving on to the next object. Nothing in the points says which, so the rule is
a stated heuristic, applied at each step from point ``i`` to ``i + 1``:

1. **Jump** — a step longer than ``break_step`` cells (default 4) always starts a new contour: a
   model that skips points along a line skips a few cells, not a leap across the grid.
2. **Lift after a loop** — a step longer than one cell starts a new contour when the contour so far
   is a finished loop: point ``i`` is within ``close_tol`` cells of the contour's first point, the
   contour has at least ``min_loop`` points and it went farther than ``close_tol + 1`` cells from
   its start. Concentric circles a few cells apart are split this way even though the step
   between them is short.
3. **Loop closed, pen goes on** (``split_on_close``, default on) — after a finished loop, a step of
   exactly one cell that moves *away* from the contour's start starts a new contour. A head drawn
   round and then continued straight down into the torso becomes two contours; so does a second
   lap of a circle (which is what it is: the same circle drawn again).
4. Any other step longer than one cell is a **gap inside the contour** (reported in
   :attr:`Contour.gaps`, as :func:`shape_asserts.geometry.checks.continuity` reports gaps).

What it cannot tell: two objects drawn with a short step between them where the first is not a
closed loop (two lines, say) are read as one contour with a gap; a loop missing a long run of
points just before its end looks like a finished loop; two objects touching with a one-cell step
are one contour unless the first is a finished loop.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import chebyshev, closure_distance, point_chebyshev
from shape_asserts.geometry.points import FloatArray, IntArray, as_points

__all__ = [
    "BREAK_STEP",
    "CLOSE_TOL",
    "MIN_LOOP",
    "Contour",
    "split_contours",
    "is_closed",
    "Intersection",
    "CellPath",
    "cell_paths",
    "intersection",
    "fit_to_box",
    "bounding_box",
]

#: A step longer than this many cells (Chebyshev) always starts a new contour.
BREAK_STEP = 4
#: A contour whose last point is this close (Chebyshev, cells) to its first is a finished loop.
CLOSE_TOL = 2
#: Fewest points a contour needs before coming back to its start counts as a finished loop.
MIN_LOOP = 8


@dataclass(frozen=True, eq=False)
class Contour:
    """One stroke of a drawing: points ``start:stop`` of the answer, in drawing order.

    ``opened_by`` says why the contour began: ``"first"`` (the answer's first point), ``"jump"``
    (rule 1), ``"lift"`` (rule 2) or ``"loop"`` (rule 3) of :func:`split_contours`. ``gaps`` and
    ``repeats`` hold *answer* indices ``i`` whose step to ``i + 1`` is a gap inside this contour
    or a repeated point.
    """

    start: int
    stop: int
    points: FloatArray
    opened_by: str
    gaps: tuple[int, ...] = ()
    repeats: tuple[int, ...] = ()

    def __len__(self) -> int:
        return self.stop - self.start

    @property
    def indices(self) -> range:
        """Indices of this contour's points in the whole answer."""
        return range(self.start, self.stop)

    @property
    def closure(self) -> float:
        """Chebyshev distance from the last point back to the first (≤ 1 means closed)."""
        return closure_distance(self.points)


def split_contours(
    points: ArrayLike,
    *,
    break_step: float = BREAK_STEP,
    close_tol: float = CLOSE_TOL,
    min_loop: int = MIN_LOOP,
    split_on_close: bool = True,
) -> tuple[Contour, ...]:
    """Split an answer's points into contours at pen lifts (see the module docstring).

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        The whole answer, in drawing order.
    break_step : float
        Steps longer than this (Chebyshev, cells) always start a new contour.
    close_tol : float
        How close to its start a contour must come to count as a finished loop.
    min_loop : int
        Fewest points of a finished loop.
    split_on_close : bool
        Also split where a finished loop continues with a one-cell step away from its start.

    Returns
    -------
    tuple of Contour
        Covering the answer in order; empty for an empty answer.

    Examples
    --------
    >>> pts = np.array([[0, 0], [1, 0], [2, 0], [20, 0], [21, 0], [23, 0]])
    >>> [(c.start, c.stop, c.opened_by, c.gaps) for c in split_contours(pts)]
    [(0, 3, 'first', ()), (3, 6, 'jump', (4,))]
    """
    pts = as_points(points)
    n = len(pts)
    out: list[Contour] = []
    s = 0  # the current contour's first point
    opened = "first"
    far = 0.0  # farthest the current contour has gone from its first point
    gaps: list[int] = []
    repeats: list[int] = []
    steps = chebyshev(pts[1:], pts[:-1]).tolist()
    xy = pts.tolist()
    for i, step in enumerate(steps):
        here = point_chebyshev(xy[i], xy[s])
        far = max(far, here)
        loop_done = (i - s + 1) >= min_loop and here <= close_tol and far > close_tol + 1
        reason = None
        if step > break_step:
            reason = "jump"
        elif step > 1 and loop_done:
            reason = "lift"
        elif split_on_close and step >= 1 and loop_done and point_chebyshev(xy[i + 1], xy[s]) > here:
            reason = "loop"
        if reason is not None:
            out.append(Contour(s, i + 1, pts[s : i + 1], opened, tuple(gaps), tuple(repeats)))
            s, opened, far, gaps, repeats = i + 1, reason, 0.0, [], []
        elif step > 1:
            gaps.append(i)
        elif step == 0:
            repeats.append(i)
    if n:
        out.append(Contour(s, n, pts[s:n], opened, tuple(gaps), tuple(repeats)))
    return tuple(out)


def is_closed(points: ArrayLike, tol: float = 1.0) -> bool:
    """Whether the contour ends within ``tol`` cells of its start (and has at least 3 points)."""
    pts = as_points(points)
    return len(pts) >= 3 and closure_distance(pts) <= tol


@dataclass(frozen=True)
class Intersection:
    """Where two contours meet: cells both visit, and diagonal steps that cross each other.

    Two 8-connected lines can cross without sharing a cell: one steps ``(x, y) → (x+1, y+1)``
    while the other steps ``(x+1, y) → (x, y+1)`` through the same 2×2 block. ``crossings`` holds
    the top-left cell of every such block.
    """

    shared: tuple[tuple[int, int], ...]
    crossings: tuple[tuple[int, int], ...]

    def __bool__(self) -> bool:
        return bool(self.shared or self.crossings)

    @property
    def count(self) -> int:
        return len(self.shared) + len(self.crossings)


def _diagonals(cells: IntArray) -> set[tuple[int, int, int]]:
    """Diagonal steps as ``(x, y, kind)``: the 2×2 block's top-left cell; kind +1 for ``\\``, -1 for ``/``."""
    if len(cells) < 2:
        return set()
    a, b = cells[:-1], cells[1:]
    d = b - a
    diag = (np.abs(d[:, 0]) == 1) & (np.abs(d[:, 1]) == 1)
    x = np.minimum(a[diag, 0], b[diag, 0]).tolist()
    y = np.minimum(a[diag, 1], b[diag, 1]).tolist()
    kind = np.where(d[diag, 0] * d[diag, 1] > 0, 1, -1).tolist()
    return set(zip(x, y, kind))


@dataclass(frozen=True)
class CellPath:
    """A path's cells and diagonal steps: what :func:`intersection` compares, built once per contour
    when one contour is compared with several."""

    cells: frozenset[tuple[int, int]]
    diagonals: frozenset[tuple[int, int, int]]

    @classmethod
    def of(cls, points: ArrayLike) -> CellPath:
        """The cells (points rounded) and diagonal steps of a path."""
        c = np.rint(as_points(points)).astype(np.int64)
        return cls(frozenset(zip(c[:, 0].tolist(), c[:, 1].tolist())), frozenset(_diagonals(c)))

    @functools.cached_property
    def flipped(self) -> frozenset[tuple[int, int, int]]:
        """The diagonal steps that cross this path's: the same blocks, the other kind."""
        return frozenset((x, y, -k) for x, y, k in self.diagonals)


def cell_paths(cells: IntArray, spans: Sequence[tuple[int, int]]) -> list[CellPath]:
    """``CellPath.of(points[start:stop])`` for each ``(start, stop)`` of ``spans`` (none empty),
    from ``cells``: the spans' points rounded and stacked in that order, as integers (the steps
    between two spans belong to neither)."""
    out, offset = [], 0
    for start, stop in spans:
        end = offset + stop - start
        out.append(CellPath.of(cells[offset:end]))
        offset = end
    return out


def intersection(a: ArrayLike | CellPath, b: ArrayLike | CellPath) -> Intersection:
    """Cells shared by ``a`` and ``b`` and diagonal steps of one crossing the other's.

    Points are rounded to cells first (a :class:`CellPath` already is).

    Examples
    --------
    >>> bool(intersection([[0, 0], [1, 1]], [[1, 0], [0, 1]]))
    True
    >>> bool(intersection([[0, 0], [1, 1]], [[3, 3], [4, 4]]))
    False
    """
    pa = a if isinstance(a, CellPath) else CellPath.of(a)
    pb = b if isinstance(b, CellPath) else CellPath.of(b)
    shared = sorted(pa.cells & pb.cells)
    cross = sorted({(x, y) for x, y, _ in pa.diagonals & pb.flipped})
    return Intersection(shared=tuple(shared), crossings=tuple(cross))


def bounding_box(points: ArrayLike) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` of the points; ``ValueError`` when there are none."""
    pts = as_points(points)
    if len(pts) == 0:
        raise ValueError("no points")
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def fit_to_box(points: ArrayLike, box: Sequence[float]) -> FloatArray:
    """The points moved and uniformly scaled so their bounding box sits centred on ``box``.

    The scale is ``(box width + box height) / (width + height)``, so proportions are kept (a
    squat drawing stays squat) and a drawing that is a single line still scales. Used to compare a
    drawing's *shape* with a reference wherever it was drawn; a single point is only moved.
    """
    pts = as_points(points)
    if len(pts) == 0:
        return np.array(pts)
    x0, y0, x1, y1 = bounding_box(pts)
    bx0, by0, bx1, by1 = (float(v) for v in box)
    size = (x1 - x0) + (y1 - y0)
    s = ((bx1 - bx0) + (by1 - by0)) / size if size > 0 else 1.0
    mid = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    bmid = np.array([(bx0 + bx1) / 2, (by0 + by1) / 2])
    moved: FloatArray = (pts - mid) * s + bmid
    return moved
