"""``--fixtures-dir``: where recorded answers are read and written (default ``fixtures/`` under the rootdir)."""

from __future__ import annotations

import json

from .conftest import CIRCLE, INI, N_CASES, files_under

CASE = "circle-start330-ccw"


def test_replay_reads_the_folder_named_on_the_command_line(suite):
    (suite.path / "fixtures").rename(suite.path / "recorded")

    result = suite.runpytest("--record=none", "--fixtures-dir=recorded", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)


def test_by_default_replay_reads_fixtures_under_the_rootdir(suite):
    (suite.path / "fixtures").rename(suite.path / "recorded")

    result = suite.runpytest("--record=none", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*no recorded answer at {suite.path / 'fixtures' / 'reference_exact' / CASE}.json*"])


def test_a_relative_fixtures_dir_is_resolved_against_the_rootdir_not_the_working_directory(suite, monkeypatch):
    (suite.path / "fixtures").rename(suite.path / "recorded")
    elsewhere = suite.mkdir("elsewhere")
    monkeypatch.chdir(elsewhere)

    result = suite.runpytest("--record=none", "--fixtures-dir=recorded", str(suite.path / "test_shapes.py"), *CIRCLE)

    result.assert_outcomes(passed=N_CASES)


def test_the_ini_fixtures_dir_applies_unless_the_command_line_gives_one(suite):
    (suite.path / "fixtures").rename(suite.path / "recorded")
    suite.makeini(INI + "shape_fixtures_dir = recorded\n")

    from_ini = suite.runpytest("--record=none", *CIRCLE)
    from_option = suite.runpytest("--record=none", "--fixtures-dir=nowhere", "-k", CASE)

    from_ini.assert_outcomes(passed=N_CASES)
    from_option.assert_outcomes(errors=1)
    from_option.stdout.fnmatch_lines([f"*no recorded answer at {suite.path / 'nowhere'}*"])


def test_recording_writes_only_into_the_given_folder(suite, fake_litellm, tmp_path):
    target = tmp_path / "answers"
    shipped = files_under(suite.path / "fixtures")

    result = suite.runpytest(f"--fixtures-dir={target}", "-k", CASE)

    result.assert_outcomes(passed=1)
    written = target / "reference_exact" / f"{CASE}.json"
    assert json.loads(written.read_text(encoding="utf-8"))["case"] == CASE
    assert [p.name for p in target.rglob("*.json")] == [written.name]
    assert files_under(suite.path / "fixtures") == shipped
