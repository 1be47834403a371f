"""The leaderboard (:mod:`shape_asserts.results.leaderboard`) as terminal lines and as an HTML section.

The job summary's Markdown is in :mod:`shape_asserts.results.step_summary`. Model names come from
the command line and case files: they are made printable and bounded here, escaped in HTML.
"""

from __future__ import annotations

from shape_asserts.results.gate import MIN_PAIRS, Difference
from shape_asserts.results.leaderboard import OVERALL, Comparison, Estimate, Leaderboard, Standing
from shape_asserts.results.panels import esc
from shape_asserts.text import single_line

__all__ = ["MAX_NAME", "cases", "format_leaderboard", "leaderboard_html", "ci", "diff", "explain", "terminal_lines"]

#: Longest model name shown (longer ones are cut with '…').
MAX_NAME = 60


def _name(text: str) -> str:
    return single_line(text, MAX_NAME)


def ci(e: Estimate | None, digits: int = 2) -> str:
    """``value [low, high]``, or ``—``."""
    if e is None:
        return "—"
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def diff(d: Difference) -> str:
    """``+estimate [+low, +high]``."""
    return f"{d.estimate:+.2f} [{d.low:+.2f}, {d.high:+.2f}]"


def cases(s: Standing) -> str:
    """The cases in the numbers, and how many more it has that not every model has."""
    return f"{s.cases} (+{s.apart} apart)" if s.apart else str(s.cases)


def _sd(s: Standing) -> str:
    return "—" if s.sample_sd is None else f"{s.sample_sd:.2f}"


def explain(board: Leaderboard) -> str:
    """One paragraph saying what the numbers are."""
    samples = (
        f" Each case's {board.samples} samples are averaged first; sample sd is how much a case's samples "
        "disagree (within-case standard deviation)."
        if board.samples > 1
        else ""
    )
    return (
        f"score: mean case score; pass: mean share of a case's samples passing every check (%); spread: "
        f"how much a score moves when only the start point and direction change (mean over groups; lower is "
        f"steadier). [{board.confidence:.0%} bootstrap intervals over cases (spread: over groups), "
        f"{board.resamples} resamples, seed {board.seed}.] Ranks by score (pass rate on equal scores); a "
        f"model shares the rank above unless its interval lies wholly below (=1: shared); only cases every "
        f"model has count (+N apart: the others; a model leaving under {MIN_PAIRS} in common: unranked)."
        f"{samples}"
    )


def _pair_line(c: Comparison) -> str:
    verb = ">" if c.resolved else "≥"
    if c.resolved and c.score.low <= 0:  # the scores tie: the pass rates tell them apart
        tail = f", pass rate {diff(c.pass_rate)} points"
    else:
        tail = "" if c.resolved else " (not resolved: the interval includes 0)"
    return f"{_name(c.better)} {verb} {_name(c.worse)} by {diff(c.score)} over {c.n} paired cases{tail}"


#: Models the terminal's by-family table shows, one column each (the first overall).
MAX_FAMILY_COLUMNS = 12


def _table(header: list[str], body: list[list[str]], left: int) -> list[str]:
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(header), line(["-" * w for w in widths])] + [line(b) for b in body]


def format_leaderboard(board: Leaderboard) -> list[str]:
    """Compact terminal lines: the overall ranking, each family's ranks, the overall pairs."""
    many = board.samples > 1
    header = ["rank", "model", "cases", "score [95% CI]", "pass % [95% CI]", "spread [95% CI]"]
    header += ["sample sd"] if many else []
    body = []
    for s in board.ranking(OVERALL):
        row = [s.rank_text, _name(s.model), cases(s), ci(s.score), ci(s.pass_rate, 1), ci(s.spread)]
        body.append(row + ([_sd(s)] if many else []))
    out = _table(header, body, left=2)
    families = [f for f in board.scopes if f != OVERALL]
    if families and board.models:
        # a column a model: the first MAX_FAMILY_COLUMNS overall (the table would grow as models ×
        # families; every family's whole ranking is in the HTML page)
        shown = [s.model for s in board.ranking(OVERALL)][:MAX_FAMILY_COLUMNS] or list(board.models)
        more = len(board.models) - len(shown)
        out += [
            "",
            "by family: rank  score [95% CI]"
            + (
                f" (the first {len(shown)} models overall of {len(board.models)}; the HTML page ranks them all)"
                if more > 0
                else ""
            ),
        ]
        rows = []
        for f in families:
            cells = [_name(f)]
            for m in shown:
                st = board.standing(m, f)
                cells.append("—" if st is None else f"{st.rank_text:>3}  {ci(st.score)}")
            rows.append(cells)
        out += _table(["family", *(_name(m) for m in shown)], rows, left=len(shown) + 1)
    pairs = board.compared(OVERALL)
    if pairs:
        out += ["", "paired, overall (each against the next one down: better − worse, score [95% CI]):"]
        out += [f"  {_pair_line(c)}" for c in pairs]
    return out


