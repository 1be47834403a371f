"""The stick figure's body below its head: the line hanging from the head (the torso) and the
edges leaving it (the limbs), worked on plain floats where the edges are few."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from shape_asserts.families.scene.strokes import seg_along_xy, seg_distance_xy
from shape_asserts.geometry.distances import nearest_on_segment
from shape_asserts.geometry.points import FloatArray
from shape_asserts.geometry.simplify import segment_angles

if TYPE_CHECKING:
    from shape_asserts.families.scene.stick import StickThresholds

__all__ = ["torso_chain", "limbs", "angle_between", "angle_of", "hypot_within"]


def torso_chain(
    segs: FloatArray, neck: FloatArray, head_x: float, r: float, t: StickThresholds
) -> tuple[FloatArray, FloatArray, set[int], float] | None:
    """The line hanging from the head: top end, bottom end, the edges it is made of and its
    direction (:func:`~shape_asserts.geometry.simplify.segment_angles` of top to bottom).

    Of the edges steeper than ``torso_search`` whose top lies within the head's width, the one
    whose top is nearest the head's bottom (``neck``), then the edges within ``torso_continue``
    degrees of its direction that continue it up or down, or lie along it.

    The edges are few: their ends (ordered as :func:`.strokes.ends` orders them), tilts and the
    candidates' tests are worked on plain floats, the same differences and comparisons as on the
    numpy rows; angles, lengths, hypot and rounding stay numpy's."""
    if not len(segs):
        return None
    ang, length = segment_angles(segs)
    angles, lengths = ang.tolist(), length.tolist()
    tops: list[list[float]] = []
    bottoms: list[list[float]] = []
    for p, q in segs.tolist():
        top, bottom = (p, q) if p[1] <= q[1] else (q, p)
        tops.append(top)
        bottoms.append(bottom)
    tilt = [abs(a - 90.0) for a in angles]
    cand = [
        k
        for k in range(len(angles))
        if tilt[k] <= t.torso_search and lengths[k] >= t.min_edge and abs(tops[k][0] - head_x) <= r
    ]
    if not cand:
        return None
    nx, ny = neck.tolist()
    dist = np.hypot([tops[k][0] - nx for k in cand], [tops[k][1] - ny for k in cand])
    # np.lexsort's first (least rounded distance, then tilt, then longest; the first such in
    # ``cand`` among equals, as the stable sort keeps them) by min over the same keys as floats
    # (no nan: the edges' ends are finite)
    near = dist.round(6).tolist()
    i = cand[min(range(len(cand)), key=lambda k: (near[k], tilt[cand[k]], -lengths[cand[k]]))]
    # the chain grown on plain floats: the same differences, comparisons and hypot (np.hypot of two
    # floats) as on the numpy rows
    chain = {i}
    (ax, ay), (bx, by) = tops[i], bottoms[i]
    grew = True
    while grew:
        grew = False
        # segment_angles of the one segment a to b: the same ufuncs on its two differences
        direction = float(np.degrees(np.arctan2(by - ay, bx - ax)) % 180.0)
        for j in range(len(segs)):
            if j in chain or abs(angles[j] - direction) > t.torso_continue:
                continue
            (tx, ty), (fx, fy) = tops[j], bottoms[j]
            # (each test only when the ones before it fail: none has a side effect)
            if (
                hypot_within(tx - bx, ty - by, t.attach_tol)
                or max(seg_distance_xy(tx, ty, ax, ay, bx, by), seg_distance_xy(fx, fy, ax, ay, bx, by)) <= t.attach_tol
                or hypot_within(fx - ax, fy - ay, t.attach_tol)
            ):
                chain.add(j)
                if fy > by:
                    bx, by = fx, fy
                if ty < ay:
                    ax, ay = tx, ty
                grew = True
    return np.array([ax, ay]), np.array([bx, by]), chain, direction


def hypot_within(dx: float, dy: float, limit: float) -> bool:
    """``np.hypot(dx, dy) <= limit``, ``np.hypot`` called only where neither size settles it: the
    hypotenuse is at least the larger size (over ``limit`` when either is), and is exactly the
    other's size where one is zero (a nan fails either way)."""
    sx, sy = abs(dx), abs(dy)
    if sx > limit or sy > limit:
        return False
    if sx == 0:
        return sy <= limit
    if sy == 0:
        return sx <= limit
    return bool(np.hypot(dx, dy) <= limit)


def angle_between(u: FloatArray, v: FloatArray) -> float:
    """Angle in degrees between two direction vectors (0..180)."""
    return angle_of(u, v, float(np.hypot(*u)), float(np.hypot(*v)))


def angle_of(u: FloatArray, v: FloatArray, nu: float, nv: float) -> float:
    """:func:`angle_between` given the two lengths (``np.hypot`` of each)."""
    if nu == 0 or nv == 0:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v) / (nu * nv)))))


