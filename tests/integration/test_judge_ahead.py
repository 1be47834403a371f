"""``-n auto`` on a small shape run judges the recorded answers ahead in a second process.

The tests take the results it already sent, for their very answers, and judge the rest
themselves (unit tests: tests/unit/test_ahead.py). Here, in real runs: what every test records is
the same as in a run without it, a run that will ask starts none, and a broken recording still
fails its test with the same words.
"""

from __future__ import annotations

import json
import sys

import pytest

from .conftest import CIRCLE, N_CASES, junit_cases

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX only, as the plugin starts it")

#: In the inner run: each test waits until the process sent its case (a run never waits: the
#: first tests judge their own while it starts), so every result comes from it; the takes are
#: counted, and written at the run's end.
COUNT_TAKEN = """
import json
import time
from pathlib import Path
import shape_asserts.results.ahead as ahead

taken = {"calls": 0, "hits": 0}
_take = ahead.Ahead.take

def take(self, key, *args):
    while key in self._sent and key not in self._got and not self._ended:
        self._drain()
        time.sleep(0.001)  # the process runs at the least priority: leave it the core
    result = _take(self, key, *args)
    taken["calls"] += 1
    taken["hits"] += result is not None
    return result

ahead.Ahead.take = take

def pytest_sessionfinish(session):
    Path("taken.json").write_text(json.dumps(taken))
"""


def _records(suite: pytest.Pytester, *args: str) -> tuple[dict[str, dict[str, str]], pytest.RunResult]:
    xml = "out.xml"
    result = suite.runpytest_subprocess(*CIRCLE, "-p", "no:randomly", f"--junitxml={xml}", *args)
    cases = junit_cases(suite.path / xml)
    return {name: c.properties for name, c in cases.items()}, result


@pytest.mark.parametrize("record", ["missing", "none"])
def test_n_auto_judges_ahead_and_records_exactly_what_a_plain_run_does(suite, record):
    suite.makeconftest(COUNT_TAKEN)
    plain, result = _records(suite, f"--record={record}")
    result.assert_outcomes(passed=N_CASES)
    result.stdout.no_fnmatch_line("*judged ahead*")
    ahead, result = _records(suite, f"--record={record}", "-n", "auto")
    result.assert_outcomes(passed=N_CASES)
    result.stdout.fnmatch_lines(["*-n auto: * shape tests run in this process*judged ahead by a second process*"])
    taken = json.loads((suite.path / "taken.json").read_text())
    assert taken == {"calls": N_CASES, "hits": N_CASES}  # each test's result came from the process
    assert ahead == plain  # every record, bit for bit


def test_a_run_that_will_ask_starts_no_judging_process(suite, fake_litellm):
    result = suite.runpytest("-n", "auto", *CIRCLE, "--model=openai/never-recorded", "--record=all")
    result.assert_outcomes(passed=N_CASES)
    result.stdout.no_fnmatch_line("*judged ahead*")


def test_a_broken_recording_fails_its_test_with_the_same_words(suite):
    from .conftest import CIRCLE_CASES

    broken = suite.path / "fixtures" / "reference_exact" / f"{CIRCLE_CASES[0]}.json"
    broken.write_text("{not json", encoding="utf-8")
    words = []
    for extra in ((), ("-n", "auto")):
        result = suite.runpytest_subprocess(*CIRCLE, "-p", "no:randomly", "--record=none", *extra)
        result.assert_outcomes(passed=N_CASES - 1, errors=1)
        words.append([line for line in result.stdout.lines if "FixtureError" in line])
    assert words[0] and words[0] == words[1]


@pytest.mark.parametrize(
    "filters",
    [
        "    error\n    ignore::pytest.PytestAssertRewriteWarning\n    ignore::RuntimeWarning:shape_asserts.*\n",
        "    ignore::pytest.PytestAssertRewriteWarning\n    always::RuntimeWarning\n",
    ],
    ids=["ignored-by-module", "shown"],
)
def test_a_case_whose_judging_warns_meets_the_runs_own_warning_filters(suite, filters):
    # judging this answer raises numpy's overflow warnings inside shape_asserts: under -n auto its
    # test judges it itself, so a filter by module holds and every warning is shown, as in a plain run
    path = suite.path / "fixtures" / "reference_exact" / "spiral-c25-t3-s6-in-start000-cw.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    points = [{"x": 1e308, "y": -1e308}, {"x": -1e308, "y": 1e308}, {"x": 1e308, "y": 1e308}, {"x": 0, "y": 0}]
    doc["samples"][0]["text"] = json.dumps({"points": points})
    path.write_text(json.dumps(doc), encoding="utf-8")
    suite.makeini("[pytest]\nfilterwarnings =\n" + filters)
    suite.makeconftest(COUNT_TAKEN)  # each test waits for its case: the process's path is taken
    outcomes = []
    for extra in ((), ("-n", "auto")):
        result = suite.runpytest_subprocess("-m", "spiral", "-p", "no:randomly", "--record=none", *extra)
        outcomes.append(result.parseoutcomes())
    assert outcomes[0] == outcomes[1]
    assert outcomes[0].get("failed") == 1  # the drawing's verdict, not a warning turned error
    assert (outcomes[0].get("warnings", 0) > 0) == filters.strip().endswith("always::RuntimeWarning")
