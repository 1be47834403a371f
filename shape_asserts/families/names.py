"""The families' names, known without importing a family: what the pytest plugin registers as markers.

The plugin loads in every pytest run where shape-asserts is installed, most of which never ask for
a shape. It registers each family's marker (``-m circle``) from here, so such a run never imports
numpy or a family; the families themselves load when shape tests are collected
(:func:`shape_asserts.families.registry.families`). ``tests/unit/test_registry.py`` fails when
:data:`BUILTIN` and the registry's built-in families differ.
"""

from __future__ import annotations

import re
from importlib.metadata import Distribution, EntryPoint, distributions

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
    """``importlib.metadata.entry_points(group=group)``: the same entry points, in the same order,
    from the same distributions (a distribution installed twice counts once, the first on
    ``sys.path``), each with its ``dist``.

    The plugin asks this in every pytest run (:func:`declared`), where the environment's other
    distributions (a hundred or more) declare no family: their ``entry_points.txt`` is read but
    parsed only when it names the group (the standard call parses every one, and works out every
    distribution's name to count it once: here only a distribution naming the group needs its name).
    ``tests/unit/test_family_names.py`` holds it to the standard call.
    """
    found: list[EntryPoint] = []
    before: list[Distribution] = []
    names: dict[int, str] = {}  # the normalized names worked out, by place (only when one is needed)

    def name_at(i: int) -> str:
        if i not in names:
            names[i] = _normalized_name(before[i])
        return names[i]

    for dist in distributions():
        before.append(dist)
        text = dist.read_text("entry_points.txt")
        if not text or group not in text:
            continue
        # counted once: only when no distribution before it has the same name (its names are worked
        # out here alone, so the usual environment, where none names the group, works out none)
        at = len(before) - 1
        if any(name_at(i) == name_at(at) for i in range(at)):
            continue
        found += [ep for ep in dist.entry_points if ep.group == group]
    return tuple(found)


def _normalized_name(dist: Distribution) -> str:
    """The distribution's name as ``importlib.metadata`` tells two installations of it apart: from
    its folder's name where it has one (no metadata read), else from its metadata."""
    name = getattr(dist, "_normalized_name", None)  # (PathDistribution's: what the standard call uses)
    if isinstance(name, str):
        return name
    return re.sub(r"[-_.]+", "_", str(dist.metadata["Name"] or "")).lower()
