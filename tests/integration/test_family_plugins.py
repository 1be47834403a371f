"""Third-party shape families: an installed distribution's ``shape_asserts.families`` entry point.

The worked example ``examples/plus-family`` is "installed" for a subprocess run without touching
this environment: its source folder and a generated ``<dist>.dist-info`` (``METADATA`` and
``entry_points.txt``, what ``pip install`` leaves for :mod:`importlib.metadata`) go on
``PYTHONPATH``. Its family must then select with ``-m plus``, be answered by the reference drawer
(through the fake litellm), and have its row in the end-of-run summary.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import REPO, SUBPROCESS_TIMEOUT, summary_rows

EXAMPLE = REPO / "examples" / "plus-family"
PLUS_CASES = EXAMPLE / "plus_cases.toml"
#: The example's case file: a 2 × 2 × 2 `vary` matrix and one off-center case.
PLUS_IDS = sorted(
    ["plus-off-center-cw"] + [f"plus-a{a}-w{w}-{d}" for a in (12, 20) for w in (6, 10) for d in ("cw", "ccw")]
)


def _install(site: Path, entry_point: str, dist: str = "shape-asserts-plus") -> None:
    """Leave on ``site`` what installing ``dist`` leaves for importlib.metadata to find."""
    info = site / f"{dist.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[shape_asserts.families]\n{entry_point}\n", encoding="utf-8")


@pytest.fixture
def installed(suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """Install a plugin for the suite's subprocess runs: ``installed("plus = shape_plus:FAMILY")``."""

    def install(entry_point: str) -> None:
        site = tmp_path_factory.mktemp("site")
        _install(site, entry_point)
        path = [str(site), str(EXAMPLE), os.environ.get("PYTHONPATH", "")]
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in path if p))

    return install


def _ran(result: pytest.RunResult) -> list[str]:
    return sorted(
        line.split("[", 1)[1].split("]", 1)[0]
        for line in result.stdout.lines
        if "::test_drawing[" in line and " PASSED" in line
    )


@pytest.fixture
def plus_cases(suite: pytest.Pytester) -> str:
    """The example's case file, copied into the suite folder as a user keeps theirs."""
    shutil.copy(PLUS_CASES, suite.path / PLUS_CASES.name)
    return PLUS_CASES.name


def test_an_installed_family_selects_with_its_marker_and_has_a_summary_row(suite, fake_litellm, installed, plus_cases):
    installed("plus = shape_plus:FAMILY")

    result = suite.runpytest_subprocess(
        "--shape-cases",
        plus_cases,
        "-m",
        "plus",
        "--strict-markers",
        "-v",
        "-p",
        "no:randomly",
        timeout=SUBPROCESS_TIMEOUT,
    )

    result.assert_outcomes(passed=len(PLUS_IDS))
    assert _ran(result) == [f"{case}@reference/exact" for case in PLUS_IDS]
    row = summary_rows(result.stdout.str())[("reference/exact", "plus")]
    assert (row["cases"], row["passed"], row["failed"]) == (str(len(PLUS_IDS)), str(len(PLUS_IDS)), "0")
    # the reference drawer answered the run's own case file: it was handed the cases, not a global
    asked = fake_litellm.calls()
    assert len(asked) == len(PLUS_IDS) and all("плюс" in call["messages"][0]["content"] for call in asked)
    assert (suite.path / "fixtures" / "reference_exact" / "plus-off-center-cw.json").is_file()


def test_without_the_plugin_its_case_file_is_an_error_naming_the_family(suite, fake_litellm, plus_cases):
    result = suite.runpytest_subprocess("--shape-cases", plus_cases, "-m", "plus", timeout=SUBPROCESS_TIMEOUT)

    # the user's case files load at start: a usage error, one line, before any collection
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: shape-asserts: *plus_cases.toml: case plus-off-center-cw: unknown shape family 'plus'; known: *"]
    )
    assert fake_litellm.calls() == []


def test_a_broken_plugin_is_a_collection_error_naming_its_distribution_and_the_fix(suite, installed):
    # The families load when shape tests are collected (not at configure, which every pytest run
    # pays for), so a broken plugin stops the run at collection rather than as a usage error.
    installed("plus = shape_plus_gone:FAMILY")

    result = suite.runpytest_subprocess("--collect-only", "-q", timeout=SUBPROCESS_TIMEOUT)

    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting test_shapes.py*",
            "shape-asserts: shape family plugin: the entry point 'plus' = 'shape_plus_gone:FAMILY' of "
            "shape-asserts-plus * failed to load: ModuleNotFoundError: *; fix it, or uninstall it "
            "(pip uninstall shape-asserts-plus)",
        ]
    )
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_a_run_without_shape_tests_never_loads_the_family_plugins(suite, installed):
    installed("plus = shape_plus_gone:FAMILY")
    suite.path.joinpath("test_shapes.py").unlink()
    suite.makepyfile(test_plain="def test_plain():\n    pass\n")

    result = suite.runpytest_subprocess("-q", "-p", "no:randomly", timeout=SUBPROCESS_TIMEOUT)

    result.assert_outcomes(passed=1)


def test_a_family_named_otherwise_than_its_entry_point_gets_its_marker_when_it_loads(suite, installed, plus_cases):
    # its marker is registered at collection, when the plugin loads, in time for --strict-markers
    installed("shapes = shape_plus:FAMILY")

    result = suite.runpytest_subprocess(
        "--shape-cases",
        plus_cases,
        "-m",
        "plus",
        "--strict-markers",
        "--collect-only",
        "-q",
        timeout=SUBPROCESS_TIMEOUT,
    )

    assert result.ret == pytest.ExitCode.OK
    collected = sorted(
        line.split("[", 1)[1].split("@", 1)[0] for line in result.stdout.lines if "::test_drawing[" in line
    )
    assert collected == PLUS_IDS
