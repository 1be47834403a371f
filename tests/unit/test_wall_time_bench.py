"""The pure helpers of ``bench/wall_time.py``: verdicts, ratio rows and reading runs' own timings.

Nothing here times anything; the bench itself is run by hand (see the README's Performance section).
"""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "wall_time.py"


@pytest.fixture(scope="module")
def wall_time() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wall_time_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


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
