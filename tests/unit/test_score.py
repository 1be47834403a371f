"""score_circle: each of the seed score's blind spots fails a named check; ideal rasters pass them all.

The seed score (the post's metric) is the headline and stays high on every drawing below; the named
checks are what catch them. The numbers behind the default thresholds come from
``bench/calibrate.py``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from shape_asserts.families.circle import CIRCLE, score_circle
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.raster import point_on_circle, raster_circle
from shape_asserts.geometry.score import Check, ShapeScore, fmt_fixed, fmt_value
from shape_asserts.results.assertions import assert_circle

CENTER = (25, 25)
TOP = (25, 5)
IDEAL = raster_circle(CENTER, 20, start=TOP, direction="cw")


def _failed(result: ShapeScore) -> set[str]:
    return {c.name for c in result.failed}


def _check(result: ShapeScore, name: str) -> Check:
    return next(c for c in result.checks if c.name == name)


# --- the reference: an ideal drawing passes --------------------------------------------------------


def test_ideal_circle_passes_every_check():
    result = score_circle(IDEAL, center=CENTER, start=TOP, direction="cw")
    assert result.passed, [c.describe() for c in result.failed]
    assert result.family == "circle"
    assert result.score == result.metrics["seed_score"] >= 99.0
    assert {c.name for c in result.checks} == {
        "seed_score",
        "gaps",
        "repeats",
        "closure",
        "bounds",
        "start",
        "direction",
        "winding",
        "coverage",
        "roundness",
        "harmonics",
        "center",
        "radius",
        "roundness_requested",
        "near",
        "covered",
        "simple",
    }


# --- blind spots: seed score high, a named check fails ---------------------------------------------


def test_reversed_circle_fails_direction_check_while_seed_score_stays_high():
    result = score_circle(IDEAL[::-1], center=CENTER, direction="cw")
    assert result.score >= 98
    assert result.score == score_circle(IDEAL, center=CENTER).score
    direction = _check(result, "direction")
    assert not direction.passed and direction.value == "ccw"
    assert "winding" in _failed(result)


def test_shuffled_circle_fails_gaps_check_while_seed_score_stays_high():
    rng = np.random.default_rng(7)  # fixed seed: one reproducible shuffle
    shuffled = rng.permutation(IDEAL)
    result = score_circle(shuffled, center=CENTER)
    assert result.score >= 98
    gaps = _check(result, "gaps")
    assert not gaps.passed
    steps = np.max(np.abs(np.diff(shuffled, axis=0)), axis=1)
    assert gaps.indices == tuple(np.flatnonzero(steps > 1).tolist())


def test_off_center_circle_fails_center_check_while_seed_score_stays_high():
    drawn = raster_circle((30, 25), 15)
    result = score_circle(drawn, center=CENTER)
    assert result.score >= 98
    center = _check(result, "center")
    assert not center.passed
    assert center.value == pytest.approx(5.0, abs=1e-6)
    assert "fitted center (30.0, 25.0), asked (25, 25)" in center.detail
    assert "roundness_requested" in _failed(result)
    assert "roundness" not in _failed(result)  # it is round, just not where it was asked


def test_two_lap_circle_fails_winding_check_while_seed_score_stays_high():
    result = score_circle(np.vstack([IDEAL, IDEAL]), center=CENTER, direction="cw")
    assert result.score >= 98
    winding = _check(result, "winding")
    assert not winding.passed
    assert winding.value == pytest.approx(2.0)
    assert "goes round 2.00 times" in winding.detail
    assert _failed(result) == {"winding", "simple"}  # the second lap goes back over the first one's cells


def test_four_point_circle_repeated_twice_scores_100_but_fails_gaps_and_coverage():
    four = np.array([[25, 5], [45, 25], [25, 45], [5, 25]] * 2)
    result = score_circle(four, center=CENTER)
    assert result.score == 100.0
    assert {"gaps", "coverage"} <= _failed(result)
    assert _check(result, "gaps").indices == tuple(range(7))
    assert _check(result, "coverage").value == pytest.approx(4 / 12)


def test_duplicate_padded_circle_fails_repeats_check_while_seed_score_stays_high():
    padded = np.repeat(IDEAL, 2, axis=0)
    result = score_circle(padded, center=CENTER)
    assert result.score >= 98
    repeats = _check(result, "repeats")
    assert not repeats.passed
    assert repeats.indices == tuple(range(0, len(padded), 2))
    assert _failed(result) == {"repeats"}


def test_single_dot_repeated_can_score_100_but_fails_fit_and_repeats_checks():
    # 12 × 25.1 / 12 rounds away from 25.1: every radius is the same ~1e-15, so the seed sees a
    # perfect circle (found by the rotation property in test_properties.py)
    dot = np.array([[25.1, 25.1]] * 12)
    result = score_circle(dot, center=CENTER)
    assert result.score == 100.0
    assert {"fit", "repeats", "coverage", "winding"} <= _failed(result)
    assert _check(result, "fit").detail == "fewer than 3 distinct points"


def test_start_far_from_the_requested_one_fails_start_check():
    result = score_circle(IDEAL, center=CENTER, start=(45, 25))
    start = _check(result, "start")
    assert not start.passed
    assert "first point is (25, 5), asked (45, 25)" in start.detail


def test_points_off_the_grid_fail_bounds_check_with_their_indices():
    drawn = raster_circle((25, 25), 26)  # reaches -1 and 51
    result = score_circle(drawn, center=CENTER)
    bounds = _check(result, "bounds")
    assert not bounds.passed
    assert bounds.indices == tuple(int(i) for i in np.flatnonzero(np.any((drawn < 0) | (drawn > 49), axis=1)))


def test_open_arc_fails_closure_and_coverage():
    result = score_circle(IDEAL[: len(IDEAL) * 3 // 4], center=CENTER, direction="cw")
    assert {"closure", "coverage"} <= _failed(result)


def test_collinear_drawing_fails_the_fit_check_instead_of_raising():
    line = np.array([[x, 25] for x in range(5, 46)])
    result = score_circle(line, center=CENTER)
    fit = _check(result, "fit")
    assert not fit.passed and fit.detail == "points are collinear"
    assert result.metrics["roundness"] == 0.0


def test_tiny_circle_fails_radius_check():
    result = score_circle(raster_circle(CENTER, 2), center=CENTER)
    assert "radius" in _failed(result)


def test_answer_with_non_numeric_strings_gets_seed_score_zero_not_an_error():
    data = {"points": [{"x": "left", "y": 1}] * 5}
    result = score_circle(IDEAL, center=CENTER, data=data)
    assert result.score == 0.0
    assert "seed_score" in _failed(result)


def test_summary_is_rounded_and_names_every_check():
    summary = score_circle(IDEAL, center=CENTER, direction="cw").summary()
    assert summary["passed"] is True
    assert set(summary["checks"]) == {
        "seed_score",
        "gaps",
        "repeats",
        "closure",
        "bounds",
        "direction",
        "winding",
        "coverage",
        "roundness",
        "harmonics",
        "center",
        "radius",
        "roundness_requested",
        "near",
        "covered",
        "simple",
    }
    assert all(v == round(v, 2) for v in summary["metrics"].values() if isinstance(v, float))


# --- calibration: ideal rasters pass at the default thresholds -------------------------------------


def test_ideal_rasters_of_every_radius_start_and_direction_pass_every_default_check():
    """Radius 5–24 about (25, 25), a start every 15°, both directions: 960 drawings, all pass."""
    failures = []
    for radius in range(5, 25):
        for angle in range(0, 360, 15):
            start = point_on_circle(CENTER, radius, angle)
            for direction in ("cw", "ccw"):
                pts = raster_circle(CENTER, radius, start=start, direction=direction)
                result = score_circle(pts, center=CENTER, start=start, direction=direction, thresholds=CIRCLE)
                if not result.passed:
                    failures.append((radius, angle, direction, [c.describe() for c in result.failed]))
    assert failures == []


# --- assert_circle's failure message ---------------------------------------------------------------


def test_assert_circle_passes_an_ideal_drawing_and_returns_its_score():
    result = assert_circle(Drawing.from_points(IDEAL), center=CENTER, start=TOP, direction="cw")
    assert result.passed


def test_assert_circle_message_lists_each_failed_check_with_indices_and_draws_the_drawing():
    pts = np.delete(raster_circle(CENTER, 10, start=(25, 15), direction="cw"), [10, 11, 12, 30, 31], axis=0)
    with pytest.raises(AssertionError) as info:
        assert_circle(pts, center=CENTER, start=(25, 15), direction="ccw")
    message = str(info.value)
    lines = message.splitlines()
    assert lines[0].startswith("circle: 4 check(s) failed (score ")
    listed = [line for line in lines if line.startswith("  - ")]
    # the 4-cell hole also leaves the asked circle uncovered there
    assert [line.split(":")[0].strip("- ") for line in listed] == ["gaps", "direction", "winding", "covered"]
    assert "largest step 4 cells at point #9, 26" in listed[0]
    assert "drawn the other way round" in listed[1]
    # the ASCII art: a ruler, one row per grid line, the start marked S on its cell
    art = [line for line in lines if re.match(r"^\s*\d+ [.#·S E2!X]+$", line)]
    assert len(art) == 50
    row_15 = next(line for line in lines if line.startswith(" 15 "))
    assert row_15[4 + 25] == "S"  # 4 columns of row label, then x = 25
    assert "legend: S start" in message


def test_a_coordinate_too_large_to_measure_fails_finite_and_scores_zero():
    """One point at 1e308 once made the seed score NaN, which summaries and the gate took as a number."""
    pts = IDEAL.astype(float).copy()
    pts[5] = (1e308, 3.0)
    with np.errstate(all="ignore"):
        result = score_circle(pts, center=CENTER, direction="cw")
    assert result.score == 0.0 and not result.passed
    assert "finite" in _failed(result)
    assert all(v is None or not isinstance(v, float) or np.isfinite(v) for v in result.metrics.values())


@pytest.mark.parametrize(
    ("value", "shown"),
    [(-0.0, "0"), (1.484e-17, "0"), (-3e-9, "0"), (0.5, "0.5"), (-2.25, "-2.25"), (123456.7, "123457"), (7, "7")],
)
def test_a_value_is_shown_for_people_never_as_minus_zero_or_in_exponent_notation(value, shown):
    """A run showed `-0` and `1.484e-17` as measured values."""
    assert fmt_value(value) == shown
    assert "e" not in fmt_value(value * 1e-3) and "e" not in fmt_value(value * 1e3)


@pytest.mark.parametrize(("value", "shown"), [(-0.0, "0.00"), (-0.004, "0.00"), (-0.006, "-0.01"), (1.0, "1.00")])
def test_fixed_decimals_never_read_minus_zero(value, shown):
    """A winding check read 'goes round -0.00 times'."""
    assert fmt_fixed(value) == shown


def test_a_check_describes_a_float_noise_value_as_zero():
    assert Check("closure", False, -1.484e-17, "≤ 1").describe() == "closure: 0 (limit ≤ 1)"
