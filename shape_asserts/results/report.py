"""The HTML report: one self-contained file to look at a run and share it.

``--shape-report PATH`` writes it at session end (on the xdist controller) from the tests'
:class:`~shape_asserts.results.record.CaseRecord` s: the gate verdict when there is one, a summary
per model × family, an overview of every case × model, the stability picture (score by start angle
and the drawings round the start points, :mod:`shape_asserts.results.charts`), and per case the
drawings of every model side by side (:mod:`shape_asserts.results.panels`), each with its metrics
and failed checks, the prompt and the raw answer.

Everything a model wrote is hostile. It is escaped with :func:`html.escape` (and stripped of
characters HTML cannot carry), bounded (:data:`MAX_ANSWER_SHOWN` characters per answer, with a
note saying what was cut), and never placed in an attribute, a URL, a style or a script. Prompts
and answers are redacted like recordings, and each drawing shows at most
:data:`MAX_POINTS_DRAWN` points (a bigger one is thinned, and its cell says so). The page
has no script at all, and its Content-Security-Policy (:data:`CSP`) forbids any: it loads nothing,
runs nothing, and styles come only from the page itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shape_asserts.fileio import write_atomic
from shape_asserts.results.charts import PANEL_STYLE, stability_html
from shape_asserts.results.gate import FAIL, PASS, UNDECIDED, Difference, Gate
from shape_asserts.results.gate_text import describe, need_text
from shape_asserts.results.leaderboard import Leaderboard
from shape_asserts.results.leaderboard_view import leaderboard_html
from shape_asserts.results.panels import (
    MAX_ANSWER_SHOWN,
    MAX_NOTE,
    MAX_POINTS_DRAWN,
    anchor,
    badge,
    esc,
    full_cells,
    iter_cases_html,
    status,
)
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.summary import FamilyRow

__all__ = ["ReportData", "render_html", "write_report", "CSP", "MAX_ANSWER_SHOWN", "MAX_POINTS_DRAWN", "SECTIONS"]

#: The page may load nothing and run nothing; only its own inline styles and data: images apply.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
#: The parts of a report, in page order.
SECTIONS = ("header", "gate", "summary", "leaderboard", "overview", "stability", "drawings")


@dataclass(frozen=True)
class ReportData:
    """What one report shows (built by the session; plain data, so tests can build it too)."""

    records: Sequence[CaseRecord]
    rows: Sequence[FamilyRow] = ()
    gate: Gate | None = None
    leaderboard: Leaderboard | None = None
    models: Sequence[str] = ()
    baseline: str | None = None
    lang: str = "ru"
    settings: Sequence[tuple[str, str]] = ()  # (name, value) lines shown under the title
    generated: str = ""
    #: The run's cases by id, for each case's prompt and ideal shape (records carry the rest).
    cases: Mapping[str, Any] = field(default_factory=dict)
    title: str = "shape-asserts report"
    notes: Sequence[str] = field(default_factory=tuple)
    #: Which parts to show, in this order of the page (a subset makes a focused picture).
    sections: Sequence[str] = SECTIONS
    #: The whole record (answers, drawings) of a model × case, when ``records`` are small ones
    #: read back from a results file (a run's: :mod:`shape_asserts.results.spool`); ``None``: the
    #: records are whole. Each is read when its case is drawn, so a page of many cases never holds
    #: every drawing at once.
    load: Callable[[str, str], CaseRecord | None] | None = None


class _Whole(Mapping[str, CaseRecord]):
    """A case's records by model, each read whole (``load``) only when the page draws it in full
    (``full``: those cells, ``None`` for every one); a cell shown in one line needs no more than the
    small record's verdict and checks."""

    def __init__(
        self,
        records: Mapping[str, CaseRecord],
        load: Callable[[CaseRecord], CaseRecord],
        full: set[tuple[str, str]] | None,
    ) -> None:
        self._records = records
        self._load = load
        self._full = full

    def __getitem__(self, model: str) -> CaseRecord:
        rec = self._records[model]
        return self._load(rec) if self._full is None or (rec.case, model) in self._full else rec

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


