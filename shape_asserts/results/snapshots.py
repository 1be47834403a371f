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

syrupy relates a snapshot file to its test by the test file's name (``test_shapes.ambr``, or a folder
``test_shapes/``) and the snapshot's name to the test's name, and warns ("Can not relate snapshot
location ...", "... snapshot name ...") for every file it writes that does not follow that layout.
Ours is named by model, family and case on purpose, wherever ``--snapshots-dir`` points, so the
extension silences exactly those two warnings around its writes (:data:`UNRELATED_WARNINGS`):
a benchmark's ``--snapshot-update`` once printed two per test, 6,240 for a run of 3,120 tests.
"""

from __future__ import annotations

import warnings
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from syrupy.extensions.json import JSONSnapshotExtension

from shape_asserts.asking.store import DEFAULT_LANG, model_slug
from shape_asserts.fileio import NotAFileError, not_a_file, read_text

__all__ = ["snapshot_folder", "family_folder", "extension_for", "plain_json_text", "UNRELATED_WARNINGS"]

#: The start of syrupy's warnings for a snapshot whose file or name does not carry its test's:
#: both are by design here (see the module docstring), so they are silenced around our writes only.
UNRELATED_WARNINGS = r"\s*Can not relate snapshot (location|name) "

#: Deeper than this, syrupy writes an ellipsis; the fast form leaves such data to syrupy.
_MAX_DEPTH = 50


class _NotPlain(Exception):
    """The data holds something other than JSON's own types: syrupy's serializer decides."""


def plain_json_text(data: Any) -> str:
    """The text syrupy's JSON extension writes for ``data``, made without its per-value filter.

    syrupy's ``serialize`` first copies the data through a recursive filter (sorting each dict's
    keys, turning tuples into lists), then encodes it with ``json.dumps(indent=2)``, whose indented
    form is CPython's pure-Python encoder: ~0.3 ms per case summary, a fifth of a replayed test's
    own time. A summary is JSON's own types only (dicts with string keys, lists and tuples, strings,
    bools, ints, floats, None), and for those this writes the same text in one pass.

    Raises
    ------
    _NotPlain
        Anything else (a namedtuple, a set, an object, a non-string key, deeper than
        ``_MAX_DEPTH``): the caller lets syrupy serialize it.
    """
    out: list[str] = []
    _write(data, "\n", 0, out)
    out.append("\n")
    return "".join(out)


def _write(data: Any, newline: str, depth: int, out: list[str]) -> None:
    kind = type(data)  # exact types: a subclass (a namedtuple, a numpy float) is syrupy's to write
    if kind is str:
        out.append(encode_basestring(data))
    elif data is None:
        out.append("null")
    elif data is True:
        out.append("true")
    elif data is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(data))
    elif kind is float:
        if data != data:
            out.append("NaN")
        elif data in (float("inf"), float("-inf")):
            out.append("Infinity" if data > 0 else "-Infinity")
        else:
            out.append(float.__repr__(data))
    elif depth >= _MAX_DEPTH:
        raise _NotPlain
    elif kind is dict:
        if not data:
            out.append("{}")
            return
        try:
            keys = sorted(data)  # syrupy sorts a plain dict's keys
        except TypeError:
            raise _NotPlain from None
        inner = newline + "  "
        out.append("{")
        sep = inner
        for key in keys:
            if type(key) is not str:
                raise _NotPlain
            out.append(sep)
            out.append(encode_basestring(key))
            out.append(": ")
            _write(data[key], inner, depth + 1, out)
            sep = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not data:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[")
        sep = inner
        for value in data:
            out.append(sep)
            _write(value, inner, depth + 1, out)
            sep = "," + inner
        out.append(newline + "]")
    else:
        raise _NotPlain


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


#: The largest snapshot file read (a case's summary is a few kilobytes).
MAX_SNAPSHOT_BYTES = 4 * 2**20


def extension_for(folder: Path, family: str, case_id: str, *, plain: bool = False) -> type:
    """A syrupy extension class writing ``<folder>/<family>/<case-id>.json``.

    ``plain``: the assertion using it has no ``include``, ``exclude`` or ``matcher`` of its own
    (the plugin's has none unless a user's ``snapshot`` fixture adds them), so the text of plain
    JSON data is written by :func:`plain_json_text`. syrupy still passes its own matcher, which
    only swaps a ``SnapshotAssertion`` found inside the data for its repr: plain data has none.
    """
    key = f"{folder}/{family}/{plain}"
    cls = _CLASSES.get(key)
    if cls is None:
        target = str(Path(folder) / family)

        class ShapeSnapshotExtension(JSONSnapshotExtension):
            @classmethod
            def dirname(cls, *, test_location: Any) -> str:
                return target

            def serialize(self, data: Any, **kwargs: Any) -> Any:
                if plain:
                    try:
                        return plain_json_text(data)
                    except _NotPlain:
                        pass
                return super().serialize(data, **kwargs)

            def read_snapshot_data_from_location(
                self, *, snapshot_location: str, snapshot_name: str, session_id: str
            ) -> Any:
                # only a regular file, to a bound: a pipe in the folder waited for ever, a link to
                # /dev/zero read until memory ran out; either is a snapshot that does not match
                try:
                    return read_text(Path(snapshot_location), MAX_SNAPSHOT_BYTES)
                except FileNotFoundError:
                    return None
                except (OSError, UnicodeDecodeError) as exc:
                    return f"(no snapshot read from {snapshot_location}: {exc})"

            @classmethod
            def write_snapshot(cls, **kwargs: Any) -> None:
                why = not_a_file(Path(str(kwargs.get("snapshot_location", ""))))
                if why:  # (writing a pipe waits for a reader)
                    raise NotAFileError(f"snapshot {kwargs.get('snapshot_location')}: {why}; delete it")
                # syrupy names no way to relate our layout to the test: its two warnings are
                # silenced here, for our files only (anything else it warns about still shows)
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", message=UNRELATED_WARNINGS, category=UserWarning)
                    super().write_snapshot(**kwargs)

            @classmethod
            def get_snapshot_name(cls, *, test_location: Any, index: Any = 0) -> str:
                # the case id sits in the test's callspec; see plugin.shape_case
                return str(test_location.item.callspec.params["shape_case"].case.id)

        _CLASSES[key] = cls = ShapeSnapshotExtension
    return cls
