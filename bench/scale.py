"""The benchmark at the scale its users run it: many models × the benchmark matrix, live and replayed.

For each model count M (``--models 10,20``), half the models drawing exactly (``openai/exact-1``…)
and half noisily (``openai/noisy-1``…), it starts the project's stub server through its command line
(``python -m shape_asserts.asking.stub_server --latency L``, a process of its own, as a user starts
it) and times, as subprocesses from the repository root:

- **plain client**: the same calls as plain ``httpx`` POSTs of the same server, C at a time: what
  the machine allows at that moment, a yardstick measured beside the live run;
- **live**: ``pytest -n auto -m benchmark tests/suite --model=… (×M) --api-base=<stub>
  --concurrency C --record=all --shape-report <report>`` into fresh fixtures and snapshots folders
  (the snapshots outside ``tests/``, as a user's may be): every case is really asked;
- **replay -n auto** and **replay serial**: the same selection replayed (``--record=none``) from what
  the live run recorded, in turn, round by round.

It prints, per M: errors, the live wall time against the bound N·L/C (N = M × the benchmark's
cases), the peak memory of the live run's process tree (summed over its processes, sampled every
0.2 s; and its largest single process), the bytes the terminal got, the report's bytes (every file
written into the report's own folder), pytest's count of warnings, and replay ``-n auto`` / serial.
Before those, side by side in this process: the CPU one call costs the asking through litellm
(the fetch's own path: :meth:`Asker.fetch`) against the same call as a plain ``httpx`` POST.

    python bench/scale.py                         # 10 and 20 models (several minutes each)
    python bench/scale.py --models 10 --readme docs/performance.md
    python bench/scale.py --quick                 # 2 models: a check that the bench runs

``--readme FILE`` writes the output, with the date and the command, between the file's markers for
this bench (as bench/wall_time.py does). Linux only: memory is read from ``/proc``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling bench's helpers

from wall_time import readme_block, replace_block
from wall_time import verdict as judged

ROOT = Path(__file__).resolve().parent.parent
SUITE = "tests/suite"
README_BEGIN = "<!-- bench/scale.py --readme: begin (written by the bench; rerun it, do not edit) -->"
README_END = "<!-- bench/scale.py --readme: end -->"

#: The issue's goals at 10 models (the wall goal is 1.5× on a loaded machine).
WALL_GOAL, WALL_GOAL_LOADED = 1.3, 1.5
RSS_GOAL_MB = 400
TERMINAL_GOAL = 1_000_000
REPORT_GOAL = 10_000_000
REPLAY_GOAL = 1.1

_OUTCOME = re.compile(r"(\d+) (passed|failed|errors?|warnings?|skipped|deselected)\b")


# ----------------------------------------------------------------------------- pure helpers


def model_names(count: int) -> list[str]:
    """``count`` stub models, the first half drawing exactly and the rest noisily.

    >>> model_names(4)
    ['openai/exact-1', 'openai/exact-2', 'openai/noisy-1', 'openai/noisy-2']
    >>> model_names(3)
    ['openai/exact-1', 'openai/exact-2', 'openai/noisy-1']
    """
    exact = -(-count // 2)
    return [f"openai/exact-{i}" for i in range(1, exact + 1)] + [
        f"openai/noisy-{i}" for i in range(1, count - exact + 1)
    ]


def outcomes(output: str) -> dict[str, int]:
    """pytest's counts from its last summary line (``error``/``errors`` both as ``errors``).

    >>> outcomes("== 3 passed, 2 failed, 1 error, 6 warnings in 1.0s ==")
    {'passed': 3, 'failed': 2, 'errors': 1, 'warnings': 6}
    >>> outcomes("no summary")
    {}
    """
    lines = [line for line in output.splitlines() if _OUTCOME.search(line) and " in " in line]
    if not lines:
        return {}
    counts: dict[str, int] = {}
    for number, word in _OUTCOME.findall(lines[-1]):
        key = {"error": "errors", "warning": "warnings"}.get(word, word)
        counts[key] = int(number)
    return counts


def megabytes(n: float) -> str:
    """Bytes as megabytes, for a reader.

    >>> megabytes(66_000_000)
    '66.0 MB'
    """
    return f"{n / 1e6:.1f} MB"


# ----------------------------------------------------------------------------- measuring a run


def _tree(root: int) -> list[int]:
    """``root`` and every process descended from it, read from ``/proc``."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class Sampled:
    """Peak memory of a process tree, sampled while it runs."""

    tree_peak: int = 0
    largest_peak: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def watch(self, pid: int, every: float = 0.2) -> threading.Thread:
        def run() -> None:
            while not self.stop.is_set():
                sizes = [_rss_bytes(p) for p in _tree(pid)]
                self.tree_peak = max(self.tree_peak, sum(sizes))
                self.largest_peak = max(self.largest_peak, max(sizes, default=0))
                self.stop.wait(every)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


