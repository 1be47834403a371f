"""Bytes of SVG the HTML report spends on one drawing, by the number of points the answer holds.

Run: ``.venv/bin/python bench/report_size.py``

A zig-zag answer (every step a long jump, the costliest to draw) of 140, 1,000, 2,500 and 5,000
points on the circle case ``circle-start030-cw``, judged and rendered as a report of one cell.
Prints the page's and the drawing's size; the report draws at most ``MAX_POINTS_DRAWN`` points per
drawing, so the size stops growing there (issue 14: a 5,000-point answer once drew ~1.3 MB).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.cases import load_cases
from shape_asserts.results.panels import MAX_POINTS_DRAWN
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.report import ReportData, render_html
from shape_asserts.results.verdict import judge


def sizes(case, n: int) -> tuple[int, int]:
    """The page's and its one drawing's length in characters, for a zig-zag answer of ``n`` points."""
    answer = json.dumps({"points": [{"x": (i * 7) % 50, "y": (i * 13) % 50} for i in range(n)]})
    result = judge(case, "zigzag", [answer])
    record = CaseRecord.from_json(CaseRecord.from_result(result, "failed").as_property()[1])
    page = render_html(ReportData(records=[record], cases={case.id: case}))
    drawing = re.search(r"<svg.*?</svg>", page, flags=re.S)
    return len(page), len(drawing.group(0)) if drawing else 0


def main() -> None:
    case = next(c for c in load_cases() if c.id == "circle-start030-cw")
    print(f"report drawing size (at most {MAX_POINTS_DRAWN:,} points drawn per drawing)")
    print(f"{'points':>8} {'page bytes':>12} {'svg bytes':>12}")
    for n in (140, 1_000, 2_500, 5_000):
        page, svg = sizes(case, n)
        print(f"{n:>8,} {page:>12,} {svg:>12,}")


if __name__ == "__main__":
    main()
