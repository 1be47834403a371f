"""A case file's ``[[matrix]]`` tables → one raw case table per combination.

A matrix names a family, fixed parameters, and either lists of start ``angles`` and
``directions`` (a circle's start points, placed on the circle of ``center`` and ``radius``) or a
``vary`` table — each key a list of values, or a table of ``label = value`` — expanding into the
cartesian product. Both together place the start points around each combination's circle (the
benchmark's centers × radii × angles × directions); ``ask_radius = true`` then names the radius in
the prompt, so cases of another radius are another question (and another stability group). Each
combination's id comes from the matrix's ``id`` template.

Both are bounded before anything is built: a matrix stands for at most :data:`MAX_MATRIX_CASES`
cases, and its template may name fields (``{angle:03d}``, ``{direction}``, a parameter or a
``vary`` key) with widths and precisions of at most :data:`MAX_TEMPLATE_WIDTH` — an id is at most
100 characters, and ``{angle:999999999}`` would otherwise build a gigabyte string, or raise a bare
``MemoryError``.
"""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Iterable, Mapping
from typing import Any

from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.raster import point_on_circle

__all__ = ["expand_matrix", "MAX_MATRIX_CASES", "MAX_TEMPLATE_WIDTH"]

#: Most cases one ``[[matrix]]`` may stand for (the built-in files' largest has 24).
MAX_MATRIX_CASES = 10_000
#: Largest width or precision in an id template's format spec (ids are at most 100 characters).
MAX_TEMPLATE_WIDTH = 100

_NUMBERS = re.compile(r"\d+")


def _check_template(template: str, where: str) -> None:
    """CaseError unless every field of the id template is a plain name with a small format spec."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise CaseError(f"{where}: id template {template!r}: {exc}") from None
    for _, name, spec, _ in fields:
        if name is None:
            continue
        if not name.isidentifier():
            raise CaseError(
                f"{where}: id template {template!r}: field {{{name}}} must be a plain name such as "
                "{angle}, {direction}, a parameter or a 'vary' key"
            )
        too_wide = [n for n in _NUMBERS.findall(spec or "") if len(n) > 3 or int(n) > MAX_TEMPLATE_WIDTH]
        if "{" in (spec or "") or too_wide:
            raise CaseError(
                f"{where}: id template {template!r}: format spec {spec!r} of {{{name}}} must be plain, "
                f"with widths of at most {MAX_TEMPLATE_WIDTH} (an id is at most 100 characters)"
            )


def _check_count(count: int, where: str) -> None:
    if count > MAX_MATRIX_CASES:
        raise CaseError(
            f"{where}: stands for {count:,} cases, more than the {MAX_MATRIX_CASES:,} a matrix may; "
            "split it, or vary fewer values"
        )


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_finite(v: Any) -> bool:
    """A number that places a point: not inf, not nan (TOML writes both)."""
    return _is_number(v) and math.isfinite(v)


def expand_matrix(raw: Mapping[str, Any], source: str) -> Iterable[dict[str, Any]]:
    """The raw case tables a ``[[matrix]]`` table stands for, in order (ids filled in)."""
    template = raw.get("id")
    if not isinstance(template, str):
        raise CaseError(
            f"{source}: a [[matrix]] needs an 'id' template such as 'circle-start{{angle:03d}}-{{direction}}'"
        )
    _check_template(template, f"{source}: matrix")
    if "vary" in raw and "angles" not in raw and "directions" not in raw:
        yield from _expand_vary(raw, template, source)
        return
    if "vary" in raw:  # start points around each varied circle (center, radius, ...)
        for combo, labels in _combinations(raw, template, source):
            yield from _expand_angles(combo, template, source, labels)
        return
    yield from _expand_angles(raw, template, source, {})


def _expand_angles(
    raw: Mapping[str, Any], template: str, source: str, labels: Mapping[str, Any]
) -> Iterable[dict[str, Any]]:
    """Start points every listed angle on the circle of ``center`` and ``radius``, in each direction."""
    where = f"{source}: matrix {template}"
    angles = raw.get("angles") or []
    directions = raw.get("directions") or ["cw"]
    if "center" not in raw or "radius" not in raw:
        raise CaseError(f"{where}: needs 'center' and 'radius' to place start points")
    center, radius = raw["center"], raw["radius"]
    # checked here: the start points are placed before the family sees the parameters
    if not (isinstance(center, (list, tuple)) and len(center) == 2 and all(_is_finite(c) for c in center)):
        raise CaseError(f"{where}: 'center' must be [x, y] finite numbers, got {center!r}")
    if not _is_finite(radius):
        raise CaseError(f"{where}: 'radius' must be a finite number, got {radius!r}")
    if not isinstance(angles, list) or not all(_is_finite(a) for a in angles):
        raise CaseError(f"{where}: 'angles' must be a list of numbers (degrees), got {angles!r}")
    if not isinstance(directions, list) or not all(isinstance(d, str) for d in directions):
        raise CaseError(f'{where}: \'directions\' must be a list such as ["cw", "ccw"], got {directions!r}')
    _check_count(len(angles) * len(directions), where)
    ask_radius = raw.get("ask_radius", False)
    if not isinstance(ask_radius, bool):
        raise CaseError(f"{where}: 'ask_radius' must be true or false, got {ask_radius!r}")
    # the radius only places the start points: the prompt lets the model choose it, as the seed
    # does — unless ask_radius, when the prompt names it (and cases of other radii are other groups)
    dropped = ("angles", "directions", "id", "ask_radius") + (() if ask_radius else ("radius",))
    base = {k: v for k, v in raw.items() if k not in dropped}
    scalars = {k: v for k, v in raw.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    for angle in angles:
        for direction in directions:
            case = dict(base)
            case["start"] = list(point_on_circle(tuple(center), radius, angle))
            case["direction"] = direction
            try:
                case["id"] = template.format(**{**scalars, **labels, "angle": int(angle), "direction": direction})
            except (KeyError, ValueError, IndexError) as exc:
                raise CaseError(f"{source}: matrix id template {template!r}: {exc}") from None
            yield case


def _label(value: Any, where: str) -> Any:
    """How a varied value appears in an id: itself if scalar, numbers joined by '-' if a list."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, list) and value and all(_is_number(x) for x in value):
        return "-".join(str(_label(x, where)) for x in value)
    raise CaseError(
        f"{where}: value {value!r} has no name for the id; give the list as a table "
        "of label = value, e.g. {{ tl = [10, 10] }}"
    )


