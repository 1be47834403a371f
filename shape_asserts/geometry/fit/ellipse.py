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
        return cls._estimate(points)

    @classmethod
    def fit_with_radial(cls, points: ArrayLike) -> tuple[EllipseModel | FitFailure, tuple[FloatArray, FloatArray]]:
        """:meth:`from_estimate` and the fit's :meth:`radial` of the points (empty for a failure).

        (The radial is measured at the fit: the polish's distances are the same expression in
        another order of arithmetic, equal to ~1e-15, not bit for bit.)"""
        pts = as_points(points)
        model = cls._estimate(pts)
        return model, model.radial(pts) if model else (np.zeros(0), np.zeros(0))

    @classmethod
    def _estimate(cls, points: ArrayLike) -> EllipseModel | FitFailure:
        """:meth:`from_estimate`."""
        pts = as_points(points)
        if _distinct_rows(pts, enough=5) < 5:
            return FitFailure("fewer than 5 distinct points")
        # centre and scale first: the scatter matrix of raw grid coordinates (up to 49⁴) is badly
        # conditioned, of unit-scale ones it is not
        # (np.add.reduce(...) / n is what np.mean computes, without its wrapper; a row's squares by one +)
        n = len(pts)
        mean = np.add.reduce(pts, axis=0) / n
        u = pts - mean
        sq = u * u
        scale = float(np.sqrt(np.add.reduce(sq[:, 0] + sq[:, 1]) / n))
        if not math.isfinite(scale) or scale == 0.0:
            return FitFailure("points have no spread")
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
            return FitFailure("points are collinear")
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
            return FitFailure("no ellipse fits the points")
        a1 = vecs[:, ok[0]]
        # Python floats from here: + − × ÷ on them are numpy's scalar operations, bit for bit
        A, B, C = v0[ok[0]], v1[ok[0]], v2[ok[0]]
        D, E, F = (t @ a1).tolist()
        det = 4 * A * C - B * B
        if det <= 0:
            return FitFailure("no ellipse fits the points")
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
            return FitFailure("the fitted conic is not a real ellipse")
        axes = [math.sqrt(x) * scale for x in axes2]
        major = 0 if axes[0] >= axes[1] else 1
        vx, vy = vec[:, major].tolist()
        rot = math.degrees(math.atan2(vy, vx)) % 180.0
        mx, my = mean.tolist()
        first = cls(center=(x0 * scale + mx, y0 * scale + my), a=axes[major], b=axes[1 - major], rotation=rot)
        # a nearly round fit has no axis to polish (its turn is free, so the steps wander): the
        # algebraic fit's bias only matters for elongated ellipses
        return first._polished(pts) if first.a > 1.15 * first.b else first

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
        return self._polished(pts, rounds)

    def _polished(self, pts: FloatArray, rounds: int = 30) -> EllipseModel:
        """:meth:`_refined` (see there for the stopping rule).

        Each step is measured in one batch (:func:`_batch`: the trial's normal distances and its five
        nudged sets', one matrix product for all six, and their Gram matrix) and solved from the
        normal equations (:func:`_gauss_newton_step`), where the polish before took a hypot per
        distance and a least-squares SVD per step: the same Gauss–Newton steps to ~1e-10 of a cell.
        It works in units of the start's minor semi-axis, about the start's center (numbers of
        order one whatever the drawing's size or place); a start no step improves is returned as is.
        """
        x0, y0 = self.center
        unit = self.b
        n = len(pts)
        p = np.empty((3, n))
        np.subtract(pts[:, 0], x0, out=p[0])
        np.subtract(pts[:, 1], y0, out=p[1])
        p[:2] /= unit
        p[2] = 1.0
        steps = [_STEP_LIST[0] / unit, _STEP_LIST[1] / unit, _STEP_LIST[2] / unit, _STEP_LIST[3] / unit, _STEP_LIST[4]]
        q: tuple[float, ...] = (0.0, 0.0, self.a / unit, 1.0, self.rotation)
        taken = False
        with np.errstate(all="ignore"):  # (a wild trial's overflow is refused as not finite)
            first = _batch(p, q, steps)
            if first is None:
                return self
            at, best = first
            floor = n * (_FLOOR * self.a / unit) ** 2  # (the least error the rule's line is drawn from)
            # whether the next step will likely be taken: its Jacobian then comes with its error
            # (after a step that gained less than 1e-8 of the error, the next mostly gains too little)
            going = True
            for _ in range(rounds):
                if at is None:
                    at = _batch(p, q, steps)[0]  # type: ignore[index]  # (q was measured: its semi-axes are > 0)
                step = _gauss_newton_step(at, steps)
                if step is None:
                    break
                trial = tuple(x + d for x, d in zip(q, step))
                measured = _batch(p, trial, steps if going else None)
                if measured is None:
                    break
                at, total = measured
                gain = best - total
                if not (math.isfinite(total) and gain > _MIN_GAIN * max(best, floor)):
                    break  # (a NaN gain is no gain)
                going = gain > 1e-8 * best
                q, best, taken = trial, total, True
        if not taken:
            return self
        cx, cy, a, b, rot = q
        cx, cy, a, b = x0 + cx * unit, y0 + cy * unit, a * unit, b * unit
        if b > a:  # the axes swapped roles while polishing: keep a the major one
            a, b, rot = b, a, rot + 90.0
        return EllipseModel((cx, cy), a, b, rot % 180.0)

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


