"""The HTML report's drawing panels: per case, one cell per model with its drawings and answers.

Each cell is built from one :class:`~shape_asserts.results.record.CaseRecord`: the outcome, the
mean score, and per sample the drawing (SVG from the record's points, with the ideal shape of the
case, the gaps and the breaks marked), the failed checks, the metrics and the raw answer. The page
around the panels is :mod:`shape_asserts.results.report`.

Everything a model wrote is hostile: :func:`esc` drops what HTML cannot carry, bounds it and
escapes it; nothing a model wrote is placed in an attribute, a URL, a style or a script. Prompts
and answers are redacted as recordings are (:func:`shape_asserts.asking.call.redact`: bearer and
API-key tokens, the values of secret-looking environment variables). Drawings are SVG built from
numbers only (:func:`shape_asserts.results.render.svg`), of at most :data:`MAX_POINTS_DRAWN`
points each (:func:`shape_asserts.results.thin.thin`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from shape_asserts.asking.call import redact
from shape_asserts.defaults import UNSEEN
from shape_asserts.geometry.score import fmt_value
from shape_asserts.results import render
from shape_asserts.results.record import (
    MAX_ANSWER,
    MAX_POINTS,
    CaseRecord,
    SampleRecord,
)
from shape_asserts.results.thin import thin

__all__ = [
    "MAX_ANSWER_SHOWN",
    "MAX_FULL_CELLS",
    "MAX_FULL_POINTS",
    "MAX_NOTE",
    "MAX_POINTS_DRAWN",
    "anchor",
    "badge",
    "cases_html",
    "esc",
    "full_cells",
    "status",
]

#: Characters of one raw answer shown (the record keeps no more); the page says how much was cut.
MAX_ANSWER_SHOWN = MAX_ANSWER
#: Characters of a format error, reason or check description shown.
MAX_NOTE = 1_000
#: Most points drawn per drawing: a drawing with more is thinned to this many, evenly spaced along
#: its path, and the page says so (each point drawn is ~160 bytes of SVG, so a 5,000-point answer
#: once added ~800 KB per drawing). A record keeps no more (MAX_POINTS); a results file written
#: with more is thinned here.
MAX_POINTS_DRAWN = MAX_POINTS
#: Model × case cells drawn in full (drawing, metrics, raw answer) in one report. A report with more
#: draws the failing cells first, then a sample of the passing ones (:func:`full_cells`); every other
#: cell is one line (verdict, score, failed checks). Ten models of the benchmark (3,120 cells) once
#: made a 66 MB page a browser took minutes to open; a full cell is ~10 KB of a page kept under 10 MB.
MAX_FULL_CELLS = 500
#: Points drawn in all the full cells together: the cells are chosen until either bound is reached.
#: A drawing point is ~200 bytes of SVG at most; the benchmark's drawings average ~60 points, so 500
#: cells of them stay inside it, while cells of 1,000-point answers stop at 30 (twenty models of
#: 5,000-point answers once made a 580 MB report).
MAX_FULL_POINTS = 30_000
#: Characters of a raw answer shown that count as one drawing point against :data:`MAX_FULL_POINTS`.
CHARS_PER_POINT = 200

# Controls (but tab, newline, carriage return), lone surrogates and non-characters: HTML cannot
# carry them, and a lone surrogate cannot even be encoded as UTF-8. Bidirectional overrides,
# isolates and marks and zero-width characters (defaults.UNSEEN): they reorder or hide the text.
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff" + UNSEEN + "]")
# render.svg names its arrow marker "arr"; several inline SVGs on one page need distinct ids.
_MARKER_ID = re.compile(r'id="arr"|url\(#arr\)')


def esc(text: Any, limit: int | None = None) -> str:
    """``text`` as inert HTML text: unsafe characters dropped, cut to ``limit``, escaped."""
    s = _UNSAFE.sub("", str(text))
    if limit is not None and len(s) > limit:
        s = s[:limit] + "…"
    return html.escape(s, quote=True)


def badge(kind: str, text: str | None = None) -> str:
    return f'<span class="badge {esc(kind.lower())}">{esc(text or kind.upper())}</span>'


def anchor(case_id: str) -> str:
    # case ids match CASE_ID_RE ([a-z0-9._-]); anything else is dropped, never interpreted
    return "case-" + re.sub(r"[^a-z0-9._-]", "", case_id.lower())


def status(rec: CaseRecord | None) -> tuple[str, str]:
    """CSS class and label of a record's outcome."""
    if rec is None:
        return "none", "not run"
    if not rec.judged and rec.outcome in ("passed", "failed"):
        return "none", "not judged"
    return {
        "passed": ("pass", "PASS"),
        "failed": ("fail", "FAIL"),
        "error": ("error", "ERROR"),
        "skipped": ("skipped", "SKIPPED"),
    }.get(rec.outcome, ("none", rec.outcome.upper()))


