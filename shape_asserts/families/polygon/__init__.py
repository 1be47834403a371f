"""Polygon-like families: square, rectangle, triangle, regular polygon and star.

Each asks for one closed polygon, starting at a vertex. A case names its target polygon (the asked
vertices, clockwise on screen from vertex 0) and the start, either ``start`` [x, y] — one of the
vertices, within a cell — or ``start_vertex`` k (vertex k of the target, counted clockwise from
vertex 0). All five are scored by :func:`~shape_asserts.families.polygon.scorer.score_polygon`
(``scorer.py``, with the corners' matching to the asked vertices and the straightest sides in
``matching.py``); their parameters, prompts and ideal drawings are in ``targets.py``.

Parameters per family (``rotation`` in degrees, clockwise on screen):

* ``square``: ``center``, ``side``, ``rotation`` (default 0: sides parallel to the grid; vertex 0
  is then the top-left corner);
* ``rectangle``: ``center``, ``width``, ``height``, ``rotation`` (default 0; vertex 0 top-left);
* ``triangle``: ``vertices`` (three [x, y]; vertex 0 is the first listed), or ``center`` and
  ``radius`` for an equilateral one with vertex 0 at polar angle ``rotation`` (default 270: up);
* ``polygon``: a regular ``n``-gon (3–12), ``center``, ``radius`` (circumradius), ``rotation``
  (polar angle of vertex 0, default 270);
* ``star``: ``n`` points (4–10), ``center``, ``radius`` (tips), ``inner`` (inner corners),
  ``rotation`` (polar angle of the tip that is vertex 0, default 270); vertices alternate tip,
  inner corner.
"""

from __future__ import annotations

from shape_asserts.families.base import CaseLike, Family, with_overrides
from shape_asserts.families.polygon.scorer import (
    POLYGON,
    RECTANGLE,
    SQUARE,
    STAR,
    TRIANGLE,
    PolygonThresholds,
    StarThresholds,
    cells_of,
    score_polygon,
)
from shape_asserts.families.polygon.targets import PARAMS, ideal, prompt, target_vertices
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.score import ShapeScore

__all__ = [
    "PolygonThresholds",
    "StarThresholds",
    "SQUARE",
    "RECTANGLE",
    "TRIANGLE",
    "POLYGON",
    "STAR",
    "SQUARE_FAMILY",
    "RECTANGLE_FAMILY",
    "TRIANGLE_FAMILY",
    "POLYGON_FAMILY",
    "STAR_FAMILY",
    "FAMILIES",
    "score_polygon",
    "target_vertices",
    "cells_of",
]

_THRESHOLDS: dict[str, PolygonThresholds] = {
    "square": SQUARE,
    "rectangle": RECTANGLE,
    "triangle": TRIANGLE,
    "polygon": POLYGON,
    "star": STAR,
}


def _family(name: str) -> Family:
    def score(drawing: Drawing, case: CaseLike) -> ShapeScore:
        p = case.params
        return score_polygon(
            drawing.points,
            vertices=target_vertices(case),
            grid_size=p["grid_size"],
            start=p["start"],
            direction=p["direction"],
            thresholds=with_overrides(_THRESHOLDS[name], case.thresholds),
            family=name,
            star=name == "star",
            rectangle=name == "rectangle",
        )

    score.__name__ = f"score_{name}"
    return Family(
        name=name,
        params=PARAMS[name],
        prompt=prompt,
        ideal=ideal,
        score=score,
        thresholds=_THRESHOLDS[name],
        variant_keys=("start", "direction"),
    )


SQUARE_FAMILY = _family("square")
RECTANGLE_FAMILY = _family("rectangle")
TRIANGLE_FAMILY = _family("triangle")
POLYGON_FAMILY = _family("polygon")
STAR_FAMILY = _family("star")

#: What this package adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (SQUARE_FAMILY, RECTANGLE_FAMILY, TRIANGLE_FAMILY, POLYGON_FAMILY, STAR_FAMILY)
