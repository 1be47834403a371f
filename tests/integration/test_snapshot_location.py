"""Snapshots kept anywhere: ``--snapshots-dir`` outside the test folder writes and compares without warnings."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE_CASES

#: A few circle cases (their recordings ship with the repo): the first start points, both directions.
FEW = ("-m", "circle", "-k", "start0")
N_FEW = sum("start0" in case for case in CIRCLE_CASES)


@pytest.fixture
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A snapshots folder outside the suite's folder (and outside any ``tests/``)."""
    return str(tmp_path_factory.mktemp("pins-elsewhere") / "snapshots")


def test_writing_snapshots_outside_the_test_folder_warns_nothing(suite, elsewhere):
    result = suite.runpytest("--record=none", *FEW, f"--snapshots-dir={elsewhere}", "--snapshot-update")

    result.assert_outcomes(passed=N_FEW)
    assert "Can not relate snapshot" not in result.stdout.str()
    assert result.parseoutcomes().get("warnings", 0) == 0
    result.stdout.fnmatch_lines([f"{N_FEW} snapshots generated*"])


def test_comparing_snapshots_kept_outside_the_test_folder_warns_nothing(suite, elsewhere):
    suite.runpytest("--record=none", *FEW, f"--snapshots-dir={elsewhere}", "--snapshot-update")

    result = suite.runpytest("--record=none", *FEW, f"--snapshots-dir={elsewhere}")

    result.assert_outcomes(passed=N_FEW)
    assert result.parseoutcomes().get("warnings", 0) == 0
    result.stdout.fnmatch_lines([f"{N_FEW} snapshots passed*"])


def test_other_warnings_from_syrupy_still_show(suite, elsewhere):
    """Only the two about our layout are silenced: a warning raised while writing still reaches the run."""
    suite.makeconftest(
        "import warnings\n"
        "from syrupy.extensions.single_file import SingleFileSnapshotExtension\n"
        "_write = SingleFileSnapshotExtension.write_snapshot_collection.__func__\n"
        "def noisy(cls, **kwargs):\n"
        "    warnings.warn('something else about a snapshot')\n"
        "    return _write(cls, **kwargs)\n"
        "SingleFileSnapshotExtension.write_snapshot_collection = classmethod(noisy)\n"
    )

    result = suite.runpytest(
        "--record=none", "-k", "circle-start000-cw", f"--snapshots-dir={elsewhere}", "--snapshot-update"
    )

    result.assert_outcomes(passed=1, warnings=1)
    assert "something else about a snapshot" in result.stdout.str()
    assert "Can not relate snapshot" not in result.stdout.str()