def limbs(
    segs: FloatArray, chain: set[int], a: FloatArray, b: FloatArray, t: StickThresholds
) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    """Edges leaving the torso ``a``–``b``: (``"arm"``/``"leg"``, ``"left"``/``"right"``/``"along"``,
    root, tip), one per limb (retraced edges counted once).

    Worked on plain floats, the same double operations as on the edges' numpy rows (a scalar's
    product, quotient or difference is the same either way); lengths by ``np.hypot`` and the
    angle between two limbs by :func:`angle_between` on arrays, as before."""
    # every end's distance from the torso at once (seg_distance's floats); where along the torso an end lies is worked out for the limbs' tips alone (below)
    (ax, ay), (bx, by) = a.tolist(), b.tolist()
    flat = segs.reshape(-1, 2)
    end_dist = nearest_on_segment(flat, a, b)[0].tolist()
    ex, ey = bx - ax, by - ay
    pieces: list[tuple[tuple[float, float], tuple[float, float]]] = []
    # each piece end's (distance, where along the torso): an edge's own end keeps the distance
    # measured above (the same point, the same floats) and its place along the torso is found when
    # it is a tip (None till then), a crossing point (None) is measured below
    measured: list[tuple[float, float | None] | None] = []
    for j, ((px, py), (qx, qy)) in enumerate(segs.tolist()):
        if j in chain:
            continue
        if max(end_dist[2 * j], end_dist[2 * j + 1]) <= t.attach_tol:
            continue  # lies along the torso (a retraced piece of it)
        # an edge drawn across the torso (both arms in one straight stroke) is two limbs
        dx, dy = qx - px, qy - py
        den = dx * ey - dy * ex
        if den != 0:
            s = ((ax - px) * ey - (ay - py) * ex) / den
            u = ((ax - px) * dy - (ay - py) * dx) / den
            x = (px + s * dx, py + s * dy)
            crosses = 0 <= u <= 1 and 0 < s < 1
            if crosses and min(np.hypot(x[0] - px, x[1] - py), np.hypot(x[0] - qx, x[1] - qy)) >= t.min_limb:
                pieces += [(x, (px, py)), (x, (qx, qy))]
                measured += [None, (end_dist[2 * j], None), None, (end_dist[2 * j + 1], None)]
                continue
        pieces.append(((px, py), (qx, qy)))
        measured += [(end_dist[2 * j], None), (end_dist[2 * j + 1], None)]
    span = (by - ay) or 1.0
    out: list[tuple[str, str, tuple[float, float], tuple[float, float]]] = []
    out_len: list[float] = []  # each limb's length (np.hypot of tip - root)
    # the crossing points against the torso at once, as seg_distance gives
    cross = [k for k, m in enumerate(measured) if m is None]
    if cross:
        cross_d, cross_t = nearest_on_segment(np.array([pieces[k // 2][0] for k in cross], dtype=float), a, b)
        for k, d, s in zip(cross, cross_d.tolist(), cross_t.tolist()):
            measured[k] = (d, s)
    # every piece's length by one np.hypot (q - p and p - q have the same: it takes each one's size)
    lengths: list[float] = (
        np.hypot([q[0] - p[0] for p, q in pieces], [q[1] - p[1] for p, q in pieces]).tolist() if pieces else []
    )
    out_vec: list[FloatArray | None] = []  # each limb's tip - root, for angle_of
    for i, ((p, q), length) in enumerate(zip(pieces, lengths)):
        if length < t.min_limb:
            continue
        (dp, along_p), (dq, along_q) = measured[2 * i] or (0.0, 0.0), measured[2 * i + 1] or (0.0, 0.0)
        root, tip = (p, q) if dp <= dq else (q, p)
        s = along_q if dp <= dq else along_p  # where the tip lies along the torso
        if min(dp, dq) > t.attach_tol:
            continue
        # pieces leaving the same place in the same direction are one limb (retraced, or drawn in
        # pieces): the first such limb (each tip - root by np.subtract once, when first needed)
        vec: FloatArray | None = None
        same = None
        for k, (_, _, r0, t0) in enumerate(out):
            if hypot_within(root[0] - r0[0], root[1] - r0[1], 2 * t.attach_tol):
                if vec is None:
                    vec = np.subtract(tip, root)
                other = out_vec[k]
                if other is None:
                    other = out_vec[k] = np.subtract(t0, r0)
                if angle_of(vec, other, length, out_len[k]) <= t.limb_merge_angle:
                    same = k
                    break
        if same is not None:
            if length > out_len[same]:
                out[same] = (out[same][0], out[same][1], root, tip)
                out_len[same] = length
                out_vec[same] = vec
            continue
        kind = "arm" if (root[1] - ay) / span < t.arm_zone else "leg"
        if s is None:  # an edge's own end: seg_distance's place of it along the torso
            s = seg_along_xy(tip[0], tip[1], ax, ay, bx, by)
        side_x = tip[0] - (ax + s * ex)
        side = "along" if abs(side_x) < t.min_limb_side else ("left" if side_x < 0 else "right")
        out.append((kind, side, root, tip))
        out_len.append(length)
        out_vec.append(vec)  # (None until a later piece leaves the same place)
    return out
