"""Catalogue of the ``spiral`` family: Archimedean spirals and their nearest impostors.

Written from the prompt alone: "an even Archimedean spiral", a center, a number of full turns, the
distance between neighbouring turns, the two end points (one is the center, the other the outer end)
and the direction of travel.  With ``r = spacing·θ/(2π)`` and ``θ ∈ [0, 2π·turns]`` the outer end lies
at ``r = spacing·turns`` in the direction ``angle`` (0° right, growing clockwise on screen, y down),
so the spiral leaves the center heading the same way.  Screen angles: a point at polar angle φ is
``(cx + r·cos φ, cy + r·sin φ)``; φ growing is clockwise on screen because y points down.

Legitimate variants are several rasterisations of that one ideal curve; impostors are other curves
drawn with the same care from the same start, the same way round (see :func:`spiral_variants`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from . import IMPOSTOR, LEGIT, Variant, rasters

__all__ = ["GENERATORS", "spiral_cells", "line_cells", "trace_cells", "track_cells", "spiral_variants"]

GRID = 50
Cell = tuple[int, int]
Pt = tuple[float, float]

#: Within this many cells of the center a lap curls tighter than the grid can draw (a lap of radius 1
#: is the center's 8 neighbours): deviations there are nobody's to see.
CENTER_REACH = 2.0
#: An impostor whose curve stays this close (cells) to a fair spiral — the asked laps and outer end,
#: the first lap leaving the center up to a cell out — everywhere outside the center's cells is at
#: the grid's limit: a fair drawing's cells lie as far from the curve (half a cell diagonal for the
#: rounding, half a cell more for a straight run between rounded points, a tenth for its bow).
FAIR_BAND = 1.3


# --------------------------------------------------------------------------------------------------
# Raster primitives


def _cheb(a: Sequence[float], b: Sequence[float]) -> float:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _round_half_up(v: float) -> int:
    return math.floor(v + 0.5)


def line_cells(p0: Sequence[int], p1: Sequence[int], connect: str = "8") -> list[Cell]:
    """``line_cells(p0, p1, connect="8") -> list[tuple[int,int]]``

    Bresenham line from integer ``p0`` to integer ``p1``, both included, in order.  With
    ``connect="4"`` every diagonal step is split by a corner cell (the one on the major axis first),
    so consecutive cells share a side.
    """
    x0, y0 = int(p0[0]), int(p0[1])
    x1, y1 = int(p1[0]), int(p1[1])
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x1 > x0 else -1
    sy = 1 if y1 > y0 else -1
    err = dx + dy
    out: list[Cell] = [(x0, y0)]
    x, y = x0, y0
    while (x, y) != (x1, y1):
        e2 = 2 * err
        nx, ny = x, y
        if e2 >= dy:
            err += dy
            nx += sx
        if e2 <= dx:
            err += dx
            ny += sy
        if connect == "4" and nx != x and ny != y:
            out.append((nx, y) if dx >= -dy else (x, ny))
        x, y = nx, ny
        out.append((x, y))
    return out


def _dedupe(cells: Iterable[Cell]) -> list[Cell]:
    out: list[Cell] = []
    for c in cells:
        if not out or out[-1] != c:
            out.append(c)
    return out


def _join(cells: Sequence[Cell], connect: str = "8") -> list[Cell]:
    """Fill the gaps between consecutive cells with straight lines."""
    out: list[Cell] = []
    for c in cells:
        if not out:
            out.append(c)
        elif out[-1] != c:
            p = out[-1]
            if abs(p[0] - c[0]) > 1 or abs(p[1] - c[1]) > 1 or (connect == "4" and p[0] != c[0] and p[1] != c[1]):
                out.extend(line_cells(out[-1], c, connect)[1:])
            else:
                out.append(c)
    return out


def _thin(cells: Sequence[Cell]) -> list[Cell]:
    """Drop the corner cells of L-steps: keep a cell only if skipping it would leave a gap."""
    if len(cells) < 3:
        return list(cells)
    out = [cells[0]]
    for i in range(1, len(cells) - 1):
        p, q = out[-1], cells[i + 1]
        if abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1 and p != q:
            continue
        out.append(cells[i])
    out.append(cells[-1])
    return _dedupe(out)


def _cut_loops(cells: Sequence[Cell]) -> list[Cell]:
    """Remove the little loops of a path that comes back to a cell it has already visited."""
    out: list[Cell] = []
    where: dict[Cell, int] = {}
    for c in cells:
        if c in where:
            k = where[c]
            for d in out[k + 1 :]:
                where.pop(d, None)
            del out[k + 1 :]
        else:
            where[c] = len(out)
            out.append(c)
    return out


def _to_4conn(cells: Sequence[Cell], ideal: np.ndarray | None) -> list[Cell]:
    """Split every diagonal step by the corner cell nearer to the ideal curve ``ideal`` (N×2)."""
    out: list[Cell] = [cells[0]]
    for c in cells[1:]:
        a = out[-1]
        if a[0] != c[0] and a[1] != c[1]:
            k1, k2 = (c[0], a[1]), (a[0], c[1])
            if ideal is not None and len(ideal):
                d1 = np.min(np.hypot(ideal[:, 0] - k1[0], ideal[:, 1] - k1[1]))
                d2 = np.min(np.hypot(ideal[:, 0] - k2[0], ideal[:, 1] - k2[1]))
                out.append(k1 if d1 <= d2 else k2)
            else:
                out.append(k1)
        out.append(c)
    return out


def trace_cells(
    samples: Sequence[Pt] | np.ndarray,
    connect: str = "8",
    rounding: str = "half-up",
    thin: bool = True,
    start: Cell | None = None,
    end: Cell | None = None,
) -> list[Cell]:
    """``trace_cells(samples, connect="8", rounding="half-up", thin=True, start=None, end=None) -> list[tuple[int,int]]``

    Rasterise a densely sampled float curve: round every sample (``"half-up"``: floor(v+0.5),
    ``"half-even"``: Python's round), drop repeats, join gaps with lines, cut small loops, optionally
    drop L-corner cells (``thin``) and make the path 4-connected (``connect="4"``).  ``start`` /
    ``end`` force the exact first / last cell (the path is joined to them with a short line).
    """
    arr = np.asarray(samples, dtype=float)
    ri = np.floor(arr + 0.5) if rounding == "half-up" else np.round(arr)
    ri = ri.astype(int)
    if len(ri) > 1:
        keep = np.ones(len(ri), dtype=bool)
        keep[1:] = np.any(ri[1:] != ri[:-1], axis=1)
        ri = ri[keep]
    cells = [tuple(c) for c in ri.tolist()]
    if not cells:
        cells = [c for c in (start, end) if c is not None][:1]
        if not cells:
            return []
    if start is not None and cells[0] != start:
        while len(cells) > 1 and _cheb(cells[1], start) <= 1:
            cells.pop(0)
        cells.insert(0, start)
    if end is not None and cells[-1] != end:
        while len(cells) > 1 and _cheb(cells[-2], end) <= 1:
            cells.pop()
        cells.append(end)
    cells = _join(cells)
    cells = _cut_loops(cells)
    if thin:
        cells = _thin(cells)
    if connect == "4":
        cells = _to_4conn(cells, arr)
        cells = _cut_loops(cells)
    return cells


def track_cells(samples: Sequence[Pt] | np.ndarray, start: Cell, end: Cell, window: int = 60) -> list[Cell]:
    """``track_cells(samples, start, end, window=60) -> list[tuple[int,int]]``

    Follow a dense float curve cell by cell, as a person tracing it with a pen: from the current
    cell step to the 8-neighbour nearest to the curve a little further on (the curve point reached
    is the nearest sample within ``window`` samples ahead); ties go to the neighbour further along.
    Starts at ``start`` and finishes with a short line to ``end``.
    """
    arr = np.asarray(samples, dtype=float)
    n = len(arr)
    cur = tuple(start)
    out: list[Cell] = [cur]
    seen = {cur}
    i = 0
    nbrs = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    guard = 0
    while _cheb(cur, end) > 1 and guard < 4 * n:
        guard += 1
        seg = arr[i + 1 : min(n, i + 1 + window)]
        if not len(seg):
            break
        best = None
        for dx, dy in nbrs:
            c = (cur[0] + dx, cur[1] + dy)
            if c in seen:
                continue
            d = np.hypot(seg[:, 0] - c[0], seg[:, 1] - c[1])
            k = int(np.argmin(d))
            key = (round(float(d[k]), 6), -k)
            if best is None or key < best[0]:
                best = (key, c, i + 1 + k)
        if best is None:
            break
        cur, i = best[1], best[2]
        out.append(cur)
        seen.add(cur)
    if out[-1] != tuple(end):
        out.extend(line_cells(out[-1], end)[1:])
    return _cut_loops(out)


# --------------------------------------------------------------------------------------------------
# Ideal curves


def _sgn(direction: str) -> int:
    return 1 if direction == "cw" else -1


def _radial_samples(
    center: Sequence[float],
    total_angle: float,
    radius: Callable[[np.ndarray], np.ndarray],
    end_angle: float,
    sgn: int,
    r_max: float,
    step: float = 0.15,
    stretch: float = 1.0,
) -> np.ndarray:
    """Samples from the inner end (θ=0) to the outer end (θ=total_angle, polar angle end_angle).

    ``radius(θ)`` gives r; the polar angle is ``end_angle + sgn·(θ - total_angle)``.  ``stretch``
    scales the curve across the end direction (a stretched spiral keeps both ends).
    """
    n = int(total_angle * max(r_max, 1.0) / step) + 64
    th = np.linspace(0.0, total_angle, n)
    r = radius(th)
    phi = end_angle + sgn * (th - total_angle)
    # components along / across the end direction, so stretching keeps the ends
    along = r * np.cos(phi - end_angle)
    across = r * np.sin(phi - end_angle) * stretch
    ca, sa = math.cos(end_angle), math.sin(end_angle)
    x = center[0] + along * ca - across * sa
    y = center[1] + along * sa + across * ca
    return np.stack([x, y], axis=1)


def archimedean_samples(center, turns, spacing, end_angle_deg, direction, step=0.15) -> np.ndarray:
    """Dense float samples of r = spacing·θ/(2π), θ∈[0, 2π·turns], from the center outwards."""
    tot = 2 * math.pi * turns
    return _radial_samples(
        center,
        tot,
        lambda t: spacing * t / (2 * math.pi),
        math.radians(end_angle_deg),
        _sgn(direction),
        spacing * turns,
        step,
    )


def _keypoint_polyline(center, turns, spacing, end_angle_deg, direction, step_deg, radius=None) -> list[Pt]:
    """Points of the spiral every ``step_deg`` of turning, ending exactly at the outer end."""
    tot = 2 * math.pi * turns
    n = max(1, int(round(turns * 360 / step_deg)))
    th = np.linspace(0.0, tot, n + 1)
    rf = radius or (lambda t: spacing * t / (2 * math.pi))
    a = math.radians(end_angle_deg)
    phi = a + _sgn(direction) * (th - tot)
    r = rf(th)
    return [(center[0] + rr * math.cos(p), center[1] + rr * math.sin(p)) for rr, p in zip(r, phi)]


def _polyline_cells(keys: Sequence[Pt], connect="8", start=None, end=None) -> list[Cell]:
    cells = _dedupe((_round_half_up(x), _round_half_up(y)) for x, y in keys)
    if start is not None:
        cells[0] = start
    if end is not None:
        cells[-1] = end
    out: list[Cell] = [cells[0]]
    for c in cells[1:]:
        out.extend(line_cells(out[-1], c, connect)[1:])
    out = _cut_loops(_dedupe(out))
    return out


def spiral_cells(center, turns, spacing, end_angle_deg, direction, inward, connect="8") -> list[Cell]:
    """``spiral_cells(center, turns, spacing, end_angle_deg, direction, inward, connect="8") -> list[tuple[int,int]]``

    The Archimedean spiral r = spacing·θ/(2π) about ``center`` with ``turns`` full turns whose outer
    end lies at polar angle ``end_angle_deg`` (0° right, clockwise on screen), sampled densely,
    rounded, de-duplicated and joined into an 8-connected (``connect="4"``: 4-connected) path.
    ``direction`` ("cw"/"ccw") is the way of travel; ``inward`` travels from the outer end to the
    center, else from the center out.  The first and last cells are the exact end points
    (center rounded; outer end rounded).  Points may leave the 50×50 grid if the spiral does.
    """
    c = (float(center[0]), float(center[1]))
    cc = (_round_half_up(c[0]), _round_half_up(c[1]))
    a = math.radians(end_angle_deg)
    r_end = spacing * turns
    outer = (_round_half_up(c[0] + r_end * math.cos(a)), _round_half_up(c[1] + r_end * math.sin(a)))
    out_dir = direction if not inward else ("ccw" if direction == "cw" else "cw")
    s = archimedean_samples(c, turns, spacing, end_angle_deg, out_dir)
    cells = trace_cells(s, connect=connect, start=cc, end=outer)
    return cells[::-1] if inward else cells


def _offset_curve(center, turns, spacing, angle, odir, inner, step=0.02) -> list[Pt]:
    """The asked spiral with its first lap leaving the center ``inner`` cells out (the laps and the
    outer end as asked, so the laps lie ``spacing − inner/turns`` apart), from the center outwards,
    points ``step`` cells apart."""
    r_end = spacing * turns
    return [(float(center[0]), float(center[1]))] + rasters.spiral_curve(
        center[0], center[1], inner, (r_end - inner) / turns, turns, angle, odir == "cw", True, step=step
    )


def _offset_cells(center, turns, spacing, angle, odir, inner, method) -> list[Cell]:
    """:func:`_offset_curve` on the grid by one of ``rasters.METHODS`` (keypoints every 3 cells)."""
    curve = _offset_curve(center, turns, spacing, angle, odir, inner)
    length = sum(math.dist(p, q) for p, q in zip(curve, curve[1:]))
    return rasters.rasterise(curve, method, keypoints=max(8, round(length / 3)), closed=False)


def _fair_curves(center, turns, spacing, angle, odir) -> list[np.ndarray]:
    """The fair spirals of the asked law, their first lap leaving the center 0 to 1 cell out (a fifth
    of a cell apart), each as points a quarter cell apart outside the center's :data:`CENTER_REACH`."""
    return [
        _outside_center(_offset_curve(center, turns, spacing, angle, odir, float(inner), step=0.25), center)
        for inner in np.linspace(0.0, 1.0, 6)
    ]


def _outside_center(points, center) -> np.ndarray:
    arr = np.asarray(points, dtype=float)
    return arr[np.hypot(arr[:, 0] - center[0], arr[:, 1] - center[1]) >= CENTER_REACH]


def _fair_deviation(samples, center, fair_curves: list[np.ndarray]) -> float:
    """The farthest the dense curve ``samples`` lies from the nearest fair spiral, or that spiral from
    it (cells), outside the center's :data:`CENTER_REACH`; the least over ``fair_curves``.

    Exact up to :data:`FAIR_BAND`, all the catalogue asks of it; beyond, it may be a bound below the
    true value (still beyond the band): a curve whose every fourth point already strays farther
    from a fair spiral is not measured against it in full.
    """
    mine = _outside_center(samples, center)
    best = math.inf
    for fair in fair_curves:
        if not len(mine) or not len(fair):
            continue
        # squared distances (a square root of every pair would cost most of the catalogue's time)
        coarse = np.sqrt(_nearest_sq(mine[::4], fair).max())
        if coarse > FAIR_BAND:
            best = min(best, float(coarse))
            continue
        best = min(best, math.sqrt(max(_nearest_sq(mine, fair).max(), _nearest_sq(fair, mine).max())))
    return best


def _nearest_sq(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each point of ``a``'s squared distance to the nearest point of ``b``."""
    return ((a[:, None, 0] - b[None, :, 0]) ** 2 + (a[:, None, 1] - b[None, :, 1]) ** 2).min(axis=1)


def _bulged_curve(center, turns, spacing, angle, odir) -> list[Pt]:
    """The asked spiral with the first half of its second lap pushed out by up to ``spacing − 1``
    cells (a smooth bump): that lap touches the next one."""
    curve = _offset_curve(center, turns, spacing, angle, odir, 0.0)
    c = np.asarray(center, dtype=float)
    total = 2 * math.pi * turns
    out: list[Pt] = [curve[0]]
    for k, (x, y) in enumerate(curve[1:]):
        theta = total * k / (len(curve) - 2)  # the samples are evenly spaced in angle
        u = theta / (2 * math.pi) - 1.0  # 0..0.5: the first half of the second lap
        push = (spacing - 1) * math.sin(2 * math.pi * u) ** 2 if 0.0 <= u <= 0.5 else 0.0
        v = np.array([x, y]) - c
        r = float(np.hypot(*v))
        x2, y2 = (c + v * (1 + push / r)).tolist() if r > 0 else (x, y)
        out.append((x2, y2))
    return out


def _lap_of(cells: Sequence[Cell], center) -> np.ndarray:
    """The lap (0, 1, ...) each cell of an outward spiral lies on, by its unwrapped angle about ``center``."""
    arr = np.asarray(cells, dtype=float) - np.asarray(center, dtype=float)
    ang = np.unwrap(np.arctan2(arr[:, 1], arr[:, 0]))
    return np.floor(np.abs(ang - ang[0]) / (2 * math.pi)).astype(int)


def _defects(fair: list[Cell], center, spacing) -> list[tuple[str, str, list[Cell], str]]:
    """The defects a person sees, each on the fair drawing ``fair`` (outward order): a spike out and
    back, a rectangular tab, a gap, a lap missing, a lap bulging onto the next."""
    n = len(fair)
    mid, later = n // 2, (2 * n) // 3
    out = [
        ("spike-3", "spike", rasters.spike(fair, mid, 3), "a 3-cell spike out and back, mid-way"),
        ("spike-4-inward", "spike", rasters.spike(fair, later, 4, outward=False), "a 4-cell spike inwards"),
        ("tab-4x3", "tab", rasters.tab(fair, later, 4, 3), "a tab 4 cells wide, 3 high"),
        ("tab-2x4", "tab", rasters.tab(fair, mid, 2, 4, outward=False), "a tab 2 cells wide, 4 high, inwards"),
        ("gap-2", "gap", rasters.gap(fair, mid, 2), "2 cells left out mid-way"),
    ]
    laps = _lap_of(fair, center)
    if laps.max() >= 2:
        # the second lap left out: the first joins the third by a straight run
        before = [c for c, k in zip(fair, laps) if k < 1]
        after = [c for c, k in zip(fair, laps) if k > 1]
        bridged = before + rasters.line_cells(before[-1], after[0])[1:-1] + after
        out.append(("lap-missing", "missing-lap", bridged, "the second lap left out, bridged by a straight run"))
    return out


# --------------------------------------------------------------------------------------------------
# Variants


def _in_grid(cells: Sequence[Cell]) -> bool:
    return all(0 <= x < GRID and 0 <= y < GRID for x, y in cells)


def _dist_field(ideal: np.ndarray, reach: int = 3) -> np.ndarray:
    """Distance from every integer cell of the grid (indexed [y, x]) to the dense curve ``ideal``,
    exact up to ``reach`` cells (farther cells get a value > reach)."""
    best = np.full((GRID, GRID), reach + 1.0, dtype=np.float64)
    base = np.floor(ideal).astype(np.int64)
    off = np.arange(-reach, reach + 2)
    ox, oy = np.meshgrid(off, off)
    cx = (base[:, 0, None] + ox.ravel()[None, :]).ravel()
    cy = (base[:, 1, None] + oy.ravel()[None, :]).ravel()
    px = np.repeat(ideal[:, 0], ox.size)
    py = np.repeat(ideal[:, 1], ox.size)
    ok = (cx >= 0) & (cx < GRID) & (cy >= 0) & (cy < GRID)
    d = np.hypot(cx[ok] - px[ok], cy[ok] - py[ok])
    np.minimum.at(best, (cy[ok], cx[ok]), d)
    return best


def _hausdorff(cells: Sequence[Cell], field: np.ndarray, ideal_sparse: np.ndarray) -> float:
    """Symmetric Hausdorff distance between the cells and the ideal curve (``field``: its distance
    field from :func:`_dist_field`; ``ideal_sparse``: samples of it for the other direction)."""
    c = np.asarray(cells, dtype=np.int64)
    inside = (c[:, 0] >= 0) & (c[:, 0] < GRID) & (c[:, 1] >= 0) & (c[:, 1] < GRID)
    if not inside.all():
        return float("inf")
    d1 = float(field[c[:, 1], c[:, 0]].max())
    occ = np.zeros((GRID + 8, GRID + 8), dtype=bool)
    occ[c[:, 1] + 4, c[:, 0] + 4] = True
    base = np.floor(ideal_sparse).astype(np.int64)
    off = np.arange(-2, 4)
    ox, oy = (o.ravel() for o in np.meshgrid(off, off))
    qx = np.clip(base[:, 0, None] + ox[None, :], -4, GRID + 3)
    qy = np.clip(base[:, 1, None] + oy[None, :], -4, GRID + 3)
    d = np.hypot(qx - ideal_sparse[:, 0, None], qy - ideal_sparse[:, 1, None])
    d = np.where(occ[qy + 4, qx + 4], d, 9.0)
    best = d.min(axis=1)
    return max(d1, float(best.max()))


def spiral_variants(params: dict[str, Any]) -> list[Variant]:
    """Legit and impostor variants for one spiral case (params as in ``Case.params``)."""
    center = tuple(params["center"])
    turns = float(params["turns"])
    spacing = float(params["spacing"])
    angle = float(params.get("angle", 0))
    direction = params.get("direction", "cw")
    inward = bool(params.get("inward", False))
    a = math.radians(angle)
    r_end = spacing * turns
    cc = (_round_half_up(center[0]), _round_half_up(center[1]))
    outer_default = (_round_half_up(center[0] + r_end * math.cos(a)), _round_half_up(center[1] + r_end * math.sin(a)))
    start = tuple(params["start"]) if params.get("start") is not None else (outer_default if inward else cc)
    end = tuple(params["end"]) if params.get("end") is not None else (cc if inward else outer_default)
    # in "outward" terms: the inner end and the outer end, and the direction of the outward walk
    inner_pt, outer_pt = (end, start) if inward else (start, end)
    odir = direction if not inward else ("ccw" if direction == "cw" else "cw")
    osgn = _sgn(odir)
    ideal = archimedean_samples(center, turns, spacing, angle, odir)
    ideal_sparse = archimedean_samples(center, turns, spacing, angle, odir, step=0.6)

    out: list[Variant] = []
    tag = "in" if inward else "out"

    def emit(name, kind, cls, outward_cells, note):
        cells = list(outward_cells)
        cells = cells[::-1] if inward else cells
        out.append(Variant(name, kind, cls, tuple((int(x), int(y)) for x, y in cells), note))

    # ---- legit ------------------------------------------------------------------------------
    base_note = f"r=spacing·θ/2π, {turns:g} turns, {spacing:g} apart, {tag}ward {direction}"
    for conn in ("8", "4"):
        for thin in (True, False) if conn == "8" else (True,):
            cells = trace_cells(ideal, connect=conn, thin=thin, start=inner_pt, end=outer_pt)
            nm = f"dense-{conn}conn" + ("" if thin else "-corners")
            emit(
                nm,
                LEGIT,
                "archimedean",
                cells,
                base_note + f"; dense samples rounded, {conn}-connected" + ("" if thin else ", L-corners kept"),
            )
    cells = trace_cells(ideal, rounding="half-even", start=inner_pt, end=outer_pt)
    emit("dense-8conn-round-half-even", LEGIT, "archimedean", cells, base_note + "; banker's rounding")
    coarse = archimedean_samples(center, turns, spacing, angle, odir, step=0.6)
    emit(
        "sampled-0.6-8conn",
        LEGIT,
        "archimedean",
        trace_cells(coarse, start=inner_pt, end=outer_pt),
        base_note + "; samples ~0.6 cell apart, gaps joined by lines",
    )
    fine = archimedean_samples(center, turns, spacing, angle, odir, step=0.05)
    emit(
        "sampled-0.05-4conn-corners",
        LEGIT,
        "archimedean",
        trace_cells(fine, connect="4", thin=False, start=inner_pt, end=outer_pt),
        base_note + "; very dense samples, 4-connected",
    )
    # the path leaves the center one cell off (first sample at r≈1, joined to the center)
    th0 = 2 * math.pi / max(spacing, 1e-9)
    skip = ideal[np.hypot(ideal[:, 0] - center[0], ideal[:, 1] - center[1]) >= 1.0]
    if not len(skip):
        skip = ideal
    emit(
        "center-then-r1",
        LEGIT,
        "archimedean",
        trace_cells(skip, start=inner_pt, end=outer_pt),
        base_note + f"; first lap begins one cell off the center (θ≈{math.degrees(th0):.0f}°), joined to it",
    )
    for step_deg in (10, 15, 22.5):
        keys = _keypoint_polyline(center, turns, spacing, angle, odir, step_deg)
        emit(
            f"keypoints-{step_deg:g}deg-8conn",
            LEGIT,
            "archimedean",
            _polyline_cells(keys, "8", inner_pt, outer_pt),
            base_note + f"; points every {step_deg:g}° joined by Bresenham lines",
        )
    emit(
        "pen-tracker-8conn",
        LEGIT,
        "archimedean",
        track_cells(ideal, inner_pt, outer_pt),
        base_note + "; traced cell by cell, each step to the neighbour nearest the curve",
    )
    keys = _keypoint_polyline(center, turns, spacing, angle, odir, 15)
    emit(
        "keypoints-15deg-4conn",
        LEGIT,
        "archimedean",
        _polyline_cells(keys, "4", inner_pt, outer_pt),
        base_note + "; points every 15° joined by 4-connected lines",
    )

    for inner in (0.5, 1.0):
        for method in rasters.METHODS:
            emit(
                f"offset{inner:g}-{method}",
                LEGIT,
                "inner-offset",
                _offset_cells(center, turns, spacing, angle, odir, inner, method),
                base_note.replace("r=spacing·θ/2π", f"r={inner:g}+kθ from the center cell")
                + f"; {method}, the first lap leaving the center {inner:g} cell out (laps and outer end as asked)",
            )

    # ---- impostors --------------------------------------------------------------------------
    if turns <= 0 or r_end < 2:  # a degenerate spiral: nothing to tell apart
        return _unique(out)

    def arch(sp):
        return lambda t: sp * t / (2 * math.pi)

    def curve(total_turns, radius, end_ang, r_max, stretch=1.0, sgn=osgn):
        return _radial_samples(center, 2 * math.pi * total_turns, radius, end_ang, sgn, r_max, stretch=stretch)

    def outer_cell(r, ang):
        return (_round_half_up(center[0] + r * math.cos(ang)), _round_half_up(center[1] + r * math.sin(ang)))

    imps: list[tuple[str, str, list[Cell], str]] = []
    #: each smooth impostor's curve: its farthest distance from the nearest fair spiral (both ways)
    exact: dict[str, float] = {}
    fair_curves = _fair_curves(center, turns, spacing, angle, odir)

    def add_imp(name, cls, samples, note, other_end="same"):
        """samples run from the inner end outwards; the asked start stays exact.  ``other_end`` is
        the cell forced at the far end ("same": the asked one; None: wherever the curve ends)."""
        if inward:
            far = inner_pt if other_end == "same" else other_end
            cells = trace_cells(samples, start=far, end=outer_pt)
        else:
            far = outer_pt if other_end == "same" else other_end
            cells = trace_cells(samples, start=inner_pt, end=far)
        imps.append((name, cls, cells, note))
        exact[name] = _fair_deviation(samples, center, fair_curves)

    # turns ± ¼, ± ½ with the same ends (spacing changes so r_end stays)
    for dt, lab in ((0.25, "quarter"), (0.5, "half")):
        for sign, pm in ((1, "plus"), (-1, "minus")):
            t2 = turns + sign * dt
            if t2 <= 0.5:
                continue
            sp2 = r_end / t2
            add_imp(
                f"turns-{pm}-{lab}-same-ends",
                "turns",
                curve(t2, arch(sp2), a, r_end),
                f"{t2:g} turns instead of {turns:g}, same two end points (laps {sp2:.2f} apart)",
            )
    # turns ± ¼, ± ½ with the same spacing: the outer end moves (outward); inward ones stop short
    for dt, lab in ((0.25, "quarter"), (0.5, "half")):
        if not inward:
            for sign, pm in ((1, "plus"), (-1, "minus")):
                t2 = turns + sign * dt
                a2 = a + osgn * sign * 2 * math.pi * dt
                add_imp(
                    f"turns-{pm}-{lab}-same-spacing",
                    "turns",
                    curve(t2, arch(spacing), a2, spacing * t2),
                    f"{t2:g} turns {spacing:g} apart: the outer end moves a {lab} turn",
                    other_end=outer_cell(spacing * t2, a2),
                )
        else:
            # same start, same spacing, a quarter/half turn fewer: stops short of the center
            t2 = turns - dt
            sm = _radial_samples(center, 2 * math.pi * turns, arch(spacing), a, osgn, r_end)
            keep = sm[np.linspace(0, 2 * math.pi * turns, len(sm)) >= 2 * math.pi * dt]
            cells = trace_cells(keep, start=None, end=outer_pt)
            imps.append(
                (
                    f"turns-minus-{lab}-same-spacing",
                    "turns",
                    cells,
                    f"only {t2:g} turns {spacing:g} apart from the asked start: stops {spacing * dt:g} cells short of the center",
                )
            )
            exact[f"turns-minus-{lab}-same-spacing"] = _fair_deviation(keep, center, fair_curves)
    # spacing changes: ±1.5 cells, ±25 %
    for lab, sp2 in (
        ("plus1.5", spacing + 1.5),
        ("minus1.5", spacing - 1.5),
        ("plus25pct", spacing * 1.25),
        ("minus25pct", spacing * 0.75),
    ):
        if sp2 <= 1.0:
            continue
        # same ends, so the number of turns changes
        t2 = r_end / sp2
        add_imp(
            f"spacing-{lab}-same-ends",
            "spacing",
            curve(t2, arch(sp2), a, r_end),
            f"laps {sp2:g} apart instead of {spacing:g} ({t2:.2f} turns), same end points",
        )
        if not inward:
            r2 = sp2 * turns
            add_imp(
                f"spacing-{lab}-same-turns",
                "spacing",
                curve(turns, arch(sp2), a, r2),
                f"laps {sp2:g} apart instead of {spacing:g}, {turns:g} turns: the outer end moves to r={r2:g}",
                other_end=outer_cell(r2, a),
            )
    # the other way round, same ends (mirror about the end direction)
    add_imp(
        "direction-mirrored",
        "direction",
        curve(turns, arch(spacing), a, r_end, sgn=-osgn),
        "winds the other way (mirror image), same end points",
    )
    # other spiral laws with the same ends and turns
    r_in = 1.0
    b_log = math.log(r_end / r_in) / (2 * math.pi * turns)
    log_s = curve(turns, lambda t: r_in * np.exp(b_log * t), a, r_end)
    log_s = np.vstack([np.asarray(center, dtype=float)[None, :], log_s])
    add_imp("logarithmic", "spiral-law", log_s, "logarithmic spiral r=e^(bθ), same ends and turns: laps widen outwards")
    add_imp(
        "fermat-sqrt",
        "spiral-law",
        curve(turns, lambda t: r_end * np.sqrt(t / (2 * math.pi * turns)), a, r_end),
        "Fermat spiral r∝√θ, same ends and turns: laps crowd outwards",
    )
    add_imp(
        "quadratic",
        "spiral-law",
        curve(turns, lambda t: r_end * (t / (2 * math.pi * turns)) ** 2, a, r_end),
        "r∝θ², same ends and turns: inner laps crowded, outer ones wide",
    )
    # polygonal spirals: vertices on the true spiral, straight sides
    for nside, lab in ((4, "square"), (6, "hexagonal")):
        keys = _keypoint_polyline(center, turns, spacing, angle, odir, 360 / nside)
        cells = _polyline_cells(keys, "8", inner_pt, outer_pt)
        imps.append(
            (
                f"polygonal-{lab}",
                "polygonal",
                cells,
                f"{lab} spiral: {nside} straight sides per turn, corners on the true spiral",
            )
        )
    # points every 30° joined by straight runs: 12 sides a lap, corners on the true spiral; its sides
    # bow R(1 − cos 15°) from the outer lap, as far as a fair cell's centre may lie off the curve
    bow = r_end * (1 - math.cos(math.pi / 12))
    keys = _keypoint_polyline(center, turns, spacing, angle, odir, 30)
    for conn in ("8", "4"):
        imps.append(
            (
                f"keypoints-30deg-{conn}conn",
                "polygonal",
                _polyline_cells(keys, conn, inner_pt, outer_pt),
                f"points every 30° joined by {conn}-connected lines: 12 sides per turn, sagitta = {bow:.2f}",
            )
        )
    # the defects a person sees, on a fair drawing (the supercover of the asked spiral)
    fair = _offset_cells(center, turns, spacing, angle, odir, 0.0, "supercover")
    # (emitted as they are: a defect is a defect wherever it lands, the grid-limit rule is not theirs)
    defects = _defects(fair, center, spacing)
    if turns >= 2:
        defects.append(
            (
                "laps-touching",
                "laps-touching",
                rasters.rasterise(_bulged_curve(center, turns, spacing, angle, odir), "supercover", closed=False),
                f"half of the second lap bulges {spacing - 1:g} cells out, onto the third",
            )
        )
    # stretched across the end direction (ends kept)
    for k in (1.25, 0.8):
        add_imp(
            f"stretched-{k:g}",
            "stretched",
            curve(turns, arch(spacing), a, r_end, stretch=k),
            f"the spiral stretched ×{k:g} across the end direction (elliptic laps), same ends",
        )
    # concentric rings joined by short radial steps
    rings: list[Pt] = [tuple(map(float, center))]
    n_rings = max(1, int(round(turns)))
    ring_sp = r_end / n_rings
    for k in range(1, n_rings + 1):
        rk = ring_sp * k
        gap = min(0.5, 1.2 / rk) if k < n_rings else 0.0
        ph = np.linspace(0, 2 * math.pi - gap, int(2 * math.pi * rk / 0.15) + 16)
        ang = a + osgn * ph
        rings.extend(zip(center[0] + rk * np.cos(ang), center[1] + rk * np.sin(ang)))
    add_imp(
        "concentric-rings-joined",
        "rings",
        np.asarray(rings),
        f"{n_rings} concentric circles {ring_sp:g} apart joined by radial steps, not a spiral",
    )
    # one circle of the outer radius reached by a radial line
    off = math.radians(30)
    s_ang = a - osgn * (2 * math.pi - off)
    line_pts = [
        (center[0] + t * r_end * math.cos(s_ang), center[1] + t * r_end * math.sin(s_ang))
        for t in np.linspace(0, 1, int(r_end / 0.15) + 2)
    ]
    ph = np.linspace(0, 2 * math.pi - off, int(2 * math.pi * r_end / 0.15))
    circ = list(zip(center[0] + r_end * np.cos(s_ang + osgn * ph), center[1] + r_end * np.sin(s_ang + osgn * ph)))
    add_imp(
        "circle-with-spoke",
        "circle",
        np.asarray(line_pts + circ),
        "a straight spoke from the center and one circle of the outer radius",
    )

    field = None
    for name, cls, cells, note in imps:
        if not cells or not _in_grid(cells):
            continue
        if field is None:
            field = _dist_field(ideal)
        h = _hausdorff(cells, field, ideal_sparse)
        fair_dev = exact.get(name)
        if h <= 0.75:
            cls = cls + "-grid-limit"
            note = note + f" (within {h:.2f} cells of the ideal spiral: indistinguishable on the grid)"
        elif fair_dev is not None and fair_dev < FAIR_BAND:
            cls = cls + "-grid-limit"
            note = note + (
                f" (its curve lies within {fair_dev:.2f} cells of a fair spiral whose first lap leaves the center "
                f"up to a cell out, outside the center's {CENTER_REACH:g} cells: indistinguishable on the grid)"
            )
        else:
            note = note + (
                f" (off the ideal spiral by up to {h:.1f} cells)"
                if h <= 3
                else " (off the ideal spiral by more than 3 cells)"
            )
        emit(name, IMPOSTOR, cls, cells, note)
    for name, cls, cells, note in defects:
        if _in_grid(cells):
            emit(name, IMPOSTOR, cls, cells, note)
    return _unique(out)


def _unique(vs: list[Variant]) -> list[Variant]:
    """Drop exact repeats (two rasterisations that happen to agree)."""
    seen: set[tuple] = set()
    uniq: list[Variant] = []
    for v in vs:
        if v.points not in seen:
            seen.add(v.points)
            uniq.append(v)
    return uniq


def _spiral_gen(case: Any) -> Iterable[Variant]:
    return spiral_variants(dict(case.params))


GENERATORS: dict[str, Callable[[Any], Iterable[Variant]]] = {"spiral": _spiral_gen}
