"""Root conftest: hypothesis profiles. The shape suite itself is wired by the shape_asserts plugin."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# pytester runs the plugin inside pytest (tests/integration); it must be enabled at the top level.
pytest_plugins = ("pytester",)

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


@pytest.fixture(autouse=True)
def _no_job_summary_from_inner_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of the suite inside a test (pytester) must not write to the CI job's real summary.

    The outer session still writes it (its end is outside any test); a test that wants a summary
    sets ``GITHUB_STEP_SUMMARY`` to a file of its own.
    """
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
