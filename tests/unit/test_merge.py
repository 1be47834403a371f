"""Results files merged (:mod:`shape_asserts.results.merge`): order-free, duplicates and
incompatible lines dropped and said, hostile files read without a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from shape_asserts.cli import main
from shape_asserts.results import merge as merge_module
from shape_asserts.results.merge import read_results
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.results_file import record_lines


def _config(model: str, **settings) -> dict:
    return {"name": model, "temperature": None, "max_tokens": 4096, "lang": "ru", "args": {}, **settings}


def lines_of(model: str, case: str, scores, passed, *, number=0, order=0, digest="d1", **settings) -> list[dict]:
    rec = CaseRecord.from_scores(model, case, "circle", scores, passed)
    fields = {"params": {"radius": 10}, "thresholds": {}, "case_sha256": digest}
    return record_lines(rec, config=_config(model, **settings), number=number, case=fields, case_order=order)


def write(path: Path, *records: list[dict], tail: str = "") -> Path:
    text = "".join(json.dumps(line) + "\n" for lines in records for line in lines)
    path.write_text(text + tail, encoding="utf-8")
    return path


def _board(merged) -> list[tuple[str, str, float | None, int]]:
    return [(r.model, r.case, r.score, len(r.samples)) for r in merged.records]


def test_the_order_of_the_files_does_not_change_the_merge(tmp_path):
    a = write(
        tmp_path / "a.jsonl", lines_of("m", "c1", (90.0,), (True,)), lines_of("m", "c2", (80.0,), (False,), order=1)
    )
    b = write(tmp_path / "b.jsonl", lines_of("m", "c1", (70.0,), (False,)), lines_of("n", "c1", (60.0,), (False,)))

    ab, ba = read_results([a, b]), read_results([b, a])

    assert _board(ab) == _board(ba) and ab.said() == ba.said()
    assert [(r.model, r.case) for r in ab.records] == [("m", "c1"), ("n", "c1"), ("m", "c2")]  # case order, then model


def test_the_same_configuration_case_and_sample_twice_is_kept_once_and_said(tmp_path):
    a = write(tmp_path / "a.jsonl", lines_of("m", "c1", (90.0,), (True,)))
    b = write(tmp_path / "b.jsonl", lines_of("m", "c1", (90.0,), (True,)))

    merged = read_results([a, b])

    assert len(merged.records) == 1
    assert len(merged.duplicates) == 1 and "m × c1 sample 0 is also at" in merged.duplicates[0]
    assert any(line.startswith("dropped as duplicate:") for line in merged.said())


def test_two_runs_of_one_configuration_that_disagree_are_said_as_conflicting_with_both_results(tmp_path):
    """They were "dropped as duplicate … (kept that one)": two disagreeing runs mixed without a word
    of their disagreeing (red-team m5)."""
    a = write(tmp_path / "a.jsonl", lines_of("m", "c1", (90.0,), (True,)))
    b = write(tmp_path / "b.jsonl", lines_of("m", "c1", (70.0,), (False,)))

    merged = read_results([a, b])

    assert len(merged.records) == 1 and merged.duplicates == []
    (said,) = merged.conflicting
    assert "disagrees with" in said and "score 90" in said and "score 70" in said
    assert any(line.startswith("dropped as conflicting:") for line in merged.said())


def test_samples_of_one_case_from_two_files_make_one_case_judged_again(tmp_path):
    first = lines_of("m", "c1", (90.0,), (True,))
    second = [dict(line, sample=1, score=70.0, passed=False) for line in lines_of("m", "c1", (70.0,), (False,))]
    a, b = write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", second)

    merged = read_results([a, b])

    (rec,) = merged.records
    assert (rec.scores, rec.pass_rate, rec.outcome) == ((90.0, 70.0), 0.5, "failed")
    assert merged.duplicates == []


def test_a_test_run_again_in_one_file_counts_as_it_ended_last(tmp_path):
    path = write(
        tmp_path / "a.jsonl", lines_of("m", "c1", (50.0,), (False,)), lines_of("m", "c1", (95.0,), (True,), number=1)
    )

    merged = read_results([path])

    assert _board(merged) == [("m", "c1", 95.0, 1)]
    assert merged.replaced == 1 and merged.duplicates == []


def test_a_case_defined_differently_in_another_file_is_kept_apart_as_two_cases(tmp_path):
    """Eighth red-team sweep: the definition most lines shared was kept and the rest dropped, so a
    run with --samples 2 (or --lang en) outvoted another model's whole results, and the board
    ranked the remaining model alone. Neither is dropped now: each definition is a case of its own."""
    a = write(tmp_path / "a.jsonl", lines_of("m", "c1", (90.0,), (True,)), lines_of("n", "c1", (80.0,), (True,)))
    b = write(tmp_path / "b.jsonl", lines_of("o", "c1", (10.0, 20.0), (False, False), digest="d2"))

    merged = read_results([b, a])

    assert {(r.model, r.case) for r in merged.records} == {("m", "c1 [d1]"), ("n", "c1 [d1]"), ("o", "c1 [d2]")}
    assert any(
        line.startswith("kept apart: c1 is defined 2 ways") and line.endswith("c1 [d1], c1 [d2]")
        for line in merged.said()
    )


def test_one_model_name_with_two_configurations_is_two_rows(tmp_path):
    a = write(tmp_path / "a.jsonl", lines_of("m", "c1", (90.0,), (True,), temperature=0.0))
    b = write(tmp_path / "b.jsonl", lines_of("m", "c1", (80.0,), (True,), temperature=1.0))

    merged = read_results([a, b])

    assert len(merged.models) == 2 and all(m.startswith("m [") for m in merged.models)
    assert len(merged.notes) == 2 and merged.duplicates == []


def test_an_unjudged_case_gives_way_to_its_judged_samples_from_another_file(tmp_path):
    error = CaseRecord(model="m", case="c1", family="circle", outcome="error", reason="ProviderError: outage")
    a = write(tmp_path / "a.jsonl", record_lines(error, config=_config("m"), number=0, case={"case_sha256": "d1"}))
    b = write(tmp_path / "b.jsonl", lines_of("m", "c1", (90.0,), (True,)))

    merged = read_results([a, b])

    assert [(r.outcome, r.score) for r in merged.records] == [("passed", 90.0)]
    assert "unjudged" in merged.duplicates[0]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not json at all\n", "not JSON"),
        (b'{"format": "shape-asserts.results", "version": 99}\n', "results version 99"),
        # "results version 1, this shape-asserts reads version 1" for a string; "not a int" for 1.0
        (b'{"format": "shape-asserts.results", "version": "1"}\n', "'version' must be a whole number"),
        (b'{"format": "shape-asserts.results", "version": 1.0}\n', "'version' must be a whole number"),
        (b'{"format": "something else"}\n', "not a shape-asserts results line"),
        (b"[1, 2, 3]\n", "not a JSON object"),
        (b"\xff\xfe\x00binary\n", "not UTF-8"),
        (b'{"format": "shape-asserts.results", "version": 1, "rec', "cut off"),
        (b"[" * 100_000 + b"\n", "not JSON"),
    ],
)
def test_a_bad_line_is_said_with_its_file_and_number_never_raised(tmp_path, content, said):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(lines_of("m", "c1", (90.0,), (True,))[0]).encode() + b"\n" + content)

    merged = read_results([path])

    assert _board(merged) == [("m", "c1", 90.0, 1)]
    assert len(merged.unreadable) == 1 and merged.unreadable[0].startswith(f"{path}:2: ")
    assert said in merged.unreadable[0]


def _tampered(**fields) -> bytes:
    line = lines_of("m", "c2", (80.0,), (True,))[0]
    line.update(fields)
    return json.dumps(line).encode() + b"\n"  # NaN and Infinity as Python's json writes them


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (_tampered(score=float("nan")), "'score' must be a number from 0 to 100"),
        (_tampered(score=float("inf")), "'score' must be a number from 0 to 100"),
        (_tampered(score=1e308), "'score' must be a number from 0 to 100"),
        (_tampered(score=-5), "'score' must be a number from 0 to 100"),
        (_tampered(answer_length=float("inf")), "'answer_length' must be a number"),
        (_tampered(n_points=1e400), "'n_points' must be a number"),
        (_tampered(min_pass_rate=float("nan")), "'min_pass_rate' must be a number from 0 to 1"),
        (_tampered(cost_usd=float("nan")), "'cost_usd' must be a number"),
        (_tampered(case_order=10**400), "'case_order' must be a number"),  # rt52 F1: OverflowError
        (_tampered(model_order=10**400), "'model_order' must be a number"),
        (_tampered(case_order=-1), "'case_order' must be a number"),
        (_tampered(tags=1), "'tags' must be a list of strings or null"),  # a TypeError, rt44 F5
        (_tampered(tags=True), "'tags' must be a list of strings or null"),
        (_tampered(tags="seed"), "'tags' must be a list of strings or null"),
        (_tampered(tags=["seed", 1]), "'tags' must be a list of strings or null"),
    ],
)
def test_a_number_out_of_its_range_is_a_bad_line_and_the_page_is_written(tmp_path, capsys, content, said):
    """NaN, infinite or huge scores and counts ended the leaderboard in a traceback (or ranked a
    model first with "inf"): such a line is said and skipped, and the rest is ranked."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(lines_of("m", "c1", (90.0,), (True,))[0]).encode() + b"\n" + content)

    status = main(["leaderboard", str(path), "--html", str(tmp_path / "board.html")])

    err = capsys.readouterr().err
    assert status == 0 and "Traceback" not in err and f"{path}:2: " in err and said in err, err
    assert (tmp_path / "board.html").is_file()