#: The Gauss–Newton polish's forward-difference steps (center, semi-axes in cells, rotation in
#: degrees) and the five nudged parameter sets they make, one per row (a row of ``eye * steps`` is
#: what one nudge adds: the separate calls' form, see _cost): the same for every fit, made once.
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


# The polish's error and Jacobian by separate calls, as it measured them before its batch
# (_batch): the reference the tests check the batch's polish against (tests/unit/
# test_ellipse_polish.py, test_ellipse_shortcuts.py), not called by the fit itself.


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


def _batch(p: FloatArray, q: tuple[float, ...], steps: list[float] | None) -> tuple[Any, float] | None:
    """The polish's error at the parameter set ``q`` (center, semi-axes in the units of the points
    ``p``, rotation in degrees), and with ``steps`` what :func:`_gauss_newton_step` needs: ``None``
    for a semi-axis ≤ 0 (or NaN), else ``(at, cost)``: ``cost`` the sum of the squared normal
    distances, ``at`` (``None`` without ``steps``) the rows ``(6, N)`` of the five sets nudged by
    ``steps`` (one parameter each) less ``q``'s distances, then ``q``'s, their Gram matrix and
    whether it is finite.

    ``p`` is ``(3, N)``: the points' x and y and ones. A set's rows u/a, v/b, u/a² and v/b² are one
    product of ``p`` with their coefficients, all sets' at once; the normal distance of
    :meth:`EllipseModel.radial`, ``(ρ − 1)·ρ / |∇(ρ²/2)|``, is then ``(ρ² − ρ) / √((u/a²)² +
    (v/b²)²)``: squares and roots (a hypot costs ten times a product) of numbers of order one in
    the polish's units. A point on a set's center has no normal: it lies a minor semi-axis inside
    (the first sum that is not finite sends the batch through the where()s)."""
    cx, cy, a, b, rot = q
    if not (a > 0 and b > 0):
        return None
    r = math.radians(rot)
    c, s = math.cos(r), math.sin(r)
    if steps is None:
        sets = [(cx, cy, a, b, c, s)]
    else:
        hx, hy, ha, hb, hr = steps
        r = math.radians(rot + hr)
        sets = [
            (cx + hx, cy, a, b, c, s),
            (cx, cy + hy, a, b, c, s),
            (cx, cy, a + ha, b, c, s),
            (cx, cy, a, b + hb, c, s),
            (cx, cy, a, b, math.cos(r), math.sin(r)),
            (cx, cy, a, b, c, s),
        ]
    k = len(sets)
    ua: list[float] = []
    vb: list[float] = []
    ua2: list[float] = []
    vb2: list[float] = []
    for x, y, sa, sb, co, si in sets:
        ia, ib = 1.0 / sa, 1.0 / sb
        row_u = (co * ia, si * ia, -(co * x + si * y) * ia)
        row_v = (-si * ib, co * ib, -(co * y - si * x) * ib)
        ua += row_u
        vb += row_v
        ua2 += (row_u[0] * ia, row_u[1] * ia, row_u[2] * ia)
        vb2 += (row_v[0] * ib, row_v[1] * ib, row_v[2] * ib)
    sq = np.array(ua + ua2 + vb + vb2).reshape(4 * k, 3) @ p  # (4k, N): u/a, u/a², v/b, v/b²
    sq *= sq
    both = sq[: 2 * k]
    both += sq[2 * k :]  # ρ², then |∇(ρ²/2)|²: one add and one root for both
    roots = np.sqrt(both)
    res: FloatArray = both[:k] - roots[:k]
    res /= roots[k:]
    rho2, g2 = both[:k], both[k:]
    if steps is None:
        e = res[0]
        cost = float(e @ e)
        if not math.isfinite(cost):
            e = _on_center(rho2, g2, [b])[0]
            cost = float(e @ e)
        return None, cost
    res[:5] -= res[5]
    gram = res @ res.T
    # (each diagonal entry is a row's sum of squares: all are finite iff their sum is, and then so
    # is the rest of the matrix)
    finite = math.isfinite(gram.trace())
    if not finite:
        res = _on_center(rho2, g2, [sb for _, _, _, sb, _, _ in sets])
        res[:5] -= res[5]
        gram = res @ res.T
        finite = math.isfinite(gram.trace())
    return (res, gram, finite), float(gram[5, 5])