def terminal_lines(board: Leaderboard, width: int = 100) -> list[str]:
    """The board as a run's terminal shows it, and ``shape-asserts leaderboard`` prints it:
    the tables, then what they mean, wrapped at ``width``."""
    import textwrap

    return format_leaderboard(board) + textwrap.wrap(explain(board), width=width)


def _ci_html(e: Estimate | None, digits: int = 2) -> str:
    if e is None:
        return "—"
    return f'{e.value:.{digits}f} <span class="muted">[{e.low:.{digits}f}, {e.high:.{digits}f}]</span>'


def leaderboard_html(board: Leaderboard) -> list[str]:
    """The report's leaderboard section: a ranking per scope, then every paired comparison."""
    many = board.samples > 1
    heads = ["rank", "model", "cases", "score [CI]", "pass % [CI]", "spread [CI]"] + (["sample sd"] if many else [])
    out = [
        '<section id="leaderboard"><h2>Leaderboard</h2>',
        f'<p class="explain">{esc(explain(board))}</p>',
        '<div class="tablewrap"><table><thead><tr><th>scope</th>'
        + "".join(f'<th class="{"num" if i >= 2 else ""}">{esc(h)}</th>' for i, h in enumerate(heads))
        + "</tr></thead><tbody>",
    ]
    for scope in (OVERALL, *(f for f in board.scopes if f != OVERALL)):
        for i, s in enumerate(board.ranking(scope)):
            label = f"<b>{esc(scope)}</b>" if i == 0 else ""
            badge = "pass" if s.rank == 1 else "none"
            out.append(
                f"<tr><td>{label}</td>"
                f'<td><span class="badge {badge}">{esc(s.rank_text)}</span></td>'
                f'<td class="mono">{esc(s.model, MAX_NAME)}</td><td class="num">{esc(cases(s))}</td>'
                f'<td class="num">{_ci_html(s.score)}</td><td class="num">{_ci_html(s.pass_rate, 1)}</td>'
                f'<td class="num">{_ci_html(s.spread)}</td>'
                + (f'<td class="num">{_sd(s)}</td>' if many else "")
                + "</tr>"
            )
    out.append("</tbody></table></div>")
    if board.comparisons:
        out += [
            "<h3>Paired comparisons</h3>",
            '<p class="explain">Each ranked model against the next one down, on the cases both answered: better '
            "− worse, in score points and in pass-rate percentage points, with the interval. Resolved when the "
            "score interval excludes 0.</p>",
            '<div class="tablewrap"><table><thead><tr><th>scope</th><th>better</th><th>worse</th>'
            '<th class="num">paired cases</th><th class="num">Δ score [CI]</th>'
            '<th class="num">Δ pass rate, pp [CI]</th><th>resolved</th></tr></thead><tbody>',
        ]
        for c in sorted(board.comparisons, key=lambda c: (c.scope != OVERALL, c.scope)):
            out.append(
                f'<tr><td>{esc(c.scope)}</td><td class="mono">{esc(c.better, MAX_NAME)}</td>'
                f'<td class="mono">{esc(c.worse, MAX_NAME)}</td><td class="num">{c.n}</td>'
                f'<td class="num">{esc(diff(c.score))}</td><td class="num">{esc(diff(c.pass_rate))}</td>'
                f"<td>{'yes' if c.resolved else 'no'}</td></tr>"
            )
        out.append("</tbody></table></div>")
    out.append("</section>")
    return out