_STYLE = """
:root{--ink:#1d2330;--muted:#5d6677;--line:#dde2ea;--bg:#f5f6f8;--card:#fff;
--pass:#17703a;--pass-bg:#e3f3e8;--fail:#b42318;--fail-bg:#fde8e6;--warn:#8a5a00;--warn-bg:#fff3d1;
--err:#3d4450;--err-bg:#e9ebef}
*{box-sizing:border-box}
html{background:var(--bg)}
body{margin:0;color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1680px;margin:0 auto;padding:28px 36px 72px}
h1{font-size:26px;margin:0 0 6px;letter-spacing:-.01em}
h2{font-size:19px;margin:36px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
p{margin:6px 0}
a{color:#1f4e9c;text-decoration:none}
a:hover{text-decoration:underline}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.meta{color:var(--muted);margin:0;display:flex;flex-wrap:wrap;gap:4px 18px}
.meta b{color:var(--ink);font-weight:600}
.muted{color:var(--muted)}
.tablewrap{overflow-x:auto}
table{border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:8px}
th,td{padding:7px 12px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:#eef1f5;font-weight:600;font-size:13px;white-space:nowrap}
tr:last-child td{border-bottom:none}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{display:inline-block;padding:1px 9px;border-radius:11px;font-weight:650;font-size:12px;letter-spacing:.02em;white-space:nowrap}
.pass{background:var(--pass-bg);color:var(--pass)}
.fail{background:var(--fail-bg);color:var(--fail)}
.undecided{background:var(--warn-bg);color:var(--warn)}
.error,.skipped,.none{background:var(--err-bg);color:var(--err)}
.banner{padding:14px 18px;border-radius:10px;margin:18px 0 10px;font-size:16px;border:1px solid transparent}
.banner.pass{border-color:#b7dfc3}.banner.fail{border-color:#f4b8b0}.banner.undecided{border-color:#f0d58a}
.banner strong{font-size:19px;margin-right:8px}
.explain{color:var(--muted);font-size:13px;max-width:1100px}
.overview{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:16px;align-items:start}
.matrix{width:100%}
.matrix td,.matrix th{padding:3px 10px;white-space:nowrap}
.matrix td.mono{font-size:12px;width:100%}
.matrix td.mark{text-align:center;font-variant-numeric:tabular-nums}
.matrix a{display:block;color:inherit;border-radius:6px;padding:1px 6px}
.legend{display:flex;flex-wrap:wrap;gap:6px 20px;color:var(--muted);font-size:13px;margin:0 0 14px}
.sw{display:inline-block;width:14px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.case{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px 16px;margin:0 0 18px}
.case-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 14px}
.variant{color:var(--muted)}
.models{display:grid;gap:14px;margin-top:12px;overflow-x:auto;align-items:start}
.cell{border:1px solid var(--line);border-radius:8px;padding:10px 12px;min-width:0;color:var(--ink)}
.cell.fail{background:#fffafa}.cell.pass{background:#fbfefc}.cell.error,.cell.skipped,.cell.none{background:#fafafa}
.case,.stab{content-visibility:auto;contain-intrinsic-size:auto 640px}
.cell.brief{padding:6px 12px}.cell.brief .cell-head{margin-bottom:2px}.cell.brief p{margin:0;overflow-wrap:anywhere}
.cell-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin-bottom:6px;color:var(--ink)}
.cell-head .model{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;overflow-wrap:anywhere}
.cell-head .role{color:var(--muted);font-size:12px}
.score{margin-left:auto;font-variant-numeric:tabular-nums;font-weight:600}
.sample{border-top:1px dashed var(--line);padding-top:8px;margin-top:8px}
.sample:first-of-type{border-top:none;padding-top:0;margin-top:0}
.drawing svg{display:block;width:100%;max-width:440px;height:auto;margin:4px auto 6px}
.checks{margin:4px 0;padding-left:18px;color:var(--fail)}
.checks li{margin:2px 0;overflow-wrap:anywhere}
.ok{color:var(--pass);margin:4px 0}
.metrics{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:0 14px;margin:6px 0;font-size:12.5px}
.metrics div{display:flex;justify-content:space-between;gap:8px;border-bottom:1px dotted var(--line);padding:1px 0}
.metrics span:last-child{font-variant-numeric:tabular-nums;color:var(--ink)}
.metrics span:first-child{color:var(--muted)}
details{margin:6px 0}
summary{cursor:pointer;color:#1f4e9c;font-size:13px}
pre{color:var(--ink);white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f7;border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0;max-height:420px;overflow:auto}
.cut{color:var(--warn);font-size:12.5px}
.noanswer{color:var(--err);overflow-wrap:anywhere}
h2.family{font-size:14px;border:none;margin:22px 0 10px;padding:0;color:var(--muted);text-transform:uppercase;letter-spacing:.08em}
.stab{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 16px;margin:0 0 16px}
.stab-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 14px}
.stab-head .model{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.stab-body{display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px;overflow-x:auto}
.stab-body svg{flex:none;max-width:100%;height:auto}
footer{margin-top:48px;color:var(--muted);font-size:12.5px}
"""


