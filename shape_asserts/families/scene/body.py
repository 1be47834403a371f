"""The stick figure's body below its head: the line hanging from the head (the torso) and the
edges leaving it (the limbs)."""

from __future__ import annotations

import math
from typing import NamedTuple, Protocol

import numpy as np

from shape_asserts.families.scene.strokes import ends, seg_distance
from shape_asserts.geometry.distances import nearest_on_segment
from shape_asserts.geometry.points import FloatArray
from shape_asserts.geometry.simplify import segment_angles

__all__ = ["BodyLimits", "Limb", "torso_chain", "limbs", "below_the_hip", "angle_between"]


class BodyLimits(Protocol):
    """The limits the torso and limbs are found by (``stick.StickThresholds`` holds them; named
    here so that this module needs nothing of the stick figure's)."""

    @property
    def min_edge(self) -> float: ...
    @property
    def torso_search(self) -> float: ...
    @property
    def torso_continue(self) -> float: ...
    @property
    def attach_tol(self) -> float: ...
    @property
    def min_limb(self) -> float: ...
    @property
    def arm_zone(self) -> float: ...
    @property
    def limb_merge_angle(self) -> float: ...
    @property
    def min_limb_side(self) -> float: ...


class Limb(NamedTuple):
    """An edge leaving the torso: ``"arm"`` or ``"leg"``, on the ``"left"``, ``"right"`` or
    ``"along"`` the torso, where it leaves it (``root``), where it ends (``tip``), how long it is
    drawn (``length``, cells: its edges' lengths added, a bent arm's both parts) and the row of its
    lowest point (``lowest``: a sitting figure's foot, below the knee its tip may be)."""

    kind: str
    side: str
    root: FloatArray
    tip: FloatArray
    length: float
    lowest: float


def torso_chain(
    segs: FloatArray, neck: FloatArray, head_x: float, r: float, t: BodyLimits
) -> tuple[FloatArray, FloatArray, set[int], float] | None:
    """The line hanging from the head: top end, bottom end, the edges it is made of and its
    direction (:func:`~shape_asserts.geometry.simplify.segment_angles` of top to bottom).

    Of the edges steeper than ``torso_search`` whose top lies within the head's width, the one
    whose top is nearest the head's bottom (``neck``), then the edges within ``torso_continue``
    degrees of its direction that continue it up or down, or lie along it."""
    if not len(segs):
        return None
    ang, length = segment_angles(segs)
    tops, bottoms = ends(segs)
    tilt = np.abs(ang - 90.0)
    steep = (tilt <= t.torso_search) & (length >= t.min_edge) & (np.abs(tops[:, 0] - head_x) <= r)
    cand = np.flatnonzero(steep)
    if not len(cand):
        return None
    near = np.hypot(tops[cand, 0] - neck[0], tops[cand, 1] - neck[1]).round(6)
    # of those starting nearest the neck (within ``2 × attach_tol`` of the nearest: the
    # simplification may fold a short neck into an arm drawn on from it, leaving the torso's own
    # edge to start a few cells down), the most upright, then the nearest, then the longest (the
    # first of equals: lexsort is stable)
    nearest = near <= near.min() + 2 * t.attach_tol
    cand, near = cand[nearest], near[nearest]
    i = int(cand[np.lexsort((-length[cand], near, tilt[cand]))[0]])
    chain = {i}
    a, b = tops[i], bottoms[i]
    grew = True
    while grew:
        grew = False
        direction = _direction(a, b)
        # at the hip two legs leave the bottom, as close to the torso's direction as each other
        # (legs close together leave it within ``torso_continue``): the torso ends there; a
        # torso drawn on below a shoulder leaves it well ahead of the arms
        leaving = sorted(
            abs(float(ang[j]) - direction)
            for j in range(len(segs))
            if j not in chain
            and tilt[j] <= t.torso_search
            and length[j] >= t.min_edge
            and np.hypot(*(tops[j] - b)) <= t.attach_tol
        )
        at_hip = len(leaving) >= 2 and leaving[1] - leaving[0] < t.torso_continue
        # a short chain's direction is known only to the cell its ends may be off by (a neck
        # of three cells whose last one is the first of an arm leans 18°)
        span = float(np.hypot(*(b - a)))
        within = max(t.torso_continue, float(np.degrees(np.arctan2(1.5, span))))
        for j in range(len(segs)):
            if j in chain or abs(ang[j] - direction) > within:
                continue
            top, foot = tops[j], bottoms[j]
            continues_down = not at_hip and np.hypot(*(top - b)) <= t.attach_tol
            lies_along = max(seg_distance(top, a, b)[0], seg_distance(foot, a, b)[0]) <= t.attach_tol
            continues_up = np.hypot(*(foot - a)) <= t.attach_tol
            if continues_down or lies_along or continues_up:
                chain.add(j)
                if foot[1] > b[1]:
                    b = foot
                if top[1] < a[1]:
                    a = top
                grew = True
                break  # the ends moved: look again from the new ones
    return a.copy(), b.copy(), chain, direction


