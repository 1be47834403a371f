"""Snapshots: each case's result is pinned under ``snapshots/<model-slug>[.<lang>][.x<samples>]/<family>/``."""

from __future__ import annotations

import json
import shutil

import pytest

from .conftest import CIRCLE, CIRCLE_CASES, N_CASES, SHIPPED_SNAPSHOTS, recording

CASE = "circle-start330-ccw"
SNAPSHOT = ("snapshots", "reference_exact", "circle", f"{CASE}.json")


def _close_the_loop(suite: pytest.Pytester) -> None:
    """Make the recorded answer end on its start point: it still passes, but its result changes."""
    path = recording(suite, CASE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    drawing = json.loads(doc["samples"][0]["text"])
    drawing["points"].append(drawing["points"][0])
    doc["samples"][0]["text"] = json.dumps(drawing)
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")


def test_replayed_answers_match_the_shipped_snapshots(suite_with_snapshots):
    result = suite_with_snapshots.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines([f"{N_CASES} snapshots passed*"])


@pytest.mark.parametrize("model", ["reference/exact", "reference/noisy"])
def test_every_shipped_snapshot_matches_its_replayed_answers(suite_with_snapshots, model):
    """Every family, both shipped models: a scorer change that moves a pinned metric must update the
    pins in the same commit (16 of reference/noisy's were left stale once, unseen by the circle test)."""
    result = suite_with_snapshots.runpytest(f"--model={model}", "--record=none", "-p", "no:randomly")

    assert "differs from the snapshot" not in result.stdout.str()
    result.stdout.fnmatch_lines(["139 snapshots passed*"])


def test_a_failing_drawing_that_matches_its_snapshot_fails_only_for_the_drawing(suite_with_snapshots):
    result = suite_with_snapshots.runpytest("--model=reference/noisy", "--record=none", *CIRCLE)

    assert result.parseoutcomes().get("failed", 0) > 0
    assert "differs from the snapshot" not in result.stdout.str()


def test_a_changed_result_fails_naming_its_snapshot_file_and_how_to_accept_it(suite_with_snapshots):
    _close_the_loop(suite_with_snapshots)

    result = suite_with_snapshots.runpytest("--record=none", "-k", CASE)

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"result differs from the snapshot in {suite_with_snapshots.path.joinpath(*SNAPSHOT)}; "
            "review and accept with --snapshot-update",
        ]
    )


def test_a_snapshot_files_escape_sequences_never_reach_the_terminal(suite_with_snapshots):
    """Red-team sweep 54: syrupy's diff quoted a tampered snapshot's lines raw (a title set, a
    screen clear, a right-to-left override) into the failure shown on the terminal."""
    snap = suite_with_snapshots.path.joinpath(*SNAPSHOT)
    text = snap.read_text(encoding="utf-8")
    assert '"family": "circle"' in text
    # raw, as a hand or a tool writes them (json.dumps would write \u001b, six harmless characters)
    snap.write_text(text.replace('"family": "circle"', '"family": "circle\x1b]0;PWNED\x07\x1b[2J\u202e"'), "utf-8")

    result = suite_with_snapshots.runpytest("--record=none", "-k", CASE, "--color=no")

    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "differs from the snapshot" in out and "PWNED" in out  # the diff is shown ...
    assert not any(ch in out for ch in "\x1b\x07\u202e")  # ... its sequences without their escapes


def test_snapshot_update_accepts_a_changed_result(suite_with_snapshots):
    _close_the_loop(suite_with_snapshots)
    snap = suite_with_snapshots.path.joinpath(*SNAPSHOT)
    before = json.loads(snap.read_text(encoding="utf-8"))

    updated = suite_with_snapshots.runpytest("--record=none", "--snapshot-update", "-k", CASE)
    again = suite_with_snapshots.runpytest("--record=none", "-k", CASE)

    updated.assert_outcomes(passed=1)
    again.assert_outcomes(passed=1)
    after = json.loads(snap.read_text(encoding="utf-8"))
    assert after["samples"][0]["metrics"]["n_points"] == before["samples"][0]["metrics"]["n_points"] + 1


