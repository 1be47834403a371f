"""Scoring cost per answer: parse + every circle check on a ~200-point answer.

Prints the cost in microseconds and as a ratio to a baseline measured in the same run
(``json.loads`` of the same answer text), because absolute times on a shared machine are noisy.
Goal (issue 5): ≤ 200 µs per answer for all checks.

    python bench/score_cost.py
"""

from __future__ import annotations

import json
import os
import platform
import sys
import timeit

from shape_asserts.families.circle import score_circle
from shape_asserts.geometry.drawing import parse_drawing
from shape_asserts.geometry.raster import raster_circle

GOAL_US = 200.0


def best_us(fn, number: int, repeat: int = 7) -> float:
    """Best-of-``repeat`` mean per call, in µs (the least disturbed measurement)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> int:
    pts = raster_circle((50, 50), 35, start=(50, 15), direction="cw")
    text = json.dumps(
        {"grid_size": 100, "center": {"x": 50, "y": 50}, "points": [{"x": int(x), "y": int(y)} for x, y in pts]}
    )
    drawing = parse_drawing(text)

    def score() -> None:
        score_circle(drawing.points, center=(50, 50), grid_size=100, start=(50, 15), direction="cw", data=drawing.data)

    def parse_and_score() -> None:
        d = parse_drawing(text)
        score_circle(d.points, center=(50, 50), grid_size=100, start=(50, 15), direction="cw", data=d.data)

    n = 300
    base = best_us(lambda: json.loads(text), n)
    s = best_us(score, n)
    ps = best_us(parse_and_score, n)
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}")
    print(f"answer: {len(pts)} points, {len(text)} characters")
    print(f"baseline json.loads:        {base:8.1f} µs  (1.00×)")
    print(f"score_circle (all checks):  {s:8.1f} µs  ({s / base:.2f}× baseline)")
    print(f"parse_drawing + score:      {ps:8.1f} µs  ({ps / base:.2f}× baseline)")
    verdict = "met" if s <= GOAL_US else "MISSED"
    print(f"goal ≤ {GOAL_US:.0f} µs for all checks: {verdict} ({s:.1f} µs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
