"""Wall time a user waits for: the suite live and replayed, a trivial pytest run, and inspect_ai.

In one invocation, round by round, times (as subprocesses, from the repo root):

(a) ``pytest -n auto tests/suite --model=openai/<name> --api-base=<stub> --record=all`` into a fresh
    fixtures folder, against the project's stub server (``shape_asserts.asking.stub_server``) at
    latency L with ``--concurrency C``: every case is really asked;
(b) the same replayed (``--record=none``) from the fixtures (a) wrote, with ``-n auto`` and serially;
(c) a trivial pytest run of as many ``def test_i(): pass`` tests, serially, in a folder of its own;
(d) where ``inspect_ai`` is importable (``pip install -e .[bench]``), an inspect_ai task asking the
    same prompts (lang ru) of the same stub server with ``--max-connections C``.

Each round starts with (a), whose fixtures that round's replays read; the other variants follow in
an order rotated round by round, since load on a shared machine drifts. It prints every wall time,
the medians, and the two ratios docs/performance.md holds to a goal, each against a baseline timed
in the same run: the live run against inspect_ai, and the replay with ``-n auto`` against serial.
The trivial run is a yardstick of the machine, with no goal.

    python bench/wall_time.py [--rounds 3] [--latency 0.3] [--concurrency 16] [--cases N] [--logs DIR] [--load K]

``--load K`` keeps K processes spinning through the timed rounds: a shared CI runner, whose other
work leaves the run fewer cores than it counts (``-n auto`` must not be slower there either).
    python bench/wall_time.py --rounds 5 --readme docs/performance.md
    python bench/wall_time.py --rounds 5 --model-name noisy --readme docs/performance.md

``--readme FILE`` also writes the output, with the date and the command, between the file's two
markers for the model (:func:`markers`): the figures in docs/performance.md are this output, not a
copy of it. ``--model-name noisy`` asks the stub's noisy drawer, so most replayed answers fail (and
their pytest runs exit 1, which the bench accepts).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = "tests/suite"
SUITE_FILE = "tests/suite/test_shapes.py"
INSPECT_TASK = textwrap.dedent("""\
    from inspect_ai import Task, task
    from inspect_ai.dataset import json_dataset
    from inspect_ai.solver import generate


    @task
    def shapes():
        return Task(dataset=json_dataset("prompts.jsonl"), solver=generate())
    """)

LIVE, INSPECT, REPLAY_AUTO, REPLAY_SERIAL, TRIVIAL = (
    "live -n auto",
    "inspect_ai",
    "replay -n auto",
    "replay serial",
    "trivial serial",
)


# ----------------------------------------------------------------------------- pure helpers


def verdict(ratio: float, ceiling: float) -> str:
    """``met`` when ``ratio`` is at most ``ceiling``, else ``MISSED`` (loud on purpose)."""
    return "met" if ratio <= ceiling else "MISSED"


def ratio_line(name: str, ratios: Sequence[float], ceiling: float, stretch: float | None = None) -> str:
    """One row of the ratio table: median of the per-round ratios, their range, goal and verdict.

    >>> ratio_line("a / b", [1.2, 0.9, 1.0], 1.0)
    'a / b                                     1.00×  (0.90–1.20)   goal ≤ 1.0   met'
    >>> ratio_line("a / b", [0.9], 1.0, stretch=0.8)
    'a / b                                     0.90×  (0.90–0.90)   goal ≤ 1.0   met; stretch ≤ 0.8 MISSED'
    """
    med = statistics.median(ratios)
    out = f"{name:<40} {med:5.2f}×  ({min(ratios):.2f}–{max(ratios):.2f})   goal ≤ {ceiling:.1f}   {verdict(med, ceiling)}"
    if stretch is not None:
        out += f"; stretch ≤ {stretch:.1f} {verdict(med, stretch)}"
    return out


_PYTEST_SECONDS = re.compile(r"\bin ([0-9]+(?:\.[0-9]+)?)s\b")
_CALLS_DONE = re.compile(r"shape-asserts: (\d+)/(\d+) calls done .*?, ([0-9]+(?:\.[0-9]+)?)s\s*$", re.M)
_FIRST_ANSWER = re.compile(r"the first answer came ([0-9]+(?:\.[0-9]+)?)s after the plan")
_INSPECT_TOTAL = re.compile(r"total time:\s+(\d+):(\d\d):(\d\d)")


def pytest_seconds(output: str) -> float | None:
    """The time pytest reports on its last line (``== 139 passed in 4.01s ==``): time inside pytest.

    >>> pytest_seconds("... \\n===== 139 passed in 12.34s (0:00:12) =====\\n")
    12.34
    >>> pytest_seconds("no summary") is None
    True
    """
    found = _PYTEST_SECONDS.findall(output)
    return float(found[-1]) if found else None


def calls_done_seconds(output: str) -> tuple[float | None, float | None]:
    """From the plugin's progress lines: when the first answers were in, and when all calls were.

    Progress lines are printed now and then, not per answer, so both are upper bounds; a run
    that asks from a second process says when its first answer came.

    >>> calls_done_seconds("shape-asserts: 0/9 calls done — x, 0.0s\\n"
    ...                    "shape-asserts: 4/9 calls done — x, 6.5s\\n"
    ...                    "shape-asserts: 9/9 calls done — x, 8.0s\\n")
    (6.5, 8.0)
    >>> calls_done_seconds("shape-asserts: 9/9 calls done — x, 8.0s\\n"
    ...                    "shape-asserts: the first answer came 4.5s after the plan was handed over\\n")
    (4.5, 8.0)
    >>> calls_done_seconds("")
    (None, None)
    """
    first = last = None
    found = _FIRST_ANSWER.search(output)  # asked from a second process while the tests ran
    if found:
        first = float(found[1])
    for done, planned, secs in _CALLS_DONE.findall(output):
        if int(done) > 0 and first is None:
            first = float(secs)
        if int(done) == int(planned):
            last = float(secs)
    return first, last


README_BEGIN = "<!-- bench/wall_time.py --readme: begin (written by the bench; rerun it, do not edit) -->"
README_END = "<!-- bench/wall_time.py --readme: end -->"


def markers(model_name: str) -> tuple[str, str]:
    """The pair of markers ``--readme`` writes between for the stub's model ``model_name``.

    >>> markers("noisy")[1]
    '<!-- bench/wall_time.py --model-name noisy --readme: end -->'
    """
    if model_name == "exact":
        return README_BEGIN, README_END
    flag = f"--model-name {model_name} --readme"
    return README_BEGIN.replace("--readme", flag), README_END.replace("--readme", flag)


def served_note(served: Sequence[tuple[float, float]], launched: float, latency: float, concurrency: int) -> str:
    """From the stub server's (received, answered) times: when the run's first request came and
    its last answer went, in seconds after ``launched`` (all ``time.monotonic()``), and how long
    the calls took against ``⌈N/C⌉·L``, the least rounds of ``C`` calls ``N`` answers need.

    >>> served_note([(10.0, 10.3), (10.1, 10.4), (10.4, 10.7)], 8.0, 0.3, 2)
    'first request at 2.0 s, last answer at 2.7 s: calls 0.7 s = 1.17× their 2 rounds of 0.3 s'
    >>> served_note([], 8.0, 0.3, 2)
    'no request served'
    """
    if not served:
        return "no request served"
    first = min(r for r, _ in served) - launched
    last = max(a for _, a in served) - launched
    rounds = -(-len(served) // concurrency)
    return (
        f"first request at {first:.1f} s, last answer at {last:.1f} s: calls {last - first:.1f} s = "
        f"{(last - first) / (rounds * latency):.2f}× their {rounds} rounds of {latency:g} s"
    )


def readme_block(lines: Sequence[str], command: str, when: str) -> str:
    """What ``--readme`` puts between the markers: when, by which command, and the output.

    >>> print(readme_block(["a", "b"], "python bench/wall_time.py", "2026-12-01"))
    Measured 2026-12-01 with `python bench/wall_time.py`:
    <BLANKLINE>
    ```text
    a
    b
    ```
    """
    return "\n".join([f"Measured {when} with `{command}`:", "", "```text", *lines, "```"])


def replace_block(text: str, block: str, begin: str = README_BEGIN, end: str = README_END) -> str:
    """``text`` with what lies between the markers ``begin`` and ``end`` replaced by ``block``.

    >>> replace_block("no markers", "new")
    Traceback (most recent call last):
    ValueError: the page has no pair of markers <!-- bench/wall_time.py --readme: begin ... -->, in order, once each
    """
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"the page has no pair of markers {begin.split(' (')[0]} ... -->, in order, once each")
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    return f"{head}{begin}\n{block}\n{end}{tail}"


def inspect_seconds(output: str) -> float | None:
    """inspect_ai's own ``total time: 0:00:09`` (whole seconds) of an eval.

    >>> inspect_seconds("total time:          0:01:09")
    69.0
    """
    m = _INSPECT_TOTAL.search(output)
    return float(int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])) if m else None


def rotated(items: Sequence[str], by: int) -> list[str]:
    """``items`` rotated left ``by`` places, so each variant takes each position in turn.

    >>> rotated(["a", "b", "c"], 4)
    ['b', 'c', 'a']
    """
    k = by % len(items) if items else 0
    return [*items[k:], *items[:k]]


def spread_subset(n_total: int, n: int) -> list[int]:
    """Indices of ``n`` of ``n_total`` items spread evenly (every family gets a share).

    >>> spread_subset(10, 3)
    [0, 3, 7]
    >>> spread_subset(3, 5)
    [0, 1, 2]
    """
    n = min(n, n_total)
    return sorted({round(i * n_total / n) for i in range(n)}) if n else []


# ----------------------------------------------------------------------------- the runs


@dataclass
class Timings:
    """Wall times per variant, one per round, and notes read from each run's own output."""

    wall: dict[str, list[float]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)

    def add(self, variant: str, wall: float, note: str) -> None:
        self.wall.setdefault(variant, []).append(wall)
        self.notes.setdefault(variant, []).append(note)


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], log: Path | None) -> tuple[float, str]:
    """Time ``cmd``; exit 1 (some tests failed: the noisy drawer's answers) is a run like any other."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out = proc.stdout + proc.stderr
    if log is not None:
        log.write_text(f"$ {' '.join(cmd)}\n# cwd {cwd}\n# wall {wall:.2f} s, exit {proc.returncode}\n\n{out}")
    if proc.returncode not in (0, 1):
        print(out[-4000:])
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    return wall, out


def _stub(latency: float):  # imported here: the helpers above stay importable without numpy
    from shape_asserts.asking.stub_server import StubServer

    return StubServer(latency=latency)


@contextlib.contextmanager
def _busy(count: int) -> Iterator[None]:
    """``count`` processes spinning on the CPU while the block runs: a machine whose cores are shared."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.3, help="seconds the stub server adds to each answer")
    ap.add_argument("--concurrency", type=int, default=16, help="calls in flight, for both tools")
    ap.add_argument("--cases", type=int, default=0, help="time a spread subset of this many cases (0: all)")
    ap.add_argument("--model-name", default="exact", help="the stub's model: openai/<name>")
    ap.add_argument("--logs", type=Path, default=None, help="keep each run's output in this folder")
    ap.add_argument(
        "--load",
        type=int,
        default=0,
        help="busy processes spinning through the timed rounds (a shared CI runner; 1 keeps one core busy)",
    )
    ap.add_argument(
        "--readme",
        type=Path,
        default=None,
        help="also write the output between this file's markers for the model (docs/performance.md)",
    )
    args = ap.parse_args(argv)
    if args.readme is not None:  # checked first: an hour of measuring is not lost to a missing marker
        replace_block(args.readme.read_text(encoding="utf-8"), "", *markers(args.model_name))
    printed: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        printed.append(line)

    from shape_asserts.cases import load_cases

    model = f"openai/{args.model_name}"
    cases = load_cases()
    chosen = [cases[i] for i in spread_subset(len(cases), args.cases)] if args.cases else cases
    n = len(chosen)
    # a subset is selected by node id; the whole suite is run as a user runs it, by folder
    selection = [f"{SUITE_FILE}::test_drawing[{c.id}@{model}]" for c in chosen] if args.cases else [SUITE]
    has_inspect = importlib.util.find_spec("inspect_ai") is not None
    py = sys.executable
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench-not-a-real-key"}
    env.pop("OPENAI_BASE_URL", None)
    # A user's Python keeps bytecode caches (pip writes them for installed packages, Python and
    # pytest for the rest); a machine with PYTHONDONTWRITEBYTECODE recompiles this project's
    # modules, and re-rewrites every pytest plugin's, in every process. Caches go to a folder of
    # the bench's own (PYTHONPYCACHEPREFIX), filled by the warm-up below.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)

    bound = n * args.latency / args.concurrency
    say(
        f"machine: {os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python {platform.python_version()}; "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    say(
        f"N={n} cases (lang ru), model {model}, L={args.latency:g} s, C={args.concurrency}: "
        f"bound N·L/C = {bound:.2f} s; rounds {args.rounds}"
    )
    if args.load:
        say(f"load: {args.load} busy process(es) spinning through the timed rounds (--load {args.load})")
    if not has_inspect:
        say("(d) inspect_ai: skipped — not importable here (pip install -e '.[bench]')")

    t = Timings()
    with tempfile.TemporaryDirectory(prefix="wall-time-") as tmp_s:
        tmp = Path(tmp_s)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        say("bytecode caches: kept (PYTHONPYCACHEPREFIX in the bench's folder, warmed before round 1)")
        trivial = tmp / "trivial"
        trivial.mkdir()
        (trivial / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
        (trivial / "test_trivial.py").write_text("".join(f"def test_{i}():\n    pass\n\n\n" for i in range(n)))
        insp = tmp / "inspect"
        insp.mkdir()
        (insp / "task.py").write_text(INSPECT_TASK)
        with (insp / "prompts.jsonl").open("w", encoding="utf-8") as f:
            for c in chosen:
                f.write(json.dumps({"id": c.id, "input": c.prompt("ru")}, ensure_ascii=False) + "\n")

        # warm-up, untimed: bytecode caches and the page cache, so round 1 is not the only cold one
        _run([py, "-c", "import litellm" + (", inspect_ai" if has_inspect else "")], cwd=ROOT, env=env, log=None)
        _run([py, "-m", "pytest", "-q", SUITE, "--model=reference/exact", "--record=none"], cwd=ROOT, env=env, log=None)
        _run([py, "-m", "pytest", "-q", "--collect-only", *selection, f"--model={model}"], cwd=ROOT, env=env, log=None)
        _run([py, "-m", "pytest", "-q", str(trivial)], cwd=trivial, env=env, log=None)

        others = [REPLAY_AUTO, REPLAY_SERIAL, TRIVIAL] + ([INSPECT] if has_inspect else [])
        with _busy(args.load):  # (--load: a shared machine's other work, through every timed run)
            for r in range(args.rounds):
                fixtures = tmp / f"fixtures-{r}"
                order = [LIVE, *rotated(others, r)]
                line = []
                for variant in order:
                    log = args.logs / f"round{r + 1}-{variant.replace(' ', '_')}.log" if args.logs else None
                    if variant in (LIVE, INSPECT):
                        with _stub(args.latency) as srv:
                            launched = time.monotonic()
                            if variant == LIVE:
                                cmd = [py, "-m", "pytest", "-n", "auto", *selection, f"--model={model}"]
                                cmd += [f"--api-base={srv.base_url}", "--record=all", f"--fixtures-dir={fixtures}"]
                                cmd += [f"--concurrency={args.concurrency}"]
                                wall, out = _run(cmd, cwd=ROOT, env=env, log=log)
                                first, last = calls_done_seconds(out)
                                note = f"in pytest {pytest_seconds(out)} s, first answers by {first} s, all by {last} s"
                            else:
                                cmd = [py, "-m", "inspect_ai", "eval", "task.py", "--model", model]
                                # the stub speaks chat completions; inspect_ai may pick the Responses API
                                cmd += ["-M", "responses_api=false", "--max-connections", str(args.concurrency)]
                                cmd += ["--log-dir", str(tmp / f"inspect-logs-{r}"), "--display", "plain"]
                                ienv = {**env, "OPENAI_BASE_URL": srv.base_url}
                                wall, out = _run(cmd, cwd=insp, env=ienv, log=log)
                                note = f"inspect's total time {inspect_seconds(out)} s"
                            asked, peak = srv.state.requests, srv.state.max_in_flight
                            served = served_note(srv.state.served, launched, args.latency, args.concurrency)
                        if asked != n:
                            raise SystemExit(f"{variant}: the stub was asked {asked} times, not {n}")
                        note += f", {asked} asked, peak {peak} in flight; {served}"
                    elif variant == TRIVIAL:
                        wall, out = _run([py, "-m", "pytest", "-q", str(trivial)], cwd=trivial, env=env, log=log)
                        note = f"in pytest {pytest_seconds(out)} s"
                    else:
                        xdist = ["-n", "auto"] if variant == REPLAY_AUTO else []
                        cmd = [py, "-m", "pytest", *xdist, *selection, f"--model={model}", "--record=none"]
                        cmd += [f"--fixtures-dir={fixtures}"]
                        wall, out = _run(cmd, cwd=ROOT, env=env, log=log)
                        note = f"in pytest {pytest_seconds(out)} s"
                    t.add(variant, wall, note)
                    line.append(f"{variant} {wall:.1f} s")
                say(f"round {r + 1}: " + " | ".join(line))

    say()
    say(f"{'variant':<16} {'median':>8}   rounds (wall; what the run itself reported)")
    for variant in [LIVE, INSPECT, REPLAY_AUTO, REPLAY_SERIAL, TRIVIAL]:
        if variant in t.wall:
            walls = t.wall[variant]
            say(f"{variant:<16} {statistics.median(walls):7.2f}s")
            for w, note in zip(walls, t.notes[variant]):
                say(f"{'':<16} {w:7.2f}s  {note}")

    def per_round(a: str, b: str) -> list[float]:
        return [x / y for x, y in zip(t.wall[a], t.wall[b])]

    say()
    say("ratio (median of per-round ratios, range)")
    if INSPECT in t.wall:
        say(ratio_line(f"{LIVE} / {INSPECT}", per_round(LIVE, INSPECT), 1.0, stretch=0.8))
    else:
        say(f"{LIVE} / {INSPECT}: skipped — inspect_ai is not importable")
    say(ratio_line(f"{REPLAY_AUTO} / {REPLAY_SERIAL}", per_round(REPLAY_AUTO, REPLAY_SERIAL), 1.0))
    say(f"load average at end {os.getloadavg()[0]:.2f}")
    if args.readme is not None:
        command = "python bench/wall_time.py " + " ".join(argv if argv is not None else sys.argv[1:])
        when = time.strftime("%Y-%m-%d", time.gmtime())
        text = replace_block(
            args.readme.read_text(encoding="utf-8"),
            readme_block(printed, command.strip(), when),
            *markers(args.model_name),
        )
        tmp = args.readme.with_name(args.readme.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, args.readme)  # whole or not at all
        print(f"written to {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