def _direction(a: FloatArray, b: FloatArray) -> float:
    """:func:`~shape_asserts.geometry.simplify.segment_angles`' direction of the segment ``a``–``b``."""
    return float(np.degrees(np.arctan2(b[1] - a[1], b[0] - a[0])) % 180.0)


def angle_between(u: FloatArray, v: FloatArray) -> float:
    """Angle in degrees between two direction vectors (0..180)."""
    nu, nv = float(np.hypot(*u)), float(np.hypot(*v))
    if nu == 0 or nv == 0:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v) / (nu * nv)))))


def limbs(segs: FloatArray, chain: set[int], a: FloatArray, b: FloatArray, t: BodyLimits) -> list[Limb]:
    """The limbs leaving the torso ``a``–``b`` (``chain``: the torso's own edges).

    A limb is a path of edges off the torso, linked end to end away from it, that starts at the
    torso: an arm bent at the elbow is one, and so is an arm whose hand comes back to the torso
    (hands on the hips: one limb, leaving the torso at its higher end, the shoulder). An edge
    drawn across the torso is two limbs, and pieces leaving one place in one direction, one
    ending on the other (a limb retraced, or drawn in pieces), are one. A path that comes no nearer the torso than
    ``attach_tol`` is attached to nothing and is no limb."""
    # every end's distance from the torso at once
    end_dist = nearest_on_segment(segs.reshape(-1, 2), a, b)[0].tolist()
    pieces = _pieces(segs, chain, end_dist, a, b, t)
    path = _paths(pieces, t)
    # each path's end farthest from the torso (the distances come with the pieces)
    farthest: dict[int, tuple[float, FloatArray]] = {}
    for k, (p, q, dp, dq) in enumerate(pieces):
        for end, d in ((p, dp), (q, dq)):
            if path[k] not in farthest or d > farthest[path[k]][0]:
                farthest[path[k]] = (d, end)
    # the pieces that leave the torso, each as (its path, root, the end away from the torso)
    starts: list[tuple[int, FloatArray, FloatArray]] = []
    for k, (p, q, dp, dq) in enumerate(pieces):
        short = float(np.hypot(*(q - p))) < t.min_limb or max(dp, dq) <= t.attach_tol
        if short or min(dp, dq) > t.attach_tol:
            continue  # a stub where a line touches or crosses the torso, or an edge that does not leave it
        root = p if dp <= dq else q
        # the way the whole path goes from here, to its end farthest from the torso (the elbow of
        # an arm whose hand is back on the hip): the first piece of a 4-connected line may run
        # along a row whatever the line's direction
        far = farthest[path[k]][1]
        starts.append((path[k], root, far))
    # one limb per path; two paths leaving one place in one direction, one ending on the other
    # (retraced, or drawn in pieces), are one limb: two that part on the way are two limbs (a
    # third leg drawn a few degrees from a leg)
    by_path: dict[int, list[tuple[FloatArray, FloatArray]]] = {}
    for k, (p, q, _, _) in enumerate(pieces):
        by_path.setdefault(path[k], []).append((p, q))

    def ends_on(tip: FloatArray, other: int) -> bool:
        return any(float(nearest_on_segment(tip, p, q)[0]) <= t.attach_tol for p, q in by_path[other])

    limb_of = list(range(len(starts)))
    for m, (path_m, root_m, tip_m) in enumerate(starts):
        for n in range(m):
            path_n, root_n, tip_n = starts[n]
            near = np.hypot(*(root_m - root_n)) <= t.attach_tol
            same = near and angle_between(tip_m - root_m, tip_n - root_n) <= t.limb_merge_angle
            if path_m == path_n or (same and (ends_on(tip_m, path_n) or ends_on(tip_n, path_m))):
                limb_of[m] = limb_of[n]
                break
    out = []
    for group in sorted(set(limb_of)):
        members = [starts[m] for m in range(len(starts)) if limb_of[m] == group]
        root = min((root for _, root, _ in members), key=lambda r: float(r[1]))  # the highest
        paths = {path_m for path_m, _, _ in members}
        drawn = _drawn_length([edge for m in paths for edge in by_path[m]])
        lowest = max(float(max(p[1], q[1])) for m in paths for p, q in by_path[m])
        out.append(_limb(root, [farthest[m][1] for m in paths], a, b, t, drawn, lowest))
    return out


