"""A failing case's terminal output: its drawing in a run of one model, one line in a run of many."""

from __future__ import annotations

#: Two circle cases reference/noisy fails (its answers are seeded: the same ones every run).
FAILING = ("-m", "circle", "-k", "circle-start000-cw or circle-start060-cw")
BOTH = ("--model=reference/noisy", "--model=reference/exact")


def test_one_model_shows_each_failing_drawing(suite):
    result = suite.runpytest("--record=none", "--model=reference/noisy", *FAILING)

    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*reference/noisy · circle-start000-cw: 1 of 1 sample(s) failed*", "legend: S start*"])
    assert "printed one line each" not in result.stdout.str()


def test_several_models_show_one_line_per_failing_case_and_say_how_to_see_the_drawings(suite):
    result = suite.runpytest("--record=none", *BOTH, *FAILING)

    result.assert_outcomes(failed=2, passed=2)
    result.stdout.fnmatch_lines(
        [
            "reference/noisy · circle-start000-cw: score *; failed: *",
            "reference/noisy · circle-start060-cw: score *; failed: *",
            "shape-asserts: 2 failing case(s) printed one line each (several models or -m benchmark); "
            "-v prints each one's drawing; --shape-report PATH draws them all",
        ]
    )
    assert "legend: S start" not in result.stdout.str()


def test_verbose_brings_the_drawings_back_in_a_run_of_several_models(suite, monkeypatch):
    # under CI pytest's short summary repeats each failure's message whole: counted once here
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)
    result = suite.runpytest("--record=none", *BOTH, *FAILING, "-v")

    result.assert_outcomes(failed=2, passed=2)
    assert result.stdout.str().count("legend: S start") == 2
    assert "printed one line each" not in result.stdout.str()


def test_a_benchmark_run_of_one_model_shows_one_line_per_failing_case(bench_suite):
    result = bench_suite.runpytest(
        "--record=none", "--model=reference/noisy", "-m", "benchmark and spiral", "-k", "t2-s8-in-end0"
    )

    assert result.parseoutcomes().get("failed", 0) > 0
    result.stdout.fnmatch_lines(["reference/noisy · bench-spiral-*: score *; failed: *", "*printed one line each*"])
    assert "legend: S start" not in result.stdout.str()
