"""The matched contours' circle checks, measured together for the circles that pass them all.

:func:`.scorer.score_circles` scores each contour matched to an asked circle as a circle
(:func:`.circle.score_circle`) and merges the circles' checks by name; a check every circle passes
becomes "all N pass" with the least margin, so of a circle that passes every check the merge reads
only each check's margin (and the circle's seed score and roundness). :func:`passing_circles`
measures those for all the matched contours at once: each elementwise step on the contours' points
stacked in one array, each contour's sums by ``np.add.reduceat`` (the seed score's by ``np.bincount``,
left to right as PHP adds them: the same floats), so every number is :func:`.circle.score_circle`'s
to float rounding (its sums add in another order). A circle that fails a check, or that the shortcut
does not cover (a point on the asked center, a seed score the answer's JSON must give), comes back
``None``: the caller scores it with :func:`.circle.score_circle`, which also writes the failing
checks' details (:func:`.merge.merge_circles` merges both kinds).
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


def _clipped_roundness(sums: list[float], deviations: list[float], lens: Sequence[int]) -> list[float]:
    """:func:`.fit.circle.roundness_of` of each contour from the sums of its distances and of their
    deviations from their mean (0 where that mean is not finite and positive)."""
    out = []
    for total, dev, n in zip(sums, deviations, lens):
        mean = total / n
        ok = math.isfinite(mean) and mean > 0
        out.append(float(min(100.0, max(0.0, (1.0 - (dev / n) / mean) * 100.0))) if ok else 0.0)
    return out


def _int_seeds(sq: FloatArray, lens: Sequence[int], ids: IntArray, small: Sequence[bool]) -> list[float | None]:
    """:func:`.seed.int_points_score` of each contour's points (the parser's ints) from their
    :func:`.fit.circle.about_mean`'s ``dx² + dy²`` (``sq``, the contours' stacked): ``None`` where
    the coordinates are too large for it (``small``: whether each contour's lie within its limit),
    0 under 5 points.

    Its steps (``seed._from_radii``) for all contours at once: the square roots of ``dx² + dy²``,
    each radius less its contour's mean radius, over it; each contour's sums by ``np.bincount``
    with weights, which adds each contour's values left to right from 0.0 — PHP's order and
    ``cumsum``'s, the same floats."""
    k = len(lens)
    radii = np.sqrt(sq)
    # each contour's mean radius (a zero one scores 0: it divides nothing, 1.0 stands in for it)
    means = [total / n for total, n in zip(np.bincount(ids, radii, k).tolist(), lens)]
    over = np.array([mean if mean > 0 else 1.0 for mean in means])[ids]
    err = np.abs(radii - over)
    err /= over
    errs = np.bincount(ids, err, k).tolist()
    out: list[float | None] = []
    for n, mean, e, ok in zip(lens, means, errs, small):
        if n < 5:
            out.append(0.0)
        elif not ok:
            out.append(None)  # (int_points_score's own limit: its seed_score is asked)
        else:
            out.append(_seed_of_error(e / n) if mean > 0 else 0.0)
    return out


def _harmonic_weights(theta: FloatArray, ids: IntArray, firsts: list[int], lasts: list[int], w: FloatArray) -> None:
    """:func:`.fit.circle.radial_harmonics`' weights of each contour's angles ``theta`` (finite;
    ``ids`` each point's contour, ``firsts`` and ``lasts`` its first and last point), written to
    ``w``: half the gaps either side of each angle in the contour's angle order, wrapping round."""
    m = len(theta)
    # each contour's angles in stable angle order: by contour, then angle (lexsort is stable; the
    # angles are finite), so each contour's block holds its own argsort(kind="stable") order
    order = np.lexsort((theta, ids))
    s = theta[order]
    # the gaps either side of each point in angle order: between neighbours within a contour, the
    # wrap-around gap (first + 2π - last) at its ends
    ends = s[firsts + lasts].tolist()
    k = len(firsts)
    wrap = [first + 2 * math.pi - last for first, last in zip(ends[:k], ends[k:])]
    after = np.empty(m)
    np.subtract(s[1:], s[:-1], out=after[:-1])
    after[lasts] = wrap
    before = np.empty(m)
    before[1:] = after[:-1]
    before[firsts] = wrap
    before += after
    before /= 2.0
    w[order] = before


def _harmonic_amplitudes(
    theta: FloatArray,
    res: FloatArray,
    w: FloatArray,
    totals: list[float],
    firsts: list[int],
    polar: tuple[FloatArray, FloatArray, FloatArray] | None = None,
) -> FloatArray:
    """:func:`.fit.circle.radial_harmonics` of each contour's angles ``theta`` and residuals ``res``
    (at least 3 points each, finite; ``firsts`` each contour's first point) from their weights
    ``w`` and each contour's total of them, as a ``(orders, contours)`` array: the phases for all
    contours at once, each contour's sums of its phases times its weighted residuals by
    ``np.add.reduceat``, then the amplitudes ``2 |sum| / total`` (zeros where the total is not
    finite and positive).

    ``polar``: the points' ``dx``, ``dy`` and distance ``r`` from the center ``theta`` is about,
    when the caller has them; where every ``r`` is positive, ``e^{-iθ}`` is ``(dx - i dy) / r``
    (``θ = arctan2(dy, dx)``: the same number to float rounding, without a complex exponential)."""
    lo, hi = HARMONIC_ORDERS
    # e^{-ikθ} for k = 1..hi: e^{-iθ}, then the rows known so far times the last of them (the
    # powers doubling each time: four calls for 16 rows, not radial_harmonics' running product of
    # one row at a time; the same powers to float rounding)
    power = np.empty((hi, len(theta)), dtype=complex)
    if polar is not None and np.minimum.reduce(polar[2]) > 0:
        dx, dy, r = polar
        np.divide(dx, r, out=power[0].real)
        np.divide(dy, r, out=power[0].imag)
        np.negative(power[0].imag, out=power[0].imag)
    else:
        np.exp(-1j * theta, out=power[0])
    have = 1
    while have < hi:
        more = min(have, hi - have)
        np.multiply(power[:more], power[have - 1], out=power[have : have + more])
        have += more
    phase = power[lo - 1 :]
    phase *= w * res
    sums = np.add.reduceat(phase, firsts, axis=1)
    valid = [math.isfinite(total) and total > 0 for total in totals]
    amps: FloatArray = 2.0 * np.abs(sums) / np.array([tt if ok else 1.0 for tt, ok in zip(totals, valid)])
    if not all(valid):
        amps[:, [not ok for ok in valid]] = 0.0
    return amps


#: Each harmonic order's row of :func:`_harmonic_shares`' limits: 0 (a repeat of symmetry 4) or 1.
_LIMIT_ROW = np.array([0 if k % 4 == 0 else 1 for k in range(HARMONIC_ORDERS[0], HARMONIC_ORDERS[1] + 1)])


def _harmonic_shares(amplitudes: FloatArray, radii: Sequence[float], t: CircleThresholds) -> list[float]:
    """Each circle's worst harmonic share as ``Scorecard.harmonics`` measures it (symmetry 4) from
    its amplitudes (a column of ``amplitudes``) and fitted radius: the orders judged at this size,
    each amplitude over its limit. NaN where a share is (the check then fails: the caller scores
    that circle)."""
    lo, hi = HARMONIC_ORDERS
    a, b, c, d = t.harmonic_limits
    sizes = [max(radius, 1.0) for radius in radii]
    limits = np.array([[a + b / size for size in sizes], [c + d / size for size in sizes]])
    shares = amplitudes / limits[_LIMIT_ROW]
    orders = [max(1, min(hi - lo + 1, math.floor(math.pi * size) - lo + 1)) for size in sizes]
    if min(orders) == hi - lo + 1:  # (every order judged: the largest of each column, NaN if one is)
        worst: list[float] = np.maximum.reduce(shares, axis=0).tolist()
        return worst
    out = []
    for share, count in zip(shares.T.tolist(), orders):
        share = share[:count]
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
    inside: bool,
    xy: FloatArray | None = None,
    squares: FloatArray | None = None,
) -> list[Passing | None]:
    """Each matched contour's :class:`Passing`, or ``None`` where it fails a check or the shortcut
    does not cover it (see the module docstring).

    ``contours`` (of :func:`.contours.split_contours`, each of at least 3 finite points: a circle
    ``fits`` it), their fits and :func:`.fit.circle.about_mean`, the asked ``centers`` and
    ``starts`` (``None``: unchecked), the asked ``directions`` and the thresholds, as
    :func:`.circle.score_circle` is given them (with ``bounds=False``); ``ints``: as
    :func:`.scorer.score_circles` is told; ``inside``: every coordinate of the answer lies within
    ``seed.EXACT_LIMIT`` of 0. ``xy`` and ``squares``: the contours' points and their abouts'
    ``dx² + dy²`` stacked, where the caller has them (the whole answer's, when the contours are all
    of its contours in order), else they are put together here (``abouts`` is read only then).
    """
    k = len(contours)
    if k == 0:
        return []
    lens = [len(c) for c in contours]
    ends = list(itertools.accumulate(lens))
    firsts = [e - n for e, n in zip(ends, lens)]
    lasts = [e - 1 for e in ends]
    if xy is None:
        xy = np.concatenate([c.points for c in contours]) if k > 1 else contours[0].points
    m = len(xy)
    ids = np.arange(k).repeat(lens)  # each point's contour
    ends_pts = xy[firsts + lasts].tolist()
    first_pts, last_pts = ends_pts[:k], ends_pts[k:]

    # each point less its contour's asked center, its fitted center and its first point: the same
    # differences score_circle's steps make (the winding and roundness_requested about the asked
    # center, roundness and harmonics about the fitted one, the signed area from the first point),
    # in one subtraction
    # (coordinates first, so that each elementwise loop runs along the points)
    # (the origins' x, then y, each row repeated over its contour's points: (6, m))
    columns = (centers, [f.center for f in fits], first_pts)
    origins = np.array([[o[j] for o in col] for j in (0, 1) for col in columns], dtype=float).repeat(lens, axis=1)
    dx = xy[:, 0] - origins[:3]  # each (3, m)
    dy = xy[:, 1] - origins[3:]
    # the rows each contour sums, all in one reduceat: its turns, its signed area's terms, its
    # distances from the asked and from the fitted center, its harmonic weights
    rows = np.empty((5, m))
    turn, terms, radial, w = rows[0], rows[1], rows[2:4], rows[4]
    # the distances and angles about both centers, each kind in one call: rows 0 (asked) and 1 (fitted)
    np.hypot(dx[:2], dy[:2], out=radial)
    angles = np.arctan2(dy[:2], dx[:2])
    dist, r, ang = radial[0], radial[1], angles[0]

    # (a point on its asked center: rare, so looked for per contour only when some point is on one)
    on_center = (np.minimum.reduceat(dist, firsts) == 0).tolist() if np.minimum.reduce(dist) == 0 else [False] * k
    np.subtract(ang[1:], ang[:-1], out=turn[:-1])
    turn[lasts] = ang[firsts] - ang[lasts]
    turn += np.pi
    np.remainder(turn, 2 * np.pi, out=turn)
    turn -= np.pi
    # coverage: each angle's sector place (checks._coverage), counted per contour
    places = SECTOR_BOUNDS.searchsorted(ang, side="right")
    places += ids * 14
    sectors = np.bincount(places, minlength=14 * k).reshape(k, 14).tolist()

    # checks.signed_area's terms, from each contour's points less its first (so its closing term,
    # from the last point back to the first, is 0)
    x, y = dx[2], dy[2]
    np.subtract(x[:-1] * y[1:], x[1:] * y[:-1], out=terms[:-1])
    terms[lasts] = 0.0

    radii = [f.radius for f in fits]
    offsets = [math.hypot(f.center[0] - cn[0], f.center[1] - cn[1]) for f, cn in zip(fits, centers)]
    res = r - np.array(radii)[ids]
    theta = angles[1]
    _harmonic_weights(theta, ids, firsts, lasts, w)
    turns_sum, areas, asked_sum, fit_sum, totals = np.add.reduceat(rows, firsts, axis=1).tolist()
    # roundness about the asked centers and the fitted ones: each distance's deviation from its
    # contour's mean, summed per contour
    means = np.array([[s / n for s, n in zip(asked_sum, lens)], [s / n for s, n in zip(fit_sum, lens)]])
    dev = np.abs(radial - means[:, ids])
    dev_asked, dev_fit = np.add.reduceat(dev, firsts, axis=1).tolist()
    round_asked = _clipped_roundness(asked_sum, dev_asked, lens)
    round_fit = _clipped_roundness(fit_sum, dev_fit, lens)
    amplitudes = _harmonic_amplitudes(theta, res, w, totals, firsts, (dx[1], dy[1], r))
    worst = _harmonic_shares(amplitudes, radii, t)

    # whether each contour's coordinates lie within the int seed's limit and within _LARGE
    small = large = [True] * k  # (inside: every contour's do)
    if not inside:
        lows = np.minimum.reduceat(xy, firsts, axis=0).tolist()
        highs = np.maximum.reduceat(xy, firsts, axis=0).tolist()
        small = [min(lo) > -_INT_LIMIT and max(hi) < _INT_LIMIT for lo, hi in zip(lows, highs)]
        large = [-_LARGE < min(lo) <= max(hi) < _LARGE for lo, hi in zip(lows, highs)]
    if ints:
        if squares is None:
            squares = np.concatenate([about[2] for about in abouts]) if k > 1 else abouts[0][2]
        int_seeds = _int_seeds(squares, lens, ids, small)
    tables: dict[tuple[bool, str | None], tuple[list[tuple[str, str]], list[MarginOf]]] = {}
    out: list[Passing | None] = []
    two_pi = 2 * np.pi
    for i, contour in enumerate(contours):
        counts = sectors[i]  # (place 0 and 12: sector 6; 13: a NaN angle)
        # (score_circle's own way: a point on the center, a NaN angle, coordinates past 2**30,
        # where its numbers could overflow into ShapeScore's ``finite`` check)
        if on_center[i] or counts[13] or not large[i]:
            out.append(None)
            continue
        seed = int_seeds[i] if ints else None
        if seed is None:
            seed = seed_of_points(contour.points)
        if seed is None:  # (the seed from the answer's JSON: score_circle asks seed_score)
            out.append(None)
            continue
        gaps, repeats = len(contour.gaps), len(contour.repeats)  # (checks.continuity's, the same steps)
        # (point_chebyshev of finite points: the larger of the differences' absolute values)
        (fx, fy), (lx, ly) = first_pts[i], last_pts[i]
        closing = max(abs(lx - fx), abs(ly - fy))
        turns = turns_sum[i] / two_pi
        coverage = ((counts[0] > 0 or counts[12] > 0) + 11 - counts[1:12].count(0)) / 12.0
        direction = directions[i]
        signed = (turns if direction == "cw" else -turns) if direction is not None else abs(turns)
        share, fit_round, asked_round, offset, radius = worst[i], round_fit[i], round_asked[i], offsets[i], radii[i]
        start = starts[i]
        near = max(abs(fx - start[0]), abs(fy - start[1])) if start is not None else 0.0
        area = 0.5 * areas[i]
        drawn = "cw" if area > 0 else "ccw" if area < 0 else None  # checks.direction
        # every check score_circle makes passes (in circle_limits' order), else it scores the circle
        if not (
            seed >= t.min_seed_score
            and gaps <= t.max_gaps
            and repeats <= t.max_repeats
            and closing <= t.max_closure
            and (start is None or near <= t.max_start_distance)
            and (direction is None or drawn == direction)
            and t.min_turns <= signed <= t.max_turns
            and coverage >= t.min_coverage
            and fit_round >= t.min_roundness
            and share <= 1.0
            and offset <= t.max_center_offset
            and radius >= t.min_radius
            and asked_round >= t.min_roundness_requested
        ):
            out.append(None)
            continue
        # each check's value as score_circle's card adds it
        values: list[object] = [seed, gaps, repeats, closing]
        if start is not None:
            values.append(near)
        if direction is not None:
            values.append(drawn or "none")
        values += [round(signed, 3), coverage, fit_round, round(share, 4), offset, radius, asked_round]
        asked = (start is not None, direction)
        if asked not in tables:  # (hashing the thresholds once per asked checks, not per circle)
            tables[asked] = _circle_checks(t, *asked)
        checks, margin_of = tables[asked]
        out.append(Passing(seed, fit_round, checks, [margin(value) for margin, value in zip(margin_of, values)]))
    return out


#: Coordinates the shortcut takes: within this of 0 every measure of a contour a circle fits is
#: finite (its fitted radius, the residuals and their squares stay far below overflow), so
#: ShapeScore's ``finite`` check, which the shortcut does not make, would change nothing.
_LARGE = float(2**30)
