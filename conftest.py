"""Root conftest: hypothesis profiles. The shape suite itself is wired by the shape_asserts plugin."""

from __future__ import annotations

import os

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
