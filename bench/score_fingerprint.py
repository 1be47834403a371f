"""Every number the scorers give on the validity catalogue, one line per drawing: a speed-up's proof.

A change meant only to make scoring faster must leave every score, metric, check value, limit,
detail, index and margin as it was. Run this before and after the change and compare the files:

    python bench/score_fingerprint.py -o before.jsonl [--family F ...]
    ... change ...
    python bench/score_fingerprint.py -o after.jsonl [--family F ...] --compare before.jsonl

Each line holds a case id, the catalogue variant's name and the whole :class:`ShapeScore`
(``repr`` of floats, so a last-bit difference shows). ``--compare`` prints the first lines that
differ and exits 1 when any does. ``--rtol 1e-9`` lets floats differ by that much (relative, or
absolute below 1): for a speed-up that reorders float arithmetic. Every verdict, limit, detail, index
and count must still match exactly, and every float to nine significant digits. The drawings are the independent catalogue of
``tests/catalogue`` (legitimate variants and impostors) for every built-in case, plus the
reference drawers' recorded answers under ``fixtures/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shape_asserts.cases import load_cases  # noqa: E402
from shape_asserts.geometry.drawing import DrawingFormatError, parse_drawing  # noqa: E402
from tests.catalogue import answer_text, variants  # noqa: E402


def _plain(v: Any) -> Any:
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "tolist"):
        return _plain(v.tolist())
    return v if v is None or isinstance(v, (bool, int, str)) else repr(v)


def fingerprint(result: Any) -> dict[str, Any]:
    return {
        "family": result.family,
        "score": _plain(result.score),
        "passed": result.passed,
        "metrics": _plain(dict(result.metrics)),
        "checks": [
            [c.name, c.passed, _plain(c.value), c.limit, c.detail, list(c.indices), _plain(c.margin)]
            for c in result.checks
        ],
        "marks": _plain({k: list(v) for k, v in result.marks.items()}),
    }


def drawings(case: Any) -> list[tuple[str, str]]:
    out = [(v.name, answer_text(v, case.grid_size)) for v in variants(case)]
    for path in sorted((ROOT / "fixtures").glob(f"*/{case.id}.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, sample in enumerate(data.get("samples", [])):
            if isinstance(sample.get("text"), str):
                out.append((f"fixture:{path.parent.name}:{i}", sample["text"]))
    return out


def _close(a: Any, b: Any, rtol: float) -> bool:
    """Equal, but floats (stored as their ``repr``) may differ by ``rtol`` (relative; absolute below 1)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rtol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol) for x, y in zip(a, b))
    if a == b:
        return True
    if isinstance(a, str) and isinstance(b, str):
        try:
            x, y = float(a), float(b)
        except ValueError:
            return False
        return abs(x - y) <= rtol * max(1.0, abs(x), abs(y))
    return False


def same(old: str, new: str, rtol: float) -> bool:
    """Two fingerprint lines agree: exactly, or within ``rtol`` for floats when ``rtol`` > 0."""
    return old == new or (rtol > 0 and _close(json.loads(old), json.loads(new), rtol))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True, type=Path)
    ap.add_argument("--family", action="append", help="only these families (repeatable)")
    ap.add_argument("--compare", type=Path, help="an earlier output to compare with")
    ap.add_argument("--rtol", type=float, default=0.0, help="floats may differ this much (default: bit for bit)")
    args = ap.parse_args(argv)
    n = 0
    with args.output.open("w", encoding="utf-8") as out:
        for case in load_cases():
            if args.family and case.family not in args.family:
                continue
            for name, text in drawings(case):
                try:
                    line: dict[str, Any] = fingerprint(case.score(parse_drawing(text)))
                except DrawingFormatError as exc:
                    line = {"format_error": str(exc)}
                out.write(json.dumps({"case": case.id, "drawing": name, **line}, ensure_ascii=False) + "\n")
                n += 1
    print(f"{n} drawings scored -> {args.output}")
    if args.compare is None:
        return 0
    old = args.compare.read_text(encoding="utf-8").splitlines()
    new = args.output.read_text(encoding="utf-8").splitlines()
    if len(old) != len(new):
        print(f"DIFFERENT: {len(old)} lines before, {len(new)} now")
        return 1
    diff = [(a, b) for a, b in zip(old, new) if not same(a, b, args.rtol)]
    for a, b in diff[:5]:
        print(f"- {a[:600]}\n+ {b[:600]}")
    within = f" within rtol {args.rtol:g}" if args.rtol > 0 else ""
    print(
        f"{len(diff)} of {len(new)} drawings differ{within}" if diff else f"identical{within}: all {len(new)} drawings"
    )
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