def _on_center(rho2: FloatArray, g2: FloatArray, b: list[float]) -> FloatArray:
    """:func:`_batch`'s distances where a point may lie on a set's center (``g2`` 0): there the
    minor semi-axis inside, as :meth:`EllipseModel.radial` says."""
    bcol = np.array(b)[:, None]
    res: FloatArray = np.where(g2 > 0, (rho2 - np.sqrt(rho2)) / np.sqrt(np.where(g2 > 0, g2, 1.0)), -bcol)
    return res


def _gauss_newton_step(at: Any, steps: list[float]) -> list[float] | None:
    """The Gauss–Newton step from :func:`_batch`'s rows and Gram matrix, ``None`` when the Jacobian
    or the error is not finite.

    The normal equations of the forward-difference Jacobian ``J = Dᵀ / steps`` (``D`` the nudges'
    differences, ``e`` the error): ``(D Dᵀ) w = −D e``, ``δ = w · steps``, solved by LU (a 5 × 5
    solve, a fifth of a least-squares SVD of the (N, 5) Jacobian). They square ``J``'s condition,
    whose columns are all of order one (distances per unit of a center or semi-axis, per degree of
    an ellipse with a > 1.15 b): ~1e-12 of a step, below the Jacobian's own rounding (~1e-10). A
    singular system takes the least-squares solution (:func:`lstsq`) instead."""
    rows, gram, finite = at
    if not finite:
        return None
    try:
        w = solve(gram[:5, :5], gram[:5, 5:])
    except np.linalg.LinAlgError:
        w = None
    if w is not None:
        step = [-v * h for v, h in zip(w[:, 0].tolist(), steps)]
        if math.isfinite(sum(step)):
            return step
    jac: FloatArray = (rows[:5] / np.array(steps)[:, None]).T
    delta: list[float] = lstsq(jac, -rows[5]).tolist()
    return delta
