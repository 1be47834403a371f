"""Where a replay's time goes, phase by phase, beside a trivial pytest run of as many tests.

Runs, in this process and then in a trivial folder, ``pytest tests/suite --record=none`` (the
default model's recordings) and ``pytest`` over as many ``def test_i(): pass`` tests, each
``--rounds`` times alternating, with a small plugin that notes the time at pytest's hooks:
start-up to ``pytest_configure``, collection, the test loop (split into what the tests' setup,
call and teardown reported, and the rest: reports, terminal), and the end of the session
(summaries). Printed: the median of each phase, for both runs, and the difference.

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
