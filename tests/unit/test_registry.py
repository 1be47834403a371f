"""registry: the built-in families, and third-party ones from the ``shape_asserts.families`` group."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

import pytest

from shape_asserts.exceptions import CaseError
from shape_asserts.families import names, registry
from shape_asserts.families.registry import ENTRY_POINT_GROUP, families, get_family, load_families

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
#: A well-formed family to rename and break: the circle's parts under another name.
PLUS = replace(get_family("circle"), name="plus")


@dataclass
class FakeEntryPoint:
    """What importlib.metadata gives for one entry point of an installed distribution."""

    name: str
    value: str
    target: Any
    dist_name: str = "shape-asserts-plus"

    @property
    def dist(self) -> SimpleNamespace:
        return SimpleNamespace(name=self.dist_name)

    def load(self) -> Any:
        if isinstance(self.target, BaseException):
            raise self.target
        return self.target


def _error(*plugins: FakeEntryPoint) -> str:
    with pytest.raises(CaseError) as info:
        load_families(plugins)
    return str(info.value)


def test_the_builtin_families_come_first_in_module_order():
    assert tuple(load_families()) == BUILTIN


def test_a_plugin_family_is_added_after_the_builtin_ones():
    found = load_families([FakeEntryPoint("plus", "shape_plus:FAMILY", PLUS)])
    assert tuple(found) == (*BUILTIN, "plus") and found["plus"] is PLUS


def test_an_entry_point_may_name_a_tuple_of_families():
    cross = replace(PLUS, name="cross")
    found = load_families([FakeEntryPoint("crosses", "shape_plus:FAMILIES", (PLUS, cross))])
    assert list(found)[-2:] == ["plus", "cross"]


def test_the_registry_is_read_only():
    with pytest.raises(TypeError):
        load_families()["plus"] = PLUS  # type: ignore[index]


def test_a_plugin_that_fails_to_import_names_its_distribution_and_the_fix():
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", ModuleNotFoundError("No module named 'shape_plus'")))
    assert "'plus' = 'shape_plus:FAMILY' of shape-asserts-plus" in message
    assert ENTRY_POINT_GROUP in message
    assert "failed to load: ModuleNotFoundError: No module named 'shape_plus'" in message
    assert "pip uninstall shape-asserts-plus" in message


@pytest.mark.parametrize("target, got", [("plus", "str"), ((PLUS, 3), "int"), ((), "an empty sequence")])
def test_an_entry_point_naming_something_else_than_families_is_an_error(target, got):
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", target))
    assert "must name a shape_asserts Family or a tuple of them" in message and f"got {got}" in message
    assert "shape-asserts-plus" in message


def test_a_plugin_family_named_like_a_builtin_one_is_an_error_naming_both():
    message = _error(FakeEntryPoint("circle", "shape_plus:CIRCLE", replace(PLUS, name="circle")))
    assert "a family named 'circle', which shape-asserts (built in) already has" in message
    assert "shape-asserts-plus" in message and "rename one of them" in message


def test_two_plugins_with_one_family_name_is_an_error_naming_both_distributions():
    first = FakeEntryPoint("plus", "shape_plus:FAMILY", PLUS)
    second = FakeEntryPoint("plus", "other_plus:FAMILY", PLUS, dist_name="other-plus")
    message = _error(first, second)
    assert "of other-plus" in message and "of shape-asserts-plus" in message


@pytest.mark.parametrize("name", ["Plus", "plus-sign", "", "skip", "shape", "seed", "9lives"])
def test_a_family_name_that_cannot_be_a_marker_is_an_error(name):
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", replace(PLUS, name=name)))
    assert f"a family named {name!r}" in message and "pytest marker" in message


def test_a_family_whose_score_is_not_callable_is_an_error():
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", replace(PLUS, score=None)))
    assert "family 'plus' has a score that is not callable" in message


def test_thresholds_given_as_a_class_instead_of_its_defaults_is_an_error():
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", replace(PLUS, thresholds=type(PLUS.thresholds))))
    assert "thresholds as an instance of a frozen dataclass" in message


def test_variant_keys_must_be_a_tuple_of_names():
    message = _error(FakeEntryPoint("plus", "shape_plus:FAMILY", replace(PLUS, variant_keys="direction")))
    assert "variant_keys" in message and "'direction'" in message


@pytest.fixture
def plugin_installed(monkeypatch):
    """``families()`` reading a fake installed plugin (the cache cleared before and after)."""
    seen = []

    def fake_entry_points(*, group):
        seen.append(group)
        return [FakeEntryPoint("plus", "shape_plus:FAMILY", PLUS)]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    families.cache_clear()
    yield seen
    families.cache_clear()


def test_families_reads_the_entry_point_group_once(plugin_installed):
    assert families() is families()
    assert "plus" in families() and plugin_installed == [ENTRY_POINT_GROUP]


def test_get_family_finds_a_plugin_family_and_lists_it_among_the_known(plugin_installed):
    assert get_family("plus") is PLUS
    with pytest.raises(CaseError, match=r"unknown shape family 'hexagon'; known: .*plus"):
        get_family("hexagon")


def test_the_names_the_plugin_registers_as_markers_are_the_builtin_families():
    """``families.names`` is read without importing a family: it must list the registry's own."""
    assert tuple(load_families()) == names.BUILTIN
