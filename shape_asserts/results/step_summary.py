"""GitHub Actions job summary: the results table and the gate verdict as Markdown.

When ``GITHUB_STEP_SUMMARY`` names a file (GitHub sets it in every step), the session appends
this Markdown to it, so the run's outcome shows on the workflow's page. Every text cell is escaped:
``|`` would split a table cell and a newline would end the row, and model names, case ids and
reasons may hold anything.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable
from pathlib import Path

from shape_asserts.geometry.score import fmt_fixed
from shape_asserts.results.gate import Gate
from shape_asserts.results.gate_text import describe, need_text
from shape_asserts.results.leaderboard import OVERALL, Leaderboard
from shape_asserts.results.leaderboard_view import cases, ci, diff, explain
from shape_asserts.results.summary import FamilyRow
from shape_asserts.text import single_line

__all__ = ["ENV", "cell", "markdown", "append"]

#: The environment variable GitHub Actions sets to the step's summary file.
ENV = "GITHUB_STEP_SUMMARY"
#: Longest text in one cell.
MAX_CELL = 300

_ICON = {"PASS": "✅", "FAIL": "❌", "UNDECIDED": "⚠️"}


#: Characters Markdown gives a meaning to (links, emphasis, code, headings, tables), escaped in cells.
_MARKDOWN = "\\`*_{}[]()#+!|~"


def cell(text: object) -> str:
    """``text`` safe inside a Markdown table cell: one line, no control characters, HTML inert, and
    no Markdown (a model named ``[Gate: PASS](https://…)`` shows as that text, not as a link)."""
    s = html.escape(single_line(text, MAX_CELL), quote=False)
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in s)


def _f(v: float | None) -> str:
    return "—" if v is None else fmt_fixed(v)


def _table(header: list[str], rows: Iterable[list[str]], right: set[int]) -> list[str]:
    out = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|",
    ]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def markdown(
    rows: list[FamilyRow],
    gate: Gate | None = None,
    *,
    report: str | None = None,
    status: str | None = None,
    leaderboard: Leaderboard | None = None,
) -> str:
    """The Markdown appended to the job summary."""
    lines = ["## shape-asserts", ""]
    if rows:
        lines += _table(
            ["model", "family", "cases", "passed", "failed", "errors", "pass rate", "mean", "worst", "spread", "std"],
            (
                [
                    cell(r.model),
                    cell(r.family),
                    str(r.cases),
                    str(r.passed),
                    str(r.failed),
                    str(r.errors),
                    f"{100 * r.passed / r.cases:.0f}%" if r.cases else "—",
                    _f(r.mean),
                    _f(r.worst),
                    _f(r.spread),
                    _f(r.std),
                ]
                for r in rows
            ),
            right=set(range(2, 11)),
        )
        lines += ["", "_spread/std: how much a case's score moves when only the start point and direction change._"]
    else:
        lines.append("No shape cases ran.")
    if leaderboard is not None:
        lines += _leaderboard(leaderboard)
    if gate is not None:
        lines += ["", f"### Gate: {_ICON.get(gate.verdict, '')} {gate.verdict}", "", cell(describe(gate)), ""]
        ci = f"{gate.confidence:.0%} CI"
        lines += _table(
            ["candidate", "family", "paired cases", f"Δ score [{ci}]", f"Δ pass rate, pp [{ci}]", "verdict", "why"],
            (
                [
                    cell(f.candidate),
                    cell(f.family),
                    str(f.n),
                    _ci(f.score),
                    _ci(f.pass_rate),
                    f"{_ICON.get(f.verdict, '')} {f.verdict}",
                    cell("; ".join(x for x in (f.reason, need_text(f)) if x)),
                ]
                for f in gate.families
            ),
            right={2},
        )
    if status:
        lines += ["", f"**{cell(status)}**"]
    if report:
        lines += ["", f"HTML report (drawings side by side): {cell(report)}"]
    return "\n".join(lines) + "\n"


def _leaderboard(board: Leaderboard) -> list[str]:
    """The leaderboard: every scope's ranking, then the paired comparisons."""
    many = board.samples > 1
    header = ["scope", "rank", "model", "cases", "score [95% CI]", "pass % [95% CI]", "spread [95% CI]"]
    body = []
    for scope in (OVERALL, *(f for f in board.scopes if f != OVERALL)):
        for i, s in enumerate(board.ranking(scope)):
            row = [cell(scope) if i == 0 else "", s.rank_text, cell(s.model), cases(s)]
            row += [ci(s.score), ci(s.pass_rate, 1), ci(s.spread)]
            body.append(row + ([_f(s.sample_sd)] if many else []))
    lines = ["", "### Leaderboard", ""]
    lines += _table(header + (["sample sd"] if many else []), body, right=set(range(3, 8)))
    lines += ["", explain(board)]  # our own words, no cell text: nothing to escape, not cut
    if board.comparisons:
        lines += ["", "#### Paired comparisons", ""]
        lines += _table(
            ["scope", "better", "worse", "paired cases", "Δ score [95% CI]", "Δ pass rate, pp [95% CI]", "resolved"],
            (
                [cell(c.scope), cell(c.better), cell(c.worse), str(c.n), diff(c.score), diff(c.pass_rate)]
                + ["yes" if c.resolved else "no"]
                for c in sorted(board.comparisons, key=lambda c: (c.scope != OVERALL, c.scope))
            ),
            right={3, 4, 5},
        )
    return lines


def _ci(d) -> str:
    return "—" if d is None else f"{d.estimate:+.2f} [{d.low:+.2f}, {d.high:+.2f}]"


def append(text: str, path: str | os.PathLike[str] | None = None) -> Path | None:
    """Append ``text`` to the job summary file (``$GITHUB_STEP_SUMMARY`` by default).

    Returns the path written, or ``None`` when there is none to write to.
    """
    target = path if path is not None else os.environ.get(ENV)
    if not target:
        return None
    p = Path(target)
    separate = p.exists() and p.stat().st_size > 0  # keep apart from what earlier steps wrote
    with p.open("a", encoding="utf-8") as fh:
        fh.write(("\n" if separate else "") + text)
    return p
