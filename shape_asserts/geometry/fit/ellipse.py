"""The ellipse as a fitted model: a direct least-squares fit, polished on the geometric error.

See :mod:`shape_asserts.geometry.fit.base` for the contract every model keeps. Angles follow the
seed post: degrees, 0° pointing right and growing clockwise on screen (y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.distances import distance_to_polyline
from shape_asserts.geometry.fit.base import FitFailure, eig_vectors, eigh, lstsq, matrix_rank, solve
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.samples import ellipse_xy

__all__ = ["EllipseModel", "axis_angle_difference"]

_Known = tuple[FloatArray, FloatArray] | None  # the polish's rows u/a, v/b and normal distances at its fit


def axis_angle_difference(a: float, b: float) -> float:
    """Smallest difference between two axis directions in degrees (an axis has no sign), in [0, 90]."""
    d = abs(a - b) % 180.0
    return float(min(d, 180.0 - d))


@dataclass(frozen=True)
class EllipseModel:
    """An ellipse: ``center``, semi-axes ``a ≥ b`` and ``rotation`` of the ``a`` axis in [0, 180).

    Examples
    --------
    >>> truth = EllipseModel((25, 25), 20, 10, 30)
    >>> m = EllipseModel.from_estimate(truth.predict_xy(np.linspace(0, 6.2, 60)))
    >>> [round(float(v), 6) for v in (*m.center, m.a, m.b, m.rotation)]
    [25.0, 25.0, 20.0, 10.0, 30.0]
    """

    center: Point
    a: float
    b: float
    rotation: float = 0.0

    @classmethod
    def from_estimate(cls, points: ArrayLike) -> EllipseModel | FitFailure:
        """Direct least-squares ellipse fit (Fitzgibbon, Pilu & Fisher 1999; Halíř & Flusser 1998).

        The conic is constrained to be an ellipse (``4AC − B² > 0``), so it never returns a
        hyperbola; the numerically stable split of the scatter matrix is used.

        Parameters
        ----------
        points : ndarray, shape (N, 2)

        Returns
        -------
        EllipseModel, or a falsy FitFailure for fewer than 5 distinct points, collinear points or
        no ellipse solution.
        """
        return cls._estimate(points)[0]

    @classmethod
    def fit_with_radial(cls, points: ArrayLike) -> tuple[EllipseModel | FitFailure, tuple[FloatArray, FloatArray]]:
        """:meth:`from_estimate` and the fit's :meth:`radial` of the points (empty for a failure): the
        same arrays, from the polish's last step where it measured them at the fit, else measured."""
        pts = as_points(points)
        model, known = cls._estimate(pts)
        if not model or known is None:
            return model, model.radial(pts) if model else (np.zeros(0), np.zeros(0))
        (ua, vb), normal = known
        return model, (np.arctan2(vb, ua), normal)

    @classmethod
    def _estimate(cls, points: ArrayLike) -> tuple[EllipseModel | FitFailure, _Known]:
        """:meth:`from_estimate`, and what :meth:`_polished` knows of its radial (else None)."""
        pts = as_points(points)
        if _distinct_rows(pts, enough=5) < 5:
            return FitFailure("fewer than 5 distinct points"), None
        # centre and scale first: the scatter matrix of raw grid coordinates (up to 49⁴) is badly
        # conditioned, of unit-scale ones it is not
        # (np.add.reduce(...) / n is what np.mean computes, without its wrapper; a row's squares by one +)
        n = len(pts)
        mean = np.add.reduce(pts, axis=0) / n
        u = pts - mean
        sq = u * u
        scale = float(np.sqrt(np.add.reduce(sq[:, 0] + sq[:, 1]) / n))
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread"), None
        # the design matrices [x², xy, y²] and [x, y, 1] filled in place: the C-ordered (N, 3)
        # arrays np.column_stack would build
        d1, d2 = np.empty((n, 3)), np.empty((n, 3))
        np.divide(u, scale, out=d2[:, :2])
        d2[:, 2] = 1.0
        x, y = d2[:, 0], d2[:, 1]
        np.multiply(x, x, out=d1[:, 0])
        np.multiply(x, y, out=d1[:, 1])
        np.multiply(y, y, out=d1[:, 2])
        s1, s2, s3 = d1.T @ d1, d1.T @ d2, d2.T @ d2
        # collinear points make the linear scatter singular: no conic through them is an ellipse
        if not _surely_full_rank(s3) and matrix_rank(s3) < 3:
            return FitFailure("points are collinear"), None
        t = -solve(s3, s2.T)
        m = s1 + s2 @ t
        m = np.array([m[2] / 2.0, -m[1], m[0] / 2.0])
        with np.errstate(all="ignore"):
            vecs = eig_vectors(m)
        # the first column with 4·v0·v2 − v1² > 0, in Python floats: the array expression's
        # products (an array's ** 2 is x·x, so v1·v1 here: a float's ** 2 is pow(x, 2))
        v0, v1, v2 = vecs.tolist()
        ok = [k for k in range(3) if 4 * v0[k] * v2[k] - v1[k] * v1[k] > 0]
        if not ok:
            return FitFailure("no ellipse fits the points"), None
        a1 = vecs[:, ok[0]]
        # Python floats from here: + − × ÷ on them are numpy's scalar operations, bit for bit
        A, B, C = v0[ok[0]], v1[ok[0]], v2[ok[0]]
        D, E, F = (t @ a1).tolist()
        det = 4 * A * C - B * B
        if det <= 0:
            return FitFailure("no ellipse fits the points"), None
        x0 = (B * E - 2 * C * D) / det
        y0 = (B * D - 2 * A * E) / det
        fc = A * x0 * x0 + B * x0 * y0 + C * y0 * y0 + D * x0 + E * y0 + F
        lam, vec = eigh(np.array([[A, B / 2], [B / 2, C]]))
        # -fc / λ, their square roots times the scale and the larger's index (np.argmax: the first
        # of equals) in Python floats: the same IEEE quotients and correctly rounded roots, and a
        # zero λ gives ±inf or NaN, as numpy's division did, instead of raising
        l1, l2 = lam.tolist()
        axes2 = [_quotient(-fc, l1), _quotient(-fc, l2)]
        if not all(math.isfinite(x) and x > 0 for x in axes2):
            return FitFailure("the fitted conic is not a real ellipse"), None
        axes = [math.sqrt(x) * scale for x in axes2]
        major = 0 if axes[0] >= axes[1] else 1
        vx, vy = vec[:, major].tolist()
        rot = math.degrees(math.atan2(vy, vx)) % 180.0
        mx, my = mean.tolist()
        first = cls(center=(x0 * scale + mx, y0 * scale + my), a=axes[major], b=axes[1 - major], rotation=rot)
        # a nearly round fit has no axis to polish (its turn is free, so the steps wander): the
        # algebraic fit's bias only matters for elongated ellipses
        return first._polished(pts) if first.a > 1.15 * first.b else (first, None)

    def _refined(self, pts: FloatArray, rounds: int = 30) -> EllipseModel:
        """The algebraic fit polished by Gauss–Newton on the normal distances of :meth:`radial`.

        The direct fit minimises an algebraic error that shrinks a thin ellipse's long axis (by 0.7
        cells for a 14 × 4 raster); a few steps on the geometric error remove that bias.

        The stopping rule: a step is taken only if it lowers the error (the sum of squared normal
        distances) by more than ``_MIN_GAIN`` (1e-10) of it, and the polish stops at the first step
        that does not (or after ``rounds``); an error below ``(_FLOOR · a)²`` a point (a thousandth
        of the start's major semi-axis) counts as that much. So the result is never worse than the
        start, and it is not decided by rounding. The error's rounding is ~1e-15 of it for a drawn
        raster (7e-15 at most between two orders of the same arithmetic over the validity
        catalogue's fits): 10⁴ times below the line. For a drawing that nearly fits an ellipse
        exactly, the rounding is a larger share of its tiny error (all of it, for an exact one):
        the floor keeps the line ~10³ times above it there too, and such a fit is polished to ~1e-8
        of its size. Listing the points in another order or reordering the arithmetic then moves a
        fit by ~1e-10 of a cell, not by a step. The price is that the polish stops a step short of
        the least-squares optimum, a step that would gain < 1e-10 of the error: over the validity
        catalogue at most 4e-5 cells and 1e-4° from where polishing to rounding stopped (slow,
        large-residual fits of impostors; a fair raster's ~1e-6), far below anything a check reads.
        """
        return self._polished(pts, rounds)[0]

    def _polished(self, pts: FloatArray, rounds: int = 30) -> tuple[EllipseModel, _Known]:
        """:meth:`_refined`, and its :meth:`radial`'s rows u/a, v/b and normal distances if measured at it."""
        params = np.array([*self.center, self.a, self.b, self.rotation], dtype=float)
        px, py = pts[:, 0], pts[:, 1]
        xy = np.array([px, py])[:, None, :]  # (2, 1, N): x and y against a column of parameter sets
        # each step's error comes with the Jacobian at it (one batch: see _cost_and_jacobian); the
        # Jacobian of a step not taken is not used
        err, jac, ab = _cost_and_jacobian(px, py, xy, params)
        best = float(np.add.reduce(err * err))
        floor = len(pts) * (_FLOOR * self.a) ** 2  # (the least error the rule's line is drawn from)
        # whether the next step will likely be taken: its Jacobian then comes with its error (after a
        # step that gained less than 1e-8 of the error, the next one mostly gains less than _MIN_GAIN)
        going = True
        for _ in range(rounds):
            if jac is None:  # (a batch that could not be made as the separate calls make it)
                jac = _jacobian(px, py, params + _NUDGES, err, _STEPS)
            if not np.logical_and.reduce(np.isfinite(jac), axis=None):  # np.isfinite(jac).all()
                break
            delta = lstsq(jac, -err)
            trial = params + delta
            new, jac, new_ab = _cost_and_jacobian(px, py, xy, trial) if going else (_cost(px, py, trial), None, None)
            total = float(np.add.reduce(new * new))
            gain = best - total
            if not (math.isfinite(total) and gain > _MIN_GAIN * max(best, floor)):
                break  # (a NaN gain is no gain)
            going = gain > 1e-8 * best
            params, err, best, ab = trial, new, total, new_ab
        cx, cy, a, b, rot = params.tolist()  # (Python floats: the same >, + and % as on numpy's scalars)
        if b > a:  # the axes swapped roles while polishing: keep a the major one
            a, b, rot, ab = b, a, rot + 90.0, None
        turned = rot % 180.0
        if turned != rot or math.copysign(1.0, turned) != math.copysign(1.0, rot):
            ab = None  # radial's cosine and sine are the turn's within [0, 180)
        return EllipseModel((cx, cy), a, b, turned), (None if ab is None else (ab, err))

    def predict_xy(self, t: ArrayLike) -> FloatArray:
        """Points at parameters ``t`` (radians, growing clockwise on screen), shape (len(t), 2)."""
        return ellipse_xy(self.center, self.a, self.b, self.rotation, t)

    def residuals(self, points: ArrayLike, samples: int = 720) -> FloatArray:
        """Distance of each point from the ellipse (to ``samples`` chords of it), shape (N,)."""
        curve = self.predict_xy(np.linspace(0, 2 * math.pi, samples, endpoint=False))
        return distance_to_polyline(points, curve, closed=True)

    def radial(self, points: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Eccentric angle (radians) and signed distance (cells) of each point from the ellipse, (N,).

        The distance is the first-order normal distance ``(ρ − 1) / |∇ρ|`` of the normalised radius
        ``ρ = √((u/a)² + (v/b)²)``: positive outside, negative inside, exact on the axes.
        """
        pts = as_points(points)
        c, s = math.cos(math.radians(self.rotation)), math.sin(math.radians(self.rotation))
        dx, dy = pts[:, 0] - self.center[0], pts[:, 1] - self.center[1]
        u, v = dx * c + dy * s, dy * c - dx * s  # (v = -dx·s + dy·c: see _normal_distance)
        ua, vb = u / self.a, v / self.b
        rho = np.hypot(ua, vb)
        grad = np.hypot(u / self.a**2, v / self.b**2)
        with np.errstate(divide="ignore", invalid="ignore"):
            if (
                np.minimum.reduce(grad, axis=None) > 0
            ):  # (grad > 0).all(): see _normal_distance  # no point on the center (the usual case): what the where()s pick
                res = (rho - 1.0) * rho / grad
            else:  # the center itself has no normal: it lies a minor semi-axis inside
                res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -self.b)
        return np.arctan2(vb, ua), res

    def evenness(self, points: ArrayLike) -> float:
        """The seed's roundness idea for an ellipse: ``(1 − mean |residual| / mean semi-axis) × 100``.

        The residual is the normal distance of :meth:`radial` (analytic, so the score does not
        depend on where a sampled outline would start: a round "ellipse" has no axis to start from).
        """
        pts = as_points(points)
        if len(pts) == 0:
            return 0.0
        return self.evenness_of(self.radial(pts)[1])

    def evenness_of(self, residuals: FloatArray) -> float:
        """:meth:`evenness` from the points' normal distances (:meth:`radial`), at least one."""
        mean = float(np.add.reduce(np.abs(residuals)) / len(residuals))  # np.mean, without its wrapper
        score = (1.0 - mean / ((self.a + self.b) / 2.0)) * 100.0
        return float(min(100.0, max(0.0, score)))

    def __bool__(self) -> Literal[True]:
        """A model is a fit that worked: always true (a :class:`FitFailure` is false)."""
        return True


#: The Gauss–Newton polish's forward-difference steps (center, semi-axes, rotation) and the five
#: nudged parameter sets they make, one per row (a row of ``eye * steps`` is what one nudge adds,
#: measured in one broadcast call): the same for every fit, made once.
_STEPS = np.array([1e-4, 1e-4, 1e-4, 1e-4, 1e-3])
_NUDGES = np.eye(5) * _STEPS[:, None]
_STEPS.flags.writeable = False
_NUDGES.flags.writeable = False
_STEP_LIST = _STEPS.tolist()  # (Python floats: the same values)

#: The least share of the error a polish step must remove to be taken (the stopping rule of
#: EllipseModel._refined: well above the error's rounding, ~1e-15 of it).
_MIN_GAIN = 1e-10
#: The least RMS normal distance, in major semi-axes, the stopping rule measures the error from.
_FLOOR = 1e-3


def _quotient(x: float, y: float) -> float:
    """``x / y`` where only whether it is a finite positive number is asked: numpy's division gave
    ±inf or NaN for a zero ``y`` (neither is), Python's would raise."""
    return x / y if y != 0.0 else math.nan


def _surely_full_rank(s: FloatArray) -> bool:
    """Whether the symmetric positive semi-definite 3×3 ``s`` (a scatter matrix) has rank 3 by a
    wide margin, so that :func:`matrix_rank` would say 3: its determinant at least ``1e-6``
    times its trace cubed. The least eigenvalue is then at least ``det / trace²``, a millionth
    of the largest, where ``matrix_rank`` draws its line at ``3 × eps`` of it (the determinant's
    rounding, a few eps of ``trace³``, and the SVD's, a few eps of the largest, cannot cross that
    gap). Anything else (near-collinear points, NaN) is left to ``matrix_rank``."""
    (a, b, c), (_, e, f), (_, _, i) = s.tolist()  # (symmetric: the upper triangle)
    det = a * (e * i - f * f) - b * (b * i - f * c) + c * (b * f - e * c)
    trace = a + e + i
    return bool(trace > 0 and det >= 1e-6 * trace * trace * trace)


def _distinct_rows(pts: FloatArray, enough: int | None = None) -> int:
    """``len(np.unique(pts, axis=0))``: for finite points a set of tuples (equal floats, ``-0.0``
    and ``0.0`` among them, are one point either way), else numpy's count.

    With ``enough``, a count of at least ``enough`` may be returned as soon as the first few rows
    show that many distinct finite points (the whole count can only be larger)."""
    if enough is not None:
        head = {(x, y) for x, y in pts[: 2 * enough].tolist() if math.isfinite(x) and math.isfinite(y)}
        if len(head) >= enough:
            return len(head)
    if np.isfinite(pts).all():
        return len(set(zip(pts[:, 0].tolist(), pts[:, 1].tolist())))
    return len(np.unique(pts, axis=0))


def _normal_distance(
    px: FloatArray, py: FloatArray, cx: Any, cy: Any, a: Any, b: Any, rotation: float, trig: Any = None
) -> FloatArray:
    """The signed normal distance of :meth:`EllipseModel.radial` (the same expression, without the
    angles), for one ellipse (scalars) or several (columns ``(K, 1)`` against points ``(N,)``, with
    ``trig`` their rotation's cosines, sines and the squared semi-axes, each taken as for one)."""
    if trig is None:
        c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
        a2, b2 = a**2, b**2
    else:
        c, s, a2, b2 = trig
    dx, dy = px - cx, py - cy
    # v = -dx·s + dy·c, written dy·c - dx·s: negating is exact and x + (-y) is x - y, one array fewer
    u, v = dx * c + dy * s, dy * c - dx * s
    rho = np.hypot(u / a, v / b)
    grad = np.hypot(u / a2, v / b2)
    # no point on the center (the usual case): the where()s below pick the first. (A hypot is ≥ 0,
    # so its least one says whether all are > 0; a NaN makes it NaN, as it made all() false.)
    if np.minimum.reduce(grad, axis=None) > 0:
        res: FloatArray = rho - 1.0  # (rho − 1) · rho / grad, in place
        res *= rho
        res /= grad
        return res
    with np.errstate(divide="ignore", invalid="ignore"):
        res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -b)
    return res


