"""The widest radial wave fair circle drawings reach, against the circle's ``harmonics`` limits.

Run: ``.venv/bin/python bench/harmonic_envelope.py`` (about 2 minutes; ``--step 1`` for every
degree, about 7 minutes).

The ``harmonics`` check of ``shape_asserts/families/circle.py`` fails a circle whose radius swings
regularly, like a square, an oval or a polygon. Rounding a circle to cells leaves a wave of its
own, as large as the cells' rounding allows whatever the radius, so each order's limit must sit
above what every fair drawing reaches. This script draws circles by every fair method of the
independent catalogue (``tests/catalogue/rasters.py``: supercover, rounded, thinned, points every
10° or 15° joined by Bresenham or DDA lines) in both directions:

- about the cell (25, 25) at every whole radius from 3 to 24, starting every ``--step`` degrees;
- through every start cell of one quadrant of the 50 grid, about (25, 25), so at the radius the
  start implies (not whole), as the seed's prompts ask.

It scores each with the circle family (the radius given in the first set, implied in the second)
and prints, for each class of orders (4, the grid's own; its overtones 8, 12 and 16; the others),
the widest amplitude per band of radii and the largest share of the limit any drawing took, with
where. Every share must be below 1: a fair drawing that fails ``harmonics`` is a wrong verdict.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.catalogue

from shape_asserts.cases import Case
from shape_asserts.families import circle as circle_family
from shape_asserts.families.circle import harmonic_limit
from shape_asserts.families.registry import get_family
from shape_asserts.families.single import judged_harmonics
from shape_asserts.geometry.drawing import Drawing
from tests.catalogue import rasters

CENTER = (25, 25)
BANDS = ((3, 6), (6, 9), (9, 13), (13, 18), (18, 25))
CLASSES = ("order 4", "overtones 8, 12, 16", "other orders")


@dataclass(frozen=True)
class Drawn:
    """One fair drawing: how it was made, and the case it answers."""

    method: str
    keypoints: int
    direction: str
    start: tuple[int, int]
    radius: float  # the exact radius drawn
    asked: bool  # whether the case gives the radius (else the start implies it)


def _fair(step: int) -> Iterator[tuple[Drawn, list[tuple[int, int]]]]:
    ways = [(m, k) for m in rasters.METHODS for k in ((24, 36) if m in ("keypoints", "dda") else (36,))]
    for method, keypoints in ways:
        for direction in ("cw", "ccw"):
            for r in range(3, 25):
                for angle in range(0, 360, step):
                    curve = rasters.circle_curve(*CENTER, r, angle, direction == "cw", step=0.05)
                    cells = rasters.rasterise(curve, method, keypoints=keypoints)
                    yield Drawn(method, keypoints, direction, cells[0], r, True), cells
            for sx in range(25, 50):
                for sy in range(0, 26):
                    r = math.hypot(sx - 25, sy - 25)
                    if r < 3 or r > 24:
                        continue
                    angle = math.degrees(math.atan2(sy - 25, sx - 25))
                    curve = rasters.circle_curve(*CENTER, r, angle, direction == "cw", step=0.05)
                    cells = rasters.rasterise(curve, method, keypoints=keypoints)
                    yield Drawn(method, keypoints, direction, (sx, sy), r, False), cells


def _order_class(k: int) -> str:
    return CLASSES[0] if k == 4 else CLASSES[1] if k % 4 == 0 else CLASSES[2]


class _Waves:
    """Reads each judged order's amplitude as the circle family measures it, by wrapping the check
    it calls (:func:`~shape_asserts.families.single.judged_harmonics` on the same residual)."""

    def __init__(self) -> None:
        self.amps: dict[int, float] = {}
        self.size = 1.0
        self._check = circle_family.harmonics_check
        circle_family.harmonics_check = self  # type: ignore[assignment]

    def __call__(self, card, angles, residual, size, cap):  # type: ignore[no-untyped-def]
        self.size = max(size, 1.0)
        self.amps = judged_harmonics(angles, residual, size)
        return self._check(card, angles, residual, size, cap)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--step", type=int, default=5, help="degrees between start angles at whole radii (default 5)")
    args = ap.parse_args()

    family = get_family("circle")
    waves = _Waves()
    widest: dict[tuple[str, int], float] = {}
    share: dict[str, tuple[float, str]] = {c: (0.0, "") for c in CLASSES}
    failed: list[str] = []
    count, t0 = 0, time.perf_counter()
    for d, cells in _fair(args.step):
        raw = {"family": "circle", "center": list(CENTER), "start": list(d.start), "direction": d.direction}
        if d.asked:
            raw["radius"] = d.radius
        case = Case(id="fair", family="circle", params=MappingProxyType(family.params(raw)))
        result = case.score(Drawing.from_points(cells, grid_size=50))
        count += 1
        band = next(i for i, (lo, hi) in enumerate(BANDS) if lo <= waves.size < hi or i == len(BANDS) - 1)
        for k, amp in waves.amps.items():
            c = _order_class(k)
            widest[c, band] = max(widest.get((c, band), 0.0), amp)
            s = amp / harmonic_limit(k, waves.size)
            if s > share[c][0]:
                where = (
                    f"{d.method}{'-' + str(d.keypoints) if d.method in ('keypoints', 'dda') else ''} "
                    f"{d.direction} r={d.radius:.2f} from {d.start}, order {k}: {amp:.3f} cells"
                )
                share[c] = (s, where)
        failed += [f"{d} {check.describe()}" for check in result.failed if check.name == "harmonics"]
    print(f"{count} fair circle drawings scored in {time.perf_counter() - t0:.0f} s (--step {args.step})")
    print()
    head = "widest wave, cells, by fitted radius"
    print(f"{head:<22}" + "".join(f"{f'{lo}-{hi - 1}':>10}" for lo, hi in BANDS))
    for c in CLASSES:
        print(f"{c:<22}" + "".join(f"{widest.get((c, i), 0.0):>10.3f}" for i in range(len(BANDS))))
    print()
    t = circle_family.CIRCLE
    print(
        "limits a + b/R: order 4 {}, overtones {}, other orders {}".format(
            *(f"{a:g} + {b:g}/R" for a, b in (t.grid_wave_limits, t.overtone_limits, t.other_limits))
        )
    )
    for c in CLASSES:
        print(f"largest share of the limit, {c}: {share[c][0]:.3f} ({share[c][1]})")
    print(f"fair drawings failing harmonics: {len(failed)}")
    for line in failed[:10]:
        print("  " + line)


if __name__ == "__main__":
    main()
