"""Root conftest: hypothesis profiles (loaded by the first module that uses hypothesis). The shape suite itself is wired by the shape_asserts plugin."""

from __future__ import annotations

import os

import pytest

# pytester runs the plugin inside pytest (tests/integration); it must be enabled at the top level.
pytest_plugins = ("pytester",)

# --doctest-modules imports every module of the package; the inspect_ai task would load inspect_ai
# (~3 s, in every xdist worker) for no doctest. Its own tests import it: tests/*/test_inspect_task.py.
collect_ignore = ["shape_asserts/inspect_task.py"]

_profiles_loaded = False


def _load_hypothesis_profiles() -> None:
    from hypothesis import HealthCheck, settings

    # CI: derandomized and bounded, so a red build is reproducible and the run time is known.
    settings.register_profile(
        "ci",
        derandomize=True,
        max_examples=200,
        deadline=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.register_profile("dev", max_examples=100, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Load the hypothesis profile just before the first test module that uses hypothesis is imported.

    Importing hypothesis takes 1.5 s or more on a loaded machine: a run of the shape suite alone
    (and each of its xdist workers) should not pay it (bench/wall_time.py). A module's
    ``@settings(...)`` takes the profile loaded when it is imported, so this must come first.
    """
    global _profiles_loaded
    if _profiles_loaded or not isinstance(collector, pytest.Module):
        return
    try:
        uses = "hypothesis" in collector.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        uses = True
    if uses:
        _profiles_loaded = True
        _load_hypothesis_profiles()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run everything: the validity sweeps over every catalogue case (else a fixed sample of them) "
        "and the end-to-end runs through the real litellm (marker live; else deselected unless named)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # test modules choose their parameters at import, after this and before collection
    if config.getoption("full", default=False):
        from tests.sweep import FULL_ENV

        os.environ[FULL_ENV] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the ``live`` tests of a plain ``pytest`` run (the README's test command).

    Each starts pytest in a subprocess that imports the real litellm (5 s or more here): together
    they are half the test command's time. They run with ``--full`` (as ``.ci/run`` does), when
    ``-m`` names them, or when a path or test id on the command line is given.
    """
    named = config.option.file_or_dir or []
    if config.getoption("full", default=False) or "live" in (config.option.markexpr or "") or named:
        return
    live = [item for item in items if item.get_closest_marker("live") is not None]
    if live:
        config.hook.pytest_deselected(items=live)
        items[:] = [item for item in items if item.get_closest_marker("live") is None]
