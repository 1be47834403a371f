"""The widest radial wave fair round heads reach, against the stick figure's ``head`` limits.

Run: ``.venv/bin/python bench/head_envelope.py`` (about a minute).

A stick figure's head is a circle the model places anywhere: its centre may fall on a cell, between
two, or anywhere in a cell. Rounding a circle to cells leaves a radial wave of its own, and a centre
off the cell grid leaves waves at orders a centred circle never shows (a circle of radius 3 about
(25, 8.5) is 7 cells wide and 6 tall: an order-2 wave). The ``head`` check of
``shape_asserts/families/scene/stick.py`` fails a ring whose radius swings more than
``StickThresholds.head_harmonic_limits`` allow, so those limits must sit above every fair head.

This script draws rings by every fair method of the independent catalogue
(``tests/catalogue/rasters.py``: supercover, rounded, thinned, points every 10° or 15° joined by
Bresenham or DDA lines), in both directions, from four start angles, at radii 2.5 to 9 by halves,
about every centre on an eighth-of-a-cell lattice within one cell, and checks each as the stick
figure's head is (``stick._check_head``, after the circle fit it makes: ``head``, its waves, and
``head_near``, its farthest cell from the fitted circle; ``head_flat``, its longest run along a row
or column). It prints the widest wave per class of orders (multiples of 4, where a centred circle
ripples; the others), the farthest cell and how far the longest run passes 2√(2R) by radius,
the largest share of the limit any fair head took, how many fair heads fail (none may), and then, for
regular polygons drawn the same ways, the largest radius at which one of them passes as a head:
the grid's limit, where a polygon's sides bow no more than a fair ring's rounding.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.catalogue

from shape_asserts.families.scene.stick import (
    STICK_THRESHOLDS,
    StickThresholds,
    _check_head,
    head_stray_limit,
    longest_axis_run,
)
from shape_asserts.families.single import judged_harmonics
from shape_asserts.geometry.fit.circle import CircleModel
from shape_asserts.geometry.scorecard import Scorecard
from tests.catalogue import rasters

RADII = [r / 2 for r in range(5, 19)]  # 2.5 … 9
OFFSETS = [i / 8 for i in range(8)]
STARTS = (0, 90, 200, 300)
WAYS = [(m, k) for m in rasters.METHODS for k in ((24, 36) if m in ("keypoints", "dda") else (36,))]


@dataclass(frozen=True)
class Wave:
    """A ring judged as a head: each judged order's amplitude (cells) and the worst one's share of its limit."""

    amps: dict[int, float]
    share: float
    stray: float  # the farthest cell from the fitted circle, cells
    flat: float  # the longest run along a row or column, less a chord sagging a cell (2·√(2R))
    passed: bool  # ``head``, ``head_near`` and ``head_flat`` all pass


def head_wave(cells: np.ndarray, t: StickThresholds) -> Wave | None:
    """``cells`` judged as the stick figure judges its head (``None`` when no circle fits)."""
    fit = CircleModel.from_estimate(cells)
    if fit is None:
        return None
    card = Scorecard()
    _check_head(card, cells, fit, t)
    ang, res = fit.radial(cells)
    passed = all(c.passed for c in card.checks if c.name in ("head", "head_near", "head_flat"))
    return Wave(
        judged_harmonics(ang, res, fit.radius),
        float(card.metrics["head_harmonic"]),
        float(np.max(np.abs(res))),
        longest_axis_run(cells) - 2 * math.sqrt(2 * fit.radius),
        passed,
    )


def ring(cx: float, cy: float, r: float, start: float, clockwise: bool, method: str, keypoints: int) -> np.ndarray:
    curve = rasters.circle_curve(cx, cy, r, start, clockwise, step=0.05)
    return np.array(rasters.rasterise(curve, method, keypoints=keypoints), dtype=float)


def polygon(cx: float, cy: float, r: float, sides: int, turn: float, method: str, keypoints: int) -> np.ndarray:
    corners = [
        (
            cx + r * math.cos(math.radians(turn + 360 * i / sides)),
            cy + r * math.sin(math.radians(turn + 360 * i / sides)),
        )
        for i in range(sides)
    ]
    curve = rasters.polyline_curve(corners, closed=True, step=0.05)
    return np.array(rasters.rasterise(curve, method, keypoints=keypoints), dtype=float)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    t = STICK_THRESHOLDS
    t0 = time.perf_counter()
    widest: dict[tuple[str, float], float] = {}
    worst = (0.0, "")
    count = failing = 0
    for (method, keypoints), r, (ox, oy), start, clockwise in itertools.product(
        WAYS, RADII, itertools.product(OFFSETS, repeat=2), STARTS, (True, False)
    ):
        wave = head_wave(ring(25 + ox, 25 + oy, r, start, clockwise, method, keypoints), t)
        if wave is None:
            continue
        count += 1
        failing += not wave.passed
        widest["stray", r] = max(widest.get(("stray", r), 0.0), wave.stray)
        widest["flat", r] = max(widest.get(("flat", r), -9.0), wave.flat)
        for order, amp in wave.amps.items():
            c = "multiples of 4" if order % 4 == 0 else "other orders"
            widest[c, r] = max(widest.get((c, r), 0.0), amp)
        if wave.share > worst[0]:
            worst = (wave.share, f"{method}-{keypoints} r={r} about (25+{ox}, 25+{oy}) from {start}°")
    print(f"{count} fair heads in {time.perf_counter() - t0:.0f} s")
    print(f"{'widest wave, cells':<20}" + "".join(f"{r:>6g}" for r in RADII))
    for c in ("multiples of 4", "other orders"):
        print(f"{c:<20}" + "".join(f"{widest.get((c, r), 0.0):>6.2f}" for r in RADII))
    print(f"{'farthest cell':<20}" + "".join(f"{widest.get(('stray', r), 0.0):>6.2f}" for r in RADII))
    print(f"{'head_near limit':<20}" + "".join(f"{head_stray_limit(r, t):>6.2f}" for r in RADII))
    print(f"{'run − 2√(2R)':<20}" + "".join(f"{widest.get(('flat', r), -9.0):>6.2f}" for r in RADII))
    print(f"head_flat limit: 2√(2R) + {t.head_flat_cells:g}")
    a, b, c_, d = t.head_harmonic_limits
    print(f"limits: multiples of 4 {a:g} + {b:g}/R, other orders {c_:g} + {d:g}/R")
    print(f"largest share of the limit, fair heads: {worst[0]:.3f} ({worst[1]})")
    print(f"fair heads failing head, head_near or head_flat: {failing}")
    print()
    print("regular polygons passing as a head (some placement, method and turn), largest radius:")
    shapes = [(f"{n} sides", n, (0.0, 90.0 / n, 45.0)) for n in (3, 4, 5, 6, 8)]
    shapes.insert(2, ("square (sides along the grid)", 4, (45.0,)))
    for name, sides, turns in shapes:
        passing = [
            r
            for r in RADII
            if any(
                (w := head_wave(polygon(25 + ox, 25 + oy, r, sides, turn, m, k), t)) is not None and w.passed
                for (m, k) in WAYS[:3]
                for ox, oy in itertools.product((0.0, 0.5), repeat=2)
                for turn in turns
            )
        ]
        print(f"  {name}: {max(passing) if passing else 'none'}")


if __name__ == "__main__":
    main()
