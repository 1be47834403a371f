"""Contours: one answer's point list split into the separate strokes it draws, and compared.

The seed's free-scene template asks for several objects "in one common list, in the order the
objects are drawn", so an answer with three circles is a single ``points`` list and the pen lift
between two objects is only visible as a jump. :func:`split_contours` finds those jumps; the other
helpers measure contours (closure, distance, intersection, simplified edges) and compare whole
drawings (a symmetric Chamfer distance and a 0–100 similarity built from it).

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

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from shape_asserts.geometry.checks import as_points

__all__ = [
    "BREAK_STEP",
    "CLOSE_TOL",
    "MIN_LOOP",
    "Contour",
    "split_contours",
    "closure",
    "is_closed",
    "min_distance",
    "Intersection",
    "intersection",
    "chamfer_distance",
    "similarity",
    "fit_to_box",
    "bounding_box",
    "simplify",
    "segments",
    "segment_angles",
]

#: A step longer than this many cells (Chebyshev) always starts a new contour.
BREAK_STEP = 4
#: A contour whose last point is this close (Chebyshev, cells) to its first is a finished loop.
CLOSE_TOL = 2
#: Fewest points a contour needs before coming back to its start counts as a finished loop.
MIN_LOOP = 8

#: Rows of the first array compared at once in the pairwise distances (bounds the memory used).
_CHUNK = 512


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
    points: np.ndarray
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
        return closure(self.points)


def _cheb(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)))


def split_contours(
    points: np.ndarray,
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
    out: list[Contour] = []
    s, opened = 0, "first"
    far = 0.0  # farthest the current contour has gone from its first point
    gaps: list[int] = []
    repeats: list[int] = []
    for i in range(n - 1):
        step = _cheb(pts[i + 1], pts[i])
        here = _cheb(pts[i], pts[s])
        far = max(far, here)
        loop_done = (i - s + 1) >= min_loop and here <= close_tol and far > close_tol + 1
        reason = None
        if step > break_step:
            reason = "jump"
        elif step > 1 and loop_done:
            reason = "lift"
        elif split_on_close and step >= 1 and loop_done and _cheb(pts[i + 1], pts[s]) > here:
            reason = "loop"
        if reason is not None:
            out.append(Contour(s, i + 1, pts[s:i + 1], opened, tuple(gaps), tuple(repeats)))
            s, opened, far, gaps, repeats = i + 1, reason, 0.0, [], []
        elif step > 1:
            gaps.append(i)
        elif step == 0:
            repeats.append(i)
    out.append(Contour(s, n, pts[s:n], opened, tuple(gaps), tuple(repeats)))
    return tuple(out)


def closure(points: np.ndarray) -> float:
    """Chebyshev distance from the last point back to the first; ``inf`` when empty."""
    pts = as_points(points)
    if len(pts) == 0:
        return float("inf")
    return _cheb(pts[-1], pts[0])


def is_closed(points: np.ndarray, tol: float = 1.0) -> bool:
    """Whether the contour ends within ``tol`` cells of its start (and has at least 3 points)."""
    pts = as_points(points)
    return len(pts) >= 3 and closure(pts) <= tol


def _chunks(a: np.ndarray) -> Iterator[np.ndarray]:
    for i in range(0, len(a), _CHUNK):
        yield a[i:i + _CHUNK]


def _nearest(a: np.ndarray, b: np.ndarray, metric: str = "euclidean") -> np.ndarray:
    """For each row of ``a`` the distance to the nearest row of ``b``, shape (len(a),)."""
    out = []
    for part in _chunks(a):
        d = np.abs(part[:, None, :] - b[None, :, :])
        dist = d.max(axis=2) if metric == "chebyshev" else np.hypot(d[..., 0], d[..., 1])
        out.append(dist.min(axis=1))
    return np.concatenate(out) if out else np.zeros(0)


def min_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Smallest Chebyshev distance between a point of ``a`` and one of ``b`` (0 = a shared cell,
    1 = touching cells); ``inf`` when either is empty."""
    pa, pb = as_points(a), as_points(b)
    if len(pa) == 0 or len(pb) == 0:
        return float("inf")
    # duplicates change nothing here, and dropping them keeps the pairwise block small
    pa, pb = np.unique(np.rint(pa), axis=0), np.unique(np.rint(pb), axis=0)
    return float(_nearest(pa, pb, "chebyshev").min())


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


def _diagonals(cells: np.ndarray) -> set[tuple[int, int, int]]:
    """Diagonal steps as ``(x, y, kind)``: the 2×2 block's top-left cell; kind +1 for ``\\``, -1 for ``/``."""
    if len(cells) < 2:
        return set()
    a, b = cells[:-1], cells[1:]
    d = b - a
    diag = (np.abs(d[:, 0]) == 1) & (np.abs(d[:, 1]) == 1)
    out = set()
    for p, q, dd in zip(a[diag], b[diag], d[diag]):
        x, y = int(min(p[0], q[0])), int(min(p[1], q[1]))
        out.add((x, y, 1 if dd[0] * dd[1] > 0 else -1))
    return out


def intersection(a: np.ndarray, b: np.ndarray) -> Intersection:
    """Cells shared by ``a`` and ``b`` and diagonal steps of one crossing the other's.

    Points are rounded to cells first.

    Examples
    --------
    >>> bool(intersection([[0, 0], [1, 1]], [[1, 0], [0, 1]]))
    True
    >>> bool(intersection([[0, 0], [1, 1]], [[3, 3], [4, 4]]))
    False
    """
    ca = np.rint(as_points(a)).astype(np.int64)
    cb = np.rint(as_points(b)).astype(np.int64)
    shared = sorted({(int(x), int(y)) for x, y in ca} & {(int(x), int(y)) for x, y in cb})
    da, db = _diagonals(ca), _diagonals(cb)
    cross = sorted({(x, y) for x, y, k in da if (x, y, -k) in db})
    return Intersection(shared=tuple(shared), crossings=tuple(cross))


