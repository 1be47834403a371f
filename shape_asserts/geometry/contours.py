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

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import chebyshev, closure_distance
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
    if n == 0:
        return ()
    steps = chebyshev(pts[1:], pts[:-1])
    rule = (break_step, close_tol, min_loop, split_on_close)
    if not bool(np.isfinite(pts).all()):
        return tuple(_walk(pts, steps.tolist(), 0, "first", rule))
    return tuple(_split_finite(pts, steps, rule))


#: The rule of :func:`split_contours`: ``(break_step, close_tol, min_loop, split_on_close)``.
_Rule = tuple[float, float, int, bool]
#: After this many rounds :func:`_split_finite` walks the rest (a round costs a fixed number of
#: array operations: many loops drawn one after another are cheaper walked).
_ARRAY_ROUNDS = 8


def _split_finite(pts: FloatArray, steps: FloatArray, rule: _Rule) -> list[Contour]:
    """:func:`_walk` from the first point, for finite points, with arrays. A jump ends a contour
    wherever it began, so the answer falls into stretches between jumps. For a contour from point
    ``s``, the walk's values are arrays over the stretch's points ``i``: ``here`` (Chebyshev from
    ``s``) and whether some ``here`` so far exceeds ``close_tol + 1`` (the walk's running maximum
    ``far`` does exactly then: the last such point is not before ``s``), so where the walk would
    first end it. Each round takes every open stretch at once; a contour ended early opens the
    next, looked at in the next round. The same comparisons of the same floats as the walk."""
    break_step, close_tol, min_loop, split_on_close = rule
    n = len(pts)
    jumps = (steps > break_step).nonzero()[0].tolist()
    # where contours begin, and why: the first point, after every jump and (round by round) every
    # finished loop; todo: (start, last point) of the stretches open and long enough for a loop
    opened: dict[int, str] = {0: "first", **{i + 1: "jump" for i in jumps}}
    shortest = max(min_loop, 1)
    todo = [(a, b) for a, b in zip([0, *(i + 1 for i in jumps)], [*jumps, n - 1]) if b - a >= shortest]
    # each point's step to the next; 0 (no loop ends there) from a stretch's last (a jump's start, the last)
    step_of = np.append(steps, 0.0)
    step_of[jumps] = 0.0
    rounds = 0
    while todo:
        if rounds == _ARRAY_ROUNDS:  # walk from the first open stretch on instead
            s = todo[0][0]
            head = [c for c in _contours(pts, steps, opened) if c.start < s]
            return head + _walk(pts, steps.tolist(), s, opened[s], rule)
        rounds += 1
        # every open stretch's points in a row: idx, and the stretch's first point at each
        size = [b - a + 1 for a, b in todo]
        first = np.array([a for a, _ in todo])
        s_at = first.repeat(size)
        if len(s_at) == n:  # (the first round's stretches, none dropped: the whole answer in order)
            idx, d, step = np.arange(n), np.abs(pts - pts[s_at]), step_of
        else:
            ends = np.cumsum(size)
            idx = np.arange(int(ends[-1])) - (ends - size - first).repeat(size)
            d, step = np.abs(pts[idx] - pts[s_at]), step_of[idx]
        here = np.maximum(d[:, 0], d[:, 1])
        # far > close_tol + 1: the last point so far past that is not before the stretch's first
        went_far = np.maximum.accumulate(np.where(here > close_tol + 1, idx, -1)) >= s_at
        loop_done = (here <= close_tol) & went_far & (idx >= s_at + (min_loop - 1))
        if split_on_close:
            nxt = np.append(here[1:], 0.0)  # cheb(i + 1, s) within the stretch (its last point: step 0)
            end = loop_done & ((step > 1) | ((step >= 1) & (nxt > here)))
        else:
            end = loop_done & (step > 1)
        hit = end.nonzero()[0]
        if not len(hit):  # no stretch ends early: every contour is found
            break
        # each stretch's first end: the stretches' hits in order, the first of each start
        later, seen, last_of = [], -1, dict(todo)
        for i, s0 in zip(idx[hit].tolist(), s_at[hit].tolist()):
            if s0 != seen:
                seen, opened[i + 1] = s0, "lift" if steps[i] > 1 else "loop"
                if last_of[s0] - (i + 1) >= shortest:
                    later.append((i + 1, last_of[s0]))
        todo = later
    return _contours(pts, steps, opened)


