"""``--record``: none replays only, missing (the default) asks only for what is not recorded, all re-asks."""

from __future__ import annotations

import json
import shlex

import pytest

from .conftest import CIRCLE, INI, LITELLM_PROBE_CONFTEST, N_CASES, SUBPROCESS_TIMEOUT, files_under, recording

CASE = "circle-start330-ccw"


def test_none_mode_replays_every_recorded_answer_without_asking(suite, fake_litellm):
    result = suite.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert fake_litellm.calls() == []


def test_none_mode_reports_a_missing_recording_as_an_error_saying_how_to_record(suite, fake_litellm):
    path = recording(suite, CASE)
    path.unlink()

    result = suite.runpytest("--record=none", *CIRCLE)

    result.assert_outcomes(passed=N_CASES - 1, errors=1)
    result.stdout.fnmatch_lines(
        [
            f"FixtureError: no recorded answer at {path} for reference/exact/{CASE}; "
            f"record it with: pytest --model=reference/exact --record=missing -k {CASE}",
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert not path.exists()
    assert fake_litellm.calls() == []


def test_the_record_hint_repeats_the_runs_own_settings_and_following_it_records_the_case(suite, fake_litellm):
    """The hint dropped --fixtures-dir, --temperature, --lang and --api-base, so following it asked
    for a recording this run would not read. Options that only judge or report are left out."""
    mine = (
        "--fixtures-dir=mine",
        "--temperature=0.3",
        "--max-tokens=2048",
        "--lang=en",
        "--request-timeout=900",
        "--timeout-retries=1",
    )  # in the option table's order, as the hint gives them
    result = suite.runpytest("--record=none", *mine, "--shape-report=r.html", "--gate-margin=3", "-k", CASE)

    result.assert_outcomes(errors=1)
    hint = next(line for line in result.stdout.lines if "record it with: " in line).split("record it with: ")[1]
    assert hint == f"pytest --model=reference/exact --record=missing {' '.join(mine)} -k {CASE}"
    followed = suite.runpytest(*shlex.split(hint)[1:])
    followed.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1 and fake_litellm.calls()[0]["temperature"] == 0.3
    suite.runpytest("--record=none", *mine, "-k", CASE).assert_outcomes(passed=1)  # now it replays


def test_a_token_in_api_base_reaches_neither_the_terminal_nor_the_junit_xml_nor_the_report(suite, monkeypatch):
    """C7 (issue 32): the hint repeated ``--api-base`` verbatim, a token in its path and ``?api-key=``
    with it, even with the token also in a secret-looking environment variable; it is shown as
    scheme://host:port everywhere. (``user:pass@`` is refused at start: test_option_validation.py.)"""
    tokens = ("tok-path-0123456789", "qk-0123456789abc")
    monkeypatch.setenv("GATEWAY_TOKEN", tokens[0])
    base = f"https://gw.example:8443/{tokens[0]}/v1?api-key={tokens[1]}"
    result = suite.runpytest(
        "--model=openai/never-recorded",
        "--record=none",
        f"--api-base={base}",
        "--junitxml=run.xml",
        "--shape-report=run.html",
        "-k",
        CASE,
    )

    result.assert_outcomes(errors=1)
    hint = next(line for line in result.stdout.lines if "record it with: " in line)
    assert "--api-base=https://gw.example:8443 " in hint
    written = "\n".join(result.outlines + result.errlines)
    for where in ("run.xml", "run.html"):
        written += (suite.path / where).read_text(encoding="utf-8")
    assert not [t for t in tokens if t in written]


def test_missing_mode_is_the_default_and_asks_only_for_the_missing_recording(suite, fake_litellm):
    path = recording(suite, CASE)
    path.unlink()
    before = files_under(suite.path / "fixtures")

    result = suite.runpytest(*CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert [c["model"] for c in fake_litellm.calls()] == ["reference/exact"]
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["case"] == CASE and len(written["samples"]) == 1
    assert written["samples"][0]["response_model"] == "fake-litellm"
    after = files_under(suite.path / "fixtures")
    assert {k for k in after.keys() - before.keys() if not k.endswith(".lock")} == {f"reference_exact/{CASE}.json"}
    assert all(after[k] == v for k, v in before.items())


def test_missing_mode_asks_nothing_when_everything_is_recorded(suite, fake_litellm):
    before = files_under(suite.path / "fixtures")

    result = suite.runpytest("--record=missing", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert fake_litellm.calls() == []
    assert files_under(suite.path / "fixtures") == before


def test_a_recording_made_at_another_temperature_is_stale(suite, fake_litellm):
    result = suite.runpytest("--record=none", "--temperature=0.5", "-k", CASE)

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"FixtureError: fixture {recording(suite, CASE)} is stale: it was recorded at the provider's default "
            f"temperature, this run asks temperature 0.5; it is kept, this run's answers go beside it "
            f"({CASE}@*.json) for reference/exact/{CASE}; record it with: *",
        ]
    )


def test_missing_mode_says_why_it_asks_a_stale_recording_again(suite, fake_litellm):
    """The decision was taken silently: a paid call made without a word."""
    result = suite.runpytest("--record=missing", "--temperature=0.5", "-k", CASE)
    result.stdout.fnmatch_lines(
        [
            f"shape-asserts: asking reference/exact/{CASE} again: fixture *{CASE}.json is stale: it was recorded "
            "at the provider's default temperature, this run asks temperature 0.5; it is kept, *",
        ]
    )


def test_missing_mode_records_another_temperature_beside_the_first(suite, fake_litellm):
    """Eleventh red-team sweep: the recording was replaced whole, and going back to the first
    temperature paid for every answer again."""
    first = recording(suite, CASE).read_text(encoding="utf-8")

    result = suite.runpytest("--record=missing", "--temperature=0.5", "-k", CASE)

    result.assert_outcomes(passed=1)
    assert [c["temperature"] for c in fake_litellm.calls()] == [0.5]
    assert recording(suite, CASE).read_text(encoding="utf-8") == first
    (beside,) = recording(suite, CASE).parent.glob(f"{CASE}@*.json")
    assert json.loads(beside.read_text(encoding="utf-8"))["temperature"] == 0.5
    for temperature in ("0.5", None):  # each replays, asking nothing
        again = suite.runpytest("--record=none", *(("--temperature", temperature) if temperature else ()), "-k", CASE)
        again.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1


def test_missing_mode_moves_a_corrupt_recording_aside_and_records_it_again(suite, fake_litellm):
    path = recording(suite, CASE)
    path.write_text("{not json", encoding="utf-8")

    result = suite.runpytest("--record=missing", "-k", CASE)

    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1
    aside = list(path.parent.glob(f"{CASE}.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    assert json.loads(path.read_text(encoding="utf-8"))["case"] == CASE


def test_all_mode_asks_again_for_every_selected_case_and_overwrites_its_recording(suite, fake_litellm):
    before = files_under(suite.path / "fixtures")

    result = suite.runpytest("--record=all", "-k", "circle-start000")

    result.assert_outcomes(passed=2)
    assert len(fake_litellm.calls()) == 2
    after = files_under(suite.path / "fixtures")
    changed = sorted(k for k in before if after[k] != before[k])
    assert changed == ["reference_exact/circle-start000-ccw.json", "reference_exact/circle-start000-cw.json"]
    for name in changed:
        samples = json.loads(after[name])["samples"]
        assert [s["response_model"] for s in samples] == ["fake-litellm"]


def test_the_ini_record_mode_applies_unless_the_command_line_gives_one(suite, fake_litellm):
    suite.makeini(INI + "shape_record = none\n")
    recording(suite, CASE).unlink()

    replay = suite.runpytest("-k", CASE)
    recorded = suite.runpytest("--record=missing", "-k", CASE)

    replay.assert_outcomes(errors=1)
    recorded.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1


def test_an_unknown_ini_record_mode_is_a_usage_error(suite):
    suite.makeini(INI + "shape_record = sometimes\n")

    result = suite.runpytest()

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*shape_record must be one of none, missing, all, got 'sometimes'*"])


@pytest.mark.parametrize("mode", ["none", "missing"])
def test_a_run_that_only_replays_never_imports_litellm(suite, mode):
    suite.makeconftest(LITELLM_PROBE_CONFTEST)

    result = suite.runpytest_subprocess(f"--record={mode}", *CIRCLE, timeout=SUBPROCESS_TIMEOUT)

    result.assert_outcomes(passed=N_CASES)
    assert (suite.path / "litellm_imported.txt").read_text() == "False"


def test_under_xdist_a_drawing_test_with_more_parameters_still_records_what_is_missing(suite, fake_litellm):
    # Regression: the run's fetch matches xdist node ids to model × case; a test with an extra
    # parameter (id `<case>@<model>-<x>`) went unmatched and then found nothing to replay.
    suite.makepyfile(
        test_extra="""
        import pytest

        @pytest.mark.parametrize("attempt", [1])
        def test_drawing_again(shape_run, attempt):
            shape_run.check()
    """
    )
    recording(suite, CASE).unlink()

    result = suite.runpytest_subprocess("-n", "2", "-k", f"{CASE} and again", timeout=SUBPROCESS_TIMEOUT)

    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1
    assert recording(suite, CASE).exists()


#: Appended to the fake litellm's conftest: counts the recordings read, written to reads.txt.
_COUNT_READS = """

from shape_asserts.asking.store import FixtureStore as _Store

_READ = _Store._load
_READS = []


def _counted(self, path, expect=None):
    _READS.append(str(path))
    return _READ(self, path, expect)


_Store._load = _counted


def pytest_unconfigure(config):
    _Store._load = _READ
    Path("reads.txt").write_text(str(len(_READS)))
"""


@pytest.mark.parametrize("mode", ["missing", "none"])
def test_each_recording_is_read_once_in_a_run_without_xdist(suite, fake_litellm, mode):
    """In missing mode the plan reads every recording to find what to ask; the tests replay what it
    read (they read each one again before)."""
    conftest = suite.path / "conftest.py"
    conftest.write_text("from pathlib import Path\n" + conftest.read_text() + _COUNT_READS)

    result = suite.runpytest(f"--record={mode}", *CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert (suite.path / "reads.txt").read_text() == str(N_CASES)
    assert fake_litellm.calls() == []


def test_a_case_asked_by_the_plan_is_read_by_its_test_after_it_was_recorded(suite, fake_litellm):
    """Only whole recordings are replayed as the plan read them: a missing one is asked, written,
    and its test replays what was written."""
    recording(suite, CASE).unlink()

    result = suite.runpytest(*CIRCLE)

    result.assert_outcomes(passed=N_CASES)
    assert len(fake_litellm.calls()) == 1
    assert recording(suite, CASE).exists()


def test_the_record_hint_gives_an_on_off_option_bare(suite):
    """It said --batch=True, which pytest refuses ("ignored explicit argument"; red-team m2)."""
    from shape_asserts.plugin.record_hint import reproduce

    assert "--batch" in reproduce(suite.parseconfig("--batch", "--model=openai/x"))