def _combinations(
    raw: Mapping[str, Any], template: str, source: str
) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
    """A matrix's ``vary`` table → each combination of its values (cartesian product), with the labels."""
    where = f"{source}: matrix {template}"
    vary = raw["vary"]
    if not isinstance(vary, dict) or not vary:
        raise CaseError(f"{where}: 'vary' must be a table of lists or of label = value tables")
    axes: list[tuple[str, list[tuple[Any, Any]]]] = []
    for name, values in vary.items():
        if isinstance(values, dict):
            options = [(label, value) for label, value in values.items()]
        elif isinstance(values, list):
            options = [(_label(value, f"{where}: vary.{name}"), value) for value in values]
        else:
            raise CaseError(f"{where}: vary.{name} must be a list or a table of label = value, got {values!r}")
        if not options:
            raise CaseError(f"{where}: vary.{name} is empty")
        if "angles" in raw and name in ("start", "direction", "angle"):
            raise CaseError(f"{where}: vary.{name} is placed by 'angles'/'directions'; vary other keys")
        axes.append((name, options))
    per = 1  # start points per combination, when 'angles'/'directions' place them around each
    if isinstance(raw.get("angles"), list) and isinstance(raw.get("directions", ["cw"]), list):
        per = max(1, len(raw["angles"])) * max(1, len(raw.get("directions", ["cw"])))
    _check_count(math.prod(len(options) for _, options in axes) * per, where)
    base = {k: v for k, v in raw.items() if k not in ("vary",)}
    for combo in itertools.product(*(options for _, options in axes)):
        case = dict(base)
        labels = {}
        for (name, _), (label, value) in zip(axes, combo):
            case[name] = value
            labels[name] = label
        yield case, labels


def _expand_vary(raw: Mapping[str, Any], template: str, source: str) -> Iterable[dict[str, Any]]:
    """A matrix's ``vary`` table → one case per combination of its values (cartesian product)."""
    scalars = {k: v for k, v in raw.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    for case, labels in _combinations(raw, template, source):
        del case["id"]
        try:
            case["id"] = template.format(**{**scalars, **labels})
        except (KeyError, ValueError, IndexError) as exc:
            raise CaseError(f"{source}: matrix id template {template!r}: {exc!r}") from None
        yield case
