"""Calibration of the single-contour families on the reference drawers.

For every family other than the circle (which has ``bench/calibrate.py``) and its built-in cases:

* the ideal drawing (``reference/exact``): headline score min / median, and how many cases pass —
  the acceptance test is that all do;
* the noisy drawer (``reference/noisy``, sample 0, the same drawing the suite records): how many
  cases pass, which checks fail how often, and the median score;
* the closest margin of the ideal to each threshold-bearing metric, so a threshold that the ideal
  only just clears shows up.

Run: ``.venv/bin/python bench/calibrate_families.py [family ...]``. Prints plain text, exits 1 when
an ideal drawing fails a case.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter

from shape_asserts.cases import load_cases
from shape_asserts.drawing import Drawing
from shape_asserts.reference import draw

#: Families calibrated here (the circle and the multi-contour families have their own benches).
FAMILIES = ("ellipse", "square", "rectangle", "triangle", "polygon", "star", "spiral")


def main(argv: list[str]) -> int:
    wanted = tuple(argv) or FAMILIES
    cases = [c for c in load_cases() if c.family in wanted]
    print(f"{'family':<10} {'cases':>5} {'ideal min':>9} {'median':>7} {'ideal pass':>10} "
          f"{'noisy pass':>10} {'noisy med':>9}  noisy failures (check × cases)")
    bad_ideal: list[str] = []
    for fam in wanted:
        mine = [c for c in cases if c.family == fam]
        if not mine:
            continue
        ideal_scores, noisy_scores, ideal_pass, noisy_pass = [], [], 0, 0
        fails: Counter[str] = Counter()
        for case in mine:
            ideal = case.score(Drawing.from_points(draw(case, "exact"), grid_size=case.grid_size))
            ideal_scores.append(ideal.score)
            ideal_pass += ideal.passed
            if not ideal.passed:
                bad_ideal.append(f"{case.id}: " + "; ".join(c.describe() for c in ideal.failed))
            noisy = case.score(Drawing.from_points(draw(case, "noisy"), grid_size=case.grid_size))
            noisy_scores.append(noisy.score)
            noisy_pass += noisy.passed
            fails.update(c.name for c in noisy.failed)
        failing = ", ".join(f"{k}×{v}" for k, v in fails.most_common()) or "-"
        print(f"{fam:<10} {len(mine):>5} {min(ideal_scores):>9.2f} {statistics.median(ideal_scores):>7.2f} "
              f"{ideal_pass:>4}/{len(mine):<5} {noisy_pass:>4}/{len(mine):<5} "
              f"{statistics.median(noisy_scores):>9.2f}  {failing}")
    print()
    print("closest ideal margins (metric: worst ideal value over the family's cases)")
    for fam in wanted:
        mine = [c for c in cases if c.family == fam]
        if not mine:
            continue
        worst: dict[str, float] = {}
        for case in mine:
            m = case.score(Drawing.from_points(draw(case, "exact"), grid_size=case.grid_size)).metrics
            for key, better_low in _WATCHED.items():
                if isinstance(m.get(key), (int, float)):
                    v = abs(float(m[key])) if key == "turns" else float(m[key])
                    if key not in worst:
                        worst[key] = v
                    else:
                        worst[key] = max(worst[key], v) if better_low else min(worst[key], v)
        shown = ", ".join(f"{k}={v:.3g}" for k, v in worst.items())
        print(f"  {fam:<10} {shown}")
    if bad_ideal:
        print("\nIDEAL DRAWINGS THAT FAIL:")
        print("\n".join("  " + line for line in bad_ideal))
        return 1
    return 0


#: Metrics whose worst ideal value is printed; True when lower is better.
_WATCHED = {
    "outline": False, "coverage": False, "start_distance": True, "closure_distance": True,
    "center_offset": True, "axis_error": True, "rotation_error": True, "evenness": False,
    "vertex_offset": True, "angle_error": True, "side_error": True, "ratio_error": True,
    "end_distance": True, "radius_drawdown": True, "r2": False, "fit_relative_rms": True, "lap_deviation": True, "spacing_error": True, "turns": False,
}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