def _drawn_length(edges: list[tuple[FloatArray, FloatArray]]) -> float:
    """The length (cells) of the line ``edges`` draw, each stretch once: an edge whose ends and
    middle all lie within a cell of the longer edges already counted goes over them again (a
    limb drawn down and back up in one stroke), and adds nothing."""
    ordered = sorted(edges, key=lambda e: -float(np.hypot(*(e[1] - e[0]))))
    starts = np.array([p for p, _ in ordered], dtype=float).reshape(-1, 2)
    stops = np.array([q for _, q in ordered], dtype=float).reshape(-1, 2)
    kept = np.zeros(len(ordered), dtype=bool)
    total = 0.0
    for k, (p, q) in enumerate(ordered):
        points = np.array([p, q, (p + q) / 2], dtype=float)
        dist = nearest_on_segment(points[:, None], starts[kept][None], stops[kept][None])[0]
        if not (dist.size and bool((dist.min(axis=1) <= 1.0).all())):
            kept[k] = True
            total += float(np.hypot(*(q - p)))
    return total


def below_the_hip(found: list[Limb], a: FloatArray, b: FloatArray, t: BodyLimits) -> tuple[list[Limb], float]:
    """The limbs once the line hanging from the head is read below the lowest limb leaving it
    (the hip), and how far (cells) it runs on there as nothing a body has.

    A torso ends at the hip, where the legs leave it. A line running on below every limb leaving
    it by more than a stub where a line touches it is, in turn:

    - a leg drawn on in line with the torso, when it ends about as low as the lowest limb's tip
      and that limb reaches about as low as it (within a quarter of the run-on each): a figure
      standing on one straight leg, the other stepping out. The torso is then ``a`` to the hip,
      every limb is told arm or leg again against it, and the rest of the line is one more leg;
    - a leg's first cells, when it ends on the line of a limb leaving the hip its way (within
      ``limb_merge_angle``: a straight leg whose first cells ran on in the torso's direction);
    - otherwise a tail: the torso running on below the legs, returned as its length.

    A leg straight down, in line with the torso, stands on the side the leg beside it leaves free
    (:func:`_straight_leg`); beside two legs it is a third."""
    sideways = [limb for limb in found if limb.side != "along"]
    if not sideways:
        return found, 0.0
    lowest = max(sideways, key=lambda limb: float(limb.root[1]))
    hip = lowest.root
    run_on = float(b[1] - hip[1])
    if run_on <= max(t.attach_tol, t.min_limb):
        return _straight_leg(found), 0.0
    if abs(float(b[1] - lowest.tip[1])) <= run_on / 4:
        again = [_limb(limb.root, [limb.tip], a, hip, t, limb.length, limb.lowest) for limb in found]
        return _straight_leg([*again, _limb(hip, [b], a, hip, t, run_on, float(b[1]))]), 0.0
    if any(
        seg_distance(b, limb.root, limb.tip)[0] <= t.attach_tol
        and angle_between(limb.tip - limb.root, b - hip) <= t.limb_merge_angle
        for limb in found
    ):
        return _straight_leg(found), 0.0
    return found, run_on


def _straight_leg(found: list[Limb]) -> list[Limb]:
    """``found`` with a leg along the torso's line (straight down from the hip) put on the side
    the other leg leaves free, when there is one such leg and the others leave on one side."""
    along = [k for k, limb in enumerate(found) if limb.kind == "leg" and limb.side == "along"]
    beside = {limb.side for limb in found if limb.kind == "leg" and limb.side != "along"}
    if len(along) != 1 or len(beside) != 1:
        return found
    out = list(found)
    out[along[0]] = out[along[0]]._replace(side="left" if beside == {"right"} else "right")
    return out


