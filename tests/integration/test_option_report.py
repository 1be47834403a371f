"""``--shape-report PATH``: one self-contained HTML file, written at session end by the controller."""

from __future__ import annotations

import html as htmllib
import json
import re
import sys

import pytest

from shape_asserts.results.report import CSP

from .conftest import CIRCLE, CIRCLE_CASES, N_CASES, recording

EXACT, NOISY = "reference/exact", "reference/noisy"
CASE = "circle-start330-ccw"
HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True)
def _inner_suite_module_is_its_own(monkeypatch):
    """The outer session may have imported tests/suite/test_shapes.py as ``test_shapes``; the run
    inside pytester must import its own copy, not trip over that one ("import file mismatch")."""
    monkeypatch.delitem(sys.modules, "test_shapes", raising=False)


def test_the_report_shows_every_case_with_every_model_side_by_side(suite):
    result = suite.runpytest(
        f"--model={EXACT}", f"--model={NOISY}", "--record=none", "--shape-report=out/report.html", *CIRCLE
    )

    assert result.ret == 1  # no --baseline: the noisy drawer's failures fail the run as usual
    path = suite.path / "out" / "report.html"  # relative to where pytest was started, like --junitxml
    result.stdout.fnmatch_lines([f"*shape-asserts report: {path}*"])
    html = path.read_text(encoding="utf-8")
    assert f'content="{htmllib.escape(CSP)}"' in html
    assert "<script" not in html.lower()
    for case in CIRCLE_CASES:
        assert f'<section class="case" id="case-{case}">' in html
    # each case: one cell per model, in --model order, a drawing and a raw answer in each
    assert html.count('<div class="cell ') == 2 * N_CASES
    assert html.count('<div class="drawing"><svg ') == 2 * N_CASES
    # the stability picture: per model, one polar chart and one ring of drawings per direction
    assert html.count('<svg class="polar"') == 2 and html.count('<svg class="ring"') == 4
    assert html.count("<summary>raw answer (") == 2 * N_CASES
    assert html.count("<summary>prompt</summary>") == N_CASES
    assert html.index(f'<span class="model">{EXACT}</span>') < html.index(f'<span class="model">{NOISY}</span>')
    assert re.search(
        r'<td class="mono">reference/noisy</td><td>circle</td><td class="num">24</td>'
        r'<td class="num">6</td><td class="num">18</td>',
        html,
    )
    assert "gaps: " in html  # a failed check of the noisy drawer, listed under its drawing


def test_a_case_that_errored_is_shown_as_no_answer_with_its_reason(suite):
    recording(suite, CASE).unlink()

    result = suite.runpytest("--record=none", "--shape-report=report.html", *CIRCLE)

    result.assert_outcomes(passed=N_CASES - 1, errors=1)
    html = (suite.path / "report.html").read_text(encoding="utf-8")
    section = html[html.index(f'id="case-{CASE}"') :]
    section = section[: section.index("</section>")]
    assert "ERROR" in section
    assert "no answer: FixtureError: no recorded answer at " in section


def test_a_recorded_answer_planting_markup_appears_only_escaped(suite):
    path = recording(suite, CASE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["samples"][0]["text"] = f"Sure! {HOSTILE}\n{doc['samples'][0]['text']}\n{HOSTILE}"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")

    suite.runpytest("--record=none", "--shape-report=report.html", *CIRCLE)

    html = (suite.path / "report.html").read_text(encoding="utf-8")
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;") == 2
    assert "<script" not in html.lower() and "<img" not in html.lower()


def test_the_xdist_controller_writes_the_report_and_gates_once(suite):
    result = suite.runpytest_subprocess(
        "-n",
        "2",
        f"--model={NOISY}",
        f"--baseline={EXACT}",
        "--record=none",
        "--shape-report=report.html",
        *CIRCLE,
        timeout=300,
    )

    assert result.ret == 1
    out = result.stdout.str()
    assert out.count("gate: FAIL") == 1 and out.count("shape-asserts report:") == 1
    html = (suite.path / "report.html").read_text(encoding="utf-8")
    assert '<section id="gate">' in html and '<div class="banner fail"><strong>FAIL</strong>' in html
    assert html.count('<div class="cell ') == 2 * N_CASES
    assert "(baseline)" in html


def test_a_run_without_shape_cases_still_writes_a_report_saying_so(suite):
    result = suite.runpytest("--record=none", "--shape-report=report.html", "-k", "no-such-case")

    assert result.ret == 5
    assert "No shape cases ran." in (suite.path / "report.html").read_text(encoding="utf-8")
