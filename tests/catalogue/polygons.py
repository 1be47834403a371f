"""Catalogue drawings for the straight-sided families: ``square``, ``rectangle``, ``triangle``,
``polygon`` (regular n-gon) and ``star``.

Everything here is derived from the prompt's numbers (``case.params``) alone, the way a careful
person answering the prompt would: compute the exact (float) vertices, round each to a grid cell,
join consecutive vertex cells with straight grid lines, start at the asked cell and go the asked way.

Conventions (read from the prompts and the case files' comments; the grid has y pointing DOWN):

* A polar angle ``a`` (degrees) about a center ``(cx, cy)`` is the point
  ``(cx + r·cos a, cy + r·sin a)``: 0° is to the right, 90° straight *down*, 270° straight up.
  Increasing the angle turns **clockwise on screen**.
* Regular polygons / triangles / stars: vertex ``k`` is at polar angle ``rotation + 360·k/n``
  (stars: ``rotation + 180·k/n``, even ``k`` a tip on ``radius``, odd ``k`` an inner corner on
  ``inner``), i.e. vertices are numbered clockwise from vertex 0; ``rotation`` defaults to 270 (up).
* Squares / rectangles: corners numbered clockwise from the top-left one of the unturned figure;
  ``rotation`` turns the figure clockwise (on screen) about its center.
* The vertex the drawing starts at is the one nearest to ``params["start"]`` (the cell the prompt
  names); the drawing starts at exactly that cell.

Public primitives (a hypothesis test calls them with random parameters):

* :func:`regular_vertices` ``(center, radius, n, rotation_deg=270.0) -> list[tuple[float, float]]``
* :func:`star_vertices` ``(center, radius, inner, n, rotation_deg=270.0) -> list[tuple[float, float]]``
* :func:`rect_vertices` ``(center, width, height, rotation_deg=0.0) -> list[tuple[float, float]]``
* :func:`line_cells` ``(a, b, method="bresenham") -> list[tuple[int, int]]``
* :func:`polygon_cells` ``(vertices, start_index=0, direction="cw", line="bresenham",
  rounding="nearest", closed=True, start_cell=None) -> list[tuple[int, int]]``
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from . import IMPOSTOR, LEGIT, Variant, rasters

__all__ = [
    "GENERATORS",
    "LINE_METHODS",
    "regular_vertices",
    "star_vertices",
    "rect_vertices",
    "line_cells",
    "polygon_cells",
    "signed_area",
    "rounding_options",
]

Pt = tuple[float, float]
Cell = tuple[int, int]

#: Line rasterisers :func:`line_cells` knows.
LINE_METHODS = ("bresenham", "bresenham-rev", "dda", "4conn", "4conn-y")

GRID = 50
#: An impostor whose every cell lies within this many cells of the asked ideal outline is
#: labelled "-grid-limit" (the brief's rule of thumb).
GRID_LIMIT_DIST = 0.75
#: A coordinate with a fractional part in [1 - T, T] may be rounded either way (both ≤ T away).
ROUND_TOL = 0.75
#: How many alternative (non-nearest) vertex roundings to draw per case at most.
MAX_ALT_ROUNDINGS = 8


# ---------------------------------------------------------------------------------------------
# Geometry primitives
# ---------------------------------------------------------------------------------------------


def regular_vertices(center: Sequence[float], radius: float, n: int, rotation_deg: float = 270.0) -> list[Pt]:
    """``regular_vertices(center, radius, n, rotation_deg=270.0) -> list[(float, float)]``

    The ``n`` vertices of a regular n-gon inscribed in the circle ``(center, radius)``, in
    clockwise order on screen (y down): vertex ``k`` at polar angle ``rotation_deg + 360·k/n``,
    i.e. ``(cx + radius·cos a, cy + radius·sin a)``. ``rotation_deg`` = 270 puts vertex 0 straight
    up, 0 to the right, 90 straight down. Exact floats, not rounded.
    """
    cx, cy = float(center[0]), float(center[1])
    n = int(n)
    if n < 1:
        raise ValueError("n must be >= 1")
    out = []
    for k in range(n):
        a = math.radians(rotation_deg + 360.0 * k / n)
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return out


def star_vertices(
    center: Sequence[float], radius: float, inner: float, n: int, rotation_deg: float = 270.0
) -> list[Pt]:
    """``star_vertices(center, radius, inner, n, rotation_deg=270.0) -> list[(float, float)]``

    The ``2n`` vertices of an n-pointed star's outline, clockwise on screen from the tip at polar
    angle ``rotation_deg``: vertex ``k`` at angle ``rotation_deg + 180·k/n``, on ``radius`` for even
    ``k`` (tips) and on ``inner`` for odd ``k`` (inner corners).
    """
    cx, cy = float(center[0]), float(center[1])
    n = int(n)
    if n < 2:
        raise ValueError("a star needs n >= 2")
    out = []
    for k in range(2 * n):
        r = radius if k % 2 == 0 else inner
        a = math.radians(rotation_deg + 180.0 * k / n)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def rect_vertices(center: Sequence[float], width: float, height: float, rotation_deg: float = 0.0) -> list[Pt]:
    """``rect_vertices(center, width, height, rotation_deg=0.0) -> list[(float, float)]``

    The 4 corners of a ``width`` × ``height`` rectangle about ``center``, turned ``rotation_deg``
    clockwise on screen, in clockwise order starting from the (unturned) top-left corner:
    TL, TR, BR, BL.
    """
    cx, cy = float(center[0]), float(center[1])
    u, v = _axes(rotation_deg)
    hw, hh = width / 2.0, height / 2.0
    out = []
    for lx, ly in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)):
        out.append((cx + lx * u[0] + ly * v[0], cy + lx * u[1] + ly * v[1]))
    return out


def _axes(rotation_deg: float) -> tuple[Pt, Pt]:
    """Unit local x and y axes of a figure turned ``rotation_deg`` clockwise on screen."""
    t = math.radians(rotation_deg)
    c, s = math.cos(t), math.sin(t)
    return (c, s), (-s, c)


def signed_area(vertices: Sequence[Sequence[float]]) -> float:
    """``signed_area(vertices) -> float``: shoelace area; > 0 when the vertices go clockwise on
    screen (y down), < 0 counter-clockwise."""
    s = 0.0
    m = len(vertices)
    for i in range(m):
        x0, y0 = vertices[i]
        x1, y1 = vertices[(i + 1) % m]
        s += x0 * y1 - x1 * y0
    return s / 2.0


# ---------------------------------------------------------------------------------------------
# Rounding and lines
# ---------------------------------------------------------------------------------------------


def _round_half_up(v: float) -> int:
    return int(math.floor(v + 0.5))


def rounding_options(v: float, tol: float = ROUND_TOL) -> tuple[int, ...]:
    """``rounding_options(v, tol=0.75) -> tuple[int, ...]``: the integers a careful person may round
    coordinate ``v`` to: floor and ceil when both are within ``tol``, else the nearest one."""
    f = math.floor(v)
    frac = v - f
    if frac < 1e-9:
        return (int(f),)
    if frac > 1 - 1e-9:
        return (int(f) + 1,)
    if frac <= tol + 1e-9 and 1 - frac <= tol + 1e-9:
        return (int(f), int(f) + 1)
    return (_round_half_up(v),)


def _bresenham(a: Cell, b: Cell) -> list[Cell]:
    x0, y0 = a
    x1, y1 = b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    out = []
    while True:
        out.append((x0, y0))
        if x0 == x1 and y0 == y1:
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def _dda(a: Cell, b: Cell) -> list[Cell]:
    """One cell per step along the major axis; the minor coordinate rounded half up (exact
    integer arithmetic)."""
    x0, y0 = a
    x1, y1 = b
    dx, dy = x1 - x0, y1 - y0
    n = max(abs(dx), abs(dy))
    if n == 0:
        return [(x0, y0)]
    out = []
    for i in range(n + 1):
        # floor(x0 + dx*i/n + 1/2) exactly
        x = x0 + (2 * dx * i + n) // (2 * n)
        y = y0 + (2 * dy * i + n) // (2 * n)
        out.append((x, y))
    return out


def _four_conn(a: Cell, b: Cell, x_first: bool = True) -> list[Cell]:
    """A 4-connected staircase: each step moves along x or y, whichever cell stays nearer the ideal
    line (ties: along x when ``x_first``, else along y)."""
    x0, y0 = a
    x1, y1 = b
    dx, dy = x1 - x0, y1 - y0
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    x, y = x0, y0
    out = [(x, y)]
    while (x, y) != (x1, y1):
        cands = []
        if x != x1:
            cands.append((abs((x + sx - x0) * dy - (y - y0) * dx), 0 if x_first else 1, (x + sx, y)))
        if y != y1:
            cands.append((abs((x - x0) * dy - (y + sy - y0) * dx), 1 if x_first else 0, (x, y + sy)))
        cands.sort()
        x, y = cands[0][2]
        out.append((x, y))
    return out


def line_cells(a: Sequence[int], b: Sequence[int], method: str = "bresenham") -> list[Cell]:
    """``line_cells(a, b, method="bresenham") -> list[(int, int)]``

    The grid cells of the straight line from integer cell ``a`` to integer cell ``b``, both
    included, in order from ``a``. ``method``:

    * ``"bresenham"`` — classic integer Bresenham drawn from ``a`` (8-connected);
    * ``"bresenham-rev"`` — Bresenham drawn from ``b`` to ``a``, then reversed (ties broken the
      other way);
    * ``"dda"`` — one cell per step of the major axis, minor coordinate rounded half up
      (8-connected);
    * ``"4conn"`` — a 4-connected staircase hugging the ideal line (equal choices: step along x);
    * ``"4conn-y"`` — the same, equal choices stepping along y.
    """
    a = (int(a[0]), int(a[1]))
    b = (int(b[0]), int(b[1]))
    if method == "bresenham":
        return _bresenham(a, b)
    if method == "bresenham-rev":
        return _bresenham(b, a)[::-1]
    if method == "dda":
        return _dda(a, b)
    if method == "4conn":
        return _four_conn(a, b, True)
    if method == "4conn-y":
        return _four_conn(a, b, False)
    raise ValueError(f"unknown line method {method!r}; one of {LINE_METHODS}")


Rounding = str | Sequence[Sequence[int]]


def polygon_cells(
    vertices: Sequence[Sequence[float]],
    start_index: int = 0,
    direction: str = "cw",
    line: str = "bresenham",
    rounding: Rounding = "nearest",
    closed: bool = True,
    start_cell: Sequence[int] | None = None,
) -> list[Cell]:
    """``polygon_cells(vertices, start_index=0, direction="cw", line="bresenham",
    rounding="nearest", closed=True, start_cell=None) -> list[(int, int)]``

    The outline of the polygon through ``vertices`` as a path of grid cells.

    * ``vertices`` — the polygon's (float) vertices in order around the outline, either
      orientation (the traversal sense comes from ``direction`` and the shoelace sign, y down).
    * ``start_index`` — index into ``vertices`` of the vertex the path starts at.
    * ``direction`` — ``"cw"`` or ``"ccw"``, as seen on screen (y pointing down). A degenerate
      (zero-area) polygon is taken to be listed clockwise.
    * ``line`` — how each side is rasterised, see :func:`line_cells` (:data:`LINE_METHODS`).
    * ``rounding`` — how vertices become cells: ``"nearest"`` (half up), ``"floor"``, ``"ceil"``,
      or an explicit sequence of integer cells, one per vertex (same indexing as ``vertices``).
    * ``closed`` — ``True``: the start cell is repeated at the end; ``False``: the path stops on the
      cell before it (which is an 8-neighbour of the start cell).
    * ``start_cell`` — if given, the start vertex's cell (overrides ``rounding`` for that vertex).

    The result starts at the start vertex's cell, consecutive cells are distinct 8-neighbours
    (4-neighbours with ``line="4conn"`` / ``"4conn-y"``), a vertex cell shared by two sides appears once. No
    clipping to the grid. A polygon whose vertices all round to one cell gives ``[cell]``.
    """
    m = len(vertices)
    if m == 0:
        raise ValueError("no vertices")
    if not 0 <= start_index < m:
        raise ValueError("start_index out of range")
    if direction not in ("cw", "ccw"):
        raise ValueError("direction must be 'cw' or 'ccw'")
    if isinstance(rounding, str):
        fn: Callable[[float], int]
        if rounding == "nearest":
            fn = _round_half_up
        elif rounding == "floor":
            fn = lambda v: int(math.floor(v))
        elif rounding == "ceil":
            fn = lambda v: int(math.ceil(v))
        else:
            raise ValueError(f"unknown rounding {rounding!r}")
        cells = [(fn(float(x)), fn(float(y))) for x, y in vertices]
    else:
        if len(rounding) != m:
            raise ValueError("rounding: one cell per vertex")
        cells = [(int(c[0]), int(c[1])) for c in rounding]
    if start_cell is not None:
        cells[start_index] = (int(start_cell[0]), int(start_cell[1]))
    cw_listed = signed_area([(float(x), float(y)) for x, y in vertices]) >= 0
    step = 1 if (direction == "cw") == cw_listed else -1
    order = [cells[(start_index + step * k) % m] for k in range(m)] + [cells[start_index]]
    path: list[Cell] = [order[0]]
    for a, b in zip(order, order[1:]):
        for c in line_cells(a, b, line)[1:]:
            if c != path[-1]:
                path.append(c)
    if not closed and len(path) > 1 and path[-1] == path[0]:
        path.pop()
    return path


# ---------------------------------------------------------------------------------------------
# Case geometry
# ---------------------------------------------------------------------------------------------


class _Spec:
    """The asked figure: exact vertices (clockwise on screen), start vertex index, start cell,
    direction, and what the generators need to know about the family."""

    def __init__(self, family: str, verts: list[Pt], start: Cell, direction: str, **info: Any):
        if signed_area(verts) < 0:
            verts = verts[::-1]
        self.family = family
        self.verts = verts
        self.start = (int(start[0]), int(start[1]))
        self.direction = direction
        d = [math.hypot(x - self.start[0], y - self.start[1]) for x, y in verts]
        self.s = int(np.argmin(d))
        self.info = info
        if "center" in info:
            self.center = (float(info["center"][0]), float(info["center"][1]))
        else:
            self.center = (sum(v[0] for v in verts) / len(verts), sum(v[1] for v in verts) / len(verts))

    @property
    def sv(self) -> Pt:
        return self.verts[self.s]


def _spec(case: Any) -> _Spec:
    p = case.params
    fam = case.family
    direction = str(p.get("direction", "cw"))
    if fam in ("square", "rectangle"):
        if fam == "square":
            w = h = float(p["side"])
        else:
            w, h = float(p["width"]), float(p["height"])
        rot = float(p.get("rotation", 0) or 0)
        verts = rect_vertices(p["center"], w, h, rot)
        start = p.get("start")
        if start is None:
            sx, sy = verts[int(p.get("start_vertex", 0)) % 4]
            start = (_round_half_up(sx), _round_half_up(sy))
        return _Spec(fam, verts, start, direction, center=p["center"], width=w, height=h, rotation=rot)
    if fam == "triangle" and p.get("vertices"):
        verts = [(float(x), float(y)) for x, y in p["vertices"]]
        start = p.get("start") or (int(round(verts[0][0])), int(round(verts[0][1])))
        return _Spec(fam, verts, start, direction, given=True)
    if fam in ("triangle", "polygon"):
        n = 3 if fam == "triangle" else int(p["n"])
        rot = float(p.get("rotation", 270) if p.get("rotation") is not None else 270)
        verts = regular_vertices(p["center"], float(p["radius"]), n, rot)
        start = p.get("start")
        if start is None:
            sx, sy = verts[int(p.get("start_vertex", 0)) % n]
            start = (_round_half_up(sx), _round_half_up(sy))
        return _Spec(fam, verts, start, direction, center=p["center"], radius=float(p["radius"]), n=n, rotation=rot)
    if fam == "star":
        n = int(p["n"])
        rot = float(p.get("rotation", 270) if p.get("rotation") is not None else 270)
        verts = star_vertices(p["center"], float(p["radius"]), float(p["inner"]), n, rot)
        start = p.get("start")
        if start is None:
            sx, sy = verts[int(p.get("start_vertex", 0)) % (2 * n)]
            start = (_round_half_up(sx), _round_half_up(sy))
        return _Spec(
            fam,
            verts,
            start,
            direction,
            center=p["center"],
            radius=float(p["radius"]),
            inner=float(p["inner"]),
            n=n,
            rotation=rot,
        )
    raise ValueError(f"polygons: unknown family {fam!r}")


def _seg_dist(cells: Sequence[Cell], verts: Sequence[Pt]) -> float:
    """Largest distance from any cell to the closed polyline through ``verts``."""
    P = np.asarray(cells, dtype=float)
    A = np.asarray(verts, dtype=float)
    B = np.roll(A, -1, axis=0)
    AB = B - A  # (M,2)
    L2 = np.maximum((AB**2).sum(axis=1), 1e-12)
    AP = P[:, None, :] - A[None, :, :]  # (N,M,2)
    t = np.clip((AP * AB[None]).sum(axis=2) / L2[None], 0.0, 1.0)
    Q = A[None] + t[..., None] * AB[None]
    d = np.sqrt(((P[:, None, :] - Q) ** 2).sum(axis=2)).min(axis=1)
    return float(d.max())


def _in_grid(cells: Iterable[Cell]) -> bool:
    return all(0 <= x < GRID and 0 <= y < GRID for x, y in cells)


def _fmt(v: float) -> str:
    return f"{v:g}"


# ---------------------------------------------------------------------------------------------
# Legitimate drawings
# ---------------------------------------------------------------------------------------------


def _legit(spec: _Spec) -> list[Variant]:
    verts, s, S = spec.verts, spec.s, spec.start
    m = len(verts)
    out: list[Variant] = []
    seen: set[tuple[Cell, ...]] = set()

    def add(name: str, cls: str, pts: list[Cell], note: str) -> None:
        key = tuple(pts)
        if key in seen or not _in_grid(pts):
            return
        seen.add(key)
        out.append(Variant(name, LEGIT, cls, key, note))

    nearest = [(_round_half_up(x), _round_half_up(y)) for x, y in verts]
    nearest[s] = S
    for line in LINE_METHODS:
        for closed in (True, False):
            pts = polygon_cells(verts, s, spec.direction, line, nearest, closed)
            tag = "closed" if closed else "open"
            add(
                f"{line}-{tag}",
                line,
                pts,
                f"vertices rounded to nearest, sides by {line}, start {'repeated at the end' if closed else 'not repeated'}",
            )

    # Every equally close rounding of the non-start vertices (both floor/ceil within 0.75).
    opts = []
    for i, (x, y) in enumerate(verts):
        if i == s:
            opts.append([S])
        else:
            opts.append([(a, b) for a in rounding_options(x) for b in rounding_options(y)])
    total = 1
    for o in opts:
        total *= len(o)
    combos: list[tuple[Cell, ...]] = []
    if total <= MAX_ALT_ROUNDINGS + 1:
        combos = [c for c in itertools.product(*opts)]
    else:
        rng = random.Random(repr((spec.family, verts, S)))
        got: set[tuple[Cell, ...]] = set()
        # the extremes first: every ambiguous coordinate floored / ceiled
        lo = tuple(min(o) for o in opts)
        hi = tuple(max(o) for o in opts)
        for c in (lo, hi):
            got.add(c)
            combos.append(c)
        tries = 0
        while len(combos) < MAX_ALT_ROUNDINGS + 1 and tries < 500:
            tries += 1
            c = tuple(rng.choice(o) for o in opts)
            if c not in got:
                got.add(c)
                combos.append(c)
    combos = [c for c in combos if list(c) != nearest][:MAX_ALT_ROUNDINGS]
    styles = [("bresenham", True), ("dda", False), ("4conn", True), ("bresenham-rev", False)]
    for j, combo in enumerate(combos):
        line, closed = styles[j % len(styles)]
        pts = polygon_cells(verts, s, spec.direction, line, list(combo), closed)
        changed = [
            f"v{i}({_fmt(round(verts[i][0], 2))},{_fmt(round(verts[i][1], 2))})->{combo[i]}"
            for i in range(m)
            if combo[i] != nearest[i]
        ]
        add(
            f"round{j + 1}-{line}-{'closed' if closed else 'open'}",
            f"rounding-{line}",
            pts,
            "equally close rounding: " + ", ".join(changed),
        )
    return out


# ---------------------------------------------------------------------------------------------
# Impostors: transformations that keep the start vertex where it is
# ---------------------------------------------------------------------------------------------


def _rot_about(pts: Sequence[Pt], o: Pt, deg: float) -> list[Pt]:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return [(o[0] + (x - o[0]) * c - (y - o[1]) * s, o[1] + (x - o[0]) * s + (y - o[1]) * c) for x, y in pts]


def _frame(spec: _Spec) -> tuple[Pt, Pt]:
    """Unit axis u from the start vertex toward the figure's center, and w perpendicular to it."""
    sx, sy = spec.sv
    cx, cy = spec.center
    dx, dy = cx - sx, cy - sy
    L = math.hypot(dx, dy) or 1.0
    u = (dx / L, dy / L)
    return u, (-u[1], u[0])


