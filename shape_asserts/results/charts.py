"""The report's stability picture: score against start angle, and the drawings round the start points.

The seed post's finding is that a model's circle drifts as the start point moves off the top. Per
model × family whose cases ask the same shape from two or more start points (a stability group
with two or more start angles), the report shows:

* a polar chart (:func:`polar_svg`): the start angle on the circle, as the drawings place it
  (0° right, growing clockwise on screen, so the top is 270°), the score as the distance from
  the middle (0 in the middle, 100 on the outer ring), one closed line per direction through
  the mean score at each start angle, and one faint dot per case when several cases share a
  start angle and direction (other centers or radii);
* small multiples (:func:`ring_svg`): per direction, the drawings placed round a circle at their
  start angles, each with its score. When several cases share a start angle they are overlaid in
  one panel (at most :data:`MAX_OVERLAY`), labelled with their mean score.

Start angles of cases with other centers or radii differ by the grid's rounding (30° is 29.7° at
radius 24, 36.9° at radius 5): angles closer than :data:`BUCKET_GAP` are one start point, placed
at their circular mean. Everything is inline SVG built from numbers; the only text a model could
have chosen is its name, escaped like every other label (:func:`~shape_asserts.results.panels.esc`).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shape_asserts.results.panels import esc
from shape_asserts.results.record import CaseRecord

__all__ = [
    "PANEL_STYLE",
    "BUCKET_GAP",
    "MAX_OVERLAY",
    "MAX_SMALL_POINTS",
    "POLAR_RADIUS",
    "Bucket",
    "buckets",
    "polar_svg",
    "ring_svg",
    "stability_html",
]

#: A record's whole self (answers, drawings) from the small one in hand.
Loader = Callable[[CaseRecord], CaseRecord]
#: Start angles closer than this (degrees) are one start point (the grid rounds start points).
BUCKET_GAP = 8.0
#: ... and no start point spans more than this, so a fine matrix is not chained into one.
BUCKET_WIDTH = 15.0
#: Points of one small drawing drawn (evenly picked, first and last kept): the page stays light.
#: A panel is 84 pixels wide, a point ~1.5 pixels apart at 64; at 200, ten models' rings of the
#: benchmark were ~5 MB of a report.
MAX_SMALL_POINTS = 64
#: Drawings overlaid in one small panel (cases sharing a start angle and direction).
MAX_OVERLAY = 6
#: The polar chart: radius of the score-100 ring, and the margin for the angle labels.
POLAR_RADIUS = 150
_POLAR_MARGIN = 34
#: Line colours by direction (other directions take the rest of the palette in order).
_DIRECTION_COLOURS = {"cw": "#1f4e9c", "ccw": "#d95f02"}
_ORDER = {"cw": 0, "ccw": 1}
_DASHES = ("7 4", "2 3", "9 3 2 3")
_PALETTE = ("#1b9e77", "#7570b3", "#e7298a", "#66a61e")
_PASS, _FAIL = "#17703a", "#b42318"
#: How a panel's lines look, said once in the page's style (:data:`PANEL_STYLE`, which the report
#: includes) rather than on each of its hundreds of lines.
PANEL_STYLE = (
    ".panel polyline{fill:none;vector-effect:non-scaling-stroke;stroke-linejoin:round}"
    ".panel .ideal{stroke:#7fc97f;stroke-opacity:.45;stroke-width:4px}"
    ".panel .drawn{stroke:#1f4e9c;stroke-width:1.3px}.panel .drawn.overlaid{stroke-opacity:.6}"
)
#: Small multiples: side of a panel (pixels), and the ring's smallest and largest radius.
_PANEL = 84
_RING_MIN, _RING_MAX = 110, 300


@dataclass(frozen=True)
class Bucket:
    """The cases of one direction that start from (about) one start angle."""

    angle: float  # circular mean of the cases' start angles, degrees
    records: tuple[CaseRecord, ...]

    @property
    def mean(self) -> float:
        return sum(float(r.score or 0.0) for r in self.records) / len(self.records)


def _circular_mean(angles: Sequence[float]) -> float:
    s = sum(math.sin(math.radians(a)) for a in angles)
    c = sum(math.cos(math.radians(a)) for a in angles)
    return round(math.degrees(math.atan2(s, c)) % 360.0, 1)


def buckets(records: Sequence[CaseRecord]) -> list[Bucket]:
    """``records`` (with start angles) clustered by start angle, in angle order from 0°."""
    angles = sorted({float(r.start_angle) % 360.0 for r in records if r.start_angle is not None})
    if not angles:
        return []
    # begin after the widest gap round the circle, so no cluster straddles the cut
    gaps = [(angles[(i + 1) % len(angles)] - a) % 360.0 for i, a in enumerate(angles)]
    first = (max(range(len(angles)), key=lambda i: gaps[i]) + 1) % len(angles)
    ordered = angles[first:] + angles[:first]
    clusters: list[list[float]] = [[ordered[0]]]
    for a in ordered[1:]:
        cluster = clusters[-1]
        if (a - cluster[-1]) % 360.0 > BUCKET_GAP or (a - cluster[0]) % 360.0 > BUCKET_WIDTH:
            clusters.append([a])
        else:
            cluster.append(a)
    where = {a: i for i, cluster in enumerate(clusters) for a in cluster}
    members: dict[int, list[CaseRecord]] = defaultdict(list)
    for r in records:
        if r.start_angle is not None:
            members[where[float(r.start_angle) % 360.0]].append(r)
    out = [Bucket(_circular_mean(clusters[i]), tuple(members[i])) for i in members]
    return sorted(out, key=lambda b: b.angle)


def _usable(records: Sequence[CaseRecord]) -> list[CaseRecord]:
    """Judged records of the groups that ask from two or more start angles (the rest say nothing here)."""
    judged = [r for r in records if r.judged and _angle(r.start_angle) and r.outcome in ("passed", "failed")]
    angles: dict[str, set[float]] = defaultdict(set)
    for r in judged:
        angles[r.group].add(float(r.start_angle or 0.0))
    return [r for r in judged if len(angles[r.group]) >= 2]


def _angle(value: object) -> bool:
    """Whether a record's start angle is a finite number (records read back from JSON are checked)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _colour(direction: str, order: Sequence[str]) -> str:
    if direction in _DIRECTION_COLOURS:
        return _DIRECTION_COLOURS[direction]
    others = [d for d in order if d not in _DIRECTION_COLOURS]
    return _PALETTE[others.index(direction) % len(_PALETTE)] if direction in others else _PALETTE[0]


