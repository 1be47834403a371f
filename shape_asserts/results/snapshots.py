"""Snapshots: syrupy pins each case's result summary as JSON under ``snapshots/``.

Layout: ``snapshots/<model-slug>[.<lang>][.x<samples>]/<family>/<case-id>.json`` — one folder per
model (and per language or sample count other than the defaults, since those change the results),
one file per case, so a change of scorer or of recorded answers is a small reviewable diff. The
benchmark matrix's cases (tagged ``benchmark``, run with ``-m benchmark``) sit apart, in
``<model-slug>/benchmark/<family>/``: syrupy takes every file in a folder it writes to that no test
of the run used for unused, so a default ``--snapshot-update`` (which does not build the benchmark's
cases) would otherwise delete theirs.

A model (or variant) whose folder does not exist has no snapshots: its results are not compared,
which is not an error; ``pytest --snapshot-update`` creates them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from syrupy.extensions.json import JSONSnapshotExtension

from shape_asserts.asking.store import DEFAULT_LANG, model_slug

__all__ = ["snapshot_folder", "family_folder", "extension_for"]

_CLASSES: dict[str, type] = {}


def snapshot_folder(root: Path, model: str, lang: str, samples: int) -> Path:
    """The folder holding one model's (and variant's) snapshots."""
    name = model_slug(model)
    if lang != DEFAULT_LANG:
        name += f".{lang}"
    if samples != 1:
        name += f".x{samples}"
    return Path(root) / name


def family_folder(case: Any) -> str:
    """The folder of a case's snapshot under its model's: its family's, the benchmark's apart."""
    return f"benchmark/{case.family}" if "benchmark" in case.tags else str(case.family)


def extension_for(folder: Path, family: str, case_id: str) -> type:
    """A syrupy extension class writing ``<folder>/<family>/<case-id>.json``."""
    key = f"{folder}/{family}"
    cls = _CLASSES.get(key)
    if cls is None:
        target = str(Path(folder) / family)

        class ShapeSnapshotExtension(JSONSnapshotExtension):
            @classmethod
            def dirname(cls, *, test_location: Any) -> str:
                return target

            @classmethod
            def get_snapshot_name(cls, *, test_location: Any, index: Any = 0) -> str:
                # the case id sits in the test's callspec; see plugin.shape_case
                return str(test_location.item.callspec.params["shape_case"].case.id)

        _CLASSES[key] = cls = ShapeSnapshotExtension
    return cls
