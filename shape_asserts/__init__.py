"""shape-asserts: measure how well language models draw shapes through coordinates.

The data's walk: case → ask → record/replay → parse → score → verdict. The public API here is the
instrument (parse and score) and the assertion helpers; the pytest plugin wires the rest.
"""

from __future__ import annotations

from shape_asserts._version import __version__
from shape_asserts.exceptions import DrawingFormatError, FixtureError, ProviderError, ShapeAssertsError
from shape_asserts.families.circle import CIRCLE, CircleThresholds, score_circle
from shape_asserts.geometry.checks import (
    continuity,
    direction,
    out_of_bounds,
    signed_area,
    winding,
)
from shape_asserts.geometry.distances import closure_distance
from shape_asserts.geometry.drawing import Drawing, parse_drawing
from shape_asserts.geometry.fit import CircleModel, FitFailure, roundness
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import Check, ShapeScore
from shape_asserts.geometry.seed import seed_score
from shape_asserts.results.assertions import assert_circle, assert_score

__all__ = [
    "__version__",
    "CIRCLE",
    "Check",
    "CircleModel",
    "CircleThresholds",
    "Drawing",
    "DrawingFormatError",
    "FitFailure",
    "FixtureError",
    "ProviderError",
    "ShapeAssertsError",
    "ShapeScore",
    "assert_circle",
    "assert_score",
    "closure_distance",
    "continuity",
    "direction",
    "out_of_bounds",
    "parse_drawing",
    "raster_circle",
    "roundness",
    "score_circle",
    "seed_score",
    "signed_area",
    "winding",
]
