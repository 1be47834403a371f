"""The Archimedean spiral as a fitted model, and the angle measures a spiral is read with.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps. Angles follow the
seed post: 0° pointing right and growing clockwise on screen (y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.fit.base import FitFailure
from shape_asserts.geometry.points import FloatArray, IntArray, Point, as_points

__all__ = [
    "SpiralModel",
    "unwrapped_angles",
    "lap_gaps",
    "offsets_about",
    "radii_about",
    "mean_of",
    "lap_error",
    "linear_quantile",
]


def unwrapped_angles(
    points: ArrayLike,
    center: Point,
    *,
    min_radius: float = 0.0,
    about: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[IntArray, FloatArray]:
    """Cumulative polar angle along the drawing about ``center``, radians (clockwise on screen > 0).

    Points closer than ``min_radius`` to the center (where the angle means little) are left out.
    Returns ``(indices, theta)``: the positions used and the angle at each, starting from 0.
    ``about`` is :func:`offsets_about` of the points when the caller has it already.
    """
    rel, r = offsets_about(points, center) if about is None else about
    # (np.flatnonzero of the mask, without its wrapper; ``.nonzero()`` of a 1-D mask is the same;
    # a radius at least a positive ``min_radius`` is positive: the one comparison is the same mask)
    idx = (r >= min_radius).nonzero()[0] if min_radius > 0 else ((r > 0) & (r >= min_radius)).nonzero()[0]
    if idx.size == 0:
        return idx, np.zeros(0)
    # (each column taken apart, as contiguous arrays: a numpy whose arctan2 is vectorised only for
    # contiguous input may round differently on strided views; a column's view indexed, the same
    # values as rel[idx, 1] in a third of the time)
    ang = np.arctan2(rel[:, 1][idx], rel[:, 0][idx])
    # each step's turn, (np.diff(ang) + π) % 2π − π, in place
    step = ang[1:] - ang[:-1]
    step += np.pi
    np.remainder(step, 2 * np.pi, out=step)
    step -= np.pi
    # a step straight across the center (skipped inner points) turns ±π: which way is a matter of
    # rounding, so a rotated copy of the drawing could count a lap more; take the overall sense.
    # (Every |step| is at most π, so |step| − π is never positive and a step is within 1e-6 of ±π
    # only if the largest is: one max first; a NaN, which the max would hide, takes the mask.)
    if step.size and not float(np.maximum.reduce(np.abs(step))) - np.pi <= -1e-6:
        across = np.abs(np.abs(step) - np.pi) < 1e-6
        if np.logical_or.reduce(across):  # across.any(), without its wrapper
            step[across] = np.pi if step[~across].sum() >= 0 else -np.pi
    theta = np.empty(len(ang))  # np.concatenate([[0.0], np.cumsum(step)])
    theta[0] = 0.0
    np.add.accumulate(step, out=theta[1:])  # (what np.cumsum calls)
    return idx, theta


def offsets_about(points: ArrayLike, center: Point) -> tuple[FloatArray, FloatArray]:
    """Each point less ``center``, shape (N, 2), and its distance from it (:func:`radii_about`)."""
    pts = as_points(points)
    rel = pts - np.asarray(center, dtype=float)
    r: FloatArray = np.hypot(rel[:, 0], rel[:, 1])
    return rel, r


def radii_about(points: ArrayLike, center: Point) -> FloatArray:
    """Each point's distance from ``center``, shape (N,): the radius every spiral measure reads."""
    return offsets_about(points, center)[1]


def mean_of(values: FloatArray) -> float:
    """``float(np.mean(values))`` of a 1-D float array, the same float (its sum over its count, as
    numpy's mean divides them) without np.mean's wrapper; an empty array asks np.mean."""
    if not len(values):
        return float(np.mean(values))
    # (a float64 over an int is one IEEE division, in numpy's scalars or in Python's floats alike)
    return float(np.add.reduce(values)) / len(values)


