"""The one way a scorer builds its checks: a :class:`Scorecard` filled while measuring.

A family's scorer makes a card, adds its own checks with :meth:`Scorecard.add` and the checks every
drawn path is held to with the builders — :meth:`~Scorecard.continuity` (gaps, repeats),
:meth:`~Scorecard.bounds`, :meth:`~Scorecard.endpoint` (start, end), :meth:`~Scorecard.closure`,
:meth:`~Scorecard.turning` (direction, winding), :meth:`~Scorecard.harmonics` — and turns it into a
:class:`~shape_asserts.geometry.score.ShapeScore` with :meth:`~Scorecard.result`. The builders
write each check's value, limit, message and point indices, its metrics and its marks the same way
for every family.

Examples
--------
>>> import numpy as np
>>> card = Scorecard()
>>> pts = np.array([[0, 0], [1, 0], [1, 0], [4, 0]])
>>> _ = card.continuity(pts, max_gaps=0, max_repeats=0)
>>> _ = card.bounds(pts, grid_size=4)
>>> for check in card.result("line", 50.0).failed:
...     print(check.describe())
gaps: 1 (limit ≤ 0) — largest step 3 cells at point #2
repeats: 1 (limit ≤ 0) — consecutive identical points at point #1
bounds: 1 (limit 0 outside) — outside 0..3 at point #3
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry import checks as ck
from shape_asserts.geometry.distances import point_chebyshev
from shape_asserts.geometry.fit.circle import HARMONIC_ORDERS, radial_harmonics
from shape_asserts.geometry.points import FloatArray, Point, as_points
from shape_asserts.geometry.score import Check, ShapeScore, fmt_fixed, fmt_point, fmt_value

__all__ = ["Scorecard"]


def _repeats(symmetry: int) -> list[bool]:
    """Which of the harmonic orders are multiples of ``symmetry`` (where a fair raster ripples)."""
    return [k % symmetry == 0 for k in range(HARMONIC_ORDERS[0], HARMONIC_ORDERS[1] + 1)]


class Scorecard:
    """Checks, metrics and marks collected while scoring, turned into a :class:`ShapeScore`."""

    def __init__(self) -> None:
        self.checks: list[Check] = []
        self.metrics: dict[str, Any] = {}
        self.marks: dict[str, tuple[int, ...]] = {}

    def add(
        self,
        name: str,
        passed: bool | np.bool_,
        value: Any,
        limit: str,
        detail: str = "",
        indices: Sequence[int] = (),
        margin: float | None = None,
        *,
        note: str = "",
    ) -> Check:
        """Add one check; ``detail`` says what went wrong and is kept only when it fails, ``note``
        says what the value is measured against and is kept either way."""
        check = Check(
            name=name,
            passed=bool(passed),
            value=value,
            limit=limit,
            detail=note or (detail if not passed else ""),
            indices=tuple(int(i) for i in indices),
            explicit_margin=margin,
        )
        self.checks.append(check)
        return check

    def result(self, family: str, score: float) -> ShapeScore:
        """The collected checks, metrics and marks as the family's :class:`ShapeScore`."""
        return ShapeScore(
            family=family,
            score=float(score),
            metrics=dict(self.metrics),
            checks=tuple(self.checks),
            marks=dict(self.marks),
        )

    # --- what every drawn path is held to ---------------------------------------------------------

    def continuity(self, points: ArrayLike, *, max_gaps: int, max_repeats: int) -> ck.Continuity:
        """``gaps`` (steps longer than one cell) and ``repeats`` (a point written twice in a row)."""
        cont = ck.continuity(points)
        self.metrics.update(gaps=len(cont.gaps), repeats=len(cont.repeats), max_step=cont.max_step)
        gaps_ok = len(cont.gaps) <= max_gaps
        self.add(
            "gaps",
            gaps_ok,
            len(cont.gaps),
            f"≤ {max_gaps}",
            "" if gaps_ok else f"largest step {fmt_value(cont.max_step)} cells",  # (kept only when failing)
            cont.gaps,
        )
        self.add(
            "repeats",
            len(cont.repeats) <= max_repeats,
            len(cont.repeats),
            f"≤ {max_repeats}",
            "consecutive identical points",
            cont.repeats,
        )
        self.marks.update(gaps=cont.gaps, repeats=cont.repeats)
        return cont

    def bounds(self, points: ArrayLike, grid_size: int) -> tuple[int, ...]:
        """``bounds``: every point on the grid; the outside ones are marked."""
        oob = ck.out_of_bounds(points, grid_size)
        # (the detail is kept only when the check fails)
        self.add("bounds", not oob, len(oob), "0 outside", f"outside 0..{grid_size - 1}" if oob else "", oob)
        self.marks["outside"] = oob
        return oob

    def endpoint(self, points: ArrayLike, asked: Point, limit: float, *, name: str = "start") -> float:
        """``start`` (or ``end``): the first (last) point within ``limit`` cells (Chebyshev) of ``asked``."""
        pts = as_points(points)
        first = name == "start"
        dist = point_chebyshev(pts[0 if first else -1].tolist(), asked) if len(pts) else float("inf")
        self.metrics[f"{name}_distance"] = dist
        near = dist <= limit
        if near:  # the detail is kept only when the check fails
            detail = ""
        else:
            drawn = (
                f"{'first' if first else 'last'} point is {fmt_point(pts[0 if first else -1])}"
                if len(pts)
                else "no points"
            )
            detail = f"{drawn}, asked {fmt_point(asked)}"
        self.add(name, near, dist, f"≤ {limit:g}", detail)
        return dist

    def closure(self, points: ArrayLike, max_closure: float) -> float:
        """``closure``: the last point within ``max_closure`` cells (Chebyshev) of the first."""
        pts = as_points(points)
        # closure_distance(pts): chebyshev(last, first)
        closing = point_chebyshev(pts[-1].tolist(), pts[0].tolist()) if len(pts) else float("inf")
        self.metrics["closure_distance"] = closing
        self.add(
            "closure", closing <= max_closure, closing, f"≤ {max_closure:g}", "last point is not next to the first"
        )
        return closing

    def turning(
        self,
        points: ArrayLike,
        *,
        center: Point,
        direction: str | None,
        min_turns: float,
        max_turns: float,
        coverage: bool = True,
    ) -> ck.Winding:
        """``direction`` (when one was asked: the way round as seen on screen) and ``winding`` (laps
        about ``center`` that way, one lap = 1.0; unsigned when no direction was asked). The
        winding's ``coverage`` is measured only with ``coverage=True``."""
        drawn = ck.direction(points)
        wind = ck.winding(points, center, coverage=coverage)
        self.metrics.update(direction=drawn or "none", turns=wind.turns)
        if direction is not None:
            self.add(
                "direction",
                drawn == direction,
                drawn or "none",
                direction,
                "drawn the other way round" if drawn else "the contour encloses no area",
            )
            signed = wind.turns if direction == "cw" else -wind.turns
        else:
            signed = abs(wind.turns)
        shown = round(signed, 3) + 0.0  # as the value reads (float noise about 0 is no lap either way)
        laps = min_turns <= signed <= max_turns
        if laps:  # the detail is kept only when the check fails
            why = ""
        elif shown < 0:
            why = "travels the wrong way round the center"
        elif signed < min_turns:
            why = f"does not go all the way round ({fmt_fixed(shown)} laps)"
        else:
            why = f"goes round {fmt_fixed(shown)} times"
        self.add(
            "winding",
            laps,
            round(signed, 3),
            f"{min_turns:g}..{max_turns:g} laps",
            why,
            () if laps else wind.backtracks,
        )
        return wind

    def harmonics(
        self,
        angles: FloatArray,
        residuals: FloatArray,
        *,
        scale: float,
        limits: tuple[float, float, float, float],
        symmetry: int,
        name: str = "harmonics",
    ) -> Check:
        """The largest wave in a closed curve's radial residual about its fit, against size-aware limits.

        A polygon, square, squircle or ellipse keeps a mean distance close to a circle's (which is
        all ``roundness`` and the seed score see) but leaves a regular wave of its side count in
        the residual. Rounding to cells leaves small ripples, larger on small curves, and only at
        the orders the raster repeats: multiples of ``symmetry`` (4 for a circle about a cell,
        whose raster the grid's quarter turns map onto itself; 2 for an ellipse). ``limits`` is
        ``(a, b, c, d)``: those orders may reach ``a + b / scale`` cells, the others
        ``c + d / scale`` (``scale``: the fitted radius, or the fitted minor semi-axis). The check's
        value is the worst amplitude's share of its limit (≤ 1 passes); the detail names the order
        and the cells.
        """
        amps = radial_harmonics(angles, residuals, HARMONIC_ORDERS).tolist()
        a, b, c, d = limits
        size = max(scale, 1.0)
        # An order-k wave's crests lie 2πR/k cells apart: past k = πR they are under two cells
        # apart, finer than the grid can draw, and a curve of ~2πR cells carries no wave above half
        # its samples but aliases of the lower orders. Such orders are not judged: on a radius-3
        # circle the raster's own ripple read as a 15-sided polygon (tests/validity, hypothesis).
        amps = amps[: max(1, min(len(amps), math.floor(math.pi * size) - HARMONIC_ORDERS[0] + 1))]
        # each order's limit and its amplitude's share of it; the worst is the first NaN, else the
        # first largest (np.argmax's choice)
        repeat, other = a + b / size, c + d / size
        share = np.array([amp / (repeat if rep else other) for amp, rep in zip(amps, _repeats(symmetry))])
        k = int(np.argmax(share))
        worst, order = float(share[k]), HARMONIC_ORDERS[0] + k
        if worst <= 1.0:  # the detail is kept only when the check fails
            detail = ""
        else:
            shape = {2: "an oval", 3: "a triangle", 4: "a square or diamond"}.get(order, f"a {order}-sided polygon")
            limit = repeat if _repeats(symmetry)[k] else other
            detail = (
                f"the radius swings {fmt_fixed(amps[k])} cells {order} times round (limit {fmt_fixed(limit)} at "
                f"this size), like {shape}"
            )
        return self.add(name, worst <= 1.0, round(worst, 4), "≤ 1 of the limit", detail)