def _token(direction: str) -> str:
    """A direction as an attribute value: only [a-z0-9_-] (case files name it; still never trusted)."""
    return re.sub(r"[^a-z0-9_-]", "", direction.lower())[:20] or "none"


def _label(direction: str) -> str:
    return direction or "no direction"


def _at(cx: float, cy: float, radius: float, angle: float) -> tuple[float, float]:
    a = math.radians(angle)
    return (cx + radius * math.cos(a), cy + radius * math.sin(a))


def polar_svg(model: str, family: str, lines: Mapping[str, Sequence[Bucket]]) -> str:
    """The polar chart of one model × family: one closed line per direction, score as the radius."""
    size = 2 * (POLAR_RADIUS + _POLAR_MARGIN)
    cx = cy = size / 2
    order = list(lines)
    out = [
        f'<svg class="polar" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" '
        f'height="{size}" role="img"><title>{esc(model)} · {esc(family)}: score by start angle</title>'
    ]
    for score in (25, 50, 75, 100):
        rr = POLAR_RADIUS * score / 100
        out.append(
            f'<circle class="ring" data-score="{score}" cx="{cx:.2f}" cy="{cy:.2f}" r="{rr:.2f}" fill="none" '
            f'stroke="{"#bbb" if score == 100 else "#e1e4ea"}"/>'
        )
        tx, ty = _at(cx, cy, rr, 285)
        out.append(f'<text x="{tx + 2:.1f}" y="{ty - 2:.1f}" font-size="10" fill="#8a93a3">{score}</text>')
    for angle in range(0, 360, 30):
        x, y = _at(cx, cy, POLAR_RADIUS, angle)
        out.append(f'<line x1="{cx:.2f}" y1="{cy:.2f}" x2="{x:.2f}" y2="{y:.2f}" stroke="#eef0f4"/>')
        lx, ly = _at(cx, cy, POLAR_RADIUS + 17, angle)
        word = "270° top" if angle == 270 else f"{angle}°"
        out.append(
            f'<text x="{lx:.1f}" y="{ly + 4:.1f}" font-size="11" text-anchor="middle" fill="#5d6677">{word}</text>'
        )
    for i, (direction, bs) in enumerate(lines.items()):
        colour = _colour(direction, order)
        for b in bs:
            if len(b.records) > 1:
                for r in b.records:
                    x, y = _at(cx, cy, POLAR_RADIUS * _clamp(r.score) / 100, float(r.start_angle or 0.0))
                    out.append(
                        f'<circle class="case-dot" cx="{x:.2f}" cy="{y:.2f}" r="2.2" fill="{colour}" '
                        f'fill-opacity=".3"><title>{esc(r.case)}: {_clamp(r.score):.2f}</title></circle>'
                    )
        points = [_at(cx, cy, POLAR_RADIUS * _clamp(b.mean) / 100, b.angle) for b in bs]
        closed = points + points[:1] if len(points) >= 3 else points
        dash = "" if i == 0 else f' stroke-dasharray="{_DASHES[(i - 1) % len(_DASHES)]}"'  # equal lines stay visible
        out.append(
            f'<polyline data-direction="{_token(direction)}" points="'
            + " ".join(f"{x:.2f},{y:.2f}" for x, y in closed)
            + f'" fill="{colour}" fill-opacity=".06" stroke="{colour}" stroke-width="2" stroke-linejoin="round"{dash}/>'
        )
        for b, (x, y) in zip(bs, points):
            n = len(b.records)
            out.append(
                f'<circle cx="{x:.2f}" cy="{y:.2f}" r="3.5" fill="{colour}"><title>{esc(_label(direction))} from '
                f"{b.angle:g}°: {b.mean:.2f}{f' (mean of {n} cases)' if n > 1 else ''}</title></circle>"
            )
    out.append("</svg>")
    return "".join(out)


