"""The HTML report keeps secrets out and its size bounded, whatever a case or a model wrote.

Two findings of the hostile sweep (issue 14, finding 8): a user case's prompt was shown unredacted
(a bearer token or a secret environment value in it reached the HTML), and a 5,000-point answer
added ~800 KB of SVG per drawing. Prompts and answers are now redacted as recordings are, and a
drawing shows at most ``MAX_POINTS_DRAWN`` points, thinned evenly along its path, saying so.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from shape_asserts.cases import load_cases
from shape_asserts.results.panels import MAX_POINTS_DRAWN
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.report import ReportData, render_html
from shape_asserts.results.thin import thin
from shape_asserts.results.verdict import judge

SECRET = "s3cr3t-value-of-the-users-key"
TOKEN = "abcdefghijklmnop0123456789"


@pytest.fixture(scope="module")
def circle():
    return next(c for c in load_cases() if c.id == "circle-start030-cw")


def record(case, texts: list[str], model: str = "m") -> CaseRecord:
    result = judge(case, model, texts)
    rec = CaseRecord.from_result(result, "passed" if result.passed else "failed")
    return CaseRecord.from_json(rec.as_property()[1])  # as it crosses from a worker


def page(case, *records: CaseRecord) -> str:
    return render_html(ReportData(records=list(records), cases={case.id: case}))


def svgs(html: str) -> list[str]:
    return re.findall(r"<svg.*?</svg>", html, flags=re.S)


def zigzag(n: int) -> str:
    """An answer of ``n`` points all over the grid: every step a long, dashed gap when drawn."""
    return json.dumps({"points": [{"x": (i * 7) % 50, "y": (i * 13) % 50} for i in range(n)]})


# --- prompts and answers redacted -----------------------------------------------------------------


def test_finding_8_a_user_cases_prompt_shows_no_bearer_token_nor_secret_value(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_SERVICE_API_KEY", SECRET)
    path = tmp_path / "mine.toml"
    path.write_text(
        f"""
[[case]]
id = "leaky-circle"
family = "circle"
center = [25, 25]
start = [25, 15]
direction = "cw"
prompt = "Draw a circle. Authorization: Bearer {TOKEN} and the key {SECRET}."
""",
        encoding="utf-8",
    )
    (case,) = load_cases([path], builtin=False)

    html = page(case, record(case, ["no drawing"]))

    assert "Draw a circle. Authorization: Bearer [REDACTED] and the key [REDACTED]." in html
    assert TOKEN not in html and SECRET not in html


def test_an_answer_held_in_memory_shows_no_secret_value_either(circle, monkeypatch):
    # a recorded answer is redacted as it is written; one kept in memory (its write failed) is not
    monkeypatch.setenv("PROVIDER_TOKEN", SECRET)

    html = page(circle, record(circle, [f"I was told {SECRET} and sk-{TOKEN}; no drawing"]))

    assert "I was told [REDACTED] and [REDACTED]; no drawing" in html
    assert SECRET not in html and TOKEN not in html


# --- points drawn per drawing bounded ----------------------------------------------------------------


def test_finding_8_a_5000_point_answer_draws_at_most_the_bound_and_says_so(circle):
    html = page(circle, record(circle, [zigzag(5_000)]))

    (picture,) = svgs(html)
    assert picture.count("h8v8") <= MAX_POINTS_DRAWN  # a cell per point drawn
    assert len(picture) < 300 * MAX_POINTS_DRAWN  # was ~1.3 MB for this answer
    assert f"drawn: {MAX_POINTS_DRAWN:,} of its 5,000 points, evenly spaced along the path" in html


def test_the_size_of_a_drawing_stops_growing_at_the_bound(circle):
    at_bound = svgs(page(circle, record(circle, [zigzag(MAX_POINTS_DRAWN)])))[0]
    far_over = svgs(page(circle, record(circle, [zigzag(5 * MAX_POINTS_DRAWN)])))[0]

    assert len(far_over) < 1.1 * len(at_bound)


def test_a_drawing_within_the_bound_is_drawn_whole_without_a_note(circle):
    html = page(circle, record(circle, [zigzag(MAX_POINTS_DRAWN)]))

    assert "drawn:" not in html
    assert svgs(html)[0].count("h8v8") == MAX_POINTS_DRAWN  # a cell per point


def test_a_thinned_drawing_keeps_its_ends_and_shows_its_gaps_where_they_fall():
    pts = np.array([[i % 40, 5] for i in range(3_000)], dtype=float)
    pts[1500:] += [0, 20]  # one jump of 20 cells at step 1499 → 1500

    t = thin(pts, 100, gaps=[1499])

    assert len(t.kept) <= 100 and t.kept[0] == 0 and t.kept[-1] == 2_999
    assert np.array_equal(t.points, pts[t.kept])
    (step,) = t.gap_steps
    assert t.kept[step] <= 1499 < t.kept[step + 1]


def test_a_thinned_drawing_marks_only_its_gaps_dashed_not_every_long_step(circle):
    pts = [{"x": 10 + (i % 30), "y": 10 + (i // 30) % 30} for i in range(4_000)]
    html = page(circle, record(circle, [json.dumps({"points": pts})]))

    (picture,) = svgs(html)
    gaps_drawn = picture.count('stroke-dasharray="4 3"')
    assert 0 < gaps_drawn < 200  # the drawing's own row jumps, not each of its ~1,000 thinned steps


def test_contour_breaks_carry_over_to_the_thinned_steps_that_span_them():
    pts = np.array([[i, 0] for i in range(10)], dtype=float)

    t = thin(pts, 4, breaks=[5])

    assert t.kept.tolist() == [0, 3, 6, 9] and t.breaks == (2,)  # the lift lies on step 3 → 6


def test_a_point_at_1e308_shows_on_the_far_border_of_the_ascii_picture_without_a_warning():
    import warnings

    from shape_asserts.results.render import ascii_art

    pts = np.array([[2.0, 2.0], [1e308, 3.0], [-1e308, 4.0], [3.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the integer cast of 1e308 warned, and put it on the wrong side
        rows = ascii_art(pts, 10).splitlines()[1:]

    assert rows[3].endswith("X") and rows[4][4] == "X"  # x far right on row 3, far left on row 4
