"""``--shape-results FILE``: one JSON line per model × case × sample, and the leaderboard it rebuilds."""

from __future__ import annotations

import json
import os
import re
import stat

import pytest

from shape_asserts.cli import main
from shape_asserts.results.results_file import FORMAT, VERSION

from .conftest import SUBPROCESS_TIMEOUT, recording

MODELS = ("--model=reference/exact", "--model=reference/noisy")


def _section(output: str, title: str) -> list[str]:
    """The lines of a terminal section, up to the next section's title line (or the end)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line and line.startswith("="))
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"[=-]+ [A-Za-z(].* [=-]+$", lines[i])), len(lines))
    return lines[start + 1 : end]


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_two_model_benchmark_replay_and_its_results_file_print_the_same_leaderboard(bench_suite, capsys):
    result = bench_suite.runpytest("-m", "benchmark and spiral", *MODELS, "--record=none", "--shape-results=out.jsonl")
    run_board = _section(result.stdout.str(), "shape-asserts leaderboard")
    capsys.readouterr()

    status = main(["leaderboard", str(bench_suite.path / "out.jsonl")])

    printed = capsys.readouterr()
    assert status == 0
    board = printed.out.splitlines()
    assert "rank" in board[0] and "[95% CI]" in board[0] and "paired, overall" in printed.out
    # after the run's board only its own notes may follow (where the failing drawings are)
    after = [line for line in run_board[len(board) :] if line.strip() and not line.startswith("shape-asserts: ")]
    assert board == run_board[: len(board)] and not after
    assert "96 result(s) of 2 model(s) from 1 file(s)" in printed.err  # the spiral matrix: 48 cases × 2 models
    assert "out.jsonl, 96 tests" in result.stdout.str()
    _one_line_per_test_and_sample(bench_suite.path / "out.jsonl", result.parseoutcomes())
    assert [p.name for p in bench_suite.path.glob(".out.jsonl*")] == []  # no temporary file left


def _one_line_per_test_and_sample(path, outcomes: dict[str, int]) -> None:
    """The file holds one line per test (one sample each here), with its verdict, checks and configuration."""
    lines = _lines(path)
    assert len(lines) == 96 and len({(x["model"], x["case"], x["sample"]) for x in lines}) == 96
    assert {(x["format"], x["version"]) for x in lines} == {(FORMAT, VERSION)}
    assert sum(x["outcome"] == "passed" for x in lines) == outcomes["passed"]
    assert sum(x["outcome"] == "failed" for x in lines) == outcomes["failed"]
    noisy = next(x for x in lines if x["model"] == "reference/noisy" and x["outcome"] == "failed")
    assert noisy["passed"] is False and any(not c["passed"] for c in noisy["checks"])
    assert re.fullmatch(r"[0-9a-f]{64}", noisy["answer_sha256"]) and noisy["answer_length"] > 0
    assert noisy["config"] == {
        "name": "reference/noisy",
        "model": "reference/noisy",
        "temperature": None,
        "max_tokens": 4096,
        "lang": "ru",
        "args": {},
    }
    assert noisy["params"]["turns"] and re.fullmatch(r"[0-9a-f]{64}", noisy["case_sha256"])


def test_under_xdist_the_controller_alone_writes_every_result(suite):
    result = suite.runpytest("-n", "2", "-m", "seed", *MODELS, "--record=none", "--shape-results=out.jsonl")
    outcomes = result.parseoutcomes()

    lines = _lines(suite.path / "out.jsonl")

    assert len(lines) == outcomes.get("passed", 0) + outcomes.get("failed", 0) == 6
    assert len({(x["model"], x["case"]) for x in lines}) == 6
    assert sorted(x["record"] for x in lines) == list(range(6))


INTERRUPT_CONFTEST = """
import pytest

seen = []


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    if report.when == "teardown":
        seen.append(report.nodeid)
        if len(seen) == 2:
            raise KeyboardInterrupt
