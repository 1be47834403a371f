"""The baseline gate's arithmetic: pairing, bootstrap intervals, verdicts and the cases needed; and
what an incomplete run does to the gate and the exit status."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from shape_asserts.results.gate import (
    FAIL,
    MIN_PAIRS,
    PASS,
    UNDECIDED,
    Difference,
    FamilyGate,
    Gate,
    Paired,
    bootstrap_ci,
    cases_needed,
    decide,
    exit_status,
    gate,
    gate_family,
    pair,
    shortfall,
)
from shape_asserts.results.gate_text import format_gate
from shape_asserts.results.record import CaseRecord


def samples(case, family, scores, passed):
    """One model's judged record of ``case``: a score and pass/fail per sample."""
    return CaseRecord.from_scores("m", case, family, scores, passed)


def results(scores, passed=None, family="circle", prefix="c"):
    """One single-sample record per score (passed defaults to True)."""
    passed = [True] * len(scores) if passed is None else passed
    return [
        samples(f"{prefix}{i:03d}", family, (float(s),), (bool(p),)) for i, (s, p) in enumerate(zip(scores, passed))
    ]


def paired(score_diffs, rate_diffs=None, family="circle"):
    score = np.asarray(score_diffs, float)
    rate = np.zeros_like(score) if rate_diffs is None else np.asarray(rate_diffs, float)
    return Paired(family, tuple(f"c{i}" for i in range(len(score))), score, rate)


# --- pairing -------------------------------------------------------------------------------------


def test_pairing_keeps_only_cases_both_models_have():
    cand = results([90, 80, 70])
    base = results([95, 85])[:1] + [samples("zzz", "circle", (50.0,), (True,))]

    p = pair(cand, base)["circle"]

    assert p.cases == ("c000",)
    assert p.score.tolist() == [-5.0]
    assert p.candidate_only == ("c001", "c002")
    assert p.baseline_only == ("zzz",)


def test_pairing_uses_only_the_sample_indices_both_have():
    cand = [samples("a", "circle", (80.0, 60.0, 0.0), (True, False, False))]
    base = [samples("a", "circle", (70.0, 70.0), (True, True))]

    p = pair(cand, base)["circle"]

    assert p.score.tolist() == [0.0]  # mean(80, 60) − mean(70, 70); the third sample has no partner
    assert p.pass_rate.tolist() == [-50.0]  # 1 of 2 vs 2 of 2, in percentage points


def test_a_case_that_errored_is_unpaired_on_its_own_side():
    """An errored case has a record without samples: it is the candidate's gap, not a loss."""
    errored = CaseRecord("m", "c001", "circle", outcome="error", reason="ProviderError: down")
    cand = results([90])[:1] + [errored]
    base = results([90, 90])

    p = pair(cand, base)["circle"]

    assert p.cases == ("c000",)
    assert p.candidate_only == () and p.baseline_only == ("c001",)


def test_pairing_separates_families():
    cand = results([90, 90], family="circle") + results([50], family="square", prefix="s")
    base = results([90, 90], family="circle") + results([60], family="square", prefix="s")

    out = pair(cand, base)

    assert sorted(out) == ["circle", "square"]
    assert out["square"].score.tolist() == [-10.0]


# --- bootstrap -------------------------------------------------------------------------------------


def test_bootstrap_interval_is_reproducible_with_the_fixed_seed():
    d = np.random.default_rng(7).normal(-1.0, 3.0, size=30)

    assert bootstrap_ci(d) == bootstrap_ci(d)
    assert bootstrap_ci(d, seed=1) != bootstrap_ci(d, seed=2)


def test_bootstrap_interval_brackets_the_mean_and_narrows_with_more_cases():
    rng = np.random.default_rng(11)
    small, large = rng.normal(0, 5, size=20), rng.normal(0, 5, size=500)

    lo_s, hi_s = bootstrap_ci(small)
    lo_l, hi_l = bootstrap_ci(large)

    assert lo_s <= small.mean() <= hi_s and lo_l <= large.mean() <= hi_l
    assert (hi_l - lo_l) < (hi_s - lo_s) / 3  # ~1/sqrt(n): 20 → 500 cases is 5× narrower


