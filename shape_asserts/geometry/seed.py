"""The seed post's PHP ``scoreCircle``, ported to the last digit.

The blog post this project grew from scored a circle with a short PHP function (quoted in full in
``docs`` of the README). This module reproduces what that function returns under PHP 8 for the same
JSON decoded with ``json_decode($s, true)`` — including its quirks:

* the centroid divides the sums by the count of *all* entries of ``points``, although entries
  without a usable ``x``/``y`` are skipped everywhere else;
* ``0`` is returned early when ``points`` is missing, not an array, or has fewer than 5 entries,
  when fewer than 5 usable radii remain, or when the mean radius is not positive;
* the score is clipped to [0, 100] and rounded with PHP's ``round($x, 2)`` (pre-rounding to 15
  significant digits, then half away from zero), which is not Python's ``round``.

PHP's value semantics are emulated where an answer can reach them: 64-bit integers that overflow
into floats, integer division that stays an integer when exact, numeric strings (``"12"``,
``" 1e3 "``, and leading-numeric ``"12abc"``, which PHP accepts with a warning), booleans as 0/1,
and ``TypeError`` for non-numeric strings and arrays — raised here as ``ValueError``. Two corners
of PHP's number parsing are reproduced on purpose: integers past the double range become ``INF``
(Python's ``float(int)`` would raise), and ``"-9223372036854775808"`` followed by any text, even a
space, is a float rather than the int ``PHP_INT_MIN`` (PHP ``strcmp``s the trailing text too).

The port is checked against ``php`` itself by ``tests/unit/test_seed.py`` (differential test) and a
pinned table of PHP's outputs that runs where PHP is absent.
"""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["seed_score", "php_round", "score_of_error"]

Number = int | float

_INT_MIN = -(2**63)
_INT_MAX = 2**63 - 1

# PHP 8 numeric strings: optional leading whitespace, sign, digits with optional fraction and
# exponent. Trailing whitespace keeps a string numeric; other trailing text makes it
# "leading-numeric" (accepted with a warning in arithmetic). Anything else throws TypeError.
_WS = " \t\n\r\v\f"
_NUMERIC_PREFIX = re.compile(r"[ \t\n\r\v\f]*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)")
_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_LONG_DIGITS = 20  # 19 digits may still fit an int64 (PHP: MAX_LENGTH_OF_LONG - 1); 20 never do


def _php_int(value: int) -> Number:
    """An integer as PHP holds it: int64, or a float when out of range (json_decode does this)."""
    if _INT_MIN <= value <= _INT_MAX:
        return value
    try:
        return float(value)  # correctly rounded, like the zend_strtod PHP uses on the digits
    except OverflowError:
        # Python refuses where strtod overflows to ±HUGE_VAL (from 2**1024 - 2**970 up): PHP
        # gets INF for a 400-digit JSON integer, the port must not crash on it.
        return math.inf if value > 0 else -math.inf