def _affine_about_start(
    spec: _Spec, pts: Sequence[Pt], fu: float = 1.0, fw: float = 1.0, shear: float = 0.0
) -> list[Pt]:
    """Scale by ``fu`` along the start→center axis, ``fw`` across it, and shear (across-axis shift
    of ``shear`` per unit along the axis), all about the start vertex."""
    S = spec.sv
    u, w = _frame(spec)
    out = []
    for x, y in pts:
        dx, dy = x - S[0], y - S[1]
        a = dx * u[0] + dy * u[1]
        b = dx * w[0] + dy * w[1]
        a2, b2 = a * fu, b * fw + shear * a
        out.append((S[0] + a2 * u[0] + b2 * w[0], S[1] + a2 * u[1] + b2 * w[1]))
    return out


def _extent(spec: _Spec, pts: Sequence[Pt]) -> tuple[float, float]:
    """Extent along the start→center axis (from the start vertex) and full width across it."""
    S = spec.sv
    u, w = _frame(spec)
    a = [(x - S[0]) * u[0] + (y - S[1]) * u[1] for x, y in pts]
    b = [(x - S[0]) * w[0] + (y - S[1]) * w[1] for x, y in pts]
    return max(a), max(b) - min(b)


def _idx_of(verts: Sequence[Pt], p: Pt) -> int:
    """Index of the vertex of ``verts`` nearest to ``p``."""
    return min(range(len(verts)), key=lambda i: math.hypot(verts[i][0] - p[0], verts[i][1] - p[1]))


