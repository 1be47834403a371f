"""The report's stability picture: score by start angle (polar) and the drawings round the start points."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shape_asserts.cases import load_cases
from shape_asserts.results.charts import MAX_SMALL_POINTS, Bucket, buckets, ring_svg, stability_html
from shape_asserts.results.record import CaseRecord, SampleRecord
from shape_asserts.results.report import CSP, ReportData, render_html
from shape_asserts.results.verdict import judge

REPO = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
ANGLES = tuple(range(0, 360, 30))
SCRIPT = "<script>alert(1)</script>"


def known_score(angle: float, direction: str) -> float:
    """A drift like the post's: best from the top (270°), worse the farther the start is from it."""
    off = abs((angle - 270 + 180) % 360 - 180)  # 0..180 degrees away from the top
    return round((95.0 if direction == "cw" else 85.0) - off / 4, 2)


def record(
    model: str, angle: float, direction: str, score: float, *, group: str = "circle:g", case: str = ""
) -> CaseRecord:
    rec = CaseRecord.from_scores(
        model, case or f"c-{group[-1]}-{angle:g}-{direction}", "circle", [score], [score >= 80]
    )
    return replace(rec, group=group, start_angle=float(angle), direction=direction)


def matrix(model: str = "m") -> list[CaseRecord]:
    return [record(model, a, d, known_score(a, d)) for a in ANGLES for d in ("cw", "ccw")]


def polar_of(html: str) -> ET.Element:
    found = re.findall(r'<svg class="polar".*?</svg>', html, flags=re.S)
    assert len(found) == 1, f"expected one polar chart, found {len(found)}"
    return ET.fromstring(found[0])  # also proves it is well-formed XML


def vertices(chart: ET.Element) -> dict[str, list[tuple[float, float]]]:
    """Each line's vertices as (angle in degrees, score), read back from the SVG's geometry."""
    outer = next(c for c in chart.iter(f"{SVG}circle") if c.get("data-score") == "100")
    cx, cy, radius = (float(outer.get(k)) for k in ("cx", "cy", "r"))
    out = {}
    for line in chart.iter(f"{SVG}polyline"):
        pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        if len(pts) > 2 and pts[0] == pts[-1]:
            pts = pts[:-1]  # the closing vertex
        out[line.get("data-direction")] = [
            (
                round(math.degrees(math.atan2(y - cy, x - cx)) % 360, 1),
                round(100 * math.hypot(x - cx, y - cy) / radius, 1),
            )
            for x, y in pts
        ]
    return out


def test_the_polar_chart_puts_each_start_angle_at_its_score_one_line_per_direction():
    html = render_html(ReportData(records=matrix()))

    lines = vertices(polar_of(html))

    assert sorted(lines) == ["ccw", "cw"]
    for direction, got in lines.items():
        expected = [(float(a), round(known_score(a, direction), 1)) for a in ANGLES]
        assert [v for pair in sorted(got) for v in pair] == pytest.approx(
            [v for pair in sorted(expected) for v in pair], abs=0.06
        )
    # the drift the post found shows as the top (270°) being the farthest point of each line
    assert max(lines["cw"], key=lambda v: v[1])[0] == 270.0


def test_cases_sharing_a_start_angle_plot_their_mean_and_a_dot_each():
    recs = [
        record("m", a, "cw", s, group=f"circle:{g}")
        for a in (0, 90, 180, 270)
        for g, s in (("a", 60.0), ("b", 80.0), ("c", 100.0))
    ]
    recs[0] = replace(recs[0], start_angle=3.4)  # another radius: the grid rounds its start point

    chart = polar_of(render_html(ReportData(records=recs)))

    assert sorted(s for _, s in vertices(chart)["cw"]) == [80.0] * 4
    assert len([c for c in chart.iter(f"{SVG}circle") if c.get("class") == "case-dot"]) == 12


def test_start_angles_the_grid_rounded_apart_are_one_start_point_even_across_zero():
    recs = [record("m", a, "cw", 90.0, group=f"circle:{i}") for i, a in enumerate((29.7, 36.9, 30.0, 359.0, 0.5, 90.0))]

    got = [(b.angle, len(b.records)) for b in buckets(recs)]

    assert [n for _, n in got] == [3, 1, 2]
    assert got[0][0] == pytest.approx(32.2, abs=0.1) and got[1][0] == 90.0
    assert got[2][0] == pytest.approx(359.75, abs=0.1)


def test_the_page_has_no_script_and_escapes_a_hostile_model_name():
    html = render_html(ReportData(records=matrix(f"evil{SCRIPT}")))

    section = html[html.index('<section id="stability">') :]
    assert "<script" not in html.lower()
    assert "evil&lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert f'content="{CSP.replace(chr(39), "&#x27;")}"' in html
    title = polar_of(html).find(f"{SVG}title")
    assert title is not None and SCRIPT in title.text  # escaped in the markup, the same text when read


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def test_the_section_uses_only_inert_markup_even_for_a_hostile_case_and_direction():
    recs = [replace(r, case=f"c{SCRIPT}", direction=f'cw"><script>{r.direction}') for r in matrix()]
    parser = Tags()

    parser.feed("".join(stability_html(recs, ["m"])))

    assert {t for t, _ in parser.tags} <= {
        "section",
        "h2",
        "p",
        "div",
        "span",
        "svg",
        "title",
        "circle",
        "text",
        "line",
        "polyline",
        "rect",
    }
    assert not [a for _, attrs in parser.tags for a in attrs if a.startswith("on")]
    assert {a["data-direction"] for t, a in parser.tags if t == "polyline"} == {"cwscriptcw", "cwscriptccw"}


