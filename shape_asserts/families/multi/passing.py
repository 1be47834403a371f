"""The matched contours' circle checks, measured together for the circles that pass them all.

:func:`.scorer.score_circles` scores each contour matched to an asked circle as a circle
(:func:`.circle.score_circle`) and merges the circles' checks by name; a check every circle passes
becomes "all N pass" with the least margin, so of a circle that passes every check the merge reads
only each check's margin (and the circle's seed score and roundness). :func:`passing_circles`
measures those for all the matched contours at once: each elementwise step (differences, distances,
angles, the harmonics' phases) on the contours' points stacked in one array, each sum still on the
contour's own slice (``np.add.reduce`` and ``cumsum`` of the same values in the same order: the
same floats), so every number is :func:`.circle.score_circle`'s. A circle that fails a check, or
that the shortcut does not cover (a point on the asked center, a seed score the answer's JSON must
give), comes back ``None``: the caller scores it with :func:`.circle.score_circle`, which also
writes the failing checks' details (:func:`.merge.merge_circles` merges both kinds).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from shape_asserts.families.circle import CircleThresholds, seed_of_points
from shape_asserts.families.multi.merge import Passing
from shape_asserts.geometry.checks import SECTOR_BOUNDS
from shape_asserts.geometry.contours import Contour
from shape_asserts.geometry.distances import point_chebyshev
from shape_asserts.geometry.fit import CircleModel
from shape_asserts.geometry.fit.circle import HARMONIC_ORDERS, AboutMean
from shape_asserts.geometry.points import FloatArray, IntArray, Point
from shape_asserts.geometry.score import limit_margin, parsed_limit
from shape_asserts.geometry.seed import EXACT_LIMIT as _INT_LIMIT
from shape_asserts.geometry.seed import score_of_error as _seed_of_error

__all__ = ["passing_circles", "circle_limits"]


def circle_limits(t: CircleThresholds, start: bool, direction: str | None) -> list[tuple[str, str]]:
    """The ``(name, limit)`` of each check :func:`.circle.score_circle` makes of a contour a circle
    fits (``bounds`` and ``size`` left out: the multi scorer asks for neither), in its order."""
    names = [
        ("seed_score", f"≥ {t.min_seed_score:g}"),
        ("gaps", f"≤ {t.max_gaps}"),
        ("repeats", f"≤ {t.max_repeats}"),
        ("closure", f"≤ {t.max_closure:g}"),
    ]
    if start:
        names.append(("start", f"≤ {t.max_start_distance:g}"))
    if direction is not None:
        names.append(("direction", direction))
    names += [
        ("winding", f"{t.min_turns:g}..{t.max_turns:g} laps"),
        ("coverage", f"≥ {t.min_coverage:g}"),
        ("roundness", f"≥ {t.min_roundness:g}"),
        ("harmonics", "≤ 1 of the limit"),
        ("center", f"≤ {t.max_center_offset:g}"),
        ("radius", f"≥ {t.min_radius:g}"),
        ("roundness_requested", f"≥ {t.min_roundness_requested:g}"),
    ]
    return names


#: A check's margin from its value: :attr:`.score.Check.margin` of a check held to one limit.
MarginOf = Callable[[Any], "float | None"]


def _margin_of(limit: str) -> MarginOf:
    """``score.limit_margin(value, limit)`` as a function of ``value``, the limit read once (its form and
    numbers: ``score.parsed_limit``, the same parse): for a limit ``≤ a``, ``≥ a`` or ``a..b`` the
    same subtractions (a passing circle's numbers are finite, never a bool: the cases ``limit_margin``
    turns to ``None`` before these), for any other (a direction's) ``limit_margin`` itself."""
    parsed = parsed_limit(limit)
    if parsed is not None:
        op, a, b, _ = parsed
        if op == "≤":
            return lambda value: a - value
        if op == "≥":
            return lambda value: value - a
        if op == "..":
            return lambda value: min(value - a, b - value)
    return lambda value: limit_margin(value, limit)


@functools.lru_cache(maxsize=64)
def _circle_checks(
    t: CircleThresholds, start: bool, direction: str | None
) -> tuple[list[tuple[str, str]], list[MarginOf]]:
    """:func:`circle_limits` and each check's :func:`_margin_of`, once per thresholds and asked checks."""
    checks = circle_limits(t, start, direction)
    return checks, [_margin_of(limit) for _, limit in checks]


def _roundness(r: FloatArray, spans: Sequence[tuple[int, int]]) -> list[float]:
    """:func:`.fit.circle.roundness_of` of each span's distances ``r[a:b]`` (at least 3 each; the
    spans tile ``r`` in order): each mean from the span's own sum, the deviations from it for all
    spans at once (the same subtractions), each deviation's sum again the span's own."""
    means = []
    for a, b in spans:
        means.append(float(np.add.reduce(r[a:b]) / (b - a)))
    dev = np.abs(r - np.array(means).repeat([b - a for a, b in spans]))
    out = []
    for (a, b), mean in zip(spans, means):
        if not math.isfinite(mean) or mean <= 0:
            out.append(0.0)
            continue
        score = (1.0 - float(np.add.reduce(dev[a:b]) / (b - a)) / mean) * 100.0
        out.append(float(min(100.0, max(0.0, score))))
    return out


def _int_seeds(
    abouts: Sequence[AboutMean],
    spans: Sequence[tuple[int, int]],
    ids: IntArray,
    lows: Sequence[Sequence[float]],
    highs: Sequence[Sequence[float]],
) -> list[float | None]:
    """:func:`.seed.int_points_score` of each span's points (the parser's ints) from their
    :func:`.fit.circle.about_mean` and their least and largest ``x`` and ``y`` (``lows``,
    ``highs``): ``None`` where the coordinates are too large for it, 0 under 5 points.

    Its steps (``seed._from_radii``) for all spans at once where they are elementwise — the square
    roots of ``dx² + dy²``, each radius less its span's mean radius, over it — and on each span's
    own slice where they add up (``cumsum``: left to right, PHP's order)."""
    radii = np.sqrt(np.concatenate([about[2] for about in abouts]))
    # each span's mean radius (a zero one scores 0: it divides nothing, 1.0 stands in for it)
    means = [float(radii[a:b].cumsum()[-1]) / (b - a) for a, b in spans]
    over = np.array([mean if mean > 0 else 1.0 for mean in means])[ids]
    err = np.abs(radii - over)
    err /= over
    out: list[float | None] = []
    for (a, b), mean, lo, hi in zip(spans, means, lows, highs):
        n = b - a
        if n < 5:
            out.append(0.0)
        elif not (min(lo) > -_INT_LIMIT and max(hi) < _INT_LIMIT):
            out.append(None)  # (int_points_score's own limit: its seed_score is asked)
        else:
            out.append(_seed_of_error(float(err[a:b].cumsum()[-1]) / n) if mean > 0 else 0.0)
    return out


def _harmonic_amplitudes(
    theta: FloatArray, res: FloatArray, ids: IntArray, spans: Sequence[tuple[int, int]]
) -> list[list[float]]:
    """:func:`.fit.circle.radial_harmonics` of each span's ``theta[a:b]`` and ``res[a:b]`` (at least
    3 points each, finite; the spans tile ``theta`` in order, ``ids`` each point's span): the
    weights, phases and amplitudes of all spans at once, each span's sums on its own slice (tested
    bit for bit against the function: tests/unit/test_multi_speed.py)."""
    lo, hi = HARMONIC_ORDERS
    m = len(theta)
    firsts = [a for a, _ in spans]
    lasts = [b - 1 for _, b in spans]
    # each span's angles in stable angle order: by span, then angle (lexsort is stable; the angles
    # are finite), so each span's block holds its own argsort(kind="stable") order, offset
    order = np.lexsort((theta, ids))
    s = theta[order]
    # the gaps either side of each point in angle order: between neighbours within a span, the
    # wrap-around gap (first + 2π - last: the same IEEE operations as on Python floats) at its ends
    step = s[1:] - s[:-1]
    wrap = s[firsts] + 2 * math.pi - s[lasts]
    before = np.empty(m)
    before[1:] = step
    before[firsts] = wrap
    after = np.empty(m)
    after[:-1] = step
    after[lasts] = wrap
    between = before + after
    between /= 2.0
    w = np.empty(m)
    w[order] = between
    # e^{-ikθ} for k = 1..hi by a running product (radial_harmonics' rows: one row read hi times)
    first = np.exp(-1j * theta)
    rows = np.ndarray((hi, m), dtype=complex, buffer=first, strides=(0, first.itemsize))
    phase = np.multiply.accumulate(rows, axis=0)[lo - 1 :]
    we = w * res
    # each span's sums on its own slice (its weights' total, its phases times its weighted
    # residuals), then the amplitudes 2 |sum| / total of all spans at once
    totals = [float(np.add.reduce(w[a:b])) for a, b in spans]
    valid = [math.isfinite(total) and total > 0 for total in totals]  # (else no amplitudes: zeros)
    sums = np.zeros((len(spans), hi - lo + 1), dtype=complex)
    for i, (a, b) in enumerate(spans):
        if valid[i]:
            sums[i] = phase[:, a:b] @ we[a:b]
    amps: list[list[float]] = (
        2.0 * np.abs(sums) / np.array([tt if ok else 1.0 for tt, ok in zip(totals, valid)])[:, None]
    ).tolist()
    return [amp if ok else [0.0] * (hi - lo + 1) for amp, ok in zip(amps, valid)]


def _harmonic_shares(amplitudes: list[list[float]], radii: Sequence[float], t: CircleThresholds) -> list[float]:
    """Each circle's worst harmonic share as ``Scorecard.harmonics`` measures it (symmetry 4) from
    its amplitudes and fitted radius: the orders judged at this size, each amplitude over its
    limit. NaN where a share is (the check then fails: the caller scores that circle)."""
    lo, hi = HARMONIC_ORDERS
    a, b, c, d = t.harmonic_limits
    repeats = [k % 4 == 0 for k in range(lo, hi + 1)]
    out = []
    for amp, radius in zip(amplitudes, radii):
        size = max(radius, 1.0)
        amp = amp[: max(1, min(len(amp), math.floor(math.pi * size) - lo + 1))]
        repeat, other = a + b / size, c + d / size
        share = [v / (repeat if rep else other) for v, rep in zip(amp, repeats)]
        total = sum(share)
        out.append(max(share) if total == total else math.nan)
    return out


def passing_circles(
    contours: Sequence[Contour],
    fits: Sequence[CircleModel],
    abouts: Sequence[AboutMean],
    centers: Sequence[Point],
    starts: Sequence[Point | None],
    directions: Sequence[str | None],
    t: CircleThresholds,
    *,
    ints: bool,
) -> list[Passing | None]:
    """Each matched contour's :class:`Passing`, or ``None`` where it fails a check or the shortcut
    does not cover it (see the module docstring).

    ``contours`` (each of at least 3 finite points: a circle ``fits`` it), their fits and
    :func:`.fit.circle.about_mean`, the asked ``centers`` and ``starts`` (``None``: unchecked), the
    asked ``directions`` and the thresholds, as :func:`.circle.score_circle` is given them (with
    ``bounds=False``); ``ints``: as :func:`.scorer.score_circles` is told.
    """
    k = len(contours)
    if k == 0:
        return []
    lens = [len(c) for c in contours]
    ends = list(itertools.accumulate(lens))
    spans = [(e - n, e) for e, n in zip(ends, lens)]
    firsts = [a for a, _ in spans]
    lasts = [b - 1 for _, b in spans]
    xy = np.concatenate([c.points for c in contours])
    m = len(xy)
    ids = np.arange(k).repeat(lens)  # each point's contour
    ends_pts = xy[firsts + lasts].tolist()
    first_pts, last_pts = ends_pts[:k], ends_pts[k:]

    # continuity: each step's Chebyshev length; the steps from one contour to the next are set to
    # one cell (neither a gap nor a repeat) and each contour's gaps and repeats counted
    d = np.abs(xy[1:] - xy[:-1])
    steps = np.maximum(d[:, 0], d[:, 1])
    steps[lasts[:-1]] = 1.0
    # (every contour has 3 points or more: each one's steps start at its first point)
    gaps = np.add.reduceat(steps > 1.0, firsts, dtype=np.intp).tolist()
    repeats = np.add.reduceat(steps == 0.0, firsts, dtype=np.intp).tolist()

    # each point less its contour's asked center, its fitted center and its first point: the same
    # differences score_circle's steps make (the winding and roundness_requested about the asked
    # center, roundness and harmonics about the fitted one, the signed area from the first point),
    # in one subtraction
    # (coordinates first, so that each elementwise loop runs along the points)
    origins = np.array([(cn, f.center, p) for cn, f, p in zip(centers, fits, first_pts)], dtype=float)
    dx, dy = xy.T[:, None, :] - origins.transpose(2, 1, 0)[:, :, ids]  # each (3, m)
    # the distances and angles about both centers, each kind in one call: rows 0 (asked) and 1 (fitted)
    radial = np.hypot(dx[:2], dy[:2])
    angles = np.arctan2(dy[:2], dx[:2])
    dist, r, ang = radial[0], radial[1], angles[0]

    on_center = (np.minimum.reduceat(dist, firsts) == 0).tolist()
    turn = np.empty(m)
    np.subtract(ang[1:], ang[:-1], out=turn[:-1])
    turn[lasts] = ang[firsts] - ang[lasts]
    turn += np.pi
    np.remainder(turn, 2 * np.pi, out=turn)
    turn -= np.pi
    # coverage: each angle's sector place (checks._coverage), counted per contour
    places = SECTOR_BOUNDS.searchsorted(ang, side="right")
    places += ids * 14
    sectors = np.bincount(places, minlength=14 * k).reshape(k, 14).tolist()

    # checks.signed_area's terms, from each contour's points less its first
    x, y = dx[2], dy[2]
    terms = np.empty(m)
    np.subtract(x[:-1] * y[1:], x[1:] * y[:-1], out=terms[:-1])
    terms[lasts] = x[lasts] * y[firsts] - x[firsts] * y[lasts]

    radii = [f.radius for f in fits]
    offsets = np.hypot(
        np.array([f.center[0] - cn[0] for f, cn in zip(fits, centers)], dtype=float),
        np.array([f.center[1] - cn[1] for f, cn in zip(fits, centers)], dtype=float),
    ).tolist()
    res = r - np.array(radii)[ids]
    # roundness about the asked centers, then about the fitted ones (radial's rows, end to end)
    rounds = _roundness(radial.reshape(-1), spans + [(a + m, b + m) for a, b in spans])
    round_asked, round_fit = rounds[:k], rounds[k:]
    worst = _harmonic_shares(_harmonic_amplitudes(angles[1], res, ids, spans), radii, t)

    lows = np.minimum.reduceat(xy, firsts, axis=0).tolist()
    highs = np.maximum.reduceat(xy, firsts, axis=0).tolist()
    int_seeds = _int_seeds(abouts, spans, ids, lows, highs) if ints else []
    tables: dict[tuple[bool, str | None], tuple[list[tuple[str, str]], list[MarginOf]]] = {}
    out: list[Passing | None] = []
    for i, contour in enumerate(contours):
        a, b = spans[i]
        lo, hi = min(lows[i]), max(highs[i])
        # (score_circle's own way: a point on the center, a NaN angle, coordinates past 2**30,
        # where its numbers could overflow into ShapeScore's ``finite`` check)
        if on_center[i] or sectors[i][13] or not -_LARGE < lo <= hi < _LARGE:
            out.append(None)
            continue
        seed = int_seeds[i] if ints else None
        if seed is None:
            seed = seed_of_points(contour.points)
        if seed is None:  # (the seed from the answer's JSON: score_circle asks seed_score)
            out.append(None)
            continue
        closing = point_chebyshev(last_pts[i], first_pts[i])
        area = float(0.5 * np.add.reduce(terms[a:b]))
        turns = float(np.add.reduce(turn[a:b]) / (2 * np.pi))
        counts = sectors[i]  # (place 0 and 12: sector 6; 13: a NaN angle)
        coverage = ((counts[0] > 0 or counts[12] > 0) + 11 - counts[1:12].count(0)) / 12.0
        direction = directions[i]
        signed = (turns if direction == "cw" else -turns) if direction is not None else abs(turns)
        share = worst[i]
        # each check's passed and value as score_circle's card adds it, in circle_limits' order
        oks = [seed >= t.min_seed_score, gaps[i] <= t.max_gaps, repeats[i] <= t.max_repeats, closing <= t.max_closure]
        values: list[object] = [seed, gaps[i], repeats[i], closing]
        start = starts[i]
        if start is not None:
            near = point_chebyshev(first_pts[i], start)
            oks.append(near <= t.max_start_distance)
            values.append(near)
        if direction is not None:
            drawn = "cw" if area > 0 else "ccw" if area < 0 else None  # checks.direction
            oks.append(drawn == direction)
            values.append(drawn or "none")
        oks += [
            t.min_turns <= signed <= t.max_turns,
            coverage >= t.min_coverage,
            round_fit[i] >= t.min_roundness,
            share <= 1.0,
            offsets[i] <= t.max_center_offset,
            radii[i] >= t.min_radius,
            round_asked[i] >= t.min_roundness_requested,
        ]
        values += [round(signed, 3), coverage, round_fit[i], round(share, 4), offsets[i], radii[i], round_asked[i]]
        if not all(oks):
            out.append(None)
            continue
        asked = (start is not None, direction)
        if asked not in tables:  # (hashing the thresholds once per asked checks, not per circle)
            tables[asked] = _circle_checks(t, *asked)
        checks, margin_of = tables[asked]
        margins = [margin(value) for margin, value in zip(margin_of, values)]
        out.append(Passing(seed, round_fit[i], checks, margins))
    return out


#: Coordinates the shortcut takes: within this of 0 every measure of a contour a circle fits is
#: finite (its fitted radius, the residuals and their squares stay far below overflow), so
#: ShapeScore's ``finite`` check, which the shortcut does not make, would change nothing.
_LARGE = float(2**30)
