"""A mistake in a user's case file stops the run at start as one line (exit 4), never as the
15-line traceback of pytest's collection hook it once arrived in, and before any model is asked."""

from __future__ import annotations

import pytest

from .conftest import CIRCLE, INI

CASE = """
[[case]]
id = "bad-circle"
family = "circle"
center = [25, 25]
start = [25, 15]
direction = "cw"
"""


def _run(suite: pytest.Pytester, *args: str) -> pytest.RunResult:
    return suite.runpytest("--record=all", *args, *CIRCLE)


@pytest.mark.parametrize(
    "text, message",
    [
        (CASE.replace("center", "centre"), "mine.toml: case bad-circle: *'centre'*"),
        (CASE + "grid_size = 1000000000\n", "mine.toml: case bad-circle: 'grid_size' must be a whole number from 1*"),
        (
            '[[matrix]]\nid = "m-{angle:999999999}"\nfamily = "circle"\ncenter = [20, 20]\nradius = 5\nangles = [0]\n',
            "mine.toml: matrix: id template 'm-{angle:999999999}'*widths of at most 100*",
        ),
        ("[[case]\n", "case file *mine.toml could not be read*"),
        # a threshold that is not finite once reached int(inf) at load: an INTERNALERROR
        (CASE + "thresholds = { max_gaps = inf }\n", "mine.toml: case bad-circle: 'thresholds.max_gaps' is inf*"),
        (CASE + "thresholds = { min_score = nan }\n", "mine.toml: case bad-circle: 'thresholds.min_score' is nan*"),
        # a parameter that is not finite once loaded, and the model was asked for "radius nan"
        (CASE + "radius = nan\n", "mine.toml: case bad-circle: 'radius' is nan; give a finite number"),
        # its recording under --lang en would be bad-circle's, each run calling the other's corrupt
        (
            CASE.replace('"bad-circle"', '"bad-circle.en"'),
            "mine.toml: case id 'bad-circle.en' ends in '.en', which names the --lang en recording of case "
            "'bad-circle': rename it (e.g. 'bad-circle-en')",
        ),
        (CASE.replace('"bad-circle"', '"x.ru"'), "mine.toml: case id 'x.ru' ends in '.ru'*"),
        # "$" let a final newline through: the recording was fixtures/<model>/nl-circle\n.json
        (CASE.replace('"bad-circle"', '"nl-circle\\n"'), "mine.toml: case id 'nl-circle\\n' must match*"),
        (CASE + "radius = -inf\n", "mine.toml: case bad-circle: 'radius' is -inf; give a finite number"),
        (CASE.replace("[25, 15]", "[25, inf]"), "mine.toml: case bad-circle: 'start?1?' is inf*"),
        # 50,000 nested arrays once ended in a 2,976-line RecursionError from the TOML parser
        (CASE + "radius = " + "[" * 50_000 + "]" * 50_000 + "\n", "case file *mine.toml nests its values too deep*"),
        (
            CASE + "radius = " + "[" * 20 + "]" * 20 + "\n",
            "mine.toml: case bad-circle: 'radius*' is nested more than 8 deep*",
        ),
    ],
)
def test_finding_8_a_case_file_error_is_one_line_at_start_and_asks_nothing(suite, fake_litellm, text, message):
    suite.path.joinpath("mine.toml").write_text(text, encoding="utf-8")

    result = _run(suite, "--shape-cases=mine.toml")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: shape-asserts: *{message}"])
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output and "pluggy" not in output and "collecting" not in output
    assert len([line for line in result.stderr.lines if line.strip()]) == 1
    assert fake_litellm.calls() == []


def test_a_missing_case_file_from_the_ini_is_the_same_usage_error(suite, fake_litellm):
    suite.makeini(INI + "shape_cases =\n    absent.toml\n")

    result = _run(suite)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: shape-asserts: case file *absent.toml does not exist"])
    assert fake_litellm.calls() == []


def test_a_good_case_file_runs_its_case(suite, fake_litellm):
    suite.path.joinpath("mine.toml").write_text(CASE.replace("bad-circle", "my-circle"), encoding="utf-8")

    result = suite.runpytest("--record=all", "--shape-cases=mine.toml", "-k", "my-circle")

    result.assert_outcomes(passed=1)
    assert len(fake_litellm.calls()) == 1
