"""Peak memory of a benchmark replay at N models: how much a run holds per test.

Run: ``python bench/memory.py`` (``--models 2 10 20``, ``--workers 0 auto``, ``--before DIR``,
``--readme docs/performance.md``).

The scenario of issue 30 without the provider: the 312 benchmark cases replayed (``--record=none``)
for N models, half drawing exactly and half noisily, with ``--shape-report``. The models are named
``bench/exact-01``, ``bench/noisy-02``, …: their recordings are this checkout's shipped ones of
``reference/exact`` and ``reference/noisy``, copied into a fixtures folder of the bench's own under
each name. A replay holds what a live run holds once its answers are in (the results, the report,
the summary), without the provider's timing; the asking's own memory is not in it.

Peak memory is the largest sum of the resident sets of the run's process tree (pytest and its
xdist workers), polled every 50 ms, and the largest single process among them. ``--before DIR``
runs the same scenario with another checkout's code (run from that folder, with
``PYTHONPATH=DIR``: the project as it was) and prints after / before.
"""

from __future__ import annotations

import argparse
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


def measure(cmd: list[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[float, float, float, int, str]:
    """Run ``cmd`` in ``cwd``; its wall time, peak tree RSS and largest process RSS (MB), status, output."""
    import psutil

    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
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


def count_tests(output: str) -> int:
    """The passed + failed + errors pytest's last line counts."""
    import re

    last = output.strip().splitlines()[-1] if output.strip() else ""
    return sum(int(n) for n, _ in re.findall(r"(\d+) (passed|failed|error)", last))


def run_once(code: Path, models: Sequence[str], workers: str, folder: Path) -> Measured:
    """One replay of the benchmark for ``models`` with the code at ``code``."""
    report = folder / "report.html"
    # from the checkout's own folder: `python -m` puts the current folder first on sys.path, so the
    # code run is the one there (PYTHONPATH alone would lose to it); no cache written into it
    cmd = [sys.executable, "-m", "pytest", "tests/suite", "-m", "benchmark", "-q", "-p", "no:randomly"]
    cmd += ["-p", "no:cacheprovider"]
    cmd += [f"--model={m}" for m in models]
    cmd += ["--record=none", f"--fixtures-dir={folder / 'fixtures'}", f"--shape-report={report}", "-n", workers]
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
    env.pop("GITHUB_STEP_SUMMARY", None)
    wall, tree, largest, status, output = measure(cmd, env, cwd=code)
    if status not in (0, 1):
        raise SystemExit(f"the run failed (status {status}):\n{output[-3000:]}")
    return Measured(count_tests(output), wall, tree, largest, status)


BEGIN = "<!-- bench/memory.py --readme: begin (written by the bench; rerun it, do not edit) -->"
END = "<!-- bench/memory.py --readme: end -->"


def replace_block(text: str, block: str) -> str:
    """``text`` with what lies between this bench's markers replaced by ``block``.

    >>> replace_block("no markers", "new")
    Traceback (most recent call last):
    ValueError: the page has no pair of markers <!-- bench/memory.py --readme: begin ... -->, in order, once each
    """
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"the page has no pair of markers {BEGIN.split(' (')[0]} ... -->, in order, once each")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def row(n: int, workers: str, variant: str, m: Measured) -> str:
    per = 1024 * m.tree_mb / m.tests if m.tests else 0.0
    return (
        f"{n:>6}  {m.tests:>5}  {workers:>7}  {variant:<7}  {m.wall:>6.1f}s  {m.tree_mb:>8.0f} MB  "
        f"{m.largest_mb:>8.0f} MB  {per:>7.0f} KB"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=int, nargs="+", default=[10, 20], help="numbers of models to run")
    ap.add_argument("--workers", nargs="+", default=["auto"], help="-n values to run (0: serial)")
    ap.add_argument("--before", type=Path, default=None, help="another checkout to compare with (PYTHONPATH)")
    ap.add_argument(
        "--before-at",
        type=int,
        nargs="+",
        default=None,
        help="run --before only at these numbers of models (default: all)",
    )
    ap.add_argument("--readme", type=Path, default=None, help="write the figures into this page's block")
    args = ap.parse_args(argv)

    import platform

    out: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    say(
        f"machine: {os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}; load average at start {os.getloadavg()[0]:.2f}"
    )
    say("scenario: the 312 benchmark cases × N models replayed (--record=none), with --shape-report")
    say(
        f"{'models':>6}  {'tests':>5}  {'-n':>7}  {'code':<7}  {'wall':>7}  {'peak RSS':>11}  {'largest':>11}  {'a test':>10}"
    )
    variants = [("after", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    got: dict[tuple[int, str, str], Measured] = {}
    for n in args.models:
        models = bench_models(n)
        with tempfile.TemporaryDirectory(prefix="shape-memory-") as tmp:
            folder = Path(tmp)
            clone_fixtures(folder / "fixtures", models)
            for workers in args.workers:
                for variant, code in variants:
                    if variant == "before" and args.before_at is not None and n not in args.before_at:
                        continue
                    m = got[(n, workers, variant)] = run_once(code, models, workers, folder)
                    say(row(n, workers, variant, m))
    say("")
    say("peak RSS: the largest sum over the run's processes (pytest and its xdist workers), polled every 50 ms;")
    say("largest: the largest single process; a test: peak RSS / tests")
    for workers in args.workers:
        for n in args.models:
            after, before = got.get((n, workers, "after")), got.get((n, workers, "before"))
            if after and before:
                say(
                    f"-n {workers}, {n} models: after / before = {after.tree_mb / before.tree_mb:.2f} (peak RSS), "
                    f"{after.largest_mb / before.largest_mb:.2f} (largest process)"
                )
        small, large = min(args.models), max(args.models)
        a, b = got.get((small, workers, "after")), got.get((large, workers, "after"))
        if a and b and large > small:
            per = 1024 * (b.tree_mb - a.tree_mb) / (b.tests - a.tests)
            say(
                f"-n {workers}, growth from {small} to {large} models: {b.tree_mb / a.tree_mb:.2f}× the peak RSS "
                f"for {b.tests / a.tests:.2f}× the tests ({per:+.0f} KB a test)"
            )
    if args.readme:
        command = "python bench/memory.py " + " ".join(argv if argv is not None else sys.argv[1:])
        when = time.strftime("%Y-%m-%d")
        block = "\n".join([f"Measured {when} with `{command.strip()}`:", "", "```text", *out, "```"])
        page = args.readme.read_text(encoding="utf-8")
        args.readme.write_text(replace_block(page, block), encoding="utf-8")
        print(f"wrote the figures into {args.readme}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
