"""The ``shape-asserts`` subcommands: read an answer, score it, draw it, list the cases.

:mod:`shape_asserts.cli` parses the arguments and runs one of these; each returns an exit status
or raises :class:`_Fail` with the one line to print.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from shape_asserts.cases import Case
from shape_asserts.cli import cases as cli_cases
from shape_asserts.exceptions import CaseError, DrawingFormatError
from shape_asserts.families.circle import score_circle
from shape_asserts.geometry.drawing import MAX_ANSWER_CHARS, Drawing, parse_drawing
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.geometry.seed import seed_score
from shape_asserts.results import render

PROG = "shape-asserts"
#: Grid side when neither the answer nor ``--grid`` gives one (the seed's 50×50 grid).
DEFAULT_GRID = 50
#: Largest ``--grid`` accepted; the parser ignores bigger ``grid_size`` values in answers too.
MAX_GRID = 100_000
#: Largest fitted radius drawn as the ideal overlay (a bigger one is not a drawing on the grid).
MAX_IDEAL_RADIUS = 10_000
#: Decimal places of float metrics in ``score`` output (``seed_score`` is already PHP-rounded).
METRIC_DECIMALS = 4

EXIT_OK = 0
EXIT_FAILED = 1  # score --check only: the answer was read and failed a check
EXIT_ERROR = 2

_SEED_ERROR_NOTE = "the seed's PHP scoreCircle would throw a TypeError on this answer: {reason}"
_NO_PILLOW = "PNG output needs Pillow: {hint} (or write .svg)"
_BAD_OUTPUT = "cannot tell the format of {path!r}: use a name ending in .svg or .png, or - for SVG on stdout"


class _Fail(Exception):
    """A user-facing error: printed as ``shape-asserts: <message>``, exit status 2."""


@dataclass(frozen=True)
class _Loaded:
    drawing: Drawing
    name: str  # file name for titles: the base name, or "stdin"


# --- reading -------------------------------------------------------------------------------------


def _read_answer(path: str) -> _Loaded:
    """The parsed answer from ``path`` (``-`` for stdin); ``_Fail`` naming the cause otherwise."""
    # read one character past the limit: enough to know the answer is too long without
    # loading an arbitrarily large file
    if path == "-":
        name = "stdin"
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:
            text = buffer.read(4 * MAX_ANSWER_CHARS + 4).decode("utf-8", errors="replace")
        else:
            text = sys.stdin.read(MAX_ANSWER_CHARS + 1)
    else:
        name = os.path.basename(path) or path
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read(MAX_ANSWER_CHARS + 1)
        except OSError as exc:
            raise _Fail(f"cannot read {path!r}: {exc.strerror or exc}") from None
    if len(text) > MAX_ANSWER_CHARS:
        raise _Fail(f"answer in {name!r} is longer than {MAX_ANSWER_CHARS:,} characters, the limit")
    try:
        drawing = parse_drawing(text)
    except DrawingFormatError as exc:
        raise _Fail(str(exc)) from None
    return _Loaded(drawing, name)


# --- what was asked ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Request:
    center: tuple[float, float]
    grid_size: int
    start: tuple[float, float] | None
    direction: str | None


def _request(args: argparse.Namespace, drawing: Drawing) -> _Request:
    # which wins: command line > the answer's own metadata > the seed's defaults
    grid = args.grid if args.grid is not None else (drawing.grid_size or DEFAULT_GRID)
    if args.center is not None:
        center = tuple(args.center)
    elif drawing.center is not None:
        center = drawing.center
    else:
        center = (grid / 2, grid / 2)
    start = tuple(args.start) if getattr(args, "start", None) is not None else None
    return _Request(center=center, grid_size=grid, start=start, direction=getattr(args, "direction", None))


def _score(drawing: Drawing, req: _Request) -> ShapeScore:
    return score_circle(
        drawing.points,
        center=req.center,
        grid_size=req.grid_size,
        start=req.start,
        direction=req.direction,
        data=drawing.data,
    )


def _selected(args: argparse.Namespace) -> Case | None:
    """The ``--case`` asked for, or None; ``_Fail`` for conflicting options or an unknown id."""
    given = [f"--{n}" for n in cli_cases.CIRCLE_ONLY if getattr(args, n, None) is not None]
    try:
        return cli_cases.select(args.case, args.cases, given, PROG)
    except CaseError as exc:
        raise _Fail(str(exc)) from None


def _score_case(case: Case, drawing: Drawing) -> ShapeScore:
    try:
        return case.score(drawing)
    except CaseError as exc:
        raise _Fail(f"case {case.id}: {exc}") from None


# --- score ---------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """``value`` as strict JSON: floats rounded, non-finite floats as null, numpy as Python."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return round(v, METRIC_DECIMALS) if math.isfinite(v) else None
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _circle_request(req: _Request) -> dict[str, Any]:
    return {
        "center": list(req.center),
        "grid_size": req.grid_size,
        "start": list(req.start) if req.start is not None else None,
        "direction": req.direction,
    }


