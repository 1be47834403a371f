"""The family contract: what a shape family is, what it reads from a case, and its thresholds.

A :class:`Family` says how a case's parameters are checked, asked for, drawn ideally and scored,
and declares its thresholds: a frozen dataclass of limits whose fields a case's ``thresholds``
table may replace (:func:`with_overrides` checks names and kinds, so a typo is a load error, not a
failed drawing). A family reads a case only through :class:`CaseLike`; the parameter helpers
below turn raw case values into checked ones, with a :class:`~shape_asserts.exceptions.CaseError`
naming the key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, overload

import numpy as np
import numpy.typing as npt

from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.points import Point
from shape_asserts.geometry.score import ShapeScore

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "CaseLike",
    "Family",
    "with_overrides",
    "pair_param",
    "number_param",
    "int_param",
    "direction_param",
    "inside_grid",
    "fits_grid",
]

T = TypeVar("T", bound="DataclassInstance")


class CaseLike(Protocol):
    """What a family reads from a case (``shape_asserts.cases.Case`` is one)."""

    @property
    def family(self) -> str:
        """The family's name (one module may serve several families)."""
        ...

    @property
    def params(self) -> Mapping[str, Any]:
        """The parameters, as the family's ``params`` completed them (``grid_size`` among them)."""
        ...

    @property
    def thresholds(self) -> Mapping[str, Any]:
        """The case's replacements for the family's default limits."""
        ...


@dataclass(frozen=True)
class Family:
    """How one shape family is asked for, drawn ideally and scored."""

    name: str
    #: Validate and complete a case's parameters (raise CaseError naming the problem).
    params: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: The prompt for a case in a language ("ru" or "en").
    prompt: Callable[[CaseLike, str], str]
    #: The ideal drawing of a case, ordered points (N, 2).
    ideal: Callable[[CaseLike], npt.NDArray[Any]]
    #: Score a drawing against a case.
    score: Callable[[Drawing, CaseLike], ShapeScore]
    #: The family's default limits (a frozen dataclass): a case's ``thresholds`` table may replace
    #: any field, and is checked against these fields and their types when the case is loaded.
    thresholds: DataclassInstance
    #: Parameters that vary between cases that otherwise ask the same thing (for stability).
    variant_keys: tuple[str, ...] = ()


def with_overrides(base: T, overrides: Mapping[str, Any] | None) -> T:
    """``base`` with fields replaced from ``overrides``.

    Each value must have its field's kind: a number for a number (not a bool), a whole number for
    a count, true/false for a switch, a list of as many numbers for a tuple. ``ValueError`` names an
    unknown or ill-typed field (case files are checked when they load).

    Examples
    --------
    >>> @dataclass(frozen=True)
    ... class Limits:
    ...     max_gaps: int = 0
    ...     min_score: float = 90.0
    >>> with_overrides(Limits(), {"max_gaps": 1})
    Limits(max_gaps=1, min_score=90.0)
    >>> with_overrides(Limits(), {"max_gap": 1})
    Traceback (most recent call last):
    ...
    ValueError: unknown threshold 'max_gap' for Limits; known: max_gaps, min_score
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


# --- parameters ------------------------------------------------------------------------------------


@overload
def pair_param(params: Mapping[str, Any], key: str, *, required: Literal[True] = ...) -> Point: ...
@overload
def pair_param(params: Mapping[str, Any], key: str, *, required: bool) -> Point | None: ...
def pair_param(params: Mapping[str, Any], key: str, *, required: bool = True) -> Point | None:
    """``params[key]`` as an ``(x, y)`` pair (from ``[x, y]`` or ``{x, y}``).

    >>> pair_param({"center": {"x": 25, "y": 20}}, "center")
    (25, 20)
    """
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


@overload
def number_param(
    params: Mapping[str, Any],
    key: str,
    *,
    minimum: float | None = ...,
    default: float | None = ...,
    required: Literal[True] = ...,
) -> float: ...
@overload
def number_param(
    params: Mapping[str, Any], key: str, *, minimum: float | None = ..., default: float | None = ..., required: bool
) -> float | None: ...
def number_param(
    params: Mapping[str, Any],
    key: str,
    *,
    minimum: float | None = None,
    default: float | None = None,
    required: bool = True,
) -> float | None:
    """``params[key]`` as a number, at least ``minimum``.

    >>> number_param({"side": 4}, "side", minimum=3), number_param({}, "rotation", default=0)
    (4, 0)
    """
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


@overload
def int_param(
    params: Mapping[str, Any],
    key: str,
    *,
    minimum: int,
    maximum: int | None = ...,
    default: int | None = ...,
    required: Literal[True] = ...,
) -> int: ...
@overload
def int_param(
    params: Mapping[str, Any],
    key: str,
    *,
    minimum: int,
    maximum: int | None = ...,
    default: int | None = ...,
    required: bool,
) -> int | None: ...
def int_param(
    params: Mapping[str, Any],
    key: str,
    *,
    minimum: int,
    maximum: int | None = None,
    default: int | None = None,
    required: bool = True,
) -> int | None:
    """``params[key]`` as an integer in ``[minimum, maximum]`` (no upper end when ``maximum`` is None).

    >>> int_param({"n": 5.0}, "n", minimum=3, maximum=12)
    5
    >>> int_param({"n": 13}, "n", minimum=3, maximum=12)
    Traceback (most recent call last):
    ...
    shape_asserts.exceptions.CaseError: 'n' must be from 3 to 12, got 13
    """
    v = params.get(key, default)
    if v is None:
        if not required:
            return None
        upto = f" to {maximum}" if maximum is not None else " or more"
        raise CaseError(f"'{key}' is required, an integer from {minimum}{upto}")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or float(v) != int(v):
        raise CaseError(f"'{key}' must be an integer, got {v!r}")
    if maximum is None and int(v) < minimum:
        raise CaseError(f"'{key}' must be at least {minimum}, got {v!r}")
    if maximum is not None and not minimum <= int(v) <= maximum:
        raise CaseError(f"'{key}' must be from {minimum} to {maximum}, got {v!r}")
    return int(v)


def direction_param(params: Mapping[str, Any], key: str = "direction") -> str:
    """``params[key]``: ``"cw"`` or ``"ccw"`` (as seen on screen)."""
    v = params.get(key)
    if v not in ("cw", "ccw"):
        raise CaseError(f"'{key}' must be 'cw' or 'ccw', got {v!r}")
    return str(v)


def inside_grid(point: Point, grid_size: int, what: str) -> None:
    """CaseError unless ``point`` lies on the grid."""
    x, y = point
    if not (0 <= x <= grid_size - 1 and 0 <= y <= grid_size - 1):
        raise CaseError(f"{what} {tuple(point)} is outside the {grid_size}×{grid_size} grid")


def fits_grid(points: npt.ArrayLike, grid_size: int, what: str) -> None:
    """CaseError unless every point of the asked shape lies on the grid."""
    pts = np.asarray(points, dtype=float)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if lo.min() < -0.5 or hi.max() > grid_size - 0.5:
        raise CaseError(
            f"{what} does not fit the {grid_size}×{grid_size} grid: it spans x {lo[0]:.1f}..{hi[0]:.1f}, "
            f"y {lo[1]:.1f}..{hi[1]:.1f}; make it smaller or move its center"
        )
