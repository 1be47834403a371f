"""The polygon as a fitted model: corners found by simplification, and the measures compared.

A drawn polygon is a run of grid cells; its corners come from
:func:`~shape_asserts.geometry.corners.simplify_closed` and are wrapped in a :class:`PolygonModel`,
which gives interior angles, side lengths, distances to its outline and samples along it (see
:mod:`shape_asserts.geometry.fit.base` for the contract). Target shapes are made by
:func:`regular_polygon` and :func:`star_polygon`; :func:`vertex_cells` says which cells fairly
round an exact vertex. "Clockwise" always means clockwise as seen on screen
(:func:`shape_asserts.geometry.checks.signed_area` > 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.corners import Along, simplify_closed
from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, Point, as_points, roll_rows
from shape_asserts.geometry.runs import Ring

__all__ = [
    "np_sum",
    "orientation",
    "sides_and_angles",
    "interior_angles",
    "side_lengths",
    "regular_polygon",
    "star_polygon",
    "PolygonModel",
    "vertex_cells",
    "vertex_cell_lists",
    "ROUNDING_REACH",
]


#: The longest list :func:`np_sum` adds itself; numpy's pairwise sum splits longer ones in halves.
_PAIRWISE_BLOCK = 128


def np_sum(values: list[float]) -> float:
    """``np.add.reduce`` of a 1-D float64 array of ``values``, the same float, in plain Python up to
    128 of them: numpy's pairwise summation adds fewer than 8 terms in turn from 0.0, and up to 128
    in eight interleaved partial sums combined as a tree, the rest added in turn; its result starts
    from the identity 0.0 (a sum of negative zeros is +0.0). Longer lists are numpy's to add."""
    n = len(values)
    if n > _PAIRWISE_BLOCK:
        return float(np.add.reduce(np.array(values, dtype=np.float64)))
    if n < 8:
        res = 0.0
        for v in values:
            res += v
        return res
    r = values[:8]
    end = n - n % 8
    for i in range(8, end, 8):
        for j in range(8):
            r[j] += values[i + j]
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for v in values[end:]:
        res += v
    return 0.0 + res


def orientation(vertices: FloatArray) -> float:
    """:func:`~shape_asserts.geometry.checks.signed_area` of a few vertices, the same float: its
    shoelace terms (the same products) added as numpy adds them (:func:`np_sum`), without an array
    per step; longer lists take :func:`signed_area` itself."""
    n = len(vertices)
    if n < 3 or n > _PAIRWISE_BLOCK:
        return signed_area(vertices)
    return _shoelace(vertices.tolist())


def _shoelace(v: list[list[float]]) -> float:
    """:func:`orientation` of 3 to 128 vertices given as plain ``[x, y]`` rows."""
    x0, y0 = v[0]
    c = [(x - x0, y - y0) for x, y in v]
    return 0.5 * np_sum([x * y1 - x1 * y for (x, y), (x1, y1) in zip(c, c[1:] + c[:1])])


#: ``np.degrees``' factor: it multiplies by the double nearest 180 / pi, as this does.
_DEGREES = 180.0 / math.pi


def sides_and_angles(v: list[list[float]]) -> tuple[list[float], list[float]]:
    """:func:`side_lengths` and :func:`interior_angles` of vertices given as plain ``[x, y]`` rows,
    the same floats: for 3 to 128 of them, the same differences and products in plain floats (a
    row's dot product summed from 0.0, as numpy's reduce over an axis of two), and numpy's
    ``hypot`` and ``arctan2`` for the rest (each called once, on arrays of all the sides)."""
    k = len(v)
    if not 3 <= k <= _PAIRWISE_BLOCK:
        arr = np.array(v, dtype=float).reshape(-1, 2)
        return side_lengths(arr).tolist(), interior_angles(arr).tolist()
    # e[i]: the step from vertex i to i + 1; the step into vertex i is e[i - 1]
    e = [(x1 - x, y1 - y) for (x, y), (x1, y1) in zip(v, v[1:] + v[:1])]
    into = e[-1:] + e[:-1]
    # four rows of one array: the steps' x and y, then each vertex's cross and dot product
    rows = np.array(
        [x for x, _ in e]
        + [y for _, y in e]
        + [ax * by - ay * bx for (ax, ay), (bx, by) in zip(into, e)]
        + [(0.0 + ax * bx) + ay * by for (ax, ay), (bx, by) in zip(into, e)]
    ).reshape(4, k)
    sides: list[float] = np.hypot(rows[0], rows[1]).tolist()
    turn = np.arctan2(rows[2], rows[3]).tolist()
    # clockwise on screen turns positively; a counter-clockwise polygon turns the other way
    sign = 1.0 if _shoelace(v) >= 0 else -1.0
    return sides, [180.0 - sign * (a * _DEGREES) for a in turn]