def _num(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return fmt_value(v)
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_num(x) for x in v[:8])
        return f"({inner}{', …' if len(v) > 8 else ''})"
    return str(v)


def _thinned_note(drawn: int, of: int) -> str:
    return (
        f'<p class="cut">drawn: {drawn:,} of its {of:,} points, evenly spaced along the path '
        f"(the report draws at most {MAX_POINTS_DRAWN:,} per drawing; gaps are marked where they fall)</p>"
    )


def _drawing_svg(s: SampleRecord, rec: CaseRecord, case: Any, key: str) -> str:
    if s.points is None:
        return '<p class="cut">not drawn: its coordinates are not all finite numbers</p>'
    try:
        ideal = case.ideal() if case is not None else None
    except Exception:
        ideal = None
    cut = ""
    try:
        pts = np.asarray(s.points, dtype=float).reshape(-1, 2)
        gaps, breaks = s.marks.get("gaps", ()), s.marks.get("breaks", ())
        if len(pts) > MAX_POINTS_DRAWN:
            t = thin(pts, MAX_POINTS_DRAWN, gaps=gaps, breaks=breaks)
            picture = render.svg(
                t.points, rec.grid_size, ideal=ideal, gaps=t.gap_steps, breaks=t.breaks, gap_steps=t.gap_steps
            )
            cut = _thinned_note(len(t.kept), len(pts))
        elif s.n_points > len(pts):  # thinned when recorded: its steps' lengths say nothing, its marks do
            picture = render.svg(pts, rec.grid_size, ideal=ideal, gaps=gaps, breaks=breaks, gap_steps=gaps)
            cut = _thinned_note(len(pts), s.n_points)
        else:
            picture = render.svg(pts, rec.grid_size, ideal=ideal, gaps=gaps, breaks=breaks)
    except Exception as exc:
        return f'<p class="cut">could not draw: {esc(type(exc).__name__)}: {esc(exc, MAX_NOTE)}</p>'
    picture = _MARKER_ID.sub(lambda m: m.group(0).replace("arr", f"arr-{key}"), picture)
    return f'{cut}<div class="drawing">{picture}</div>'


def _answer_html(s: SampleRecord) -> str:
    cut = ""
    if s.answer_length > len(s.answer):
        cut = (
            f'<p class="cut">cut: showing the first {len(s.answer):,} of {s.answer_length:,} characters '
            f"(the full answer is in the recording)</p>"
        )
    return (
        f"<details><summary>raw answer ({s.answer_length:,} characters)</summary>{cut}"
        f"<pre>{esc(redact(s.answer))}</pre></details>"
    )


def _sample_html(s: SampleRecord, rec: CaseRecord, case: Any, key: str) -> list[str]:
    out = ['<div class="sample">']
    head = f"sample #{s.index}" if len(rec.samples) > 1 else ""
    if s.format_error is not None:
        out.append(
            f'<p class="noanswer">{esc(head + ": " if head else "")}not a drawing: {esc(s.format_error, MAX_NOTE)}</p>'
        )
    else:
        if head:
            out.append(
                f"<p><b>{esc(head)}</b> · score {s.score:.2f} · "
                f"{badge('pass' if s.passed else 'fail', 'pass' if s.passed else 'fail')}</p>"
            )
        out.append(_drawing_svg(s, rec, case, f"{key}-{s.index}"))
        if s.failed:
            out.append('<ul class="checks">' + "".join(f"<li>{esc(c.text, MAX_NOTE)}</li>" for c in s.failed) + "</ul>")
        else:
            out.append(f'<p class="ok">all {len(s.checks)} checks passed</p>')
        out.append(
            '<div class="metrics">'
            + "".join(
                f"<div><span>{esc(k)}</span><span>{esc(_num(v), 80)}</span></div>" for k, v in sorted(s.metrics.items())
            )
            + "</div>"
        )
    out.append(_answer_html(s))
    out.append("</div>")
    return out


