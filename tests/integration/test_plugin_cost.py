"""A pytest run that never asks for a shape pays (almost) nothing for the installed plugin.

The plugin is a ``pytest11`` entry point: it loads in every pytest run of an environment where
shape-asserts is installed. Such a run must not import numpy, litellm, the families or the cases
(``bench/plugin_import.py`` measures what it costs; here only what it loads is checked).
"""

from __future__ import annotations

import pytest

from .conftest import SUBPROCESS_TIMEOUT

HEAVY = ("numpy", "litellm", "shape_asserts.geometry", "shape_asserts.families.registry", "shape_asserts.cases")

CONFTEST = f"""
import gc
import sys

def pytest_runtest_call(item):  # what the cycle collector skips while tests run
    with open("frozen.txt", "w") as f:
        f.write(str(gc.get_freeze_count()))

def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        loaded = [m for m in {HEAVY!r} if m in sys.modules]
        with open("loaded.txt", "w") as f:
            f.write(" ".join(loaded))
"""


@pytest.mark.parametrize("args", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_an_unrelated_run_loads_neither_numpy_nor_the_families(pytester: pytest.Pytester, args):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_x="def test_x():\n    pass\n")

    result = pytester.runpytest_subprocess(
        "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *args, timeout=SUBPROCESS_TIMEOUT
    )

    result.assert_outcomes(passed=1)
    assert (pytester.path / "loaded.txt").read_text() == ""
    assert (pytester.path / "frozen.txt").read_text() == "0"  # its collector left as pytest has it


def test_the_control_a_shape_run_does_load_them(suite: pytest.Pytester):
    suite.makeconftest(CONFTEST)

    result = suite.runpytest_subprocess(
        "-q", "-p", "no:randomly", "-k", "circle-start330-ccw", timeout=SUBPROCESS_TIMEOUT
    )

    result.assert_outcomes(passed=1)
    assert set((suite.path / "loaded.txt").read_text().split()) >= {"numpy", "shape_asserts.families.registry"}
    # what collection left (numpy, the families, the cases, the items) is frozen before the tests
    assert int((suite.path / "frozen.txt").read_text()) > 20_000
