"""Cases: a prompt plus its expectations, loaded from TOML data files.

Built-in cases live in ``shape_asserts/cases/*.toml``; users add their own files with
``--shape-cases FILE`` (or the ``shape_cases`` ini setting) without writing Python. A file holds
``[[case]]`` tables (one case each) and ``[[matrix]]`` tables (a family, fixed parameters, and lists
of start angles and directions that expand into one case each). A matrix may instead carry a
``vary`` table — each key a list of values, or a table of ``label = value`` — expanding into the
cartesian product, with each key's label (the value itself, or its label; ``[10, 10]`` → ``10-10``)
filling ``{key}`` in the id template. When two cases would ask the same
question (same family and parameters), the first one wins, so the seed's verbatim cases replace
their twins in the generated matrix.

Case ids are stable, readable and filesystem-safe: ``circle-start330-cw``.

Modules: :mod:`~shape_asserts.cases.model` (the :class:`Case`), :mod:`~shape_asserts.cases.load`
(files → checked cases, each resolved to its family), :mod:`~shape_asserts.cases.expand` (matrix
and ``vary`` expansion), :mod:`~shape_asserts.cases.index` (prompt text → case). Nothing here
keeps state between calls but the once-loaded built-in cases (:func:`builtin_cases`).
"""

from __future__ import annotations

from shape_asserts.cases.index import CaseIndex
from shape_asserts.cases.load import builtin_case_files, builtin_cases, load_cases
from shape_asserts.cases.model import CASE_ID_RE, Case

__all__ = ["Case", "CaseIndex", "load_cases", "builtin_case_files", "builtin_cases", "CASE_ID_RE"]
