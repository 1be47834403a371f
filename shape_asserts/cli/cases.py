"""Cases on the command line: ``--case ID`` / ``--cases FILE`` and ``shape-asserts cases``.

Kept out of :mod:`shape_asserts.cli` so the command stays short. Every error is a one-line
:class:`~shape_asserts.exceptions.CaseError`; the command prints it as its usual one-line error.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np

from shape_asserts.cases import Case, load_cases
from shape_asserts.exceptions import CaseError
from shape_asserts.families.registry import families

__all__ = ["CIRCLE_ONLY", "select", "listing", "request", "ideal"]

#: Options that describe a circle request; with ``--case`` the case says what was asked instead.
CIRCLE_ONLY = ("center", "grid", "start", "direction")

#: How many close matches an unknown id names.
MAX_SUGGESTIONS = 3


def _load(paths: Sequence[str] | None) -> list[Case]:
    return load_cases(list(paths or ()), builtin=True)


def _list_hint(paths: Sequence[str] | None, prog: str, family: str | None = None) -> str:
    """The command that lists the cases ``paths`` add to the built-in ones."""
    words = [prog, "cases", *(f"--cases {shlex.quote(p)}" for p in paths or ())]
    return " ".join(words + ([f"--family {family}"] if family else []))


def select(case_id: str | None, paths: Sequence[str] | None, given: Sequence[str], prog: str) -> Case | None:
    """The case ``--case`` names (None without one), from the built-in cases and ``paths``.

    ``given`` are the circle-only options on the command line (``--center`` ...): they conflict
    with a case. An unknown id names up to three close matches and how to list the cases.
    """
    if case_id is None:
        if paths:
            raise CaseError(
                f"--cases only adds cases for --case: give --case ID too (list them with: {_list_hint(paths, prog)})"
            )
        return None
    if given:
        raise CaseError(
            f"--case cannot be combined with {', '.join(given)}: the case sets the grid, center, start and direction"
        )
    by_id = {c.id: c for c in _load(paths)}
    if case_id in by_id:
        return by_id[case_id]
    wanted = case_id.strip().lower()
    close = difflib.get_close_matches(wanted, list(by_id), n=MAX_SUGGESTIONS, cutoff=0.6)
    if not close and wanted:  # a family or a prefix ("square") is far from any whole id
        close = sorted((i for i in by_id if wanted in i), key=lambda i: not i.startswith(wanted))
        close = close[:MAX_SUGGESTIONS]
    guess = f"did you mean {', '.join(close)}?" if close else "no close match;"
    hint = _list_hint(paths, prog, wanted if wanted in families() else None)
    raise CaseError(f"unknown case {case_id!r}; {guess} list the cases with: {hint}")


def listing(paths: Sequence[str] | None, family: str | None = None) -> list[str]:
    """One line per case, ``<id>  <family>`` in aligned columns, in load order."""
    chosen = [c for c in _load(paths) if family is None or c.family == family]
    width = max((len(c.id) for c in chosen), default=0)
    return [f"{c.id:<{width}}  {c.family}" for c in chosen]


def request(case: Case) -> dict[str, Any]:
    """What the case asks for (its parameters), as the ``request`` of a score report."""
    return {k: v for k, v in case.params.items() if k != "seed_prompt"}


def ideal(case: Case) -> tuple[np.ndarray | None, str]:
    """The case's ideal drawing for the overlay, or None and why there is none."""
    try:
        return np.asarray(case.ideal(), dtype=float), ""
    except Exception as exc:
        return None, f"case {case.id} has no ideal drawing: {exc}"
