"""Session-end results: a test report's outcome, and the re-judged recording behind it."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from shape_asserts.results.collect import (
    ItemOutcome,
    _reason,
    case_samples,
    collect,
    outcome_from_report,
    printable,
)
from shape_asserts.plugin.suite import Settings

REPO = Path(__file__).resolve().parents[2]
PROPS = [("shape_model", "m"), ("shape_case", "circle-start030-cw")]


@dataclass
class Report:
    when: str
    outcome: str
    user_properties: list = field(default_factory=lambda: list(PROPS))
    longrepr: Any = None


def test_the_call_phase_settles_a_passed_or_failed_case():
    assert outcome_from_report(Report("call", "failed")) == ItemOutcome("m", "circle-start030-cw", "failed")
    assert outcome_from_report(Report("teardown", "passed")) is None


def test_a_failed_setup_is_an_error_with_its_one_line_reason():
    rep = Report("setup", "failed", longrepr="ProviderError: m: OPENAI_API_KEY is not set\nmore")

    assert outcome_from_report(rep) == ItemOutcome("m", "circle-start030-cw", "error",
                                                   "ProviderError: m: OPENAI_API_KEY is not set")


def test_a_skipped_setup_keeps_the_skip_reason():
    rep = Report("setup", "skipped", longrepr=("f.py", 1, "Skipped: --max-cost reached"))

    assert outcome_from_report(rep).reason == "Skipped: --max-cost reached"


def test_a_test_that_is_not_a_shape_case_has_no_outcome():
    assert outcome_from_report(Report("call", "failed", user_properties=[])) is None


def test_collect_rejudges_the_recording_and_names_what_is_missing(tmp_path):
    shutil.copytree(REPO / "fixtures" / "reference_noisy", tmp_path / "reference_noisy")
    (tmp_path / "reference_noisy" / "circle-start060-cw.json").unlink()
    settings = Settings(models=("reference/noisy",), fixtures_dir=tmp_path)
    outcomes = [ItemOutcome("reference/noisy", c, "failed") for c in ("circle-start030-cw", "circle-start060-cw")]
    outcomes.append(ItemOutcome("reference/noisy", "circle-start090-cw", "error", "ProviderError: down"))

    views = {v.case.id: v for v in collect(settings, outcomes)}

    assert views["circle-start030-cw"].result is not None and not views["circle-start030-cw"].result.passed
    assert views["circle-start060-cw"].result is None
    assert views["circle-start060-cw"].reason.startswith("no recorded answer at ")
    assert views["circle-start090-cw"].reason == "ProviderError: down"
    assert [c.case for c in case_samples(views.values())["reference/noisy"]] == ["circle-start030-cw"]


def test_the_reason_under_xdist_is_the_error_not_the_worker_header():
    """Under xdist a report's text starts with "[gw1] linux -- Python ..."; the report once showed
    that as the case's reason."""
    report = SimpleNamespace(longrepr="[gw1] linux -- Python 3.11.7 /usr/bin/python\nProviderError: m: down",
                             longreprtext="")
    assert _reason(report) == "ProviderError: m: down"


def test_escape_sequences_from_a_provider_never_reach_the_reason():
    """A provider's error body could clear the screen, set the title or fake a '139 passed' line."""
    report = SimpleNamespace(longrepr="ProviderError: m: \x1b[2J\x1b]0;pwned\x07bad\x1b[32m 139 passed\x1b[0m",
                             longreprtext="")
    assert _reason(report) == "ProviderError: m: bad 139 passed"
    assert printable("a\x00b\tc\x9bd") == "ab cd"