def test_a_line_over_the_limit_is_skipped_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(merge_module, "MAX_LINE", 4096)
    good = json.dumps(lines_of("m", "c1", (90.0,), (True,))[0]).encode() + b"\n"
    path = tmp_path / "huge.jsonl"
    path.write_bytes(b'{"x": "' + b"a" * 20_000 + b'"}\n' + good)

    merged = read_results([path])

    assert _board(merged) == [("m", "c1", 90.0, 1)]
    assert merged.unreadable == [f"{path}:1: over 4,096 bytes: not a results line"]


def test_a_missing_file_or_a_folder_is_said_not_raised(tmp_path):
    merged = read_results([tmp_path / "absent.jsonl", tmp_path])

    assert merged.records == () and len(merged.unreadable) == 2
    assert f"{tmp_path / 'absent.jsonl'}: cannot be read: No such file or directory" in merged.unreadable
    assert f"{tmp_path}: not a regular file, so no results file" in merged.unreadable


def test_a_fifo_or_an_endless_device_is_said_at_once_not_waited_on(tmp_path):
    """Fourth red-team sweep: ``leaderboard /dev/zero`` (or a FIFO with no writer) waited until killed."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    merged = read_results([fifo, "/dev/zero"])

    assert sorted(merged.unreadable) == [
        "/dev/zero: not a regular file, so no results file",
        f"{fifo}: not a regular file, so no results file",
    ]


def test_the_command_exits_2_with_one_line_per_problem_when_nothing_can_be_read(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")

    status = main(["leaderboard", str(path), str(tmp_path / "absent.jsonl")])

    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert f"{path}:1: not JSON" in err and "nothing to rank" in err


def test_the_command_writes_the_board_as_a_page(tmp_path, capsys):
    path = write(
        tmp_path / "a.jsonl",
        *(lines_of(m, f"c{i}", (s + i,), (True,), order=i) for m, s in (("m", 90.0), ("n", 80.0)) for i in range(6)),
    )

    status = main(["leaderboard", str(path), "--html", str(tmp_path / "board.html")])

    page = (tmp_path / "board.html").read_text(encoding="utf-8")
    assert status == 0 and 'id="leaderboard"' in page and "<script" not in page
    assert capsys.readouterr().out.splitlines()[2].split()[:2] == ["1", "m"]
