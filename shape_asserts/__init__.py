"""shape-asserts: measure how well language models draw shapes through coordinates.

The data's walk: case → ask → record/replay → parse → score → verdict. The public API here is the
instrument (parse and score) and the assertion helpers; the pytest plugin wires the rest.

The names below are imported on first use (PEP 562): the pytest plugin is a submodule, loaded in
every pytest run where this package is installed, so importing the package must not pay for numpy
and the families until something of theirs is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from shape_asserts._version import __version__

if TYPE_CHECKING:
    from shape_asserts.exceptions import DrawingFormatError, FixtureError, ProviderError, ShapeAssertsError
    from shape_asserts.families.circle import CIRCLE, CircleThresholds, score_circle
    from shape_asserts.geometry.checks import continuity, direction, out_of_bounds, signed_area, winding
    from shape_asserts.geometry.distances import closure_distance
    from shape_asserts.geometry.drawing import Drawing, parse_drawing
    from shape_asserts.geometry.fit import CircleModel, FitFailure, roundness
    from shape_asserts.geometry.raster import raster_circle
    from shape_asserts.geometry.score import Check, ShapeScore
    from shape_asserts.geometry.seed import seed_score
    from shape_asserts.results.assertions import assert_circle, assert_score

#: Each public name and the module it comes from (the TYPE_CHECKING block above says the same
#: for type checkers; ``tests/unit/test_facade.py`` keeps the two and ``__all__`` in step).
_SOURCES = {
    "DrawingFormatError": "shape_asserts.exceptions",
    "FixtureError": "shape_asserts.exceptions",
    "ProviderError": "shape_asserts.exceptions",
    "ShapeAssertsError": "shape_asserts.exceptions",
    "CIRCLE": "shape_asserts.families.circle",
    "CircleThresholds": "shape_asserts.families.circle",
    "score_circle": "shape_asserts.families.circle",
    "continuity": "shape_asserts.geometry.checks",
    "direction": "shape_asserts.geometry.checks",
    "out_of_bounds": "shape_asserts.geometry.checks",
    "signed_area": "shape_asserts.geometry.checks",
    "winding": "shape_asserts.geometry.checks",
    "closure_distance": "shape_asserts.geometry.distances",
    "Drawing": "shape_asserts.geometry.drawing",
    "parse_drawing": "shape_asserts.geometry.drawing",
    "CircleModel": "shape_asserts.geometry.fit",
    "FitFailure": "shape_asserts.geometry.fit",
    "roundness": "shape_asserts.geometry.fit",
    "raster_circle": "shape_asserts.geometry.raster",
    "Check": "shape_asserts.geometry.score",
    "ShapeScore": "shape_asserts.geometry.score",
    "seed_score": "shape_asserts.geometry.seed",
    "assert_circle": "shape_asserts.results.assertions",
    "assert_score": "shape_asserts.results.assertions",
}

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


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for (then kept)."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