def _brief_cell_html(rec: CaseRecord, model: str, baseline: str | None) -> str:
    """A judged cell in one line: verdict, score and the failed checks' names (not drawn in full)."""
    kind, label = status(rec)
    role = '<span class="role">baseline</span>' if baseline is not None and model == baseline else ""
    failed: list[str] = []
    for s in rec.samples:
        if s.format_error is not None:
            failed.append("not a drawing")
        failed += [c.name for c in s.failed]
    names = list(dict.fromkeys(failed))  # once each, in the order first met
    said = f"failed: {', '.join(names)}" if names else "all checks passed"
    return (
        f'<div class="cell brief {kind}"><div class="cell-head"><span class="model">{esc(model)}</span>{role}'
        f'{badge(kind, label)}<span class="score">{rec.score:.2f}</span></div>'
        f'<p class="muted">{esc(said, MAX_NOTE)}</p></div>'
    )


def _cell_html(
    rec: CaseRecord | None, model: str, baseline: str | None, case: Any, key: str, *, full: bool = True
) -> str:
    if rec is not None and rec.judged and not full:
        return _brief_cell_html(rec, model, baseline)
    kind, label = status(rec)
    role = '<span class="role">baseline</span>' if baseline is not None and model == baseline else ""
    out = [
        (
            f'<div class="cell {kind}"><div class="cell-head"><span class="model">{esc(model)}</span>{role}'
            f"{badge(kind, label)}"
        )
    ]
    if rec is None or not rec.judged:
        out.append("</div>")
        why = "this model × case was not in the run" if rec is None else rec.reason
        out.append(f'<p class="noanswer">no answer: {esc(why, MAX_NOTE)}</p></div>')
        return "".join(out)
    out.append(f'<span class="score" title="mean sample score">{rec.score:.2f}</span></div>')
    if len(rec.samples) > 1:
        out.append(
            f'<p class="muted">{sum(rec.sample_passed)} of {len(rec.samples)} samples passed '
            f"(required pass rate {rec.min_pass_rate:.2f})</p>"
        )
    if rec.outcome == "failed" and rec.checks_passed:
        why = f": {rec.reason}" if rec.reason else " (a snapshot mismatch?)"
        out.append(
            f'<p class="muted">every sample passed its checks; the test failed for another reason'
            f"{esc(why, MAX_NOTE)}</p>"
        )
    for s in rec.samples:
        out += _sample_html(s, rec, case, key)
    out.append("</div>")
    return "".join(out)


def _legend() -> str:
    items = [
        ("#2ca02c", "ring: the first point"),
        ("#333", "small square: the last point"),
        ("#1f4e9c", "arrows: direction of travel"),
        ("#d62728", "red dashes/rings: a gap (a step over one cell)"),
        ("#bfe3bf", "pale band: the ideal shape"),
        ("#9ecae1", "cells: the points drawn"),
    ]
    return (
        '<p class="legend">'
        + "".join(f'<span><span class="sw" style="background:{c}"></span>{esc(t)}</span>' for c, t in items)
        + "</p>"
    )


def full_cells(
    cases: Sequence[tuple[CaseRecord, Mapping[str, CaseRecord]]], limit: int | None = None
) -> set[tuple[str, str]] | None:
    """The (case, model) cells a report draws in full, or ``None`` for every one.

    Every cell when there are at most ``limit`` (:data:`MAX_FULL_CELLS` unless given). Else the failing cells first, the worst score
    first, taken from the models in turn so that each model's worst drawings are shown; then, while
    room is left, the passing cells, evenly spaced through each model's cases, again in turn.
    """
    limit = MAX_FULL_CELLS if limit is None else limit
    records = [rec for _, by_model in cases for rec in by_model.values()]
    if len(records) <= limit and sum(_points_drawn(rec) for rec in records) <= MAX_FULL_POINTS:
        return None
    failing: dict[str, list[CaseRecord]] = {}
    passing: dict[str, list[CaseRecord]] = {}
    for rec in records:
        if rec.judged:
            (passing if rec.outcome == "passed" else failing).setdefault(rec.model, []).append(rec)
    for recs in failing.values():
        recs.sort(key=lambda r: float(r.score or 0.0))
    for model, recs in passing.items():
        passing[model] = _evenly(recs)
    chosen: set[tuple[str, str]] = set()
    points = 0
    for queues in (failing, passing):
        points = _take_in_turns(queues, chosen, limit, points)
    return chosen


def _evenly(recs: list[CaseRecord]) -> list[CaseRecord]:
    """``recs`` reordered so that any first part of it is spread evenly through them (bit-reversal)."""
    n = len(recs)
    bits = max(1, (n - 1).bit_length())
    order = sorted(range(n), key=lambda i: int(format(i, f"0{bits}b")[::-1], 2))
    return [recs[i] for i in order]


