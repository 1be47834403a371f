"""Results files read back and merged: the records a leaderboard is made from, and what was dropped.

One home for reading results files (:mod:`shape_asserts.results.results_file`): a run reads its
own this way at the end, and ``shape-asserts leaderboard FILE...`` reads any number of them. The
merge does not depend on the order of the files, and says what it leaves out:

* **unreadable** — a line that is not JSON, not a results line of this version, over
  :data:`~shape_asserts.results.results_file.MAX_LINE` bytes, or cut off at the end of the file;
  a file that is not UTF-8 text, or cannot be read;
* **replaced** — within one file, a test's lines written again later (a test run again): the last
  lines count, as they did in the run;
* **duplicate** — the same model configuration × case × sample in two files with the same result
  (or an unjudged case next to a judged one): one is kept;
* **conflicting** — the same model configuration × case × sample in two files with different
  results (two runs of one configuration): one is kept and the other said, with both results.
  Either way the kept line is the one whose canonical JSON has the smaller SHA-256, so which file
  came first never matters;
* **kept apart** — one case id defined differently in different files (another prompt, a
  language, other parameters or thresholds): each definition becomes a case of its own,
  ``id [<its digest>]``, so that no model's results are dropped and none is compared with
  another's on a different question (the leaderboard compares models on the cases all of them
  have).

A model name that stands for two configurations (say two temperatures) in different files is shown
as two models, ``name [<the configuration's digest>]``, each said with its configuration.

>>> merged = merge([])
>>> (merged.records, merged.said())
((), [])
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shape_asserts.results.record import CaseRecord, one_line
from shape_asserts.results.results_file import MAX_LINE, config_key, problem, record_from_lines
from shape_asserts.results.verdict import meets, share

__all__ = ["Line", "Merged", "merge", "read_lines", "read_results"]

#: Problems listed one by one per file before they are only counted.
MAX_LISTED = 5


#: What a line keeps once read: a leaderboard needs neither the checks nor the case's parameters,
#: and a run reads back thousands of lines (their digest, :attr:`Line.canonical`, covers every field).
#: Of the checks, the names of those that failed are kept: a report's cell shown in one line says
#: them (:func:`_failed_checks`).
_SLIM_DROPS = ("checks", "params", "thresholds")


def _failed_checks(checks: Any) -> list[dict[str, Any]]:
    """The failed checks of a line's ``checks``, by name only."""
    if not isinstance(checks, list):
        return []
    return [
        {"name": str(c.get("name", "")), "passed": False} for c in checks if isinstance(c, dict) and not c.get("passed")
    ]


@dataclass(frozen=True)
class Line:
    """One results line as read: where it came from, its fields (:data:`_SLIM_DROPS` left out),
    and the digest of the whole line (without its place in its file)."""

    source: str  # the file as named
    number: int  # 1-based line number in it
    data: Mapping[str, Any]
    canonical: str = ""  # equal results, equal digest: which of two duplicates is kept

    @classmethod
    def read(cls, source: str, number: int, data: Mapping[str, Any]) -> Line:
        rest = {k: v for k, v in data.items() if k != "record"}
        text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        slim = {k: v for k, v in data.items() if k not in _SLIM_DROPS}
        slim["checks"] = _failed_checks(data.get("checks"))
        return cls(source, number, slim, hashlib.sha256(text.encode()).hexdigest())

    @property
    def where(self) -> str:
        return f"{self.source}:{self.number}"

    @property
    def config(self) -> str:
        return config_key(self.data["config"])


@dataclass
class Merged:
    """The merged records (in the runs' case order, then model order) and what was left out, said."""

    records: tuple[CaseRecord, ...] = ()
    models: tuple[str, ...] = ()
    files: int = 0
    lines: int = 0
    unreadable: list[str] = field(default_factory=list)
    replaced: int = 0
    duplicates: list[str] = field(default_factory=list)
    conflicting: list[str] = field(default_factory=list)
    apart: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def said(self) -> list[str]:
        """What the merge left out or renamed, one line each (bounded lists, then counts)."""
        out = list(self.notes)
        for kind, items in (
            ("unreadable", self.unreadable),
            ("dropped as duplicate", self.duplicates),
            ("dropped as conflicting", self.conflicting),
            ("kept apart", self.apart),
        ):
            out += [f"{kind}: {item}" for item in items[:MAX_LISTED]]
            if len(items) > MAX_LISTED:
                out.append(f"{kind}: … and {len(items) - MAX_LISTED} more")
        if self.replaced:
            out.append(f"replaced: {self.replaced} line(s) of tests run again later in the same file (the last count)")
        return out


# --- reading -----------------------------------------------------------------------------------------


