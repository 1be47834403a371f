"""Where a replay's time goes, phase by phase, beside a trivial pytest run of as many tests.

Runs, in this process and then in a trivial folder, ``pytest tests/suite --record=none`` (the
default model's recordings) and ``pytest`` over as many ``def test_i(): pass`` tests, each
``--rounds`` times alternating, with a small plugin that notes the time at pytest's hooks:
start-up to ``pytest_configure``, collection, the test loop (split into what the tests' setup,
call and teardown reported, and the rest: reports, terminal), and the end of the session
(summaries). Printed: the median of each phase, for both runs, and the difference.

Then the floor: what any replay of these cases does on top of the trivial run whatever the plugin
does around it, each part timed (wall) in a fresh interpreter after it ran the trivial tests
in-process (what those load, pytest and its plugins, is not counted), ``--rounds`` times: numpy's import,
the families' import, loading the built-in cases, and parsing and scoring each one's recorded
answer once. Their sum over the trivial run's total is the least ratio a replay can reach with
today's scoring (issue 11 asks ≤ 1.5×); it is printed again with scoring at its goal of 200 µs an
answer.

    python bench/replay_phases.py [--rounds 5]

Each run is a subprocess of its own (a fresh interpreter, bytecode caches kept as a user's are).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in each subprocess: pytest with a plugin noting the time at its hooks, as JSON on stderr.
PROBE = textwrap.dedent("""\
    import json, sys, time
    T0 = time.perf_counter()
    import pytest
    marks, reported = {}, {"setup": 0.0, "call": 0.0, "teardown": 0.0}
    class Probe:
        @pytest.hookimpl(tryfirst=True)
        def pytest_configure(self, config): marks["configured"] = time.perf_counter()
        @pytest.hookimpl(tryfirst=True)
        def pytest_collection(self, session): marks["collecting"] = time.perf_counter()
        def pytest_collection_finish(self, session): marks["collected"] = time.perf_counter()
        @pytest.hookimpl(trylast=True)
        def pytest_runtestloop(self, session): pass
        def pytest_runtest_logreport(self, report): reported[report.when] += report.duration
        @pytest.hookimpl(tryfirst=True)
        def pytest_sessionfinish(self, session): marks["tests run"] = time.perf_counter()
        @pytest.hookimpl(trylast=True)
        def pytest_unconfigure(self, config): marks["ended"] = time.perf_counter()
    rc = pytest.main(sys.argv[1:], plugins=[Probe()])
    print(json.dumps({"t0": T0, "marks": marks, "reported": reported, "rc": int(rc)}), file=sys.stderr)
    """)

#: Run in a fresh interpreter in the repository: the floor's parts, wall seconds, as JSON on stderr.
FLOOR = textwrap.dedent("""\
    import json, sys, time
    from pathlib import Path
    import pytest
    pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]])  # the trivial run first: what it loads is not counted
    t = [time.perf_counter()]
    import numpy
    t.append(time.perf_counter())
    import shape_asserts.families.registry
    t.append(time.perf_counter())
    from shape_asserts.cases import load_cases
    cases = load_cases()
    t.append(time.perf_counter())
    from shape_asserts.geometry.drawing import parse_drawing
    texts = [
        json.loads(Path("fixtures/reference_exact", f"{c.id}.json").read_text("utf-8"))["samples"][0]["text"]
        for c in cases
    ]
    t.append(time.perf_counter())  # reading the files is the fixture store's part, not counted
    for case, text in zip(cases, texts):
        case.score(parse_drawing(text))
    t.append(time.perf_counter())
    parts = [t[1] - t[0], t[2] - t[1], t[3] - t[2], t[5] - t[4]]
    print(json.dumps({"parts": parts, "cases": len(cases)}), file=sys.stderr)
    """)

#: The floor's parts, as printed.
FLOOR_PARTS = ("import numpy", "import the families", "load the cases", "parse and score once")

#: Issue 11's goal for scoring one answer, seconds.
SCORE_GOAL = 200e-6

PHASES = ("start-up", "collection", "tests: setup", "tests: call", "tests: teardown", "tests: the rest", "session end")


def phases(doc: dict) -> dict[str, float]:
    """Seconds per phase from a probe's marks.

    >>> m = {"configured": 1.3, "collecting": 1.4, "collected": 1.6, "tests run": 2.6, "ended": 2.8}
    >>> r = {"setup": 0.1, "call": 0.5, "teardown": 0.0}
    >>> {k: round(v, 2) for k, v in phases({"t0": 1.0, "marks": m, "reported": r}).items()}["tests: the rest"]
    0.4
    """
    m, r, t0 = doc["marks"], doc["reported"], doc["t0"]
    loop = m["tests run"] - m["collected"]
    return {
        "start-up": m["configured"] - t0,
        "collection": m["collected"] - m["configured"],
        "tests: setup": r["setup"],
        "tests: call": r["call"],
        "tests: teardown": r["teardown"],
        "tests: the rest": loop - r["setup"] - r["call"] - r["teardown"],
        "session end": m["ended"] - m["tests run"],
    }


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, env=env, capture_output=True, text=True)
    last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    try:
        doc = json.loads(last)
    except ValueError:
        raise SystemExit(
            f"no probe output from {args} in {cwd}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        ) from None
    if doc["rc"] != 0:
        raise SystemExit(f"pytest {' '.join(args)} exited {doc['rc']}:\n{proc.stdout[-3000:]}")
    return phases(doc)


def floor(trivial: Path, env: dict[str, str]) -> dict[str, float]:
    """Seconds per part of the floor, in one fresh interpreter that first runs the ``trivial`` tests."""
    proc = subprocess.run(
        [sys.executable, "-c", FLOOR, str(trivial)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    try:
        doc = json.loads(proc.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SystemExit(f"no floor output:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}") from None
    return {**dict(zip(FLOOR_PARTS, doc["parts"])), "cases": doc["cases"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as bench/wall_time.py
    suite = ["tests/suite", "--record=none", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    with tempfile.TemporaryDirectory() as tmp:
        trivial = Path(tmp)
        n = int(
            subprocess.run(
                [sys.executable, "-m", "pytest", "--collect-only", "-q", *suite[:2]],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            .stdout.strip()
            .splitlines()[-1]
            .split()[0]
        )
        (trivial / "test_trivial.py").write_text("".join(f"def test_{i}():\n    pass\n\n\n" for i in range(n)))
        env["PYTHONPYCACHEPREFIX"] = str(trivial / "pycache")
        _run(suite, ROOT, env), _run(["-q", "-p", "no:cacheprovider"], trivial, env)  # warm the caches
        got: dict[str, list[dict[str, float]]] = {"replay": [], "trivial": []}
        for _ in range(args.rounds):
            got["replay"].append(_run(suite, ROOT, env))
            got["trivial"].append(_run(["-q", "-p", "no:cacheprovider"], trivial, env))
            got.setdefault("floor", []).append(floor(trivial, env))
    floors = got.pop("floor")
    med = {k: {p: statistics.median(r[p] for r in runs) for p in PHASES} for k, runs in got.items()}
    print(f"machine: {os.cpu_count()} cores; {n} tests each; median of {args.rounds} rounds (seconds)")
    print(f"{'phase':<18} {'replay':>8} {'trivial':>8} {'extra':>8} {'a test':>9}")
    for p in PHASES:
        a, b = med["replay"][p], med["trivial"][p]
        print(f"{p:<18} {a:8.3f} {b:8.3f} {a - b:+8.3f} {(a - b) / n * 1000:+7.2f}ms")
    ta, tb = sum(med["replay"].values()), sum(med["trivial"].values())
    print(
        f"{'total (to the end)':<18} {ta:8.3f} {tb:8.3f} {ta - tb:+8.3f}   ({ta / tb:.2f}×, interpreter exit not included)"
    )
    print()
    print("the floor: what a replay does on top of the trivial run whatever the plugin does around it")
    print(f"(each part in a fresh interpreter, after the trivial tests ran in it; medians of {args.rounds}, seconds)")
    part = {p: statistics.median(f[p] for f in floors) for p in FLOOR_PARTS}
    for p in FLOOR_PARTS:
        print(f"  {p:<24} {part[p]:8.3f}")
    total = sum(part.values())
    print(f"  {'sum':<24} {total:8.3f}   floor {(tb + total) / tb:.2f}× the trivial run (goal ≤ 1.5×)")
    cases = int(floors[0]["cases"])
    at_goal = total - part["parse and score once"] + cases * SCORE_GOAL
    print(
        f"  {'with scoring at 200 µs':<24} {at_goal:8.3f}   floor {(tb + at_goal) / tb:.2f}× "
        f"({cases} answers × 200 µs, parse included)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
