"""JSON answer texts for checking ``shape_asserts.geometry.seed.seed_score`` against PHP's ``scoreCircle``.

Used by ``tests/unit/test_seed.py`` (differential test against ``php``) and by
``tests/php/make_pinned.py`` (which writes ``tests/data/seed_pinned.jsonl``). Everything here is a
pure function of its arguments: the same seed always yields the same texts, so a failing case can
be regenerated and a pinned table rebuilt byte for byte.

Every text is one line of JSON that Python's ``json.loads`` and PHP's ``json_decode($s, true)``
decode to the same value: no ``NaN``/``Infinity`` literals (PHP rejects them, Python accepts them),
no lone surrogates, no nesting deeper than a few levels (PHP's default depth is 512), no integers
longer than Python's 4300-digit limit, and no raw newlines (the PHP driver reads one per line).
Infinite coordinates are still reachable, through literals such as ``1e999`` that both parsers
overflow to infinity.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

__all__ = [
    "CATEGORIES",
    "Obj",
    "Raw",
    "dumps",
    "generate_answers",
    "quirk_answers",
    "round_inputs",
]


class Raw:
    """A JSON literal written verbatim (``1e999``, ``-0``, ``1.0``, ``1E2``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Obj:
    """A JSON object as ``(key, value)`` pairs, so that a key can repeat (last one wins)."""

    __slots__ = ("pairs",)

    def __init__(self, *pairs: tuple[str, Any]) -> None:
        self.pairs = list(pairs)


def dumps(value: Any, *, spaced: bool = False, ascii_only: bool = True) -> str:
    """Serialise ``value`` (plain JSON data plus ``Raw``/``Obj``) to one line of JSON."""
    comma, colon = (", ", ": ") if spaced else (",", ":")

    def enc(v: Any) -> str:
        if isinstance(v, Raw):
            return v.text
        if isinstance(v, Obj):
            return "{" + comma.join(enc_key(k) + colon + enc(x) for k, x in v.pairs) + "}"
        if isinstance(v, dict):
            return "{" + comma.join(enc_key(k) + colon + enc(x) for k, x in v.items()) + "}"
        if isinstance(v, (list, tuple)):
            return "[" + comma.join(enc(x) for x in v) + "]"
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("non-finite float: use Raw('1e999') so both parsers agree")
        return json.dumps(v, ensure_ascii=ascii_only)

    def enc_key(k: Any) -> str:
        return json.dumps(str(k), ensure_ascii=ascii_only)

    text = enc(value)
    assert "\n" not in text and "\r" not in text
    return text


# --------------------------------------------------------------------------------------------
# coordinates


def _decimals(rng: random.Random, value: float) -> float:
    """``value`` rounded to a random number of decimals, or left at full precision."""
    places = rng.choice([None, None, 0, 1, 2, 3, 4, 6, 9])
    return value if places is None else round(value, places)


def _int_text(value: float) -> str:
    return str(int(round(value)))


def _numeric_string(rng: random.Random, value: float) -> str:
    """A PHP numeric string for (about) ``value``: whitespace, signs, exponents, zeros."""
    i = _int_text(value)
    f = repr(_decimals(rng, value))
    forms = [
        i,
        " " + i,
        i + " ",
        "\t" + i + "\n",
        "\u000b" + i + "\u000c",
        "+" + i if not i.startswith("-") else i,
        "00" + i if not i.startswith("-") else "-00" + i[1:],
        f,
        " " + f + " ",
        i + ".0",
        i + ".",
        i + "e0",
        f"{value / 10!r}e1",
        f"{value * 1000!r}E-3",
        f"{value:.3f}",
        f"{value:.17g}",
        "-0",
        "-0.0",
        "0",
        ".5",
        "-.25",
        "+3.5",
        "1e1",
        "1e400",
        "-1e400",
        "1e-400",
        "0e5",
        "00.5",
    ]
    return rng.choice(forms)


def _leading_numeric_string(rng: random.Random, value: float) -> str:
    """A string PHP reads as its numeric prefix (with a warning): ``"12abc"``, ``"3 apples"``."""
    i = _int_text(value)
    return rng.choice(
        [
            i + "abc",
            i + " apples",
            i + "px",
            i + "e",
            i + "e+",
            i + "x1",
            i + ".5.5",
            i + "\u0000",
            i + "\u0000tail",
            "0x1A",
            "0b11",
            "1e5.5",
            "1.5e",
            f"{value!r}%",
            " " + i + " and more",
            "7" + "\u00e9",
        ]
    )


def _non_numeric_string(rng: random.Random) -> str:
    """A string PHP 8 refuses in arithmetic (``TypeError``)."""
    return rng.choice(
        [
            "abc",
            "",
            " ",
            "\t\n",
            ".",
            "-",
            "+-5",
            "- 5",
            "e5",
            "x12",
            "NaN",
            "INF",
            "null",
            "true",
            "\u00a012",  # a no-break space is not PHP whitespace
            "\u0661\u0662",  # Arabic-Indic digits are not [0-9]
            "\uff11\uff12",  # full-width digits
            "one",
        ]
    )


_HUGE_INTS = [
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64,
    10**19,
    10**30,
    -(10**30),
    10**400,
    -(10**400),
    2**1024 - 2**970 - 1,  # the largest integer that still rounds to DBL_MAX
    2**1024 - 2**970,  # the first that overflows to INF
    3_037_000_499,  # its square still fits an int64
    3_037_000_500,  # its square does not
]

_HUGE_FLOATS = [
    1e308,
    -1e308,
    1.7976931348623157e308,
    1e200,
    1e155,
    1e154,
    -1e154,
    1e-300,
    5e-324,
    -5e-324,
]

_LITERALS = ["1e999", "-1e999", "1E400", "1e-999", "-0", "-0.0", "1.0", "1E2", "1e+2", "0.1e1"]

_LONG_MIN_STRINGS = [
    "-9223372036854775808",
    "-9223372036854775808 ",
    "-9223372036854775808abc",
    "-9223372036854775808\u0000",
    "-9223372036854775808\u0000a",
    "-09223372036854775808 ",
    " -9223372036854775808\t",
    "-9223372036854775809 ",
    "9223372036854775807 ",
    "9223372036854775808",
    "-9223372036854775807 ",
    "1999999999999999999 ",
    "12345678901234567890",
    "-00000000000000000000000000000000042",
    "1" + "0" * 400,
    "-" + "9" * 320,
    "9" * 5000,
]


def _huge_coordinate(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(_HUGE_INTS)
    if pick < 0.7:
        return rng.choice(_HUGE_FLOATS)
    if pick < 0.85:
        return Raw(rng.choice(_LITERALS))
    return rng.choice(_LONG_MIN_STRINGS)


def _array_coordinate(rng: random.Random, value: float) -> Any:
    return rng.choice([[], [value], [1, 2], {}, {"v": value}, {"x": value}, [[value]]])


def _odd_coordinate(rng: random.Random, value: float) -> Any:
    """Any kind of value a coordinate can hold, weighted towards ones PHP accepts."""
    kind = rng.random()
    if kind < 0.30:
        return int(round(value))
    if kind < 0.50:
        return _decimals(rng, value)
    if kind < 0.58:
        return rng.choice([True, False])
    if kind < 0.64:
        return None
    if kind < 0.76:
        return _numeric_string(rng, value)
    if kind < 0.84:
        return _leading_numeric_string(rng, value)
    if kind < 0.88:
        return _non_numeric_string(rng)
    if kind < 0.91:
        return _array_coordinate(rng, value)
    if kind < 0.97:
        return _huge_coordinate(rng)
    return Raw(rng.choice(_LITERALS))


# --------------------------------------------------------------------------------------------
# shapes


def _circle_xy(rng: random.Random, n: int | None = None) -> list[tuple[float, float]]:
    """Points near a random circle (sometimes an arc, sometimes closed), with random noise."""
    cx = rng.uniform(-500, 1500)
    cy = rng.uniform(-500, 1500)
    r = math.exp(rng.uniform(math.log(0.5), math.log(900)))
    n = n if n is not None else rng.randint(5, 72)
    noise = r * rng.choice([0.0, 0.0, 0.001, 0.01, 0.03, 0.1, 0.3, 1.0])
    start = rng.uniform(0, 2 * math.pi)
    span = 2 * math.pi * rng.choice([1.0, 1.0, 1.0, 0.75, 0.5, 0.25])
    xy = []
    for k in range(n):
        t = start + span * k / n
        xy.append((cx + r * math.cos(t) + rng.gauss(0, noise), cy + r * math.sin(t) + rng.gauss(0, noise)))
    if rng.random() < 0.25:
        xy.append(xy[0])
    return xy


def _other_shape_xy(rng: random.Random) -> list[tuple[float, float]]:
    """Squares, lines, spirals and scatter: scores across the whole [0, 100] range."""
    n = rng.randint(5, 48)
    size = rng.uniform(1, 600)
    shape = rng.choice(["square", "line", "spiral", "scatter", "ellipse", "star"])
    xy = []
    for k in range(n):
        t = 2 * math.pi * k / n
        if shape == "square":
            side, u = divmod(4 * k / n, 1)
            corners = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
            (x0, y0), (x1, y1) = corners[int(side)], corners[int(side) + 1]
            xy.append((size * (x0 + (x1 - x0) * u), size * (y0 + (y1 - y0) * u)))
        elif shape == "line":
            xy.append((size * k / n, size * k / n * rng.uniform(0.5, 2)))
        elif shape == "spiral":
            xy.append((size * k / n * math.cos(3 * t), size * k / n * math.sin(3 * t)))
        elif shape == "scatter":
            xy.append((rng.uniform(0, size), rng.uniform(0, size)))
        elif shape == "ellipse":
            xy.append((size * math.cos(t), size * rng.uniform(0.05, 0.9) * math.sin(t)))
        else:
            radius = size if k % 2 == 0 else size * 0.4
            xy.append((radius * math.cos(t), radius * math.sin(t)))
    return xy


def _point(x: Any, y: Any) -> dict[str, Any]:
    return {"x": x, "y": y}


def _int_points(xy: list[tuple[float, float]]) -> list[dict[str, Any]]:
    return [_point(int(round(x)), int(round(y))) for x, y in xy]


def _float_points(rng: random.Random, xy: list[tuple[float, float]]) -> list[dict[str, Any]]:
    places = rng.choice([None, 1, 2, 3, 6])
    if places is None:
        return [_point(x, y) for x, y in xy]
    return [_point(round(x, places), round(y, places)) for x, y in xy]


def _unusable_entry(rng: random.Random, x: float, y: float) -> Any:
    """An entry ``isset($p['x']) && isset($p['y'])`` rejects, so it is skipped (but counted)."""
    return rng.choice(
        [
            {"x": x},
            {"y": y},
            {},
            {"x": None, "y": y},
            {"x": x, "y": None},
            {"x": None, "y": None},
            {"X": x, "Y": y},
            {" x": x, "y": y},
            [x, y],
            [int(round(x)), int(round(y))],
            {"0": x, "1": y},
            "x,y",
            f"{x},{y}",
            int(round(x)),
            x,
            None,
            True,
            False,
            [],
            {"point": {"x": x, "y": y}},
            {"x": [x], "y": None},  # an array coordinate in a skipped entry never throws
            {"x": "abc"},  # so does a non-numeric one
        ]
    )


# --------------------------------------------------------------------------------------------
# categories: each returns the decoded-JSON value (with Raw/Obj) of one answer


def _good_int(rng: random.Random) -> Any:
    return {"points": _int_points(_circle_xy(rng))}


def _good_float(rng: random.Random) -> Any:
    return {"points": _float_points(rng, _circle_xy(rng))}


def _other_shape(rng: random.Random) -> Any:
    xy = _other_shape_xy(rng)
    return {"points": _int_points(xy) if rng.random() < 0.5 else _float_points(rng, xy)}


def _big_int_circle(rng: random.Random) -> Any:
    # radii around 3.04e9 make dx*dx overflow int64 into floats, which changes the last digits
    r = rng.choice([1e6, 1e9, 2e9, 3.0e9, 3.04e9, 4e9, 1e12, 3e18])
    c = rng.choice([0, 1, -(10**9), 10**15, 4 * 10**18])
    xy = [(c + r * math.cos(t), c + r * math.sin(t)) for t in (2 * math.pi * k / 12 for k in range(12))]
    return {"points": _int_points(xy)}


def _few_points(rng: random.Random) -> Any:
    return {"points": _int_points(_circle_xy(rng))[: rng.randint(0, 4)]}


def _few_usable(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(5, 9))
    usable = rng.randint(0, 4)
    entries: list[Any] = _int_points(xy[:usable])
    entries += [_unusable_entry(rng, x, y) for x, y in xy[usable:]]
    rng.shuffle(entries)
    return {"points": entries}


def _points_not_a_list(rng: random.Random) -> Any:
    points = _int_points(_circle_xy(rng, 8))
    return rng.choice(
        [
            {},
            {"shape": "circle"},
            {"points": None},
            {"points": "abcdefgh"},
            {"points": '[{"x":1,"y":2}]'},
            {"points": 12345},
            {"points": 1.5},
            {"points": True},
            {"points": False},
            {"points": []},
            {"points": {}},
            {"Points": points},
            {"points ": points},
            {"data": {"points": points}},
            {"point": points},
        ]
    )


def _points_as_object(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(3, 20))
    style = rng.choice(["index", "names", "mixed", "scalars"])
    pairs: list[tuple[str, Any]] = []
    for k, (x, y) in enumerate(xy):
        if style == "mixed":
            key = rng.choice([str(k), f"k{k}", f"0{k}", "-0", ""])
        else:
            key = {"index": str(k), "names": f"p{k}"}.get(style, f"c{k}")
        value = _point(int(round(x)), int(round(y))) if style != "scalars" else rng.choice([x, int(x), "p"])
        pairs.append((key, value))
    # "mixed" keys can repeat ("-0", ""): json_decode and json.loads both keep the last value
    return {"points": Obj(*pairs)}


def _missing_keys(rng: random.Random) -> Any:
    xy = _circle_xy(rng)
    entries: list[Any] = []
    for x, y in xy:
        x, y = _decimals(rng, x), _decimals(rng, y)
        entries.append(_point(x, y) if rng.random() < 0.7 else _unusable_entry(rng, x, y))
    return {"points": entries}


def _pairs(rng: random.Random) -> Any:
    xy = _circle_xy(rng)
    share = rng.choice([1.0, 0.9, 0.5, 0.2])
    entries: list[Any] = []
    for x, y in xy:
        ix, iy = int(round(x)), int(round(y))
        entries.append([ix, iy] if rng.random() < share else _point(ix, iy))
    return {"points": entries}


def _scalar_entries(rng: random.Random) -> Any:
    xy = _circle_xy(rng)
    entries: list[Any] = []
    for x, y in xy:
        if rng.random() < 0.5:
            entries.append(_point(_decimals(rng, x), _decimals(rng, y)))
        else:
            entries.append(rng.choice([f"{x:.1f},{y:.1f}", int(x), x, None, True, False, "", [], {}]))
    return {"points": entries}


def _coordinate_kind(make: Callable[[random.Random, float], Any], share: float) -> Callable[[random.Random], Any]:
    """A category whose coordinates are, with probability ``share`` each, produced by ``make``."""

    def category(rng: random.Random) -> Any:
        xy = _circle_xy(rng, rng.randint(5, 30))
        entries = []
        for x, y in xy:
            px = make(rng, x) if rng.random() < share else int(round(x))
            py = make(rng, y) if rng.random() < share else int(round(y))
            entries.append(_point(px, py))
        return {"points": entries}

    return category


def _bool_value(rng: random.Random, value: float) -> Any:
    return rng.choice([True, False])


def _array_in_skipped_entry(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(6, 20))
    entries: list[Any] = _int_points(xy)
    bad = rng.randrange(len(entries))
    entries[bad] = rng.choice([{"x": [1], "y": None}, {"x": {"a": 1}}, {"y": [], "z": 1}, {"x": "abc", "y": None}])
    return {"points": entries}


def _identical_points(rng: random.Random) -> Any:
    n = rng.randint(5, 25)
    x = rng.choice([0, 7, -3, 0.1, 0.3, 1e-9, 123.456, 1e15, 2**62, "5", True])
    y = rng.choice([0, 7, -3, 0.7, 0.2, 1e-9, 654.321, -1e15, 2**62, " 5 ", False])
    entries: list[Any] = [_point(x, y) for _ in range(n)]
    if rng.random() < 0.3:
        entries.append(None)  # one more entry shifts the centroid off the points
    return {"points": entries}


def _huge_values(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(5, 15))
    entries = []
    for x, y in xy:
        px = _huge_coordinate(rng) if rng.random() < 0.4 else int(round(x))
        py = _huge_coordinate(rng) if rng.random() < 0.4 else int(round(y))
        entries.append(_point(px, py))
    return {"points": entries}


def _huge_floats_everywhere(rng: random.Random) -> Any:
    base = rng.choice([1e308, 1e200, 1e154, 1e150, 1e-300, 1e-160])
    xy = _circle_xy(rng, rng.randint(5, 12))
    return {"points": [_point(_finite_or_literal(x / 1000 * base), _finite_or_literal(y / 1000 * base)) for x, y in xy]}


def _finite_or_literal(value: float) -> Any:
    """``value``, or the literal that both JSON parsers overflow to the same infinity."""
    if math.isfinite(value):
        return value
    return Raw("1e999" if value > 0 else "-1e999")


def _long_min_strings(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(5, 10))
    entries = _int_points(xy)
    for entry in rng.sample(entries, rng.randint(1, 3)):
        entry[rng.choice(["x", "y"])] = rng.choice(_LONG_MIN_STRINGS)
    return {"points": entries}


def _top_level_not_object(rng: random.Random) -> Any:
    points = _int_points(_circle_xy(rng, 8))
    return rng.choice(
        [
            points,
            [{"points": points}],
            5,
            -1.5,
            "points",
            "",
            None,
            True,
            False,
            [],
            Raw("1e999"),
            Raw("0"),
        ]
    )


def _duplicate_keys(rng: random.Random) -> Any:
    points = _int_points(_circle_xy(rng, rng.randint(5, 12)))
    variant = rng.randrange(6)
    if variant == 0:
        return Obj(("points", points), ("points", None))
    if variant == 1:
        return Obj(("points", None), ("points", points))
    if variant == 2:
        return Obj(("points", points[:3]), ("points", points))
    entries: list[Any] = list(points)
    k = rng.randrange(len(entries))
    x, y = points[k]["x"], points[k]["y"]
    if variant == 3:
        entries[k] = Obj(("x", x), ("y", y), ("x", "abc"))  # last one wins: throws
    elif variant == 4:
        entries[k] = Obj(("x", "abc"), ("y", y), ("x", x))  # last one wins: fine
    else:
        entries[k] = Obj(("x", None), ("y", y), ("x", x + 1000))  # kept, at the first position
    return {"points": entries}


def _mixed(rng: random.Random) -> Any:
    xy = _circle_xy(rng, rng.randint(5, 40))
    entries: list[Any] = []
    for x, y in xy:
        roll = rng.random()
        if roll < 0.75:
            entries.append(_point(_odd_coordinate(rng, x), _odd_coordinate(rng, y)))
        else:
            entries.append(_unusable_entry(rng, x, y))
    return {"points": entries}


CATEGORIES: dict[str, tuple[int, Callable[[random.Random], Any]]] = {
    # name: (weight, make)
    "good_int": (12, _good_int),
    "good_float": (12, _good_float),
    "other_shape": (6, _other_shape),
    "big_int_circle": (3, _big_int_circle),
    "few_points": (2, _few_points),
    "few_usable": (3, _few_usable),
    "points_not_a_list": (2, _points_not_a_list),
    "points_as_object": (3, _points_as_object),
    "missing_keys": (5, _missing_keys),
    "pairs": (3, _pairs),
    "scalar_entries": (3, _scalar_entries),
    "bool_coords": (3, _coordinate_kind(_bool_value, 0.3)),
    "numeric_strings": (6, _coordinate_kind(_numeric_string, 0.4)),
    "leading_numeric": (4, _coordinate_kind(_leading_numeric_string, 0.2)),
    "non_numeric": (2, _coordinate_kind(lambda rng, v: _non_numeric_string(rng), 0.1)),
    "array_coords": (2, _coordinate_kind(_array_coordinate, 0.1)),
    "array_in_skipped_entry": (2, _array_in_skipped_entry),
    "huge_values": (5, _huge_values),
    "huge_floats": (3, _huge_floats_everywhere),
    "long_min_strings": (3, _long_min_strings),
    "identical_points": (3, _identical_points),
    "top_level_not_object": (2, _top_level_not_object),
    "duplicate_keys": (3, _duplicate_keys),
    "mixed": (10, _mixed),
}


def generate_answers(count: int, seed: int = 20240611) -> list[tuple[str, str]]:
    """``count`` answers as ``(category, json_text)``, the same for the same ``seed``.

    Categories are drawn by weight, after one pass over all of them so that even a small
    ``count`` covers every category.
    """
    rng = random.Random(seed)
    names = list(CATEGORIES)
    weights = [CATEGORIES[name][0] for name in names]
    out: list[tuple[str, str]] = []
    for i in range(count):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        value = CATEGORIES[name][1](rng)
        text = dumps(value, spaced=rng.random() < 0.3, ascii_only=rng.random() < 0.7)
        out.append((name, text))
    return out


# --------------------------------------------------------------------------------------------
# hand-written cases, one per quirk, for the pinned table

_SQUARE5 = [[25, 1], [49, 25], [25, 49], [1, 25], [25, 1]]


def _pts(pairs: list[list[Any]]) -> list[dict[str, Any]]:
    return [_point(x, y) for x, y in pairs]


def _ring_xy(centre: float, radius: float, degrees: range) -> list[tuple[float, float]]:
    rad = [math.radians(a) for a in degrees]
    return [(centre + radius * math.cos(t), centre + radius * math.sin(t)) for t in rad]


def _eighths_xy(radius: float) -> list[tuple[float, float]]:
    return [(radius * math.cos(2 * math.pi * k / 8), radius * math.sin(2 * math.pi * k / 8)) for k in range(8)]


def _radian_points(scale: float) -> list[dict[str, Any]]:
    return [_point(scale * math.cos(k), scale * math.sin(k)) for k in range(6)]


def quirk_answers() -> list[tuple[str, str]]:
    """Hand-picked answers, one or more per quirk, as ``(label, json_text)``."""
    base = _pts(_SQUARE5)
    one_far_point = _pts([[0, 0], [1000, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]])
    parabola = [_point(k, k * k) for k in range(1, 6)]
    octagon = _pts([[100, 0], [71, 71], [0, 100], [-71, 71], [-100, 0], [-71, -71], [0, -100], [71, -71]])

    def with_coord(value: Any, axis: str = "x", index: int = 0, points: list[dict[str, Any]] = octagon) -> Any:
        entries = [dict(p) for p in points]
        entries[index][axis] = value
        return {"points": entries}

    cases: list[tuple[str, Any]] = [
        ("docstring example", {"points": base}),
        ("octagon", {"points": octagon}),
        ("octagon as floats", {"points": [_point(float(p["x"]), float(p["y"])) for p in octagon]}),
        ("perfect circle of 360 float points", {"points": [_point(x, y) for x, y in _ring_xy(50, 40, range(360))]}),
        ("perfect circle of 36 int points", {"points": _int_points(_ring_xy(500, 400, range(0, 360, 10)))}),
        ("one far point scores 25", {"points": one_far_point}),
        ("score clipped to 0", {"points": [*one_far_point, *[None] * 100]}),
        ("all points identical float 0.3 x7 scores 100", {"points": [_point(0.3, 0.7)] * 7}),
        ("zero points", {"points": []}),
        ("four points", {"points": base[:4]}),
        ("five points", {"points": base}),
        ("points missing", {"shape": "circle"}),
        ("points null", {"points": None}),
        ("points a string", {"points": "abcdefgh"}),
        ("points a number", {"points": 12345}),
        ("points true", {"points": True}),
        ("points an empty object", {"points": {}}),
        ("points an object with index keys", {"points": Obj(*((str(k), p) for k, p in enumerate(octagon)))}),
        ("points an object with name keys", {"points": Obj(*((f"p{k}", p) for k, p in enumerate(octagon)))}),
        ("points an object with a repeated key", {"points": Obj(*((f"p{k % 5}", p) for k, p in enumerate(octagon)))}),
        ("points an object of scalars", {"points": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}}),
        ("top-level list of points", octagon),
        ("top-level number", 5),
        ("top-level string", "points"),
        ("top-level null", None),
        ("top-level true", True),
        ("top-level empty list", []),
        ("centroid divides by all entries", {"points": [*octagon, None, None]}),
        ("centroid divides by all entries incl. pairs", {"points": [*octagon, [0, 0], [5, 5], [9, 9]]}),
        ("centroid divides by all entries incl. half points", {"points": [*octagon, {"x": 1}, {"y": 1}]}),
        ("five entries, four usable", {"points": [*base[:4], {"x": 1}]}),
        ("five entries, four usable, null y", {"points": [*base[:4], {"x": 1, "y": None}]}),
        ("pairs only", {"points": [[p["x"], p["y"]] for p in octagon]}),
        ("pairs mixed with points", {"points": [*octagon, [1, 2], [3, 4]]}),
        ("entries are strings", {"points": ["1,2", "3,4", "5,6", "7,8", "9,10"]}),
        ("entries are numbers", {"points": [1, 2, 3, 4, 5, 6]}),
        ("entries are nulls", {"points": [None] * 6}),
        ("upper-case keys", {"points": [{"X": p["x"], "Y": p["y"]} for p in octagon]}),
        ("extra keys are ignored", {"points": [{"x": p["x"], "y": p["y"], "z": "abc"} for p in octagon]}),
        ("true coordinate", with_coord(True)),
        ("false coordinate", with_coord(False, "y", 3)),
        ("all coordinates booleans", {"points": [_point(bool(k % 2), bool(k % 3)) for k in range(8)]}),
        ("all points identical int", {"points": [_point(3, 4)] * 6}),
        ("all points identical float 0.1", {"points": [_point(0.1, 0.1)] * 5}),
        ("all points identical float 0.3 x5", {"points": [_point(0.3, 0.7)] * 5}),
        ("all points identical with a null entry", {"points": [_point(3, 4)] * 6 + [None]}),
        ("all points at the origin", {"points": [_point(0, 0)] * 5}),
        ("integer centroid stays int", {"points": _pts([[0, 0], [10, 0], [10, 10], [0, 10], [5, 5]])}),
        ("integer centroid inexact", {"points": _pts([[0, 0], [10, 0], [10, 10], [0, 10], [5, 6]])}),
        ("huge int 2**63-1", with_coord(2**63 - 1)),
        ("huge int 2**63", with_coord(2**63)),
        ("huge int -2**63", with_coord(-(2**63))),
        ("huge int -2**63-1", with_coord(-(2**63) - 1)),
        ("huge int 10**30", with_coord(10**30)),
        ("huge int -10**30", with_coord(-(10**30), "y", 2)),
        ("huge int 10**400 overflows to INF", with_coord(10**400)),
        ("huge int just below the INF threshold", with_coord(2**1024 - 2**970 - 1)),
        ("huge int at the INF threshold", with_coord(2**1024 - 2**970)),
        ("int sum overflows int64", {"points": [_point(2**62 + k, 2**62 - k) for k in range(6)]}),
        ("int square overflows int64", {"points": _int_points(_eighths_xy(3.04e9))}),
        ("int square just fits int64", {"points": _int_points(_eighths_xy(2e9))}),
        ("huge float 1e308 everywhere", {"points": [_point(1e308 * (k % 2), 1e308) for k in range(6)]}),
        ("huge float 1e308 single", with_coord(1e308)),
        ("huge float -1e308 single", with_coord(-1e308)),
        ("huge float 1e200 squares overflow", with_coord(1e200)),
        ("huge float 1e154 squares near DBL_MAX", {"points": _radian_points(1e154)}),
        ("tiny float squares underflow", {"points": _radian_points(1e-170)}),
        ("subnormal coordinates", {"points": [_point(5e-324 * k, 0) for k in range(6)]}),
        ("literal 1e999 is INF", with_coord(Raw("1e999"))),
        ("literal -1e999 is -INF", with_coord(Raw("-1e999"))),
        ("INF and -INF", {"points": [*octagon, _point(Raw("1e999"), 0), _point(Raw("-1e999"), 0)]}),
        ("literal 1e-999 is 0.0", with_coord(Raw("1e-999"))),
        ("literal -0", with_coord(Raw("-0"))),
        ("literal -0.0", with_coord(Raw("-0.0"))),
        ("literal 1.0 is a float", with_coord(Raw("100.0"))),
        ("literal 1E2 is a float", with_coord(Raw("1E2"))),
        ("numeric string 12", with_coord("12")),
        ("numeric string with leading space", with_coord(" 12")),
        ("numeric string with trailing space", with_coord("12 ")),
        ("numeric string with tab and newline", with_coord("\t12\n")),
        ("numeric string with vertical tab and form feed", with_coord("\u000b12\u000c")),
        ("numeric string 1e1", with_coord("1e1")),
        ("numeric string .5", with_coord(".5")),
        ("numeric string -0", with_coord("-0")),
        ("numeric string -0.0", with_coord("-0.0")),
        ("numeric string +3.5", with_coord("+3.5")),
        ("numeric string 5.", with_coord("5.")),
        ("numeric string 1.e5", with_coord("1.e5")),
        ("numeric string 00.5", with_coord("00.5")),
        ("numeric string with leading zeros", with_coord("0071")),
        ("numeric string 1e400 is INF", with_coord("1e400")),
        ("numeric string 1e-400 is 0", with_coord("1e-400")),
        ("numeric string of 25 digits", with_coord("1234567890123456789012345")),
        ("numeric string of 401 digits", with_coord("1" + "0" * 400)),
        ("numeric string of 5000 digits", with_coord("9" * 5000)),
        ("all coordinates numeric strings", {"points": [_point(str(p["x"]), f" {p['y']} ") for p in octagon]}),
        ("leading-numeric 12abc", with_coord("12abc")),
        ("leading-numeric 3 apples", with_coord("3 apples")),
        ("leading-numeric 1e", with_coord("1e")),
        ("leading-numeric 1e+", with_coord("1e+")),
        ("leading-numeric 0x1A is 0", with_coord("0x1A")),
        ("leading-numeric 1e5.5", with_coord("1e5.5")),
        ("leading-numeric with NUL", with_coord("71\u0000junk")),
        ("leading-numeric 7 with accent", with_coord("7\u00e9")),
        ("non-numeric abc throws", with_coord("abc")),
        ("non-numeric empty string throws", with_coord("")),
        ("non-numeric space throws", with_coord(" ")),
        ("non-numeric dot throws", with_coord(".")),
        ("non-numeric sign only throws", with_coord("-")),
        ("non-numeric sign space digit throws", with_coord("- 5")),
        ("non-numeric NaN string throws", with_coord("NaN")),
        ("non-numeric no-break space throws", with_coord("\u00a012")),
        ("non-numeric full-width digits throw", with_coord("\uff11\uff12")),
        ("non-numeric in y throws", with_coord("abc", "y", 4)),
        ("non-numeric in a skipped entry is harmless", {"points": [*octagon, {"x": "abc"}]}),
        ("non-numeric with null partner is harmless", {"points": [*octagon, {"x": "abc", "y": None}]}),
        ("empty list coordinate throws", with_coord([])),
        ("list coordinate throws", with_coord([1, 2])),
        ("object coordinate throws", with_coord({"v": 1})),
        ("empty object coordinate throws", with_coord({}, "y", 5)),
        ("array coordinate in a skipped entry is harmless", {"points": [*octagon, {"x": [1], "y": None}]}),
        ("error even with fewer than 5 usable", {"points": [*base[:4], {"x": 1}, {"x": "abc", "y": 1}]}),
        ("fewer than 5 entries never reaches the error", {"points": [*base[:3], {"x": "abc", "y": 1}]}),
        ("LONG_MIN string bare is int", with_coord("-9223372036854775808")),
        ("LONG_MIN string with trailing space is float", with_coord("-9223372036854775808 ")),
        ("LONG_MIN string with trailing text is float", with_coord("-9223372036854775808abc")),
        ("LONG_MIN string with trailing NUL is int", with_coord("-9223372036854775808\u0000")),
        ("LONG_MIN string with leading zeros and space", with_coord("-09223372036854775808 ")),
        ("LONG_MIN-ish 19 digits with space stays int", with_coord("1999999999999999999 ")),
        ("INT_MAX string with space stays int", with_coord("9223372036854775807 ")),
        ("LONG_MIN int plus small ints", {"points": [_point("-9223372036854775808", 0), *parabola]}),
        ("LONG_MIN float string plus small ints", {"points": [_point("-9223372036854775808 ", 0), *parabola]}),
        ("LONG_MIN JSON int plus small ints", {"points": [_point(-(2**63), 0), *parabola]}),
        ("duplicate points key, last null", Obj(("points", octagon), ("points", None))),
        ("duplicate points key, last list", Obj(("points", None), ("points", octagon))),
        ("duplicate x key, last non-numeric", {"points": [Obj(("x", 1), ("y", 2), ("x", "abc")), *octagon]}),
        ("duplicate x key, last numeric", {"points": [Obj(("x", "abc"), ("y", 2), ("x", 1)), *octagon]}),
        ("duplicate x key, first null", {"points": [Obj(("x", None), ("y", 2), ("x", 7)), *octagon]}),
    ]
    # the halfway cases of round($x, 2) on real scores: PHP pre-rounds, Python's round would not
    for k in range(3, 9):
        angles = [2 * math.pi * i / (k * 2) for i in range(k * 2)]
        polygon = [_point(round(100 * math.cos(t), 1), round(100 * math.sin(t), 1)) for t in angles]
        cases.append((f"polygon with {k * 2} vertices", {"points": polygon}))
    return [(label, dumps(value)) for label, value in cases]


# --------------------------------------------------------------------------------------------
# inputs for the round($x, 2) differential test


def round_inputs(seed: int = 7) -> list[float]:
    """Over 100,000 floats in [0, 100] for ``php_round(x, 2)``: halfway cases and their neighbours.

    Left out: the values whose ``x * 100`` is exactly 0.49999999999999994 (the double just below
    0.005 is one). PHP 8.0-8.2 round those up (``floor(0.49999999999999994 + 0.5)`` is 1); PHP 8.3
    rewrote ``php_round_helper`` and, as far as we know, rounds them down, so the differential test
    would depend on the PHP minor version. ``test_seed.py`` pins the 8.0-8.2 result on its own.
    """
    rng = random.Random(seed)
    values: list[float] = [0.0, 100.0, 1.005, 2.675, 94.875, 1.955, 0.285, 0.015, 0.125, 99.995, 5e-3]
    for whole in range(100):
        for cents in range(100):
            half = float(f"{whole}.{cents:02d}5")  # the decimal halfway point as parsed
            values += [half, math.nextafter(half, 0.0), math.nextafter(half, 101.0), half - 1e-13, half + 1e-13]
            values.append(float(f"{whole}.{cents:02d}"))
    values += [rng.uniform(0, 100) for _ in range(25_000)]
    values += [round(rng.uniform(0, 100), 3) for _ in range(10_000)]
    values += [round(rng.uniform(0, 100), rng.randint(4, 12)) for _ in range(5_000)]
    values += [rng.uniform(0, 1e-3) for _ in range(1_000)]
    return [v for v in values if v * 100 != 0.49999999999999994]