def test_bootstrap_interval_of_equal_differences_has_zero_width():
    assert bootstrap_ci(np.full(12, -2.0)) == (-2.0, -2.0)


def test_bootstrap_refuses_an_empty_or_2d_array():
    with pytest.raises(ValueError):
        bootstrap_ci(np.array([]))
    with pytest.raises(ValueError):
        bootstrap_ci(np.zeros((3, 2)))


# --- verdicts --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        (-5.0, -2.5, FAIL),  # wholly below −2
        (-1.0, 3.0, PASS),  # wholly above −2
        (-2.0, 0.0, PASS),  # touching −2 from above counts as within the margin
        (-3.0, 1.0, UNDECIDED),  # straddles −2
    ],
)
def test_decide_compares_the_interval_with_minus_margin(low, high, verdict):
    assert decide(low, high, 2.0) == verdict


def test_identical_results_pass_with_a_zero_width_interval():
    exact = results([99.15] * 24)

    g = gate({"candidate": exact}, "baseline", exact)

    f = g.families[0]
    assert g.verdict == PASS
    assert (f.score.estimate, f.score.low, f.score.high) == (0.0, 0.0, 0.0)
    assert (f.pass_rate.low, f.pass_rate.high) == (0.0, 0.0)


def test_a_candidate_failing_most_cases_fails_on_pass_rate_even_with_close_scores():
    base = results([99.15] * 24)
    cand = results([98.7] * 24, passed=[i % 4 == 0 for i in range(24)])  # 6 of 24 pass, as reference/noisy

    f = gate({"candidate": cand}, "baseline", base).families[0]

    assert f.verdict == FAIL
    assert f.score.verdict(2.0) == PASS  # the score alone is within the margin
    assert f.pass_rate.high < -2.0
    assert "pass rate" in f.reason


def test_one_bad_case_among_many_good_ones_is_noise_not_a_failure():
    base = results([99.0] * 24)
    cand = results([99.0] * 23 + [40.0], passed=[True] * 23 + [False])

    f = gate({"candidate": cand}, "baseline", base).families[0]

    assert f.verdict == UNDECIDED
    assert f.need is not None and f.need > 24


def test_a_better_candidate_passes():
    base = results([80.0 + i % 5 for i in range(20)], passed=[i % 3 == 0 for i in range(20)])
    cand = results([95.0] * 20)

    assert gate({"candidate": cand}, "baseline", base).verdict == PASS


def test_differences_exactly_at_the_margin_pass_whatever_the_float_rounding():
    # mean(−2.1, −1.9, ...) lands a few ulps off −2; the tolerance keeps that from flipping a verdict
    f = gate_family(paired([-2.1, -1.9] * 6), candidate="c", baseline="b", margin=2.0)

    assert f.score.estimate == pytest.approx(-2.0)
    assert f.verdict in (PASS, UNDECIDED)
    assert gate_family(paired([-2.0] * 12), candidate="c", baseline="b", margin=2.0).verdict == PASS


def test_margin_zero_still_passes_identical_results():
    assert gate_family(paired([0.0] * 8), candidate="c", baseline="b", margin=0.0).verdict == PASS


# --- small samples and the cases needed ------------------------------------------------------------


def test_fewer_than_min_pairs_cases_each_worse_beyond_the_margin_fail():
    """Seventh red-team sweep: the baseline passed 4 of 4 cases, the candidate failed all 4 (Δ pass
    rate −100 on each), and the gate was UNDECIDED, exit 0 by default: a certain loss on every case
    asked is no lack of evidence."""
    f = gate_family(paired([-0.9] * (MIN_PAIRS - 1), [-100.0] * (MIN_PAIRS - 1)), candidate="c", baseline="b")

    assert f.verdict == FAIL
    assert f"each of the {MIN_PAIRS - 1} paired case(s) is worse" in f.reason and "pass rate below -2" in f.reason


def test_fewer_than_min_pairs_cases_not_each_worse_are_undecided():
    f = gate_family(paired([-50.0, -50.0, -1.0], [-100.0, -100.0, 0.0]), candidate="c", baseline="b")

    assert f.verdict == UNDECIDED
    assert f.need == MIN_PAIRS
    assert "only 3 paired case(s)" in f.reason


