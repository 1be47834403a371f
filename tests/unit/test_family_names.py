"""``names.entry_points``: the standard ``importlib.metadata.entry_points(group=...)``, read faster.

The plugin reads the family entry points in every pytest run (its markers), so it parses only the
distributions whose ``entry_points.txt`` names the group; what it returns must be what the standard
call returns: the same entry points, in the same order, from the same distributions.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from shape_asserts.families import names, registry


def _seen(eps: object) -> list[tuple[str, str, str, str]]:
    return [(ep.group, ep.name, ep.value, ep.dist.name if ep.dist else "") for ep in eps]  # type: ignore[attr-defined]


def _dist(site: Path, folder: str, name: str, entry_points: str | None) -> None:
    """What installing distribution ``name`` leaves on ``site`` for importlib.metadata."""
    info = site / folder
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


@pytest.mark.parametrize("group", ["pytest11", "console_scripts", names.ENTRY_POINT_GROUP, "no.such.group"])
def test_the_same_entry_points_as_the_standard_call_in_this_environment(group: str) -> None:
    assert _seen(names.entry_points(group=group)) == _seen(importlib.metadata.entry_points(group=group))


def test_this_environment_has_entry_points_to_compare() -> None:
    # (the comparison above means something only where some group has entry points)
    assert names.entry_points(group="pytest11")
    assert "shape_asserts" in [ep.name for ep in names.entry_points(group="pytest11")]


def test_a_distribution_installed_twice_counts_once_the_first_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    group = names.ENTRY_POINT_GROUP
    # the first copy declares no family; the second, later on the path, would
    _dist(first, "shape_twice-1.0.dist-info", "shape-twice", "[console_scripts]\ntwice = twice:main\n")
    _dist(second, "shape_twice-2.0.dist-info", "shape-twice", f"[{group}]\ntwice = twice:FAMILY\n")
    # the names' spelling differs between the copies; importlib.metadata takes them as one
    _dist(third, "Shape.Once-1.0.dist-info", "Shape.Once", f"[{group}]\nonce = once:FAMILY\nalso = once:OTHER\n")
    _dist(second, "shape_once-2.0.dist-info", "shape-once", f"[{group}]\nlater = once:LATER\n")
    _dist(third, "shape_bare-1.0.dist-info", "shape-bare", None)  # no entry_points.txt at all
    for site in (second, third, first):
        monkeypatch.syspath_prepend(str(site))  # on the path: first, third, second
    ours = _seen(names.entry_points(group=group))
    assert ours == _seen(importlib.metadata.entry_points(group=group))
    assert [(name, value) for _, name, value, _ in ours if value.startswith(("once", "twice"))] == [
        ("once", "once:FAMILY"),
        ("also", "once:OTHER"),
    ]


def test_the_group_named_elsewhere_in_the_file_is_no_entry_point_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = names.ENTRY_POINT_GROUP
    _dist(tmp_path, "shape_mention-1.0.dist-info", "shape-mention", f"[console_scripts]\n{group} = {group}.cli:main\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [ep for ep in names.entry_points(group=group) if ep.dist and ep.dist.name == "shape-mention"] == []
    assert _seen(names.entry_points(group="console_scripts")) == _seen(
        importlib.metadata.entry_points(group="console_scripts")
    )


def test_declared_and_the_registry_read_through_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry.entry_points is names.entry_points  # the families load from the same reading
    asked: list[str] = []

    def fake(*, group: str) -> tuple[importlib.metadata.EntryPoint, ...]:
        asked.append(group)
        return (importlib.metadata.EntryPoint("plus", "shape_plus:FAMILY", group),)

    monkeypatch.setattr(names, "entry_points", fake)
    assert names.declared() == ("plus",)
    assert asked == [names.ENTRY_POINT_GROUP]