def _points_drawn(rec: CaseRecord) -> int:
    """What a cell drawn in full adds to the page, counted in drawing points (~200 bytes each):
    each sample's points, up to :data:`MAX_POINTS_DRAWN`, and its raw answer shown, a point for
    every :data:`CHARS_PER_POINT` characters (a prose answer draws nothing, and a thousand samples
    of one once made a 13 MB page)."""
    shown = (min(s.answer_length, MAX_ANSWER_SHOWN) for s in rec.samples)  # (a small record keeps no text)
    return sum(min(s.n_points, MAX_POINTS_DRAWN) for s in rec.samples) + sum(shown) // CHARS_PER_POINT


def _take_in_turns(
    queues: Mapping[str, list[CaseRecord]], chosen: set[tuple[str, str]], limit: int, points: int
) -> int:
    """Add the queues' records to ``chosen`` one model at a time, in turn, until ``limit`` cells
    or :data:`MAX_FULL_POINTS` points drawn, ``points`` of them by the cells already chosen; the
    points drawn then."""
    position = 0
    while len(chosen) < limit:
        took = False
        for recs in queues.values():
            if position < len(recs) and len(chosen) < limit:
                cost = _points_drawn(recs[position])
                if points + cost > MAX_FULL_POINTS:
                    return points
                points += cost
                chosen.add((recs[position].case, recs[position].model))
                took = True
        if not took:
            return points
        position += 1
    return points


def cases_html(
    cases: Sequence[tuple[CaseRecord, Mapping[str, CaseRecord]]],
    models: Sequence[str],
    baseline: str | None,
    lang: str,
    definitions: Mapping[str, Any],
) -> list[str]:
    """The drawings section: per case (grouped by family), every model's cell side by side.

    ``cases`` pairs each case's first record with its records by model; ``definitions`` holds the
    run's cases by id, for the prompt and the ideal shape (a case missing there shows neither).
    """
    cells = sum(len(by_model) for _, by_model in cases)
    return list(iter_cases_html(cases, models, baseline, lang, definitions, full_cells(cases), cells))


def iter_cases_html(
    cases: Iterable[tuple[CaseRecord, Mapping[str, CaseRecord]]],
    models: Sequence[str],
    baseline: str | None,
    lang: str,
    definitions: Mapping[str, Any],
    full: set[tuple[str, str]] | None = None,
    cells: int = 0,
) -> Iterator[str]:
    """:func:`cases_html`'s pieces one case at a time: a page of thousands of cases is written as it
    is made, never held whole (with records read from disk as each case is drawn, neither are they).
    ``full``: the cells drawn in full (:func:`full_cells`, chosen by the caller from the small
    records) of the ``cells`` there are; ``None`` draws every one."""
    yield '<section id="drawings"><h2>Drawings</h2>'
    yield _legend()
    if full is not None:
        yield (
            f'<p class="cut">{len(full):,} of the {cells:,} model × case cells are drawn in full (the report draws at '
            f"most {MAX_FULL_CELLS:,}, and {MAX_FULL_POINTS:,} points among them): the failing ones first, each model's worst first and the models in turn, "
            "then a sample of the passing ones. The others show their verdict, score and failed checks; "
            "the test output with -v draws every failing one.</p>"
        )
    family = None
    for i, (first, by_model) in enumerate(cases):
        if first.family != family:
            family = first.family
            yield f'<h2 class="family">{esc(family)}</h2>'
        yield (
            f'<section class="case" id="{anchor(first.case)}"><div class="case-head">'
            f'<h3>{esc(first.case)}</h3><span class="variant">{esc(first.variant)}</span></div>'
        )
        case = definitions.get(first.case)
        try:
            prompt = case.prompt(lang) if case is not None else "(the case is not defined in this run)"
        except Exception:
            prompt = "(no prompt in this language)"
        # a user case's prompt may hold a token or a secret's value: redacted as recorded answers are
        yield f"<details><summary>prompt</summary><pre>{esc(redact(prompt), MAX_ANSWER_SHOWN)}</pre></details>"
        # side by side in one row; in a report of many cells, wrapped rows, so no cell drawn in full
        # sits off the screen to the right of a row of one-line ones
        columns = (
            f"repeat({len(models)},minmax(300px,640px))" if full is None else "repeat(auto-fill,minmax(300px,1fr))"
        )
        yield f'<div class="models" style="grid-template-columns:{columns}">'
        for j, m in enumerate(models):
            drawn = full is None or (first.case, m) in full
            yield _cell_html(by_model.get(m), m, baseline, case, f"{i}-{j}", full=drawn)
        yield "</div></section>"
    yield "</section>"
