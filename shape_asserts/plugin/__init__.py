"""pytest plugin: registers options, markers and fixtures, and hands the work to the library.

The options are declared once, in :mod:`shape_asserts.plugin.options`; which setting wins: command
line > ini file (``[tool.pytest.ini_options]``) > default. The default record mode is the safe
one, ``missing``: nothing recorded is ever re-asked.

Any test that requests the ``shape_run`` fixture is parametrized over models × cases; the test
body is one line (``shape_run.check()``). Answers are obtained during fixture *setup*, so a
provider outage or a missing fixture is reported as an ERROR, while a bad drawing is a FAILURE.

This module is the ``pytest11`` entry point, imported by every pytest run in an environment where
shape-asserts is installed, so it imports nothing (pytest-recording style): its two hooks import
the option table, and the hooks and fixtures of :mod:`shape_asserts.plugin.hooks`, which it
registers once pytest is configured. numpy, the families and the cases load only when a run
collects a shape test; litellm only when one is asked of a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    from shape_asserts.plugin import workers
    from shape_asserts.plugin.options import register

    register(parser)
    # before configure: xdist asks how many workers -n auto starts in pytest_cmdline_main
    if not pluginmanager.is_registered(workers):
        pluginmanager.register(workers, "shape-asserts-workers")


def pytest_configure(config: pytest.Config) -> None:
    from shape_asserts.plugin import hooks

    config.pluginmanager.register(hooks, "shape-asserts-hooks")  # its hooks and fixtures, from now on
    hooks.configure(config)