def read_lines(path: str | os.PathLike[str], unreadable: list[str]) -> Iterator[Line]:
    """The results lines of one file, bounded; what cannot be read is added to ``unreadable``.

    Never raises for a bad file: a missing or unreadable file, a line that is not JSON or not a
    results line, a line over :data:`MAX_LINE` bytes, and a last line cut off (no newline) are
    each one entry naming the file and the line.
    """
    name = str(path)
    bad_here = 0

    def bad(number: int, why: str) -> None:
        nonlocal bad_here
        bad_here += 1
        if bad_here <= MAX_LISTED:
            unreadable.append(f"{name}:{number}: {why}")
        elif bad_here == MAX_LISTED + 1:
            unreadable.append(f"{name}: more lines could not be read (only the first {MAX_LISTED} are listed)")

    try:
        # only a regular file: a FIFO would wait for a writer, /dev/zero never end a line
        if not stat.S_ISREG(os.stat(path).st_mode):
            unreadable.append(f"{name}: not a regular file, so no results file")
            return
        fh = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        unreadable.append(f"{name}: cannot be read: {exc.strerror or exc}")
        return
    with fh:
        number = 0
        while True:
            try:
                raw = fh.readline(MAX_LINE + 1)
            except OSError as exc:
                unreadable.append(f"{name}: cannot be read: {exc.strerror or exc}")
                return
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE:
                bad(number, f"over {MAX_LINE:,} bytes: not a results line")
                while raw and not raw.endswith(b"\n"):  # skip the rest of it, a bounded piece at a time
                    raw = fh.readline(MAX_LINE + 1)
                continue
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):
                bad(number, "the last line is cut off (the run that wrote it stopped mid-line?)")
                return
            try:
                data = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                bad(number, "not UTF-8 text: not a results file")
                continue
            except (ValueError, RecursionError) as exc:
                bad(number, f"not JSON ({one_line(str(exc))[:120]})")
                continue
            why = problem(data)
            if why is not None:
                bad(number, why)
                continue
            yield Line.read(name, number, data)


def read_results(paths: Iterable[str | os.PathLike[str]]) -> Merged:
    """Every results file in ``paths`` read and merged (see the module docstring)."""
    unreadable: list[str] = []
    lines: list[Line] = []
    names = [str(p) for p in paths]
    for path in sorted(set(names)):  # the same file named twice is read once
        lines.extend(read_lines(path, unreadable))
    merged = merge(lines)
    merged.files = len(set(names))
    merged.unreadable = unreadable + merged.unreadable
    return merged


# --- merging -----------------------------------------------------------------------------------------


def merge(lines: Sequence[Line]) -> Merged:
    """The records the lines make, merged across files (see the module docstring)."""
    out = Merged(lines=len(lines))
    latest = _latest_per_file(lines, out)
    compatible = _definitions_apart(latest, out)
    kept = _one_line_per_sample(compatible, out)
    labels = _labels(kept, out)
    records: list[tuple[tuple[Any, ...], CaseRecord]] = []
    model_order: dict[str, float] = {}
    for (config, _case), group in kept.items():
        label = labels[config]
        record = _record(group, label)
        orders = [_place(line.data.get("case_order")) for line in group]
        records.append(((min(orders), record.case, label), record))
        for line in group:
            model_order[label] = min(model_order.get(label, float("inf")), _place(line.data.get("model_order")))
    models = sorted(labels.values(), key=lambda m: (model_order.get(m, float("inf")), m))
    rank = {m: i for i, m in enumerate(models)}
    records.sort(key=lambda kr: (kr[0][0], kr[0][1], rank[kr[0][2]]))
    out.records = tuple(r for _, r in records)
    out.models = tuple(models)
    return out