def side_lengths(vertices: ArrayLike) -> FloatArray:
    """Lengths of the sides of a closed polygon, side ``i`` joining vertex ``i`` to ``i + 1``, (K,)."""
    v = as_points(vertices)
    d = roll_rows(v, -1) - v
    return np.hypot(d[:, 0], d[:, 1])


def interior_angles(vertices: ArrayLike) -> FloatArray:
    """Interior angle at each vertex of a closed polygon, degrees, shape (K,).

    Measured on the polygon's inside whichever way it is drawn, so a convex corner is below 180°
    and the inner corners of a star above it.

    Examples
    --------
    >>> interior_angles(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])).tolist()
    [90.0, 90.0, 90.0, 90.0]
    """
    v = as_points(vertices)
    if len(v) < 3:
        return np.zeros(len(v))
    e1 = v - roll_rows(v, 1)
    e2 = roll_rows(v, -1) - v
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    dot = np.add.reduce(e1 * e2, axis=1)
    turn = np.degrees(np.arctan2(cross, dot))
    # clockwise on screen turns positively; a counter-clockwise polygon turns the other way
    sign = 1.0 if orientation(v) >= 0 else -1.0
    angles: FloatArray = 180.0 - sign * turn
    return angles


def regular_polygon(center: Point, radius: float, n: int, rotation: float = 270.0) -> FloatArray:
    """Vertices of a regular ``n``-gon, clockwise on screen from the one at ``rotation``, (n, 2).

    ``rotation`` is the polar angle of vertex 0 in degrees (0° right, growing clockwise on screen;
    270° is straight up).

    Examples
    --------
    >>> np.round(regular_polygon((25, 25), 10, 4), 6).tolist()
    [[25.0, 15.0], [35.0, 25.0], [25.0, 35.0], [15.0, 25.0]]
    """
    ang = np.radians(rotation + 360.0 * np.arange(n) / n)
    return np.column_stack([center[0] + radius * np.cos(ang), center[1] + radius * np.sin(ang)])


def star_polygon(center: Point, outer: float, inner: float, n: int, rotation: float = 270.0) -> FloatArray:
    """Vertices of an ``n``-pointed star, alternating outer tip and inner corner, (2n, 2).

    Vertex 0 is the tip at polar angle ``rotation``; the order is clockwise on screen.
    """
    ang = np.radians(rotation + 180.0 * np.arange(2 * n) / n)
    r = np.where(np.arange(2 * n) % 2 == 0, outer, inner)
    return np.column_stack([center[0] + r * np.cos(ang), center[1] + r * np.sin(ang)])


