"""The registry of shape families: name → :class:`~shape_asserts.families.base.Family`.

A family says how a case's parameters become a prompt, an ideal drawing and a score; each lives in
its own module under ``shape_asserts/families/``. Adding a family means writing that module and
adding it to :data:`FAMILIES` below.
"""

from __future__ import annotations

from shape_asserts.exceptions import CaseError
from shape_asserts.families import circle, ellipse, multi, polygon, scene, spiral
from shape_asserts.families.base import Family

__all__ = ["Family", "FAMILIES", "get_family"]

FAMILIES: dict[str, Family] = {
    f.name: f for module in (circle, multi, scene, ellipse, polygon, spiral) for f in module.FAMILIES
}


def get_family(name: str) -> Family:
    """The family called ``name``; ``CaseError`` listing the known ones otherwise."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise CaseError(f"unknown shape family {name!r}; known: {', '.join(sorted(FAMILIES))}") from None
