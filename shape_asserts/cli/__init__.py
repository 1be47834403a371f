"""The ``shape-asserts`` command: score or draw one saved model answer without running pytest.

::

    shape-asserts score answer.json --start 25 1 --direction cw   # metrics and checks as JSON
    shape-asserts score square.txt --case square-c25-s30-start-tl-cw --check   # any case's checks
    shape-asserts render answer.json --ideal -o answer.svg         # or .png (needs the png extra)
    shape-asserts cases --family square                            # the case ids, with family
    shape-asserts leaderboard results-a.jsonl results-b.jsonl       # the board of --shape-results files
    cat answer.txt | shape-asserts score -

Without ``--case`` an answer is scored as a circle (``--center``/``--start``/``--direction``); with
``--case ID`` (built-in, or from ``--cases FILE``) the case's family scorer decides, on its grid.

Exit status: 0 when the answer was read (whatever its score: the score is the output), 1 with
``score --check`` when a check failed, 2 when it could not be read (format error, unreadable file,
bad option, unknown case). Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence

import numpy as np

from shape_asserts._version import __version__
from shape_asserts.cli.commands import (
    DEFAULT_GRID,
    EXIT_ERROR,
    MAX_GRID,
    PROG,
    _cmd_cases,
    _cmd_render,
    _cmd_score,
    _Fail,
)
from shape_asserts.cli.leaderboard import add_parser as add_leaderboard
from shape_asserts.exceptions import CaseError
from shape_asserts.families.registry import families

__all__ = ["main"]


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
    """The command line's parser: every command and flag, in the order ``--help`` shows them.

    Long because it is one table of argparse declarations, read top to bottom like the help.
    """
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Score or draw a language model's coordinate drawing of a circle, "
        "or of any case's shape with --case.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("file", metavar="FILE", help="the model's answer (raw text with JSON), or - for stdin")
    common.add_argument(
        "--center",
        nargs=2,
        type=_finite,
        metavar=("X", "Y"),
        help="requested center (default: the answer's own center, else the grid's center)",
    )
    common.add_argument(
        "--grid", type=_grid, metavar="N", help=f"grid side (default: the answer's grid_size, else {DEFAULT_GRID})"
    )
    common.add_argument(
        "--case",
        metavar="ID",
        help="check against this case instead of a circle: its family's checks, grid "
        "and request (list ids with `cases`; not with --center/--grid/--start/--direction)",
    )
    files = argparse.ArgumentParser(add_help=False)
    files.add_argument(
        "--cases",
        action="append",
        metavar="FILE",
        help="a case file (TOML, as shape_asserts/cases/*.toml) adding cases; repeatable",
    )

    sp = sub.add_parser(
        "score",
        parents=[common, files],
        help="print metrics and checks as JSON",
        description="Print the answer's seed score, metrics and checks as JSON (a circle's, "
        "or --case's). Exits 0 whenever the answer could be read, even if "
        "checks fail, unless --check is given.",
    )
    sp.add_argument(
        "--start", nargs=2, type=_finite, metavar=("X", "Y"), help="requested first point (unchecked when omitted)"
    )
    sp.add_argument(
        "--direction",
        choices=("cw", "ccw"),
        help="requested direction as seen on screen, y down (unchecked when omitted)",
    )
    sp.add_argument(
        "--check", action="store_true", help="exit 1 when a check fails (default: exit 0 whenever the answer was read)"
    )
    sp.set_defaults(run=_cmd_score)

    rp = sub.add_parser(
        "render",
        parents=[common, files],
        help="draw the points as SVG or PNG",
        description="Draw the points on the grid: start ringed green, arrows for the "
        "direction of travel, gaps dashed red.",
    )
    rp.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output file, .svg or .png (PNG needs the png extra); - writes SVG to stdout",
    )
    rp.add_argument(
        "--ideal",
        action="store_true",
        help="overlay the ideal shape: --case's, else the circle about the center with the fitted radius (rounded)",
    )
    rp.set_defaults(run=_cmd_render)

    cp = sub.add_parser(
        "cases",
        parents=[files],
        help="list the case ids, with their family",
        description="List the built-in cases (and those in --cases files), one per line: "
        "the id for --case, then its family.",
    )
    cp.add_argument(
        "--family",
        choices=sorted(families()),
        metavar="F",
        help=f"only this family's cases ({', '.join(sorted(families()))})",
    )
    cp.set_defaults(run=_cmd_cases)
    add_leaderboard(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of exiting."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    except CaseError as exc:  # a broken family plugin: named, with what to do
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_ERROR
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
