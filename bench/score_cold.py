"""Scoring as a replay does it: every built-in case scored once, in a fresh process.

``bench/score_cost.py`` scores one answer again and again, so what a case prepares once (an asked
outline's samples and cell index, a polygon's targets) is paid once and then amortised; a replay
of the suite scores each case once, so there that preparation counts in full. This bench loads the
built-in cases in a fresh interpreter, parses each one's recorded ``reference/exact`` answer, and
times (CPU) scoring all of them once, preparation included. Printed: the median over ``--rounds``
fresh processes, and with ``--against DIR`` the same for another checkout (a ``git worktree`` of an
older commit), the two alternating process by process, and their ratio.

    python bench/score_cold.py [--rounds 9] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in each fresh process with the tree's root as argv[1]: prints the CPU seconds of the scoring.
PROBE = textwrap.dedent("""\
    import json, sys, time
    from pathlib import Path
    root = Path(sys.argv[1])
    sys.path.insert(0, str(root))
    from shape_asserts.cases import load_cases
    from shape_asserts.geometry.drawing import parse_drawing
    if not Path(sys.modules["shape_asserts"].__file__).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"{root}: its shape_asserts was not the one imported")
    work = []
    for case in load_cases():
        rec = json.loads((root / "fixtures" / "reference_exact" / f"{case.id}.json").read_text("utf-8"))
        work.append((case, parse_drawing(rec["samples"][0]["text"])))
    start = time.process_time()
    for case, drawing in work:
        case.score(drawing)
    print(len(work), time.process_time() - start)
    """)


def cold(root: Path) -> tuple[int, float]:
    """Cases scored and CPU seconds, in a fresh interpreter scoring ``root``'s code."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # caches kept
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(root)], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    n, secs = out.stdout.split()
    return int(n), float(secs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--against", type=Path, default=None, help="another checkout, timed in turn")
    args = ap.parse_args(argv)
    trees = [ROOT] + ([args.against.resolve()] if args.against else [])
    times: dict[Path, list[float]] = {t: [] for t in trees}
    counts: dict[Path, int] = {}
    for tree in trees:
        cold(tree)  # warm-up, untimed: bytecode and page caches
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            counts[tree], secs = cold(tree)
            times[tree].append(secs)
    print(f"machine: {os.cpu_count()} cores; fresh process per round; median of {args.rounds}")
    for tree in trees:
        med = statistics.median(times[tree])
        print(
            f"{tree.name:<12} {counts[tree]} cases scored once: {med * 1000:7.1f} ms ({med / counts[tree] * 1e6:.0f} µs a case)"
        )
    if args.against:
        ratios = [a / b for a, b in zip(times[ROOT], times[trees[1]])]
        print(
            f"this tree / {trees[1].name}: {statistics.median(ratios):.2f}× "
            f"({min(ratios):.2f}–{max(ratios):.2f}, median of per-round ratios)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