def chamfer_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean symmetric Chamfer distance in cells: the mean, over both drawings, of each point's
    Euclidean distance to the nearest point of the other drawing, the two means averaged.

    0 for the same set of cells; ``inf`` when either drawing is empty. Point order and repeats do
    not matter beyond their weight in the means.
    """
    pa, pb = as_points(a), as_points(b)
    if len(pa) == 0 or len(pb) == 0:
        return float("inf")
    return 0.5 * (float(_nearest(pa, pb).mean()) + float(_nearest(pb, pa).mean()))


def similarity(a: np.ndarray, b: np.ndarray, scale: float) -> float:
    """A 0–100 likeness from :func:`chamfer_distance`: 100 for the same cells, falling linearly
    to 0 at a mean distance of ``scale`` cells.

    Examples
    --------
    >>> similarity([[0, 0], [0, 5]], [[1, 0], [1, 5]], scale=4.0)
    75.0
    """
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    d = chamfer_distance(a, b)
    if not np.isfinite(d):
        return 0.0
    return float(100.0 * max(0.0, 1.0 - d / scale))


def bounding_box(points: np.ndarray) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` of the points; ``ValueError`` when there are none."""
    pts = as_points(points)
    if len(pts) == 0:
        raise ValueError("no points")
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def fit_to_box(points: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The points moved and uniformly scaled so their bounding box sits centred on ``box``.

    The scale is ``(box width + box height) / (width + height)``, so proportions are kept (a
    squat drawing stays squat) and a drawing that is a single line still scales. Used to compare a
    drawing's *shape* with a reference wherever it was drawn; a single point is only moved.
    """
    pts = as_points(points)
    if len(pts) == 0:
        return pts.copy()
    x0, y0, x1, y1 = bounding_box(pts)
    bx0, by0, bx1, by1 = (float(v) for v in box)
    size = (x1 - x0) + (y1 - y0)
    s = ((bx1 - bx0) + (by1 - by0)) / size if size > 0 else 1.0
    mid = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    bmid = np.array([(bx0 + bx1) / 2, (by0 + by1) / 2])
    return (pts - mid) * s + bmid


def _rdp(pts: np.ndarray, tol: float) -> list[int]:
    """Ramer–Douglas–Peucker on an open polyline: indices of the kept vertices, in order."""
    n = len(pts)
    if n <= 2:
        return list(range(n))
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        a, b = pts[i], pts[j]
        mid = pts[i + 1:j]
        ab = b - a
        norm = float(np.hypot(*ab))
        if norm == 0.0:  # the stretch returns to where it began: measure from that point
            d = np.hypot(mid[:, 0] - a[0], mid[:, 1] - a[1])
        else:
            d = np.abs(ab[0] * (mid[:, 1] - a[1]) - ab[1] * (mid[:, 0] - a[0])) / norm
        k = int(np.argmax(d))
        if d[k] > tol:
            m = i + 1 + k
            keep[m] = True
            stack += [(i, m), (m, j)]
    return [int(i) for i in np.flatnonzero(keep)]


def simplify(points: np.ndarray, tolerance: float = 1.0) -> list[int]:
    """Indices of the corners that keep a contour within ``tolerance`` cells (Ramer–Douglas–Peucker).

    A closed contour (last point next to the first) is first cut at the point farthest from its
    start, so that both halves have distinct ends; the closing step is then an edge of its own.
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return list(range(n))
    if closure(pts) <= 1.0 and n >= 4:
        far = int(np.argmax(np.max(np.abs(pts - pts[0]), axis=1)))
        if 0 < far < n - 1:
            first = _rdp(pts[:far + 1], tolerance)
            second = [far + i for i in _rdp(pts[far:], tolerance)]
            return first + second[1:]
    return _rdp(pts, tolerance)


def segments(points: np.ndarray, tolerance: float = 1.0, *, min_length: float = 0.0,
             closed: bool | None = None) -> np.ndarray:
    """The straight edges of a simplified contour, shape (M, 2, 2): ``[[x0, y0], [x1, y1]]`` rows.

    Edges shorter than ``min_length`` cells are dropped. ``closed`` adds the closing edge from the
    last corner to the first (default: when the contour ends next to its start).
    """
    pts = as_points(points)
    idx = simplify(pts, tolerance)
    corners = pts[idx]
    if closed is None:
        closed = len(pts) >= 4 and closure(pts) <= 1.0
    if closed and len(corners) >= 3 and closure(corners) > 0:
        corners = np.vstack([corners, corners[:1]])
    if len(corners) < 2:
        return np.zeros((0, 2, 2))
    segs = np.stack([corners[:-1], corners[1:]], axis=1)
    lengths = np.hypot(*(segs[:, 1] - segs[:, 0]).T)
    return segs[lengths >= min_length] if min_length > 0 else segs[lengths > 0]


def segment_angles(segs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Direction (degrees in [0, 180), as on screen: 0 is horizontal, 90 vertical, 26.6 a 2:1
    line going down to the right) and length of each segment of :func:`segments`."""
    segs = np.asarray(segs, dtype=float).reshape(-1, 2, 2)
    d = segs[:, 1] - segs[:, 0]
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180.0
    return ang, np.hypot(d[:, 0], d[:, 1])
