"""Pass/fail thresholds: the one place they live.

Each family's defaults are a frozen dataclass; a case may override any field (``thresholds`` table
in a case file), and ``dataclasses.replace`` makes a variant in code. The numbers are placed by
``bench/calibrate_catalogue.py`` between drawings the scorers' authors did not make — fair
rasterisations of every built-in case and their nearest impostors (``tests/catalogue``) — with the
margins published in ``docs/calibration.md``; ``bench/calibrate.py`` shows that each of the seed
score's blind spots (reversed, shuffled, off-center, two-lap, four-point, duplicate-padded) fails at
least one check (``tests/unit/test_score.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

__all__ = ["CircleThresholds", "CIRCLE", "with_overrides"]


@dataclass(frozen=True)
class CircleThresholds:
    """Limits for one circle drawing. Distances are in grid cells."""

    #: Seed score (the post's metric, about the centroid). Ideal rasters r=5..24 score ≥ 96.89 (r=6).
    min_seed_score: float = 85.0
    #: Roundness on the seed's scale about the *fitted* center. Ideal rasters: ≥ 96.89 (r=6).
    min_roundness: float = 85.0
    #: Largest harmonic (orders 2–16) of the radial residual about the fitted circle, in cells, at
    #: fitted radius R: ``a + b / R`` at orders that are multiples of 4 (where a fair raster's
    #: ripples fall: the grid's quarter turns map it onto itself), ``c + d / R`` at the others.
    #: Placed between legitimate rasterisations and the nearest impostors by
    #: ``bench/calibrate_catalogue.py`` (``docs/calibration.md``).
    harmonic_limits: tuple[float, float, float, float] = (0.24, 0.75, 0.12, 0.3)
    #: Roundness about the *requested* center. Ideal rasters: ≥ 96.89 (same center).
    min_roundness_requested: float = 85.0
    #: Steps longer than one cell in 8-connectivity (undrawn jumps). Ideal: 0.
    max_gaps: int = 0
    #: Consecutive repeated points. Ideal: 0.
    max_repeats: int = 0
    #: Chebyshev distance from the last point back to the first (1 = adjacent, closed).
    max_closure: float = 1.0
    #: Chebyshev distance of the first point from the requested start.
    max_start_distance: float = 1.0
    #: Winding number about the requested center, in the requested direction (one lap = 1.0).
    min_turns: float = 0.9
    max_turns: float = 1.1
    #: Share of the 12 sectors of 30° the points visit.
    min_coverage: float = 1.0
    #: Distance of the fitted center from the requested one.
    max_center_offset: float = 1.5
    #: Smallest acceptable fitted radius (a dot is not a circle).
    min_radius: float = 3.0
    #: Largest difference between the fitted radius and the one asked for (or implied by the start
    #: point about the center), cells: a fair raster fits within a few tenths, the next size is 1 off.
    max_radius_error: float = 0.6


CIRCLE = CircleThresholds()


def with_overrides(base: Any, overrides: Mapping[str, Any] | None) -> Any:
    """``base`` with fields replaced from ``overrides``.

    Each value must have its field's kind: a number for a number (not a bool), a whole number for
    a count, true/false for a switch, a list of as many numbers for a tuple. ``ValueError`` names an
    unknown or ill-typed field (case files are checked when they load).

    Examples
    --------
    >>> with_overrides(CIRCLE, {"max_gaps": 1}).max_gaps
    1
    >>> with_overrides(CIRCLE, {"max_gap": 1})
    Traceback (most recent call last):
    ...
    ValueError: unknown threshold 'max_gap' for CircleThresholds; known: harmonic_limits, max_center_offset, max_closure, max_gaps, max_radius_error, max_repeats, max_start_distance, max_turns, min_coverage, min_radius, min_roundness, min_roundness_requested, min_seed_score, min_turns
    """
    if not overrides:
        return base
    known = {f.name: getattr(base, f.name) for f in fields(base)}
    unknown = sorted(set(overrides) - set(known))
    if unknown:
        raise ValueError(
            f"unknown threshold{'s' if len(unknown) > 1 else ''} {', '.join(repr(u) for u in unknown)} for "
            f"{type(base).__name__}; known: {', '.join(sorted(known))}"
        )
    return replace(base, **{k: _typed(k, v, known[k]) for k, v in overrides.items()})


def _typed(name: str, value: Any, default: Any) -> Any:
    """``value`` as the kind of ``default``, or ``ValueError`` naming the threshold."""
    def number(v: Any) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ValueError(f"threshold {name!r} must be true or false, got {value!r}")
    if isinstance(default, int):
        if number(value) and float(value) == int(value):
            return int(value)
        raise ValueError(f"threshold {name!r} must be a whole number, got {value!r}")
    if isinstance(default, float):
        if number(value):
            return float(value)
        raise ValueError(f"threshold {name!r} must be a number, got {value!r}")
    if isinstance(default, tuple):
        if isinstance(value, (list, tuple)) and len(value) == len(default) and all(number(v) for v in value):
            return tuple(float(v) for v in value)
        raise ValueError(f"threshold {name!r} must be a list of {len(default)} numbers, got {value!r}")
    if isinstance(default, str) and isinstance(value, str):
        return value
    raise ValueError(f"threshold {name!r} cannot be set to {value!r}")