def _to_number(value: Any) -> Number:
    """PHP 8's implicit conversion of an operand of ``+``/``-`` to int or float."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return _php_int(value)
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        match = _NUMERIC_PREFIX.match(value)
        if match is None:
            raise ValueError(f"PHP TypeError: non-numeric string {value[:40]!r} in arithmetic")
        text = match.group(1)
        if not _INT_TEXT.fullmatch(text):
            return float(text)
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) >= _LONG_DIGITS:
            # PHP hands 20+ digits to zend_strtod; float() also dodges int()'s 4300-digit limit
            return float(text)
        number = int(text)
        rest = value[match.end(1) :]
        if number == _INT_MIN and rest[:1] not in ("", "\0"):
            # PHP's overflow check strcmp()s the digits *and everything after them* (up to a NUL)
            # against "9223372036854775808", so "-9223372036854775808 " (trailing space or text)
            # compares greater and becomes a float, while the bare string stays the int LONG_MIN.
            return float(number)
        return _php_int(number)
    if value is None:  # unreachable behind isset(), kept for completeness: null is 0
        return 0
    raise ValueError(f"PHP TypeError: unsupported operand type {type(value).__name__} in arithmetic")


def _add(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        r = a + b
        return r if _INT_MIN <= r <= _INT_MAX else float(a) + float(b)
    return float(a) + float(b)


def _sub(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        r = a - b
        return r if _INT_MIN <= r <= _INT_MAX else float(a) - float(b)
    return float(a) - float(b)


def _mul(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        r = a * b
        return r if _INT_MIN <= r <= _INT_MAX else float(a) * float(b)
    return float(a) * float(b)


def _div(a: Number, b: int) -> Number:
    # PHP keeps int / int an int when the division is exact; otherwise (double)a / (double)b.
    if isinstance(a, int) and a % b == 0:
        return a // b
    return float(a) / float(b)


def _isset(container: Any, key: str) -> bool:
    """``isset($container[$key])`` for a JSON-decoded value (only arrays have string keys)."""
    return isinstance(container, dict) and container.get(key) is not None


def _round_helper(value: float) -> float:
    # PHP_ROUND_HALF_UP with C's floor/ceil, which keep the sign of a zero result (-0.0)
    if value >= 0.0:
        return float(math.floor(value + 0.5))
    return float(math.ceil(value - 0.5)) or -0.0


#: ``float(10**p)`` for p = 0..22 (exact doubles), made once.
_POW10 = tuple(float(10**p) for p in range(23))


def _intpow10(power: int) -> float:
    if power < 0 or power > 22:
        return math.pow(10.0, power)
    return _POW10[power]


def php_round(value: float, places: int = 0) -> float:
    """PHP 8.0–8.3 ``round($value, $places)`` (``_php_math_round``, PHP_ROUND_HALF_UP).

    PHP first "pre-rounds" to the 15 significant digits a double guarantees, then rounds half away
    from zero, so ``php_round(1.955, 2) == 1.96`` where Python's ``round`` gives 1.95.
    """
    value = float(value)
    if not math.isfinite(value) or value == 0.0:
        return value
    precision_places = 14 - math.floor(math.log10(abs(value)))
    f1 = _intpow10(abs(places))
    if precision_places > places and precision_places - places < 15:
        f2 = _intpow10(abs(precision_places))
        tmp = value * f2 if precision_places >= 0 else value / f2
        # pre-round to the 15 significant digits a double holds (tmp is below 1e15 here)
        tmp = _round_helper(tmp)
        # then move the decimal point back (places < precision_places)
        tmp = tmp / _intpow10(abs(places - precision_places))
    else:
        tmp = value * f1 if places >= 0 else value / f1
        if abs(tmp) >= 1e15:  # beyond the precision: rounding is pointless
            return value
    tmp = _round_helper(tmp)
    if abs(places) < 23:
        tmp = tmp / f1 if places > 0 else tmp * f1
    else:  # pragma: no cover - places is always 2 here
        tmp = float(f"{tmp:15f}e{-places}")
    return tmp


def score_of_error(mean_error: float) -> float:
    """Step 5 of ``scoreCircle``: the score from the mean relative error, clipped and rounded the PHP way."""
    score = (1 - mean_error) * 100
    if score < 0:
        score = 0.0
    if score > 100:
        score = 100.0
    return php_round(score, 2)


def seed_score(data: Any) -> float:
    """The seed's circle score of a decoded JSON answer, exactly as the PHP original computes it.

    Parameters
    ----------
    data : Any
        Whatever ``json.loads`` returned for the answer (dict, list, str, number, None, ...).

    Returns
    -------
    float
        Score in [0, 100] rounded to 2 decimals (NaN only for answers whose coordinates overflow
        doubles, as in PHP).

    Raises
    ------
    ValueError
        Where PHP 8 throws a ``TypeError``: a non-numeric string or an array used as a coordinate.

    Examples
    --------
    >>> seed_score({"points": [{"x": 25, "y": 1}, {"x": 49, "y": 25}, {"x": 25, "y": 49},
    ...                        {"x": 1, "y": 25}, {"x": 25, "y": 1}]})
    86.12
    """
    if not _isset(data, "points"):
        return 0.0
    points = data["points"]
    if not isinstance(points, (list, dict)):
        return 0.0
    entries = list(points.values()) if isinstance(points, dict) else points
    n = len(entries)
    if n < 5:
        return 0.0
    # 1. centroid: sums over usable entries, divided by the count of ALL entries (the quirk)
    sum_x: Number = 0
    sum_y: Number = 0
    usable = []
    for p in entries:
        if not (_isset(p, "x") and _isset(p, "y")):
            continue
        usable.append(p)
        sum_x = _add(sum_x, _to_number(p["x"]))
        sum_y = _add(sum_y, _to_number(p["y"]))
    cx = _div(sum_x, n)
    cy = _div(sum_y, n)

    # 2. radii to the centroid
    radii = []
    for p in usable:
        dx = _sub(_to_number(p["x"]), cx)
        dy = _sub(_to_number(p["y"]), cy)
        sq = _add(_mul(dx, dx), _mul(dy, dy))
        radii.append(math.sqrt(float(sq)))
    if len(radii) < 5:
        return 0.0

    # 3. mean radius (array_sum adds left to right, starting from int 0)
    total = 0.0
    for r in radii:
        total += r
    r_mean = total / len(radii)
    if r_mean <= 0:
        return 0.0

    # 4. mean normalised error
    error_sum = 0.0
    for r in radii:
        error_sum += abs(r - r_mean) / r_mean
    mean_error = error_sum / len(radii)

    return score_of_error(mean_error)
