"""What the cycle collector costs a process that imports litellm, and what keeping it off saves.

``shape_asserts.asking.call.load_litellm()`` imports litellm with the collector off, freezes what
the import made (``gc.freeze``) and freezes again at exit, so Python's teardown does not walk
litellm's heap. A live run pays this in its asking process (or its only process), before the
first call and after the last. Timed here as a user waits for it: the whole process, from start
to exit, against a plain ``import litellm``, alternating the two round by round in fresh
interpreters (bytecode caches kept, as a user's are); medians printed with their ratio.

    python bench/gc_cost.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAIN = (
    "import os; os.environ.setdefault('LITELLM_LOCAL_MODEL_COST_MAP', 'True'); "
    "os.environ.setdefault('LITELLM_LOG', 'ERROR'); import shape_asserts.asking.call; import litellm"
)
FROZEN = "from shape_asserts.asking.call import load_litellm; load_litellm()"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # caches kept
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _process_seconds(code: str) -> float:
    """Wall time of a fresh interpreter running ``code``, its exit included."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(), check=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}; rounds {args.rounds}")
    _process_seconds(PLAIN)  # warm-up, untimed: bytecode and page caches
    times: dict[str, list[float]] = {"plain": [], "frozen": []}
    for r in range(args.rounds):
        for variant in ("plain", "frozen") if r % 2 == 0 else ("frozen", "plain"):
            times[variant].append(_process_seconds(PLAIN if variant == "plain" else FROZEN))
    frozen, plain = times["frozen"], times["plain"]
    ratios = [f / p for f, p in zip(frozen, plain)]
    print(
        f"litellm import to exit: collector off, then frozen {statistics.median(frozen):.2f} s "
        f"vs plain {statistics.median(plain):.2f} s = {statistics.median(ratios):.2f}× "
        f"({min(ratios):.2f}–{max(ratios):.2f}, median of per-round ratios)"
    )
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
