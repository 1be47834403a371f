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

__all__ = ["BodyLimits", "Limb", "torso_chain", "limbs", "angle_between"]


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
    ``"along"`` the torso, where it leaves it (``root``) and where it ends (``tip``)."""

    kind: str
    side: str
    root: FloatArray
    tip: FloatArray


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
    # the nearest the neck, then the most upright, then the longest (the first of equals: lexsort is stable)
    i = int(cand[np.lexsort((-length[cand], tilt[cand], near))[0]])
    chain = {i}
    a, b = tops[i], bottoms[i]
    grew = True
    while grew:
        grew = False
        direction = _direction(a, b)
        for j in range(len(segs)):
            if j in chain or abs(ang[j] - direction) > t.torso_continue:
                continue
            top, foot = tops[j], bottoms[j]
            continues_down = np.hypot(*(top - b)) <= t.attach_tol
            lies_along = max(seg_distance(top, a, b)[0], seg_distance(foot, a, b)[0]) <= t.attach_tol
            continues_up = np.hypot(*(foot - a)) <= t.attach_tol
            if continues_down or lies_along or continues_up:
                chain.add(j)
                if foot[1] > b[1]:
                    b = foot
                if top[1] < a[1]:
                    a = top
                grew = True
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
    """The edges leaving the torso ``a``–``b`` (``chain``: the torso's own edges), one per limb:
    an edge drawn across the torso is two limbs, and pieces leaving one place in one direction
    (a limb retraced, or drawn in pieces) are one, the longest."""
    # every end's distance from the torso at once; where along the torso an end lies is worked
    # out for the limbs' tips alone (below)
    end_dist = nearest_on_segment(segs.reshape(-1, 2), a, b)[0].tolist()
    out: list[Limb] = []
    for p, q, dp, dq in _pieces(segs, chain, end_dist, a, b, t):
        length = float(np.hypot(*(q - p)))
        if length < t.min_limb or min(dp, dq) > t.attach_tol:
            continue  # a stub where a line touches the torso, or an edge that does not leave it
        root, tip = (p, q) if dp <= dq else (q, p)
        same = _same_limb(out, root, tip, t)
        if same is None:
            out.append(_limb(root, tip, a, b, t))
        elif length > float(np.hypot(*(out[same].tip - out[same].root))):
            out[same] = out[same]._replace(root=root, tip=tip)
    return out


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


def _same_limb(out: list[Limb], root: FloatArray, tip: FloatArray, t: BodyLimits) -> int | None:
    """The first limb found so far leaving the place ``root`` leaves in the direction ``tip`` goes."""
    for k, limb in enumerate(out):
        near = np.hypot(*(root - limb.root)) <= 2 * t.attach_tol
        if near and angle_between(tip - root, limb.tip - limb.root) <= t.limb_merge_angle:
            return k
    return None


def _limb(root: FloatArray, tip: FloatArray, a: FloatArray, b: FloatArray, t: BodyLimits) -> Limb:
    """A limb leaving the torso ``a``–``b`` at ``root``: an arm above ``arm_zone`` of the torso's
    length, else a leg; on the side of the torso its tip lies (``along`` within ``min_limb_side``)."""
    span = float(b[1] - a[1]) or 1.0
    kind = "arm" if (root[1] - a[1]) / span < t.arm_zone else "leg"
    along = seg_distance(tip, a, b)[1]
    side_x = tip[0] - (a[0] + along * (b[0] - a[0]))
    side = "along" if abs(side_x) < t.min_limb_side else ("left" if side_x < 0 else "right")
    return Limb(kind, side, root, tip)