def _cost(px: FloatArray, py: FloatArray, q: FloatArray) -> FloatArray:
    """The polish's error at the parameters ``q`` (an array): the normal distances, ``inf`` for a
    semi-axis ≤ 0."""
    if q[2] <= 0 or q[3] <= 0:
        return np.full(len(px), np.inf)
    return _normal_distance(px, py, q[0], q[1], q[2], q[3], q[4])


def _cost_and_jacobian(px: FloatArray, py: FloatArray, xy: FloatArray, q: FloatArray) -> tuple[FloatArray, Any, Any]:
    """``_cost(px, py, q)``, ``_jacobian`` at ``q`` and ``q``'s rows u/a, v/b (``None`` where left to
    the separate calls), from one batch of six parameter sets: ``q`` and its five nudges, rows ``(6, N)``.

    Each element is the same IEEE expression on the same values as in the separate calls (``q``'s
    square a numpy scalar's power and the nudges' Python's, both C ``pow``; cosines and sines by
    :mod:`math`), the rows' where()s pick per element what each call picked, and a row of a C-ordered
    array sums as the same array alone would. Where a separate call would differ (a semi-axis ≤ 0
    among the sets, a square overflowing Python's power) the separate calls are made instead.
    """
    x0, y0, a0, b0, rot0 = q.tolist()
    if a0 <= 0 or b0 <= 0:
        return _cost(px, py, q), None, None
    # the five nudged sets, (q + _NUDGES).tolist() written out: q's values plus 0.0 (a -0.0 made 0.0)
    # but the one nudged, plus its step (semi-axes > 0 or NaN as q's: none ≤ 0); each set's own
    # cosine, sine and squares, shared by the four sets not turned
    cx, cy, a, b, rot = x0 + 0.0, y0 + 0.0, a0 + 0.0, b0 + 0.0, rot0 + 0.0
    an, bn = a0 + _STEP_LIST[2], b0 + _STEP_LIST[3]
    r0, r, rn = math.radians(rot0), math.radians(rot), math.radians(rot0 + _STEP_LIST[4])
    c0, s0, c, s, cn, sn = math.cos(r0), math.sin(r0), math.cos(r), math.sin(r), math.cos(rn), math.sin(rn)
    try:
        a2, b2, a2n, b2n = a**2, b**2, an**2, bn**2
    except OverflowError:  # (Python's power raises where numpy's gives inf: _jacobian raises it if asked)
        return _cost(px, py, q), None, None
    # columns x, y, (c, c), (s, −s), (a, b), (a², b²) of q's set (numpy's squares, as _cost's) and the five
    k = np.array(
        (x0, x0 + _STEP_LIST[0], cx, cx, cx, cx, y0, cy, y0 + _STEP_LIST[1], cy, cy, cy)
        + (c0, c, c, c, c, cn) * 2
        + (s0, s, s, s, s, sn, -s0, -s, -s, -s, -s, -sn)
        + (a0, a, a, an, a, a, b0, b, b, b, bn, b)
        + (q[2] ** 2, a2, a2, a2n, a2, a2, q[3] ** 2, b2, b2, b2, b2n, b2)
    ).reshape(10, 6, 1)
    d = xy - k[0:2]  # (2, 6, N): dx, dy
    uv = d * k[2:4]
    uv += d[::-1] * k[4:6]  # u = dx·c + dy·s, v = dy·c + dx·(−s): dy·c − dx·s exactly
    q_ab = uv / k[6:8]
    rho = np.hypot(q_ab[0], q_ab[1])
    np.divide(uv, k[8:10], out=uv)
    grad = np.hypot(uv[0], uv[1])
    if np.minimum.reduce(grad, axis=None) > 0:  # (see _normal_distance)
        res: FloatArray = rho - 1.0
        res *= rho
        res /= grad
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = np.where(grad > 0, (rho - 1.0) * rho / np.where(grad > 0, grad, 1.0), -k[7])
    jac: FloatArray = ((res[1:] - res[0]) / _STEPS[:, None]).T
    return res[0], jac, q_ab[:, 0]