def _chamfer(verts: list[Pt], idx: Sequence[int], k: float) -> list[Pt]:
    """Cut each corner in ``idx`` by ``k`` cells along both sides."""
    m = len(verts)
    out: list[Pt] = []
    for i, v in enumerate(verts):
        if i not in idx:
            out.append(v)
            continue
        p, n = verts[(i - 1) % m], verts[(i + 1) % m]
        for q in (p, n):
            d = math.hypot(q[0] - v[0], q[1] - v[1]) or 1.0
            out.append((v[0] + (q[0] - v[0]) * k / d, v[1] + (q[1] - v[1]) * k / d))
    return out


def _round_corners(verts: list[Pt], idx: Sequence[int], rad: float, segs: int = 6) -> list[Pt]:
    """Replace each corner in ``idx`` by a circular arc of radius ``rad`` tangent to both sides."""
    m = len(verts)
    out: list[Pt] = []
    for i, v in enumerate(verts):
        if i not in idx:
            out.append(v)
            continue
        p, n = verts[(i - 1) % m], verts[(i + 1) % m]
        a = (p[0] - v[0], p[1] - v[1])
        b = (n[0] - v[0], n[1] - v[1])
        la, lb = math.hypot(*a), math.hypot(*b)
        a = (a[0] / la, a[1] / la)
        b = (b[0] / lb, b[1] / lb)
        phi = math.acos(max(-1.0, min(1.0, a[0] * b[0] + a[1] * b[1])))
        t = rad / math.tan(phi / 2)
        bis = (a[0] + b[0], a[1] + b[1])
        lbis = math.hypot(*bis)
        bis = (bis[0] / lbis, bis[1] / lbis)
        c = (v[0] + bis[0] * rad / math.sin(phi / 2), v[1] + bis[1] * rad / math.sin(phi / 2))
        t0 = (v[0] + a[0] * t, v[1] + a[1] * t)
        t1 = (v[0] + b[0] * t, v[1] + b[1] * t)
        a0 = math.atan2(t0[1] - c[1], t0[0] - c[0])
        a1 = math.atan2(t1[1] - c[1], t1[0] - c[0])
        da = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        for j in range(segs + 1):
            ang = a0 + da * j / segs
            out.append((c[0] + rad * math.cos(ang), c[1] + rad * math.sin(ang)))
    return out


