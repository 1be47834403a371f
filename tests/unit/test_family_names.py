"""``names``: the families' entry points read once, for the plugin's markers and the registry."""

from __future__ import annotations

import importlib.metadata

import pytest

from shape_asserts.families import names, registry


def test_declared_and_the_registry_read_through_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry.entry_points is names.entry_points  # the families load from the same reading
    asked: list[str] = []

    def fake(*, group: str) -> tuple[importlib.metadata.EntryPoint, ...]:
        asked.append(group)
        return (importlib.metadata.EntryPoint("plus", "shape_plus:FAMILY", group),)

    monkeypatch.setattr(names, "entry_points", fake)
    assert names.declared() == ("plus",)
    assert asked == [names.ENTRY_POINT_GROUP]