def _clamp(score: float | None) -> float:
    return min(100.0, max(0.0, float(score or 0.0)))


def _n(v: float) -> str:
    """A coordinate in as few characters as it needs (``30``, ``30.5``)."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _thin(points: Sequence[Sequence[float]], limit: int = MAX_SMALL_POINTS) -> list[tuple[float, float]]:
    """At most ``limit`` of ``points``, evenly picked, the first and the last kept."""
    n = len(points)
    picked = range(n) if n <= limit else sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})
    return [(float(points[i][0]), float(points[i][1])) for i in picked]


def _drawing(rec: CaseRecord) -> list[tuple[float, float]] | None:
    """The first drawing among the record's samples, thinned and kept on the grid's margin."""
    for s in rec.samples:
        if s.points:
            g = float(rec.grid_size)
            pts = _thin(s.points)
            if all(math.isfinite(x) and math.isfinite(y) for x, y in pts):
                return [(min(max(x, -1.0), g), min(max(y, -1.0), g)) for x, y in pts]
    return None


def _ideal(case: Any) -> list[tuple[float, float]] | None:
    try:
        pts = case.ideal() if case is not None else None
        return _thin([tuple(p) for p in pts]) if pts is not None and len(pts) else None
    except Exception:  # a broken family must not break the report; the drawing shows without it
        return None


def _panel(
    b: Bucket, x: float, y: float, side: float, definitions: Mapping[str, Any], load: Loader | None = None
) -> str:
    """One small drawing (or several overlaid) with its score, its top-left corner at ``(x, y)``;
    ``load`` gives a record's drawings when the records in hand have none (read back from disk)."""
    recs = b.records[:MAX_OVERLAY]
    g = max(r.grid_size for r in recs)
    passed = all(r.outcome == "passed" for r in b.records)
    out = [
        f'<svg class="panel" data-angle="{b.angle:g}" x="{x:.2f}" y="{y:.2f}" width="{side:.2f}" '
        f'height="{side:.2f}" viewBox="-1 -1 {g + 1} {g + 1}">',
        f'<rect x="-1" y="-1" width="{g + 1}" height="{g + 1}" fill="#fff" stroke="#c9ced8" '
        'vector-effect="non-scaling-stroke"/>',
    ]
    # the first case's ideal only: overlaid cases differ in centre or radius, and ten models' rings
    # repeating every one of them were ~0.8 MB of a report
    ideal = _ideal(definitions.get(recs[0].case))
    if ideal:
        out.append('<polyline class="ideal" points="' + " ".join(f"{_n(px)},{_n(py)}" for px, py in ideal) + '"/>')
    for r in recs:
        pts = _drawing(load(r) if load is not None else r)
        if not pts:
            continue
        overlaid = "" if len(recs) == 1 else " overlaid"
        out.append(
            f'<polyline class="drawn{overlaid}" points="' + " ".join(f"{_n(px)},{_n(py)}" for px, py in pts) + '"/>'
        )
        out.append(f'<circle cx="{pts[0][0]:.1f}" cy="{pts[0][1]:.1f}" r="{g / 28:.2f}" fill="#2ca02c"/>')
    out.append("</svg>")
    n = len(b.records)
    label = f"{b.mean:.1f}" + (f" ·{n}" if n > 1 else "")
    out.append(
        f'<text x="{x + side / 2:.2f}" y="{y + side + 12:.2f}" font-size="11" text-anchor="middle" '
        f'font-weight="600" fill="{_PASS if passed else _FAIL}">{label}</text>'
    )
    return "".join(out)