def lap_gaps(
    points: ArrayLike,
    center: Point,
    *,
    min_radius: float = 1.5,
    window: float = 0.25,
    angles: tuple[IntArray, FloatArray] | None = None,
    radii: FloatArray | None = None,
) -> tuple[IntArray, FloatArray]:
    """How far each point lies from the lap before it, radially: a spiral's local lap spacing.

    For every point at least one lap (2π) along the drawing from its first point away from the
    center, the radius one lap earlier is the median radius of the points whose unwrapped angle
    (see :func:`unwrapped_angles`) lies within ``window`` radians of one lap back — of the nearest
    such points when none does — and is subtracted. A median of a window rather than an
    interpolation: two points at nearly the same angle (a wobble) must not decide it by a rounding
    error. An even Archimedean spiral gives its spacing everywhere, positive outward and negative
    inward. Returns ``(indices, gaps)``.

    Cost: ``O(N log N + P log P)``, ``P`` the points in all the windows together (a few per point
    for a drawing whose laps are drawn once; at most ``N²`` for one that circles the same angles
    over and over).

    ``angles`` is ``unwrapped_angles(points, center, min_radius=min_radius)`` when the caller has
    it already, ``radii`` every point's distance from ``center`` (:func:`radii_about`).
    """
    idx, theta = angles if angles is not None else unwrapped_angles(points, center, min_radius=min_radius)
    if idx.size < 2:
        return idx[:0], np.zeros(0)
    th = theta if theta[-1] >= 0 else -theta
    r = (radii if radii is not None else radii_about(points, center))[idx]
    if np.logical_and.reduce(th[1:] >= th[:-1]):
        # the angle never turns back (and no NaN): already in order, its least the first, the
        # points a lap on a tail of them (the same ones the mask below finds)
        first = int(th.searchsorted(th[0] + 2 * math.pi - 1e-9))
        before = _lap_medians(th, r, th[first:] - 2 * math.pi, window, ordered=True)
        return idx[first:], r[first:] - before
    # a point exactly one lap on (a grid ray crossed again) counts, whatever the float noise
    keep = (th >= np.minimum.reduce(th) + 2 * math.pi - 1e-9).nonzero()[0]  # flatnonzero, th.min()
    before = _lap_medians(th, r, th[keep] - 2 * math.pi, window)
    return idx[keep], r[keep] - before


def _lap_medians(
    th: FloatArray, r: FloatArray, targets: FloatArray, window: float, *, ordered: bool = False
) -> FloatArray:
    """For each target angle, the median ``r`` of the points within ``window`` of it (of the nearest
    ones, ties within 1e-9, when none is): what :func:`lap_gaps` subtracts. ``ordered``: ``th`` is
    ascending already (its stable sort would leave it as it is).

    The points sorted by angle once, each target's points are a run of that order (a float
    difference is monotone in its operand, so ``|θ − target| ≤ c`` holds on a contiguous run),
    found by bisection with a little slack and then held to the exact test, so the same points are
    chosen as by comparing every pair; the median is numpy's (the mean of the two middle values for
    an even count).

    The runs within ``window`` are looked for first: when every target has a point in its run (a
    drawing whose laps are drawn once), no target needs the nearest points, and the same runs and
    medians come without finding them; otherwise :func:`_lap_medians_nearest` does it all.
    """
    if targets.size == 0:
        return np.zeros(0)
    # (the array methods np.argsort, np.searchsorted and np.repeat call, without their wrappers)
    if ordered:
        ths, rs = th, r
    else:
        order = th.argsort(kind="stable")
        ths, rs = th[order], r[order]
    # one slack for every target, as large as the largest target's (1e-7 (1 + |target|)): a wider
    # run only brings in points the exact test then leaves out
    # (targets of ordered angles are ascending too: the largest |target| is one of the ends)
    big = max(abs(float(targets[0])), abs(float(targets[-1]))) if ordered else float(np.maximum.reduce(np.abs(targets)))
    slack = 1e-7 * (1.0 + big)
    if not math.isfinite(slack):  # a NaN or infinite target: the general form
        return _lap_medians_nearest(ths, rs, targets, window)
    reach = window + slack
    lo = ths.searchsorted(targets - reach, side="left")
    counts = ths.searchsorted(targets + reach, side="right") - lo
    qi = np.arange(len(targets)).repeat(counts)
    ends = np.add.accumulate(counts)  # each target's run ends here among all the runs (np.cumsum; ints: exact)
    start = ends - counts  # and starts here
    ti = np.arange(int(ends[-1])) - (start - lo).repeat(counts)
    inside = np.abs(ths[ti] - targets[qi]) <= window
    if not np.logical_and.reduce(inside):  # inside.all(): else the slack brought points in
        qi, ti = qi[inside], ti[inside]
        counts = np.bincount(qi, minlength=len(targets))
        start = np.add.accumulate(counts) - counts
    if not np.minimum.reduce(counts):  # a target with no point within the window: the nearest ones
        return _lap_medians_nearest(ths, rs, targets, window)
    return _run_medians(qi, rs[ti], start, counts, len(ths))


