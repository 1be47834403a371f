"""``shape-asserts leaderboard FILE...``: the leaderboard of one or many results files.

The files are what ``--shape-results`` writes (:mod:`shape_asserts.results.results_file`), from
one run or from many (CI jobs, machines); they are merged by
:func:`shape_asserts.results.merge.read_results`, whatever their order, and the board is made by
the run's own code (:func:`shape_asserts.results.leaderboard.leaderboard`,
:func:`shape_asserts.results.leaderboard_view.terminal_lines`): a run's file gives the run's ranks
and intervals. What the merge dropped or kept apart (duplicates, unreadable lines, a case defined
two ways) is said on stderr, one line each. ``--html PATH`` writes the summary and the leaderboard
as a page (the results files hold no answers, so it has no drawings).

``--html`` never writes over a results file: a PATH that is also one of the FILEs, or an existing
file that starts with a results line, is refused before anything is read or written. The shell's
``--html results-*.jsonl`` (the page's own name forgotten) makes the first file matched ``--html``'s
PATH: written, that job's results were lost and the board was made without them.

Exit status: 0 when a board was printed, 2 when no result could be read (each file's problem said)
or ``--html`` names a results file.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone

from shape_asserts.cli.commands import EXIT_ERROR, EXIT_OK, PROG
from shape_asserts.results.leaderboard import leaderboard
from shape_asserts.results.leaderboard_view import terminal_lines
from shape_asserts.results.merge import read_results
from shape_asserts.text import printable

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Declare the ``leaderboard`` command on the command line's subparsers."""
    lp = sub.add_parser(
        "leaderboard",
        help="rebuild the leaderboard from results files (--shape-results)",
        description="Merge results files written by --shape-results (from one run or many; their order "
        "does not matter) and print the leaderboard as a run prints it. Duplicates (one model "
        "configuration x case x sample twice) and unreadable lines are dropped, a case defined two ways "
        "(another prompt, language or thresholds) is kept as two cases; each is said on stderr.",
    )
    lp.add_argument("files", nargs="+", metavar="FILE", help="a results file (JSON lines); several are merged")
    lp.add_argument("--html", metavar="PATH", help="also write the summary and the leaderboard as an HTML page")
    lp.set_defaults(run=run)


def _say(line: str) -> None:
    print(f"{PROG} leaderboard: {printable(line)}", file=sys.stderr)


def _html_over_results(html: str, files: list[str]) -> str | None:
    """Why ``--html`` may not write at ``html`` (a results file it would destroy), or ``None``."""
    from shape_asserts.fileio import same_file
    from shape_asserts.results.results_file import holds_results

    if any(same_file(html, f) for f in files):
        return (
            f"--html {html} is also one of the FILEs to merge: the page would be written over it; "
            "give --html a path of its own (board.html)"
        )
    if holds_results(html):
        return (
            f"--html {html} is a results file (its first line is a results line): the page would be "
            "written over it, and it is not merged; give --html a path of its own before the FILEs "
            "(--html board.html results-*.jsonl)"
        )
    return None


def run(args: argparse.Namespace) -> int:
    """Read, merge, print the board (and write the page); the exit status."""
    if args.html:
        why = _html_over_results(args.html, args.files)
        if why is not None:
            _say(why)
            return EXIT_ERROR
    merged = read_results(args.files)
    for line in merged.said():
        _say(line)
    if not merged.records:
        _say(f"no results could be read from {len(args.files)} file(s): nothing to rank")
        return EXIT_ERROR
    _say(
        f"{len(merged.records):,} result(s) of {len(merged.models)} model(s) from {merged.files} file(s) "
        f"({merged.lines:,} line(s) read)"
    )
    board = leaderboard(merged.records, models=list(merged.models))
    for line in terminal_lines(board):
        print(line)
    if args.html:
        from shape_asserts.fileio import write_atomic
        from shape_asserts.results.report import ReportData, render_parts
        from shape_asserts.results.summary import summarize

        data = ReportData(
            records=merged.records,
            rows=summarize(merged.records),
            leaderboard=board,
            models=list(merged.models),
            settings=[("files", ", ".join(args.files)), ("results", f"{len(merged.records):,}")],
            notes=merged.said(),
            title="shape-asserts leaderboard",
            generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            sections=("header", "summary", "leaderboard"),
        )
        try:
            path = write_atomic(args.html, (piece + "\n" for piece in render_parts(data)), mode=0o644)
        except OSError as exc:
            _say(f"could not write {args.html}: {exc.strerror or exc}")
            return EXIT_ERROR
        _say(f"wrote {path}")
    return EXIT_OK