def _place(value: Any) -> float:
    """A line's ``case_order`` or ``model_order`` as a sort key (unknown: after every known one)."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else float("inf")


def _latest_per_file(lines: Sequence[Line], out: Merged) -> dict[tuple[str, str, str], list[Line]]:
    """Per file × model configuration × case, the lines of the last test written (a rerun's)."""
    tests: dict[tuple[str, str, str], dict[int, list[Line]]] = defaultdict(lambda: defaultdict(list))
    for line in lines:
        tests[(line.source, line.config, line.data["case"])][line.data["record"]].append(line)
    latest = {}
    for key, by_number in tests.items():
        last = max(by_number)
        out.replaced += sum(len(v) for n, v in by_number.items() if n != last)
        latest[key] = by_number[last]
    return latest


def _definitions_apart(
    latest: dict[tuple[str, str, str], list[Line]], out: Merged
) -> dict[tuple[str, str, str], list[Line]]:
    """The tests, each case id defined two ways or more renamed ``id [<digest>]`` per definition."""
    digests: dict[str, set[str]] = defaultdict(set)
    for (_source, _config, case), group in latest.items():
        digests[case].update(_digest(line) for line in group)
    for case, found in sorted(digests.items()):
        if len(found) > 1:
            names = ", ".join(_apart(case, d) for d in sorted(found))
            out.apart.append(
                f"{case} is defined {len(found)} ways across the files (another prompt, language, parameters or "
                f"thresholds): {names}"
            )
    kept: dict[tuple[str, str, str], list[Line]] = defaultdict(list)
    for (source, config, case), group in latest.items():
        for line in group:
            name = case if len(digests[case]) == 1 else _apart(case, _digest(line))
            kept[source, config, name].append(dataclasses.replace(line, data={**line.data, "case": name}))
    return dict(kept)


def _digest(line: Line) -> str:
    return str(line.data.get("case_sha256") or "")


def _apart(case: str, digest: str) -> str:
    return f"{case} [{digest[:8] or 'none'}]"


def _one_line_per_sample(
    tests: dict[tuple[str, str, str], list[Line]], out: Merged
) -> dict[tuple[str, str], list[Line]]:
    """Per model configuration × case, one line per sample (an unjudged line only if none was judged)."""
    by_key: dict[tuple[str, str], list[Line]] = defaultdict(list)
    for (_source, config, case), group in tests.items():
        by_key[(config, case)].extend(group)
    kept: dict[tuple[str, str], list[Line]] = {}
    for key in sorted(by_key):
        group = by_key[key]
        judged = [line for line in group if line.data.get("sample") is not None]
        candidates = judged or group
        for line in group:
            if judged and line.data.get("sample") is None:
                out.duplicates.append(
                    f"{line.where}: {line.data['model']} × {key[1]} ({line.data['outcome']}, unjudged): "
                    "another file has its judged samples"
                )
        by_sample: dict[Any, list[Line]] = defaultdict(list)
        for line in candidates:
            by_sample[line.data.get("sample")].append(line)
        chosen = []
        for sample in sorted(by_sample, key=lambda s: -1 if s is None else s):
            same = sorted(by_sample[sample], key=lambda line: (line.canonical, line.where))
            chosen.append(same[0])
            for other in same[1:]:
                which = "unjudged" if sample is None else f"sample {sample}"
                if other.canonical == same[0].canonical:
                    out.duplicates.append(
                        f"{other.where}: {other.data['model']} × {key[1]} {which} is also at {same[0].where} (kept that one)"
                    )
                else:  # two runs of one configuration that disagree: never mixed without a word
                    out.conflicting.append(
                        f"{other.where}: {other.data['model']} × {key[1]} {which} ({_result(other)}) disagrees with "
                        f"{same[0].where} ({_result(same[0])}, kept); two runs of one configuration? name them apart"
                    )
        kept[key] = chosen
    return kept


def _result(line: Line) -> str:
    """A line's result in a few words: its outcome and score."""
    score = line.data.get("score")
    return (
        f"{line.data.get('outcome')}, score {score:g}"
        if isinstance(score, (int, float))
        else str(line.data.get("outcome"))
    )


def _labels(kept: Mapping[tuple[str, str], list[Line]], out: Merged) -> dict[str, str]:
    """Each configuration's name in the board: the model's name, or with a digest when one name
    stands for several configurations."""
    names: dict[str, str] = {}
    for (config, _case), group in kept.items():
        names[config] = str(group[0].data["model"])
    by_name: dict[str, list[str]] = defaultdict(list)
    for config, name in names.items():
        by_name[name].append(config)
    labels = {}
    for name, configs in sorted(by_name.items()):
        if len(configs) == 1:
            labels[configs[0]] = name
            continue
        for config in sorted(configs):
            label = f"{name} [{hashlib.sha256(config.encode()).hexdigest()[:8]}]"
            labels[config] = label
            out.notes.append(f"{label} is {name} with the configuration {config[:300]}")
    return labels


def _record(group: list[Line], label: str) -> CaseRecord:
    """One model × case record from its kept lines: as written when they come from one test, else
    judged again from the samples (passed when enough samples passed every check)."""
    data = [dict(line.data, model=label) for line in group]
    one_test = len({(line.source, line.data["record"]) for line in group}) == 1
    passed = [bool(d["passed"]) for d in data if d.get("sample") is not None]
    if one_test or not passed:
        return record_from_lines(data)
    min_rate = data[0].get("min_pass_rate")
    rate_needed = float(min_rate) if isinstance(min_rate, (int, float)) and not isinstance(min_rate, bool) else 1.0
    ok = meets(share(passed), rate_needed)
    return record_from_lines(data, outcome="passed" if ok else "failed")