def test_two_cases_one_lost_is_undecided_and_says_how_many_cases_would_decide():
    f = gate_family(paired([0.0, 0.0], [0.0, -100.0]), candidate="c", baseline="b")

    assert f.verdict == UNDECIDED
    assert f.need is not None and f.need >= MIN_PAIRS


def test_the_cases_needed_estimate_is_enough_to_decide_when_the_differences_look_alike():
    """With the same mean and spread of differences, the estimated number of cases decides it."""
    small = np.random.default_rng(4).normal(-0.5, 4.0, size=12)  # a loss of ~0.5 < margin 2
    f = gate_family(paired(small), candidate="c", baseline="b")
    assert f.verdict == UNDECIDED and f.need is not None and f.need > 12

    enough = np.tile(small, -(-f.need // len(small)))  # at least `need` cases, same mean and spread
    half = np.tile(small, max(1, f.need // len(small) // 2))

    assert gate_family(paired(enough), candidate="c", baseline="b").verdict == PASS
    assert gate_family(paired(half), candidate="c", baseline="b").verdict == UNDECIDED


def test_bootstrap_of_many_cases_stays_within_bounded_memory():
    d = np.random.default_rng(3).normal(0, 1, size=100_000)

    low, high = bootstrap_ci(d, resamples=50)

    assert low < d.mean() < high


def test_cases_needed_heads_for_the_first_failure():
    heading_to_fail = Difference(-6.0, -12.0, 0.0)  # far below −2, interval too wide yet
    heading_to_pass = Difference(0.0, -4.0, 4.0)

    need = cases_needed([heading_to_fail, heading_to_pass], n=10, margin=2.0)

    # the failing side decides first: (6 / 4)² × 10 = 22.5 → 23, fewer than passing would need (40)
    assert need == 23


def test_cases_needed_is_none_when_the_estimate_sits_on_the_margin():
    assert cases_needed([Difference(-2.0, -4.0, 0.0)], n=10, margin=2.0) is None


# --- the whole gate ----------------------------------------------------------------------------------


def test_any_failing_family_fails_the_gate_and_all_passing_families_pass_it():
    good = results([90] * 10) + results([90] * 10, family="square", prefix="s")
    bad = results([90] * 10) + results([10] * 10, passed=[False] * 10, family="square", prefix="s")

    assert gate({"c": good}, "b", good).verdict == PASS
    g = gate({"c": bad}, "b", good)
    assert g.verdict == FAIL
    assert [f.family for f in g.failing()] == ["square"]


def test_a_family_the_baseline_never_answered_is_undecided_without_an_estimate():
    cand = results([90] * 10)

    f = gate({"c": cand}, "b", []).families[0]

    assert f.verdict == UNDECIDED and f.need is None
    assert "the baseline has no results" in f.reason


def test_no_results_at_all_is_undecided():
    assert gate({"c": []}, "b", []).verdict == UNDECIDED


def test_each_candidate_is_gated_on_its_own():
    base = results([90] * 10)
    g = gate({"same": base, "worse": results([10] * 10, passed=[False] * 10)}, "b", base)

    assert {f.candidate: f.verdict for f in g.families} == {"same": PASS, "worse": FAIL}


@pytest.mark.parametrize("margin", [-1.0, float("nan"), float("inf")])
def test_gate_refuses_a_negative_or_non_finite_margin(margin):
    with pytest.raises(ValueError, match="margin"):
        gate({"c": []}, "b", [], margin=margin)


def test_terminal_lines_name_the_baseline_the_interval_and_what_is_needed():
    f_small = results([99.0, 99.0], passed=[True, False])
    g = gate({"cand": f_small}, "base", results([99.0, 99.0]))

    text = "\n".join(format_gate(g))

    assert "baseline base" in text and "10,000 resamples" in text
    assert "UNDECIDED" in text
    assert "need ~" in text and "(have 2)" in text


# --- incomplete results, and the exit status -----------------------------------------------------


def named(model, records):
    """``records`` as ``model``'s."""
    return [dataclasses.replace(r, model=model) for r in records]


def test_a_run_with_every_selected_case_answered_by_both_models_is_whole():
    cand, base = named("c", results([90] * 3)), named("b", results([90] * 3))

    assert shortfall({"c000", "c001", "c002"}, cand + base, ["c", "b"], baseline="b") == ""


def test_selected_cases_without_a_result_are_counted_per_model_with_the_first_ones_reason():
    cand, base = named("c", results([90] * 3)), named("b", results([90] * 3))
    selected = {"c000", "c001", "c002"}
    skipped = dataclasses.replace(cand[0], score=None, samples=(), outcome="skipped", reason="not asked: --max-cost")

    why = shortfall(selected, [skipped, *cand[1:], *base[1:]], ["c", "b"], baseline="b")

    assert (
        why
        == "1 of 3 c case(s) and 1 of 3 baseline b case(s) have no result (first: c c000, skipped: not asked: --max-cost)"
    )


def test_a_run_stopped_early_or_with_crashed_workers_says_so_first():
    cand = named("c", results([90]))

    why = shortfall({"c000"}, cand, ["c", "b"], baseline="b", stopped="stopping after 1 failures", crashed=2)

    assert why == (
        "the run stopped early (stopping after 1 failures); 2 test(s) were lost to crashed xdist workers; "
        "1 of 1 baseline b case(s) have no result (first: b c000, did not run)"
    )


def test_incomplete_results_fail_the_gate_whatever_the_families_show():
    same = results([90] * 10)

    g = gate({"c": same}, "b", same, incomplete="the run stopped early")

    assert [f.verdict for f in g.families] == [PASS]
    assert g.verdict == FAIL
    assert "incomplete results, so the gate fails: the run stopped early" in format_gate(g)


@pytest.mark.parametrize(
    ("verdict", "undecided", "status"),
    [
        (PASS, "pass", 0),
        (PASS, "fail", 0),
        (FAIL, "pass", 1),
        (FAIL, "fail", 1),
        (UNDECIDED, "pass", 0),
        (UNDECIDED, "fail", 1),
    ],
)
def test_the_gate_decides_the_status_of_a_whole_run(verdict, undecided, status):
    g = _gate_of(verdict)
    for pytest_status in (0, 1):  # failed shape cases alone do not count
        assert exit_status(pytest_status, g, undecided=undecided) == (status, _VERDICT_WHY)


def test_harness_errors_other_failing_tests_and_missing_results_make_the_status_1_and_say_why():
    g = _gate_of(PASS)

    assert exit_status(1, g, errors=1)[0] == 1
    assert exit_status(1, g, other_failures=2) == (1, "2 test(s) that are not shape cases failed")
    incomplete = dataclasses.replace(g, incomplete="the run stopped early (stopping after 1 failures)")
    assert exit_status(1, incomplete) == (1, "the gate cannot pass: the run stopped early (stopping after 1 failures)")


@pytest.mark.parametrize("pytest_status", [2, 3, 4, 5])
def test_a_run_that_did_not_get_to_results_keeps_pytests_status_and_says_why_the_gate_cannot_pass(pytest_status):
    status, why = exit_status(pytest_status, dataclasses.replace(_gate_of(PASS), incomplete="1 test(s) were lost"))

    assert status == pytest_status
    assert why.endswith("before the gate could count); the gate cannot pass: 1 test(s) were lost")


_VERDICT_WHY = (
    "the gate's verdict (with --baseline the run's status is the gate's; failed cases above are shown, not counted)"
)


def _gate_of(verdict):
    """A gate whose one family has ``verdict``."""
    family = FamilyGate("c", "b", "circle", 10, None, None, verdict, "")
    return Gate("b", 2.0, (family,))


def test_a_case_selected_for_one_model_only_lacks_the_others_result():
    """``-k`` naming the candidate alone deselects the baseline's tests: the gate has nothing to
    compare, which is no reason to pass."""
    cand = named("c", results([90] * 2))

    why = shortfall({"c000", "c001"}, cand, ["c", "b"], baseline="b")

    assert why == "2 of 2 baseline b case(s) have no result (first: b c000, did not run)"