def test_families_without_start_angles_and_old_records_have_no_stability_section():
    old = json.loads(matrix()[0].as_property()[1])
    del old["start_angle"], old["direction"]
    legacy = CaseRecord.from_json(old)
    one_angle = [record("m", 90, d, 90.0) for d in ("cw", "ccw")]  # a group from one start point

    assert legacy.start_angle is None and legacy.direction == ""
    assert stability_html([legacy], ["m"]) == []
    assert stability_html(one_angle, ["m"]) == []
    assert stability_html([replace(r, start_angle=math.nan) for r in matrix()], ["m"]) == []
    assert 'id="stability"' not in render_html(ReportData(records=[legacy, *one_angle]))


def circle_points(angle: float, n: int) -> tuple[tuple[float, float], ...]:
    """``n`` points round (25, 25), radius 20, from ``angle`` clockwise on screen."""
    return tuple(
        (25 + 20 * math.cos(math.radians(angle) + t), 25 + 20 * math.sin(math.radians(angle) + t))
        for t in (2 * math.pi * i / n for i in range(n))
    )


def test_small_multiples_place_each_drawing_at_its_start_angle_with_its_score():
    recs = []
    for a in ANGLES:
        rec = record("m", a, "cw", known_score(a, "cw"))
        sample = SampleRecord(index=0, score=rec.score, passed=True, points=circle_points(a, 4000), n_points=4000)
        recs.append(replace(rec, samples=(sample,)))

    ring = ET.fromstring(ring_svg("cw", buckets(recs)))

    guide = next(c for c in ring.iter(f"{SVG}circle") if c.get("class") == "guide")
    cx, cy, radius = (float(guide.get(k)) for k in ("cx", "cy", "r"))
    panels = [p for p in ring.iter(f"{SVG}svg") if p.get("class") == "panel"]
    assert len(panels) == len(ANGLES)
    for panel in panels:
        x, y, w, h = (float(panel.get(k)) for k in ("x", "y", "width", "height"))
        mx, my = x + w / 2, y + h / 2 + 6  # panels sit 6 px above the ring to leave room for the score
        assert math.degrees(math.atan2(my - cy, mx - cx)) % 360 == pytest.approx(
            float(panel.get("data-angle")), abs=0.1
        )
        assert math.hypot(mx - cx, my - cy) == pytest.approx(radius, abs=0.1)
        (drawn,) = [p for p in panel.iter(f"{SVG}polyline") if p.get("class") == "drawn"]
        pts = [tuple(map(float, p.split(","))) for p in drawn.get("points").split()]
        assert len(pts) <= MAX_SMALL_POINTS  # 4000 points drawn as at most MAX_SMALL_POINTS
        # the drawing starts at its start angle: the first point is on that ray from (25, 25)
        assert math.degrees(math.atan2(pts[0][1] - 25, pts[0][0] - 25)) % 360 == pytest.approx(
            float(panel.get("data-angle")), abs=0.5
        )
    labels = sorted(t.text for t in ring.iter(f"{SVG}text"))
    assert all(f"{known_score(a, 'cw'):.1f}" in labels for a in ANGLES)


def test_overlaid_cases_show_their_mean_score_and_count():
    b = Bucket(90.0, tuple(record("m", 90, "cw", s, group=f"circle:{s}") for s in (70.0, 90.0)))

    ring = ET.fromstring(ring_svg("cw", [b]))

    assert "80.0 ·2" in [t.text for t in ring.iter(f"{SVG}text")]


def test_a_hostile_drawing_far_off_the_grid_is_kept_on_its_margin():
    rec = record("m", 0, "cw", 0.0)
    sample = SampleRecord(index=0, points=((1e300, -1e300), (3.0, 4.0)), n_points=2)

    ring = ring_svg("cw", buckets([replace(rec, samples=(sample,)), record("m", 90, "cw", 50.0)]))

    drawn = next(p for p in ET.fromstring(ring).iter(f"{SVG}polyline") if p.get("class") == "drawn")
    assert drawn.get("points") == "50,-1 3,4"


def test_a_case_knows_its_start_angle_and_direction_and_its_record_carries_them():
    cases = {c.id: c for c in load_cases()}
    seed2 = cases["seed2-circle-start330-cw"]
    doc = json.loads((REPO / "fixtures" / "reference_exact" / f"{seed2.id}.json").read_text(encoding="utf-8"))
    result = judge(seed2, "m", [doc["samples"][0]["text"]])

    rec = CaseRecord.from_json(CaseRecord.from_result(result, "passed").as_property()[1])

    assert (rec.start_angle, rec.direction) == (330.3, "cw")
    assert cases["seed1-circle-start270-cw"].start_angle == 270.0
    assert CaseRecord.unjudged("m", cases["seed3-circle-start150-ccw"], "error").start_angle == 150.3
    outward = next(c for c in cases.values() if c.family == "spiral" and not c.params.get("inward"))
    assert outward.start_angle is None  # it starts at its center: no start angle
    assert next(c for c in cases.values() if c.family == "concentric").start_angle is None  # start = "top"
