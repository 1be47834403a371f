"""The families' names, known without importing a family: what the pytest plugin registers as markers.

The plugin loads in every pytest run where shape-asserts is installed, most of which never ask for
a shape. It registers each family's marker (``-m circle``) from here, so such a run never imports
numpy or a family; the families themselves load when shape tests are collected
(:func:`shape_asserts.families.registry.families`). ``tests/unit/test_registry.py`` fails when
:data:`BUILTIN` and the registry's built-in families differ.
"""

from __future__ import annotations

import importlib.metadata
from importlib.metadata import EntryPoint

__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "declared", "entry_points"]

#: The built-in families' names, in registry order.
BUILTIN = (
    "circle",
    "concentric",
    "circles",
    "house",
    "stick",
    "ellipse",
    "square",
    "rectangle",
    "triangle",
    "polygon",
    "star",
    "spiral",
)

#: The entry-point group third-party distributions declare their families in.
ENTRY_POINT_GROUP = "shape_asserts.families"


def declared() -> tuple[str, ...]:
    """The names of the installed plugins' entry points, read without loading them.

    An entry point is usually named after its family, but may name a tuple of families under other
    names: those are known only once loaded.
    """
    return tuple(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))


def entry_points(*, group: str) -> tuple[EntryPoint, ...]:
    """The installed distributions' entry points in ``group`` (``importlib.metadata``'s), each with
    its ``dist``: what :func:`declared` and the registry read."""
    return tuple(importlib.metadata.entry_points(group=group))
