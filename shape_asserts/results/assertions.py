"""Verdict helpers for any test suite: assert a drawing is the shape that was asked for.

A failure raises ``AssertionError`` listing every failed check with the offending point indices,
followed by the drawing as ASCII art on its grid (start, end and gaps marked, the ideal shape
dotted in), so it reads well in a terminal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shape_asserts.families.base import with_overrides
from shape_asserts.families.circle import CIRCLE, CircleThresholds, score_circle
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.results.render import ascii_art

__all__ = ["assert_circle", "assert_score", "failure_message"]


def failure_message(
    result: ShapeScore, points: np.ndarray, grid_size: int, *, ideal: np.ndarray | None = None, title: str = ""
) -> str:
    """Every failed check, one per line, then the drawing as ASCII art."""
    head = title or f"{result.family} drawing"
    lines = [f"{head}: {len(result.failed)} check(s) failed (score {result.score:.2f})"]
    lines += [f"  - {c.describe()}" for c in result.failed]
    lines.append("")
    lines.append(ascii_art(points, grid_size, ideal=ideal, gaps=result.marks.get("gaps", ())))
    lines.append("legend: S start, E end, # point, 2 drawn twice, ! before a gap, · ideal, X outside")
    return "\n".join(lines)


def assert_score(
    result: ShapeScore, points: np.ndarray, grid_size: int = 50, *, ideal: np.ndarray | None = None, title: str = ""
) -> ShapeScore:
    """Raise ``AssertionError`` with a readable picture when ``result`` has failed checks."""
    if not result.passed:
        raise AssertionError(failure_message(result, points, grid_size, ideal=ideal, title=title))
    return result


def _ideal_circle(
    center: tuple[float, float], radius: float | None, start: Any, direction: str | None, result: ShapeScore
) -> np.ndarray | None:
    r = radius if radius is not None else result.metrics.get("radius")
    if r is None or not np.isfinite(r) or r < 1 or r > 10_000:
        return None
    c = (int(round(center[0])), int(round(center[1])))
    return raster_circle(c, int(round(r)), start=start, direction=direction or "cw")


def assert_circle(
    drawing: Drawing | np.ndarray,
    *,
    center: tuple[float, float],
    start: tuple[float, float] | None = None,
    direction: str | None = None,
    min_score: float | None = None,
    grid_size: int | None = None,
    radius: float | None = None,
    thresholds: CircleThresholds = CIRCLE,
    **overrides: Any,
) -> ShapeScore:
    """Assert that ``drawing`` is a circle about ``center``; return its :class:`ShapeScore`.

    Parameters
    ----------
    drawing : Drawing or ndarray of shape (N, 2)
    center : (float, float)
        The requested center.
    start, direction : optional
        The requested first point and direction ("cw"/"ccw" as seen on screen).
    min_score : float, optional
        Shorthand for ``min_seed_score``.
    grid_size : int, optional
        Default: the drawing's own ``grid_size``, else 50.
    radius : float, optional
        Only used to draw the ideal circle in the failure message.
    thresholds : CircleThresholds
        Base limits; keyword ``overrides`` (e.g. ``max_gaps=2``) replace single fields.

    Examples
    --------
    >>> from shape_asserts.geometry.raster import raster_circle
    >>> r = assert_circle(raster_circle((25, 25), 20), center=(25, 25), direction="cw")
    >>> r.passed
    True
    """
    if min_score is not None:
        overrides["min_seed_score"] = min_score
    limits = with_overrides(thresholds, overrides)
    if isinstance(drawing, Drawing):
        pts, data = drawing.points, drawing.data
        grid = grid_size or drawing.grid_size or 50
    else:
        pts, data, grid = np.asarray(drawing, dtype=float), None, grid_size or 50
    result = score_circle(
        pts, center=center, grid_size=grid, start=start, direction=direction, data=data, thresholds=limits
    )
    if not result.passed:
        ideal = _ideal_circle(center, radius, start, direction, result)
        assert_score(result, pts, grid, ideal=ideal, title="circle")
    return result