def _paths(pieces: list[tuple[FloatArray, FloatArray, float, float]], t: BodyLimits) -> list[int]:
    """Which path each piece belongs to: pieces are linked where an end of one lies within
    ``attach_tol`` of an end of the other, away from the torso (ends near the torso are where
    separate limbs start, as both legs at the hip).

    The ends are looked up by the cell they fall in, among the cells within ``attach_tol``:
    a hostile answer of thousands of edges is linked in time proportional to their number."""
    label = list(range(len(pieces)))

    def find(k: int) -> int:
        while label[k] != k:
            label[k] = label[label[k]]
            k = label[k]
        return k

    # one end per cell stands for the others there: the ends away from the torso are drawn
    # points, whole cells, so two in one cell are one point (and linked)
    reach = int(np.ceil(t.attach_tol))
    by_cell: dict[tuple[int, int], tuple[int, float, float]] = {}
    for k, (p, q, dp, dq) in enumerate(pieces):
        for end, d in ((p, dp), (q, dq)):
            if d <= t.attach_tol:
                continue
            ex, ey = float(end[0]), float(end[1])
            cx, cy = round(ex), round(ey)
            for dx in range(-reach, reach + 1):
                for dy in range(-reach, reach + 1):
                    seen = by_cell.get((cx + dx, cy + dy))
                    if seen is not None and math.hypot(ex - seen[1], ey - seen[2]) <= t.attach_tol:
                        label[find(k)] = find(seen[0])
            by_cell.setdefault((cx, cy), (k, ex, ey))
    return [find(k) for k in range(len(pieces))]


def _pieces(
    segs: FloatArray, chain: set[int], end_dist: list[float], a: FloatArray, b: FloatArray, t: BodyLimits
) -> list[tuple[FloatArray, FloatArray, float, float]]:
    """The edges off the torso as ``(p, q, distance of p from the torso, of q)``, in order: those
    lying along it (a retraced piece of it) left out, one drawn across it cut in two there."""
    out = []
    for j, (p, q) in enumerate(segs):
        dp, dq = end_dist[2 * j], end_dist[2 * j + 1]
        if j in chain or max(dp, dq) <= t.attach_tol:
            continue
        x = _crossing(p, q, a, b)
        if x is not None and min(np.hypot(*(x - p)), np.hypot(*(x - q))) >= t.min_limb:
            dx = seg_distance(x, a, b)[0]
            out += [(x, p, dx, dp), (x, q, dx, dq)]
        else:
            out.append((p, q, dp, dq))
    return out


def _crossing(p: FloatArray, q: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray | None:
    """Where the edge ``p``–``q`` crosses the torso ``a``–``b`` strictly between its own ends, or None."""
    d, e = q - p, b - a
    den = d[0] * e[1] - d[1] * e[0]
    if den == 0:
        return None
    s = ((a[0] - p[0]) * e[1] - (a[1] - p[1]) * e[0]) / den  # along the edge
    u = ((a[0] - p[0]) * d[1] - (a[1] - p[1]) * d[0]) / den  # along the torso
    if not (0 <= u <= 1 and 0 < s < 1):
        return None
    crossing: FloatArray = p + s * d
    return crossing


def _limb(
    root: FloatArray, ends: list[FloatArray], a: FloatArray, b: FloatArray, t: BodyLimits, length: float, lowest: float
) -> Limb:
    """A limb leaving the torso ``a``–``b`` at ``root``: an arm above ``arm_zone`` of the torso's
    length, else a leg; on the side of the torso the one of its paths' far ``ends`` farthest to
    the side lies (``along`` within ``min_limb_side``: a limb hanging down the torso's line); that
    end is its ``tip``."""
    span = float(b[1] - a[1]) or 1.0
    kind = "arm" if (root[1] - a[1]) / span < t.arm_zone else "leg"

    def side_x(p: FloatArray) -> float:
        along = seg_distance(p, a, b)[1]
        return float(p[0] - (a[0] + along * (b[0] - a[0])))

    tip = max(ends, key=lambda p: abs(side_x(p)))
    off = side_x(tip)
    side = "along" if abs(off) < t.min_limb_side else ("left" if off < 0 else "right")
    return Limb(kind, side, root, tip, length, lowest)
