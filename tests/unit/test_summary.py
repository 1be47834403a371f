"""summary: per model × family rows, with stability (spread and std) measured inside each group."""

from __future__ import annotations

import statistics

import pytest

from shape_asserts.results.record import CaseRecord
from shape_asserts.results.summary import FamilyRow, format_table, summarize


def _rec(
    case: str,
    score: float | None,
    *,
    group: str = "circle:g1",
    outcome: str | None = None,
    model: str = "m",
    family: str = "circle",
    drawn: int = 1,
) -> CaseRecord:
    outcome = outcome or ("passed" if score is not None and score >= 90 else "failed")
    return CaseRecord(
        model=model,
        family=family,
        case=case,
        group=group,
        score=score,
        outcome=outcome,
        drawn=drawn if score is not None else 0,
    )


def _one_row(records: list[CaseRecord]) -> FamilyRow:
    (row,) = summarize(records)
    return row


# --- counts and scores ------------------------------------------------------------------------------


def test_row_counts_cases_by_outcome():
    row = _one_row(
        [
            _rec("a", 95.0),
            _rec("b", 80.0),
            _rec("c", None, outcome="error"),
            _rec("d", None, outcome="skipped"),
            _rec("e", 99.0),
        ]
    )
    assert (row.cases, row.passed, row.failed, row.errors, row.skipped) == (5, 2, 1, 1, 1)


def test_mean_and_worst_ignore_cases_without_a_score():
    row = _one_row([_rec("a", 90.0), _rec("b", 70.0), _rec("c", None, outcome="error")])
    assert row.mean == pytest.approx(80.0)
    assert row.worst == 70.0


def test_family_with_no_scores_has_no_mean_worst_spread_or_std():
    row = _one_row([_rec("a", None, outcome="error"), _rec("b", None, outcome="skipped")])
    assert (row.mean, row.worst, row.spread, row.std) == (None, None, None, None)
    assert row.errors == 1 and row.skipped == 1


# --- stability --------------------------------------------------------------------------------------


def test_spread_and_std_are_measured_inside_one_group():
    row = _one_row([_rec("a", 94.88), _rec("b", 84.18), _rec("c", 76.32)])
    assert row.spread == pytest.approx(94.88 - 76.32)
    assert row.std == pytest.approx(statistics.pstdev([94.88, 84.18, 76.32]))


def test_spread_and_std_are_averaged_over_groups_not_pooled():
    row = _one_row(
        [
            _rec("a", 90.0, group="g1"),
            _rec("b", 80.0, group="g1"),  # spread 10, std 5
            _rec("c", 50.0, group="g2"),
            _rec("d", 50.0, group="g2"),  # spread 0, std 0
        ]
    )
    assert row.spread == pytest.approx(5.0)
    assert row.std == pytest.approx(2.5)


def test_group_with_a_single_scored_case_does_not_count_toward_stability():
    row = _one_row([_rec("a", 90.0, group="g1"), _rec("b", 80.0, group="g1"), _rec("c", 10.0, group="alone")])
    assert row.spread == pytest.approx(10.0)
    assert row.worst == 10.0


def test_cases_without_a_score_do_not_count_toward_stability():
    row = _one_row([_rec("a", 90.0), _rec("b", None, outcome="error"), _rec("c", 88.0)])
    assert row.spread == pytest.approx(2.0)
    assert row.errors == 1


def test_stability_is_none_when_no_group_has_two_scored_cases():
    row = _one_row(
        [_rec("a", 90.0, group="g1"), _rec("b", 80.0, group="g2"), _rec("c", None, group="g1", outcome="error")]
    )
    assert row.spread is None and row.std is None


def test_identical_scores_are_perfectly_stable():
    row = _one_row([_rec(c, 97.5) for c in "abcd"])
    assert row.spread == 0.0 and row.std == 0.0


# --- rows -------------------------------------------------------------------------------------------


def test_one_row_per_model_and_family_in_first_seen_model_order_then_family_name():
    rows = summarize(
        [
            _rec("a", 90.0, model="zeta", family="spiral"),
            _rec("b", 90.0, model="alpha", family="circle"),
            _rec("c", 90.0, model="zeta", family="circle"),
        ]
    )
    assert [(r.model, r.family) for r in rows] == [("zeta", "circle"), ("zeta", "spiral"), ("alpha", "circle")]


def test_models_are_not_mixed_in_stability():
    rows = summarize([_rec("a", 90.0, model="m1"), _rec("a", 10.0, model="m2")])
    assert [r.spread for r in rows] == [None, None]


def test_row_as_dict_holds_every_field():
    row = _one_row([_rec("a", 90.0)])
    assert row.as_dict()["model"] == "m" and set(row.as_dict()) == set(FamilyRow.__dataclass_fields__)


def test_no_records_give_no_rows():
    assert summarize([]) == []


# --- which records count ---------------------------------------------------------------------------


def test_a_score_counts_only_for_a_case_that_passed_or_failed():
    """A judged case whose test ended otherwise (skipped in its body) is counted, not averaged."""
    row = _one_row([_rec("a", 90.0), _rec("b", 10.0, outcome="skipped")])
    assert row.mean == 90.0 and row.worst == 90.0 and row.skipped == 1


def test_a_failed_case_that_was_never_judged_counts_without_a_score():
    row = _one_row([_rec("a", 90.0), _rec("b", None, outcome="failed")])
    assert (row.cases, row.failed, row.mean) == (2, 1, 90.0)


# --- the table --------------------------------------------------------------------------------------


def test_table_has_a_header_a_rule_and_one_line_per_row():
    rows = summarize([_rec("a", 90.0), _rec("b", 80.0), _rec("c", None, outcome="error", family="spiral")])
    lines = format_table(rows)
    assert len(lines) == 4
    assert lines[0].split() == [
        "model",
        "family",
        "cases",
        "passed",
        "failed",
        "errors",
        "mean",
        "worst",
        "spread",
        "std",
    ]
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert lines[2].split() == ["m", "circle", "2", "1", "1", "0", "85.00", "80.00", "10.00", "5.00"]
    assert lines[3].split()[-4:] == ["—", "—", "—", "—"]
    assert len({len(line) for line in lines}) == 1


def test_a_model_that_never_drew_is_not_reported_as_perfectly_steady():
    """Every answer prose scores 0 everywhere: spread 0.00 once read as the steadiest model."""
    recs = [_rec(f"c{i}", 0.0, group="g", drawn=0) for i in range(4)]
    (row,) = summarize(recs)
    assert row.mean == 0.0 and row.spread is None and row.std is None
    assert format_table([row])[2].split()[-2:] == ["—", "—"]
