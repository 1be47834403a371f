"""Scoring cost per answer, per family: every check on a ~200-point ideal answer.

Run: ``.venv/bin/python bench/score_cost.py [--rounds R]``

One representative case per family (below; a 100×100 grid where the family allows one, so the
ideal answer has ~200 points; the scene families keep the seed template's 50×50 grid: the house
its default area, the stick figure an area filling the grid) is scored on its own ideal answer.
Printed per family: the points, the microseconds per score (``case.score`` on a parsed drawing:
every check, the seed score where the family has one) against the goal of ≤ 200 µs (issue 11),
and the ratio to a ``json.loads`` of the same answer text measured in the same run — absolute
times on a shared machine are noisy, the ratio less so. Times are CPU time of this process
(``time.process_time``), best of ``R`` rounds taken in turn with the baseline's, so that other
processes sharing the cores inflate them less; ``parse_drawing`` of the same text is printed
beside (the step before scoring, not part of the goal).

``--against DIR`` scores the same answers with another checkout's code too (e.g. a ``git worktree``
of an older commit), in this same process: each tree's ``shape_asserts`` is imported apart and put
in place only while it is timed, and the two are timed round by round in turn, so both see the
same machine; printed per family: both times and their ratio (this tree's / the other's).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import sys
import tempfile
import time
import timeit
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.cases import load_cases
from shape_asserts.geometry.drawing import parse_drawing

GOAL_US = 200.0

#: One case per family, sized for ~200 points where the family's grid allows (scenes: 50×50 only).
CASES = """
[[case]]
id = "bench-circle"
family = "circle"
grid_size = 100
center = [50, 50]
start = [50, 15]
direction = "cw"

[[case]]
id = "bench-ellipse"
family = "ellipse"
grid_size = 100
center = [50, 50]
a = 40
b = 24
rotation = 30
start_angle = 30
direction = "cw"

[[case]]
id = "bench-square"
family = "square"
grid_size = 100
center = [50, 50]
side = 50
start_vertex = 0
direction = "cw"

[[case]]
id = "bench-rectangle"
family = "rectangle"
grid_size = 100
center = [50, 50]
width = 60
height = 40
start_vertex = 0
direction = "cw"

[[case]]
id = "bench-triangle"
family = "triangle"
grid_size = 100
center = [50, 50]
radius = 40
start_vertex = 0
direction = "cw"

[[case]]
id = "bench-polygon"
family = "polygon"
grid_size = 100
n = 8
center = [50, 50]
radius = 36
start_vertex = 0
direction = "cw"

[[case]]
id = "bench-star"
family = "star"
grid_size = 100
n = 5
center = [50, 50]
radius = 30
inner = 12
start_vertex = 0
direction = "cw"

[[case]]
id = "bench-spiral"
family = "spiral"
grid_size = 100
center = [50, 50]
turns = 4
spacing = 5
angle = 0
direction = "ccw"

[[case]]
id = "bench-concentric"
family = "concentric"
grid_size = 100
center = [50, 50]
radii = [6, 12, 18]
start = "top"
direction = "cw"

[[case]]
id = "bench-circles"
family = "circles"
grid_size = 100
centers = [[20, 20], [78, 20], [50, 50], [20, 78], [78, 78]]
radius = 7

[[case]]
id = "bench-house"
family = "house"

[[case]]
id = "bench-stick"
family = "stick"
area = [2, 2, 47, 47]
"""


def best_us(fn, number: int, rounds: int) -> float:
    """Best-of-``rounds`` mean CPU time per call, in µs (the least disturbed measurement)."""
    return min(timeit.repeat(fn, number=number, repeat=rounds, timer=time.process_time)) / number * 1e6


def bench_cases() -> list:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CASES, encoding="utf-8")
        return load_cases([path], builtin=False)


def measure(case, rounds: int) -> tuple[int, float, float, float]:
    """Points, then µs per ``json.loads``, per score and per ``parse_drawing`` of the case's ideal answer."""
    ideal = case.ideal()
    text = _answer(case)
    drawing = parse_drawing(text)
    result = case.score(drawing)
    if not result.passed:  # the bench times the path a fair answer takes
        raise SystemExit(f"{case.family}: the ideal answer fails: {'; '.join(c.describe() for c in result.failed)}")
    number = max(20, int(20_000 / max(1.0, best_us(lambda: case.score(drawing), 3, 1))))
    # round by round, baseline and score side by side: a busy spell slows both, and the best of
    # each is kept
    base = score = parse = float("inf")
    for _ in range(rounds):
        base = min(base, best_us(lambda: json.loads(text), number * 10, 1))
        score = min(score, best_us(lambda: case.score(drawing), number, 1))
        parse = min(parse, best_us(lambda: parse_drawing(text), number, 1))
    return len(ideal), base, score, parse