@dataclass(frozen=True, eq=False)
class PolygonModel:
    """A closed polygon: ``vertices`` (K, 2) in drawing order, and where they came from.

    ``indices`` are the positions of the vertices in the drawing they were estimated from (empty
    for a polygon built from named geometry).

    Examples
    --------
    >>> from shape_asserts.geometry.raster import raster_polyline
    >>> m = PolygonModel.from_estimate(raster_polyline([(10, 10), (40, 10), (40, 40), (10, 40)]))
    >>> m.vertices.tolist(), m.angles().tolist()
    ([[10.0, 10.0], [40.0, 10.0], [40.0, 40.0], [10.0, 40.0]], [90.0, 90.0, 90.0, 90.0])
    """

    vertices: FloatArray
    indices: tuple[int, ...] = ()
    #: The drawing's points as :func:`simplify_closed` measured them (None: not kept, the drawing
    #: had repeated points): what it measured is remembered for a caller that measures more.
    ring: Ring | None = field(default=None, repr=False)

    @classmethod
    def from_estimate(
        cls,
        points: ArrayLike,
        epsilon: float = 1.5,
        min_side: float | None = None,
        *,
        ahead: int = 0,
        along: Along | None = None,
    ) -> PolygonModel | FitFailure:
        """The corners of a closed drawing by :func:`simplify_closed`.

        ``min_side`` defaults to ``3 × epsilon``: a side shorter than that is a raster's cut corner.
        ``ahead``: how many corners are expected, a guess that only decides when the work is done
        (:func:`simplify_closed`); ``along``: runs of the drawing a caller will measure on the
        model's ring, asked of the corners the search then holds (:func:`simplify_closed`; only
        when the drawing has no point written twice, so that its indices are the drawing's).

        Consecutive repeated points and a closing point equal to the first are dropped first, so
        they cannot become corners. A falsy :class:`~shape_asserts.geometry.fit.FitFailure` when fewer than
        3 corners remain.
        """
        pts = as_points(points)
        if len(pts) == 0:
            return FitFailure("no points")
        # each point as one complex number (x and y its two parts, a view of the rows): equal just
        # when both coordinates are (a nan never, -0.0 and 0.0 alike), so one comparison finds repeats
        z = np.ascontiguousarray(pts).view(np.complex128)[:, 0]
        repeats = z[1:] == z[:-1]
        side = 3.0 * epsilon if min_side is None else min_side
        ring = None
        if not repeats.any() and (len(pts) == 1 or z[-1] != z[0]):
            # no point written twice: simplified as it is, on a ring kept with the model
            ring = Ring(pts)
            corners = simplify_closed(pts, epsilon, min_side=side, ahead=ahead, ring=ring, along=along)
        else:
            idx = np.concatenate(([0], (~repeats).nonzero()[0] + 1))
            if len(idx) > 1 and pts[idx[-1]].tolist() == pts[idx[0]].tolist():
                idx = idx[:-1]
            corners = idx[simplify_closed(pts[idx], epsilon, min_side=side, ahead=ahead)]
        if len(corners) < 3:
            return FitFailure(f"only {len(corners)} corner(s): the points lie along a line")
        # (an index array takes a copy: the vertices are the model's own)
        return cls(vertices=pts[corners], indices=tuple(corners.tolist()), ring=ring)

    @property
    def n(self) -> int:
        return int(len(self.vertices))

    def angles(self) -> FloatArray:
        """Interior angles in degrees (see :func:`interior_angles`)."""
        return interior_angles(self.vertices)

    def sides(self) -> FloatArray:
        """Side lengths (see :func:`side_lengths`)."""
        return side_lengths(self.vertices)

    def residuals(self, points: ArrayLike) -> FloatArray:
        """Distance of each point from the outline, shape (N,)."""
        return distance_to_polyline(points, self.vertices, closed=True)

    def predict_xy(self, t: ArrayLike) -> FloatArray:
        """Points of the outline at ``t`` ∈ [0, 1) of the perimeter from vertex 0, shape (len(t), 2)."""
        t = np.asarray(t, dtype=float) % 1.0
        sides = self.sides()
        cum = np.concatenate([[0.0], np.cumsum(sides)])
        s = t * cum[-1]
        k = np.clip(np.searchsorted(cum, s, side="right") - 1, 0, self.n - 1)
        frac = np.where(sides[k] > 0, (s - cum[k]) / np.where(sides[k] > 0, sides[k], 1.0), 0.0)
        a = self.vertices[k]
        b = self.vertices[(k + 1) % self.n]
        xy: FloatArray = a + frac[:, None] * (b - a)
        return xy

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


#: How far from an exact coordinate a cell may lie and still be a fair rounding of it: both the
#: floor and the ceiling of 3.4 are (0.4 and 0.6 away), only 3 is for 3.2 (4 is 0.8 away).
ROUNDING_REACH = 0.75


def _whole(c: int, x: float) -> float:
    """``c`` (math's floor, ceil or round of ``x``) as numpy's gives it: a float, a zero signed as ``x``."""
    return float(c) if c else math.copysign(0.0, x)


def _floor_ceil(x: float) -> tuple[float, float]:
    """``np.floor(x)``, ``np.ceil(x)`` of a plain float, without numpy's scalar machinery."""
    return _whole(math.floor(x), x), _whole(math.ceil(x), x)


def vertex_cells(vertices: ArrayLike, reach: float = ROUNDING_REACH) -> list[FloatArray]:
    """The cells each exact vertex may fairly be rounded to: one, two or four per vertex.

    Per coordinate, the floor and the ceiling each count when they lie within ``reach`` of the
    exact value (the nearest integer always counts); a vertex's cells are their combinations.

    Parameters
    ----------
    vertices : ndarray, shape (K, 2)
    reach : float

    Returns
    -------
    list of K ndarrays, each of shape (M, 2), M in {1, 2, 4}

    Examples
    --------
    >>> [c.tolist() for c in vertex_cells(np.array([[10.0, 10.2], [10.5, 3.0]]))]
    [[[10.0, 10.0]], [[10.0, 3.0], [11.0, 3.0]]]
    """
    return [np.array(cells, dtype=float).reshape(-1, 2) for cells in vertex_cell_lists(vertices, reach)]


def vertex_cell_lists(vertices: ArrayLike, reach: float = ROUNDING_REACH) -> list[list[tuple[float, float]]]:
    """:func:`vertex_cells` as plain ``(x, y)`` tuples, for a scorer that reads a few of them."""
    v = as_points(vertices).astype(float)
    out = []
    for x, y in v.tolist():
        xs = [c for c in _floor_ceil(x) if abs(c - x) <= reach] or [_whole(round(x), x)]
        ys = [c for c in _floor_ceil(y) if abs(c - y) <= reach] or [_whole(round(y), y)]
        # floor ≤ ceil, so the pairs come sorted; a whole coordinate gives the same cell twice
        out.append(sorted({(a, b) for a in xs for b in ys}))
    return out
