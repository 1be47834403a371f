"""The GitHub job summary: one Markdown table per concern, no cell ever split or rendered as HTML."""

from __future__ import annotations

from shape_asserts.results.gate import gate
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.step_summary import append, cell, markdown
from shape_asserts.results.summary import summarize


def test_a_cell_keeps_pipes_and_newlines_from_splitting_the_table():
    assert cell("a|b\nc\r\nd") == "a\\|b c d"


def test_a_cell_renders_markup_inert_and_is_bounded():
    assert cell("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert\\(1\\)&gt;"
    assert len(cell("x" * 10_000)) <= 300


def test_a_model_name_with_markdown_shows_as_text_not_as_a_link():
    """A model named "[Gate: PASS](https://…)" once rendered as a link saying the gate passed."""
    assert cell("[Gate: PASS](https://x.example)") == "\\[Gate: PASS\\]\\(https://x.example\\)"
    assert cell("**bold** _it_ `code` ~x~") == "\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~x\\~"
    assert cell("clear\x1b[2Jscreen") == "clearscreen"


def test_every_row_of_every_table_has_as_many_cells_as_its_header():
    model = "evil|model\nname"
    recs = [CaseRecord.from_scores(model, f"c{i}", "circle", (90.0,), (i % 2 == 0,)) for i in range(6)]
    base = [CaseRecord.from_scores("base|line", f"c{i}", "circle", (90.0,), (i % 2 == 0,)) for i in range(6)]

    text = markdown(summarize(recs), gate({model: recs}, "base|line", base), report="r.html")

    tables: dict[int, list[str]] = {}
    block = 0
    for line in text.splitlines():
        if line.startswith("|"):
            tables.setdefault(block, []).append(line.replace("\\|", ""))
        else:
            block += 1
    assert len(tables) == 2
    for rows in tables.values():
        assert len({row.count("|") for row in rows}) == 1
    assert "### Gate: ✅ PASS" in text


def test_a_run_without_results_says_so():
    assert "No shape cases ran." in markdown([])


def test_append_adds_to_what_earlier_steps_wrote(tmp_path):
    path = tmp_path / "summary.md"
    path.write_text("before\n", encoding="utf-8")

    append("## shape-asserts\n", path)

    assert path.read_text(encoding="utf-8") == "before\n\n## shape-asserts\n"


def test_append_without_a_summary_file_does_nothing(monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)

    assert append("x") is None
