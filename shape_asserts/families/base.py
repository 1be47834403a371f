"""What a shape family is, and the parameter helpers every family uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from shape_asserts.exceptions import CaseError

if TYPE_CHECKING:
    from shape_asserts.cases import Case
    from shape_asserts.geometry.drawing import Drawing
    from shape_asserts.geometry.score import ShapeScore

__all__ = ["Family", "pair_param", "number_param", "direction_param", "inside_grid"]


@dataclass(frozen=True)
class Family:
    """How one shape family is asked for, drawn ideally and scored."""

    name: str
    #: Validate and complete a case's parameters (raise CaseError naming the problem).
    params: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: The prompt for a case in a language ("ru" or "en").
    prompt: Callable[["Case", str], str]
    #: The ideal drawing of a case, ordered points (N, 2).
    ideal: Callable[["Case"], np.ndarray]
    #: Score a drawing against a case.
    score: Callable[["Drawing", "Case"], "ShapeScore"]
    #: Parameters that vary between cases that otherwise ask the same thing (for stability).
    variant_keys: tuple[str, ...] = ()
    #: The family's default limits (a frozen dataclass): a case's ``thresholds`` table may replace
    #: any field, and is checked against these fields and their types when the case is loaded.
    thresholds: Any = None


def pair_param(params: Mapping[str, Any], key: str, *, required: bool = True) -> tuple[float, float] | None:
    """``params[key]`` as an ``(x, y)`` pair (from ``[x, y]`` or ``{x, y}``)."""
    v = params.get(key)
    if v is None:
        if required:
            raise CaseError(f"'{key}' is required, as [x, y]")
        return None
    if isinstance(v, dict):
        v = [v.get("x"), v.get("y")]
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 2
        or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)
    ):
        raise CaseError(f"'{key}' must be [x, y] numbers, got {v!r}")
    return (v[0], v[1])


def number_param(params: Mapping[str, Any], key: str, *, minimum: float | None = None,
                 default: float | None = None, required: bool = True) -> float | None:
    """``params[key]`` as a number, at least ``minimum``."""
    v = params.get(key, default)
    if v is None:
        if required:
            raise CaseError(f"'{key}' is required")
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise CaseError(f"'{key}' must be a number, got {v!r}")
    if minimum is not None and v < minimum:
        raise CaseError(f"'{key}' must be at least {minimum:g}, got {v!r}")
    return v


def direction_param(params: Mapping[str, Any], key: str = "direction") -> str:
    v = params.get(key)
    if v not in ("cw", "ccw"):
        raise CaseError(f"'{key}' must be 'cw' or 'ccw', got {v!r}")
    return str(v)


def inside_grid(point: tuple[float, float], grid_size: int, what: str) -> None:
    """CaseError unless ``point`` lies on the grid."""
    x, y = point
    if not (0 <= x <= grid_size - 1 and 0 <= y <= grid_size - 1):
        raise CaseError(f"{what} {tuple(point)} is outside the {grid_size}×{grid_size} grid")
