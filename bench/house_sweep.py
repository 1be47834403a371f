"""Fair houses against the house checks, and hip roofs against the ``gable`` check, per asked area.

Run: ``.venv/bin/python bench/house_sweep.py`` (about 3 minutes; ``--n 200`` per area by default).

The house checks must pass every fair drawing and, where the prompt asks for a gable roof, fail
a hip roof. This script draws houses with the independent catalogue's drawer
(``tests/catalogue/scenes.py``), the way ``tests/validity/test_exact_scenes.py`` draws them:
either isometry, any proportions (a plan 0.8 to 1.9 times as long as deep, walls 0.6 to 1.2 of
the depth, a roof rising 0.4 to 0.9), a chimney of 0.4 to 0.7 of the walls anywhere on a slope,
hidden edges drawn or not, any stroke organisation, placed anywhere in the asked area and filling
three quarters of it to all. Per area of the built-in house cases it prints:

- fair houses (a gable roof asked and drawn; or no roof asked and a gable or hip roof drawn)
  that fail any check, with the checks they fail;
- hip roofs drawn where a gable roof is asked that pass ``gable`` (a wrong verdict).

Houses under 22 cells across (``--least``) and hip roofs over a plan under 1.2 times as long as deep (a
pyramid) are left out, as the property tests leave them out; how many, it says.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from types import MappingProxyType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.catalogue

from shape_asserts.cases import Case
from shape_asserts.families.registry import get_family
from shape_asserts.geometry.drawing import Drawing
from tests.catalogue.scenes import HouseStyle, house_cells

#: The built-in house cases' areas (``None``: the case without one, drawn in DEFAULT_AREA).
AREAS: list[tuple[int, int, int, int] | None] = [None, (10, 6, 40, 43), (3, 10, 30, 45), (25, 20, 47, 47)]
DEFAULT_AREA = (4, 4, 45, 45)
LEAST_HOUSE = 22
GABLE = {
    "description": "каркас дома в изометрии с двускатной крышей и трубой",
    "description_en": "a wire-frame house in isometric projection with a gable roof and a chimney",
}


def house_case(area: tuple[int, int, int, int] | None, gable: bool) -> Case:
    """The house case the prompt of ``area`` asks, with a gable roof when ``gable``."""
    raw: dict[str, Any] = {"family": "house"}
    if area is not None:
        raw["area"] = list(area)
    if gable:
        raw.update(GABLE)
    fam = get_family("house")
    return Case(id="house-sweep", family=fam.name, params=MappingProxyType(fam.params(raw)))


def style(rng: random.Random, roof: str) -> HouseStyle:
    """A fair way of drawing a house with this ``roof``."""
    hidden = rng.random() < 0.5
    return HouseStyle(
        proj=rng.choice(["2:1", "30"]),
        roof=roof,
        hidden=hidden,
        chimney=rng.uniform(0.4, 0.7),
        # a chimney on the far slope with the hidden edges left out shows only its top
        chimney_slope=rng.choice(["near", "far"]) if hidden else "near",
        chimney_at=rng.uniform(0.3, 0.7),
        length=rng.uniform(0.8, 1.9),
        height=rng.uniform(0.6, 1.2),
        rise=rng.uniform(0.4, 0.9),
        mirror=rng.random() < 0.5,
        strokes=rng.choice(["chain", "edges", "walk"] + (["faces"] if hidden else [])),
        fill=rng.uniform(0.75, 1.0),
        align_x=rng.random(),
        align_y=rng.random(),
    )


def failed(case: Case, cells: list[tuple[int, int]]) -> list[str]:
    """Names of the checks the drawing fails."""
    return [c.name for c in case.score(Drawing.from_points(cells, grid_size=case.grid_size)).failed]


def drawn(
    s: HouseStyle, area: tuple[int, int, int, int] | None, least: int, left_out: Counter[str]
) -> list[tuple[int, int]] | None:
    """The house ``s`` draws in ``area``; ``None`` (counted in ``left_out``) for a pyramid roof or
    a house under ``least`` cells across."""
    if s.roof == "hip" and s.length < 1.2:
        left_out["pyramid"] += 1
        return None
    cells = house_cells(area or DEFAULT_AREA, s)
    if size(cells) < least:
        left_out["small"] += 1
        return None
    return cells


def size(cells: list[tuple[int, int]]) -> int:
    return min(max(c[k] for c in cells) - min(c[k] for c in cells) + 1 for k in (0, 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="drawings of each kind per area (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--least", type=int, default=LEAST_HOUSE, help=f"least house size, cells (default {LEAST_HOUSE})")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    print(f"{'area':<18} {'fair houses failing':>22} {'hip roofs passing gable':>26}   fair failures by check")
    for area in AREAS:
        fair_total = fair_bad = hip_total = hip_pass = 0
        checks: Counter[str] = Counter()
        left_out: Counter[str] = Counter()
        for _ in range(args.n):
            gable = rng.random() < 0.5
            cells = drawn(style(rng, "gable" if gable else rng.choice(["gable", "hip"])), area, args.least, left_out)
            if cells is not None:
                fair_total += 1
                bad = failed(house_case(area, gable), cells)
                fair_bad += bool(bad)
                checks.update(bad)
        for _ in range(args.n):
            cells = drawn(style(rng, "hip"), area, args.least, left_out)
            if cells is not None:
                hip_total += 1
                hip_pass += "gable" not in failed(house_case(area, True), cells)
        small, pyramid = left_out["small"], left_out["pyramid"]
        name = "default" if area is None else ",".join(map(str, area))
        by_check = ", ".join(f"{k} {v}" for k, v in checks.most_common()) or "—"
        print(
            f"{name:<18} {fair_bad:>13} / {fair_total:<6} {hip_pass:>17} / {hip_total:<6}   {by_check}"
            f"   (left out: {small} under {args.least} cells, {pyramid} pyramids)"
        )
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
