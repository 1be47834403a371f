"""Write ``tests/data/seed_pinned.jsonl``: PHP's own ``scoreCircle`` output for ~400 chosen answers.

The table lets ``tests/unit/test_seed.py`` check the Python port where PHP is not installed. Each
line is one JSON object::

    {"case": "<label>", "answer": "<JSON answer text>", "php": "<what score_circle.php printed>"}

where ``php`` is ``var_export((float)$score)`` (``"94.88"``, ``"0.0"``, ``"NAN"``) or
``"ERROR <ExceptionClass>"``. The answers are every hand-written quirk case of
``tests/seed_answers.py`` plus the first few generated answers of each generator category.

Usage (needs PHP 8.0-8.3; PHP 8.4 changed ``round()``, which the port does not follow)::

    .venv/bin/python tests/php/make_pinned.py [--php /usr/bin/php] [--out PATH]

It asks ``php`` once for all answers, writes the table, then scores the same answers with
``shape_asserts.geometry.seed`` and exits with status 1 if the port disagrees anywhere (the table is written
anyway: PHP is the reference).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO_DIR = TESTS_DIR.parent
PHP_SCRIPT = TESTS_DIR / "php" / "score_circle.php"
DEFAULT_OUT = TESTS_DIR / "data" / "seed_pinned.jsonl"

PINNED_SEED = 8_675_309
PER_CATEGORY = 11  # generated answers kept per generator category
MAX_GENERATED_CHARS = 2_000  # keeps the table small; the long answers are hand-written quirks

sys.path.insert(0, str(TESTS_DIR))
import seed_answers  # noqa: E402  (lives next to the tests, not in the package)


def pinned_cases() -> list[tuple[str, str]]:
    """``(label, answer_text)`` for every row of the table, in table order."""
    cases = list(seed_answers.quirk_answers())
    taken: Counter[str] = Counter()
    for category, text in seed_answers.generate_answers(4_000, seed=PINNED_SEED):
        if taken[category] < PER_CATEGORY and len(text) <= MAX_GENERATED_CHARS:
            taken[category] += 1
            cases.append((f"{category} #{taken[category]}", text))
    missing = [name for name in seed_answers.CATEGORIES if taken[name] < PER_CATEGORY]
    if missing:
        raise SystemExit(f"too few short generated answers for: {', '.join(missing)}")
    labels = [label for label, _ in cases]
    duplicates = [label for label, count in Counter(labels).items() if count > 1]
    if duplicates:
        raise SystemExit(f"duplicate case labels: {duplicates}")
    return cases


def php_version(php: str) -> tuple[int, int]:
    out = subprocess.run([php, "-r", "echo PHP_VERSION;"], capture_output=True, text=True, check=True).stdout
    match = re.match(r"(\d+)\.(\d+)", out)
    if match is None:
        raise SystemExit(f"cannot read the PHP version from {out!r}")
    return int(match.group(1)), int(match.group(2))


def run_php(php: str, texts: list[str]) -> list[str]:
    """Score ``texts`` with one ``php score_circle.php`` process; one output line per text."""
    proc = subprocess.run(
        [php, str(PHP_SCRIPT)],
        input="".join(text + "\n" for text in texts),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    lines = proc.stdout.split("\n")
    if lines[-1] != "" or len(lines) - 1 != len(texts):
        raise SystemExit(f"php printed {len(lines) - 1} lines for {len(texts)} answers:\n{proc.stderr[:2000]}")
    return lines[:-1]


def port_disagreements(rows: list[dict[str, str]]) -> list[str]:
    """Rows where ``shape_asserts.geometry.seed`` does not reproduce the pinned PHP output."""
    sys.path.insert(0, str(REPO_DIR))
    from shape_asserts.geometry.seed import seed_score

    problems = []
    for row in rows:
        data = json.loads(row["answer"])
        try:
            got = repr(float(seed_score(data)))
        except ValueError:
            got = "ERROR TypeError"
        except Exception as exc:  # a crash is a disagreement too
            got = f"CRASH {type(exc).__name__}: {exc}"
        expected = row["php"]
        if not expected.startswith("ERROR"):
            expected = {"NAN": "nan", "INF": "inf", "-INF": "-inf"}.get(expected, expected)
            if "E" in expected:
                expected = repr(float(expected))
        if got != expected:
            problems.append(f"{row['case']}: php {row['php']} port {got}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--php", default=shutil.which("php"), help="PHP CLI binary (default: php on PATH)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"table to write (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    if not args.php:
        raise SystemExit("php is not on PATH; install php-cli 8.0-8.3 or pass --php")
    version = php_version(args.php)
    if not (8, 0) <= version < (8, 4):
        raise SystemExit(f"PHP {version[0]}.{version[1]} found; the table must come from PHP 8.0-8.3")

    cases = pinned_cases()
    outputs = run_php(args.php, [text for _, text in cases])
    rows = [{"case": label, "answer": text, "php": out} for (label, text), out in zip(cases, outputs)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="ascii", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=True) + "\n")

    kinds = Counter(o if o in ("NAN", "0.0") else "ERROR" if o.startswith("ERROR") else "score" for o in outputs)
    print(f"wrote {len(rows)} rows to {args.out} (PHP {version[0]}.{version[1]}): {dict(kinds)}")
    problems = port_disagreements(rows)
    for line in problems[:50]:
        print("DISAGREES", line)
    if problems:
        print(f"the port disagrees with PHP on {len(problems)} rows")
        return 1
    print("the port agrees with PHP on every row")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
