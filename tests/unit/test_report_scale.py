"""A report of many models stays small: failing cells drawn first, the rest in one line each."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.cases import load_cases
from shape_asserts.results import panels
from shape_asserts.results.panels import full_cells
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.report import ReportData, render_html
from shape_asserts.results.verdict import judge

HOSTILE_MODEL = "<img src=x onerror=alert(1)>/model"


@pytest.fixture(scope="module")
def circles():
    return [c for c in load_cases() if c.family == "circle"][:8]


def bad(case) -> str:
    """The ideal drawing with a run of points cut out: it fails (gaps, covered)."""
    doc = json.loads(answer_text(case, "exact"))
    del doc["points"][5:15]
    return json.dumps(doc)


def record(case, model: str, text: str) -> CaseRecord:
    result = judge(case, model, [text])
    return CaseRecord.from_result(result, "passed" if result.passed else "failed")


def grouped(records: list[CaseRecord]) -> list[tuple[CaseRecord, dict[str, CaseRecord]]]:
    cases: dict[str, tuple[CaseRecord, dict[str, CaseRecord]]] = {}
    for r in records:
        cases.setdefault(r.case, (r, {}))[1][r.model] = r
    return list(cases.values())


@pytest.fixture(scope="module")
def records(circles) -> list[CaseRecord]:
    """Three models over eight cases: ``good`` passes all, ``half`` fails every other, ``bad`` fails all."""
    out = []
    for i, case in enumerate(circles):
        out.append(record(case, "good", answer_text(case, "exact")))
        out.append(record(case, "half", bad(case) if i % 2 else answer_text(case, "exact")))
        out.append(record(case, HOSTILE_MODEL, bad(case)))
    return out


def drawings_section(html: str) -> str:
    return html[html.index('<section id="drawings">') :]


def test_a_report_within_the_limit_draws_every_cell(records):
    assert full_cells(grouped(records), limit=len(records)) is None


def test_over_the_limit_the_failing_cells_come_first_each_models_worst_first_in_turn(records):
    failing = [r for r in records if r.outcome == "failed"]

    chosen = full_cells(grouped(records), limit=6)

    assert len(chosen) == 6
    assert all(
        (r.case, r.model) in {(f.case, f.model) for f in failing} for r in records if (r.case, r.model) in chosen
    )
    by_model = {m: [c for c, model in chosen if model == m] for m in ("half", HOSTILE_MODEL)}
    assert len(by_model["half"]) == 3 and len(by_model[HOSTILE_MODEL]) == 3  # in turn, not one model's all
    worst_half = sorted((r for r in failing if r.model == "half"), key=lambda r: r.score)[:3]
    assert set(by_model["half"]) == {r.case for r in worst_half}


def test_room_left_after_the_failing_cells_goes_to_a_spread_of_passing_ones(records):
    failing = {(r.case, r.model) for r in records if r.outcome == "failed"}

    chosen = full_cells(grouped(records), limit=len(failing) + 4)

    assert failing <= chosen
    passing = sorted(chosen - failing)
    assert len(passing) == 4
    good_cases = [c for c, m in passing if m == "good"]
    order = [r.case for r in records if r.model == "good"]
    positions = sorted(order.index(c) for c in good_cases)
    assert positions[-1] - positions[0] >= len(order) // 2  # spread through the cases, not the first few


def test_a_cell_not_drawn_in_full_is_one_line_with_its_verdict_score_and_failed_checks(records, circles, monkeypatch):
    monkeypatch.setattr(panels, "MAX_FULL_CELLS", 4)

    html = render_html(ReportData(records=records, cases={c.id: c for c in circles}))

    drawn = drawings_section(html)
    assert len(re.findall(r"<svg", drawn)) == 4
    assert (
        "4 of the 24 model × case cells are drawn in full (the report draws at most 4, and 30,000 points among them)"
        in drawn
    )
    brief = re.findall(r'<div class="cell brief fail">.*?</p></div>', drawn, flags=re.S)
    assert len(brief) == 12 - 4
    assert all("failed: " in cell and "gaps" in cell for cell in brief)
    assert "all checks passed" in drawn


def test_a_one_line_cell_escapes_the_model_name(records, circles, monkeypatch):
    monkeypatch.setattr(panels, "MAX_FULL_CELLS", 1)

    html = render_html(ReportData(records=records, cases={c.id: c for c in circles}))

    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;/model" in drawings_section(html)


def test_a_drawings_elements_do_not_grow_with_its_points():
    """Cells, grid and ordinary steps are one path each: a page of a thousand drawings stays light."""
    from shape_asserts.geometry.raster import raster_circle
    from shape_asserts.results.render import svg

    small, large = raster_circle((25, 25), 5), raster_circle((25, 25), 24)

    counts = [svg(pts, 50).count("<") for pts in (small, large)]

    assert len(large) > 3 * len(small)
    assert max(counts) < 40 and abs(counts[0] - counts[1]) <= 2  # about a dozen arrows, whatever the length


def test_cells_of_long_answers_are_drawn_in_full_only_up_to_the_points_budget(circles):
    """Twenty models answering 5,000 points a case once made a 580 MB report: full cells stop at
    MAX_FULL_POINTS points drawn, whatever the number of cells, failing ones first."""
    zigzag = json.dumps({"points": [[(i * 7) % 50, (i * 13) % 50] for i in range(5_000)]})
    records = [record(case, f"m{k}", zigzag) for case in circles for k in range(6)]
    drawn_each = min(records[0].samples[0].n_points, panels.MAX_POINTS_DRAWN)

    chosen = full_cells(grouped(records))

    assert chosen is not None and 0 < len(chosen) <= panels.MAX_FULL_POINTS // drawn_each < len(records)
    html = render_html(ReportData(records=records, cases={c.id: c for c in circles}))
    assert len(html.encode()) < 250 * panels.MAX_FULL_POINTS + 1_000_000  # ~200 bytes a point drawn


def test_cells_of_many_prose_answers_count_their_text_against_the_budget(circles):
    """Red-team sweep 52: answers that are no drawing draw no point, so 3 cases of 1,000 samples
    in prose, each shown raw, made a 13 MB page. The text shown counts against the budget too."""
    prose = "I cannot draw that, but here is a description. " * 100  # 4,800 characters
    records = [record(case, "m", prose) for case in circles[:3]]
    records = [dataclasses.replace(r, samples=r.samples * 1_000) for r in records]

    chosen = full_cells(grouped(records))

    assert chosen is not None and len(chosen) == 1  # one cell of 1,000 answers fills the budget
    html = render_html(ReportData(records=records, cases={c.id: c for c in circles}))
    assert len(html.encode()) < 250 * panels.MAX_FULL_POINTS + 1_000_000


def test_records_read_back_from_the_results_file_name_their_failed_checks_and_are_read_whole_only_when_drawn(
    records, circles, monkeypatch
):
    """A run's report draws from the small records it read back (no checks but the failed ones' names),
    reading a record whole only for a cell it draws in full."""
    from shape_asserts.results.merge import Line
    from shape_asserts.results.results_file import record_from_lines, record_lines

    small = [
        record_from_lines(
            [Line.read("run.jsonl", i, line).data for i, line in enumerate(record_lines(r, config={}, number=0))]
        )
        for r in records
    ]
    assert {c.name for s in small[-1].samples for c in s.checks} == {
        c.name for s in records[-1].samples for c in s.failed
    }
    assert all(c.passed is False for r in small for s in r.samples for c in s.checks)
    whole = {(r.model, r.case): r for r in records}
    read: list[tuple[str, str]] = []

    def load(model: str, case: str) -> CaseRecord:
        read.append((model, case))
        return whole[model, case]

    monkeypatch.setattr(panels, "MAX_FULL_CELLS", 4)
    html = render_html(ReportData(records=small, cases={c.id: c for c in circles}, load=load))

    brief = re.findall(r'<div class="cell brief fail">.*?</p></div>', drawings_section(html), flags=re.S)
    assert len(brief) == 12 - 4
    assert all("failed: " in cell and "gaps" in cell for cell in brief)
    drawn_whole = [key for key in read if key in {(m, c) for c, m in full_cells(grouped(small), limit=4)}]
    assert len(set(drawn_whole)) == 4
    # the stability section reads each record for its thumbnail; the drawings only the four drawn in full
    assert len(read) <= len(records) + 4
