"""An independent catalogue of drawings: legitimate answers and their nearest impostors, per case.

Written from first principles — the prompts and the case parameters only. Nothing here imports
the project's scorers, rasterisers or reference drawers (``shape_asserts.geometry.score``, ``fit``,
``raster``, ``reference``, ``polygon``, ``contours``, ``curves``, ``checks``, ``families.*``):
a check proven only on drawings made by its own author's code proves nothing.

For every built-in case (and any user case of a known family) :func:`variants` returns

* **legitimate** variants — every reasonable way a careful person could answer that prompt on the
  integer grid (several rasterisations, 4- or 8-connected where the prompt allows, the start repeated
  at the end or not, every equally close rounding of a vertex, the styles a free scene leaves open);
* **impostors** — the nearest wrong answers (a polygon for a circle, a stretched square, a quarter
  turn too many, a missing chimney, ...), each labelled with its class.

The suite's tests require every legitimate variant to pass its case and every impostor to fail
it; ``bench/calibrate_catalogue.py`` turns the same data into the threshold table in
``docs/calibration.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["LEGIT", "IMPOSTOR", "Variant", "answer_text", "variants", "GENERATORS"]

LEGIT = "legit"
IMPOSTOR = "impostor"


@dataclass(frozen=True)
class Variant:
    """One drawing in the catalogue, meant as a model's whole answer to one case."""

    #: Unique within its case, readable in a test id: ``"midpoint-8conn-closed"``, ``"ngon-12-rot7"``.
    name: str
    #: :data:`LEGIT` or :data:`IMPOSTOR`.
    kind: str
    #: The style (legit) or the impostor class: ``"ngon"``, ``"square"``, ``"squircle"``,
    #: ``"ellipse"``, ``"size"``, ``"rotated"``, ``"sheared"``, ``"stretched"``, ``"sides"``,
    #: ``"turns"``, ``"missing-part"``, ``"misplaced-part"``, ``"head-shape"`` ...
    cls: str
    #: Integer grid points in answer order; several objects one after another in the one list, as the
    #: seed's free-scene template asks.
    points: tuple[tuple[int, int], ...]
    #: What makes it legitimate or wrong, in a few words.
    note: str = ""


def answer_text(v: Variant, grid_size: int = 50) -> str:
    """The variant as the JSON answer a model would send (the seed's format)."""
    import json

    return json.dumps({"grid_size": grid_size, "points": [{"x": int(x), "y": int(y)} for x, y in v.points]})


def _generators() -> dict[str, Callable[[Any], Iterable[Variant]]]:
    import importlib

    out: dict[str, Callable[[Any], Iterable[Variant]]] = {}
    for name in ("round_shapes", "polygons", "spirals", "scenes"):
        out.update(importlib.import_module(f"{__name__}.{name}").GENERATORS)
    return out


GENERATORS: dict[str, Callable[[Any], Iterable[Variant]]] = {}


def variants(case: Any) -> list[Variant]:
    """Every catalogue drawing for ``case`` (a ``shape_asserts.cases.Case``): legit and impostors.

    Only ``case.id``, ``case.family``, ``case.params`` and ``case.prompt(lang)`` are read.
    """
    if not GENERATORS:
        GENERATORS.update(_generators())
    out = list(GENERATORS[case.family](case))
    names = [v.name for v in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"{case.id}: duplicate variant names {dupes}")
    return out
