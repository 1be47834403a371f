"""The smallest fair spirals against the spiral checks: every way of drawing them, counted.

Run: ``.venv/bin/python bench/spiral_sweep.py`` (about 2 minutes).

A fair spiral keeps what the prompt fixes (the center, the laps, the outer end, the way round) and
leaves free where its first lap leaves the center: ``r = r0 + kθ`` with ``r0`` from 0 to 1 cell.
This draws every such spiral of 1 and 1.5 laps, 3 to 5 cells apart (the smallest a case may ask,
where a cell's own half diagonal weighs most), with ``r0`` a quarter cell apart, in every method of
the catalogue's rasteriser (``tests/catalogue/rasters.py``: supercover, rounded, thin, keypoints
joined by straight cells, DDA), the outer end every 30°, either way round, in and out, keypoints
2, 2.5 and 3 cells apart; and prints how many fail, by laps, spacing and ``r0``, and by check.
``docs/calibration.md`` quotes its last line.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.geometry.drawing import Drawing
from tests.catalogue import rasters
from tests.validity.test_exact_spiral import _case, _curve, _drawn


def main() -> None:
    started = time.perf_counter()
    drawn = 0
    failing: Counter[tuple[float, int, float]] = Counter()
    checks: Counter[str] = Counter()
    for turns in (1, 1.5):
        for spacing in (3, 4, 5):
            for inner in (0.0, 0.25, 0.5, 0.75, 1.0):
                for method in rasters.METHODS:
                    for angle in range(0, 360, 30):
                        for direction in ("cw", "ccw"):
                            for inward in (False, True):
                                case = _case(turns, spacing, angle, direction, inward)
                                for step in (2.0, 2.5, 3.0):
                                    cells = _drawn(_curve(case, inner), method, step)
                                    if not all(0 <= v < case.grid_size for cell in cells for v in cell):
                                        continue
                                    drawn += 1
                                    failed = case.score(Drawing.from_points(cells, grid_size=case.grid_size)).failed
                                    if failed:
                                        failing[(turns, spacing, inner)] += 1
                                        checks.update(c.name for c in failed)
    for (turns, spacing, inner), n in sorted(failing.items()):
        print(f"{turns:g} laps, {spacing} apart, r0 {inner:g}: {n} fail")
    print(f"failing checks: {dict(checks) or 'none'}")
    print(f"{sum(failing.values())} of {drawn:,} fair drawings fail ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
