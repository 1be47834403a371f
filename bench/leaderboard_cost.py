"""What the leaderboard at the end of a many-model run costs, with its resamples kept and without.

Run: ``.venv/bin/python bench/leaderboard_cost.py [--models 10 20]``

Every bootstrap interval of the leaderboard (``results/gate.bootstrap_ci``) resamples with the
same seed, so intervals of as many entries draw the same resamples; ``gate._resamples`` keeps the
last ones drawn for the next. This bench builds the records of a benchmark run (the 312 benchmark
cases × N models, scores drawn at random, every case of one family and group as the benchmark
has them) and times :func:`~shape_asserts.results.leaderboard.leaderboard` over them both ways,
in turn, three rounds each: ``kept`` (as shipped) and ``drawn`` (every interval draws its own,
``gate._KEPT = 0``). Wall time of this process; the median of the rounds. Then the memory the
leaderboard takes at its peak, as shipped (one more run, under tracemalloc): what the end of a
many-model run adds to the process that writes the report.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import shape_asserts.results.gate as gate
from shape_asserts.cases import load_cases
from shape_asserts.results.leaderboard import leaderboard
from shape_asserts.results.record import CaseRecord


def records(models: int, seed: int = 0) -> list[CaseRecord]:
    """The benchmark's cases answered by ``models`` models with random scores (each model its own level)."""
    rng = random.Random(seed)
    cases = [c for c in load_cases(benchmark=True) if "benchmark" in c.tags]
    out = []
    for m in range(models):
        level = rng.uniform(60, 100)
        for case in cases:
            score = min(100.0, max(0.0, rng.gauss(level, 8)))
            out.append(
                CaseRecord.from_scores(f"m{m:02d}", case.id, case.family, [score], [score > 80], group=case.group)
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=int, nargs="+", default=[10, 20])
    args = ap.parse_args(argv)
    kept = gate._KEPT
    for n in args.models:
        recs = records(n)
        times: dict[str, list[float]] = {"kept": [], "drawn": []}
        for r in range(3):
            for way in ("kept", "drawn") if r % 2 == 0 else ("drawn", "kept"):
                gate._KEPT = kept if way == "kept" else 0
                gate._kept_resamples.cache_clear()
                started = time.perf_counter()
                leaderboard(recs)
                times[way].append(time.perf_counter() - started)
        gate._KEPT = kept
        gate._kept_resamples.cache_clear()
        tracemalloc.start()  # one more, untimed: the memory it takes at its peak (as shipped)
        leaderboard(recs)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        k, d = statistics.median(times["kept"]), statistics.median(times["drawn"])
        print(
            f"{n} models × {len(recs) // n} cases: resamples kept {k:.2f} s | drawn each time {d:.2f} s = {d / k:.1f}×; "
            f"at its peak the leaderboard holds {peak / 1e6:.1f} MB (tracemalloc)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
