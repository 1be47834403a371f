"""JSON for the frozen record dataclasses (:mod:`shape_asserts.results.record`), field by field.

Plain and fast: a record holds hundreds of coordinates, so leaves are written as they are, tested
by exact type inline, and only containers recurse.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any, ClassVar

__all__ = ["Jsonable"]

#: Types written as they are: the leaves of a record (checked by exact type, the common case first).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _to_json(value: Any) -> Any:
    # leaves are tested inline in the comprehensions: a record holds hundreds of coordinates
    if type(value) in _LEAVES:
        return value
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAVES else _to_json(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {k: v if type(v) in _LEAVES else _to_json(v) for k, v in value.items()}
    return value


#: The field names of each record class :func:`_fields` met, in order (``dataclasses.fields`` is
#: most of the cost of writing a record's dozens of nested checks otherwise).
_NAMES: dict[type, tuple[str, ...]] = {}


def _fields(value: Any) -> Any:
    """What ``json.dumps`` cannot write itself: a record (its fields), or another mapping."""
    names = _NAMES.get(type(value))
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _NAMES[type(value)] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: getattr(value, name) for name in names}
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _thaw(value: Any) -> Any:
    """JSON's lists back to the record's tuples, recursively."""
    if isinstance(value, list):
        return tuple(v if type(v) in _LEAVES else _thaw(v) for v in value)
    if isinstance(value, dict):
        return {k: v if type(v) in _LEAVES else _thaw(v) for k, v in value.items()}
    return value


class Jsonable:
    """``to_json``/``from_json`` for a record dataclass, field by field.

    A field is written as it is (tuples as lists); reading turns lists back into tuples, builds
    the nested records named in ``_NESTED``, and ignores keys the record does not know.
    """

    _NESTED: ClassVar[Mapping[str, Any]] = {}

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON types (dicts, lists, strings, numbers, booleans, null)."""
        return _to_json(self)

    def to_json_text(self, **dumps: Any) -> str:
        """``json.dumps(self.to_json(), **dumps)``, the same text, written by the C encoder in one
        pass (it writes tuples as lists itself; only the nested records go through Python)."""
        return json.dumps(self, default=_fields, **dumps)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Any:
        """The record from :meth:`to_json`'s output, or from that output as JSON text."""
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, Mapping):
            raise TypeError(f"a {cls.__name__} is a JSON object, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        kwargs = {}
        for name, value in data.items():
            if name not in names:
                continue
            nested = cls._NESTED.get(name)
            kwargs[name] = tuple(nested.from_json(v) for v in value) if nested else _thaw(value)
        return cls(**kwargs)