def _own_modules() -> dict[str, object]:
    return {k: m for k, m in sys.modules.items() if k == "shape_asserts" or k.startswith("shape_asserts.")}


class Tree:
    """Another checkout's ``shape_asserts``, imported apart: its bench cases and their ideal answers
    parsed by its own parser, and :meth:`active` to put its modules in place while it is timed (a
    function that imports at call time then gets that tree's module, not this one's)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        mine = _own_modules()
        for name in mine:
            del sys.modules[name]
        sys.path.insert(0, str(root))
        try:
            from shape_asserts.cases import load_cases as load
            from shape_asserts.geometry.drawing import parse_drawing as parse

            if not Path(sys.modules["shape_asserts"].__file__ or "").resolve().is_relative_to(root.resolve()):
                raise SystemExit(f"--against {root}: its shape_asserts was not the one imported")
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "bench.toml"
                path.write_text(CASES, encoding="utf-8")
                cases = load([path], builtin=False)
            self.work = {c.family: (c.score, parse(_answer(c))) for c in cases}
            for score, drawing in self.work.values():
                score(drawing)  # its lazy imports, while its modules are in place
        finally:
            sys.path.remove(str(root))
            self.modules = _own_modules()
            for name in self.modules:
                del sys.modules[name]
            sys.modules.update(mine)

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        mine = _own_modules()
        for name in mine:
            del sys.modules[name]
        sys.modules.update(self.modules)
        try:
            yield
        finally:
            for name in self.modules:
                sys.modules.pop(name, None)
            sys.modules.update(mine)


def _answer(case) -> str:
    return json.dumps({"points": [{"x": int(x), "y": int(y)} for x, y in case.ideal()]})


def against(other: Tree, rounds: int) -> int:
    """Both trees' score of each family's answer, timed in turn; this tree's time over the other's."""
    print(f"{'family':<11} {'this tree':>10} {other.root.name:>12} {'ratio':>6}  goal ≤ {GOAL_US:.0f} µs (this tree)")
    missed = []
    for case in bench_cases():
        mine_fn = functools.partial(case.score, parse_drawing(_answer(case)))
        them_fn = functools.partial(*other.work[case.family])  # (its case's score, its drawing)
        number = max(20, int(20_000 / max(1.0, best_us(mine_fn, 3, 1))))
        mine = them = float("inf")
        for r in range(rounds):
            for side in ("mine", "them") if r % 2 == 0 else ("them", "mine"):
                if side == "mine":
                    mine = min(mine, best_us(mine_fn, number, 1))
                else:
                    with other.active():
                        them = min(them, best_us(them_fn, number, 1))
        if mine > GOAL_US:
            missed.append(case.family)
        verdict = "met" if mine <= GOAL_US else "MISSED"
        print(f"{case.family:<11} {mine:>8.1f}µs {them:>10.1f}µs {mine / them:>5.2f}×  {verdict}")
    print(
        f"goal ≤ {GOAL_US:.0f} µs per family: "
        + ("met by every family" if not missed else f"MISSED by {', '.join(missed)}")
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds per measurement (best is kept)")
    ap.add_argument("--against", type=Path, default=None, help="another checkout to time side by side")
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}")
    if args.against is not None:
        return against(Tree(args.against), args.rounds)
    print(
        f"{'family':<11} {'points':>6} {'json.loads':>10} {'parse':>9} {'score':>9} {'× json':>7}  goal ≤ {GOAL_US:.0f} µs"
    )
    missed = []
    for case in bench_cases():
        n, base, score, parse = measure(case, args.rounds)
        verdict = "met" if score <= GOAL_US else "MISSED"
        if score > GOAL_US:
            missed.append(case.family)
        print(
            f"{case.family:<11} {n:>6} {base:>8.1f}µs {parse:>7.1f}µs {score:>7.1f}µs {score / base:>6.1f}×  {verdict}"
        )
    print(
        f"goal ≤ {GOAL_US:.0f} µs per family: "
        + ("met by every family" if not missed else f"MISSED by {', '.join(missed)}")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
