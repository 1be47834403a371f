"""``--lang``: the prompt language; recordings of other languages live beside (``<case-id>.<lang>.json``)."""

from __future__ import annotations

import json
import shutil

import pytest

from shape_asserts.cases import load_cases

from .conftest import INI, recording

CASE = "circle-start330-ccw"
ENGLISH = f"{CASE}.en.json"


def test_english_prompts_are_not_answered_by_russian_recordings(suite):
    result = suite.runpytest("--lang=en", "--record=none", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"FixtureError: no recorded answer at {recording(suite, CASE, name=ENGLISH)} *"])


def test_an_english_run_asks_in_english_and_records_beside_the_russian_recording(suite, fake_litellm):
    russian = recording(suite, CASE).read_bytes()
    case = next(c for c in load_cases() if c.id == CASE)

    recorded = suite.runpytest("--lang=en", "-k", CASE)
    replayed = suite.runpytest("--lang=en", "--record=none", "-k", CASE)

    recorded.assert_outcomes(passed=1)
    replayed.assert_outcomes(passed=1)
    assert [c["messages"] for c in fake_litellm.calls()] == [case.messages("en")]
    assert case.messages("en") != case.messages("ru")
    doc = json.loads(recording(suite, CASE, name=ENGLISH).read_text(encoding="utf-8"))
    assert doc["lang"] == "en" and doc["prompt_sha256"] == case.prompt_hash("en")
    assert recording(suite, CASE).read_bytes() == russian


def test_a_russian_recording_under_the_english_name_is_refused_as_not_what_its_path_says(suite):
    shutil.copy(recording(suite, CASE), recording(suite, CASE, name=ENGLISH))

    result = suite.runpytest("--lang=en", "--record=none", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [f"*records reference/exact/{CASE} (ru), not reference/exact/{CASE} (en) as its path says*"]
    )


def test_the_ini_lang_applies_unless_the_command_line_gives_one(suite):
    suite.makeini(INI + "shape_lang = en\n")

    from_ini = suite.runpytest("--record=none", "-k", CASE)
    from_option = suite.runpytest("--record=none", "--lang=ru", "-k", CASE)

    from_ini.assert_outcomes(errors=1)
    from_ini.stdout.fnmatch_lines([f"*{ENGLISH}*"])
    from_option.assert_outcomes(passed=1)


def test_an_unknown_lang_is_a_usage_error(suite):
    result = suite.runpytest("--lang=fr")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--lang*invalid choice*'fr'*"])
