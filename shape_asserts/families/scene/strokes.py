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

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.families.scene.regions import _enclosed_runs
from shape_asserts.geometry.distances import nearest_on_segment, segment_step_xy
from shape_asserts.geometry.points import BoolArray, FloatArray, as_points
from shape_asserts.geometry.raster import raster_polyline
from shape_asserts.geometry.simplify import segments

__all__ = [
    "scene_strokes",
    "holes",
    "heal",
    "heal_spans",
    "edges",
    "edges_of",
    "ends",
    "seg_distance",
    "seg_distance_xy",
    "seg_along_xy",
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
    # (``mask.nonzero()[0]`` here and below: np.flatnonzero of a 1-D mask, without its ravel and wrapper)
    cuts = ((steps > 1 + 1e-9) | (steps < 1e-9)).nonzero()[0] + 1
    bounds = [0, *cuts.tolist(), n]
    return [(a, pts[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def holes(
    pts: FloatArray,
    strokes: Sequence[FloatArray],
    slip: float,
    close_gap: float,
    grid_size: int,
    extremes: tuple[Sequence[float], Sequence[float]] | None = None,
) -> list[FloatArray]:
    """The closed loops of a drawing, whatever order it was drawn in: for each region of empty
    cells walled in by drawn cells (4-connected, so an 8-connected outline closes it), the drawn
    cells around it. Where the pen moved at most ``slip`` cells (Chebyshev) between two points in
    a row, or a stroke ends within ``close_gap`` cells of its start, the cells between count as
    drawn (a slip of one cell does not open a loop). Points off the grid are left out.

    ``extremes``: each column's least and largest value (``x``, ``y``) when the caller has them."""
    if extremes is not None and len(pts) and _on_grid(extremes, grid_size):
        # every point on the grid, none left out; each column's least and largest cell is its
        # least and largest value rounded (np.rint and round both take halves to even, exactly
        # for numbers this small)
        cells = np.rint(pts).astype(np.int64)
        (x0, y0), (x1, y1) = extremes
        lo = [round(x0) - 1, round(y0) - 1]
        size = [round(x1) - lo[0] + 2, round(y1) - lo[1] + 2]
    else:
        ok = np.isfinite(pts) & (pts >= -1) & (pts <= grid_size)
        pts = pts[ok[:, 0] & ok[:, 1]]  # both coordinates (np.all over the axis of two, without its reduction)
        if len(pts) == 0:
            return []
        cells = np.rint(pts).astype(np.int64)
        lo = (cells.min(axis=0) - 1).tolist()
        size = (cells.max(axis=0) - np.array(lo) + 2).tolist()
    closing = _closing(strokes, close_gap, grid_size)
    drawn = np.zeros((int(size[1]), int(size[0])), dtype=bool)
    drawn[cells[:, 1] - lo[1], cells[:, 0] - lo[0]] = True
    d = cells[1:] - cells[:-1]
    steps = np.maximum(np.abs(d[:, 0]), np.abs(d[:, 1]))  # each step's Chebyshev length
    bridges = [(cells[i], cells[i + 1]) for i in ((steps > 1) & (steps <= slip)).nonzero()[0]]
    bridges += [(np.rint(s[-1]), np.rint(s[0])) for s in closing]
    for a, b in bridges:
        for x, y in raster_polyline([tuple(a), tuple(b)], closed=False):
            drawn[int(y) - lo[1], int(x) - lo[0]] = True
    out = []
    h, w = drawn.shape
    # (the grid has a cell of margin all round that nothing is drawn in: cells and bridges lie
    # within the drawn cells' box)
    for hole in _enclosed_runs(drawn, empty_margin=True):
        # the hole grown by a cell each way (its 8 neighbours): each run of it grown is the block
        # of the rows about it and the columns from one before it to one past it (a hole never
        # reaches the empty margin of the grid: no block is cut off there)
        near = np.zeros((h, w), dtype=bool)
        for y, start, stop in hole:
            near[y - 1 : y + 2, start - 1 : stop + 1] = True
        near &= drawn
        # the ring's cells row-major, as np.argwhere lists them (each flat index's row and column by
        # one divmod), written into one (n, 2) float array and moved by the grid's corner
        ring_y, ring_x = np.divmod(near.ravel().nonzero()[0], w)
        ring = np.empty((len(ring_x), 2))
        ring[:, 0] = ring_x
        ring[:, 1] = ring_y
        ring += lo
        out.append(ring)
    return out


def _on_grid(extremes: tuple[Sequence[float], Sequence[float]], grid_size: int) -> bool:
    """Whether the columns' least and largest values lie in ``-1 .. grid_size`` (a nan or an
    infinity does not), i.e. :func:`holes` leaves no point out; not for no points."""
    (x0, y0), (x1, y1) = extremes
    return x0 >= -1 and y0 >= -1 and x1 <= grid_size and y1 <= grid_size


def _closing(strokes: Sequence[FloatArray], close_gap: float, grid_size: int) -> list[FloatArray]:
    """The strokes of at least 3 points, all on the grid (finite, within ``-1..grid_size``), that
    end more than 1 and at most ``close_gap`` cells (Chebyshev, :func:`closure_distance`) from
    their start: their closing step is bridged. Each stroke's closure from its two ends in plain
    floats first (the same differences and larger one; a nan there leaves the stroke off the grid
    anyway), the points of the few that pass checked for the grid."""
    out = []
    for st in strokes:
        if len(st) < 3:
            continue
        (x0, y0), (x1, y1) = st[0].tolist(), st[-1].tolist()
        if 1 < max(abs(x1 - x0), abs(y1 - y0)) <= close_gap and bool(
            np.logical_and.reduce(np.isfinite(st) & (st >= -1) & (st <= grid_size), axis=None)
        ):
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
            # the step from the last point so far: max(|dx|, |dy|) as np.max(np.abs(...)) of the
            # two (finite points: no nan for the two to disagree on)
            (x, y), (px, py) = s[0].tolist(), group[-1][-1].tolist()
            if 1 < max(abs(x - px), abs(y - py)) <= max_step:
                group.append(s)
                continue
        if group:
            out.append(group[0] if len(group) == 1 else np.vstack(group))
        group = [s]
    if group:
        out.append(group[0] if len(group) == 1 else np.vstack(group))
    return out


def heal_spans(pts: FloatArray, strokes: Sequence[tuple[int, FloatArray]], max_step: float) -> list[tuple[int, int]]:
    """:func:`heal` of ``strokes`` that cover ``pts`` in order (:func:`scene_strokes`' ``(first
    index, points)``), each healed stroke as its ``(start, stop)`` in ``pts``: ``pts[start:stop]``
    are the points :func:`heal` joins (no copies made)."""
    out: list[tuple[int, int]] = []
    start = stop = 0
    last: list[float] = []  # the last point so far
    for i, s in strokes:
        n = len(s)
        if stop > start and n:
            (x, y), (px, py) = s[0].tolist(), last
            if 1 < max(abs(x - px), abs(y - py)) <= max_step:
                stop = i + n
                last = s[-1].tolist()
                continue
        if stop > start:
            out.append((start, stop))
        start, stop = i, i + n
        if n:
            last = s[-1].tolist()
    if stop > start:
        out.append((start, stop))
    return out


def _turns(stroke: FloatArray) -> list[FloatArray]:
    """``stroke`` cut where it turns straight back onto the cell it came from (a retraced line's
    far end), the turning cell kept in both pieces: simplification measures distances to the
    chord, which a line retraced onto itself never leaves, so it would lose the far end."""
    if len(stroke) < 3:
        return [stroke]
    same = stroke[:-2] == stroke[2:]
    back = (same[:, 0] & same[:, 1]).nonzero()[0] + 1  # both coordinates equal
    bounds = [0, *back.tolist(), len(stroke) - 1]
    return [stroke[a : b + 1] for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def edges(strokes: Sequence[FloatArray], tol: float) -> FloatArray:
    """The straight edges of every stroke (any length), shape (M, 2, 2)."""
    return _edges([piece for s in strokes if len(s) >= 2 for piece in _turns(s)], tol)


def edges_of(pts: FloatArray, spans: Sequence[tuple[int, int]], tol: float) -> FloatArray:
    """:func:`edges` of the strokes ``pts[start:stop]`` for each ``(start, stop)`` of ``spans``:
    the same edges, every stroke's turns (:func:`_turns`) found over ``pts`` at once."""
    back: list[int] = []  # each g with pts[g] == pts[g + 2]: a turn at g + 1
    if len(pts) >= 3:
        same = pts[:-2] == pts[2:]
        back = (same[:, 0] & same[:, 1]).nonzero()[0].tolist()
    cuts: list[tuple[int, int]] = []  # each piece as its (first, last) in pts
    for a, b in spans:
        if b - a < 3:
            if b - a == 2:
                cuts.append((a, b - 1))
            continue
        # _turns of pts[a:b]: its turns are the g in a .. b - 3, at g + 1 - a in the stroke
        bounds = [0, *(g + 1 - a for g in back[bisect_left(back, a) : bisect_right(back, b - 3)]), b - a - 1]
        cuts += [(a + i, a + j) for i, j in zip(bounds[:-1], bounds[1:]) if j > i]
    return _edges([pts[i : j + 1] for i, j in cuts], tol)


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


def seg_along_xy(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """:func:`seg_distance`'s parameter (0..1) on plain floats (:func:`.distances.segment_step_xy`)."""
    return segment_step_xy(px, py, ax, ay, bx, by)[2]


def seg_distance_xy(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """:func:`seg_distance`'s distance on plain floats: ``np.hypot`` of
    :func:`.distances.segment_step_xy`'s step."""
    dx, dy, _ = segment_step_xy(px, py, ax, ay, bx, by)
    return float(np.hypot(dx, dy))


def join_verticals(segs: FloatArray, vertical: BoolArray, gap: float, corner_tol: float, min_ends: int) -> FloatArray:
    """Vertical edges that continue one another joined into one: the top of the lower one at
    most ``gap`` cells below the foot of the upper one (or a cell above it), within a column,
    unless they meet at a corner (``min_ends`` ends of other edges within ``corner_tol`` of the
    joint). A wall edge broken by a jittered cell or a pen lift is one line; a chimney standing on
    the roof line above a wall edge is not."""
    rest = segs[~vertical]
    others = rest.reshape(-1, 2)
    # each vertical edge's (top, foot) as :func:`ends` orders them, as plain floats: the same
    # comparisons, differences and halves as on the numpy rows, one scalar at a time
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
    a_all, b_all = segs[:, 0], segs[:, 1]
    d_all = b_all - a_all
    lengths = np.hypot(d_all[:, 0], d_all[:, 1])  # the same float as np.hypot of one edge's d
    # every edge long enough to be cut, against every tip at once: rel[k] is tips - a of edge
    # long[k] (each coordinate's differences made as one row per edge, then paired); the stacked
    # matmul makes the same matrix-vector products as ``rel @ u`` one edge at a time (one gemv
    # each), which is not the same float as the two products added by hand
    long = (lengths >= 2 * tol).nonzero()[0]
    u_all = d_all[long] / lengths[long, None]
    a_long = a_all[long]
    rel_x = tips[:, 0] - a_long[:, 0, None]
    rel_y = tips[:, 1] - a_long[:, 1, None]
    rel_all = np.empty(rel_x.shape + (2,))
    rel_all[..., 0] = rel_x
    rel_all[..., 1] = rel_y
    along_all = (rel_all @ u_all[:, :, None])[..., 0]
    across_all = np.abs(rel_x * u_all[:, 1, None] - rel_y * u_all[:, 0, None])
    on_line = (across_all <= on) & (along_all >= tol) & (along_all <= (lengths[long] - tol)[:, None])
    if not (tol > 0 and float(np.maximum.reduce(lengths)) < tol * 1e12):
        # an edge's own ends: its start is 0 along it and its end its length (to 4 units in the
        # last place, under tol for an edge shorter than tol * 1e12), so the bounds above leave
        # both out unless tol is 0 or the edges are that long (or not finite): then they are left
        # out by who owns them
        owner = np.repeat(np.arange(len(segs)), 2)
        on_line &= owner[None, :] != long[:, None]
    # fewer than min_ends tips on an edge can make no cut: only the others are walked one by one
    busy = (np.add.reduce(on_line, axis=1) >= min_ends).nonzero()[0].tolist()
    if not busy:
        return segs.astype(float).reshape(-1, 2, 2)
    cut_at: dict[int, list[float]] = {}
    for k in busy:
        near = np.sort(along_all[k][on_line[k]])
        cuts: list[float] = []
        m = 0
        while m < len(near):
            j = m
            while j + 1 < len(near) and near[j + 1] - near[m] <= tol:
                j += 1
            if j - m + 1 >= min_ends:
                cuts.append(float(near[m : j + 1].mean()))
            m = j + 1
        if cuts:
            cut_at[int(long[k])] = cuts
    # the edges in order, each cut one replaced by its pieces
    out: list[FloatArray] = []
    done = 0
    for i, cuts in sorted(cut_at.items()):
        out.append(segs[done:i])
        a, b = segs[i]
        u = d_all[i] / float(lengths[i])
        corners = [a] + [a + c * u for c in cuts] + [b]
        out.append(np.array([[p, q] for p, q in zip(corners[:-1], corners[1:])], dtype=float))
        done = i + 1
    out.append(segs[done:])
    return np.concatenate(out).astype(float).reshape(-1, 2, 2)
