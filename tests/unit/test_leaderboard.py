"""The leaderboard's arithmetic (ranks, intervals, stability, samples, pairs) and its three views."""

from __future__ import annotations

import dataclasses
import math
import statistics

import numpy as np
import pytest

from shape_asserts.results import step_summary
from shape_asserts.results.leaderboard import OVERALL, leaderboard
from shape_asserts.results.leaderboard_view import format_leaderboard, leaderboard_html
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.summary import summarize


def records(model, family, means, *, n=24, noise=1.0, seed=0, groups=4, samples=1, pass_below=None):
    """``n`` single-family cases of ``model``, scores about ``means`` (one per case or one for all)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        mean = means[i] if isinstance(means, (list, tuple)) else means
        scores = [float(np.clip(mean + rng.normal(0, noise), 0, 100)) for _ in range(samples)]
        passed = [s >= (pass_below if pass_below is not None else 0) for s in scores]
        out.append(
            CaseRecord.from_scores(model, f"{family}-{i:03d}", family, scores, passed, group=f"{family}:g{i % groups}")
        )
    return out


def everything_contains_its_estimate(board):
    for s in board.standings:
        for e in (s.score, s.pass_rate, s.spread):
            if e is not None:
                assert e.low <= e.value <= e.high and e.contains(e.value), (s.model, s.scope, e)
    for c in board.comparisons:
        for d in (c.score, c.pass_rate):
            assert d.low <= d.estimate <= d.high, c


def test_better_models_rank_higher_and_every_interval_contains_its_estimate():
    recs = records("weak", "circle", 70, seed=1) + records("strong", "circle", 95, seed=2)
    recs += records("middle", "circle", 85, seed=3)

    board = leaderboard(recs, models=["weak", "strong", "middle"])

    assert [(s.model, s.rank_text) for s in board.ranking(OVERALL)] == [("strong", "1"), ("middle", "2"), ("weak", "3")]
    assert [(s.model, s.rank) for s in board.ranking("circle")] == [("strong", 1), ("middle", 2), ("weak", 3)]
    everything_contains_its_estimate(board)
    strong = board.standing("strong", OVERALL)
    assert strong.score.low < strong.score.value < strong.score.high  # a real interval, not a point
    assert strong.cases == 24 and strong.unjudged == 0


def test_a_model_better_on_circles_and_worse_on_spirals_ranks_so_in_each_family():
    circler = records("circler", "circle", 95, seed=1) + records("circler", "spiral", 80, seed=2)
    spiraler = records("spiraler", "circle", 85, seed=3) + records("spiraler", "spiral", 92, seed=4)

    board = leaderboard(circler + spiraler)

    assert [s.model for s in board.ranking("circle")] == ["circler", "spiraler"]
    assert [s.model for s in board.ranking("spiral")] == ["spiraler", "circler"]
    assert [s.rank for s in board.ranking("circle")] == [1, 2] == [s.rank for s in board.ranking("spiral")]
    by_scope = {c.scope: c for c in board.comparisons}
    assert (by_scope["circle"].better, by_scope["circle"].resolved) == ("circler", True)
    assert (by_scope["spiral"].better, by_scope["spiral"].resolved) == ("spiraler", True)
    assert by_scope["circle"].score.estimate == pytest.approx(10, abs=1.5)
    assert by_scope["spiral"].score.estimate == pytest.approx(12, abs=1.5)
    everything_contains_its_estimate(board)


def test_models_whose_intervals_overlap_share_a_rank():
    recs = records("a", "circle", 90, noise=5, seed=1) + records("b", "circle", 90.5, noise=5, seed=2)
    recs += records("c", "circle", 60, noise=1, seed=3)

    board = leaderboard(recs)

    ranks = {s.model: s.rank_text for s in board.standings if s.scope == OVERALL}
    assert ranks == {"a": "=1", "b": "=1", "c": "3"}  # two models clearly above c
    pair = next(c for c in board.compared(OVERALL) if {c.better, c.worse} == {"a", "b"})
    assert not pair.resolved and pair.score.low <= 0 <= pair.score.high


def test_samples_are_aggregated_per_case_first_and_their_disagreement_shown():
    recs = records("m", "circle", 90, n=10, noise=3, samples=4, seed=5) + records("n", "circle", 80, n=10, seed=6)

    board = leaderboard(recs)

    m = board.standing("m", OVERALL)
    assert m.cases == 10 and m.samples == 4 and board.samples == 4
    mine = [r for r in recs if r.model == "m"]
    assert m.score.value == pytest.approx(statistics.fmean(statistics.fmean(r.scores) for r in mine))
    assert m.sample_sd == pytest.approx(math.sqrt(statistics.fmean(statistics.pvariance(r.scores) for r in mine)))
    assert board.standing("n", OVERALL).sample_sd is None  # one sample per case: nothing to disagree
    assert "sample sd" in format_leaderboard(board)[0]


def test_stability_is_the_mean_spread_of_drawn_groups():
    steady = [CaseRecord.from_scores("s", f"c{i}", "circle", (90.0,), (True,), group=f"g{i % 2}") for i in range(6)]
    shaky = [
        CaseRecord.from_scores("k", f"c{i}", "circle", (90.0 + (10 if i < 2 else 0),), (True,), group=f"g{i % 2}")
        for i in range(6)
    ]

    board = leaderboard(steady + shaky)

    assert board.standing("s", "circle").spread.value == 0
    assert board.standing("k", "circle").spread.value == pytest.approx(10)  # g0: 100..90, g1: 100..90
    assert board.standing("k", "circle").groups == 2


def test_cases_not_judged_are_counted_apart_and_left_out_of_the_numbers():
    good = records("m", "circle", 90, n=6)
    errored = [CaseRecord(model="m", case=f"e{i}", family="circle", outcome="error", reason="boom") for i in range(3)]

    board = leaderboard(good + errored)

    s = board.standing("m", OVERALL)
    assert (s.cases, s.unjudged) == (6, 3)
    assert s.score.value == pytest.approx(statistics.fmean(r.score for r in good), abs=0.01)


def test_pass_rate_is_the_share_of_passing_samples_in_percent():
    recs = [CaseRecord.from_scores("m", f"c{i}", "circle", (90.0, 80.0), (True, i % 2 == 0)) for i in range(4)]

    board = leaderboard(recs)

    assert board.standing("m", OVERALL).pass_rate.value == pytest.approx(75.0)


def test_the_board_is_the_same_on_every_run():
    recs = records("a", "circle", 90, noise=4, seed=1) + records("b", "spiral", 88, noise=4, seed=2)

    assert leaderboard(recs) == leaderboard(list(recs))


def test_a_model_without_a_family_has_no_standing_there():
    board = leaderboard(records("a", "circle", 90) + records("b", "spiral", 80) + records("a", "spiral", 85))

    assert board.standing("b", "circle") is None
    assert [s.model for s in board.ranking("spiral")] == ["a", "b"]


def test_models_are_ranked_on_the_cases_all_of_them_have():
    """Seventh red-team sweep: a model that ran only the 11 rectangle cases (failing every one) ranked
    first overall, above one that ran all 139 and was better on every case both ran. Eighth: when
    models missing cases were unranked instead, one extra case in the worse model's file unranked
    the better one. Numbers and ranks are now over the cases every model has; the rest is apart."""
    better = records("better", "circle", 90, seed=1) + records("better", "spiral", 60, seed=2)
    easy_only = records("easy-only", "spiral", 70, n=12, seed=3)  # the first 12 spiral cases only
    extra = records("easy-only", "circle", 99, n=1, seed=4)
    extra = [dataclasses.replace(r, case="my-own-circle") for r in extra]  # a case no one else ran

    board = leaderboard(better + easy_only + extra)

    overall = {s.model: s for s in board.ranking(OVERALL)}
    assert (overall["better"].rank, overall["easy-only"].rank) == (2, 1)  # on the 12 shared spirals: 60 < 70
    assert (overall["better"].cases, overall["better"].apart) == (12, 36)
    assert (overall["easy-only"].cases, overall["easy-only"].apart) == (12, 1)
    assert overall["better"].score.value == pytest.approx(statistics.fmean(r.score for r in better[24:36]), abs=0.01)
    assert {s.model: s.rank for s in board.ranking("spiral")} == {"easy-only": 1, "better": 2}
    lines = format_leaderboard(board)
    assert any("better" in line and "12 (+36 apart)" in line for line in lines), lines


def test_a_case_that_errored_is_left_out_for_every_model():
    ok = records("a", "circle", 90, n=8, seed=1)
    errored = records("b", "circle", 80, n=7, seed=2)
    errored.append(CaseRecord(model="b", case="circle-007", family="circle", outcome="error", reason="outage"))

    board = leaderboard(ok + errored)

    a, b = board.standing("a", OVERALL), board.standing("b", OVERALL)
    assert (a.cases, a.apart, b.cases, b.unjudged) == (7, 1, 7, 1)
    assert (a.rank, b.rank) == (1, 2)


def test_under_five_shared_cases_nothing_is_ranked():
    board = leaderboard(records("a", "circle", 90, n=4, seed=1) + records("b", "circle", 50, n=4, seed=2))

    assert [s.rank_text for s in board.ranking(OVERALL)] == ["—", "—"]
    assert board.comparisons == ()


def test_a_model_with_too_few_cases_in_common_is_left_out_not_everyone():
    """Eleventh red-team sweep: a third job whose every call failed, or a file asked in another
    language (other case ids), left no case in common, and no model was ranked. It is left out of
    the comparison, unranked with its own numbers; the others are ranked as without it."""
    a, b = records("a", "circle", 90, seed=1), records("b", "circle", 60, seed=2)
    down = [CaseRecord(model="down", case=r.case, family="circle", outcome="error", reason="outage") for r in a]
    other_lang = [dataclasses.replace(r, model="en", case=r.case + ".en") for r in records("x", "circle", 99, seed=3)]

    spiral = records("spiral-only", "spiral", 80, seed=4)
    smoke = records("smoke", "circle", 70, n=3, seed=5)  # a smoke job of three cases (sweep 46)
    # a big job of 115 cases no other model ran (sweep 47: taken first, it shut every other out)
    big = [dataclasses.replace(r, case="big-" + r.case) for r in records("big", "circle", 80, n=115, seed=6)]
    for third in (down, other_lang, other_lang + spiral, smoke, big, big + smoke):  # (two odd jobs: sweep 45)
        board = leaderboard(a + b + third)

        ranks = {s.model: s.rank for s in board.ranking(OVERALL)}
        assert (ranks["a"], ranks["b"]) == (1, 2)
        assert all(ranks[r.model] is None for r in third)
        assert board.standing("a", OVERALL).cases == 24
        assert [(c.better, c.worse) for c in board.compared(OVERALL)] == [("a", "b")]
    # two models with nothing in common: which to rank would be a guess
    board = leaderboard(a + other_lang)
    assert [s.rank for s in board.ranking(OVERALL)] == [None, None]


def test_where_scores_tie_the_pass_rate_ranks():
    """Eleventh red-team sweep: every circle drawn the wrong way round scores as the exact drawing
    (the seed's score does not see the direction) and passes nothing; it tied for first with the
    model passing every case, and the pair was "not resolved" while the gate failed it."""
    exact = records("exact", "circle", 99.15, noise=0.0, pass_below=0)
    backwards = records("backwards", "circle", 99.15, noise=0.0, pass_below=101)

    board = leaderboard(backwards + exact)

    assert [(s.model, s.rank_text) for s in board.ranking(OVERALL)] == [("exact", "1"), ("backwards", "2")]
    (pair,) = board.compared(OVERALL)
    assert (pair.better, pair.worse, pair.resolved) == ("exact", "backwards", True)
    assert pair.pass_rate.estimate == pytest.approx(100.0)
    assert any("pass rate +100.00" in line for line in format_leaderboard(board))


def test_pass_rate_decides_where_the_score_intervals_overlap():
    """Red-team sweep 47: pass rate decided only on exactly equal scores. A model drawing every
    circle the wrong way round, a hair higher on one case, tied first with the one passing every
    case and was listed above it, while the pair line on the same board said the other was better."""
    exact = records("exact", "circle", 99.15, noise=0.0, pass_below=0)
    backwards = records("backwards", "circle", [99.15] * 23 + [100.0], noise=0.0, pass_below=101)

    board = leaderboard(backwards + exact)

    assert [(s.model, s.rank_text) for s in board.ranking(OVERALL)] == [("exact", "1"), ("backwards", "2")]
    (pair,) = board.compared(OVERALL)
    assert (pair.better, pair.worse, pair.resolved) == ("exact", "backwards", True)


def test_no_model_ties_with_or_is_listed_above_one_clearly_ahead_of_it():
    """Red-team sweeps 45 and 46: ranks counted the models whose interval lay above, so a model with
    a wide interval escaped a third model that a better one did not (81.5 ranked above 86 passing
    everything), and pass rate deciding wherever score intervals overlap made cycles, listing a
    model below one it beat."""
    w = records("W", "circle", 95.5, noise=0.3, seed=1, pass_below=101)  # scores well, passes nothing
    g = records("G", "circle", [99.0] * 16 + [85.0] * 8, noise=0.3, seed=2, pass_below=90)
    xs = [r for name in ("X1", "X2") for r in records(name, "circle", 92.0, noise=0.3, seed=3, pass_below=0)]
    a = records("A", "circle", 90.0, noise=0.2, seed=4, pass_below=101)
    b = records("B", "circle", [95.0] * 19 + [30.0] * 5, noise=0.3, seed=5, pass_below=90)  # wide
    c = records("C", "circle", 86.0, noise=0.2, seed=6, pass_below=0)

    for recs in (w + g + xs, a + b + c):
        rows = leaderboard(recs).ranking(OVERALL)

        def on_score(x, y):
            return x.score.low > y.score.high

        def on_pass_rate(x, y):  # where the scores do not decide
            return not on_score(x, y) and not on_score(y, x) and x.pass_rate.low > y.pass_rate.high

        for i, x in enumerate(rows):
            for j, y in enumerate(rows[i + 1 :], i + 1):
                shown = [(r.model, r.rank_text) for r in rows]
                assert not on_score(y, x), (y.model, "scores clearly above", x.model, shown)
                if on_score(x, y) or on_pass_rate(x, y):
                    assert x.rank < y.rank, (x.model, y.model, shown)
                if on_pass_rate(y, x):  # listed below x only across a score break between them
                    between = rows[i : j + 1]
                    breaks = [(p, q) for k, p in enumerate(between) for q in between[k + 1 :] if on_score(p, q)]
                    assert breaks, (y.model, "passes clearly more than", x.model, shown)
        assert rows[0].rank == 1
    by_model = {s.model: s.rank for s in leaderboard(a + b + c).ranking(OVERALL)}
    assert by_model["C"] <= by_model["B"]  # (B's wide interval overlaps C's: a tie at most)


def test_each_model_is_compared_with_the_next_one_down_only():
    """Every two of 200 models made 19,900 pairs a scope (36 s, 1.9 MB of terminal, 7.9 MB of HTML):
    neighbours in the ranking grow with the models."""
    recs = [r for i in range(6) for r in records(f"m{i}", "circle", 60 + 6 * i, seed=i)]

    board = leaderboard(recs)

    order = [s.model for s in board.ranking(OVERALL)]
    assert order == [f"m{i}" for i in range(5, -1, -1)]
    assert [(c.better, c.worse) for c in board.compared(OVERALL)] == list(zip(order, order[1:]))
    assert len(board.comparisons) == 2 * 5  # circle and overall
    everything_contains_its_estimate(board)


def test_the_terminal_view_shows_ranks_intervals_and_the_overall_pairs():
    board = leaderboard(records("circler", "circle", 95, seed=1) + records("spiraler", "circle", 85, seed=2))

    lines = format_leaderboard(board)

    assert lines[0].split()[:3] == ["rank", "model", "cases"]
    assert lines[2].startswith("1 ") and "circler" in lines[2] and "[" in lines[2]
    assert any(line.startswith("circle") for line in lines)
    assert any("circler > spiraler by +" in line for line in lines)


def test_a_long_family_name_is_shortened_in_the_terminal_view():
    """A family of 100,000 characters (a hostile results file) made three terminal lines as long."""
    family = "f" * 100_000
    board = leaderboard(records("a", family, 90) + records("b", family, 80))

    assert max(len(line) for line in format_leaderboard(board)) < 300


def test_hostile_model_names_reach_no_view_unescaped():
    evil = "<script>alert(1)</script>|\x1b[2J" + "x" * 300
    board = leaderboard(records(evil, "circle", 90) + records("ok", "circle", 80))

    text = "\n".join(format_leaderboard(board))
    page = "\n".join(leaderboard_html(board))
    md = step_summary.markdown(summarize([]), leaderboard=board)

    assert "\x1b" not in text and "x" * 100 not in text
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<script>" not in md and "\\|" in md


def test_the_job_summary_and_the_report_carry_the_leaderboard():
    board = leaderboard(records("a", "circle", 95, seed=1) + records("b", "circle", 85, seed=2))

    md = step_summary.markdown(summarize([]), leaderboard=board)
    page = "\n".join(leaderboard_html(board))

    assert "### Leaderboard" in md and "| overall | 1 | a |" in md and "Paired comparisons" in md
    assert '<section id="leaderboard">' in page and "Paired comparisons" in page


def test_the_by_family_table_shows_the_first_models_overall_not_every_one():
    """Red-team sweep 52: one column a model and one row a family grew the terminal table as
    models × families: 800 one-line models gave 18.7 MB of output in 29 s."""
    recs = []
    for k in range(30):
        recs += records(f"m{k:02d}", "circle", 95 - k, n=6, seed=k) + records(
            f"m{k:02d}", "spiral", 90 - k, n=6, seed=k
        )
    board = leaderboard(recs)

    lines = format_leaderboard(board)

    at = next(i for i, line in enumerate(lines) if line.startswith("by family"))
    assert "(the first 12 models overall of 30; the HTML page ranks them all)" in lines[at]
    header = lines[at + 1].split()
    assert header[0] == "family" and header[1:] == [s.model for s in board.ranking(OVERALL)][:12]
    assert board.standing("m29", "spiral") is not None and board.standing("m29", "square") is None
