"""numpy's import with its BLAS thread pool and with one thread, as the plugin imports it for a run
of shape tests alone (``shape_asserts/plugin/blas.py``).

Each import runs in a fresh interpreter (``python -c "import numpy"``), the two variants
alternated round by round; printed: the medians of wall time and of CPU time (user + system,
every thread of the process, from ``os.wait4``), and their ratios.

    python bench/blas_import.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.defaults import BLAS_THREAD_VARS


def _once(env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "import numpy"], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"python -c 'import numpy' exited with status {status}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    base = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARS}
    variants = {"pool (as numpy starts it)": base, "one thread (the plugin's)": {**base, "OPENBLAS_NUM_THREADS": "1"}}
    for env in variants.values():  # warm the page cache and bytecode caches
        _once(env)
    seen: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for i in range(args.rounds):
        names = list(variants) if i % 2 == 0 else list(variants)[::-1]
        for name in names:
            seen[name].append(_once(variants[name]))
    print(f"machine: {os.cpu_count()} cores; import numpy in a fresh interpreter, median of {args.rounds}")
    for name, runs in seen.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"  {name:28s} wall {wall * 1000:6.1f} ms   CPU {cpu * 1000:6.1f} ms")
    pool, one = seen.values()
    walls = statistics.median(b[0] / a[0] for a, b in zip(pool, one))
    cpus = statistics.median(b[1] / a[1] for a, b in zip(pool, one))
    saved = statistics.median(a[1] - b[1] for a, b in zip(pool, one))
    print(f"one thread / pool: wall {walls:.2f}x, CPU {cpus:.2f}x ({saved * 1000:.0f} ms of CPU less a process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
