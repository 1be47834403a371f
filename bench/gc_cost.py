"""What the cycle collector costs a run, and what keeping it off long-lived objects saves.

Two measurements, each alternating its two variants round by round in fresh interpreters
(bytecode caches kept, as a user's are), medians printed with their ratio:

(a) litellm's import: plain ``import litellm`` against ``shape_asserts.asking.call.load_litellm()``,
    which imports it with the collector off and then freezes what the import made (``gc.freeze``);
    the wall time of the import alone, timed inside the interpreter;
(b) a replay of the suite, ``pytest tests/suite`` (the default model's recordings), as the plugin
    runs it (what collection left frozen before the tests run) against the same run with a probe
    plugin that unfreezes it again right after (``gc.unfreeze`` in a later
    ``pytest_collection_finish``): the whole run's wall time.

    python bench/gc_cost.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

IMPORT_PLAIN = textwrap.dedent("""\
    import os, time
    import shape_asserts.asking.call  # what the other variant imports before its clock starts
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    t = time.perf_counter()
    import litellm
    print(time.perf_counter() - t)
    os._exit(0)
    """)
IMPORT_FROZEN = textwrap.dedent("""\
    import os, time
    from shape_asserts.asking.call import load_litellm
    t = time.perf_counter()
    load_litellm()
    print(time.perf_counter() - t)
    os._exit(0)
    """)
#: Loaded with ``-p``: undoes the plugin's freeze after collection (pytest_collection_finish has no
#: order between plugins but trylast, so this one runs after the plugin's).
UNFREEZE = textwrap.dedent("""\
    import gc
    import pytest

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(session):
        gc.unfreeze()
    """)


def _env(extra_path: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # caches kept
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (extra_path, env.get("PYTHONPATH", "")) if p)
    return env


def _import_seconds(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(), capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def _replay_seconds(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/suite", "-q", "-p", "no:cacheprovider", "--record=none", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"the replay failed (exit {proc.returncode}):\n{proc.stdout[-2000:]}")
    return wall


def _row(name: str, a: list[float], b: list[float]) -> str:
    ma, mb = statistics.median(a), statistics.median(b)
    ratios = [x / y for x, y in zip(a, b)]
    return (
        f"{name:<44} {ma:6.3f} s vs {mb:6.3f} s = {statistics.median(ratios):.2f}× "
        f"({min(ratios):.2f}–{max(ratios):.2f}, median of per-round ratios)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}; rounds {args.rounds}")

    _import_seconds(IMPORT_PLAIN)  # warm-up, untimed: bytecode and page caches
    plain: list[float] = []
    frozen: list[float] = []
    for r in range(args.rounds):
        for variant in ("plain", "frozen") if r % 2 == 0 else ("frozen", "plain"):
            if variant == "plain":
                plain.append(_import_seconds(IMPORT_PLAIN))
            else:
                frozen.append(_import_seconds(IMPORT_FROZEN))
    print(_row("(a) litellm import: collector off, then frozen", frozen, plain))

    with tempfile.TemporaryDirectory(prefix="gc-cost-") as tmp:
        (Path(tmp) / "unfreeze_probe.py").write_text(UNFREEZE, encoding="utf-8")
        probe_env = _env(tmp)
        plain_env = _env()
        _replay_seconds([], plain_env)  # warm-up
        as_is: list[float] = []
        unfrozen: list[float] = []
        for r in range(args.rounds):
            for variant in ("as is", "unfrozen") if r % 2 == 0 else ("unfrozen", "as is"):
                if variant == "as is":
                    as_is.append(_replay_seconds([], plain_env))
                else:
                    unfrozen.append(_replay_seconds(["-p", "unfreeze_probe"], probe_env))
    print(_row("(b) replay of tests/suite: frozen after collection", as_is, unfrozen))
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