def _lap_medians_nearest(ths: FloatArray, rs: FloatArray, targets: FloatArray, window: float) -> FloatArray:
    """:func:`_lap_medians` of the points ``ths`` (sorted) and their ``rs``, each target's run
    within ``window`` of it or, when no point is, within 1e-9 of the nearest distance."""
    n = len(ths)
    ins = ths.searchsorted(targets)
    left = np.abs(ths[np.maximum(ins - 1, 0)] - targets)
    right = np.abs(ths[np.minimum(ins, n - 1)] - targets)
    nearest = np.minimum(left, right)  # the least |θ − target| of all: the run's ends about the target
    # within the window when a point is; else the nearest ones and those as near within 1e-9
    reach = np.where(nearest <= window, window, nearest + 1e-9)
    slack = 1e-7 * (1.0 + np.abs(targets))
    lo = ths.searchsorted(targets - reach - slack, side="left")
    hi = ths.searchsorted(targets + reach + slack, side="right")
    counts = hi - lo
    qi = np.arange(len(targets)).repeat(counts)
    ends = np.add.accumulate(counts)
    ti = np.arange(int(ends[-1])) - (ends - counts - lo).repeat(counts)
    inside = np.abs(ths[ti] - targets[qi]) <= reach[qi]
    qi = qi[inside]
    count = np.bincount(qi, minlength=len(targets))
    return _run_medians(qi, rs[ti[inside]], np.add.accumulate(count) - count, count, n)


def _run_medians(qi: IntArray, vals: FloatArray, start: IntArray, count: IntArray, n: int) -> FloatArray:
    """numpy's median of each target's values: ``vals`` grouped by target ``qi`` (ascending), target
    ``k``'s ``count[k]`` of them from ``start[k]`` on; ``n`` the points (numpy's nanmedian form)."""
    # each target's values in ascending order: np.lexsort((vals, qi))'s order from one stable sort of
    # the complex numbers qi + i·vals (numpy orders them by real, then imaginary part; ties, signed
    # zeros among them, keep their places both ways) — a quarter of lexsort's cost here
    key = np.empty(len(vals), dtype=complex)
    key.real = qi
    key.imag = vals
    key.sort(kind="stable")
    if key.size and key[-1].imag != key[-1].imag:  # a NaN value, which numpy sorts after every target's
        vals = vals[np.lexsort((vals, qi))]
    else:
        vals = key.imag
    # (the middle two: ``>> 1`` is ``// 2`` on ints, negative ones included, in fewer steps)
    low, high = vals[start + ((count - 1) >> 1)], vals[start + (count >> 1)]
    # numpy's nanmedian takes (a + a) / 2 for an odd count below 600 columns, a itself above (the
    # two differ only where 2a overflows: a radius over 8e307)
    out: FloatArray = (low + high) / 2
    if n >= 600:
        out = np.where(count % 2 == 1, low, out)
    return out


