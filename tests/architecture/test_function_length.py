"""No function runs past 80 lines: a longer one is broken at its natural steps for the next reader.

Held for the packages listed in ``HELD`` (the asking layer first: issue 32); a package joins the
list once its long functions are broken.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "shape_asserts"
HELD = ("asking",)
MAX_LINES = 80


def test_no_function_over_80_lines():
    long = []
    for name in HELD:
        for path in sorted((PACKAGE / name).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > MAX_LINES:
                        long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, f"functions over {MAX_LINES} lines (break them at their steps):\n" + "\n".join(long)