def _contours(pts: FloatArray, steps: FloatArray, opened: dict[int, str]) -> list[Contour]:
    """The contours beginning at ``opened``'s points, for the reasons it gives, each up to the next;
    gaps and repeats are the steps inside each longer than one cell or of none."""
    n = len(pts)
    gap_at = (steps > 1).nonzero()[0].tolist()  # (np.flatnonzero of a 1-d array, without its wrapper)
    repeat_at = (steps == 0).nonzero()[0].tolist()
    starts = sorted(opened)
    out = []
    for s, stop in zip(starts, [*starts[1:], n]):
        # steps s .. stop - 2 (the step that ends the contour is neither)
        gaps = gap_at[bisect.bisect_left(gap_at, s) : bisect.bisect_left(gap_at, stop - 1)]
        repeats = repeat_at[bisect.bisect_left(repeat_at, s) : bisect.bisect_left(repeat_at, stop - 1)]
        out.append(Contour(s, stop, pts[s:stop], opened[s], tuple(gaps), tuple(repeats)))
    return out


def _walk(pts: FloatArray, steps: list[float], start: int, opened: str, rule: _Rule) -> list[Contour]:
    """The contours of ``pts[start:]``, the first opened by ``opened``: the rule of
    :func:`split_contours` applied one step at a time."""
    break_step, close_tol, min_loop, split_on_close = rule
    n = len(pts)
    # the walk reads one point at a time: Python floats, the same IEEE arithmetic as numpy's
    # (a NaN, which max() would order differently, takes numpy's path)
    xs, ys = pts[:, 0].tolist(), pts[:, 1].tolist()
    finite = bool(np.isfinite(pts).all())

    def cheb(i: int, j: int) -> float:
        if finite:
            return float(max(abs(xs[i] - xs[j]), abs(ys[i] - ys[j])))
        return float(chebyshev(pts[i], pts[j]))

    out: list[Contour] = []
    s = start
    far = 0.0  # farthest the current contour has gone from its first point
    gaps: list[int] = []
    repeats: list[int] = []
    xs_s, ys_s = xs[s], ys[s]
    for i in range(start, n - 1):
        step = steps[i]
        # cheb(i, s), inline: this loop runs once per point
        here = max(abs(xs[i] - xs_s), abs(ys[i] - ys_s)) if finite else cheb(i, s)
        far = max(far, here)
        loop_done = (i - s + 1) >= min_loop and here <= close_tol and far > close_tol + 1
        reason = None
        if step > break_step:
            reason = "jump"
        elif step > 1 and loop_done:
            reason = "lift"
        elif split_on_close and step >= 1 and loop_done and cheb(i + 1, s) > here:
            reason = "loop"
        if reason is not None:
            out.append(Contour(s, i + 1, pts[s : i + 1], opened, tuple(gaps), tuple(repeats)))
            s, opened, far, gaps, repeats = i + 1, reason, 0.0, [], []
            xs_s, ys_s = xs[s], ys[s]
        elif step > 1:
            gaps.append(i)
        elif step == 0:
            repeats.append(i)
    out.append(Contour(s, n, pts[s:n], opened, tuple(gaps), tuple(repeats)))
    return out


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
    from ``cells``: the spans' points rounded and stacked in that order, as integers. The steps
    are found for all spans at once; those between two spans belong to neither."""
    xs, ys = cells[:, 0].tolist(), cells[:, 1].tolist()
    d = cells[1:] - cells[:-1]
    at = np.flatnonzero((np.abs(d[:, 0]) == 1) & (np.abs(d[:, 1]) == 1))
    # as _diagonals: each diagonal step's 2x2 block (its top-left cell) and kind (+1 "\\", -1 "/")
    block = np.minimum(cells[at], cells[at + 1]).T.tolist()
    diagonals = list(zip(*block, np.where(d[at, 0] * d[at, 1] > 0, 1, -1).tolist()))
    where, out, offset = at.tolist(), [], 0
    for start, stop in spans:
        end = offset + stop - start
        # the steps from this span's points to the next ones of the span: offset .. end - 2
        lo, hi = bisect.bisect_left(where, offset), bisect.bisect_left(where, end - 1)
        out.append(CellPath(frozenset(zip(xs[offset:end], ys[offset:end])), frozenset(diagonals[lo:hi])))
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
