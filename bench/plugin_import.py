"""Plugin cost: what an installed shape-asserts costs a pytest run that never asks for a shape.

The plugin is a ``pytest11`` entry point, so it loads in every pytest run of an environment where
it is installed. Two figures, both measured here in one invocation:

1. ``python -X importtime -c "import pytest; import shape_asserts.plugin"``: the plugin module's
   cumulative import time (the last line, which includes the package ``shape_asserts`` it imports
   first) in an interpreter that has pytest already, as every run that loads the plugin has; median
   of N fresh interpreters, and whether numpy, litellm or a family was imported. Goal: ≤ 50 ms.
2. A one-test pytest run (``test_x.py: def test_x(): pass``, ``python -m pytest -q -p no:cacheprovider``)
   with the plugin, against the same run with ``-p no:shape_asserts``: runs alternate, median of N
   each. Goal: ≤ 1.1×.

    python bench/plugin_import.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

IMPORT_GOAL_MS = 50.0
RUN_GOAL = 1.1
#: Modules a run that never asks for a shape must not import.
HEAVY = ("numpy", "litellm", "shape_asserts.families.registry", "shape_asserts.geometry")


def importtime(py: str) -> tuple[float, set[str]]:
    """One fresh interpreter importing the plugin: its cumulative ms (the last line), and which of
    :data:`HEAVY` it imported."""
    proc = subprocess.run(
        [py, "-X", "importtime", "-c", "import pytest; import shape_asserts.plugin"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name))
    if not rows or rows[-1][1].strip() != "shape_asserts.plugin":
        raise SystemExit(f"unexpected -X importtime output:\n{proc.stderr[-2000:]}")
    imported = {h for h in HEAVY for _, name in rows if name.strip() == h}
    return rows[-1][0] / 1000, imported


def run(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    return wall


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each measurement (default 5)")
    args = ap.parse_args(argv)
    py = sys.executable

    imports = [importtime(py) for _ in range(args.repeat)]
    last = statistics.median(i[0] for i in imports)
    heavy = set().union(*(i[1] for i in imports))

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "test_x.py").write_text("def test_x():\n    pass\n")
        base = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        run(base, root)  # warm the disk cache and the bytecode of both variants (not timed)
        run([*base, "-p", "no:shape_asserts"], root)
        with_plugin, without = [], []
        for _ in range(args.repeat):
            with_plugin.append(run(base, root))
            without.append(run([*base, "-p", "no:shape_asserts"], root))
    w, wo = statistics.median(with_plugin), statistics.median(without)

    print(f"machine: {os.cpu_count()} cores; median of {args.repeat}")
    print(
        f"import shape_asserts.plugin (importtime, last line): {last:.1f} ms "
        f"(goal ≤ {IMPORT_GOAL_MS:.0f} ms: {verdict(last <= IMPORT_GOAL_MS)})"
    )
    print(f"  imported by it: {', '.join(sorted(heavy)) + ' (bug)' if heavy else 'none of ' + ', '.join(HEAVY)}")
    print(f"one-test pytest run, -p no:shape_asserts: {wo:.2f} s")
    print(
        f"one-test pytest run, plugin loaded:       {w:.2f} s = {w / wo:.2f}× "
        f"(goal ≤ {RUN_GOAL}×: {verdict(w / wo <= RUN_GOAL)})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