@dataclass(frozen=True)
class SpiralModel:
    """An Archimedean spiral about ``center``: radius ``a + b·θ`` after turning ``θ`` from the start.

    ``θ`` is measured along the drawing in its own direction of travel (so it grows), ``b`` is
    positive for a spiral drawn outward and negative inward, ``angle0`` is the polar angle of the
    start (degrees) and ``direction`` the way it turns. ``r2`` is the fit's coefficient of
    determination, ``turns`` the laps drawn and ``rms`` the root mean square of the fit's
    :meth:`residuals` (all 0 for a model made from named geometry).

    Examples
    --------
    >>> truth = SpiralModel((25, 25), 2.0, 6 / (2 * np.pi), 0.0, "cw")
    >>> m = SpiralModel.from_estimate(truth.predict_xy(np.linspace(0, 6 * np.pi, 300)), (25, 25))
    >>> round(m.spacing, 6), round(m.r2, 6), round(m.turns, 6), m.direction
    (6.0, 1.0, 3.0, 'cw')
    """

    center: Point
    a: float
    b: float
    angle0: float = 0.0
    direction: str = "cw"
    r2: float = 0.0
    turns: float = 0.0
    rms: float = 0.0

    @property
    def spacing(self) -> float:
        """Distance between neighbouring laps, ``2π |b|``."""
        return float(2 * math.pi * abs(self.b))

    @classmethod
    def from_estimate(
        cls,
        points: ArrayLike,
        center: Point,
        *,
        min_radius: float = 1.5,
        angles: tuple[IntArray, FloatArray] | None = None,
        radii: FloatArray | None = None,
    ) -> SpiralModel | FitFailure:
        """Least-squares line through (θ, r), θ unwrapped along the drawing about a known ``center``.

        Points within ``min_radius`` of the center are left out: a cell next to the center has a
        polar angle but no meaningful one. ``angles`` is ``unwrapped_angles(points, center,
        min_radius=min_radius)`` and ``radii`` ``radii_about(points, center)`` when the caller has
        them already.
        """
        pts = as_points(points)
        idx, theta = angles if angles is not None else unwrapped_angles(pts, center, min_radius=min_radius)
        if idx.size < 5:
            return FitFailure("fewer than 5 points away from the center")
        total = float(theta[-1])
        if abs(total) < 1e-9:
            return FitFailure("the points do not turn about the center")
        sign = 1.0 if total > 0 else -1.0
        th = theta if sign > 0 else theta * sign  # (× 1.0 is every value as it is)
        r = (radii if radii is not None else radii_about(pts, center))[idx]
        # a line fit in (θ, r); centring θ keeps it well conditioned for many laps
        # (np.add.reduce is what np.sum calls, mean_of what .mean() computes: without their wrappers)
        tm, rm = mean_of(th), mean_of(r)
        dth, dr = th - tm, r - rm
        var = float(np.add.reduce(dth**2))
        if var == 0.0:
            return FitFailure("the points do not turn about the center")
        b = float(np.add.reduce(dth * dr) / var)
        a = rm - b * tm
        # (the residuals :meth:`residuals` gives: a sign of ±1 multiplies exactly, so b·(θ·sign)
        # is (b·θ)·sign)
        res = r - (a + b * th)
        sst = float(np.add.reduce(dr**2))
        squares = np.add.reduce(res * res)
        r2 = 1.0 - float(squares) / sst if sst > 0 else 0.0
        # (the root of their mean, as np.sqrt(mean_of(res ** 2)): ``** 2`` squares as ``res * res``,
        # and math.sqrt is the same correctly rounded root)
        rms = math.sqrt(float(squares) / len(res))
        x0, y0 = pts[idx[0]].tolist()
        angle0 = math.degrees(math.atan2(y0 - float(center[1]), x0 - float(center[0]))) % 360.0
        return cls(
            center=(float(center[0]), float(center[1])),
            a=float(a),
            b=b,
            angle0=angle0,
            direction="cw" if sign > 0 else "ccw",
            r2=float(r2),
            turns=abs(total) / (2 * math.pi),
            rms=rms,
        )

    def predict_xy(self, theta: ArrayLike) -> FloatArray:
        """Points after turning ``theta`` radians from the start, shape (len(theta), 2)."""
        th = np.asarray(theta, dtype=float)
        sign = 1.0 if self.direction == "cw" else -1.0
        r = self.a + self.b * th
        phi = math.radians(self.angle0) + sign * th
        return np.column_stack([self.center[0] + r * np.cos(phi), self.center[1] + r * np.sin(phi)])

    def residuals(
        self,
        points: ArrayLike,
        *,
        min_radius: float = 1.5,
        angles: tuple[IntArray, FloatArray] | None = None,
        radii: FloatArray | None = None,
    ) -> FloatArray:
        """Radial residual ``r − (a + bθ)`` of the points away from the center, shape (K,);
        ``angles`` and ``radii`` as for :meth:`from_estimate` (about this model's center)."""
        pts = as_points(points)
        idx, theta = angles if angles is not None else unwrapped_angles(pts, self.center, min_radius=min_radius)
        sign = 1.0 if self.direction == "cw" else -1.0
        r = (radii if radii is not None else radii_about(pts, self.center))[idx]
        res: FloatArray = r - (self.a + self.b * theta * sign)
        return res

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


