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

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.checks import signed_area
from shape_asserts.geometry.corners import simplify_closed
from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, Point, as_points, roll_rows

__all__ = [
    "interior_angles",
    "side_lengths",
    "regular_polygon",
    "star_polygon",
    "PolygonModel",
    "vertex_cells",
    "ROUNDING_REACH",
]


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
    sign = 1.0 if signed_area(v) >= 0 else -1.0
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

    @classmethod
    def from_estimate(
        cls, points: ArrayLike, epsilon: float = 1.5, min_side: float | None = None, fewest: int = 0
    ) -> PolygonModel | FitFailure:
        """The corners of a closed drawing by :func:`simplify_closed`.

        ``min_side`` defaults to ``3 × epsilon``: a side shorter than that is a raster's cut corner.
        ``fewest``, the corners asked for (0: none), lets the search drop a spurious corner or two
        the others explain within ``epsilon`` (:func:`simplify_closed`).
        Consecutive repeated points and a closing point equal to the first are dropped first, so
        they cannot become corners. A falsy :class:`~shape_asserts.geometry.fit.FitFailure` when fewer than
        3 corners remain.
        """
        pts = as_points(points)
        if len(pts) == 0:
            return FitFailure("no points")
        side = 3.0 * epsilon if min_side is None else min_side
        # the points kept: each that differs from the one before (in either coordinate), and the
        # last only when it is not the first again
        repeats = (pts[1:] == pts[:-1]).all(axis=1)
        idx = np.concatenate(([0], (~repeats).nonzero()[0] + 1))
        if len(idx) > 1 and pts[idx[-1]].tolist() == pts[idx[0]].tolist():
            idx = idx[:-1]
        corners = idx[simplify_closed(pts[idx], epsilon, min_side=side, fewest=fewest)]
        if len(corners) < 3:
            return FitFailure(f"only {len(corners)} corner(s): the points lie along a line")
        # (an index array takes a copy: the vertices are the model's own)
        return cls(vertices=pts[corners], indices=tuple(corners.tolist()))

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


#: How far from an exact coordinate a cell may lie and still be a fair rounding of it: the floor
#: and the ceiling of 3.2 both are (a drawing that plots points a cell apart along a side turns
#: 0.8 or 0.9 inside a vertex it steps past: the cell it draws there is the floor), a whole number
#: only itself (the cell a whole row off an integer vertex is not).
ROUNDING_REACH = 0.99


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
    list of K ndarrays, each of shape (M, 2), M in {1, 2, 4}, sorted

    Examples
    --------
    >>> [c.tolist() for c in vertex_cells(np.array([[10.0, 10.2], [10.5, 3.0]]), reach=0.75)]
    [[[10.0, 10.0]], [[10.0, 3.0], [11.0, 3.0]]]
    >>> [c.tolist() for c in vertex_cells(np.array([[10.0, 10.2]]))]
    [[[10.0, 10.0], [10.0, 11.0]]]
    """
    out = []
    for x, y in as_points(vertices).astype(float).tolist():
        xs = _roundings(x, reach)
        ys = _roundings(y, reach)
        # floor ≤ ceil, so the pairs come sorted; a whole coordinate gives the same cell twice
        cells = sorted({(a, b) for a in xs for b in ys})
        out.append(np.array(cells, dtype=float).reshape(-1, 2))
    return out


def _roundings(x: float, reach: float) -> list[float]:
    """The floor and the ceiling of ``x`` that lie within ``reach`` of it, else its nearest whole
    number (numpy's: a zero keeps the sign of ``x``, which the cells' coordinates show)."""
    near = [float(c) for c in (np.floor(x), np.ceil(x)) if abs(c - x) <= reach]
    return near or [float(np.round(x))]
