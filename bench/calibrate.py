"""Calibration data behind the circle's thresholds (``shape_asserts/families/circle.py``): what ideal
and blind-spot drawings measure.

Run: ``.venv/bin/python bench/calibrate.py``

Ideal rasters (radius 5–24 about (25, 25), a start every 30°, both directions) are scored with the
start and direction they were drawn with; every default threshold must sit outside their range.
Each blind spot of the seed score is built from the same rasters and must fail at least one named
check while its seed score stays high. For each family the script prints min / median / max of
every metric ``score_circle`` reports (``turns`` raw, positive clockwise; ``winding`` signed toward
the asked direction, as the winding check sees it), and how many drawings fail each check.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np

from shape_asserts.families.circle import CIRCLE, score_circle
from shape_asserts.geometry.raster import point_on_circle, raster_circle
from shape_asserts.geometry.score import ShapeScore

CENTER = (25, 25)
RADII = range(5, 25)
START_ANGLES = range(0, 360, 30)
DIRECTIONS = ("cw", "ccw")
#: The off-center family: drawn about (30, 25), asked about (25, 25); radius ≤ 19 keeps it on the grid.
OFF_CENTER = (30, 25)
SHUFFLE_SEED = 7

Case = tuple[int, int, str]  # radius, start angle, direction


def _cases() -> Iterator[Case]:
    for r in RADII:
        for a in START_ANGLES:
            for d in DIRECTIONS:
                yield r, a, d


def _ideal(r: int, a: int, d: str, center: tuple[int, int] = CENTER) -> tuple[np.ndarray, tuple[int, int]]:
    start = point_on_circle(center, r, a)
    return raster_circle(center, r, start=start, direction=d), start


def ideal(r: int, a: int, d: str) -> ShapeScore:
    pts, start = _ideal(r, a, d)
    return score_circle(pts, center=CENTER, start=start, direction=d)


def reversed_(r: int, a: int, d: str) -> ShapeScore:
    pts, _ = _ideal(r, a, d)  # asked for d, drawn the other way round
    return score_circle(pts[::-1], center=CENTER, direction=d)


def shuffled(r: int, a: int, d: str) -> ShapeScore:
    pts, _ = _ideal(r, a, d)
    rng = np.random.default_rng([SHUFFLE_SEED, r, a, d == "cw"])
    return score_circle(rng.permutation(pts), center=CENTER, direction=d)


def off_center(r: int, a: int, d: str) -> ShapeScore | None:
    if OFF_CENTER[0] + r > 49:
        return None
    pts, start = _ideal(r, a, d, center=OFF_CENTER)
    return score_circle(pts, center=CENTER, start=start, direction=d)


def two_lap(r: int, a: int, d: str) -> ShapeScore:
    pts, start = _ideal(r, a, d)
    return score_circle(np.vstack([pts, pts]), center=CENTER, start=start, direction=d)


def four_point(r: int, a: int, d: str) -> ShapeScore | None:
    if a or d != "cw":  # one drawing per radius: the four cardinal points, twice
        return None
    cx, cy = CENTER
    four = np.array([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]] * 2)
    return score_circle(four, center=CENTER, direction="cw")


def duplicate_padded(r: int, a: int, d: str) -> ShapeScore:
    pts, start = _ideal(r, a, d)
    return score_circle(np.repeat(pts, 2, axis=0), center=CENTER, start=start, direction=d)


FAMILIES: dict[str, Callable[[int, int, str], ShapeScore | None]] = {
    "ideal rasters": ideal,
    "reversed": reversed_,
    "shuffled": shuffled,
    "off-center (drawn about (30,25), asked (25,25))": off_center,
    "two-lap": two_lap,
    "four-point (cardinal points twice)": four_point,
    "duplicate-padded": duplicate_padded,
}

METRICS = (
    "seed_score",
    "roundness",
    "roundness_requested",
    "center_offset",
    "turns",
    "winding",
    "coverage",
    "closure_distance",
    "start_distance",
    "gaps",
    "repeats",
    "max_step",
    "radius",
    "rms",
    "n_points",
)


def _fmt(v: float) -> str:
    return f"{v:10.4f}" if isinstance(v, float) and not float(v).is_integer() else f"{v:10g}"


def _values(res: ShapeScore) -> dict[str, float]:
    """The reported metrics plus the winding check's value: turns signed toward the asked direction."""
    out = dict(res.metrics)
    out.update({c.name: c.value for c in res.checks if c.name == "winding"})
    return out


def report(name: str, results: list[tuple[Case, ShapeScore]]) -> None:
    print(f"\n== {name}: {len(results)} drawings")
    print(f"{'metric':<22}{'min':>10}{'median':>10}{'max':>10}   min at (r, start°, dir)")
    for m in METRICS:
        vals = [(_values(res)[m], case) for case, res in results if m in _values(res)]
        if not vals:
            continue
        nums = [float(v) for v, _ in vals]
        lo = min(vals, key=lambda vc: vc[0])
        print(f"{m:<22}{_fmt(min(nums))}{_fmt(statistics.median(nums))}{_fmt(max(nums))}   {lo[1]}")
    fails = Counter(c.name for _, res in results for c in res.failed)
    dirs = Counter(res.metrics["direction"] for _, res in results)
    print(f"{'direction drawn':<22}" + ", ".join(f"{k}: {v}" for k, v in sorted(dirs.items())))
    passed = sum(res.passed for _, res in results)
    print(
        f"{'checks failed':<22}"
        + (", ".join(f"{k} {v}/{len(results)}" for k, v in fails.most_common()) or "none")
        + f"   (all passed: {passed}/{len(results)})"
    )


def main() -> None:
    print(
        "Calibration of shape_asserts.families.circle.CIRCLE — radius 5..24 about (25, 25), "
        "starts every 30°, cw and ccw"
    )
    print("defaults:", ", ".join(f"{k}={v}" for k, v in vars(CIRCLE).items()))
    by_radius: dict[int, float] = {}
    for name, make in FAMILIES.items():
        results = []
        for case in _cases():
            res = make(*case)
            if res is not None:
                results.append((case, res))
                if make is ideal:
                    by_radius[case[0]] = min(by_radius.get(case[0], 100.0), res.score)
        report(name, results)
    print("\n== ideal rasters: lowest seed score per radius")
    print("  ".join(f"r{r}:{s:.2f}" for r, s in sorted(by_radius.items())))


if __name__ == "__main__":
    main()
