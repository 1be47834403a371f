"""The gate in words: the terminal's table and reasons, and the lines the report and job summary share."""

from __future__ import annotations

from shape_asserts.results.gate import UNDECIDED, Difference, FamilyGate, Gate

__all__ = ["need_text", "describe", "format_gate"]


def _ci(d: Difference | None, digits: int = 2) -> str:
    if d is None:
        return "—"
    return f"{d.estimate:+.{digits}f} [{d.low:+.{digits}f}, {d.high:+.{digits}f}]"


def need_text(f: FamilyGate) -> str:
    """What an UNDECIDED family needs, in words ("" for a decided one)."""
    if f.verdict != UNDECIDED:
        return ""
    if f.need is None:
        return "no estimate of the cases needed (the difference sits on the margin, or nothing paired)"
    return (
        f"need ~{f.need} paired cases (have {f.n}): add cases (--shape-cases) or widen the "
        f"selection; more --samples per case also narrows the interval"
    )


def describe(g: Gate) -> str:
    """One line saying how the gate was computed."""
    return (
        f"baseline {g.baseline} · margin {g.margin:g} (score points; pass-rate percentage points) · "
        f"{g.confidence:.0%} bootstrap intervals over paired cases, {g.resamples:,} resamples, "
        f"seed {g.seed}"
    )


def format_gate(g: Gate) -> list[str]:
    """Plain-text lines for the terminal: a row per candidate × family, then each row's reason."""
    ci = f"[{g.confidence:.0%} CI]"
    header = ["candidate", "family", "cases", f"Δ score {ci}", f"Δ pass rate, pp {ci}", "verdict"]
    body = [[f.candidate, f.family, str(f.n), _ci(f.score), _ci(f.pass_rate), f.verdict] for f in g.families]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i == 2 else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [describe(g), line(header), line(["-" * w for w in widths])] + [line(b) for b in body]
    for f in g.families:
        extra = [f.reason, need_text(f)]
        if f.candidate_only or f.baseline_only:
            extra.append(
                f"unpaired: {f.candidate_only} case(s) only the candidate has, {f.baseline_only} only the baseline has"
            )
        out.append(f"{f.candidate} · {f.family}: " + "; ".join(e for e in extra if e))
    if g.incomplete:
        out.append(f"incomplete results, so the gate fails: {g.incomplete}")
    return out
