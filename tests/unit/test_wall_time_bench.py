"""The pure helpers of ``bench/wall_time.py``: verdicts, ratio rows and reading runs' own timings.

Nothing here times anything; the bench itself is run by hand (see docs/performance.md).
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest


def test_the_bench_helpers_docstring_examples_hold(wall_time):
    failed, attempted = doctest.testmod(wall_time)
    assert attempted > 0 and failed == 0


def test_a_ratio_at_the_ceiling_is_met_and_just_above_is_missed(wall_time):
    assert wall_time.verdict(1.0, 1.0) == "met"
    assert wall_time.verdict(1.0001, 1.0) == "MISSED"


def test_the_ratio_row_judges_the_median_not_the_best_round(wall_time):
    row = wall_time.ratio_line("live / inspect", [0.7, 1.3, 1.2], 1.0, stretch=0.8)
    assert "1.20×" in row and "(0.70–1.30)" in row
    assert row.endswith("goal ≤ 1.0   MISSED; stretch ≤ 0.8 MISSED")


def test_the_last_pytest_summary_time_is_read_not_a_test_name(wall_time):
    out = "test_in_5s passed\n==== 139 passed, 2 warnings in 3.50s ====\n"
    assert wall_time.pytest_seconds(out) == 3.5


def test_each_variant_takes_each_place_in_turn(wall_time):
    orders = [wall_time.rotated(["a", "b", "c"], r) for r in range(3)]
    assert [o[0] for o in orders] == ["a", "b", "c"]


def test_the_readme_block_is_replaced_whole_and_only_between_its_markers(wall_time):
    before = f"# Wall time\n\nintro\n{wall_time.README_BEGIN}\nold output\n{wall_time.README_END}\nafter\n"
    block = wall_time.readme_block(
        ["round 1: live 7.0 s", "ratio 0.90×"], "python bench/wall_time.py --rounds 1", "2026-12-02"
    )

    once = wall_time.replace_block(before, block)
    again = wall_time.replace_block(once, block)

    assert once == again  # a second run replaces its own output, nothing accumulates
    assert once.startswith("# Wall time\n\nintro\n") and once.endswith(f"{wall_time.README_END}\nafter\n")
    assert "old output" not in once and "```text\nround 1: live 7.0 s\nratio 0.90×\n```" in once
    assert "Measured 2026-12-02 with `python bench/wall_time.py --rounds 1`" in once


def test_the_performance_page_holds_the_block_the_bench_writes(wall_time):
    page = Path(__file__).resolve().parents[2] / "docs" / "performance.md"

    wall_time.replace_block(page.read_text(encoding="utf-8"), "new")  # raises without one ordered pair


@pytest.mark.parametrize(
    "text",
    ["no markers at all", "{end}\n{begin}\n", "{begin}\n{begin}\n{end}\n", "{begin}\nonly the first\n"],
    ids=["none", "swapped", "twice", "no-end"],
)
def test_a_readme_without_one_ordered_pair_of_markers_is_refused(wall_time, text):
    text = text.format(begin=wall_time.README_BEGIN, end=wall_time.README_END)
    with pytest.raises(ValueError, match="markers"):
        wall_time.replace_block(text, "new")