@dataclass(frozen=True)
class Ran:
    """One pytest run: wall time, exit status, what the terminal got, and peak memory."""

    wall: float
    status: int
    output: str
    terminal_bytes: int
    tree_peak: int
    largest_peak: int


def run_pytest(cmd: list[str], env: dict[str, str], log: Path) -> Ran:
    """Run ``cmd`` from the repository root with its output into ``log``; exit 1 (failed tests:
    the noisy models') is a run like any other."""
    sampled = Sampled()
    with log.open("wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        watcher = sampled.watch(proc.pid)
        status = proc.wait()
        wall = time.perf_counter() - t0
        sampled.stop.set()
        watcher.join()
    text = log.read_text(encoding="utf-8", errors="replace")
    if status not in (0, 1):
        print(text[-4000:])
        raise SystemExit(f"command failed ({status}): {' '.join(cmd)}")
    return Ran(wall, status, text, log.stat().st_size, sampled.tree_peak, sampled.largest_peak)


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class StubProcess:
    """The stub server started through its command line, in a process of its own."""

    def __init__(self, latency: float, env: dict[str, str]) -> None:
        self.port = free_port()
        cmd = [sys.executable, "-m", "shape_asserts.asking.stub_server", "--port", str(self.port)]
        cmd += ["--latency", f"{latency:g}"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline()
        if "stub server on" not in ready:
            raise SystemExit(f"the stub server did not start: {ready!r}")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> str:
        """Stop it (Ctrl-C) and return what it said when it stopped."""
        self.proc.send_signal(signal.SIGINT)
        try:
            out, _ = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # a figure is not lost to a server slow to stop
            self.proc.kill()
            out, _ = self.proc.communicate()
            return f"stub server killed: no exit within 30 s of Ctrl-C ({out.strip()!r})"
        return out.strip()


# ----------------------------------------------------------------------------- per-call cost


def ask_plainly(base_url: str, pairs: list, concurrency: int) -> None:
    """Ask every (model, case) of ``pairs`` as a plain ``httpx`` POST, ``concurrency`` at a time."""
    import httpx

    async def run() -> None:
        sem = asyncio.Semaphore(concurrency)
        async with httpx.AsyncClient(timeout=120) as client:

            async def one(model: str, case) -> None:
                async with sem:
                    body = {"model": model.split("/", 1)[1], "messages": case.messages("ru"), "max_tokens": 4096}
                    reply = await client.post(
                        f"{base_url}/chat/completions",
                        json=body,
                        headers={"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}"},
                    )
                    reply.raise_for_status()
                    reply.json()

            await asyncio.gather(*(one(m, c) for m, c in pairs))

    asyncio.run(run())


def call_cost(calls: int, concurrency: int, rounds: int, say) -> None:
    """CPU of this process per call: litellm through the fetch's path, against a plain httpx
    POST of the same request, ``calls`` each, in turn, against a stub answering at once."""
    from shape_asserts.asking.asker import Asker
    from shape_asserts.asking.call import load_litellm
    from shape_asserts.asking.store import FixtureStore
    from shape_asserts.cases import load_cases

    load_litellm()  # its import is paid once a run, not per call
    cases = [c for c in load_cases(benchmark=True) if "benchmark" in c.tags]
    pairs = [(m, c) for m in model_names(10) for c in cases][:calls]
    stub = StubProcess(0.0, dict(os.environ))

    def litellm_round() -> float:
        with tempfile.TemporaryDirectory(prefix="scale-calls-") as tmp:
            asker = Asker(FixtureStore(Path(tmp)), "all", api_base=stub.base_url, concurrency=concurrency)
            jobs = asker.plan(pairs, 1)
            started = time.process_time()
            state, _ = asker.fetch(jobs)
            spent = time.process_time() - started
        if state.failures:
            raise SystemExit(f"litellm calls failed: {next(iter(state.failures.values()))}")
        return spent

    def httpx_round() -> float:
        started = time.process_time()
        ask_plainly(stub.base_url, pairs, concurrency)
        return time.process_time() - started

    spent: dict[str, list[float]] = {"litellm": [], "httpx": []}
    try:
        for r in range(rounds):
            for name in ("litellm", "httpx") if r % 2 == 0 else ("httpx", "litellm"):
                spent[name].append((litellm_round if name == "litellm" else httpx_round)())
    finally:
        stub.stop()
    per_call = {name: statistics.median(values) / len(pairs) * 1000 for name, values in spent.items()}
    say(
        f"asking CPU per call (this process, {len(pairs)} calls, C={concurrency}, stub at L=0, median of {rounds}): "
        f"litellm via the fetch {per_call['litellm']:.1f} ms | plain httpx POST {per_call['httpx']:.1f} ms "
        f"= {per_call['litellm'] / per_call['httpx']:.1f}×"
    )


def import_floor(env: dict[str, str], say) -> None:
    """What importing litellm alone adds to a process's resident memory, measured in a fresh one:
    the asking process holds it for the whole live run, whatever the number of tests."""
    code = (
        "def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096\n"
        "import numpy\nbefore = rss()\nimport litellm\nprint(rss() - before)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip().isdigit():
        say(
            f"importing litellm adds {megabytes(int(out.stdout.strip()))} to the asking process (a fresh process, numpy already loaded)"
        )


# ----------------------------------------------------------------------------- the scenario


@dataclass
class Figures:
    """One model count's figures."""

    models: int
    tests: int
    bound: float
    live: Ran | None = None
    #: The same calls asked by a plain httpx client of the same stub, just before: what this
    #: machine allows now, for the live run's ratio measured side by side.
    floor: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    report_bytes: int = 0
    stub_said: str = ""
    replay: dict[str, list[float]] = field(default_factory=dict)

    def replay_ratio(self) -> list[float]:
        return [a / s for a, s in zip(self.replay["replay -n auto"], self.replay["replay serial"])]


def scenario(m: int, n_cases: int, args: argparse.Namespace, env: dict[str, str], tmp: Path, logs: Path) -> Figures:
    """Live, then the replays, for ``m`` models; the figures."""
    py = sys.executable
    models = [f"--model={name}" for name in model_names(m)]
    tests = m * n_cases
    fig = Figures(m, tests, tests * args.latency / args.concurrency)
    fixtures, snapshots, report = tmp / f"fixtures-{m}", tmp / f"snapshots-{m}", tmp / f"report-{m}"
    report.mkdir()
    select = ["-m", "benchmark", SUITE, *models, f"--fixtures-dir={fixtures}", f"--snapshots-dir={snapshots}"]
    from shape_asserts.cases import load_cases

    cases = [c for c in load_cases(benchmark=True) if "benchmark" in c.tags]
    floor_stub = StubProcess(args.latency, env)
    try:
        started = time.perf_counter()
        ask_plainly(floor_stub.base_url, [(name, c) for name in model_names(m) for c in cases], args.concurrency)
        fig.floor = time.perf_counter() - started
    finally:
        floor_stub.stop()
    stub = StubProcess(args.latency, env)
    try:
        cmd = [py, "-m", "pytest", "-n", "auto", *select, f"--api-base={stub.base_url}", "--record=all"]
        cmd += [f"--concurrency={args.concurrency}", f"--shape-report={report / 'report.html'}"]
        fig.live = run_pytest(cmd, env, logs / f"live-{m}.log")
    finally:
        fig.stub_said = stub.stop()
    fig.counts = outcomes(fig.live.output)
    fig.report_bytes = folder_bytes(report)
    for r in range(args.rounds):
        for variant in ("replay -n auto", "replay serial")[:: 1 if r % 2 == 0 else -1]:
            xdist = ["-n", "auto"] if variant == "replay -n auto" else ["-n", "0"]
            ran = run_pytest(
                [py, "-m", "pytest", *xdist, *select, "--record=none"], env, logs / f"{variant}-{m}-{r}.log"
            )
            fig.replay.setdefault(variant, []).append(ran.wall)
    return fig


#: The model count the issue sets its goals at; other counts are measured for the growth.
GOALS_AT = 10


def describe(fig: Figures, loaded: bool) -> list[str]:
    """The lines of one model count's figures, each goal beside its figure (at another count than
    :data:`GOALS_AT`, the goals that grow with the run are named, not judged)."""
    live = fig.live
    assert live is not None
    c = fig.counts
    goal = WALL_GOAL_LOADED if loaded else WALL_GOAL

    def verdict(value: float, limit: float) -> str:
        return judged(value, limit) if fig.models == GOALS_AT else f"set at {GOALS_AT} models, measured for the growth"

    ratio = live.wall / fig.bound
    replay = fig.replay_ratio()
    auto, serial = (statistics.median(fig.replay[v]) for v in ("replay -n auto", "replay serial"))
    return [
        f"{fig.models} models × {fig.tests // fig.models} benchmark cases = {fig.tests:,} tests: "
        f"{c.get('passed', 0)} passed, {c.get('failed', 0)} failed, {c.get('errors', 0)} errors "
        f"(goal 0: {judged(c.get('errors', 0), 0)})",
        f"  live wall / bound    {live.wall:6.1f} s / {fig.bound:.1f} s = {ratio:.2f}×  "
        f"(goal ≤ {goal:g}{' on a loaded machine' if loaded else ''}: {verdict(ratio, goal)})",
        f"  plain client / bound {fig.floor:6.1f} s / {fig.bound:.1f} s = {fig.floor / fig.bound:.2f}×  "
        f"(the same calls by httpx alone, just before: live / plain client = {live.wall / fig.floor:.2f}×)",
        f"  peak RSS             {megabytes(live.tree_peak)} the process tree, {megabytes(live.largest_peak)} "
        f"its largest process  (goal ≤ {RSS_GOAL_MB} MB: {verdict(live.tree_peak, RSS_GOAL_MB * 1e6)})",
        f"  terminal             {live.terminal_bytes:,} bytes  (goal ≤ {TERMINAL_GOAL:,}: "
        f"{verdict(live.terminal_bytes, TERMINAL_GOAL)})",
        f"  report               {fig.report_bytes:,} bytes  (goal ≤ {REPORT_GOAL:,}: "
        f"{verdict(fig.report_bytes, REPORT_GOAL)})",
        f"  warnings             {c.get('warnings', 0)}  (goal 0: {judged(c.get('warnings', 0), 0)})",
        f"  replay -n auto / serial  {statistics.median(replay):.2f}× ({min(replay):.2f}–{max(replay):.2f}; "
        f"medians {auto:.1f} s / {serial:.1f} s, {len(replay)} round(s))  "
        f"(goal ≤ {REPLAY_GOAL}: {verdict(statistics.median(replay), REPLAY_GOAL)})",
        f"  stub server          {fig.stub_said}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="10,20", help="model counts to run, comma-separated (default 10,20)")
    ap.add_argument("--quick", action="store_true", help="2 models only, no per-call comparison: the bench runs")
    ap.add_argument("--latency", type=float, default=0.3, help="seconds the stub server adds to each answer")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the two replays (alternating)")
    ap.add_argument("--calls", type=int, default=624, help="calls of each kind in the per-call comparison (0: skip)")
    ap.add_argument("--logs", type=Path, default=None, help="keep each run's output in this folder")
    ap.add_argument("--readme", type=Path, default=None, help="also write the output between this file's markers")
    args = ap.parse_args(argv)
    if args.readme is not None:  # checked first: minutes of measuring are not lost to a missing marker
        replace_block(args.readme.read_text(encoding="utf-8"), "", README_BEGIN, README_END)
    counts = [2] if args.quick else [int(x) for x in args.models.split(",") if x.strip()]
    printed: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        printed.append(line)

    from shape_asserts.cases import load_cases

    n_cases = sum("benchmark" in c.tags for c in load_cases(benchmark=True))
    os.environ["OPENAI_API_KEY"] = "sk-bench-not-a-real-key"  # the stub takes any key; no real one is sent
    env = dict(os.environ)
    env.pop("OPENAI_BASE_URL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps bytecode caches
    start_load = os.getloadavg()[0]
    loaded = start_load > 1.0
    say(
        f"machine: {os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python {platform.python_version()}; "
        f"load average at start {start_load:.2f}{' (loaded: the wall goal is 1.5×)' if loaded else ''}"
    )
    say(
        f"scenario: -n auto -m benchmark {SUITE}, half the models openai/exact-k and half openai/noisy-k, "
        f"the stub's CLI at L={args.latency:g} s, C={args.concurrency}, --record=all, --shape-report"
    )
    if args.calls and not args.quick:
        call_cost(args.calls, args.concurrency, 3, say)
    import_floor(env, say)
    with tempfile.TemporaryDirectory(prefix="scale-") as tmp_s:
        tmp = Path(tmp_s)
        logs = args.logs or tmp / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        # warm-up, untimed: bytecode caches and the page cache
        subprocess.run([sys.executable, "-c", "import litellm"], cwd=ROOT, env=env, capture_output=True)
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "--collect-only", "-m", "benchmark", SUITE],
            cwd=ROOT,
            env=env,
            capture_output=True,
        )
        for m in counts:
            for line in describe(scenario(m, n_cases, args, env, tmp, logs), loaded):
                say(line)
    say(f"load average at end {os.getloadavg()[0]:.2f}")
    if args.readme is not None:
        command = "python bench/scale.py " + " ".join(argv if argv is not None else sys.argv[1:])
        when = time.strftime("%Y-%m-%d", time.gmtime())
        text = replace_block(
            args.readme.read_text(encoding="utf-8"),
            readme_block(printed, command.strip(), when),
            README_BEGIN,
            README_END,
        )
        out = args.readme.with_name(args.readme.name + ".tmp")
        out.write_text(text, encoding="utf-8")
        os.replace(out, args.readme)  # whole or not at all
        print(f"written to {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
