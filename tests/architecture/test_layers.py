"""The package's layout is the data's walk, and imports only ever point down it.

Layers, bottom to top (a module may import its own layer and any layer below, never above):

0. ``exceptions``, ``defaults``, ``fileio``, ``text``, ``_version`` — shared by everyone, import nothing of ours;
1. ``geometry`` — pure numpy: parse, fit, simplify, measure, raster, the seed port;
2. ``families`` — what each shape is asked, drawn and scored as (composes geometry);
3. ``cases`` — the case files, each case resolved to its family at load;
4. ``asking`` — one asker: litellm calls, reference drawers, record/replay store;
5. ``results`` — verdicts, the result record and its readers (summary, gate, report);
6. ``plugin``, ``cli``, ``inspect_task`` — wiring only (``inspect_task``: the inspect_ai task).

The root ``shape_asserts/__init__.py`` is the public facade and may import anything. Imports
under ``if TYPE_CHECKING:`` count too: a type that points up is a dependency that points up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "shape_asserts"
LAYERS = [
    {"exceptions", "defaults", "fileio", "text", "_version"},
    {"geometry"},
    {"families"},
    {"cases"},
    {"asking"},
    {"results"},
    {"plugin", "cli", "__main__", "inspect_task"},
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, *, module_level_only: bool) -> set[str]:
    """The modules of ours that ``name`` imports (resolved to modules that exist)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if not module_level_only:
                    visit(child, False)
                continue
            if isinstance(child, ast.If) and _is_type_checking(child) and module_level_only:
                continue  # a cycle through a type-only import does not run
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.split(".")[0] == "shape_asserts":
                        found.add(_existing(a.name))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[: len(base) - child.level + 1]
                    mod = ".".join(base + ([child.module] if child.module else []))
                else:
                    mod = child.module or ""
                if mod.split(".")[0] != "shape_asserts":
                    continue
                for a in child.names:
                    full = f"{mod}.{a.name}"
                    found.add(full if full in MODULES else _existing(mod))
            visit(child, top)

    visit(tree, True)
    found.discard(name)
    return found


def _existing(mod: str) -> str:
    while mod not in MODULES and "." in mod:
        mod = mod.rsplit(".", 1)[0]
    return mod


def _rank(mod: str) -> int | None:
    parts = mod.split(".")
    if len(parts) < 2:
        return None  # the facade
    return RANK.get(parts[1])


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in MODULES if m != "shape_asserts" and _rank(m) is None)
    assert not unplaced, f"modules outside every layer (add them to LAYERS in this test): {unplaced}"


def test_no_upward_import():
    upward = []
    for name, path in MODULES.items():
        mine = _rank(name)
        if mine is None:
            continue
        for target in sorted(_imports(name, path, module_level_only=False)):
            theirs = _rank(target)
            if theirs is None:
                upward.append(f"{name} imports the package facade {target}")
            elif theirs > mine:
                upward.append(f"{name} (layer {mine}) imports {target} (layer {theirs})")
    assert not upward, "imports that point up the walk:\n" + "\n".join(upward)


def _cycles(*, module_level_only: bool) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan) in the import graph."""
    graph = {name: _imports(name, path, module_level_only=module_level_only) for name, path in MODULES.items()}
    for name in graph:  # a package's submodule is imported after its __init__: not a cycle edge
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return cycles


def test_no_import_cycle():
    """No cycle of any kind: imports inside functions and under ``TYPE_CHECKING`` count too.

    An import deferred into a function still ties the two modules together: neither can be read,
    tested or moved without the other.
    """
    cycles = _cycles(module_level_only=False)
    assert not cycles, f"import cycles (function-level and TYPE_CHECKING imports included): {cycles}"


def test_the_walker_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    """The cycle rule can fail: two modules importing each other, one only inside a function."""
    a = tmp_path / "a.py"
    b = tmp_path / "b.py"
    a.write_text("from shape_asserts.geometry.fake_b import f\n")
    b.write_text("def f():\n    from shape_asserts.geometry.fake_a import g\n    return g\n")
    monkeypatch.setitem(MODULES, "shape_asserts.geometry.fake_a", a)
    monkeypatch.setitem(MODULES, "shape_asserts.geometry.fake_b", b)
    assert ["shape_asserts.geometry.fake_a", "shape_asserts.geometry.fake_b"] in _cycles(module_level_only=False)
    assert ["shape_asserts.geometry.fake_a", "shape_asserts.geometry.fake_b"] not in _cycles(module_level_only=True)


def test_the_walker_sees_an_upward_import(tmp_path, monkeypatch):
    """The rule can fail: a geometry module importing a result is caught."""
    fake = tmp_path / "shape_asserts" / "geometry" / "bad.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from shape_asserts.results.gate import gate\n")
    monkeypatch.setitem(MODULES, "shape_asserts.geometry.bad", fake)
    assert "shape_asserts.results.gate" in _imports("shape_asserts.geometry.bad", fake, module_level_only=False)
    with pytest.raises(AssertionError, match="geometry.bad"):
        test_no_upward_import()


#: A function longer than this says why in its docstring (a line starting "Long because").
LONGEST_FUNCTION = 80


def _long_functions() -> list[str]:
    long = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            doc = ast.get_docstring(node) or ""
            if lines > LONGEST_FUNCTION and "Long because" not in doc:
                long.append(f"{name}.{node.name}: {lines} lines")
    return long


def test_no_long_function_without_a_reason():
    """A function is broken at its steps; one kept whole over 80 lines says why ("Long because ...")."""
    long = _long_functions()
    assert not long, (
        f"functions over {LONGEST_FUNCTION} lines with no 'Long because' in their docstring "
        "(break them at their steps, or say why they read better whole):\n" + "\n".join(long)
    )


def test_the_length_rule_can_fail(tmp_path, monkeypatch):
    """A 90-line function without a reason is caught; the same with one is not."""
    body = "".join(f"    x{i} = {i}\n" for i in range(90))
    fake = tmp_path / "long.py"
    fake.write_text(f'def f():\n    """Sums."""\n{body}')
    monkeypatch.setitem(MODULES, "shape_asserts.geometry.long", fake)
    assert "shape_asserts.geometry.long.f: 92 lines" in _long_functions()
    fake.write_text(f'def f():\n    """Sums.\n\n    Long because it is a table.\n    """\n{body}')
    assert not [f for f in _long_functions() if ".long." in f]


#: The one module that may import inspect_ai: the rest of the package never depends on it.
INSPECT_MODULE = "shape_asserts.inspect_task"


def _importers_of(module: str) -> list[str]:
    """Our modules that import ``module`` or a part of it anywhere (inside functions and
    TYPE_CHECKING too)."""
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
            else:
                continue
            if any(t == module or t.startswith(module + ".") for t in targets):
                found.append(name)
                break
    return found


def test_only_the_task_module_imports_inspect_ai():
    """inspect_ai is an extra (``[inspect]``): the library, the plugin and a replay never load it,
    nor the task module that does."""
    assert _importers_of("inspect_ai") == [INSPECT_MODULE]
    assert _importers_of(INSPECT_MODULE) == []


def test_the_inspect_rule_can_fail(tmp_path, monkeypatch):
    """A results module importing inspect_ai inside a function is caught."""
    fake = tmp_path / "bad.py"
    fake.write_text("def f():\n    from inspect_ai.scorer import Score\n    return Score\n")
    monkeypatch.setitem(MODULES, "shape_asserts.results.bad", fake)
    assert "shape_asserts.results.bad" in _importers_of("inspect_ai")
