"""Peak memory of a benchmark replay at N models: how much a run holds per test.

Run: ``python bench/memory.py`` (``--models 2 10 20``, ``--workers 0 auto``, ``--before DIR``,
``--readme docs/performance.md``).

The scenario of issue 30 without the provider: the 312 benchmark cases replayed (``--record=none``)
for N models, half drawing exactly and half noisily, with ``--shape-report``. The models are named
``bench/exact-01``, ``bench/noisy-02``, …: their recordings are the shipped ones of
``reference/exact`` and ``reference/noisy``, copied into a fixtures folder of the bench's own under
each name. A replay holds what a live run holds once its answers are in (the results, the report,
the summary), without the provider's timing; the asking's own memory is not in it.

Peak memory is the largest sum of the resident sets of the run's process tree (pytest and its
xdist workers), polled every 50 ms, and the largest single process among them. ``--before DIR``
runs the same scenario, round by round in turn, with another checkout's code (``PYTHONPATH=DIR``:
the project as it was) and prints after / before, the ratio the goal is held to.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shape_asserts.asking.store import model_slug  # noqa: E402

#: The shipped recordings each bench model's are copied from, by style.
SOURCES = {"exact": "reference/exact", "noisy": "reference/noisy"}
#: How often the process tree's memory is read, seconds.
POLL = 0.05


@dataclass(frozen=True)
class Measured:
    """One run: its tests, wall time, and peak memory (the tree's sum and the largest process), MB."""

    tests: int
    wall: float
    tree_mb: float
    largest_mb: float
    status: int


def bench_models(n: int) -> list[str]:
    """``n`` model names, exact and noisy in turn: ``bench/exact-01``, ``bench/noisy-02``, ..."""
    return [f"bench/{'exact' if i % 2 == 0 else 'noisy'}-{i + 1:02d}" for i in range(n)]


def clone_fixtures(folder: Path, models: Sequence[str]) -> None:
    """Copy the shipped benchmark recordings of the reference drawers under each bench model's name."""
    for model in models:
        style = model.split("/")[1].split("-")[0]
        source = ROOT / "fixtures" / model_slug(SOURCES[style])
        target = folder / model_slug(model)
        target.mkdir(parents=True, exist_ok=True)
        for path in source.glob("bench-*.json"):
            doc = json.loads(path.read_text(encoding="utf-8"))
            doc["model"] = model
            (target / path.name).write_text(json.dumps(doc), encoding="utf-8")


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float, int, str]:
    """Run ``cmd``; its wall time, peak tree RSS and largest process RSS (MB), status, output."""
    import psutil

    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        top = psutil.Process(proc.pid)
        tree_peak = largest = 0
        while proc.poll() is None:
            try:
                procs = [top, *top.children(recursive=True)]
                sizes = []
                for p in procs:
                    with contextlib.suppress(psutil.Error):
                        sizes.append(p.memory_info().rss)
            except psutil.Error:
                sizes = []
            if sizes:
                tree_peak = max(tree_peak, sum(sizes))
                largest = max(largest, max(sizes))
            time.sleep(POLL)
        wall = time.perf_counter() - started
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return wall, tree_peak / 2**20, largest / 2**20, proc.returncode, text


def tests_run(output: str) -> int:
    """The passed + failed + errors pytest's last line counts."""
    import re

    last = output.strip().splitlines()[-1] if output.strip() else ""
    return sum(int(n) for n, _ in re.findall(r"(\d+) (passed|failed|error)", last))


def run_once(code: Path, models: Sequence[str], workers: str, folder: Path) -> Measured:
    """One replay of the benchmark for ``models`` with the code at ``code``."""
    report = folder / "report.html"
    cmd = [sys.executable, "-m", "pytest", "tests/suite", "-m", "benchmark", "-q", "-p", "no:randomly"]
    cmd += [f"--model={m}" for m in models]
    cmd += ["--record=none", f"--fixtures-dir={folder / 'fixtures'}", f"--shape-report={report}", "-n", workers]
    env = {**os.environ, "PYTHONPATH": str(code)}
    env.pop("GITHUB_STEP_SUMMARY", None)
    wall, tree, largest, status, output = measure(cmd, env)
    if status not in (0, 1):
        raise SystemExit(f"the run failed (status {status}):\n{output[-3000:]}")
    return Measured(tests_run(output), wall, tree, largest, status)
