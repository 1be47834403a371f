"""Score: a drawing's points → named checks and metrics (pure numpy, no I/O).

A scorer returns a :class:`ShapeScore`: the headline ``score`` (0–100), the sub-metrics kept
separate (continuity, closure, direction, fit, ...), and one :class:`Check` per threshold with the
offending point indices. Nothing is collapsed early: the verdict layer decides what to show.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np

from shape_asserts.geometry.fit import HARMONIC_ORDERS, radial_harmonics

__all__ = ["Check", "ShapeScore", "fmt_value", "harmonics_check"]


_LIMIT_RE = re.compile(
    r"^\s*(?:(?P<op>[≤≥=])\s*(?P<x>-?[\d.]+)|(?P<lo>-?[\d.]+)\.\.(?P<hi>-?[\d.]+)"
    r"|(?P<mid>-?[\d.]+)\s*±\s*(?P<tol>[\d.]+)(?P<pct>%?))"
)


def _margin(value: Any, limit: str) -> float | None:
    """How far inside ``limit`` a numeric ``value`` lies (negative: outside), in its own units."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    m = _LIMIT_RE.match(limit)
    if not m:
        return None
    try:
        if m["op"]:
            x = float(m["x"])
            return {"≤": x - value, "≥": value - x, "=": -abs(value - x)}[m["op"]]
        if m["lo"]:
            return min(value - float(m["lo"]), float(m["hi"]) - value)
        mid, tol = float(m["mid"]), float(m["tol"])
        return (tol * abs(mid) / 100.0 if m["pct"] else tol) - abs(value - mid)
    except ValueError:
        return None


@dataclass(frozen=True)
class Check:
    """One named pass/fail check with the measured value and the limit it was held to.

    :attr:`margin` says how far inside its limit the value lies, in the check's own units
    (negative: outside): ``explicit_margin`` when the scorer gives one, else read from a numeric
    value and a limit of the form ``≤ x``, ``≥ x``, ``= n``, ``a..b`` or ``x ± t[%]`` (``None`` for
    other checks), on demand. The calibration (``bench/calibrate_catalogue.py``) publishes the
    margins of legitimate drawings and of impostors.
    """

    name: str
    passed: bool
    value: Any
    limit: str
    detail: str = ""
    indices: tuple[int, ...] = ()
    explicit_margin: float | None = None

    @property
    def margin(self) -> float | None:
        """How far inside its limit the value lies (negative: outside), or None if not a number."""
        return self.explicit_margin if self.explicit_margin is not None else _margin(self.value, self.limit)

    def describe(self) -> str:
        """One line for a failure message."""
        text = f"{self.name}: {fmt_value(self.value)} (limit {self.limit})"
        if self.detail:
            text += f" — {self.detail}"
        if self.indices:
            shown = ", ".join(str(i) for i in self.indices[:12])
            more = f" … (+{len(self.indices) - 12})" if len(self.indices) > 12 else ""
            text += f" at point #{shown}{more}"
        return text


def fmt_value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


@dataclass(frozen=True)
class ShapeScore:
    """A drawing's measurements for one shape family.

    Finite by construction: a drawing whose numbers overflow (a coordinate of 1e308 passes the
    parser) makes a non-finite score or metric; the score then becomes 0, such metrics ``None``,
    and a failed ``finite`` check names them, so no summary, gate or report ever sees a NaN. (An
    empty drawing keeps its infinite distances: there is nothing to measure, and other checks fail.)
    """

    family: str
    score: float
    metrics: Mapping[str, Any]
    checks: tuple[Check, ...]
    marks: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # an empty drawing's distances are rightly infinite (there is nothing to measure); NaN, or
        # infinity from points that are there, is an overflow
        empty = self.metrics.get("n_points") == 0
        def off(v: Any) -> bool:
            return isinstance(v, float) and (math.isnan(v) or (math.isinf(v) and not empty))

        bad = sorted(k for k, v in self.metrics.items() if off(v))
        bad_checks = [c.name for c in self.checks if off(c.value)]
        score_ok = isinstance(self.score, (int, float)) and math.isfinite(self.score)
        if score_ok and not bad and not bad_checks:
            return
        names = (["score"] if not score_ok else []) + sorted(set(bad) | set(bad_checks))
        object.__setattr__(self, "score", float(self.score) if score_ok else 0.0)
        object.__setattr__(self, "metrics", {k: (None if k in bad else v) for k, v in self.metrics.items()})
        checks = tuple(replace(c, passed=False, value="not finite") if off(c.value) else c for c in self.checks)
        object.__setattr__(self, "checks", (*checks, Check(
            "finite", False, len(names), "0 non-finite numbers",
            f"{', '.join(names[:6])} came out infinite or NaN: a coordinate is too large to measure")))

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.passed)

    def summary(self) -> dict[str, Any]:
        """Rounded metrics and pass/fail per check: stable enough to snapshot."""
        out: dict[str, Any] = {"family": self.family, "score": round(float(self.score), 2)}
        out["metrics"] = {
            k: (round(v, 2) if isinstance(v, float) else v) for k, v in sorted(self.metrics.items())
        }
        out["checks"] = {c.name: c.passed for c in self.checks}
        out["passed"] = self.passed
        return out


def harmonics_check(angles: np.ndarray, residuals: np.ndarray, *, scale: float, limits: tuple[float, float, float, float],
                    symmetry: int, name: str = "harmonics") -> Check:
    """The largest wave in a closed curve's radial residual about its fit, against size-aware limits.

    A polygon, square, squircle or ellipse keeps a mean distance close to a circle's (which is all
    ``roundness`` and the seed score see) but leaves a regular wave of its side count in the
    residual. Rounding to cells leaves small ripples, larger on small curves, and only at the orders
    the raster repeats: multiples of ``symmetry`` (4 for a circle about a cell, whose raster the
    grid's quarter turns map onto itself; 2 for an ellipse). ``limits`` is ``(a, b, c, d)``: those
    orders may reach ``a + b / scale`` cells, the others ``c + d / scale`` (``scale``: the fitted
    radius, or the fitted minor semi-axis). The check's value is the worst amplitude's share of its
    limit (≤ 1 passes); the detail names the order and the cells.
    """
    amps = radial_harmonics(angles, residuals, HARMONIC_ORDERS)
    orders = np.arange(HARMONIC_ORDERS[0], HARMONIC_ORDERS[1] + 1)
    a, b, c, d = limits
    size = max(scale, 1.0)
    limit = np.where(orders % symmetry == 0, a + b / size, c + d / size)
    share = amps / limit
    k = int(np.argmax(share))
    worst, order = float(share[k]), int(orders[k])
    shape = {2: "an oval", 3: "a triangle", 4: "a square or diamond"}.get(order, f"a {order}-sided polygon")
    return Check(name, worst <= 1.0, round(worst, 4), "≤ 1 of the limit",
                 f"the radius swings {amps[k]:.2f} cells {order} times round (limit {limit[k]:.2f} at "
                 f"this size), like {shape}" if worst > 1.0 else "")