"""


def test_an_interrupted_run_leaves_a_partial_file_and_no_results_file(suite):
    suite.makeconftest(INTERRUPT_CONFTEST)

    result = suite.runpytest(
        "-p", "no:randomly", "-m", "seed", *MODELS, "--record=none", "--shape-results=out.jsonl", no_reraise_ctrlc=True
    )

    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert not (suite.path / "out.jsonl").exists()
    partial = _lines(suite.path / "out.jsonl.partial")
    assert len(partial) == 2  # whole lines only, of the tests that ended
    assert "a partial file" in result.stdout.str()


def test_a_results_path_that_cannot_be_written_stops_the_run_at_start(suite):
    (suite.path / "taken").write_text("a file, not a folder")

    result = suite.runpytest("-m", "seed", "--record=none", "--shape-results=taken/out.jsonl")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--shape-results*taken*"])
    assert "Traceback" not in result.stderr.str() + result.stdout.str()


def test_one_file_for_results_and_report_is_refused_at_start_and_left_as_it_is(suite):
    """Red team rt44 F4: ``--shape-results X --shape-report X`` exited 0 with X holding the report,
    the results the run was asked to keep written over. Now refused before any test (any call)."""
    earlier = suite.runpytest("-k", "circle-start000-cw", "--record=none", "--shape-results=out.jsonl")
    earlier.assert_outcomes(passed=1)
    before = (suite.path / "out.jsonl").read_bytes()

    result = suite.runpytest(
        "-k", "circle-start000-cw", "--record=none", "--shape-results=out.jsonl", "--shape-report=./sub/../out.jsonl"
    )

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--shape-results and --shape-report both name *out.jsonl*give each a path of its own"]
    )
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert (suite.path / "out.jsonl").read_bytes() == before


@pytest.mark.parametrize("junit", ["out.xml", "~/out.xml", "$HERE/out.xml"])
@pytest.mark.parametrize("other", ["--shape-results=out.xml", "--shape-report=out.xml"])
def test_one_file_for_junit_and_a_shape_output_is_refused_at_start(suite, monkeypatch, other, junit):
    """Red-team sweeps 45 and 46: ``--junitxml`` naming the results or report file exited 0 with
    the JUnit XML gone, also where it named it with ``~`` or a variable, which pytest expands."""
    monkeypatch.setenv("HOME", str(suite.path))
    monkeypatch.setenv("HERE", str(suite.path))
    result = suite.runpytest("-k", "circle-start000-cw", "--record=none", other, f"--junitxml={junit}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*and --junitxml both name *out.xml*give each a path of its own"])
    assert not (suite.path / "out.xml").exists()


@pytest.mark.parametrize("output", ["--shape-results", "--shape-report"])
@pytest.mark.parametrize("which", ["--shape-cases", "--shape-models"])
def test_an_output_naming_one_of_the_runs_inputs_is_refused_at_start(suite, output, which):
    """Red-team sweep 47: a report or results file naming the case file or the models file exited 0
    with the input written over."""
    inputs = {
        "--shape-cases": ("in.toml", '[[case]]\nid = "mine"\nfamily = "circle"\ncenter = [25, 25]\nstart = [25, 5]\n'),
        "--shape-models": ("in.toml", '[models.mine]\nmodel = "reference/exact"\n'),
    }
    name, text = inputs[which]
    (suite.path / name).write_text(text, encoding="utf-8")
    result = suite.runpytest("-k", "circle-start000-cw", "--record=none", f"{which}={name}", f"{output}=./{name}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{output} names the {which} file *in.toml*write over its own input*"])
    assert (suite.path / name).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("output", ["--shape-results", "--shape-report", "--junitxml"])
def test_an_output_naming_pytests_configuration_file_is_refused_at_start(suite, output):
    """Red-team sweep 48: pyproject.toml holds the run's options and its model configurations; an
    output naming it exited 0 with it written over."""
    ini = suite.path / "tox.ini"
    text = "[pytest]\naddopts = -p no:cacheprovider\n"
    ini.write_text(text, encoding="utf-8")
    result = suite.runpytest("-k", "circle-start000-cw", "--record=none", "-c", str(ini), f"{output}={ini}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{output} names pytest's configuration file *tox.ini*write over its own input*"])
    assert ini.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("output", ["--shape-results", "--shape-report"])
def test_an_output_in_the_recordings_folder_is_refused_at_start(suite, output):
    """Red-team sweep 49: an output naming one of the run's recordings wrote over it: corrupt on
    the next read, and its answers asked (paid for) again."""
    args = ("-k", "circle-start000-cw", "--fixtures-dir=rec")
    suite.runpytest_subprocess(*args, timeout=SUBPROCESS_TIMEOUT).assert_outcomes(passed=1)
    (recording,) = (suite.path / "rec").rglob("*.json")
    before = recording.read_bytes()

    result = suite.runpytest_subprocess(*args, f"{output}={recording}", timeout=SUBPROCESS_TIMEOUT)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{output} *is in the recordings folder *rec, the run*outside it*"])
    assert recording.read_bytes() == before


def test_a_report_over_an_earlier_jobs_results_file_is_refused_at_start(suite):
    """Red-team sweep 45: ``--shape-report`` naming an earlier job's results file wrote the page
    over it, where ``leaderboard --html`` refuses the same path."""
    earlier = suite.runpytest("-k", "circle-start000-cw", "--record=none", "--shape-results=results-a.jsonl")
    earlier.assert_outcomes(passed=1)
    before = (suite.path / "results-a.jsonl").read_bytes()

    result = suite.runpytest("-k", "circle-start000-cw", "--record=none", "--shape-report=results-a.jsonl")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--shape-report *results-a.jsonl is a results file*"])
    assert (suite.path / "results-a.jsonl").read_bytes() == before


def test_leaderboard_html_never_writes_over_a_results_file(suite, capsys, monkeypatch):
    """Red team rt44 F4: ``shape-asserts leaderboard --html results-*.jsonl`` (the page's own name
    forgotten) took the first job's file as --html's PATH: exit 0, the board made without that
    model, and its results replaced by the page. A PATH that is one of the FILEs, or any file that
    starts with a results line, is now refused before anything is read or written."""
    for model in ("exact", "noisy"):
        run = suite.runpytest(
            "-k",
            "circle-start000",
            f"--model=reference/{model}",
            "--record=none",
            f"--shape-results=results-{model}.jsonl",
        )
        assert run.ret in (0, 1)
    exact, noisy = suite.path / "results-exact.jsonl", suite.path / "results-noisy.jsonl"
    kept = {p: p.read_bytes() for p in (exact, noisy)}
    monkeypatch.chdir(suite.path)
    capsys.readouterr()

    as_the_shell_expands_it = main(["leaderboard", "--html", "results-exact.jsonl", "results-noisy.jsonl"])
    printed = capsys.readouterr()
    also_a_file = main(["leaderboard", "--html", "./results-noisy.jsonl", "results-exact.jsonl", str(noisy)])
    printed_again = capsys.readouterr()

    assert as_the_shell_expands_it == 2 and also_a_file == 2
    assert printed.out == "" and printed_again.out == ""  # no board: nothing was read
    assert "--html results-exact.jsonl is a results file" in printed.err and len(printed.err.splitlines()) == 1
    assert "--html ./results-noisy.jsonl is also one of the FILEs to merge" in printed_again.err
    assert {p: p.read_bytes() for p in (exact, noisy)} == kept
    assert main(["leaderboard", "--html", "board.html", "results-exact.jsonl", "results-noisy.jsonl"]) == 0
    assert (suite.path / "board.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("flag", ["--shape-results", "--shape-report"])
def test_a_device_or_pipe_is_refused_at_start_and_left_as_it_is(suite, flag):
    # renamed over, /dev/null would become a regular file for the whole machine: a pipe stands in
    pipe = suite.path / "pipe"
    os.mkfifo(pipe)

    result = suite.runpytest("-m", "seed", "--record=none", f"{flag}={pipe}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}*pipe*not a regular file*"])
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


#: A value of each JSON type, put in every field of a results line in turn.
WRONG_TYPES = (7, True, 2.5, "text", ["a", 1], {"a": 1}, None)


def test_a_results_line_with_any_field_of_a_wrong_type_is_said_unreadable_and_the_board_printed(suite, capsys):
    """Red team rt44 F5: one line with ``"tags": 1`` passed the line check, then ended the merge of
    every file in a TypeError (exit 1, no board). Each field of a judged and of a failed line is now
    given a value of each JSON type in turn: the line is read or said unreadable, never a traceback,
    and the board of the other file is printed."""
    for model in ("exact", "noisy"):
        run = suite.runpytest(
            "-k", "circle-start000 or circle-start090", f"--model=reference/{model}", "--record=none",
            f"--shape-results={model}.jsonl",
        )  # fmt: skip
        assert run.ret in (0, 1)
    lines = [json.loads(line) for line in (suite.path / "noisy.jsonl").read_text(encoding="utf-8").splitlines()]
    failed = next(i for i, line in enumerate(lines) if line["outcome"] == "failed")
    hostile = suite.path / "hostile.jsonl"
    board = str(suite.path / "board.html")
    capsys.readouterr()
    for i in (0, failed):
        for name in lines[i]:
            for value in WRONG_TYPES:
                changed = [dict(line, **{name: value}) if n == i else line for n, line in enumerate(lines)]
                hostile.write_text("".join(json.dumps(line) + "\n" for line in changed), encoding="utf-8")

                status = main(["leaderboard", "--html", board, str(suite.path / "exact.jsonl"), str(hostile)])

                printed = capsys.readouterr()
                assert status == 0, (name, value, printed.err)
                assert "reference/exact" in printed.out, (name, value)
    lines[0]["tags"] = 1
    hostile.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["leaderboard", str(suite.path / "exact.jsonl"), str(hostile)]) == 0
    assert f"unreadable: {hostile}:1: 'tags' must be a list of strings or null" in capsys.readouterr().err


def test_half_an_emoji_in_a_recorded_refusal_is_kept_in_the_results_file(suite):
    """A lone surrogate (half an emoji, which a recording keeps as a JSON escape) in a refusal ended
    the run in INTERNALERROR at the results file: no summary, no report, no gate (red-team M2)."""
    path = recording(suite, "circle-start000-cw")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["samples"][0].update(text="", refusal="I cannot \ud83d")
    path.write_text(json.dumps(doc), encoding="utf-8")

    result = suite.runpytest("--record=none", "-k", "circle-start000-cw", "--shape-results=out.jsonl")

    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    text = (suite.path / "out.jsonl").read_text(encoding="utf-8")  # valid UTF-8 throughout
    assert "\\ud83d" in text  # the half emoji, as its JSON escape
    assert [json.loads(line) for line in text.splitlines()]  # and every line reads back
