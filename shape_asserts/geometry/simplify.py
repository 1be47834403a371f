"""Simplification: a drawn run of cells reduced to its corners and straight edges.

One Ramer–Douglas–Peucker (:func:`rdp`) serves two callers that measure a point's deviation
differently, each as it was calibrated: the polygon families find corners with the distance to
the *segment* between kept points (a closed contour's corner search, :func:`.corners.simplify_closed`,
runs it on the contour's two halves), the free scenes cut strokes into edges with the distance to
the *line* through them (:func:`simplify`, :func:`segments`). Everything takes ``(N, 2)`` arrays of ``(x, y)`` with y pointing down.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import closure_distance, nearest_on_segment, segment_distance
from shape_asserts.geometry.points import FloatArray, IntArray, as_points, roll_rows

__all__ = ["rdp", "simplify", "corner_depths", "segments", "segment_angles"]


def _line_distance(mid: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distance of each row of ``mid`` from the line through ``a`` and ``b`` (from ``a`` if they meet)."""
    ab = b - a
    norm = float(np.hypot(*ab))
    d: FloatArray
    if norm == 0.0:  # the stretch returns to where it began: measure from that point
        d = np.hypot(mid[:, 0] - a[0], mid[:, 1] - a[1])
    else:
        d = np.abs(ab[0] * (mid[:, 1] - a[1]) - ab[1] * (mid[:, 0] - a[0])) / norm
    return d


def rdp(points: ArrayLike, epsilon: float, *, to: Literal["segment", "line"] = "segment") -> IntArray:
    """Indices of the points an open polyline keeps under Ramer–Douglas–Peucker simplification.

    A point is kept when it lies more than ``epsilon`` from the chord joining the kept points on
    either side: from the segment (``to="segment"``) or from the whole line through it
    (``to="line"``, which forgives a point beyond the chord's ends). The first and last points are
    always kept. Ties go to the earlier point, so the result is the same for any isometry of
    integer input. Each kept point costs one numpy pass over its stretch: a 10,000-point scribble,
    which keeps most of its points, is simplified in about 0.2 s (``bench/hostile_cost.py``).

    Parameters
    ----------
    points : ndarray, shape (N, 2)
    epsilon : float
        Largest deviation, in grid cells, that a straight side may have.
    to : {"segment", "line"}

    Returns
    -------
    ndarray of int, shape (K,), ascending

    Examples
    --------
    >>> rdp(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]]), 0.5).tolist()
    [0, 2, 4]
    >>> back = np.array([[0, 0], [3, 0], [1, 0]])  # the middle point lies beyond the chord's end
    >>> rdp(back, 1.0).tolist(), rdp(back, 1.0, to="line").tolist()
    ([0, 1, 2], [0, 2])
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return np.arange(n)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        mid = pts[i + 1 : j]
        d = segment_distance(mid, pts[i], pts[j]) if to == "segment" else _line_distance(mid, pts[i], pts[j])
        k = int(np.argmax(d))
        if d[k] > epsilon:
            k += i + 1
            keep[k] = True
            stack.extend([(i, k), (k, j)])
    return np.flatnonzero(keep)


def simplify(points: ArrayLike, tolerance: float = 1.0) -> list[int]:
    """Indices of the corners that keep a stroke within ``tolerance`` cells of its edges.

    Ramer–Douglas–Peucker against the line through the kept points. A closed stroke (last point
    next to the first) is first cut at the point farthest from its start, so that both halves
    have distinct ends; the closing step is then an edge of its own.

    Examples
    --------
    >>> simplify(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]]))
    [0, 2, 4]
    """
    pts = as_points(points)
    n = len(pts)
    if n <= 2:
        return list(range(n))
    if closure_distance(pts) <= 1.0 and n >= 4:
        far = int(np.argmax(np.max(np.abs(pts - pts[0]), axis=1)))
        if 0 < far < n - 1:
            first: list[int] = rdp(pts[: far + 1], tolerance, to="line").tolist()
            second = [far + i for i in rdp(pts[far:], tolerance, to="line").tolist()]
            return first + second[1:]
    return [int(i) for i in rdp(pts, tolerance, to="line")]


def corner_depths(vertices: ArrayLike) -> FloatArray:
    """Distance of each vertex of a closed polygon from the segment joining its two neighbours, (K,):
    how far each corner stands out (a regular ``n``-gon's is ``R (1 − cos(2π/n))``).

    Examples
    --------
    >>> corner_depths(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])).round(3).tolist()
    [7.071, 7.071, 7.071, 7.071]
    """
    v = as_points(vertices)
    return nearest_on_segment(v, roll_rows(v, 1), roll_rows(v, -1))[0]


def segments(
    points: ArrayLike, tolerance: float = 1.0, *, min_length: float = 0.0, closed: bool | None = None
) -> FloatArray:
    """The straight edges of a simplified stroke, shape (M, 2, 2): ``[[x0, y0], [x1, y1]]`` rows.

    Edges shorter than ``min_length`` cells are dropped. ``closed`` adds the closing edge from the
    last corner to the first (default: when the stroke ends next to its start).

    Examples
    --------
    >>> segments(np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]])).tolist()
    [[[0.0, 0.0], [2.0, 0.0]], [[2.0, 0.0], [2.0, 2.0]]]
    """
    pts = as_points(points)
    idx = simplify(pts, tolerance)
    corners = pts[idx]
    if closed is None:
        closed = len(pts) >= 4 and closure_distance(pts) <= 1.0
    if closed and len(corners) >= 3 and closure_distance(corners) > 0:
        corners = np.vstack([corners, corners[:1]])
    if len(corners) < 2:
        return np.zeros((0, 2, 2))
    segs = np.stack([corners[:-1], corners[1:]], axis=1)
    lengths = np.hypot(*(segs[:, 1] - segs[:, 0]).T)
    kept: FloatArray = segs[lengths >= min_length] if min_length > 0 else segs[lengths > 0]
    return kept


def segment_angles(segs: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Direction (degrees in [0, 180), as on screen: 0 is horizontal, 90 vertical, 26.6 a 2:1
    line going down to the right) and length of each segment of :func:`segments`.

    Examples
    --------
    >>> [a.round(1).tolist() for a in segment_angles([[[0, 0], [2, 1]], [[0, 0], [0, -3]]])]
    [[26.6, 90.0], [2.2, 3.0]]
    """
    s = np.asarray(segs, dtype=float).reshape(-1, 2, 2)
    d = s[:, 1] - s[:, 0]
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180.0
    return ang, np.hypot(d[:, 0], d[:, 1])
