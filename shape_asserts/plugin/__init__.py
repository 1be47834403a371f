"""pytest plugin: registers options, markers and fixtures, and hands the work to the library.

The options are declared once, in :mod:`shape_asserts.plugin.options`; which setting wins: command
line > ini file (``[tool.pytest.ini_options]``) > default. The default record mode is the safe
one, ``missing``: nothing recorded is ever re-asked.

Any test that requests the ``shape_run`` fixture is parametrized over models × cases; the test
body is one line (``shape_run.check()``). Answers are obtained during fixture *setup*, so a
provider outage or a missing fixture is reported as an ERROR, while a bad drawing is a FAILURE.

This package is the ``pytest11`` entry point: pytest registers what it names, the hooks and
fixtures of :mod:`shape_asserts.plugin.hooks`, each of which hands its work to the run object
(:mod:`shape_asserts.plugin.run`).
"""

from __future__ import annotations

from shape_asserts.plugin.hooks import *  # noqa: F403 -- the hooks and fixtures, as pytest registers them
from shape_asserts.plugin.hooks import __all__  # noqa: F401
