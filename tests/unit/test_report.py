"""The HTML report treats everything a model wrote as hostile: escaped, bounded, never run."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shape_asserts.cases import load_cases
from shape_asserts.results.gate import gate
from shape_asserts.results.record import MAX_POINTS, CaseRecord
from shape_asserts.results.report import (
    CSP,
    MAX_ANSWER_SHOWN,
    ReportData,
    render_html,
    write_report,
)
from shape_asserts.results.summary import summarize
from shape_asserts.results.verdict import judge

REPO = Path(__file__).resolve().parents[2]
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
#: Tags the report itself uses; anything else in the page came from data and escaped nothing.
ALLOWED_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "main",
    "header",
    "footer",
    "section",
    "div",
    "span",
    "p",
    "b",
    "strong",
    "h1",
    "h2",
    "h3",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "ul",
    "li",
    "details",
    "summary",
    "pre",
    # inline SVG drawings
    "svg",
    "defs",
    "marker",
    "path",
    "rect",
    "line",
    "circle",
}


class Tags(HTMLParser):
    """Every start tag of a document with its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def parse(html: str) -> Tags:
    t = Tags()
    t.feed(html)
    t.close()
    return t


@pytest.fixture(scope="module")
def case():
    return next(c for c in load_cases() if c.id == "circle-start030-cw")


@pytest.fixture(scope="module")
def exact_text(case) -> str:
    doc = json.loads((REPO / "fixtures" / "reference_exact" / f"{case.id}.json").read_text(encoding="utf-8"))
    return doc["samples"][0]["text"]


def view(case, model: str, texts: list[str]) -> CaseRecord:
    """The record a test of ``case`` answered with ``texts`` leaves, read back from its JSON."""
    result = judge(case, model, texts)
    record = CaseRecord.from_result(result, "passed" if result.passed else "failed")
    return CaseRecord.from_json(record.as_property()[1])


def page(*records: CaseRecord, **kw) -> str:
    cases = {r.case: c for r in records for c in load_cases() if c.id == r.case}
    return render_html(ReportData(records=list(records), cases=cases, **kw))


def test_a_model_planting_markup_in_its_prose_shows_it_only_as_text(case, exact_text):
    hostile = f"Here you go {SCRIPT} and {IMG}\n```json\n{exact_text}\n```\n{SCRIPT}"

    html = page(view(case, "evil/model", [hostile]), view(case, "evil/broken", [f"no drawing {IMG} {SCRIPT}"]))

    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script" not in html.lower()
    assert "<img" not in html.lower()
    tags = parse(html).tags
    assert {t for t, _ in tags} <= ALLOWED_TAGS
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]  # no event handler at all


def test_the_page_has_no_script_element_and_forbids_scripts_by_policy(case, exact_text):
    html = page(view(case, "m", [exact_text]))
    tags = parse(html).tags

    assert not [t for t, _ in tags if t == "script"]
    csp = [a["content"] for t, a in tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp == [CSP]
    assert "default-src 'none'" in CSP and "script-src" not in CSP
    # links only jump inside the page; nothing is loaded from anywhere
    assert all(a.get("href", "#").startswith("#") for t, a in tags if t == "a")
    assert not [t for t, a in tags if "src" in a]


def test_a_hostile_model_name_and_error_reason_are_escaped(case):
    errored = CaseRecord.unjudged(f"m{SCRIPT}", case, "error", f"ProviderError: {IMG}")

    html = page(errored, models=[f"m{SCRIPT}"])

    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "no answer: ProviderError: &lt;img src=x onerror=alert(1)&gt;" in html


def test_a_long_answer_is_cut_and_the_page_says_so(case, exact_text):
    tail = "THE-END-OF-A-LONG-ANSWER"
    long_answer = exact_text + "\n" + "x" * (3 * MAX_ANSWER_SHOWN) + tail

    html = page(view(case, "m", [long_answer]))

    assert f"cut: showing the first {MAX_ANSWER_SHOWN:,} of {len(long_answer):,} characters" in html
    assert tail not in html
    assert len(html) < 2 * MAX_ANSWER_SHOWN + 200_000


def test_characters_html_cannot_carry_are_dropped_so_the_page_always_encodes(case, exact_text):
    html = page(view(case, "m", [exact_text + "\x00\x1b[31m\ud800\ufffe"]))

    html.encode("utf-8")  # a lone surrogate would raise here
    assert "\x00" not in html and "\x1b" not in html


def test_a_drawing_with_more_points_than_a_record_keeps_is_drawn_thinned_and_says_so(case):
    pts = [{"x": i % 50, "y": (i // 50) % 50} for i in range(MAX_POINTS + 1)]
    html = page(view(case, "m", [json.dumps({"points": pts})]))

    assert f"drawn: {MAX_POINTS:,} of its {MAX_POINTS + 1:,} points, evenly spaced along the path" in html


def test_every_drawing_gets_its_own_arrow_marker_id(case, exact_text):
    html = page(view(case, "a", [exact_text]), view(case, "b", [exact_text, exact_text]))
    ids = [a["id"] for t, a in parse(html).tags if t == "marker"]

    assert len(ids) == 3 and len(set(ids)) == 3


def test_models_are_columns_and_a_model_missing_a_case_says_so(case, exact_text):
    html = page(view(case, "first", [exact_text]), models=["first", "second"])

    assert html.index(">first<") < html.index(">second<")
    assert "no answer: this model × case was not in the run" in html


def test_the_summary_and_gate_sections_show_when_given(case, exact_text):
    rec = [CaseRecord.from_scores("m", case.id, "circle", (99.15,), (True,), group=case.group)]
    g = gate({"m": rec}, "base", rec)

    html = page(view(case, "m", [exact_text]), rows=summarize(rec), gate=g, baseline="base")

    assert 'id="summary"' in html and 'id="gate"' in html
    assert "UNDECIDED" in html and "need ~5 paired cases (have 1)" in html


def test_write_report_creates_folders_and_leaves_no_temporary_file(tmp_path, case, exact_text):
    target = tmp_path / "deep" / "er" / "report.html"

    out = write_report(target, ReportData(records=[view(case, "m", [exact_text])]))

    assert out == target and target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


def test_a_record_whose_case_the_run_does_not_define_still_shows_its_drawing(case, exact_text):
    html = render_html(ReportData(records=[view(case, "m", [exact_text])]))

    assert html.count("<svg ") == 1
    assert "(the case is not defined in this run)" in html


def test_a_case_whose_checks_passed_but_whose_test_failed_says_why(case, exact_text):
    result = judge(case, "m", [exact_text])
    rec = CaseRecord.from_result(result, "failed", "Failed: result differs from the snapshot in <snapshots>")

    html = page(rec)

    assert (
        "every sample passed its checks; the test failed for another reason: "
        "Failed: result differs from the snapshot in &lt;snapshots&gt;"
    ) in html


def test_the_report_file_is_readable_by_everyone(tmp_path, case, exact_text):
    out = write_report(tmp_path / "report.html", ReportData(records=[view(case, "m", [exact_text])]))

    assert out.stat().st_mode & 0o777 == 0o644
