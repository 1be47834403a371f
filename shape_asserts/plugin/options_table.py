"""The README's options table, generated from the option table (:data:`~.options.OPTIONS`).

``python -m shape_asserts.plugin --markdown`` prints it; ``--write-readme README.md`` replaces the
block between :data:`START` and :data:`END`; ``tests/unit/test_options.py`` fails while they differ.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from shape_asserts.fileio import write_atomic
from shape_asserts.plugin.options import OPTIONS

__all__ = ["START", "END", "markdown_table", "replace_table", "main"]

START = "<!-- options:start -->"
END = "<!-- options:end -->"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The README's options table, one row per option."""
    rows = ["| option | ini | default | meaning |", "|---|---|---|---|"]
    for o in OPTIONS:
        usage = f"{o.flag} {{{','.join(o.choices)}}}" if o.choices else f"{o.flag} {o.metavar or ''}".rstrip()
        option = f"`{usage}`" + (" (repeatable)" if o.repeatable else "")
        ini = f"`{o.ini}`" + (" (one per line)" if o.repeatable else "")
        quoted = isinstance(o.default, (str, tuple)) and not o.default_text and o.shown_default
        default = f"`{o.shown_default}`" if quoted else o.shown_default
        rows.append(f"| {option} | {ini} | {_md(default)} | {_md(o.help)} |")
    return "\n".join(rows) + "\n"


def replace_table(readme: str) -> str:
    """``readme`` with the text between the option-table markers replaced by :func:`markdown_table`."""
    pattern = re.compile(re.escape(START) + r"\n.*?" + re.escape(END), re.DOTALL)
    if len(pattern.findall(readme)) != 1:
        raise ValueError(f"the README needs exactly one {START} ... {END} block")
    return pattern.sub(lambda _: f"{START}\n{markdown_table()}{END}", readme)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the options table, or rewrite it in a README."""
    parser = argparse.ArgumentParser(prog="python -m shape_asserts.plugin", description=main.__doc__)
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--markdown", action="store_true", help="print the README's options table")
    how.add_argument(
        "--write-readme", metavar="README", type=Path, help=f"replace the table between {START} and {END} in this file"
    )
    args = parser.parse_args(argv)
    if args.markdown:
        sys.stdout.write(markdown_table())
        return 0
    text = args.write_readme.read_text(encoding="utf-8")
    try:
        new = replace_table(text)
    except ValueError as exc:
        parser.error(f"{args.write_readme}: {exc}")
    if new != text:
        write_atomic(args.write_readme, new)
    return 0
