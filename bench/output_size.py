"""What a benchmark run of many models writes: terminal bytes, report bytes, warnings, report open time.

Run: ``python bench/output_size.py [--models 10] [--workers auto] [--readme docs/performance.md]``

Makes recordings for N models into a fresh fixtures folder — half of them drawing exactly
(``bench/exact-K``: each case's ideal), half noisily (``bench/noisy-K``: the reference noisy
drawer, seeded by K, so each noisy model fails its own cases) — then replays the benchmark matrix
for all of them as a user runs it (``pytest -n auto -m benchmark tests/suite --model=... (×N)
--record=none --shape-report report.html``, snapshots written with ``--snapshot-update`` into a
folder outside ``tests/``), and prints:

- the terminal's bytes and lines (goal: at most 1 MB at 10 models);
- the report's bytes (goal: at most 10 MB at 10 models) and its biggest sections;
- the warnings pytest counted (goal: none);
- the seconds headless Chromium takes to open the report and paint its first screen, beside the
  same for an empty page (goal: within 5 s), where ``chromium`` is on PATH.

``--readme FILE`` also writes the output, with the date and the command, between the file's two
markers for this bench (see :data:`BEGIN`): the figures in docs/performance.md are this output.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shape_asserts import defaults  # noqa: E402
from shape_asserts.asking.reference import answer_text  # noqa: E402
from shape_asserts.asking.store import FixtureStore, Recording  # noqa: E402
from shape_asserts.cases import load_cases  # noqa: E402

BEGIN = "<!-- bench/output_size.py --readme: begin (written by the bench; rerun it, do not edit) -->"
END = "<!-- bench/output_size.py --readme: end -->"
#: Goals of issue 30, at 10 models × the 312 benchmark cases.
TERMINAL_GOAL = 1_000_000
REPORT_GOAL = 10_000_000
OPEN_GOAL_S = 5.0
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
SECTIONS = ("summary", "leaderboard", "overview", "stability", "drawings")


def model_names(n: int) -> list[str]:
    """``n`` model names, the first half exact, the rest noisy (one more noisy for an odd ``n``)."""
    exact = n // 2
    return [f"bench/exact-{k}" for k in range(1, exact + 1)] + [f"bench/noisy-{k}" for k in range(1, n - exact + 1)]


def record(fixtures: Path, models: list[str]) -> int:
    """Write one recording per model × benchmark case; the number of cases."""
    store = FixtureStore(fixtures)
    cases = [c for c in load_cases(benchmark=True) if "benchmark" in c.tags]
    for model in models:
        style, k = model.split("/", 1)[1].split("-")
        for case in cases:
            text = answer_text(case, style, sample=int(k))  # the noisy drawer's seed differs per model
            rec = Recording(
                model=model,
                case_id=case.id,
                lang=defaults.LANG,
                temperature=None,
                prompt_sha256=case.prompt_hash(defaults.LANG),
                samples=[{"index": 0, "text": text, "finish_reason": "stop"}],
                max_tokens=defaults.MAX_TOKENS,
            )
            path = store.path(model, case.id)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(rec.to_json(), ensure_ascii=False), encoding="utf-8")
    return len(cases)


def run_suite(work: Path, models: list[str], workers: str) -> tuple[bytes, float, Path]:
    """Replay the benchmark for ``models``; the terminal's bytes, the wall time and the report's path."""
    report = work / "report.html"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-n",
        workers,
        "-m",
        "benchmark",
        "tests/suite",
        "-p",
        "no:randomly",
        "--record=none",
        f"--fixtures-dir={work / 'fixtures'}",
        f"--snapshots-dir={work / 'snapshots'}",
        "--snapshot-update",
        f"--shape-report={report}",
        *(f"--model={m}" for m in models),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"pytest exited {done.returncode}:\n{done.stdout.decode()[-3000:]}\n{done.stderr.decode()[-3000:]}")
    return done.stdout + done.stderr, wall, report


def section_sizes(page: str) -> dict[str, int]:
    """Bytes of each top-level section of the report, by its id."""
    starts = sorted((m.start(), m.group(1)) for m in re.finditer(r'<section id="([a-z]+)">', page))
    bounds = [*(s for s, _ in starts[1:]), len(page)]
    return {name: len(page[s:e].encode()) for (s, name), e in zip(starts, bounds)}


def open_seconds(page: Path, profile: Path) -> float | None:
    """Seconds headless Chromium takes to open ``page`` and paint its first screen (None: no browser)."""
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        return None
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        f"--user-data-dir={profile}",
        f"--screenshot={profile / 'shot.png'}",
        "--window-size=1400,1000",
        page.as_uri(),
    ]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, timeout=300, check=False)
    return time.perf_counter() - started


def measure(n: int, workers: str) -> list[str]:
    """Run the scenario for ``n`` models; the lines to print."""
    models = model_names(n)
    with tempfile.TemporaryDirectory(prefix="output-size-") as tmp:
        work = Path(tmp)
        cases = record(work / "fixtures", models)
        out, wall, report = run_suite(work, models, workers)
        text = out.decode("utf-8", errors="replace")
        outcome = re.findall(r"=+ (.*\bin [\d.]+s.*) =+", text)
        warnings = re.search(r"(\d+) warnings?\b", outcome[-1]) if outcome else None
        page = report.read_text(encoding="utf-8") if report.exists() else ""
        empty = work / "empty.html"
        empty.write_text("<!DOCTYPE html><title>empty</title>", encoding="utf-8")
        (work / "profile").mkdir()
        opened = open_seconds(report, work / "profile") if page else None
        blank = open_seconds(empty, work / "profile") if opened is not None else None
    size = len(page.encode())
    lines = [
        f"{n} models ({n // 2} exact, {n - n // 2} noisy) × {cases} benchmark cases = {n * cases} tests, "
        f"-n {workers}, {wall:.0f} s",
        f"  outcome: {outcome[-1] if outcome else '(no summary line)'}",
        f"  terminal: {len(out):,} bytes, {text.count(chr(10)):,} lines "
        f"(goal ≤ {TERMINAL_GOAL:,} at 10 models: {'met' if len(out) <= TERMINAL_GOAL else 'NOT met'})",
        f"  report: {size:,} bytes (goal ≤ {REPORT_GOAL:,} at 10 models: {'met' if size <= REPORT_GOAL else 'NOT met'})",
    ]
    parts = section_sizes(page)
    lines.append("    " + ", ".join(f"{name} {parts[name]:,}" for name in SECTIONS if name in parts))
    lines.append(f"  warnings: {int(warnings.group(1)) if warnings else 0}")
    if opened is None:
        lines.append("  open in chromium: not measured (no chromium on PATH)")
    else:
        verdict = "met" if opened <= OPEN_GOAL_S else "NOT met"
        lines.append(
            f"  open in chromium (headless, first screen painted): {opened:.1f} s; an empty page {blank:.1f} s "
            f"(goal ≤ {OPEN_GOAL_S:g} s: {verdict})"
        )
    return lines


def write_block(path: Path, lines: list[str], command: str) -> None:
    """Replace what lies between the file's markers with ``lines``, the date and the command."""
    page = path.read_text(encoding="utf-8")
    if page.count(BEGIN) != 1 or page.count(END) != 1 or page.index(BEGIN) > page.index(END):
        raise SystemExit(f"{path} has no pair of markers {BEGIN} ... {END}, in order, once each")
    when = datetime.date.today().isoformat()
    block = "\n".join([BEGIN, f"Measured {when} with `{command}`:", "", "```text", *lines, "```", END])
    head, rest = page.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    path.write_text(head + block + tail, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, nargs="+", default=[10], help="model counts to run (default 10)")
    parser.add_argument("--workers", default="auto", help="pytest -n value (default auto)")
    parser.add_argument("--readme", type=Path, help="write the output between this file's markers")
    args = parser.parse_args()
    printed: list[str] = []
    for n in args.models:
        lines = measure(n, args.workers)
        for line in lines:
            print(line, flush=True)
        printed += lines
    if args.readme is not None:
        command = "python bench/output_size.py " + " ".join(sys.argv[1:])
        write_block(args.readme, printed, command.strip())


if __name__ == "__main__":
    main()