def lap_error(
    radii: FloatArray, used: IntArray, theta: FloatArray, spacing: float, turns: float, inward: bool
) -> float:
    """Laps drawn against laps asked, read where the count is sharpest: the first lap.

    From a point at radius r a fair spiral has ``turns − r / spacing`` laps left to its outer end.
    The points of the innermost lap (outside the center's few cells, whose angle means little) each
    compare that with the laps the drawing really sweeps from them to its outer end; the mean of
    those differences is the error. A spiral with a quarter lap too many or too few between the
    same two ends is off by nearly a quarter there, while a cell's half-cell rounding of r
    averages out over the lap.
    """
    if not used.size:
        return float("inf")
    r = radii[used]
    first = r <= spacing
    if not np.logical_or.reduce(first):  # first.any()
        first = r <= r.min()
    at = first.nonzero()[0]  # (the innermost lap's points once, for both their angles and radii)
    # outward the outer end is the last counted point, inward the first
    swept = np.abs(theta[at] - (theta[-1] if not inward else theta[0])) / (2 * math.pi)
    return mean_of(swept - (turns - r[at] / spacing))


def linear_quantile(values: FloatArray, q: float) -> float:
    """``float(np.quantile(values, q))`` of a non-empty 1-D float array, ``0 ≤ q ≤ 1``, the same float
    without np.quantile's machinery: numpy's default (linear) method step by step — the order
    statistics either side of the virtual index ``(n − 1) q`` (both the last at or past it, where
    numpy's weight is then measured from index −1), joined as numpy's ``_lerp`` joins them; NaN
    when a value is NaN."""
    n = len(values)
    s = values.copy()  # np.sort(values): a sorted copy
    s.sort()
    virtual = (n - 1) * q
    if virtual >= n - 1:
        lo = hi = n - 1
        gamma = virtual - -1  # numpy's weight: the virtual index less the stored index, −1
    else:
        lo = math.floor(virtual)
        hi = lo + 1
        gamma = virtual - lo
    if math.isnan(s[-1]):
        return math.nan
    a, b = float(s[lo]), float(s[hi])
    diff = b - a
    return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma
