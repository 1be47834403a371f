"""The run's full records on disk, for the HTML report: answers and drawings read back one at a time.

A run with ``--shape-report`` needs, for the drawings, what the results file leaves out (each
answer's text and points, every check's description). Held in memory for every test, that was
most of a large run's memory; here each record's JSON text (as the test's report carried it) is
appended to a file in the run's own folder, and the report reads back the record of one model ×
case when it draws that case. The last record written for a model × case is the one read (a test
run again).

>>> import tempfile, pathlib
>>> spool = RecordSpool(pathlib.Path(tempfile.mkdtemp()) / "records.jsonl")
>>> rec = CaseRecord.from_scores("m", "c1", "circle", (90.0,), (True,))
>>> spool.add(rec.model, rec.case, rec.as_property()[1])
>>> spool.load("m", "c1") == rec, spool.load("m", "c2")
(True, None)
>>> spool.close()
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from shape_asserts.results.record import CaseRecord

__all__ = ["RecordSpool"]


class RecordSpool:
    """Records as JSON lines in one private file, found again by model and case (see the module)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)  # answers: private, as fixtures' folder
        self._fh = os.fdopen(fd, "w+b")
        self._where: dict[tuple[str, str], tuple[int, int]] = {}
        self._end = 0

    def add(self, model: str, case: str, text: str) -> None:
        """Keep one record's JSON text (the latest for a model × case wins)."""
        data = text.encode("utf-8", "surrogatepass") + b"\n"
        self._fh.seek(self._end)
        self._fh.write(data)
        self._where[(model, case)] = (self._end, len(data) - 1)
        self._end += len(data)

    def load(self, model: str, case: str) -> CaseRecord | None:
        """The record of ``model`` × ``case``, read back from disk; ``None`` when none was kept."""
        where = self._where.get((model, case))
        if where is None or self._fh.closed:
            return None
        self._fh.flush()
        self._fh.seek(where[0])
        text = self._fh.read(where[1]).decode("utf-8", "surrogatepass")
        record: CaseRecord = CaseRecord.from_json(text)
        return record

    def close(self) -> None:
        """Close and remove the file."""
        with contextlib.suppress(OSError):
            self._fh.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
