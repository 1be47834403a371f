"""The registry of shape families: name → :class:`~shape_asserts.families.base.Family`.

A family says how a case's parameters become a prompt, an ideal drawing and a score. The built-in
ones live in this package, one module each, every module exporting ``FAMILIES`` (a tuple of
:class:`Family`); :data:`BUILTIN_MODULES` lists them, and :mod:`~shape_asserts.families.names`
their names (for the plugin's markers, without importing them).

Third-party families: the ``shape_asserts.families`` entry-point group
-----------------------------------------------------------------------
Any installed distribution may add families by declaring an entry point in the group
:data:`ENTRY_POINT_GROUP`; the object it names is a :class:`Family` or a tuple (or list) of them::

    # the plugin's pyproject.toml
    [project.entry-points."shape_asserts.families"]
    plus = "shape_plus:FAMILY"

After ``pip install``, the family's name is a family like any other: case files may use it
(``family = "plus"``), ``pytest -m plus`` selects its cases, and the end-of-run summary has a row
for it. ``examples/plus-family/`` in the repository is a worked example.

The entry points are loaded once, the first time :func:`families` (or :func:`get_family`) is
asked, and checked: a plugin that fails to import, names something that is not a family, uses a
name that is not a usable marker, or clashes with a built-in family or another plugin's family is
a :class:`~shape_asserts.exceptions.CaseError` naming the distribution and what to do (the pytest
plugin reports it as an error when it collects shape tests, the first time a run needs a family).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import is_dataclass
from types import MappingProxyType
from typing import Any

from shape_asserts.exceptions import CaseError
from shape_asserts.families import circle, ellipse, multi, polygon, scene, spiral
from shape_asserts.families.base import Family
from shape_asserts.families.names import ENTRY_POINT_GROUP, entry_points

__all__ = ["Family", "ENTRY_POINT_GROUP", "BUILTIN_MODULES", "families", "get_family", "load_families"]

#: The modules of the built-in families, in registry order.
BUILTIN_MODULES = (circle, multi, scene, ellipse, polygon, spiral)

#: A family's name is its pytest marker (``-m plus``) and appears in fixture paths and test ids.
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")

#: Marker names a family may not take: the suite's own, and pytest's built-in ones.
RESERVED_NAMES = frozenset(
    {
        "shape",
        "seed",
        "skip",
        "skipif",
        "xfail",
        "parametrize",
        "usefixtures",
        "filterwarnings",
        "tryfirst",
        "trylast",
    }
)


def _dist(ep: Any) -> str:
    """The name of the distribution that declares an entry point."""
    return getattr(getattr(ep, "dist", None), "name", None) or "<unknown distribution>"


def _origin(ep: Any) -> str:
    """How to name an entry point to a user: its distribution, and what it points at."""
    return f"the entry point {ep.name!r} = {ep.value!r} of {_dist(ep)} (group {ENTRY_POINT_GROUP!r})"


def _fix(ep: Any) -> str:
    """What the user can do about a broken plugin."""
    return f"fix it, or uninstall it (pip uninstall {_dist(ep)})"


def _loaded(ep: Any) -> tuple[Family, ...]:
    """The families an entry point names, or CaseError saying which plugin is broken and how."""
    fix = _fix(ep)
    try:
        obj = ep.load()
    except Exception as exc:
        raise CaseError(
            f"shape family plugin: {_origin(ep)} failed to load: {type(exc).__name__}: {exc}; {fix}"
        ) from None
    found = tuple(obj) if isinstance(obj, (tuple, list)) else (obj,)
    wrong = [f for f in found if not isinstance(f, Family)]
    if wrong or not found:
        got = type(wrong[0]).__name__ if wrong else "an empty sequence"
        raise CaseError(
            f"shape family plugin: {_origin(ep)} must name a shape_asserts Family or a tuple of them, got {got}; {fix}"
        )
    return found


def _check(family: Family, origin: str, fix: str) -> None:
    """CaseError unless ``family`` keeps the contract the cases, plugin and summary rely on."""
    if not isinstance(family.name, str) or not NAME_RE.match(family.name) or family.name in RESERVED_NAMES:
        raise CaseError(
            f"shape family plugin: {origin} has a family named {family.name!r}: a name must match "
            f"{NAME_RE.pattern} (it is the family's pytest marker) and not be one of "
            f"{', '.join(sorted(RESERVED_NAMES))}; {fix}"
        )
    for part in ("params", "prompt", "ideal", "score"):
        if not callable(getattr(family, part)):
            raise CaseError(
                f"shape family plugin: {origin}: family {family.name!r} has a {part} that is not callable; {fix}"
            )
    keys = family.variant_keys
    if not isinstance(keys, tuple) or not all(isinstance(k, str) for k in keys):
        raise CaseError(
            f"shape family plugin: {origin}: family {family.name!r} must give its variant_keys as "
            f"a tuple of parameter names, got {keys!r}; {fix}"
        )
    limits = family.thresholds
    if limits is not None and (isinstance(limits, type) or not is_dataclass(limits)):
        raise CaseError(
            f"shape family plugin: {origin}: family {family.name!r} must give its thresholds as an "
            f"instance of a frozen dataclass (the defaults), got {limits!r}; {fix}"
        )


def load_families(plugins: Iterable[Any] = ()) -> Mapping[str, Family]:
    """The built-in families, then those of the entry points ``plugins``, by name (read-only).

    ``plugins`` are :class:`importlib.metadata.EntryPoint` objects (anything with ``name``,
    ``value``, ``dist`` and ``load()``). Raises :class:`CaseError` naming the distribution for a
    plugin that does not load, names no family, breaks the contract or reuses a taken name.
    """
    found: dict[str, Family] = {}
    owner: dict[str, str] = {}
    for module in BUILTIN_MODULES:
        for family in module.FAMILIES:
            found[family.name] = family
            owner[family.name] = "shape-asserts (built in)"
    for ep in plugins:
        origin, fix = _origin(ep), _fix(ep)
        for family in _loaded(ep):
            _check(family, origin, fix)
            if family.name in found:
                raise CaseError(
                    f"shape family plugin: {origin} adds a family named {family.name!r}, which "
                    f"{owner[family.name]} already has; rename one of them, or uninstall one "
                    f"(pip uninstall {_dist(ep)})"
                )
            found[family.name] = family
            owner[family.name] = origin
    return MappingProxyType(found)


@functools.cache
def families() -> Mapping[str, Family]:
    """Every family of this installation by name: built in, then from installed plugins.

    Loaded on first use and kept (entry points are read once per process).
    """
    return load_families(entry_points(group=ENTRY_POINT_GROUP))


def get_family(name: str) -> Family:
    """The family called ``name``; ``CaseError`` listing the known ones otherwise."""
    known = families()
    try:
        return known[name]
    except KeyError:
        raise CaseError(f"unknown shape family {name!r}; known: {', '.join(sorted(known))}") from None
