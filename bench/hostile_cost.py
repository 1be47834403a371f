"""Scoring cost of hostile answers: the largest answer the parser accepts, scored by every family.

Run: ``.venv/bin/python bench/hostile_cost.py [N]`` (N points, default 10,000 — the parser's limit)

Three shapes of answer, each scored once against the first built-in case of every family:
``alternating`` (corners (0,0) and (49,49) in turn, so every point is its own contour),
``random`` (uniform cells) and ``dots`` (a lattice of separate cells). Prints seconds per family,
slowest first; the goal (issue 14) is under 1 s per family. Then the largest outline a case file
may ask — a spiral of 6 laps 60 cells apart on a grid of 1,000, thousands of sides — scored on
its own exact drawing and on 10,000 random cells of that grid; the goal there is under 5 s. Times are CPU time of this process
(``time.process_time``: other processes sharing the cores inflate them less than wall time), and
absolute times on a shared machine are noisy all the same: the ``json.loads`` of the same answer is
printed as the baseline of the run, and each time's ratio to it.

What keeps it bounded (the geometry's docstrings give each cost): nearest distances hold each
group of points to the other drawing's groups nearest first, a block of pairs at a time
(``geometry/distances.py``); a spiral's lap spacing takes the median of each lap's window from the points
sorted by angle (``geometry/fit/spiral.py``).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.cases import load_cases
from shape_asserts.geometry.drawing import parse_drawing


def main(n: int = 10_000) -> None:
    first = {}
    for case in load_cases():
        first.setdefault(case.family, case)
    rng = np.random.default_rng(0)
    answers = {
        "alternating": [(0, 0) if i % 2 else (49, 49) for i in range(n)],
        "random": [tuple(int(v) for v in rng.integers(0, 50, 2)) for _ in range(n)],
        "dots": [(i % 50, (i // 50) * 2 % 50) for i in range(n)],
    }
    rows = []
    for name, pts in answers.items():
        text = json.dumps({"points": [{"x": x, "y": y} for x, y in pts]})
        t0 = time.process_time()
        json.loads(text)
        base = time.process_time() - t0
        drawing = parse_drawing(text)
        for family, case in first.items():
            t0 = time.process_time()
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                case.score(drawing)
            rows.append((time.process_time() - t0, name, family, base))
    print(f"{n} points per answer; json.loads baseline {rows[0][3] * 1000:.1f} ms")
    for dt, name, family, base in sorted(rows, reverse=True):
        print(f"{dt:7.3f} s  {name:<12} {family:<11} {dt / base:6.0f}× json.loads")
    worst = max(rows)[0]
    print(f"slowest: {worst:.2f} s — goal under 1 s per family: {'met' if worst < 1 else 'MISSED'}")
    big_spiral(n)


BIG_SPIRAL = """
[[case]]
id = "big-spiral"
family = "spiral"
grid_size = 1000
center = [500, 500]
turns = 6
spacing = 60
angle = 0
direction = "cw"
"""


def big_spiral(n: int) -> None:
    """The largest outline a case file may ask, scored on its exact drawing and on random cells."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big-spiral.toml"
        path.write_text(BIG_SPIRAL, encoding="utf-8")
        (case,) = load_cases([path], builtin=False)
    exact = np.rint(np.asarray(case.ideal())).astype(int).tolist()
    answers = {"exact": exact, "random": np.random.default_rng(0).integers(0, 1000, (n, 2)).tolist()}
    worst = 0.0
    for name, pts in answers.items():
        drawing = parse_drawing(json.dumps({"points": pts}))
        t0 = time.process_time()
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            score = case.score(drawing).score
        dt = time.process_time() - t0
        worst = max(worst, dt)
        print(f"{dt:7.3f} s  {name:<12} spiral on a grid of 1,000 ({len(pts):,} points, score {score:.2f})")
    verdict = "met" if worst < 5 else "MISSED"
    print(f"slowest: {worst:.2f} s — goal under 5 s for the largest case a file may ask: {verdict}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
