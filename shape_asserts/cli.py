"""The ``shape-asserts`` command: score or draw one saved model answer without running pytest.

::

    shape-asserts score answer.json --start 25 1 --direction cw   # metrics and checks as JSON
    shape-asserts render answer.json --ideal -o answer.svg         # or .png (needs the png extra)
    cat answer.txt | shape-asserts score -

Exit status: 0 when the answer was read (whatever its score: the score is the output), 2 when it
could not be (format error, unreadable file, bad option). Errors are one line on stderr, never a
traceback.
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

from . import __version__, render
from .drawing import MAX_ANSWER_CHARS, Drawing, parse_drawing
from .exceptions import DrawingFormatError
from .raster import raster_circle
from .score import ShapeScore, score_circle
from .seed import seed_score

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


def _score_report(loaded: _Loaded, req: _Request) -> dict[str, Any]:
    drawing = loaded.drawing
    result = _score(drawing, req)
    report: dict[str, Any] = {"file": loaded.name, "family": result.family}
    try:
        seed = seed_score(drawing.data)
        report["seed_score"] = seed if math.isfinite(seed) else None
    except ValueError as exc:
        report["seed_score"] = None
        report["seed_score_note"] = _SEED_ERROR_NOTE.format(reason=exc)
    report["n_points"] = len(drawing)
    report["request"] = {
        "center": list(req.center),
        "grid_size": req.grid_size,
        "start": list(req.start) if req.start is not None else None,
        "direction": req.direction,
    }
    # n_points and seed_score are reported above (seed_score as null where PHP would throw)
    report["metrics"] = {k: v for k, v in sorted(result.metrics.items())
                         if k not in ("n_points", "seed_score")}
    report["checks"] = {
        c.name: {"passed": c.passed, "value": c.value, "limit": c.limit, "detail": c.detail,
                 "indices": list(c.indices)}
        for c in result.checks
    }
    report["passed"] = result.passed
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
    loaded = _read_answer(args.file)
    report = _score_report(loaded, _request(args, loaded.drawing))
    sys.stdout.write(_dumps(report) + "\n")
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
    loaded = _read_answer(args.file)
    req = _request(args, loaded.drawing)
    result = _score(loaded.drawing, req)
    ideal = None
    if args.ideal:
        ideal, why = _ideal(result, req)
        if ideal is None:
            print(f"{PROG}: no ideal overlay: {why}", file=sys.stderr)
    points = loaded.drawing.points
    gaps = result.marks.get("gaps", ())
    if fmt == "png":
        try:
            data = render.png(points, req.grid_size, ideal=ideal, gaps=gaps)
        except ImportError:
            raise _Fail(_NO_PILLOW.format(hint=render.PNG_INSTALL_HINT)) from None
    else:
        text = render.svg(points, req.grid_size, ideal=ideal, gaps=gaps, title=loaded.name)
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
        description="Score or draw a language model's coordinate drawing of a circle.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("file", metavar="FILE", help="the model's answer (raw text with JSON), or - for stdin")
    common.add_argument("--center", nargs=2, type=_finite, metavar=("X", "Y"),
                        help="requested center (default: the answer's own center, else the grid's center)")
    common.add_argument("--grid", type=_grid, metavar="N",
                        help=f"grid side (default: the answer's grid_size, else {DEFAULT_GRID})")

    sp = sub.add_parser("score", parents=[common], help="print metrics and checks as JSON",
                        description="Print the answer's seed score, circle metrics and checks as JSON. "
                                    "Exits 0 whenever the answer could be read, even if checks fail.")
    sp.add_argument("--start", nargs=2, type=_finite, metavar=("X", "Y"),
                    help="requested first point (unchecked when omitted)")
    sp.add_argument("--direction", choices=("cw", "ccw"),
                    help="requested direction as seen on screen, y down (unchecked when omitted)")
    sp.set_defaults(run=_cmd_score)

    rp = sub.add_parser("render", parents=[common], help="draw the points as SVG or PNG",
                        description="Draw the points on the grid: start ringed green, arrows for the "
                                    "direction of travel, gaps dashed red.")
    rp.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file, .svg or .png (PNG needs the png extra); - writes SVG to stdout")
    rp.add_argument("--ideal", action="store_true",
                    help="overlay the ideal circle about the center with the fitted radius (rounded)")
    rp.set_defaults(run=_cmd_render)
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