def _f(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def _ci(d: Difference | None) -> str:
    if d is None:
        return "—"
    return f'{d.estimate:+.2f} <span class="muted">[{d.low:+.2f}, {d.high:+.2f}]</span>'


def _gate_html(g: Gate) -> list[str]:
    verdict = g.verdict
    words = {
        PASS: "the candidate is not worse than the baseline beyond the margin in any family",
        FAIL: "the candidate draws worse than the baseline beyond the margin",
        UNDECIDED: "not enough evidence either way — see what each family needs below",
    }[verdict]
    if g.incomplete:  # not the families' verdict: the run lacks results the gate needs
        words = f"incomplete results: {g.incomplete}"
    out = [
        '<section id="gate"><h2>Gate</h2>',
        f'<div class="banner {verdict.lower()}"><strong>{esc(verdict)}</strong>{esc(words)}</div>',
        f'<p class="explain">{esc(describe(g))}. Differences are candidate − baseline on the cases '
        f"both answered: the mean sample score (points) and the share of samples passing every "
        f"check (percentage points). FAIL when an interval lies wholly below −{esc(f'{g.margin:g}')}; "
        f"PASS when neither reaches below it.</p>",
        '<div class="tablewrap"><table><thead><tr><th>candidate</th><th>family</th>'
        '<th class="num">paired cases</th><th class="num">Δ score [CI]</th>'
        '<th class="num">Δ pass rate, pp [CI]</th><th>verdict</th><th>why</th></tr></thead><tbody>',
    ]
    for f in g.families:
        why = "; ".join(x for x in (f.reason, need_text(f)) if x)
        if f.candidate_only or f.baseline_only:
            why += f"; unpaired: {f.candidate_only} candidate-only, {f.baseline_only} baseline-only case(s)"
        out.append(
            f'<tr><td class="mono">{esc(f.candidate)}</td><td>{esc(f.family)}</td>'
            f'<td class="num">{f.n}</td><td class="num">{_ci(f.score)}</td><td class="num">{_ci(f.pass_rate)}</td>'
            f"<td>{badge(f.verdict.lower(), f.verdict)}</td><td>{esc(why, MAX_NOTE)}</td></tr>"
        )
    out.append("</tbody></table></div></section>")
    return out


def _summary_html(rows: Sequence[FamilyRow], baseline: str | None) -> list[str]:
    out = [
        '<section id="summary"><h2>Summary</h2><div class="tablewrap"><table><thead><tr>',
        "<th>model</th><th>family</th>"
        + "".join(
            f'<th class="num">{h}</th>'
            for h in ("cases", "passed", "failed", "errors", "pass rate", "mean", "worst", "spread", "std")
        )
        + "</tr></thead><tbody>",
    ]
    for r in rows:
        rate = r.passed / r.cases if r.cases else None
        kind = "none" if rate is None else ("pass" if r.passed == r.cases else "fail")
        role = ' <span class="muted">(baseline)</span>' if baseline is not None and r.model == baseline else ""
        out.append(
            f'<tr><td class="mono">{esc(r.model)}{role}</td><td>{esc(r.family)}</td>'
            f'<td class="num">{r.cases}</td><td class="num">{r.passed}</td><td class="num">{r.failed}</td>'
            f'<td class="num">{r.errors}</td>'
            f'<td class="num"><span class="badge {kind}">{"—" if rate is None else f"{100 * rate:.0f}%"}</span></td>'
            f'<td class="num">{_f(r.mean)}</td><td class="num">{_f(r.worst)}</td>'
            f'<td class="num">{_f(r.spread)}</td><td class="num">{_f(r.std)}</td></tr>'
        )
    out.append(
        "</tbody></table></div>"
        "<p class=\"explain\">mean/worst: the cases' mean sample scores. spread/std: how much a case's "
        "score moves when only the start point and direction change (per group of otherwise identical "
        "cases, averaged over the family's groups; lower is steadier).</p></section>"
    )
    return out


def _matrix_html(cases: list[tuple[CaseRecord, dict[str, CaseRecord]]], models: Sequence[str]) -> list[str]:
    """One small table per family (case × model, linking to the drawings), laid out side by side."""
    out = ['<section id="overview"><h2>Cases</h2><div class="overview">']
    family = None
    for case, by_model in cases:  # each case's first record, and its records by model
        if case.family != family:
            if family is not None:
                out.append("</tbody></table></div>")
            family = case.family
            out.append(
                f'<div class="tablewrap"><table class="matrix"><thead><tr><th>{esc(family)}</th>'
                + "".join(f'<th class="mono">{esc(m)}</th>' for m in models)
                + "</tr></thead><tbody>"
            )
        cells = []
        for m in models:
            rec = by_model.get(m)
            kind, label = status(rec)
            if rec is not None and rec.score is not None:
                label = f"{'✓' if kind == 'pass' else '✗'} {rec.score:.2f}"
            cells.append(f'<td class="mark"><a class="{kind}" href="#{anchor(case.case)}">{esc(label)}</a></td>')
        out.append(
            f'<tr><td class="mono"><a href="#{anchor(case.case)}">{esc(case.case)}</a></td>{"".join(cells)}</tr>'
        )
    out.append("</tbody></table></div></div></section>")
    return out


def render_html(data: ReportData) -> str:
    """The report as one HTML document (no script, no external resource)."""
    return "\n".join(render_parts(data)) + "\n"


def render_parts(data: ReportData) -> Iterator[str]:
    """The report's HTML in pieces, in page order, made as they are asked for (joined with newlines,
    they are :func:`render_html`): the drawings, case by case, are never held whole."""
    models = list(data.models) or list(dict.fromkeys(r.model for r in data.records))
    for r in data.records:
        if r.model not in models:
            models.append(r.model)
    cases: dict[str, tuple[CaseRecord, dict[str, CaseRecord]]] = {}
    for r in data.records:
        cases.setdefault(r.case, (r, {}))[1][r.model] = r
    ordered = sorted(cases.values(), key=lambda cv: cv[0].family)  # stable: keeps the run's order inside
    load = data.load
    whole = None if load is None else (lambda r: load(r.model, r.case) or r)
    meta = "".join(f"<span>{esc(k)} <b>{esc(v, MAX_NOTE)}</b></span>" for k, v in data.settings)
    show = set(data.sections)
    yield from [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(data.title, 200)}</title>",
        f"<style>{_STYLE}{PANEL_STYLE}</style></head><body><main>",
    ]
    if "header" in show:
        yield f'<header><h1>{esc(data.title, 200)}</h1><p class="meta">{meta}</p></header>'
        yield from [f'<p class="cut">{esc(note, MAX_NOTE)}</p>' for note in data.notes]
    if data.gate is not None and "gate" in show:
        yield from _gate_html(data.gate)
    if data.rows and "summary" in show:
        yield from _summary_html(data.rows, data.baseline)
    if data.leaderboard is not None and "leaderboard" in show:
        yield from leaderboard_html(data.leaderboard)
    if ordered and "overview" in show:
        yield from _matrix_html(ordered, models)
    if "stability" in show:
        yield from stability_html(data.records, models, data.cases, whole)
    if ordered and "drawings" in show:
        full = full_cells(ordered)  # chosen from the small records, before any is read whole
        drawn = ordered if whole is None else [(first, _Whole(by_model, whole, full)) for first, by_model in ordered]
        cells = sum(len(by_model) for _, by_model in ordered)
        yield from iter_cases_html(drawn, models, data.baseline, data.lang, data.cases, full, cells)
    if not ordered and not data.rows:
        yield "<p>No shape cases ran.</p>"
    if "header" in show:
        footer = "shape-asserts" + (f" · generated {esc(data.generated)}" if data.generated else "")
        yield f"<footer>{footer}</footer>"
    yield "</main></body></html>"


def write_report(path: str | os.PathLike[str], data: ReportData) -> Path:
    """Write the report to ``path`` atomically (parent folders are created), readable by all."""
    lines = (piece + "\n" for piece in render_parts(data))  # render_html's text, never joined in memory
    return write_atomic(path, lines, mode=0o644)  # a report is meant to be shared
