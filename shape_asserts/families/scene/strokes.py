"""A scene answer cut into strokes, and the strokes into straight edges that meet at corners.

The template asks for every object "in one common list, in the order the objects are drawn", so a
jump between two points may be a pen lift between objects, and a point written twice in a row may
be a stroke that begins on the cell where the previous one ended (a junction). Neither is a defect
in a scene, so the answer is cut into *strokes* (:func:`scene_strokes`) at every step that is not
to an 8-neighbour and at every repeated point. Each stroke is simplified to straight edges
(Ramer–Douglas–Peucker, 1 cell: :func:`shape_asserts.geometry.simplify.segments`), after cutting it
where it turns straight back on itself (a retraced limb or edge); the checks look at those edges
and where they meet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.scene.regions import enclosed, pieces
from shape_asserts.geometry.distances import nearest_on_segment
from shape_asserts.geometry.points import BoolArray, FloatArray, IntArray, as_points
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.simplify import segments

__all__ = [
    "scene_strokes",
    "holes",
    "Solid",
    "solid_parts",
    "heal",
    "edges",
    "ends",
    "seg_distance",
    "join_verticals",
    "split_at_junctions",
]


def scene_strokes(points: ArrayLike) -> list[tuple[int, FloatArray]]:
    """A scene answer cut into strokes: ``(index of the stroke's first point, its points)``.

    Cut at every step that is not to an 8-neighbour (a pen lift: in a scene any jump may be one)
    and at every point repeated in a row (a junction: the next stroke starts where the last one
    ended). Covers the answer in order; reversing the answer reverses the strokes.

    Examples
    --------
    >>> [(i, len(p)) for i, p in scene_strokes(np.array([[0, 0], [1, 0], [1, 0], [2, 0], [5, 0], [6, 1]]))]
    [(0, 2), (2, 2), (4, 2)]
    """
    pts = as_points(points)
    n = len(pts)
    if n == 0:
        return []
    d = pts[1:] - pts[:-1]
    steps = np.maximum(np.abs(d[:, 0]), np.abs(d[:, 1]))  # each step's Chebyshev length
    cuts = np.flatnonzero((steps > 1 + 1e-9) | (steps < 1e-9)) + 1
    bounds = [0, *cuts.tolist(), n]
    return [(a, pts[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def holes(
    pts: FloatArray,
    strokes: Sequence[FloatArray],
    slip: float,
    close_gap: float,
    grid_size: int,
) -> list[FloatArray]:
    """The closed loops of a drawing, whatever order it was drawn in: for each region of empty
    cells walled in by drawn cells (4-connected, so an 8-connected outline closes it), the drawn
    cells around it. Where the pen moved at most ``slip`` cells (Chebyshev) between two points in
    a row, or a stroke ends within ``close_gap`` cells of its start, the cells between count as
    drawn (a slip of one cell does not open a loop). What is drawn inside a loop touching nothing
    of it (eyes in a head) is no part of it. Points off the grid are left out."""
    grid = _drawn_grid(pts, strokes, slip, close_gap, grid_size)
    if grid is None:
        return []
    drawn, lo = grid
    out = []
    for hole in enclosed(drawn):
        # the drawn cells next to the hole (its 8 neighbours) but those it walls in (eyes in a
        # head), row-major, as (x, y) on the grid
        ring = np.argwhere(_grown(hole) & drawn & ~_filled(hole))[:, ::-1].astype(float)
        out.append(ring + lo)
    return out


@dataclass(frozen=True)
class Solid:
    """A drawing's cells with every closed loop filled (:func:`solid_parts`): which 8-connected
    piece a point lies in, and which loop."""

    #: Each cell's piece (from 1), 0 off the drawing; and each empty cell's loop (from 1, the
    #: enclosed regions of :func:`.regions.enclosed`), 0 on a drawn cell or outside every loop.
    piece_label: IntArray
    loop_label: IntArray
    #: The grid position of the labels' first cell.
    lo: FloatArray

    def _at(self, label: IntArray, point: ArrayLike) -> int:
        x, y = (int(v) for v in np.rint(np.asarray(point, dtype=float)) - self.lo)
        inside = 0 <= y < label.shape[0] and 0 <= x < label.shape[1]
        return int(label[y, x]) if inside else 0

    def piece(self, point: ArrayLike) -> int:
        """The piece ``point`` lies in: a chimney standing on a roof slope lies in the slope's
        filled face, so in the house's piece; one floating above the roof with empty rows between
        is a piece of its own. 0 off the drawing."""
        return self._at(self.piece_label, point)

    def loop(self, point: ArrayLike) -> int:
        """The closed loop whose inside ``point`` lies in, 0 on a drawn cell or outside them all."""
        return self._at(self.loop_label, point)

    def drawn(self, point: ArrayLike) -> bool:
        """Whether ``point``'s cell is drawn (or bridges a slip)."""
        return self.piece(point) > 0 and self.loop(point) == 0


def _filled(hole: BoolArray) -> BoolArray:
    """``hole`` with what it walls in (the cells of an island drawn inside it) added. Looked for in
    the hole's box and a cell round it, so that many small loops cost what their boxes do."""
    ys, xs = np.nonzero(hole)
    y0, y1, x0, x1 = int(ys.min()) - 1, int(ys.max()) + 2, int(xs.min()) - 1, int(xs.max()) + 2
    filled: BoolArray = hole.copy()
    box = filled[y0:y1, x0:x1]  # a view: the islands are written into ``filled``
    for island in enclosed(hole[y0:y1, x0:x1]):
        box |= island
    return filled


def solid_parts(
    pts: FloatArray,
    strokes: Sequence[FloatArray],
    slip: float,
    close_gap: float,
    grid_size: int,
) -> Solid:
    """The drawing's cells (as :func:`holes` reads them) with every closed loop filled, cut into
    8-connected pieces, and the loops themselves."""
    grid = _drawn_grid(pts, strokes, slip, close_gap, grid_size)
    if grid is None:
        nothing = np.zeros((0, 0), dtype=np.int64)
        return Solid(nothing, nothing, np.zeros(2))
    drawn, lo = grid
    solid = drawn.copy()
    loops = np.zeros(drawn.shape, dtype=np.int64)
    for number, hole in enumerate(enclosed(drawn), start=1):
        solid |= hole
        loops[hole] = number
    return Solid(pieces(solid), loops, lo)


def _drawn_grid(
    pts: FloatArray,
    strokes: Sequence[FloatArray],
    slip: float,
    close_gap: float,
    grid_size: int,
) -> tuple[BoolArray, FloatArray] | None:
    """The drawing's cells as a mask over their box with a cell of empty margin all round (so
    that the outside is one region), slips and nearly closed strokes bridged (:func:`holes`),
    and the grid position of the mask's first cell; None when no point is on the grid."""
    on_grid = np.isfinite(pts) & (pts >= -1) & (pts <= grid_size)
    pts = pts[on_grid.all(axis=1)]
    if len(pts) == 0:
        return None
    cells = np.rint(pts).astype(np.int64)
    lo = (cells.min(axis=0) - 1).tolist()
    size = (cells.max(axis=0) - np.array(lo) + 2).tolist()
    drawn = np.zeros((int(size[1]), int(size[0])), dtype=bool)
    drawn[cells[:, 1] - lo[1], cells[:, 0] - lo[0]] = True
    steps = np.abs(cells[1:] - cells[:-1]).max(axis=1)  # each step's Chebyshev length
    bridges = [(cells[i], cells[i + 1]) for i in ((steps > 1) & (steps <= slip)).nonzero()[0]]
    bridges += [(np.rint(s[-1]), np.rint(s[0])) for s in _closing(strokes, close_gap, grid_size)]
    for a, b in bridges:
        for x, y in raster_polyline([tuple(a), tuple(b)], closed=False):
            drawn[int(y) - lo[1], int(x) - lo[0]] = True
    return drawn, np.array(lo, dtype=float)


def _grown(mask: BoolArray) -> BoolArray:
    """``mask`` grown by a cell each way, diagonals included (its cells' 8 neighbours added)."""
    rows = mask.copy()
    rows[1:] |= mask[:-1]
    rows[:-1] |= mask[1:]
    grown: BoolArray = rows.copy()
    grown[:, 1:] |= rows[:, :-1]
    grown[:, :-1] |= rows[:, 1:]
    return grown


def _closing(strokes: Sequence[FloatArray], close_gap: float, grid_size: int) -> list[FloatArray]:
    """The strokes of at least 3 points, all on the grid (finite, within ``-1..grid_size``), that
    end more than 1 and at most ``close_gap`` cells (Chebyshev) from their start: their closing
    step is bridged."""
    out = []
    for st in strokes:
        if len(st) < 3:
            continue
        gap = float(np.abs(st[-1] - st[0]).max())
        on_grid = bool((np.isfinite(st) & (st >= -1) & (st <= grid_size)).all())
        if 1 < gap <= close_gap and on_grid:
            out.append(st)
    return out


def heal(strokes: Sequence[FloatArray], max_step: float) -> list[FloatArray]:
    """Consecutive strokes joined where the pen moved at most ``max_step`` cells (Chebyshev, more
    than one): for tracing edges, a two-cell step is read as a slip (a point pushed a cell off
    the line, a cell skipped), not as a new object. Junctions (repeated points) stay cuts."""
    out: list[FloatArray] = []
    group: list[FloatArray] = []  # the strokes joined into the one being built
    for s in strokes:
        if group and len(s):
            step = float(np.abs(s[0] - group[-1][-1]).max())  # from the last point so far
            if 1 < step <= max_step:
                group.append(s)
                continue
        if group:
            out.append(group[0] if len(group) == 1 else np.vstack(group))
        group = [s]
    if group:
        out.append(group[0] if len(group) == 1 else np.vstack(group))
    return out


def _turns(stroke: FloatArray) -> list[FloatArray]:
    """``stroke`` cut where it turns straight back onto the cell it came from (a retraced line's
    far end), the turning cell kept in both pieces: simplification measures distances to the
    chord, which a line retraced onto itself never leaves, so it would lose the far end."""
    if len(stroke) < 3:
        return [stroke]
    back = np.flatnonzero((stroke[:-2] == stroke[2:]).all(axis=1)) + 1
    bounds = [0, *back.tolist(), len(stroke) - 1]
    return [stroke[a : b + 1] for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def edges(strokes: Sequence[FloatArray], tol: float) -> FloatArray:
    """The straight edges of every stroke (any length), shape (M, 2, 2)."""
    return _edges([piece for s in strokes if len(s) >= 2 for piece in _turns(s)], tol)


def _edges(pieces: list[FloatArray], tol: float) -> FloatArray:
    """Every piece's edges (:func:`~shape_asserts.geometry.simplify.segments`), one after another."""
    segs = [segments(piece, tol) for piece in pieces]
    segs = [s for s in segs if len(s)]
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


def ends(segs: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Upper and lower end (smaller and larger y on screen) of each edge, each shape (M, 2)."""
    if not len(segs):
        return np.zeros((0, 2)), np.zeros((0, 2))
    first_up = segs[:, 0, 1] <= segs[:, 1, 1]
    # each edge as it is or turned round, by one np.where (the ends are views of its rows)
    both = np.where(first_up[:, None, None], segs, segs[:, ::-1])
    return both[:, 0], both[:, 1]


def seg_distance(p: FloatArray, a: FloatArray, b: FloatArray) -> tuple[float, float]:
    """Distance from point ``p`` to segment ``ab`` and the parameter (0..1) of the nearest point."""
    d, t = nearest_on_segment(p, a, b)
    return float(d), float(t)


def join_verticals(segs: FloatArray, vertical: BoolArray, gap: float, corner_tol: float, min_ends: int) -> FloatArray:
    """Vertical edges that continue one another joined into one: the top of the lower one at
    most ``gap`` cells below the foot of the upper one (or a cell above it), within a column,
    unless they meet at a corner (``min_ends`` ends of other edges within ``corner_tol`` of the
    joint). A wall edge broken by a jittered cell or a pen lift is one line; a chimney standing on
    the roof line above a wall edge is not."""
    rest = segs[~vertical]
    others = rest.reshape(-1, 2)
    # each vertical edge's (top, foot) as :func:`ends` orders them
    lines = [
        ((p[0], p[1]), (q[0], q[1])) if p[1] <= q[1] else ((q[0], q[1]), (p[0], p[1]))
        for p, q in segs[vertical].tolist()
    ]
    merged = True
    while merged:
        merged = False
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                (a0, a1), (b0, b1) = lines[i], lines[j]
                upper, lower = ((a0, a1), (b0, b1)) if a0[1] <= b0[1] else ((b0, b1), (a0, a1))
                if not (abs(upper[1][0] - lower[0][0]) <= 1 and -1 <= lower[0][1] - upper[1][1] <= gap):
                    continue  # not in one column, too far apart, or side by side
                joint = np.array([(upper[1][0] + lower[0][0]) / 2, (upper[1][1] + lower[0][1]) / 2])
                if len(others) and int((np.hypot(*(others - joint).T) <= corner_tol).sum()) >= min_ends:
                    continue
                low = upper[1] if upper[1][1] >= lower[1][1] else lower[1]
                lines[i] = (upper[0], low)
                del lines[j]
                merged = True
                break
            if merged:
                break
    joined = np.array(lines, dtype=float).reshape(-1, 2, 2)
    return np.concatenate([rest, joined]) if len(rest) else joined


def split_at_junctions(segs: FloatArray, tol: float, min_ends: int, on: float) -> FloatArray:
    """Cut every edge where at least ``min_ends`` ends of other edges lie on it (within ``on``
    cells of its line, at least ``tol`` from its own ends, ``tol`` of each other): a line drawn
    straight through a corner is two edges there."""
    if not len(segs):
        return segs
    tips = segs.reshape(-1, 2)
    owner = np.repeat(np.arange(len(segs)), 2)  # each tip's edge
    out: list[FloatArray] = []
    for i, (a, b) in enumerate(segs):
        d = b - a
        length = float(np.hypot(d[0], d[1]))
        cuts = _cuts(tips[owner != i], a, d, length, tol, min_ends, on) if length >= 2 * tol else []
        if not cuts:
            out.append(segs[i : i + 1])
            continue
        u = d / length
        corners = [a] + [a + c * u for c in cuts] + [b]
        out.append(np.array([[p, q] for p, q in zip(corners[:-1], corners[1:])], dtype=float))
    return np.concatenate(out).astype(float).reshape(-1, 2, 2)


def _cuts(
    tips: FloatArray, a: FloatArray, d: FloatArray, length: float, tol: float, min_ends: int, on: float
) -> list[float]:
    """Where along the edge from ``a`` (direction ``d``, ``length`` long) other edges' ``tips`` gather:
    each group of at least ``min_ends`` tips lying on it, within ``tol`` of each other along it, as
    their mean distance from ``a``."""
    u = d / length
    rel = tips - a
    along = rel @ u
    across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
    on_line = (across <= on) & (along >= tol) & (along <= length - tol)
    near = np.sort(along[on_line])
    cuts: list[float] = []
    m = 0
    while m < len(near):
        j = m
        while j + 1 < len(near) and near[j + 1] - near[m] <= tol:
            j += 1
        if j - m + 1 >= min_ends:
            cuts.append(float(near[m : j + 1].mean()))
        m = j + 1
    return cuts
