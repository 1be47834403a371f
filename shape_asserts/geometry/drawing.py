"""Parse: a model's raw text → a :class:`Drawing` (points in answer order).

Real answers are not clean JSON: they come in ```json fences, with prose around them, with points
as ``{"x": .., "y": ..}`` objects or ``[x, y]`` pairs, with ``25.0`` for ``25``, or cut off by a
token limit. :func:`parse_drawing` accepts all of that and otherwise raises
:class:`DrawingFormatError` naming the problem and where. It never raises anything else.

Why an answer is not a drawing is said from facts, one message per cause. "Cut off" only when the
provider said so (``finish_reason="length"``: :class:`TruncatedAnswer`), or when the text ends
inside the JSON and no finish reason was recorded; an answer that ended normally with broken JSON
gets the JSON decoder's own message and position (:class:`InvalidJSON`, whose ``excerpt`` quotes
the spot with a caret under it).

Work is bounded: answers longer than :data:`MAX_ANSWER_CHARS` characters or with more than
:data:`MAX_POINTS` points are refused before any geometry runs. A 50×50 grid has 2,500 cells, so an
honest contour never comes near either limit.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shape_asserts.defaults import UNSEEN
from shape_asserts.exceptions import DrawingFormatError
from shape_asserts.geometry.points import FloatArray

__all__ = [
    "Drawing",
    "DrawingFormatError",
    "InvalidJSON",
    "TruncatedAnswer",
    "parse_drawing",
    "MAX_POINTS",
    "MAX_ANSWER_CHARS",
]

#: Most points a drawing may have. Four times the cells of a 50×50 grid.
MAX_POINTS = 10_000
#: Longest answer read, in characters (~45 characters per ``{"x": 12, "y": 34}`` point).
MAX_ANSWER_CHARS = 1_000_000
#: How many ``{`` positions are tried when the JSON is buried in prose.
_MAX_OBJECT_STARTS = 200
#: Where a JSON object may start.
_OPEN = re.compile(r"\{")

#: Characters quoted either side of a JSON error's position.
_EXCERPT = 30
#: Control characters, and the bidirectional and zero-width ones that reorder or hide the text around them.
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029" + UNSEEN + "]")

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n(.*?)(?:```|\Z)", re.DOTALL)


class TruncatedAnswer(DrawingFormatError):
    """The answer stops before its drawing is complete: cut at the token limit (``by_limit``, the
    provider said ``finish_reason="length"``), or ending inside the JSON with no finish reason known."""

    def __init__(self, message: str, *, by_limit: bool) -> None:
        super().__init__(message)
        self.by_limit = by_limit


class InvalidJSON(DrawingFormatError):
    """The answer's JSON object holding ``points`` is not valid JSON; the message is the decoder's
    with its position, and ``excerpt`` quotes the spot (two lines: the text, a caret under it)."""

    def __init__(self, message: str, *, excerpt: str, at_end: bool = False) -> None:
        super().__init__(message)
        self.excerpt = excerpt
        #: Whether the decoder stopped at the end of the text (the object is unfinished, not garbled).
        self.at_end = at_end


@dataclass(frozen=True, eq=False)
class Drawing:
    """A model's drawing: points in the order the model gave them.

    Attributes
    ----------
    points : ndarray, shape (N, 2)
        ``(x, y)`` as float64, read-only, in answer order (y points down, as on screen).
    grid_size : int or None
        The answer's ``grid_size`` when it gave a positive integer one.
    center : tuple of float or None
        The answer's ``center`` when it gave a well-formed one.
    data : Any
        The decoded JSON object the points came from (for the seed score).
    """

    points: np.ndarray
    grid_size: int | None = None
    center: tuple[float, float] | None = None
    data: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        pts = np.asarray(self.points, dtype=float)
        if pts.ndim != 2 or pts.shape[1] != 2:
            raise ValueError(f"points must have shape (N, 2), got {pts.shape}")
        pts = pts.copy()
        pts.setflags(write=False)
        object.__setattr__(self, "points", pts)

    def __len__(self) -> int:
        return int(self.points.shape[0])

    @classmethod
    def from_points(cls, points: Any, *, grid_size: int | None = 50) -> Drawing:
        """A drawing from an ``(N, 2)`` array, with ``data`` shaped like a model's answer."""
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        data = {
            "grid_size": grid_size,
            "points": [{"x": _plain(x), "y": _plain(y)} for x, y in pts],
        }
        return cls(points=pts, grid_size=grid_size, center=None, data=data)


def _plain(v: float) -> int | float:
    return int(v) if float(v).is_integer() else float(v)


