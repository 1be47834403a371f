"""The ``outline`` and ``coverage`` checks of :func:`.single.outline_measures`, against an outline
prepared once per case (:class:`~shape_asserts.geometry.nearest_xy.Outline`).

The same measures, the same floats: the asked outline, its samples every cell and their mean
radius depend only on the case, so the ellipse and spiral families build them once per asked
shape (:func:`prepared`) instead of once per answer, and measure each answer with the column-wise
searches of :mod:`shape_asserts.geometry.nearest_xy`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from shape_asserts.families.single import CELL_SLACK, ContourThresholds
from shape_asserts.geometry.nearest_xy import Outline, nearest_sq_xy
from shape_asserts.geometry.points import FloatArray, Point
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["prepared", "outline_measures"]


#: Prepared outlines by what they were made from; cleared when it grows past :data:`_KEEP`.
_CACHE: dict[tuple[object, ...], Outline] = {}
_KEEP = 256


def prepared(make: Callable[..., FloatArray], args: tuple[object, ...], *, closed: bool, center: Point) -> Outline:
    """``Outline(make(*args), closed=closed, center=center)``, built once per distinct asked shape.

    Keyed by the ``repr`` of the arguments, so that ``25`` and ``25.0`` (equal, but not
    necessarily the same floats downstream) are never taken for each other.
    """
    key = (make, repr(args), closed, repr(center))
    out = _CACHE.get(key)
    if out is None:
        if len(_CACHE) >= _KEEP:
            _CACHE.clear()
        out = _CACHE[key] = Outline(make(*args), closed=closed, center=center)
    return out


def outline_measures(card: Scorecard, pts: FloatArray, outline: Outline, *, t: ContourThresholds) -> float:
    """:func:`.single.outline_measures` (its checks, metrics and score, the same floats) against a
    prepared ``outline``; returns the outline score."""
    ref, scale = outline.ref, outline.scale
    near = np.sqrt(nearest_sq_xy(ref, pts)) if len(pts) else np.full(len(ref), np.inf)
    if len(pts) and scale > 0:
        dist = outline.distance(pts)
        n, m = len(dist), len(near)
        off, miss = float(np.add.reduce(dist) / n), float(np.add.reduce(near) / m)
        # only what lies beyond half a cell counts: rounding to cells costs a perfect drawing that much
        excess = float(
            np.add.reduce(np.maximum(0.0, dist - CELL_SLACK)) / n
            + np.add.reduce(np.maximum(0.0, near - CELL_SLACK)) / m
        )
        score = float(min(100.0, max(0.0, (1.0 - excess / scale) * 100.0)))
        far = (
            tuple(int(i) for i in np.argsort(-dist, kind="stable")[:12] if dist[i] > 2.0)
            if not np.maximum.reduce(dist) <= 2.0  # (none farther: nothing to mark)
            else ()
        )
    else:
        off, miss, score, far = float("inf"), float("inf"), 0.0, ()
    card.metrics.update(outline=score, mean_outline_distance=off, mean_miss_distance=miss)
    card.add(
        "outline",
        score >= t.min_outline,
        score,
        f"≥ {t.min_outline:g}",
        f"points are {off:.1f} cells from the asked outline on average, which is {miss:.1f} cells from the drawing",
        far,
    )
    cov = float(np.count_nonzero(near <= t.coverage_radius) / len(ref)) if len(ref) else 0.0
    card.metrics["coverage"] = cov
    card.add(
        "coverage",
        cov >= t.min_coverage,
        cov,
        f"≥ {t.min_coverage:g}",
        f"{int(np.count_nonzero(near > t.coverage_radius))} of {len(ref)} outline cells have no point within "
        f"{t.coverage_radius:g}",
    )
    return score
