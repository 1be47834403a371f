"""The README's leaderboard example: the benchmark matrix replayed for both reference drawers.

Runs, from the repository root, in a fresh interpreter:

    pytest tests/suite -m benchmark --model=reference/exact --model=reference/noisy --record=none -p no:randomly

and prints the run's counts line and its leaderboard section exactly as the terminal showed them
(the bootstrap's seed is fixed, so every rerun prints the same numbers). No key, no network.

    python bench/leaderboard_example.py [--write-readme README.md]

``--write-readme`` replaces the block between ``<!-- leaderboard:start -->`` and
``<!-- leaderboard:end -->`` in the README with the output.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [
    "-m",
    "pytest",
    "tests/suite",
    "-m",
    "benchmark",
    "--model=reference/exact",
    "--model=reference/noisy",
    "--record=none",
    "-p",
    "no:randomly",
    "-n0",  # (xdist stays loaded: the project's addopts name --dist)
    "-q",
    "--tb=no",
    "--no-header",
]
START, END = "<!-- leaderboard:start -->", "<!-- leaderboard:end -->"


def leaderboard_section(output: str) -> list[str]:
    """The lines of the 'shape-asserts leaderboard' section (title line included)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "shape-asserts leaderboard" in line)
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if re.match(r"[=-]{3,} [A-Za-z].* [=-]{3,}$", lines[i]) or lines[i].startswith("shape-asserts: ")
        ),
        len(lines),
    )
    return lines[start:end]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-readme", type=Path, help="README to update between the leaderboard markers")
    args = parser.parse_args()
    proc = subprocess.run([sys.executable, *COMMAND], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # 1: the noisy drawer fails cases, as it should
        print(proc.stdout[-4000:], proc.stderr[-4000:], sep="\n", file=sys.stderr)
        return proc.returncode
    counts = re.sub(r" in [0-9.]+s.*", "", proc.stdout.strip().splitlines()[-1].strip("= "))  # not the time
    shown = leaderboard_section(proc.stdout) + ["", f"({counts})"]
    text = "\n".join(shown)
    print(text)
    if args.write_readme:
        readme = args.write_readme.read_text(encoding="utf-8")
        if START not in readme or END not in readme:
            print(f"{args.write_readme} has no {START} … {END} block", file=sys.stderr)
            return 2
        head, rest = readme.split(START, 1)
        _, tail = rest.split(END, 1)
        args.write_readme.write_text(f"{head}{START}\n```\n{text}\n```\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