class _Imp:
    """An impostor's exact figure: vertices (any orientation), start index, start cell (None: round
    the start vertex)."""

    __slots__ = ("name", "cls", "verts", "s", "start", "note")

    def __init__(self, name: str, cls: str, verts: list[Pt], s: int, note: str, start: Cell | None = None):
        self.name, self.cls, self.verts, self.s, self.note, self.start = name, cls, verts, s, note, start


def _regular_like(spec: _Spec, n: int, radius: float | None = None) -> list[Pt]:
    """A regular n-gon about the spec's center with vertex 0 on the start vertex's ray."""
    cx, cy = spec.center
    sx, sy = spec.sv
    r = math.hypot(sx - cx, sy - cy) if radius is None else radius
    rot = math.degrees(math.atan2(sy - cy, sx - cx))
    return regular_vertices((cx, cy), r, n, rot)


def _common_impostors(spec: _Spec) -> list[_Imp]:
    """Rotations, shears, stretches, sizes, a displaced vertex — for every family."""
    V, s = spec.verts, spec.s
    S = spec.sv
    imps: list[_Imp] = []
    for deg in (5, -5, 8, -10, 15):
        imps.append(
            _Imp(
                f"rotated-start{deg:+d}",
                "rotated",
                _rot_about(V, S, deg),
                s,
                f"turned {deg:+d}° about the start vertex",
            )
        )
    for deg in (6, -10):
        R = _rot_about(V, spec.center, deg)
        imps.append(
            _Imp(
                f"rotated-center{deg:+d}",
                "rotated",
                R,
                s,
                f"turned {deg:+d}° about the center; starts at the turned start vertex",
            )
        )
    D, W = _extent(spec, V)
    if spec.family in ("square", "rectangle"):
        return imps
    for k in (2, 3):
        imps.append(
            _Imp(
                f"sheared-{k}",
                "sheared",
                _affine_about_start(spec, V, shear=k / D),
                s,
                f"sheared about the start vertex: the far end shifted {k} cells sideways",
            )
        )
    for label, fw in (("w+2", (W + 2) / W), ("w+3", (W + 3) / W), ("w-10pct", 0.90)):
        imps.append(
            _Imp(
                f"stretched-{label}",
                "stretched",
                _affine_about_start(spec, V, fw=fw),
                s,
                f"width across the start-center axis ×{fw:.3f} ({W:.1f}→{W * fw:.1f})",
            )
        )
    for label, fu in (("d+2", (D + 2) / D), ("d-8pct", 0.92)):
        imps.append(
            _Imp(
                f"stretched-{label}",
                "stretched",
                _affine_about_start(spec, V, fu=fu),
                s,
                f"depth along the start-center axis ×{fu:.3f} ({D:.1f}→{D * fu:.1f}), about the start vertex",
            )
        )
    R0 = max(math.hypot(x - spec.center[0], y - spec.center[1]) for x, y in V)
    for dr in (2, -2):
        f = (R0 + dr) / R0
        imps.append(
            _Imp(
                f"size-start{dr:+d}",
                "size",
                _affine_about_start(spec, V, fu=f, fw=f),
                s,
                f"scaled ×{f:.3f} about the start vertex (radius {R0:.1f}→{R0 + dr:.1f})",
            )
        )
    f = (R0 + 2) / R0
    Vc = [(spec.center[0] + (x - spec.center[0]) * f, spec.center[1] + (y - spec.center[1]) * f) for x, y in V]
    imps.append(
        _Imp("size-center+2", "size", Vc, s, f"radius {R0:.1f}→{R0 + 2:.1f} about the center; start moves 2 cells out")
    )
    imps.extend(_displaced(spec))
    return imps