def ring_svg(
    direction: str, bs: Sequence[Bucket], definitions: Mapping[str, Any] | None = None, load: Loader | None = None
) -> str:
    """Small multiples of one direction: each start angle's drawing placed at that angle round a circle."""
    n = max(len(bs), 1)
    side = min(float(_PANEL), 2 * math.pi * _RING_MAX / n / 1.35)
    # adjacent panels (and the score under each) must not touch: their centres ~1.35 sides apart
    ring = min(float(_RING_MAX), max(float(_RING_MIN), n * side * 1.35 / (2 * math.pi)))
    size = 2 * ring + side + 32
    cx = cy = size / 2
    scored = [r for b in bs for r in b.records]
    mean = sum(_clamp(r.score) for r in scored) / len(scored) if scored else 0.0
    out = [
        f'<svg class="ring" data-direction="{_token(direction)}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {size:.0f} {size:.0f}" width="{size:.0f}" height="{size:.0f}" role="img">',
        f"<title>drawings by start angle, {esc(_label(direction))}</title>",
        f'<circle class="guide" cx="{cx:.2f}" cy="{cy:.2f}" r="{ring:.2f}" fill="none" stroke="#dde2ea" '
        'stroke-dasharray="3 4"/>',
        f'<text x="{cx:.2f}" y="{cy - 4:.2f}" font-size="20" font-weight="650" text-anchor="middle" '
        f'fill="{_colour(direction, [direction])}">{esc(_label(direction))}</text>',
        f'<text x="{cx:.2f}" y="{cy + 16:.2f}" font-size="12" text-anchor="middle" fill="#5d6677">'
        f"{len(scored)} case{'s' if len(scored) != 1 else ''} · mean {mean:.1f}</text>",
    ]
    for b in bs:
        px, py = _at(cx, cy, ring, b.angle)
        out.append(_panel(b, px - side / 2, py - side / 2 - 6, side, definitions or {}, load))
    out.append("</svg>")
    return "".join(out)


def stability_html(
    records: Sequence[CaseRecord],
    models: Sequence[str],
    definitions: Mapping[str, Any] | None = None,
    load: Loader | None = None,
) -> list[str]:
    """The report's stability section ([] when no family asks one shape from two start angles).

    ``load`` turns a record without drawings into the whole one (see :class:`ReportData`'s ``load``).
    """
    by_key: dict[tuple[str, str], list[CaseRecord]] = defaultdict(list)
    for r in _usable(records):
        by_key[(r.family, r.model)].append(r)
    if not by_key:
        return []
    rank = {m: i for i, m in enumerate(models)}
    out = [
        '<section id="stability"><h2>Stability by start point</h2>',
        '<p class="explain">Per model and family, the cases that ask one shape from several start points. '
        "Left: the score (distance from the middle, 0–100) at each start angle, placed where the start "
        "sits on the circle (the top is 270°, angles grow clockwise); one line per direction through the "
        "mean score of the cases starting there, faint dots for each case when several share a start "
        "angle. A round line near the outer ring is a model that draws as well from any start; a dent is "
        "where it drifts. Right: each start angle's drawing (the first sample) at its place round the "
        f"circle, with its score; cases sharing a start angle are overlaid (up to {MAX_OVERLAY}), their "
        "mean score followed by ·count, green when every one passed and red otherwise. Green dot: where "
        "the drawing begins; pale band: the ideal shape (the first case's, where several are overlaid).</p>",
    ]
    family = None
    for fam, model in sorted(by_key, key=lambda k: (k[0], rank.get(k[1], len(rank)))):
        if fam != family:
            family = fam
            out.append(f'<h2 class="family">{esc(fam)}</h2>')
        recs = by_key[(fam, model)]
        directions = sorted({r.direction for r in recs}, key=lambda d: (_ORDER.get(d, len(_ORDER)), d))
        lines = {d: buckets([r for r in recs if r.direction == d]) for d in directions}
        spread = " · ".join(
            f'<span class="sw" style="background:{_colour(d, list(lines))}"></span>'
            f"{esc(_label(d))}: {min(b.mean for b in bs):.1f}–{max(b.mean for b in bs):.1f} over {len(bs)} start points"
            for d, bs in lines.items()
        )
        out.append(
            f'<div class="stab"><div class="stab-head"><span class="model">{esc(model)}</span>'
            f'<span class="muted">{len(recs)} cases · mean score by start, {spread}</span></div>'
            f'<div class="stab-body">{polar_svg(model, fam, lines)}'
            + "".join(ring_svg(d, bs, definitions or {}, load) for d, bs in lines.items())
            + "</div></div>"
        )
    out.append("</section>")
    return out
