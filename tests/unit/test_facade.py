"""The package facade (``shape_asserts/__init__.py``): its public names load on first use.

The pytest plugin is ``shape_asserts.plugin``, so importing it runs the facade in every pytest run
where the package is installed; the names below must be there for ``from shape_asserts import ...``
without the facade importing numpy or a family up front.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import shape_asserts

FACADE = Path(shape_asserts.__file__)


def _imported_in(code: str) -> set[str]:
    """The modules of ``code`` left in ``sys.modules`` of a fresh interpreter (this one's path)."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(done.stdout.split())


def _type_checking_names() -> set[str]:
    tree = ast.parse(FACADE.read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    return {a.asname or a.name for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}


def test_every_public_name_has_one_source_and_a_type_checking_import():
    assert set(shape_asserts.__all__) == set(shape_asserts._SOURCES) | {"__version__"}
    assert _type_checking_names() == set(shape_asserts._SOURCES)


@pytest.mark.parametrize("name", sorted(shape_asserts._SOURCES))
def test_a_public_name_is_the_object_of_its_module(name):
    module = importlib.import_module(shape_asserts._SOURCES[name])
    assert getattr(shape_asserts, name) is getattr(module, name)


def test_dir_lists_every_public_name_before_it_is_loaded():
    assert set(shape_asserts.__all__) <= set(dir(shape_asserts))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'score_square'"):
        shape_asserts.score_square  # noqa: B018


def test_importing_the_package_imports_no_numpy_until_a_name_is_used():
    assert "numpy" not in _imported_in("import shape_asserts")
    assert "numpy" in _imported_in("from shape_asserts import score_circle")


def test_importing_the_pytest_plugin_imports_neither_numpy_nor_litellm_nor_a_family():
    """The plugin loads in every pytest run of an environment where it is installed."""
    loaded = _imported_in("import shape_asserts.plugin")
    # pytest itself is loaded already in every run that loads the plugin
    heavy = {"numpy", "litellm", "shape_asserts.families.registry", "shape_asserts.geometry"}
    assert not heavy & loaded, f"import shape_asserts.plugin pulled in {sorted(heavy & loaded)}"
