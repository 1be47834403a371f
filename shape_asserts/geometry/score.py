"""Score: a drawing's points → named checks and metrics (pure numpy, no I/O).

A scorer returns a :class:`ShapeScore`: the headline ``score`` (0–100), the sub-metrics kept
separate (continuity, closure, direction, fit, ...), and one :class:`Check` per threshold with the
offending point indices. Nothing is collapsed early: the verdict layer decides what to show.
Families build both through :class:`shape_asserts.geometry.scorecard.Scorecard`.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Check", "ShapeScore", "fmt_fixed", "fmt_value", "fmt_point", "limit_margin", "parsed_limit"]


_LIMIT_RE = re.compile(
    r"^\s*(?:(?P<op>[≤≥=])\s*(?P<x>-?[\d.]+)|(?P<lo>-?[\d.]+)\.\.(?P<hi>-?[\d.]+)"
    r"|(?P<mid>-?[\d.]+)\s*±\s*(?P<tol>[\d.]+)(?P<pct>%?))"
)


def parsed_limit(limit: str) -> tuple[str, float, float, bool] | None:
    """A limit's form and numbers: ``(op, x, 0, False)``, ``("..", lo, hi, False)`` or
    ``("±", mid, tol, pct)``; ``None`` when it is none of these."""
    m = _LIMIT_RE.match(limit)
    if not m:
        return None
    try:
        if m["op"]:
            return (m["op"], float(m["x"]), 0.0, False)
        if m["lo"]:
            return ("..", float(m["lo"]), float(m["hi"]), False)
        return ("±", float(m["mid"]), float(m["tol"]), bool(m["pct"]))
    except ValueError:
        return None


def limit_margin(value: Any, limit: str) -> float | None:
    """How far inside ``limit`` a numeric ``value`` lies (negative: outside), in its own units."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    parsed = parsed_limit(limit)
    if parsed is None:
        return None
    op, a, b, pct = parsed
    if op == "≤":
        return a - value
    if op == "≥":
        return value - a
    if op == "=":
        return -abs(value - a)
    if op == "..":
        return min(value - a, b - value)
    return (b * abs(a) / 100.0 if pct else b) - abs(value - a)


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
        return self.explicit_margin if self.explicit_margin is not None else limit_margin(self.value, self.limit)

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
    """A measured value as people read it, wherever one is shown: floats to 4 significant digits,
    never in exponent notation and never as ``-0`` (float noise about zero reads as ``0``).

    >>> fmt_value(2.0), fmt_value(1.23456), fmt_value("cw"), fmt_value(-0.0), fmt_value(1.484e-17)
    ('2', '1.235', 'cw', '0', '0')
    >>> fmt_value(123456.7), fmt_value(-0.00049), fmt_value(float("nan"))
    ('123457', '-0.00049', 'nan')
    """
    if not isinstance(v, numbers.Real) or isinstance(v, numbers.Integral):  # bools are integral
        return str(v)
    v = float(v)
    if not math.isfinite(v):
        return str(v)
    rounded = float(f"{v:.4g}")
    if abs(rounded) < 1e-4:  # below what 4 digits of a grid's measures can tell from zero
        return "0"
    if abs(rounded) >= 1e4:
        return f"{v:.0f}"
    return f"{rounded:.4g}"


def fmt_fixed(v: float, digits: int = 2) -> str:
    """``v`` with ``digits`` decimals, never ``-0.00``: a value that rounds to zero reads ``0.00``.

    >>> fmt_fixed(-0.001), fmt_fixed(1.005, 1), fmt_fixed(-2.5)
    ('0.00', '1.0', '-2.50')
    """
    text = f"{float(v):.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def fmt_point(p: Sequence[Any]) -> str:
    """A point as a failure message shows it.

    >>> fmt_point((25.0, 5))
    '(25, 5)'
    """
    return f"({fmt_value(p[0])}, {fmt_value(p[1])})"


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
        object.__setattr__(
            self,
            "checks",
            (
                *checks,
                Check(
                    "finite",
                    False,
                    len(names),
                    "0 non-finite numbers",
                    f"{', '.join(names[:6])} came out infinite or NaN: a coordinate is too large to measure",
                ),
            ),
        )

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.passed)

    def summary(self) -> dict[str, Any]:
        """Rounded metrics and pass/fail per check: stable enough to snapshot."""
        out: dict[str, Any] = {"family": self.family, "score": round(float(self.score), 2)}
        out["metrics"] = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in sorted(self.metrics.items())}
        out["checks"] = {c.name: c.passed for c in self.checks}
        out["passed"] = self.passed
        return out
