"""The snapshot extension's own JSON text is byte for byte the text syrupy's JSON extension writes.

Snapshots on disk were written by syrupy; if the fast form wrote one byte differently, every
snapshot would read as changed. These tests compare against the installed syrupy, so a syrupy
release that changes its format fails here, not in a user's run.
"""

from __future__ import annotations

import collections
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from syrupy.extensions.json import JSONSnapshotExtension

from shape_asserts.cases import load_cases
from shape_asserts.results.snapshots import _NotPlain, extension_for, plain_json_text
from shape_asserts.results.verdict import judge

SYRUPY = JSONSnapshotExtension()

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
plain = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(plain)
def test_plain_data_is_written_as_syrupy_writes_it(data: Any) -> None:
    assert plain_json_text(data) == SYRUPY.serialize(data)


@pytest.mark.parametrize(
    "data",
    [
        {"a": -0.0, "b": math.inf, "c": -math.inf, "d": math.nan, "e": 5e-324, "f": 1e308, "g": 10**30},
        {"nested": {"empty_list": [], "empty_dict": {}, "tuple": (1, (2, 3))}},
        {"é": 'naïve \n \t \x00 \u2028 "quoted" \\', "z": "", "a": True, "b": False, "c": None},
        [],
        {},
        "text",
    ],
)
def test_edges_are_written_as_syrupy_writes_them(data: Any) -> None:
    assert plain_json_text(data) == SYRUPY.serialize(data)


Point = collections.namedtuple("Point", "y x")


@pytest.mark.parametrize(
    "data",
    [
        {"p": Point(1, 2)},  # syrupy writes a namedtuple as a dict, its fields sorted
        {"s": {3, 1, 2}},  # a set, sorted
        {1: "a", "b": 2},  # a key that is not a string: syrupy drops it
        {"v": True.__class__},  # an object: its repr
        {"f": type("F", (float,), {})(1.5)},  # a float subclass
    ],
)
def test_anything_else_is_left_to_syrupy(data: Any, tmp_path: Path) -> None:
    with pytest.raises(_NotPlain):
        plain_json_text(data)
    ext = extension_for(tmp_path, "circle", "c", plain=True)
    assert ext().serialize(data) == SYRUPY.serialize(data)


def test_a_cycle_is_left_to_syrupy(tmp_path: Path) -> None:
    data: dict[str, Any] = {"a": [1]}
    data["a"].append(data)
    with pytest.raises(_NotPlain):
        plain_json_text(data)
    assert extension_for(tmp_path, "circle", "c", plain=True)().serialize(data) == SYRUPY.serialize(data)


def test_an_assertion_with_a_filter_of_its_own_is_left_to_syrupy(tmp_path: Path) -> None:
    data = {"keep": 1, "drop": 2}
    ext = extension_for(tmp_path, "circle", "c", plain=False)()

    def exclude(*, prop: Any, path: Any) -> bool:
        return prop == "drop"

    assert ext.serialize(data, exclude=exclude) == SYRUPY.serialize(data, exclude=exclude) == '{\n  "keep": 1\n}\n'


def test_every_builtin_case_summary_is_written_as_syrupy_writes_it() -> None:
    """What the snapshots actually hold: each built-in case's ideal answer, and a broken one."""
    for case in load_cases():
        points = ",".join(f'{{"x": {x:g}, "y": {y:g}}}' for x, y in case.ideal())
        for answer in ('{"points": [' + points + "]}", "no drawing here"):
            summary = judge(case, "m", [answer], 1.0).summary()
            assert plain_json_text(summary) == SYRUPY.serialize(summary), case.id


def test_a_snapshot_that_is_no_regular_file_is_read_as_no_match_and_never_written(tmp_path):
    """A pipe in the snapshots folder waited for ever; a link to /dev/zero read until memory ran out.
    Each reads as a snapshot that does not match, and --snapshot-update refuses to write it."""
    import os

    ext = extension_for(tmp_path, "circle", "c1")()
    fifo = tmp_path / "c1.json"
    os.mkfifo(fifo)
    said = ext.read_snapshot_data_from_location(snapshot_location=str(fifo), snapshot_name="c1", session_id="s")
    assert "not a regular file" in said
    zero = tmp_path / "c2.json"
    zero.symlink_to("/dev/zero")
    said = ext.read_snapshot_data_from_location(snapshot_location=str(zero), snapshot_name="c2", session_id="s")
    assert "not a regular file" in said
    with pytest.raises(OSError, match="not a regular file"):
        type(ext).write_snapshot(snapshot_location=str(fifo), snapshots=[])