def _score_report(
    loaded: _Loaded, result: ShapeScore, request: dict[str, Any], case: Case | None = None
) -> dict[str, Any]:
    """The JSON report; with a case also its id and the family scorer's headline score."""
    drawing = loaded.drawing
    report: dict[str, Any] = {"file": loaded.name}
    if case is not None:
        report.update(case=case.id, family=case.family, score=result.score)
    else:
        report["family"] = result.family
    try:
        seed = seed_score(drawing.data)
        report["seed_score"] = seed if math.isfinite(seed) else None
    except ValueError as exc:
        report["seed_score"] = None
        report["seed_score_note"] = _SEED_ERROR_NOTE.format(reason=exc)
    report["n_points"] = len(drawing)
    report["request"] = request
    # n_points and seed_score are reported above (seed_score as null where PHP would throw)
    report["metrics"] = {k: v for k, v in sorted(result.metrics.items()) if k not in ("n_points", "seed_score")}
    report["checks"] = {
        c.name: {"passed": c.passed, "value": c.value, "limit": c.limit, "detail": c.detail, "indices": list(c.indices)}
        for c in result.checks
    }
    report["passed"] = result.passed
    report["failed"] = [c.name for c in result.failed]
    return _plain(report)


# a list of numbers or short strings that json.dumps(indent=2) spread over lines
_SPREAD_LIST = re.compile(r"\[\n\s+((?:[-\w.\"]+,\n\s+)*[-\w.\"]+)\n\s+\]")


def _dumps(report: dict[str, Any]) -> str:
    """Pretty JSON with number lists kept on one line; non-ASCII only where stdout can print it."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "≥".encode(encoding)
        ascii_only = False
    except (LookupError, UnicodeEncodeError):
        ascii_only = True
    text = json.dumps(report, indent=2, ensure_ascii=ascii_only, allow_nan=False)
    return _SPREAD_LIST.sub(lambda m: "[" + re.sub(r",\n\s+", ", ", m.group(1)) + "]", text)


def _cmd_score(args: argparse.Namespace) -> int:
    case = _selected(args)
    loaded = _read_answer(args.file)
    if case is None:
        req = _request(args, loaded.drawing)
        report = _score_report(loaded, _score(loaded.drawing, req), _circle_request(req))
    else:
        report = _score_report(loaded, _score_case(case, loaded.drawing), cli_cases.request(case), case)
    sys.stdout.write(_dumps(report) + "\n")
    return EXIT_FAILED if args.check and not report["passed"] else EXIT_OK


def _cmd_cases(args: argparse.Namespace) -> int:
    try:
        lines = cli_cases.listing(args.cases, args.family)
    except CaseError as exc:
        raise _Fail(str(exc)) from None
    sys.stdout.write("".join(line + "\n" for line in lines))
    return EXIT_OK


# --- render --------------------------------------------------------------------------------------


def _ideal(result: ShapeScore, req: _Request) -> tuple[np.ndarray | None, str]:
    """The ideal circle about the requested center with the fitted radius, or why there is none."""
    radius = result.metrics.get("radius")
    if radius is None:
        return None, "no circle fits the points"
    r = int(round(radius))
    if not 1 <= r <= MAX_IDEAL_RADIUS:
        return None, f"fitted radius {radius:.4g} is outside 1..{MAX_IDEAL_RADIUS:,}"
    center = (int(round(req.center[0])), int(round(req.center[1])))
    return raster_circle(center, r, start=req.start, direction=req.direction or "cw"), ""


def _output_format(path: str) -> str:
    if path == "-":
        return "svg"
    ext = os.path.splitext(path)[1].lower()
    if ext in (".svg", ".png"):
        return ext[1:]
    raise _Fail(_BAD_OUTPUT.format(path=path))


def _cmd_render(args: argparse.Namespace) -> int:
    fmt = _output_format(args.output)
    case = _selected(args)
    loaded = _read_answer(args.file)
    ideal, why, title = None, "", loaded.name
    if case is None:
        req = _request(args, loaded.drawing)
        result, grid = _score(loaded.drawing, req), req.grid_size
        if args.ideal:
            ideal, why = _ideal(result, req)
    else:
        result, grid = _score_case(case, loaded.drawing), case.grid_size
        title = f"{loaded.name} · {case.id}"
        if args.ideal:
            ideal, why = cli_cases.ideal(case)
    if args.ideal and ideal is None:
        print(f"{PROG}: no ideal overlay: {why}", file=sys.stderr)
    points = loaded.drawing.points
    gaps = result.marks.get("gaps", ())
    if fmt == "png":
        try:
            data = render.png(points, grid, ideal=ideal, gaps=gaps)
        except ImportError:
            raise _Fail(_NO_PILLOW.format(hint=render.PNG_INSTALL_HINT)) from None
    else:
        text = render.svg(points, grid, ideal=ideal, gaps=gaps, title=title, breaks=result.marks.get("breaks", ()))
        data = (text + "\n").encode("utf-8")
    if args.output == "-":
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is not None:
            buffer.write(data)
        else:  # a text-only stdout (an embedding app, a test's StringIO)
            sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()
        return EXIT_OK
    try:
        with open(args.output, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise _Fail(f"cannot write {args.output!r}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}", file=sys.stderr)
    return EXIT_OK
