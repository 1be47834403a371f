"""The run's results at session end: each shape test's outcome, re-judged from its recording.

Tests may run on xdist workers; what reaches the controller is each test's small report. At
session end the controller rebuilds everything the HTML report and the gate need from data it can
read itself — the cases (data files) and the recorded answers (``fixtures/``, every sample's raw
text) — and judges them again. Judging is deterministic, so this is the verdict the test reached,
and nothing big ever travels between processes.

A case whose test errored or was skipped has no result, only the one-line reason.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Any, Iterable

from shape_asserts.cases import Case
from shape_asserts.exceptions import ShapeAssertsError
from shape_asserts.asking.store import FixtureStore
from shape_asserts.results.gate import CaseSamples
from shape_asserts.results.verdict import CaseResult, judge

__all__ = ["ItemOutcome", "CaseView", "outcome_from_report", "collect", "case_samples", "MAX_REASON"]

#: Characters of an error or skip reason kept (the first line is what matters).
MAX_REASON = 500


@dataclass(frozen=True)
class ItemOutcome:
    """How one model × case test ended, as the controller saw it."""

    model: str
    case: str
    outcome: str  # "passed", "failed", "error" or "skipped"
    reason: str = ""  # for "error" and "skipped": the one-line cause


@dataclass(frozen=True)
class CaseView:
    """One model × case for the report and the gate: the judged result, or why there is none."""

    model: str
    case: Case
    outcome: str
    result: CaseResult | None
    reason: str = ""


def _reason(report: Any) -> str:
    """The one line that says why a test errored or was skipped."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, "Skipped: why")
        text = str(longrepr[2])
    else:
        crash = getattr(longrepr, "reprcrash", None)
        text = getattr(crash, "message", None) or getattr(report, "longreprtext", "") or str(longrepr or "")
    lines = [printable(line).strip() for line in str(text).splitlines()]
    # under xdist a report's text starts with the worker's header ("[gw1] linux -- Python 3.11 ..."),
    # which says where the test ran, not why it failed
    lines = [line for line in lines if line and not _XDIST_HEADER.match(line)]
    return (lines[0] if lines else "no reason given")[:MAX_REASON]


_XDIST_HEADER = re.compile(r"^\[gw\d+\] \S+ -- Python ")
#: ANSI escape sequences (colours, screen clears, title sets) and other control characters: a
#: provider's error body is hostile text and must not drive the terminal or the Markdown summary.
_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tabs kept as spaces)."""
    return _CONTROL.sub("", text.replace("\t", " "))


def outcome_from_report(report: Any) -> ItemOutcome | None:
    """The outcome a test report settles, or ``None`` (another phase, or not a shape test)."""
    props = dict(report.user_properties)
    if "shape_model" not in props or "shape_case" not in props:
        return None
    model, case = str(props["shape_model"]), str(props["shape_case"])
    if report.when == "call":
        return ItemOutcome(model, case, report.outcome)
    if report.when == "setup" and report.outcome != "passed":
        kind = "error" if report.outcome == "failed" else "skipped"
        return ItemOutcome(model, case, kind, _reason(report))
    return None


def _judged(store: FixtureStore, settings: Any, model: str, case: Case) -> tuple[CaseResult | None, str]:
    try:
        rec = store.read(model, case, settings.lang)
    except ShapeAssertsError as exc:
        return None, str(exc)
    if rec is None:
        return None, f"no recorded answer at {store.path(model, case.id, settings.lang)}"
    stale = store.stale_reason(rec, case, settings.lang, settings.temperature)
    if stale:
        return None, f"the recording is stale: {stale}"
    texts = rec.texts(settings.samples)
    if len(texts) < settings.samples:
        return None, f"the recording has {len(texts)} sample(s), {settings.samples} requested"
    try:
        return judge(case, model, texts, settings.min_pass_rate), ""
    except Exception as exc:  # noqa: BLE001 - a scorer's bug must not take the whole session end down
        return None, f"could not be judged again: {type(exc).__name__}: {exc}"


def collect(settings: Any, outcomes: Iterable[ItemOutcome]) -> list[CaseView]:
    """Every outcome with its judged result, in the run's case order, then model order.

    ``settings`` is the run's :class:`~shape_asserts.plugin.suite.Settings` (fixtures folder, language,
    temperature, samples, pass rate, cases). Outcomes of cases the settings do not know are dropped.
    """
    cases = {c.id: c for c in settings.cases()}
    order = {c.id: i for i, c in enumerate(settings.cases())}
    models = {m: i for i, m in enumerate(settings.models)}
    latest = {(o.model, o.case): o for o in outcomes if o.case in cases}
    store = FixtureStore(settings.fixtures_dir)
    views = []

    def place(key: tuple[str, str]) -> tuple[int, int, str]:
        model, cid = key
        return order[cid], models.get(model, len(models)), model

    for (model, cid), o in sorted(latest.items(), key=lambda kv: place(kv[0])):
        case = cases[cid]
        if o.outcome in ("passed", "failed"):
            result, why = _judged(store, settings, model, case)
            views.append(CaseView(model, case, o.outcome, result, why))
        else:
            views.append(CaseView(model, case, o.outcome, None, o.reason or o.outcome))
    return views


def case_samples(views: Iterable[CaseView]) -> dict[str, list[CaseSamples]]:
    """The judged samples of every view that has a result, by model (the gate's input)."""
    out: dict[str, list[CaseSamples]] = {}
    for v in views:
        if v.result is None:
            continue
        out.setdefault(v.model, []).append(CaseSamples(
            case=v.case.id, family=v.case.family,
            scores=tuple(s.value for s in v.result.samples),
            passed=tuple(s.passed for s in v.result.samples),
        ))
    return out
