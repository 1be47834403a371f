"""Fixtures shared by the unit tests of the suite modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from shape_asserts.asking.store import FixtureStore
from shape_asserts.cases import Case, builtin_case_files, load_cases


def circle_cases() -> list[Case]:
    """The built-in circle cases alone (loading every family's file is slower and not needed here)."""
    (path,) = [p for p in builtin_case_files() if p.name == "circle.toml"]
    return load_cases([path], builtin=False)


@pytest.fixture(scope="module")
def case() -> Case:
    """The first built-in circle case (a test module may define its own)."""
    return circle_cases()[0]


@pytest.fixture
def store(tmp_path: Path) -> FixtureStore:
    """An empty recording store in a temporary folder."""
    return FixtureStore(tmp_path / "fixtures")
