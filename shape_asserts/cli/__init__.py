"""The ``shape-asserts`` command: score or draw one saved model answer without running pytest.

::

    shape-asserts score answer.json --start 25 1 --direction cw   # metrics and checks as JSON
    shape-asserts score square.txt --case square-c25-s30-start-tl-cw --check   # any case's checks
    shape-asserts render answer.json --ideal -o answer.svg         # or .png (needs the png extra)
    shape-asserts cases --family square                            # the case ids, with family
    cat answer.txt | shape-asserts score -

Without ``--case`` an answer is scored as a circle (``--center``/``--start``/``--direction``); with
``--case ID`` (built-in, or from ``--cases FILE``) the case's family scorer decides, on its grid.

Exit status: 0 when the answer was read (whatever its score: the score is the output), 1 with
``score --check`` when a check failed, 2 when it could not be read (format error, unreadable file,
bad option, unknown case). Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from shape_asserts._version import __version__
from shape_asserts.cli import cases as cli_cases
from shape_asserts.results import render
from shape_asserts.cases import Case
from shape_asserts.geometry.drawing import MAX_ANSWER_CHARS, Drawing, parse_drawing
from shape_asserts.exceptions import CaseError, DrawingFormatError
from shape_asserts.geometry.raster import raster_circle
from shape_asserts.geometry.score import ShapeScore
from shape_asserts.families.circle_score import score_circle
from shape_asserts.geometry.seed import seed_score
from shape_asserts.families.registry import FAMILIES

__all__ = ["main"]

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
    return _Request(center=center, grid_size=grid, start=start,
                    direction=getattr(args, "direction", None))


def _score(drawing: Drawing, req: _Request) -> ShapeScore:
    return score_circle(drawing.points, center=req.center, grid_size=req.grid_size,
                        start=req.start, direction=req.direction, data=drawing.data)


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


def _score_report(loaded: _Loaded, result: ShapeScore, request: dict[str, Any],
                  case: Case | None = None) -> dict[str, Any]:
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
    report["metrics"] = {k: v for k, v in sorted(result.metrics.items())
                         if k not in ("n_points", "seed_score")}
    report["checks"] = {
        c.name: {"passed": c.passed, "value": c.value, "limit": c.limit, "detail": c.detail,
                 "indices": list(c.indices)}
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
        text = render.svg(points, grid, ideal=ideal, gaps=gaps, title=title,
                          breaks=result.marks.get("breaks", ()))
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


# --- arguments -----------------------------------------------------------------------------------


def _finite(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return v


def _grid(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= v <= MAX_GRID:
        raise argparse.ArgumentTypeError(f"grid size must be 1..{MAX_GRID:,}, got {v}")
    return v


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Score or draw a language model's coordinate drawing of a circle, "
                    "or of any case's shape with --case.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("file", metavar="FILE", help="the model's answer (raw text with JSON), or - for stdin")
    common.add_argument("--center", nargs=2, type=_finite, metavar=("X", "Y"),
                        help="requested center (default: the answer's own center, else the grid's center)")
    common.add_argument("--grid", type=_grid, metavar="N",
                        help=f"grid side (default: the answer's grid_size, else {DEFAULT_GRID})")
    common.add_argument("--case", metavar="ID",
                        help="check against this case instead of a circle: its family's checks, grid "
                             "and request (list ids with `cases`; not with --center/--grid/--start/--direction)")
    files = argparse.ArgumentParser(add_help=False)
    files.add_argument("--cases", action="append", metavar="FILE",
                       help="a case file (TOML, as shape_asserts/cases/*.toml) adding cases; repeatable")

    sp = sub.add_parser("score", parents=[common, files], help="print metrics and checks as JSON",
                        description="Print the answer's seed score, metrics and checks as JSON (a circle's, "
                                    "or --case's). Exits 0 whenever the answer could be read, even if "
                                    "checks fail, unless --check is given.")
    sp.add_argument("--start", nargs=2, type=_finite, metavar=("X", "Y"),
                    help="requested first point (unchecked when omitted)")
    sp.add_argument("--direction", choices=("cw", "ccw"),
                    help="requested direction as seen on screen, y down (unchecked when omitted)")
    sp.add_argument("--check", action="store_true",
                    help="exit 1 when a check fails (default: exit 0 whenever the answer was read)")
    sp.set_defaults(run=_cmd_score)

    rp = sub.add_parser("render", parents=[common, files], help="draw the points as SVG or PNG",
                        description="Draw the points on the grid: start ringed green, arrows for the "
                                    "direction of travel, gaps dashed red.")
    rp.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file, .svg or .png (PNG needs the png extra); - writes SVG to stdout")
    rp.add_argument("--ideal", action="store_true",
                    help="overlay the ideal shape: --case's, else the circle about the center with "
                         "the fitted radius (rounded)")
    rp.set_defaults(run=_cmd_render)

    cp = sub.add_parser("cases", parents=[files], help="list the case ids, with their family",
                        description="List the built-in cases (and those in --cases files), one per line: "
                                    "the id for --case, then its family.")
    cp.add_argument("--family", choices=sorted(FAMILIES), metavar="F",
                    help=f"only this family's cases ({', '.join(sorted(FAMILIES))})")
    cp.set_defaults(run=_cmd_cases)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of exiting."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    try:
        # answers with absurd coordinates (1e300) overflow into inf/NaN metrics, reported as
        # such (null in JSON); numpy's warnings about it would only be noise on stderr
        with np.errstate(all="ignore"):
            return args.run(args)
    except _Fail as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python's exit flush quiet too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
