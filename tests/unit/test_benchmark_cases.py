"""The benchmark matrix (``cases/benchmark/*.toml``, run with ``-m benchmark``): its size, spread and validity."""

from __future__ import annotations

from collections import Counter

import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.cases import load_cases
from shape_asserts.cases.load import BENCHMARK
from shape_asserts.exceptions import CaseError
from shape_asserts.geometry.raster import angle_of
from shape_asserts.results.verdict import judge

DEFAULT = load_cases()
EVERY = load_cases(benchmark=True)
BENCH = [c for c in EVERY if BENCHMARK in c.tags]
CIRCLES = [c for c in BENCH if c.family == "circle"]


def test_the_default_cases_hold_no_benchmark_case_and_keep_their_number():
    assert not [c for c in DEFAULT if BENCHMARK in c.tags]
    assert len(DEFAULT) == 139
    assert [c.id for c in EVERY][: len(DEFAULT)] == [c.id for c in DEFAULT]


def test_the_seed_prompts_are_the_same_with_or_without_the_benchmark():
    seeds = {c.id: c.prompt("ru") for c in DEFAULT if "seed" in c.tags}
    with_bench = {c.id: c.prompt("ru") for c in EVERY if "seed" in c.tags}

    assert len(seeds) == 3 and seeds == with_bench


def test_the_circle_matrix_has_at_least_120_cases_over_starts_directions_centers_and_radii():
    centers = {tuple(c.params["center"]) for c in CIRCLES}
    radii = {c.params["radius"] for c in CIRCLES}

    assert len(CIRCLES) >= 120
    assert len(centers) >= 3 and (25, 25) not in centers
    assert len(radii) == 3 and min(radii) <= 8 and max(radii) >= 14
    for center in centers:
        for radius in radii:
            asked = {
                (round(angle_of(c.params["start"], c.params["center"]) / 30) % 12 * 30, c.params["direction"])
                for c in CIRCLES
                if tuple(c.params["center"]) == center and c.params["radius"] == radius
            }
            assert asked == {(a, d) for a in range(0, 360, 30) for d in ("cw", "ccw")}, (center, radius)


def test_each_center_and_radius_is_one_stability_group_of_24_variants():
    groups = Counter(c.group for c in CIRCLES)

    assert len(groups) == 9 and set(groups.values()) == {24}
    assert len({c.variant for c in CIRCLES}) > 24


def test_the_prompt_names_the_radius_it_varies():
    case = next(c for c in CIRCLES if c.params["radius"] == 16)

    assert "радиус" in case.prompt("ru").lower() and "16" in case.prompt("ru")
    assert "radius of the circle is 16" in case.prompt("en")


def test_two_other_families_vary_too():
    other = Counter(c.family for c in BENCH if c.family != "circle")

    assert other["polygon"] >= 24 and other["spiral"] >= 24
    polygons = [c for c in BENCH if c.family == "polygon"]
    assert {c.params["rotation"] for c in polygons} == {0, 270}
    assert len({c.params["radius"] for c in polygons}) == 2
    assert {c.params["turns"] for c in BENCH if c.family == "spiral"} == {2, 3, 4}


def test_every_benchmark_case_fits_the_grid():
    for case in BENCH:
        ideal = case.ideal()
        g = case.grid_size
        assert ideal.min() >= 0 and ideal.max() <= g - 1, case.id
        if case.family == "circle":  # the whole asked circle, not only its start, lies inside
            (cx, cy), r = case.params["center"], case.params["radius"]
            assert r <= cx <= g - 1 - r and r <= cy <= g - 1 - r, case.id


#: One case of each stability group (the replayed suite, ``-m benchmark``, judges all of them).
ONE_PER_GROUP = list({c.group: c for c in BENCH}.values())


@pytest.mark.parametrize("case", ONE_PER_GROUP, ids=lambda c: c.id)
def test_the_exact_drawing_of_each_benchmark_group_passes(case):
    result = judge(case, "reference/exact", [answer_text(case, "exact")])

    assert result.passed, result.failure_message()


def test_benchmark_ids_are_unique_and_start_with_bench():
    ids = [c.id for c in BENCH]

    assert len(set(ids)) == len(ids) and all(i.startswith("bench-") for i in ids)


def _write(tmp_path, body):
    path = tmp_path / "cases.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_a_matrix_may_place_start_points_on_every_varied_circle(tmp_path):
    path = _write(
        tmp_path,
        """
[[matrix]]
id = "c-{center}-r{radius}-s{angle:03d}-{direction}"
family = "circle"
ask_radius = true
angles = [0, 180]
directions = ["cw", "ccw"]
vary = { center = { a = [20, 20], b = [30, 28] }, radius = [5, 9] }
""",
    )
    cases = load_cases([path], builtin=False)

    assert len(cases) == 16
    assert cases[0].id == "c-a-r5-s000-cw" and cases[0].params["start"] == (25, 20)
    assert cases[-1].id == "c-b-r9-s180-ccw" and cases[-1].params["start"] == (21, 28)
    assert {c.params["radius"] for c in cases} == {5, 9}


def test_without_ask_radius_the_radius_only_places_the_start(tmp_path):
    path = _write(
        tmp_path,
        """
[[matrix]]
id = "c-r{radius}-s{angle:03d}"
family = "circle"
center = [25, 25]
angles = [0]
vary = { radius = [5, 9] }
""",
    )
    cases = load_cases([path], builtin=False)

    assert [c.id for c in cases] == ["c-r5-s000", "c-r9-s000"]
    assert all(c.params.get("radius") is None for c in cases)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('ask_radius = "yes"', "'ask_radius' must be true or false"),
        ('vary = { direction = ["cw"] }', "vary.direction is placed by 'angles'/'directions'"),
    ],
)
def test_a_bad_angle_and_vary_matrix_names_the_file_and_the_key(tmp_path, line, expected):
    path = _write(
        tmp_path,
        f"""
[[matrix]]
id = "c-{{angle}}"
family = "circle"
center = [25, 25]
radius = 10
angles = [0]
{line}
""",
    )
    with pytest.raises(CaseError, match=expected) as info:
        load_cases([path], builtin=False)
    assert str(path) in str(info.value)