def test_a_partial_snapshot_update_keeps_the_other_snapshots(suite_with_snapshots):
    shipped = sorted(p.relative_to(SHIPPED_SNAPSHOTS) for p in SHIPPED_SNAPSHOTS.rglob("*.json"))

    result = suite_with_snapshots.runpytest("--record=none", "--snapshot-update", "-k", "start330")

    result.assert_outcomes(passed=2)
    root = suite_with_snapshots.path / "snapshots"
    assert sorted(p.relative_to(root) for p in root.rglob("*.json")) == shipped


def test_a_model_without_a_snapshot_folder_is_not_compared(suite_with_snapshots):
    _close_the_loop(suite_with_snapshots)
    shutil.rmtree(suite_with_snapshots.path / "snapshots" / "reference_exact")

    result = suite_with_snapshots.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert not (suite_with_snapshots.path / "snapshots" / "reference_exact").exists()


def test_snapshot_update_creates_the_folder_of_a_model_that_has_none(suite_with_snapshots):
    shutil.rmtree(suite_with_snapshots.path / "snapshots" / "reference_exact")

    result = suite_with_snapshots.runpytest("--record=none", "--snapshot-update", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    folder = suite_with_snapshots.path / "snapshots" / "reference_exact" / "circle"
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(CIRCLE_CASES)


@pytest.mark.parametrize(
    ("options", "folder"),
    [
        (("--lang=en",), "reference_exact.en"),
        (("--samples=2",), "reference_exact.x2"),
    ],
)
def test_another_language_or_sample_count_has_its_own_snapshot_folder(
    suite_with_snapshots, fake_litellm, options, folder
):
    result = suite_with_snapshots.runpytest(*options, "--snapshot-update", "-k", CASE)

    result.assert_outcomes(passed=1)
    root = suite_with_snapshots.path / "snapshots"
    assert (root / folder / "circle" / f"{CASE}.json").is_file()
    assert sorted(p.relative_to(SHIPPED_SNAPSHOTS) for p in SHIPPED_SNAPSHOTS.rglob("*.json")) == sorted(
        p.relative_to(root) for p in root.rglob("*.json") if p.relative_to(root).parts[0] != folder
    )


def test_without_syrupy_results_are_not_compared(suite_with_snapshots):
    _close_the_loop(suite_with_snapshots)

    result = suite_with_snapshots.runpytest("--record=none", "-p", "no:syrupy", "-k", CASE)

    result.assert_outcomes(passed=1)


#: A conftest counting syrupy's own JSON serializations (written to syrupy_calls.txt at the end).
_COUNT_SYRUPY = """
from pathlib import Path

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

_ORIG = JSONSnapshotExtension.serialize
_CALLS = []


def pytest_configure(config):
    def counted(self, data, **kwargs):
        _CALLS.append(1)
        return _ORIG(self, data, **kwargs)

    JSONSnapshotExtension.serialize = counted


def pytest_unconfigure(config):
    JSONSnapshotExtension.serialize = _ORIG
    Path("syrupy_calls.txt").write_text(str(len(_CALLS)))
"""

_MATCHER = """

MATCHED = []


@pytest.fixture
def snapshot(snapshot):
    def matcher(*, data, path):
        MATCHED.append(1)
        return data

    return snapshot.with_defaults(matcher=matcher)


def pytest_sessionfinish(session):
    Path("matched.txt").write_text(str(len(MATCHED)))
"""


def test_summaries_are_written_by_the_plugin_not_by_syrupy_s_filter(suite_with_snapshots):
    """The plugin's assertion has no filter or matcher: its plain summaries skip syrupy's per-value pass."""
    suite_with_snapshots.makeconftest(_COUNT_SYRUPY)

    result = suite_with_snapshots.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines([f"{N_CASES} snapshots passed*"])
    assert (suite_with_snapshots.path / "syrupy_calls.txt").read_text() == "0"


def test_a_users_snapshot_matcher_is_applied_to_the_summaries(suite_with_snapshots):
    """A ``snapshot`` fixture given a matcher (syrupy's way to adjust what is pinned) sees every value."""
    suite_with_snapshots.makeconftest(_COUNT_SYRUPY + _MATCHER)

    result = suite_with_snapshots.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines([f"{N_CASES} snapshots passed*"])
    assert (suite_with_snapshots.path / "syrupy_calls.txt").read_text() == str(N_CASES)
    assert int((suite_with_snapshots.path / "matched.txt").read_text()) > 10 * N_CASES  # each value
