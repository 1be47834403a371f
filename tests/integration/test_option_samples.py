"""``--samples`` (answers per case, each recorded) and ``--min-pass-rate`` (share that must pass)."""

from __future__ import annotations

import json

import pytest

from .conftest import junit_cases, recording

CASE = "circle-start330-ccw"
TEST = f"test_drawing[{CASE}@reference/exact]"


def _add_sample(suite: pytest.Pytester, text: str) -> None:
    """Append a sample with ``text`` to the case's recording (the shipped one holds one sample)."""
    path = recording(suite, CASE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["samples"].append({**doc["samples"][0], "index": len(doc["samples"]), "text": text})
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")


def test_more_samples_than_recorded_is_an_error_in_none_mode(suite):
    result = suite.runpytest("--record=none", "--samples=2", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"FixtureError: fixture {recording(suite, CASE)} *2*; record it with: *"])


def test_missing_mode_asks_only_for_the_samples_not_yet_recorded(suite, fake_litellm):
    shipped = json.loads(recording(suite, CASE).read_text(encoding="utf-8"))["samples"][0]

    result = suite.runpytest("--samples=3", "-k", CASE)

    result.assert_outcomes(passed=1)
    assert sorted(c["sample"] for c in fake_litellm.calls()) == [1, 2]
    samples = json.loads(recording(suite, CASE).read_text(encoding="utf-8"))["samples"]
    assert [s["index"] for s in samples] == [0, 1, 2]
    assert samples[0] == shipped


def test_every_sample_is_replayed_and_scored(suite):
    _add_sample(suite, json.loads(recording(suite, CASE).read_text(encoding="utf-8"))["samples"][0]["text"])

    result = suite.runpytest("--record=none", "--samples=2", "-k", CASE, "--junitxml=out.xml")

    result.assert_outcomes(passed=1)
    props = junit_cases(suite.path / "out.xml")[TEST].properties
    assert len(json.loads(props["shape_result"])["samples"]) == 2


def test_by_default_a_case_fails_when_any_sample_fails(suite):
    _add_sample(suite, "Извините, я не могу нарисовать круг.")

    result = suite.runpytest("--record=none", "--samples=2", "-k", CASE)

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*1 of 2 sample(s) failed (pass rate 0.50 < required 1.00)*",
            "*sample #1: not a drawing*",
        ]
    )


def test_min_pass_rate_lets_a_case_pass_when_enough_samples_pass(suite):
    _add_sample(suite, "Извините, я не могу нарисовать круг.")

    result = suite.runpytest("--record=none", "--samples=2", "--min-pass-rate=0.5", "-k", CASE, "--junitxml=out.xml")

    result.assert_outcomes(passed=1)
    props = junit_cases(suite.path / "out.xml")[TEST].properties
    assert json.loads(props["shape_result"])["pass_rate"] == 0.5


@pytest.mark.parametrize("option", ["--samples=0", "--min-pass-rate=1.5", "--min-pass-rate=-0.1"])
def test_an_impossible_sample_setting_is_a_usage_error(suite, option):
    result = suite.runpytest(option)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{option.split('=')[0]} must be*"])
