"""``fileio.write_atomic`` and the results file never rename over a device, pipe or socket."""

from __future__ import annotations

import os
import stat

import pytest

from shape_asserts.fileio import NotAFileError, write_atomic
from shape_asserts.results.results_file import ResultsWriter


def test_write_atomic_refuses_a_pipe_and_leaves_it(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(NotAFileError, match="not a regular file"):
        write_atomic(pipe, "text")
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary file left


def test_write_atomic_replaces_a_symlink_itself_not_what_it_points_to(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    link = tmp_path / "link"
    link.symlink_to(pipe)
    write_atomic(link, "text")
    assert link.read_text() == "text" and not link.is_symlink()
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_a_results_file_made_a_pipe_during_the_run_is_left_alone(tmp_path):
    target = tmp_path / "out.jsonl"
    writer = ResultsWriter(target)
    writer.write([{"case": "a"}])
    os.mkfifo(target)
    with pytest.raises(NotAFileError):
        writer.finish()
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
