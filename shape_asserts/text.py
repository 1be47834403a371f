"""Text from outside the run, as a terminal, a log or a report line shows it.

A model's answer, a recording, a provider's message, a file's name: any of them may hold escape
sequences that move the cursor or rewrite the screen, control characters, and the bidirectional
and zero-width characters that reorder or hide the words around them
(:data:`~shape_asserts.defaults.UNSEEN`), and may run to megabytes. :func:`printable` takes those
characters out; :func:`single_line` also puts the text on one line and bounds it. (The HTML
report escapes what it shows on its own: ``results/panels.py``.)
"""

from __future__ import annotations

import re

from shape_asserts.defaults import UNSEEN

__all__ = ["printable", "single_line"]

#: Escape sequences (CSI, OSC, and two-character ones), then control characters but the tab and
#: the line break, the Unicode line and paragraph separators, and the unseen ones.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029"
    + UNSEEN
    + "]"
)


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tabs as spaces, line breaks kept).

    >>> printable("\\x1b[2Jred\\tline\\u202e")
    'red line'
    """
    return _CONTROL.sub("", text.replace("\t", " "))


def single_line(text: object, limit: int) -> str:
    """``text`` :func:`printable`, on one line (each run of spaces and line breaks one space), and
    at most ``limit`` characters: a longer one is cut, and ends with "…".

    >>> single_line("a\\n\\n  b\\x07c", 80), single_line("abcdef", 4)
    ('a bc', 'abc…')
    """
    # a hostile text of megabytes is not cleaned whole for the few characters shown
    line = " ".join(printable(str(text)[: 8 * limit + 64]).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
