"""A case: one question to a model and what a good answer must satisfy (the data model)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from shape_asserts.exceptions import CaseError
from shape_asserts.families.base import Family
from shape_asserts.families.registry import get_family
from shape_asserts.geometry.raster import angle_of

if TYPE_CHECKING:
    from shape_asserts.geometry.drawing import Drawing
    from shape_asserts.geometry.score import ShapeScore

__all__ = ["Case", "CASE_ID_RE"]

#: Ids are used as file names and test ids: lowercase letters, digits, '-', '_' and '.'.
CASE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}\Z")  # \Z: "$" allows a final newline


@dataclass(frozen=True, eq=False)
class Case:
    """One question to a model and what a good answer must satisfy.

    ``family`` is the family's name (ids, fixtures, snapshots and markers use it); the loader also
    hands over the :class:`~shape_asserts.families.base.Family` it resolved (:attr:`spec`), so a
    loaded case never looks its family up again.
    """

    id: str
    family: str
    params: Mapping[str, Any]
    thresholds: Mapping[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    source: str = "builtin"
    prompts: Mapping[str, str] = field(default_factory=dict)
    #: The family object, resolved at load (``None`` for a case built by hand: looked up by name).
    resolved: Family | None = field(default=None, repr=False)
    _hashes: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def spec(self) -> Family:
        """The case's family: how it is asked, drawn ideally and scored."""
        return self.resolved if self.resolved is not None else get_family(self.family)

    def prompt(self, lang: str = "ru") -> str:
        """The prompt text in ``lang``."""
        if lang not in self.prompts:
            raise CaseError(f"case {self.id} has no prompt in {lang!r}")
        return self.prompts[lang]

    def messages(self, lang: str = "ru") -> list[dict[str, str]]:
        """Chat messages sent to the model: the prompt as one user message, as in the seed."""
        return [{"role": "user", "content": self.prompt(lang)}]

    def prompt_hash(self, lang: str = "ru") -> str:
        """SHA-256 of the exact messages sent; a recording made for other messages is stale."""
        cached = self._hashes.get(lang)
        if cached is None:
            blob = json.dumps(self.messages(lang), ensure_ascii=False, sort_keys=True)
            cached = self._hashes[lang] = hashlib.sha256(blob.encode("utf-8")).hexdigest()
        return cached

    @property
    def grid_size(self) -> int:
        return int(self.params.get("grid_size", 50))

    @property
    def variant(self) -> str:
        """What distinguishes this case inside its group (e.g. start and direction)."""
        return ", ".join(f"{k}={_show(self.params.get(k))}" for k in self.spec.variant_keys)

    @property
    def group(self) -> str:
        """Cases asking the same thing but for the variant keys share a group (for stability)."""
        keys = self.spec.variant_keys
        fixed = {k: v for k, v in self.params.items() if k not in keys and k != "seed_prompt"}
        return f"{self.family}:{json.dumps(fixed, sort_keys=True, default=str)}"

    @property
    def start_angle(self) -> float | None:
        """Polar angle of the start point about the center (degrees, :func:`angle_of`), if both are given.

        ``None`` when the case has no ``start`` and ``center`` points, or starts at its center (an
        outward spiral): such a case has no start angle for the stability chart to place it at.
        """
        start, center = _pair(self.params.get("start")), _pair(self.params.get("center"))
        if start is None or center is None or start == center:
            return None
        return round(angle_of(start, center), 1)

    @property
    def direction(self) -> str:
        """The direction of travel asked for (``cw``/``ccw``), or ``""`` when the case names none."""
        d = self.params.get("direction")
        return d if isinstance(d, str) else ""

    def ideal(self) -> np.ndarray:
        """The ideal drawing of this case, as ordered points (N, 2)."""
        return self.spec.ideal(self)

    def score(self, drawing: Drawing) -> ShapeScore:
        """Score a parsed drawing against this case."""
        # A point far outside the grid (1e300 is a finite number an answer may hold) overflows the
        # measures; the checks fail it themselves (``bounds``, ``finite``), so numpy's warnings
        # would only repeat that, once per overflow, and under ``-W error`` break the scorer.
        with np.errstate(all="ignore"):
            return self.spec.score(drawing, self)


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "(" + ",".join(_show(x) for x in v) + ")"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _pair(v: Any) -> tuple[float, float] | None:
    """``v`` as an (x, y) point when it is two numbers (a start may also be a word, such as "top")."""
    if (
        isinstance(v, (list, tuple))
        and len(v) == 2
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
    ):
        return (float(v[0]), float(v[1]))
    return None
