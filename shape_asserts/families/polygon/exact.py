"""The polygon drawing against the exact asked polygon: every cell near it, all of it covered, no
out-and-back (the polygon scorer's ``near``, ``covered`` and ``simple`` checks).

These are stated against the asked polygon's exact vertices and sides, not against the cells one
way of drawing it would give, so that any fair rasterisation passes (every cell the sides pass
through, one cell per row or column, Bresenham or DDA lines between rounded vertices, an
8-connected line that cuts its L-corners) and a defect a person sees fails: a spike or a tab
stands out from the sides (``near``), a cut corner or a missing piece leaves part of the outline
undrawn (``covered``), a spike drawn out and back along the same cells revisits them (``simple``).
The limits are :class:`~shape_asserts.families.polygon.scorer.PolygonThresholds`'
``max_outline_distance`` and ``max_uncovered``, where their derivation is written.
"""

from __future__ import annotations

import numpy as np

from shape_asserts.families.prompts import fmt_xy
from shape_asserts.geometry.distances import distance_to_polyline, nearest_distance, sample_polyline
from shape_asserts.geometry.points import BoolArray, FloatArray
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["near_check", "covered_check", "simple_check", "revisits", "corner_reach", "on_exact_side"]

#: Spacing of the samples along the asked outline that ``covered`` looks at, cells: fine enough
#: that a hole shorter than a cell between two samples cannot hide.
_SAMPLE_STEP = 0.25

#: Float noise in the asked vertices, cells: they come from cosines and sines, so a side asked at
#: y = 14 may be computed at 13.999999999999996, and its floor would then take the row above as a
#: fair rounding of it. A value this near a whole number counts as that number, so a drawing and
#: the same drawing turned by 90° (whose vertices carry other noise) are judged alike.
_FLOAT_NOISE = 1e-9


def near_check(card: Scorecard, pts: FloatArray, target: FloatArray, limit: float) -> None:
    """The ``near`` check: the farthest drawn cell from the asked outline (its exact sides)."""
    d = distance_to_polyline(pts, target, closed=True) if len(pts) else np.zeros(0)
    worst = int(np.argmax(d)) if len(d) else 0
    far = float(d[worst]) if len(d) else 0.0
    card.metrics["outline_distance"] = far
    ok = far <= limit
    card.add(
        "near",
        ok,
        round(far, 4),
        f"≤ {limit:g}",
        # (kept only when the check fails: written only then)
        "" if ok else f"point #{worst} {fmt_xy(tuple(pts[worst]))} is {far:.2f} cells off the asked outline",
        tuple(int(i) for i in np.flatnonzero(d > limit)[:12]),
    )


def covered_check(card: Scorecard, pts: FloatArray, target: FloatArray, limit: float) -> None:
    """The ``covered`` check: the farthest point of the asked outline (its vertices included) from
    the drawn cells."""
    samples = np.vstack([target, sample_polyline(target, closed=True, step=_SAMPLE_STEP)])
    d = nearest_distance(samples, pts) if len(pts) else np.full(len(samples), np.inf)
    worst = int(np.argmax(d))
    miss = float(d[worst])
    card.metrics["uncovered"] = miss
    ok = miss <= limit
    where = fmt_xy(tuple(np.round(samples[worst], 1).tolist()))
    card.add(
        "covered",
        ok,
        round(miss, 4),
        f"≤ {limit:g}",
        "" if ok else f"the asked outline at {where} has no drawn cell within {limit:g} (nearest {miss:.2f})",
    )


def corner_reach(angles: FloatArray, limit: float) -> FloatArray:
    """Per vertex, how far from it the fair cells of its two sides may be the same cells, cells.

    Each side's cells lie within ``limit`` of it, so the two may share cells where the sides are
    within ``2 × limit`` of each other: up to ``2 × limit / sin θ`` from a vertex of interior
    angle θ below 90° (a star's sharp tip), ``2 × limit`` from a blunter one (the nearest point of
    the other side is then the vertex itself). An inner corner above 180° is measured by its
    outside angle, 360° − θ, the same way."""
    inside = np.where(angles > 180.0, 360.0 - angles, angles)
    spread = np.where(inside < 90.0, np.sin(np.radians(inside)), 1.0)
    reach: FloatArray = 2.0 * limit / np.maximum(spread, 1e-9)
    return reach


def revisits(pts: FloatArray, target: FloatArray, reach: FloatArray) -> list[int]:
    """Indices of the drawn points that return to a cell drawn before, other than at a corner
    (within ``reach`` of its vertex, where the cells of its two sides may be the same), the last
    point closing the loop onto the first, and a point repeated right after itself (the
    ``repeats`` check counts those)."""
    seen: dict[tuple[float, float], int] = {}
    out = []
    last = len(pts) - 1
    for i, (x, y) in enumerate(pts.tolist()):
        key = (x, y)
        before = seen.get(key)
        seen[key] = i
        if before is None or before == i - 1 or (i == last and before == 0):
            continue
        at_corner = np.hypot(target[:, 0] - x, target[:, 1] - y) <= reach
        if not at_corner.any():
            out.append(i)
    return out


def simple_check(card: Scorecard, pts: FloatArray, target: FloatArray, angles: FloatArray, limit: float) -> None:
    """The ``simple`` check: the contour never returns to a cell it drew before away from the
    asked corners (an out-and-back spike, a loop drawn twice), so what is drawn is one polygon's
    outline, once round; ``limit`` is how far a fair cell may lie from the exact sides."""
    again = revisits(pts, target, corner_reach(angles, limit))
    card.metrics["revisits"] = len(again)
    ok = not again
    card.add(
        "simple",
        ok,
        len(again),
        "= 0",
        "" if ok else f"point #{again[0]} {fmt_xy(tuple(pts[again[0]]))} returns to a cell drawn before",
        tuple(again[:12]),
    )


def on_exact_side(pts: FloatArray, target: FloatArray) -> BoolArray:
    """Whether each point is a fair rounding of a point of one of the asked polygon's exact sides.

    Along a side's longer axis a cell spans half a cell either way; over that span the side takes
    a range of values across it, and the cell is fair when its cross coordinate is the floor or
    the ceiling of one of them (floor(least) ≤ y ≤ ceil(greatest)). Every cell a fair method draws
    from points on the side is one (a point rounded to its cell, each cell the side passes
    through); a cell a whole row off an axis-parallel side at a whole coordinate is not, however
    near a sloped side's rounding may wander."""
    a = target
    b = np.roll(target, -1, axis=0)
    fair = np.zeros(len(pts), dtype=bool)
    for (ax, ay), (bx, by) in zip(a.tolist(), b.tolist()):
        # measure along the side's longer axis: u along it, v across
        if abs(bx - ax) >= abs(by - ay):
            u, v, au, av, bu, bv = pts[:, 0], pts[:, 1], ax, ay, bx, by
        else:
            u, v, au, av, bu, bv = pts[:, 1], pts[:, 0], ay, ax, by, bx
        lo_u, hi_u = min(au, bu), max(au, bu)
        start = np.maximum(u - 0.5, lo_u)
        stop = np.minimum(u + 0.5, hi_u)
        spans = start <= stop + _FLOAT_NOISE
        slope = (bv - av) / (bu - au) if bu != au else 0.0
        v0 = av + slope * (start - au)
        v1 = av + slope * (stop - au)
        least = np.floor(np.minimum(v0, v1) + _FLOAT_NOISE)
        most = np.ceil(np.maximum(v0, v1) - _FLOAT_NOISE)
        fair |= spans & (least <= v) & (v <= most)
    return fair
