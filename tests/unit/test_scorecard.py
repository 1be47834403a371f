"""shape_asserts.geometry.scorecard: the one way every family builds its checks."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.families.circle import score_circle
from shape_asserts.families.ellipse import score_ellipse
from shape_asserts.families.polygon import score_polygon
from shape_asserts.geometry.raster import raster_circle, raster_ellipse, raster_polyline
from shape_asserts.geometry.scorecard import Scorecard


def test_a_passing_check_drops_its_detail_but_keeps_its_note():
    card = Scorecard()
    card.add("fine", True, 1, "≤ 2", "what went wrong")
    card.add("noted", True, 1, "≤ 2", "what went wrong", note="about the fitted center")
    card.add("bad", False, 3, "≤ 2", "what went wrong")
    assert [c.detail for c in card.checks] == ["", "about the fitted center", "what went wrong"]


def test_the_result_carries_the_checks_metrics_and_marks_in_order():
    card = Scorecard()
    card.continuity(np.array([[0, 0], [1, 0], [3, 0]]), max_gaps=0, max_repeats=0)
    result = card.result("line", 42)
    assert [c.name for c in result.checks] == ["gaps", "repeats"]
    assert result.score == 42.0 and result.metrics["max_step"] == 2.0 and result.marks["gaps"] == (1,)


def test_the_start_check_names_the_first_point_and_the_asked_one():
    card = Scorecard()
    card.endpoint(np.array([[40.0, 10.0], [41.0, 10.0]]), (10, 10), 1.0)
    (start,) = card.checks
    assert (start.name, start.value, start.passed) == ("start", 30.0, False)
    assert start.detail == "first point is (40, 10), asked (10, 10)"


def test_the_end_check_measures_the_last_point_and_an_empty_drawing_has_none():
    card = Scorecard()
    card.endpoint(np.array([[0.0, 0.0], [5.5, 2.0]]), (5, 2), 1.0, name="end")
    card.endpoint(np.zeros((0, 2)), (5, 2), 1.0, name="end")
    assert card.checks[0].passed and card.metrics["end_distance"] == np.inf
    assert card.checks[1].detail == "no points, asked (5, 2)"


@pytest.mark.parametrize(("laps", "words"), [(2, "goes round 2.00 times"), (0, "does not go all the way round")])
def test_winding_says_how_far_round_the_drawing_went(laps, words):
    ring = raster_circle((25, 25), 10)
    pts = np.vstack([ring] * 2) if laps == 2 else ring[: len(ring) // 4]  # a quarter arc closes back: 0 laps
    card = Scorecard()
    card.turning(pts, center=(25, 25), direction="cw", min_turns=0.9, max_turns=1.1)
    winding = next(c for c in card.checks if c.name == "winding")
    assert not winding.passed and words in winding.detail


def test_a_drawing_that_encloses_no_area_says_so_for_its_direction():
    card = Scorecard()
    card.turning(np.array([[0, 0], [1, 1], [2, 2]]), center=(5, 5), direction="cw", min_turns=0.9, max_turns=1.1)
    direction = card.checks[0]
    assert direction.value == "none" and direction.detail == "the contour encloses no area"


def test_every_family_reports_the_same_gap_the_same_way():
    """The circle, the ellipse and the polygon build ``gaps``, ``bounds`` and ``start`` with the one
    Scorecard: the same defect gives the same check, whatever the family."""
    circle = raster_circle((25, 25), 10, start=(25, 15))
    ellipse = raster_ellipse((25, 25), 10, 10, start=(35, 25))
    square = raster_polyline([(15, 15), (35, 15), (35, 35), (15, 35)])
    results = [
        score_circle(np.delete(circle, [3, 4], axis=0), center=(25, 25), start=(60, 60)),
        score_ellipse(np.delete(ellipse, [3, 4], axis=0), center=(25, 25), a=10, b=10, start=(60, 60)),
        score_polygon(
            np.delete(square, [3, 4], axis=0),
            vertices=np.array([[15, 15], [35, 15], [35, 35], [15, 35]]),
            start=(60, 60),
        ),
    ]
    for name in ("gaps", "repeats", "bounds"):
        checks = [next(c for c in r.checks if c.name == name) for r in results]
        assert len({(c.passed, c.value, c.limit, c.detail, c.indices) for c in checks}) == 1, name
    starts = [next(c for c in r.checks if c.name == "start") for r in results]
    assert all(c.detail.startswith("first point is (") and c.detail.endswith(", asked (60, 60)") for c in starts)


def test_add_makes_the_check_that_check_s_own_init_makes():
    # Scorecard.add writes a Check's fields straight into its __dict__ (its __init__ costs ~0.5 us
    # more a check): that is only the same object while Check has no __post_init__ and add writes
    # every field. This fails the day either stops being true.
    import dataclasses

    from shape_asserts.geometry.score import Check

    assert not hasattr(Check, "__post_init__")
    card = Scorecard()
    made = [
        card.add("fine", True, 1.5, "≤ 2", "what went wrong"),
        card.add("bad", np.bool_(False), np.float64(3.0), "≤ 2", "what went wrong", [np.int64(4), 7], 0.25),
        card.add("noted", True, None, "present", note="about the center"),
    ]
    want = [
        Check("fine", True, 1.5, "≤ 2"),
        Check("bad", False, np.float64(3.0), "≤ 2", "what went wrong", (4, 7), 0.25),
        Check("noted", True, None, "present", "about the center"),
    ]
    assert made == want
    names = [f.name for f in dataclasses.fields(Check)]
    for check in made:
        assert list(vars(check)) == names
        assert type(check.passed) is bool and all(type(i) is int for i in check.indices)