def _jacobian(px: FloatArray, py: FloatArray, rows: FloatArray, err: FloatArray, steps: FloatArray) -> FloatArray:
    """Forward differences of the normal distance, one column per parameter, shape (N, 5), from
    the five nudged parameter sets in ``rows``; a set with a semi-axis ≤ 0 costs ``inf``."""
    listed = rows.tolist()  # Python floats: the same comparisons, radians and squares (pow(x, 2))
    if any(q[2] <= 0 or q[3] <= 0 for q in listed):
        d = np.full((5, len(px)), np.inf)
        for i, q in enumerate(rows):
            if q[2] > 0 and q[3] > 0:
                d[i] = _normal_distance(px, py, q[0], q[1], q[2], q[3], q[4])
    else:
        # each row's cosine, sine and squares as for one ellipse: numpy's cosine and an array's
        # square (x·x) may differ in the last bit from math's and a scalar's power (pow(x, 2))
        rads = [math.radians(q[4]) for q in listed]
        # the four columns (K, 1) in one array: cosines, sines, squared semi-axes
        trig = np.array(
            [
                [math.cos(r) for r in rads],
                [math.sin(r) for r in rads],
                [q[2] ** 2 for q in listed],
                [q[3] ** 2 for q in listed],
            ]
        )[:, :, None]
        d = _normal_distance(px, py, rows[:, 0:1], rows[:, 1:2], rows[:, 2:3], rows[:, 3:4], 0.0, tuple(trig))
    # (N, 5) as a transposed view: the least-squares kernel copies it into its own layout either way
    jac: FloatArray = ((d - err) / steps[:, None]).T
    return jac
