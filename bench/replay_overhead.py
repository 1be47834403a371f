"""Replay overhead: 1,000 replayed shape cases vs 1,000 trivial parametrized tests, same -n.

Writes a case file of 1,000 circle cases into a temporary project, records them once with
``reference/exact`` (outside the timing), then times ``pytest --record=none`` over them against a
file of 1,000 trivial parametrized tests under the same ``-n``. Also checks that the replay run
never imported litellm. Goal (issue 5): ≤ 1.3×.

    python bench/replay_overhead.py [-n 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

CASES = 1000


def case_file() -> str:
    # 1,000 questions: 25 centers × 20 start angles × 2 directions
    out = []
    for _i, (cx, cy) in enumerate([(x, y) for x in (21, 23, 25, 27, 29) for y in (21, 23, 25, 27, 29)]):
        out.append(
            textwrap.dedent(f"""\
            [[matrix]]
            id = "bench-c{cx}x{cy}-start{{angle:03d}}-{{direction}}"
            family = "circle"
            center = [{cx}, {cy}]
            radius = 15
            angles = [{", ".join(str(a) for a in range(0, 360, 18))}]
            directions = ["cw", "ccw"]
            """)
        )
    return "\n".join(out)


#: Both sides keep bytecode caches, as a user's Python does: a machine that sets
#: PYTHONDONTWRITEBYTECODE makes every process recompile (and pytest re-rewrite) what it imports,
#: seconds that dwarf what is measured (bench/wall_time.py does the same).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    return wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", default="2", help="xdist workers for both runs (default 2)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
        (root / "cases.toml").write_text(case_file())
        (root / "test_shapes.py").write_text("def test_drawing(shape_run):\n    shape_run.check()\n")
        (root / "conftest.py").write_text(
            textwrap.dedent("""\
            import sys
            def pytest_sessionfinish(session):
                if "litellm" in sys.modules:
                    open("litellm-imported", "w").close()
            """)
        )
        trivial = root / "trivial"
        trivial.mkdir()
        (trivial / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
        (trivial / "test_trivial.py").write_text(
            textwrap.dedent(f"""\
            import pytest
            @pytest.mark.parametrize("i", range({CASES}))
            def test_trivial(i):
                assert i >= 0
            """)
        )
        base = [py, "-m", "pytest", "-q", "--shape-cases", "cases.toml", "-k", "bench-"]
        print("recording 1,000 cases with reference/exact (not timed)…", flush=True)
        run(base + ["-n", args.n, "--record=missing"], root)
        (root / "litellm-imported").unlink(missing_ok=True)
        replay, plain = [], []
        for _ in range(args.repeat):
            plain.append(run([py, "-m", "pytest", "-q", "-n", args.n], trivial))
            replay.append(run(base + ["-n", args.n, "--record=none"], root))
        imported = (root / "litellm-imported").exists()
        r, p = min(replay), min(plain)
        print(f"machine: {os.cpu_count()} cores; -n {args.n}; best of {args.repeat}")
        print(f"1,000 trivial parametrized tests: {p:.2f} s")
        print(
            f"1,000 replayed shape cases:       {r:.2f} s = {r / p:.2f}× (goal ≤ 1.3×: {'met' if r / p <= 1.3 else 'MISSED'})"
        )
        print(f"litellm imported during replay: {'YES (bug)' if imported else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