def parse_drawing(text: str, *, finish_reason: str | None = None) -> Drawing:
    """Read a model's answer text as a :class:`Drawing`.

    Parameters
    ----------
    text : str
        The raw answer: bare JSON, JSON in a ```json fence, or JSON with prose around it.
    finish_reason : str, optional
        Why the provider says the answer ended (``"stop"``, ``"length"``…), when known: it decides
        whether an unfinished JSON object was cut off or is just broken.

    Returns
    -------
    Drawing

    Raises
    ------
    DrawingFormatError
        With a message naming the problem and where, e.g. ``point #41 has no 'y'``;
        :class:`TruncatedAnswer` when the answer was cut off, :class:`InvalidJSON` when it ended
        with broken JSON.

    Examples
    --------
    >>> d = parse_drawing('Here: ```json\\n{"points": [{"x": 1, "y": 2}, [3, 4.0]]}\\n```')
    >>> d.points.tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    try:
        return _parse(text, finish_reason)
    except DrawingFormatError:
        raise
    except RecursionError:
        raise DrawingFormatError("answer JSON is nested too deeply to read") from None
    except Exception as exc:
        raise DrawingFormatError(f"answer could not be read ({type(exc).__name__}: {exc})") from None


def _parse(text: str, finish_reason: str | None) -> Drawing:
    if not isinstance(text, str):
        raise DrawingFormatError(f"answer must be text, got {type(text).__name__}")
    if len(text) > MAX_ANSWER_CHARS:
        raise DrawingFormatError(
            f"answer is {len(text):,} characters long; the limit is {MAX_ANSWER_CHARS:,} "
            f"(a drawing has at most {MAX_POINTS:,} points)"
        )
    if finish_reason == "length":
        try:
            return _read(text)
        except InvalidJSON as exc:
            if not exc.at_end:
                raise  # garbled before it was cut: that is the first cause
            raise TruncatedAnswer(
                "answer cut at the token limit (finish_reason=length) before its drawing was complete",
                by_limit=True,
            ) from None
        except TruncatedAnswer:
            raise TruncatedAnswer(
                "answer cut at the token limit (finish_reason=length) before its drawing was complete",
                by_limit=True,
            ) from None
        except DrawingFormatError as exc:
            if not text.strip() or "no JSON object" in str(exc):
                raise TruncatedAnswer(
                    "answer cut at the token limit (finish_reason=length) before it wrote a drawing",
                    by_limit=True,
                ) from None
            raise
    return _read(text, ended=finish_reason)


def _read(text: str, ended: str | None = None) -> Drawing:
    """The drawing in ``text``; ``ended`` is the finish reason, which a diagnosis may quote."""
    if not text.strip():
        raise DrawingFormatError("answer is empty")
    data, truncated, failure = _find_answer_object(text)
    if data is not None:
        return _drawing_from_data(data)
    if truncated and not ended:
        # the text stops inside the object and no finish reason says whether it was cut: most likely it was
        raise TruncatedAnswer(
            "answer truncated: its JSON ends inside 'points' and no finish reason was recorded", by_limit=False
        )
    if failure is not None:
        at, exc, at_end = failure
        pos = at + exc.pos
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        where = f"at line {line}, column {col} (char {pos})"
        if at_end:
            normally = f", though the answer ended normally (finish_reason={ended})" if ended else ""
            where += f", the end of its JSON{normally}"
        raise InvalidJSON(f"answer is not valid JSON: {exc.msg} {where}", excerpt=_excerpt(text, pos), at_end=at_end)
    other = sorted({m.group(1) for m in _FENCE.finditer(text) if m.group(1) and m.group(1).lower() != "json"})
    hint = f"; the answer holds a ```{other[0][:20]} block instead" if other else ""
    raise DrawingFormatError(f"no JSON object with a 'points' list found in the answer{hint}")


def _excerpt(text: str, pos: int) -> str:
    """Two lines: the text around ``pos`` (on its line, bounded, control characters as spaces) and
    a caret under ``pos``."""
    start = max(text.rfind("\n", 0, pos) + 1, pos - _EXCERPT)
    end = text.find("\n", pos)
    end = min(len(text) if end < 0 else end, pos + _EXCERPT)
    quote = _CONTROL_CHARS.sub(" ", text[start:end])
    lead = "…" if start > 0 and text[start - 1] != "\n" else ""
    tail = "…" if end < len(text) and text[end] != "\n" else ""
    return f"{lead}{quote}{tail}\n{' ' * (len(lead) + pos - start)}^"


def _candidates(text: str) -> list[tuple[int, str]]:
    """Texts to try, best first, with where each starts in ``text``: fenced blocks, then the whole answer."""
    out = [(m.start(2), m.group(2)) for m in _FENCE.finditer(text)]
    out.append((0, text))
    return out


def _find_answer_object(
    text: str,
) -> tuple[dict[str, Any] | None, bool, tuple[int, json.JSONDecodeError, bool] | None]:
    """The first decoded JSON object holding ``points``; whether one ran off the end of the text;
    and the decoder's error for the object that holds ``"points"`` (where its text starts, the
    error, whether it stopped at the end of the text)."""
    decoder = json.JSONDecoder()
    truncated = False
    failure: tuple[int, json.JSONDecodeError, bool] | None = None
    # code in another language (```python…) is not broken JSON: its decoder error would mislead
    code = [m.span(2) for m in _FENCE.finditer(text) if m.group(1) and m.group(1).lower() != "json"]
    for offset, chunk in _candidates(text):
        lead = len(chunk) - len(chunk.lstrip())
        stripped = chunk.strip()
        # found as they are tried: the first one usually holds the points (each point is a '{' too)
        for match in itertools.islice(_OPEN.finditer(stripped), _MAX_OBJECT_STARTS):
            start = match.start()
            try:
                obj, _end = decoder.raw_decode(stripped, start)
            except json.JSONDecodeError as exc:
                rest = stripped[start:]
                # Ran off the end of the text while inside the points list: cut off, not garbled.
                if exc.pos >= len(stripped) - 1 and '"points"' in rest:
                    truncated = True
                continue
            if isinstance(obj, dict) and "points" in obj:
                return obj, False, None
        if failure is None:
            failure = _failure(decoder, stripped, offset + lead, code)
    return None, truncated, failure


def _failure(
    decoder: json.JSONDecoder, chunk: str, at: int, code: list[tuple[int, int]]
) -> tuple[int, json.JSONDecodeError, bool] | None:
    """The decoder's error for the object in ``chunk`` (which starts at ``at`` in the answer) that is
    open where ``"points"`` is written: the nearest ``{`` before it that does not decode (one that
    does, like a ``"center"`` object, closed before it). ``None`` when there is none, or it is in a
    block of code in another language (whose decoder error would mislead)."""
    key = chunk.find('"points"')
    if key < 0:
        return None
    starts = [m.start() for m in re.finditer(r"\{", chunk[:key])][-_MAX_OBJECT_STARTS:]
    for start in reversed(starts):
        if any(a <= at + start < b for a, b in code):
            return None
        try:
            decoder.raw_decode(chunk, start)
        except json.JSONDecodeError as exc:
            return at, exc, exc.pos >= len(chunk) - 1
    return None


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DrawingFormatError(f"{where} is {type(value).__name__} {_short(value)}, expected a number")
    try:
        f = float(value)
    except OverflowError:
        raise DrawingFormatError(f"{where} is too large: {_short(value)}") from None
    if not math.isfinite(f):
        raise DrawingFormatError(f"{where} is not finite: {_short(value)}")
    return f


def _short(value: Any, limit: int = 40) -> str:
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _checked_points(raw_points: list[Any]) -> FloatArray:
    """The points, each checked, naming the first that is not a point (or not a finite number)."""
    pts = np.empty((len(raw_points), 2), dtype=float)
    for i, p in enumerate(raw_points):
        where = f"point #{i}"
        if isinstance(p, dict):
            for key in ("x", "y"):
                if key not in p:
                    raise DrawingFormatError(f"{where} has no '{key}': {_short(p)}")
            pts[i, 0] = _number(p["x"], f"{where} 'x'")
            pts[i, 1] = _number(p["y"], f"{where} 'y'")
        elif isinstance(p, list):
            if len(p) != 2:
                raise DrawingFormatError(f"{where} is a list of {len(p)} values, expected [x, y]")
            pts[i, 0] = _number(p[0], f"{where} x")
            pts[i, 1] = _number(p[1], f"{where} y")
        else:
            raise DrawingFormatError(
                f'{where} is {type(p).__name__} {_short(p)}, expected {{"x": .., "y": ..}} or [x, y]'
            )
    return pts


def _drawing_from_data(data: dict[str, Any]) -> Drawing:
    raw_points = data["points"]
    if not isinstance(raw_points, list):
        raise DrawingFormatError(f"'points' is {type(raw_points).__name__}, expected a list of points")
    if not raw_points:
        raise DrawingFormatError("'points' is empty")
    if len(raw_points) > MAX_POINTS:
        raise DrawingFormatError(f"'points' has {len(raw_points):,} entries; the limit is {MAX_POINTS:,}")
    pts = _checked_points(raw_points)
    grid = data.get("grid_size")
    grid_size = None
    if (
        isinstance(grid, (int, float))
        and not isinstance(grid, bool)
        and math.isfinite(grid)
        and float(grid).is_integer()
        and 0 < grid <= 100_000
    ):
        grid_size = int(grid)
    return Drawing(points=pts, grid_size=grid_size, center=_center(data.get("center")), data=data)


def _center(value: Any) -> tuple[float, float] | None:
    """The answer's center when well formed; metadata only, so a bad one is ignored, not fatal."""
    try:
        if isinstance(value, dict):
            return (_number(value["x"], "center x"), _number(value["y"], "center y"))
        if isinstance(value, list) and len(value) == 2:
            return (_number(value[0], "center x"), _number(value[1], "center y"))
    except (KeyError, DrawingFormatError):
        return None
    return None