def _displaced(spec: _Spec) -> list[_Imp]:
    V, s = spec.verts, spec.s
    m = len(V)
    cx, cy = spec.center
    out = []
    far = (s + m // 2) % m
    nxt = (s + 1) % m
    for name, i, mode in (("far-out", far, "out"), ("far-side", far, "side"), ("next-in", nxt, "in")):
        x, y = V[i]
        rx, ry = x - cx, y - cy
        L = math.hypot(rx, ry) or 1.0
        rx, ry = rx / L, ry / L
        if mode == "out":
            d = (2 * rx, 2 * ry)
        elif mode == "in":
            d = (-2 * rx, -2 * ry)
        else:
            d = (-2 * ry, 2 * rx)
        W = list(V)
        W[i] = (x + d[0], y + d[1])
        out.append(_Imp(f"vertex-{name}", "vertex", W, s, f"vertex {i} moved 2 cells ({mode})"))
    return out


def _quad_impostors(spec: _Spec) -> list[_Imp]:
    """Square / rectangle specific: sheared, stretched, size, sides, rounded corners."""
    V, s = spec.verts, spec.s
    w, h = spec.info["width"], spec.info["height"]
    rot = spec.info["rotation"]
    imps: list[_Imp] = []
    i1, i2, i3 = (s + 1) % 4, (s + 2) % 4, (s + 3) % 4

    def shift(a: int, b: int, k: float) -> list[Pt]:
        ax, ay = V[a]
        bx, by = V[b]
        L = math.hypot(bx - ax, by - ay)
        d = ((bx - ax) / L * k, (by - ay) / L * k)
        W = list(V)
        W[a] = (ax + d[0], ay + d[1])
        W[b] = (bx + d[0], by + d[1])
        return W

    for a, b, sign in ((i1, i2, 1), (i2, i3, -1)):
        for k in (2, 3):
            imps.append(
                _Imp(
                    f"sheared-v{a}v{b}-{k}",
                    "sheared",
                    shift(a, b, sign * k),
                    s,
                    f"parallelogram: side v{a}-v{b} slid {sign * k:+d} cells along itself",
                )
            )

    # local coordinates of each vertex relative to the start corner
    u, v = _axes(rot)
    Sx, Sy = V[s]

    def resized(w2: float, h2: float) -> list[Pt]:
        out = []
        for x, y in V:
            lx = (x - Sx) * u[0] + (y - Sy) * u[1]
            ly = (x - Sx) * v[0] + (y - Sy) * v[1]
            lx *= w2 / w
            ly *= h2 / h
            out.append((Sx + lx * u[0] + ly * v[0], Sy + lx * u[1] + ly * v[1]))
        return out

    stretches = [(w + 2, h), (w + 3, h), (w, h + 2), (w, h + 3), (w * 1.08, h * 0.92), (w * 0.9, h)]
    if spec.family == "square":
        stretches.append((w + 2, h - 2))
    for w2, h2 in stretches:
        imps.append(
            _Imp(
                f"stretched-{_fmt(round(w2, 1))}x{_fmt(round(h2, 1))}",
                "stretched",
                resized(w2, h2),
                s,
                f"{_fmt(round(w2, 2))}×{_fmt(round(h2, 2))} instead of {_fmt(w)}×{_fmt(h)}, start corner kept",
            )
        )
    for d in (2, -2):
        imps.append(
            _Imp(
                f"size-start{d:+d}",
                "size",
                resized(w + d, h + d),
                s,
                f"{_fmt(w + d)}×{_fmt(h + d)} instead of {_fmt(w)}×{_fmt(h)}, start corner kept",
            )
        )
    imps.append(
        _Imp(
            "size-center+2",
            "size",
            rect_vertices(spec.center, w + 2, h + 2, rot),
            s,
            f"{_fmt(w + 2)}×{_fmt(h + 2)} about the center; start corner moves 1 cell diagonally",
        )
    )

    # wrong side count
    if spec.family == "square":
        for n in (3, 5):
            imps.append(
                _Imp(
                    f"sides-n{n}",
                    "sides",
                    _regular_like(spec, n),
                    0,
                    f"regular {n}-gon on the square's circumcircle, vertex at the start corner",
                )
            )
    imps.append(_Imp("sides-tri", "sides", [V[s], V[i1], V[i3]], 0, "triangle: the corner opposite the start dropped"))
    cut = min(w, h) / 3.0
    W = _chamfer(V, [i2], cut)
    imps.append(
        _Imp("sides-pent", "sides", W, _idx_of(W, V[s]), f"pentagon: the opposite corner cut off by {cut:.1f} cells")
    )

    # rounded / cut corners (the start corner kept sharp so the drawing still starts there)
    others = [i1, i2, i3]
    for k in (2, 3, 4):
        W = _chamfer(V, others, k)
        imps.append(_Imp(f"corner-cut{k}", "rounded", W, _idx_of(W, V[s]), f"the three other corners cut by {k} cells"))
    for r in (4, 6):
        W = _round_corners(V, others, r)
        imps.append(
            _Imp(f"corner-round{r}", "rounded", W, _idx_of(W, V[s]), f"the three other corners rounded, radius {r}")
        )
    imps.extend(_displaced(spec))
    return imps


def _triangle_impostors(spec: _Spec) -> list[_Imp]:
    V, s = spec.verts, spec.s
    imps: list[_Imp] = []
    S = spec.sv
    if not spec.info.get("given"):
        for n in (4, 5):
            imps.append(
                _Imp(
                    f"sides-n{n}",
                    "sides",
                    _regular_like(spec, n),
                    0,
                    f"regular {n}-gon on the triangle's circumcircle, vertex at the start",
                )
            )
        R = spec.info["radius"]
        u, w = _frame(spec)
        D = 1.5 * R
        for apex in (54, 66, 50, 70):
            hw = D * math.tan(math.radians(apex / 2))
            base = [(S[0] + u[0] * D + w[0] * sg * hw, S[1] + u[1] * D + w[1] * sg * hw) for sg in (1, -1)]
            b = (180 - apex) / 2
            imps.append(
                _Imp(
                    f"isosceles-{apex}",
                    "non-equilateral",
                    [S, base[0], base[1]],
                    0,
                    f"isosceles, apex at the start: angles {apex}/{_fmt(b)}/{_fmt(b)}°, same height",
                )
            )
        # scalene: the base tilted 6° about its midpoint
        mid = (S[0] + u[0] * D, S[1] + u[1] * D)
        base = [V[(s + 1) % 3], V[(s + 2) % 3]]
        imps.append(
            _Imp(
                "scalene-tilt6",
                "non-equilateral",
                [S] + _rot_about(base, mid, 6),
                0,
                "the side opposite the start turned 6° about its midpoint (scalene)",
            )
        )
    else:
        # one extra vertex: a side bent out / in at its middle
        m = 3
        for j, (k, sign) in enumerate(((2, 1), (3, 1), (3, -1))):
            i = (s + 1 + j) % m  # bend each side in turn
            a, b = V[i], V[(i + 1) % m]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            cx, cy = spec.center
            nx, ny = -(b[1] - a[1]), b[0] - a[0]
            L = math.hypot(nx, ny)
            nx, ny = nx / L, ny / L
            if (mx - cx) * nx + (my - cy) * ny < 0:
                nx, ny = -nx, -ny
            W = list(V[: i + 1]) + [(mx + sign * k * nx, my + sign * k * ny)] + list(V[i + 1 :])
            si = s if s <= i else s + 1
            imps.append(
                _Imp(
                    f"sides-bent{j}-{'out' if sign > 0 else 'in'}{k}",
                    "sides",
                    W,
                    si,
                    f"quadrilateral: side v{i}-v{(i + 1) % m} bent {'out' if sign > 0 else 'in'} by {k} cells at its middle",
                )
            )
        # a right/isosceles triangle with one non-start vertex moved 3 cells along a side
        for j in (1, 2):
            i = (s + j) % 3
            W = list(V)
            a = V[i]
            o = V[(i + (1 if j == 1 else -1)) % 3]
            L = math.hypot(o[0] - a[0], o[1] - a[1])
            W[i] = (a[0] + (o[0] - a[0]) * 3 / L, a[1] + (o[1] - a[1]) * 3 / L)
            imps.append(_Imp(f"vertex-slid{j}", "vertex", W, s, f"vertex {i} slid 3 cells along a side"))
    return imps


def _polygon_impostors(spec: _Spec) -> list[_Imp]:
    n = spec.info["n"]
    imps = []
    for k in (n - 1, n + 1):
        if k >= 3:
            imps.append(
                _Imp(
                    f"sides-n{k}",
                    "sides",
                    _regular_like(spec, k),
                    0,
                    f"regular {k}-gon, same center and radius, vertex at the start",
                )
            )
    # an irregular n-gon: alternate vertices pulled in 2 cells (not all sides equal)
    cx, cy = spec.center
    W = []
    for i, (x, y) in enumerate(spec.verts):
        if (i - spec.s) % 2 == 1:
            L = math.hypot(x - cx, y - cy)
            W.append((x - (x - cx) * 2 / L, y - (y - cy) * 2 / L))
        else:
            W.append((x, y))
    imps.append(_Imp("irregular-alt-in2", "irregular", W, spec.s, "every other vertex 2 cells nearer the center"))
    return imps


def _star_impostors(spec: _Spec) -> list[_Imp]:
    n = spec.info["n"]
    R, r = spec.info["radius"], spec.info["inner"]
    c = spec.center
    s = spec.s
    start_is_tip = s % 2 == 0
    rot0 = spec.info["rotation"]
    imps = []
    sx, sy = spec.sv
    ang_s = math.degrees(math.atan2(sy - c[1], sx - c[0]))

    def star(n2: int, R2: float, r2: float) -> tuple[list[Pt], int]:
        # keep the start vertex on its ray: start index 0 is a tip (or inner) at the start's angle
        if start_is_tip:
            return star_vertices(c, R2, r2, n2, ang_s), 0
        V2 = star_vertices(c, R2, r2, n2, ang_s - 180.0 / n2)
        return V2, 1

    for k in (n - 1, n + 1):
        if k >= 3:
            V2, s2 = star(k, R, r)
            imps.append(_Imp(f"points-n{k}", "sides", V2, s2, f"{k}-pointed star, same radii"))
    for f in (0.75, 1.25):
        sign = "-" if f < 1 else "+"
        if start_is_tip:
            V2, s2 = star(n, R, r * f)
            imps.append(
                _Imp(f"inner{sign}25pct", "inner-radius", V2, s2, f"inner radius {_fmt(r)}→{_fmt(round(r * f, 2))}")
            )
        else:
            # the start corner is an inner one: draw the wrong star, then slide it so that corner
            # is still at the asked start (the center moves by |f - 1|·inner)
            V2, s2 = star(n, R, r * f)
            dx, dy = sx - V2[s2][0], sy - V2[s2][1]
            V2 = [(x + dx, y + dy) for x, y in V2]
            imps.append(
                _Imp(
                    f"inner{sign}25pct",
                    "inner-radius",
                    V2,
                    s2,
                    f"inner radius {_fmt(r)}→{_fmt(round(r * f, 2))}, slid so the start corner stays "
                    f"(center off by {abs(f - 1) * r:.2f})",
                )
            )
    # inner corners off the bisectors (a pinwheel): tips and corners no longer alternate evenly
    for frac in (0.3, 0.45):
        sh = frac * 180.0 / n
        W = []
        for k, (x, y) in enumerate(spec.verts):
            if k % 2 == 1:
                a = math.radians(rot0 + 180.0 * k / n + sh)
                W.append((c[0] + r * math.cos(a), c[1] + r * math.sin(a)))
            else:
                W.append((x, y))
        if not start_is_tip:
            # keep the start corner: turn the whole figure back about the center
            a0 = math.degrees(math.atan2(W[s][1] - c[1], W[s][0] - c[0]))
            W = _rot_about(W, c, ang_s - a0)
        imps.append(
            _Imp(
                f"skewed-{int(frac * 100)}pct",
                "tips",
                W,
                s,
                f"inner corners turned {sh:.1f}° off the bisectors (lopsided points)",
            )
        )
    # uneven tips: every other tip shortened
    for d in (3, 4):
        W = []
        for k, (x, y) in enumerate(spec.verts):
            if k % 4 == 2 and k != s:
                L = math.hypot(x - c[0], y - c[1])
                W.append((x - (x - c[0]) * d / L, y - (y - c[1]) * d / L))
            else:
                W.append((x, y))
        imps.append(_Imp(f"uneven-tips-{d}", "tips", W, s, f"every other tip {d} cells shorter"))
    return imps


def _impostors(spec: _Spec, legit: list[Variant]) -> list[Variant]:
    fam = spec.family
    imps = _common_impostors(spec)
    if fam in ("square", "rectangle"):
        imps += _quad_impostors(spec)
    elif fam == "triangle":
        imps += _triangle_impostors(spec)
    elif fam == "polygon":
        imps += _polygon_impostors(spec)
    elif fam == "star":
        imps += _star_impostors(spec)
    styles = [("bresenham", True), ("dda", True), ("4conn", False), ("bresenham-rev", True), ("bresenham", False)]
    legit_sets = [frozenset(v.points) for v in legit]
    out: list[Variant] = []
    names: set[str] = set()
    for j, imp in enumerate(imps):
        line, closed = styles[j % len(styles)]
        cells = [(_round_half_up(x), _round_half_up(y)) for x, y in imp.verts]
        moved_start = (
            imp.start is None and math.hypot(imp.verts[imp.s][0] - spec.sv[0], imp.verts[imp.s][1] - spec.sv[1]) > 1e-6
        )
        if not moved_start:
            cells[imp.s] = spec.start
        pts = polygon_cells(imp.verts, imp.s, spec.direction, line, cells, closed)
        if not _in_grid(pts) or imp.name in names:
            continue
        if len(pts) > 2 and (signed_area(pts) > 0) != (spec.direction == "cw"):
            continue  # a sliver turned inside out: its traversal sense is no longer the asked one
        names.add(imp.name)
        dist = _seg_dist(pts, spec.verts)
        cls = imp.cls
        note = imp.note + f"; {line}, {'closed' if closed else 'open'}; max {dist:.2f} cells off the asked outline"
        if dist <= GRID_LIMIT_DIST + 1e-9:
            cls += "-grid-limit"
            note += " (every cell within 0.75 of the asked outline: indistinguishable on the grid)"
        elif frozenset(pts) in legit_sets:
            cls += "-grid-limit"
            note += " (same cells as a legitimate drawing)"
        elif len(cells) == len(spec.verts) and all(
            c[0] in rounding_options(v[0]) and c[1] in rounding_options(v[1]) for c, v in zip(cells, spec.verts)
        ):
            # every corner is a fair rounding of its asked vertex: a legitimate drawing by definition
            cls += "-grid-limit"
            note += " (every vertex cell is a fair rounding of the asked vertex)"
        out.append(Variant(imp.name, IMPOSTOR, cls, tuple(pts), note))
    return out


def _exact_ring(spec: _Spec) -> list[Pt]:
    """The exact vertices from the start vertex, the asked way round."""
    ring = spec.verts[spec.s :] + spec.verts[: spec.s]
    return ring if spec.direction == "cw" else ring[:1] + ring[:0:-1]


def _exact_sides(spec: _Spec) -> list[Variant]:
    """Legitimate drawings along the exact sides (issue 29): every cell the sides pass through,
    points a cell apart rounded, the 8-connected thinning, and the vertices with points along the
    sides rounded and joined by Bresenham or DDA lines (``rasters.py``)."""
    ring = _exact_ring(spec)
    drawn: list[tuple[str, list[Cell]]] = []
    for method in ("supercover", "rounded", "thin"):
        drawn.append((method, rasters.rasterise(rasters.polyline_curve(ring, closed=True), method)))
    for method in ("keypoints", "dda"):
        for per_side in (0, 2):
            cells = rasters.keypoint_cells(rasters.polygon_keypoints(ring, per_side), method, repeat_start=True)
            drawn.append((f"{method}{per_side}", cells))
    out = []
    for name, cells in drawn:
        if cells[0] != spec.start or not _in_grid(cells):
            continue  # a start vertex on a half-cell tie: the case names the other rounding
        out.append(Variant(f"exact-{name}", LEGIT, f"exact-{name}", tuple(cells), "drawn along the exact sides"))
    return out


def _defects(spec: _Spec, legit: list[Variant]) -> list[Variant]:
    """Impostors a person sees on a drawing along the exact sides (issue 29): a spike drawn out and
    back, a tab, a dent, a gap in a side; each kept only when it stands 2 cells or more off the
    asked sides (a gap: when it leaves a jump)."""
    base = next((v for v in legit if v.name == "exact-supercover"), None)
    if base is None:
        return []
    cells = list(base.points)
    n = len(cells)
    made = [
        ("defect-spike4", rasters.spike(cells, n // 3, 4), "a 4-cell spike out and back"),
        ("defect-tab", rasters.tab(cells, (2 * n) // 3, 4, 2), "a tab 2 cells out, 4 along"),
        ("defect-dent", rasters.tab(cells, n // 2, 4, 2, outward=False), "a dent 2 cells in, 4 along"),
        ("defect-gap", rasters.gap(cells, (2 * n) // 5, 4), "4 cells of a side left out"),
    ]
    out = []
    for name, bad, note in made:
        if not _in_grid(bad):
            continue
        if name != "defect-gap" and _seg_dist(bad, spec.verts) < 2.0:
            continue
        if name != "defect-gap":
            # (a gap stays on the outline: its note names no distance, which overlap.py would read)
            note += f"; max {_seg_dist(bad, spec.verts):.2f} cells off the asked outline"
        out.append(Variant(name, IMPOSTOR, "defect", tuple(bad), note))
    return out


def _generate(case: Any) -> list[Variant]:
    spec = _spec(case)
    legit = _legit(spec) + _exact_sides(spec)
    return legit + _impostors(spec, legit) + _defects(spec, legit)


GENERATORS: dict[str, Callable[[Any], Iterable[Variant]]] = {
    "square": _generate,
    "rectangle": _generate,
    "triangle": _generate,
    "polygon": _generate,
    "star": _generate,
}
