"""A whole run of hostile answers: N models answering every built-in case with 5,000 scattered points.

Run: ``.venv/bin/python bench/hostile_run.py [--models 20]``

Each model's recordings are the shipped ones of ``reference/exact`` with each answer replaced by
5,000 uniformly random cells (the most the parser accepts is 10,000; 5,000 is what the hostile
sweep of issue 32 used), written under the names ``hostile/m00``, ``hostile/m01``, ... into a
fresh folder. The run replays them as a user would, ``pytest -n auto tests/suite --model=... (×N)
--record=none --junitxml=... --shape-report=...``, and prints its outcome, wall time, the peak
memory of pytest's process tree (summed over its processes, polled every 50 ms) and of its largest
process, and the bytes of its terminal output, JUnit XML and report. Every answer fails; what is
measured is that nothing a model sends can make the run's memory or files grow past their budgets.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from memory import measure  # noqa: E402

from shape_asserts.asking.store import model_slug  # noqa: E402

POINTS = 5_000


def write_fixtures(folder: Path, models: list[str], seed: int = 1) -> int:
    """The built-in cases' recordings of ``reference/exact``, answered with random points by each model."""
    rng = random.Random(seed)
    cases = 0
    for path in sorted((ROOT / "fixtures" / model_slug("reference/exact")).glob("*.json")):
        if path.name.startswith("bench-"):
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        for model in models:
            points = [[rng.randrange(50), rng.randrange(50)] for _ in range(POINTS)]
            sample = dict(doc["samples"][0], text=json.dumps({"points": points}))
            out = folder / model_slug(model) / path.name
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({**doc, "model": model, "samples": [sample]}), encoding="utf-8")
        cases += 1
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=int, default=20)
    args = ap.parse_args(argv)
    models = [f"hostile/m{k:02d}" for k in range(args.models)]
    with tempfile.TemporaryDirectory(prefix="hostile-run-") as tmp_s:
        tmp = Path(tmp_s)
        cases = write_fixtures(tmp / "fixtures", models)
        cmd = [sys.executable, "-m", "pytest", "tests/suite", "-q", "-n", "auto", "-p", "no:cacheprovider"]
        cmd += [f"--model={m}" for m in models]
        cmd += ["--record=none", f"--fixtures-dir={tmp / 'fixtures'}", f"--snapshots-dir={tmp / 'snapshots'}"]
        cmd += [f"--junitxml={tmp / 'junit.xml'}", f"--shape-report={tmp / 'report.html'}"]
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
        env.pop("GITHUB_STEP_SUMMARY", None)
        wall, tree, largest, status, output = measure(cmd, env)
        lines = output.strip().splitlines()
        print(f"{args.models} models × {cases} built-in cases, every answer {POINTS:,} random points, -n auto")
        print(f"  outcome: {lines[-1].strip('= ') if lines else '(no output)'} (status {status})")
        print(f"  wall {wall:.0f} s; peak RSS {tree:.0f} MB the process tree, {largest:.0f} MB its largest process")
        print(f"  terminal {len(output.encode()):,} bytes")
        for name in ("junit.xml", "report.html"):
            path = tmp / name
            print(f"  {name} {path.stat().st_size:,} bytes" if path.exists() else f"  {name}: not written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
