"""The run's one result collector, and what it does at the end of a run.

One object (:class:`VerdictSession`) is made by the run object (:mod:`shape_asserts.plugin.run`),
and the plugin's hooks hand it its work. During the run it takes the
:class:`~shape_asserts.results.record.CaseRecord` each shape test's report carries (on the xdist
controller, reports from every worker arrive here), writes it to the results file as it comes
(``--shape-results FILE``, else a file in the run's own folder:
:mod:`shape_asserts.results.results_file`), and counts the errors and failures that are not shape
cases. With ``--shape-report`` the whole record (answers, drawings) goes to a file of its own
(:mod:`shape_asserts.results.spool`). The run holds no record in memory meanwhile: at the end it
reads the results file back (:func:`shape_asserts.results.merge.read_results`, as
``shape-asserts leaderboard`` does) into one small record per test, and everything after reads
those:

* the terminal summary per model × family (:mod:`shape_asserts.results.summary`);
* with ``--baseline MODEL``: gates every ``--model`` against the baseline (:mod:`shape_asserts.results.gate`)
  and makes the run's exit status the gate's (:func:`shape_asserts.results.gate.exit_status`);
* with ``--shape-report PATH``: writes the HTML report (:mod:`shape_asserts.results.report`);
* with ``GITHUB_STEP_SUMMARY`` set: appends the results and the gate as Markdown
  (:mod:`shape_asserts.results.step_summary`).

Exit status with ``--baseline`` (without it, pytest's own status is untouched): decided by
:func:`shape_asserts.results.gate.exit_status`. For it this session also notes the shape tests the
run selected, the tests xdist lost to crashed workers and why pytest stopped early, if it did: a
gated run passes only with a result for every selected case of every model.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shape_asserts.defaults import GATE_MARGIN, UNDECIDED_POLICIES
from shape_asserts.exceptions import CaseError

if TYPE_CHECKING:
    from shape_asserts.results.gate import Gate
    from shape_asserts.results.leaderboard import Leaderboard
    from shape_asserts.results.record import CaseRecord
    from shape_asserts.results.report import ReportData
    from shape_asserts.results.results_file import ResultsWriter
    from shape_asserts.results.spool import RecordSpool

# The results modules (numpy, the families) are imported where a run has results to show: this
# session is made in every pytest run where the plugin is installed, most with no shape test.

__all__ = ["UNDECIDED_POLICIES", "VerdictOptions", "VerdictSession", "with_baseline", "stopped_early"]

#: The phases of a test's reports; xdist reports a test lost with its crashed worker as "???".
_PHASES = ("setup", "call", "teardown")
#: Exit statuses of a run that did not finish: its results file is left as ``FILE.partial``.
_UNFINISHED = (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR)
#: :data:`shape_asserts.results.step_summary.ENV`, read here without importing that module (it
#: loads the gate and the leaderboard) in a run with no job summary to append.
STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


@dataclass(frozen=True)
class VerdictOptions:
    """The end-of-run options: where the report goes, and the gate's baseline and rules."""

    report: Path | None = None
    #: ``--shape-results``: where the results file goes (``None``: the run keeps its own, then removes it).
    results: Path | None = None
    baseline: str | None = None
    margin: float = GATE_MARGIN
    undecided: str = "pass"


def with_baseline(settings: Any, baseline: str | None) -> Any:
    """``settings`` with the baseline run as one more model (after the candidates).

    Raises ``ValueError`` when the baseline is also a candidate: comparing a model with itself
    would always pass.
    """
    if baseline is None:
        return settings
    if baseline in settings.models:
        raise ValueError(
            f"--baseline {baseline} is also a --model; the gate compares the --model(s) with the baseline, "
            f"so name it only as --baseline (and give the candidate with --model)"
        )
    return dataclasses.replace(settings, models=tuple(settings.models) + (baseline,))


def _drop_record(report: Any) -> None:
    """Take the record's JSON text off a report that pytest's terminal reporter keeps to the end."""
    if report.user_properties:
        from shape_asserts.results.record import PROPERTY

        report.user_properties = [p for p in report.user_properties if p[0] != PROPERTY]


def stopped_early(session: pytest.Session) -> str:
    """pytest's reason for ending the run before its last test (``-x``, ``--maxfail``), or ""."""
    dsession = session.config.pluginmanager.get_plugin("dsession")  # an xdist controller stops there
    for why in (session.shouldfail, session.shouldstop, getattr(dsession, "shouldstop", False)):
        if why:
            return str(why)
    return ""


class VerdictSession:
    """Collects every test's record; prints the summary; at session end gates, reports, sets the status."""

    def __init__(self, config: pytest.Config, settings: Any, options: VerdictOptions) -> None:
        self.config = config
        self.settings = settings
        self.options = options
        self.errors = 0
        self.other_failures = 0
        #: Test files or classes that could not be collected (``--continue-on-collection-errors``).
        self.collect_errors = 0
        #: The cases the run selected (for any model): the gate needs every model's result for each.
        self.selected: set[str] = set()
        #: Tests lost to crashed xdist workers (their only report is the controller's).
        self.crashed = 0
        self.gate: Gate | None = None
        self.status: tuple[int, int] | None = None  # (pytest's, the gated one)
        self.status_reason = ""
        self.report_path: Path | None = None
        self.problems: list[str] = []
        self._board: tuple[Leaderboard | None] | None = None  # computed once, at the end
        self._writer: ResultsWriter | None = None  # made at the first record
        self._spool: RecordSpool | None = None  # with --shape-report: the whole records, for the drawings
        self._written = 0  # tests written to the results file
        self._write_failed = False
        self._cases: dict[str, tuple[int, dict[str, Any]]] | None = None  # case id → (order, case_fields)
        self._records: list[CaseRecord] | None = None  # read back from the results file, once
        self.results_path: Path | None = None  # the results file the run left (--shape-results)

    # --- during the run --------------------------------------------------------------------

    def collected(self, session: pytest.Session) -> None:
        """Note the cases selected in this process's collection (a gated run needs a result for each)."""
        if self.options.baseline is None or hasattr(self.config, "workerinput"):
            return
        from shape_asserts.plugin.fetcher import tests_will_run

        if tests_will_run(session):  # not a listing (--collect-only): it runs no test to lack a result
            self._select([item.nodeid for item in session.items])

    def workers_collected(self, ids: list[str]) -> None:
        """Note the cases an xdist controller's workers collected."""
        if self.options.baseline is not None:  # an xdist controller: its workers collected
            self._select(ids)

    def _select(self, nodeids: list[str]) -> None:
        """Note the shape tests among ``nodeids`` (their ids end ``[<case>@<model>]``)."""
        if not any(nodeid.endswith("]") and "@" in nodeid for nodeid in nodeids):
            return  # no shape test: the cases need not be loaded
        try:
            known = self.settings.params()
        except CaseError:  # already said at collection
            return
        for nodeid in nodeids:
            if nodeid.endswith("]") and "[" in nodeid:
                param = known.get(nodeid[nodeid.index("[") + 1 : -1])
                if param is not None:
                    self.selected.add(param.case.id)

    def take_collect_report(self, report: pytest.CollectReport) -> None:
        """Count a collection that failed: what it held was never run, so a gate cannot pass over it."""
        if not hasattr(self.config, "workerinput"):  # (a worker's reaches its controller, which counts it)
            self.collect_errors += 1

    def take_report(self, report: pytest.TestReport) -> None:
        """Count a report's error or failure, and keep its record when it settles a shape test."""
        if hasattr(self.config, "workerinput"):  # xdist workers: the controller sees every report,
            _drop_record(report)  # sent to it by now; the worker's terminal reporter keeps the rest
            return
        if report.when not in _PHASES and report.failed:
            self.crashed += 1  # "worker 'gw0' crashed while running ...": no record, no phase
            return
        if report.failed and report.when in ("setup", "teardown"):
            self.errors += 1
        # the phase that settles a test: its call, or a setup that did not pass (later phases'
        # reports carry the same record again)
        settles = report.when == "call" or (report.when == "setup" and not report.passed)
        record = None
        if report.user_properties:  # a test with none is no shape case: no need to load the records
            from shape_asserts.results.record import PROPERTY, CaseRecord

            carried = [v for k, v in report.user_properties if k == PROPERTY]
            record = CaseRecord.from_properties(report.user_properties) if settles and carried else None
            if record is not None:
                self._write(record, carried[-1])
            if carried:
                # on disk now (or carried again by a later phase): the report, kept to the end by the
                # terminal reporter, need not hold the JSON text; other plugins have seen it
                _drop_record(report)
        if settles and record is None and report.when == "call" and report.failed:
            self.other_failures += 1

    def _write(self, record: CaseRecord, text: Any) -> None:
        """Write one test's record to the results file (and, for the report, whole to the spool)."""
        from shape_asserts.results.results_file import ResultsWriter, record_lines

        if self._writer is None:
            self._writer = ResultsWriter(self.options.results or self._run_folder() / "results.jsonl")
            if self.options.report is not None:
                from shape_asserts.results.spool import RecordSpool

                self._spool = RecordSpool(self._run_folder() / "records.jsonl")
        order, fields = self._case_fields().get(record.case, (None, {}))
        models = list(self.settings.models)
        lines = record_lines(
            record,
            config=self.model_config(record.model),
            number=self._written,
            case=fields,
            case_order=order,
            model_order=models.index(record.model) if record.model in models else None,
        )
        try:
            self._writer.write(lines)
        except OSError as exc:  # a full disk: said once at the end; the results written so far stand
            if not self._write_failed:
                self.problems.append(f"could not write to the results file {self._writer.path}: {exc}")
            self._write_failed = True
            return
        self._written += 1
        if self._spool is not None:
            self._spool.add(record.model, record.case, text if isinstance(text, str) else record.to_json_text())

    def model_config(self, model: str) -> dict[str, Any]:
        """What the run knows of how ``model`` was asked: a results line's ``config``.

        Two lines merge as one model only when these are equal (:mod:`shape_asserts.results.merge`).
        Provider arguments, when the run has them, are ``args``.
        """
        from shape_asserts.asking.model_config import resolve

        s = self.settings
        sent = resolve(model, s.configs, s.provider_args, s.temperature, s.max_tokens)
        return {
            "name": model,
            "model": sent.model,
            "temperature": sent.temperature,
            "max_tokens": sent.max_tokens,
            "lang": s.lang,
            "args": dict(sent.args),
        }

    def _case_fields(self) -> dict[str, tuple[int, dict[str, Any]]]:
        """Each case's place in the run and what a results line says of it (loaded once)."""
        if self._cases is None:
            from shape_asserts.results.results_file import case_fields

            try:
                cases = self.settings.cases()
            except CaseError:  # already said at collection; the lines go without the case's parameters
                cases = []
            self._cases = {c.id: (i, case_fields(c, self.settings.lang)) for i, c in enumerate(cases)}
        return self._cases

    def _run_folder(self) -> Path:
        """The run's own private folder (the fetch's; removed at the run's end), made if need be."""
        state = self.settings.state_path
        if state is None:
            import tempfile

            state = Path(tempfile.mkdtemp(prefix="shape-asserts-run-")) / "state.json"
            self.settings = dataclasses.replace(self.settings, state_path=state)
        state.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return state.parent

    @property
    def records(self) -> list[CaseRecord]:
        """The run's records, one small one per test (no answers, no drawings), read back from the
        results file: what the summary, the leaderboard and the gate are made from."""
        if self._records is None:
            self._records = self._read_back(complete=True)
        return self._records

    def _read_back(self, complete: bool) -> list[CaseRecord]:
        """Close the results file (the user's is moved into place) and read its records back."""
        if self._writer is None:
            return []
        from shape_asserts.results.merge import read_results

        writer, self._writer = self._writer, None
        if self.options.results is None:
            writer.finish(complete=True, mode=0o600)  # the run's own file, in the run's folder
            path = writer.path
        else:
            path = self.results_path = writer.finish(complete=complete)
        merged = read_results([path])
        if self.options.results is None:
            with contextlib.suppress(OSError):
                path.unlink()
        # none for a file this run wrote: said if it ever happens
        for line in merged.unreadable + merged.duplicates + merged.conflicting:
            self.problems.append(f"results file {path}: {line}")
        return list(merged.records)

    def ordered(self) -> list[CaseRecord]:
        """The records in the run's case order, then model order (cases the run does not know last):
        the results file's lines say each one's place, and are read back in it."""
        return self.records

    def leaderboard(self) -> Leaderboard | None:
        """The run's leaderboard when it compares (two models or more) or benchmarks (``-m benchmark``)."""
        if self._board is None:
            board = None
            models = {r.model for r in self.records}
            if len(models) >= 2 or (models and getattr(self.settings, "benchmark", False)):
                from shape_asserts.results.leaderboard import leaderboard

                board = leaderboard(self.ordered(), models=list(self.settings.models))
            self._board = (board,)
        return self._board[0]

    def finish(self, session: pytest.Session) -> None:
        """At session end: gate, write the report and the job summary, set the exit status."""
        if hasattr(self.config, "workerinput"):
            return  # xdist workers: the controller sees every report and does this once
        if self._writer is not None:  # the results file made whole (or .partial when interrupted)
            self._records = self._read_back(complete=session.exitstatus not in _UNFINISHED)
        try:
            self._finish(session)
        finally:
            if self._spool is not None:
                self._spool.close()
                self._spool = None

    def _finish(self, session: pytest.Session) -> None:
        o = self.options
        if not self.records and not o.baseline and not o.report:
            return  # a run without shape cases writes no job summary (and loads none of the results)
        if not (o.baseline or o.report or os.environ.get(STEP_SUMMARY_ENV)):
            return  # nothing to gate, write or append: the results modules (~20 ms) stay unloaded
        from shape_asserts.results import step_summary
        from shape_asserts.results.report import write_report
        from shape_asserts.results.summary import summarize

        records = self.ordered()
        rows = summarize(records)
        if o.baseline is not None:
            opt = session.config.option
            listing = next((f for f in ("collectonly", "setuponly", "setupplan") if getattr(opt, f, False)), None)
            if listing is None:
                self._gate(session, records)
            else:  # no result to gate, and no verdict to give
                flag = {"collectonly": "--collect-only", "setuponly": "--setup-only", "setupplan": "--setup-plan"}
                self.problems.append(
                    f"gate: not run — {flag[listing]} executes no test, and the gate needs their results"
                )
        if o.report is not None:
            try:
                self.report_path = write_report(o.report, self._report_data(records, rows))
            except Exception as exc:
                self.problems.append(f"could not write the report {o.report}: {type(exc).__name__}: {exc}")
        if os.environ.get(step_summary.ENV):
            status = None
            if self.status is not None:
                status = f"exit status {self.status[1]}: {self.status_reason}"
            text = step_summary.markdown(
                rows,
                self.gate,
                report=str(o.report) if o.report else None,
                status=status,
                leaderboard=self.leaderboard(),
            )
            try:
                step_summary.append(text)
            except OSError as exc:
                self.problems.append(f"could not append to ${step_summary.ENV}: {exc}")

    def _gate(self, session: pytest.Session, records: list[CaseRecord]) -> None:
        """Gate the candidates against the baseline; the run's exit status becomes the gate's."""
        from shape_asserts.results.gate import exit_status, gate, shortfall

        o, models = self.options, self.settings.models
        assert o.baseline is not None
        incomplete = shortfall(
            self.selected,
            records,
            models,
            baseline=o.baseline,
            stopped=stopped_early(session),
            crashed=self.crashed,
        )
        by_model = {m: [r for r in records if r.model == m] for m in models}
        candidates = {m: by_model[m] for m in models if m != o.baseline}
        self.gate = gate(candidates, o.baseline, by_model.get(o.baseline, []), margin=o.margin, incomplete=incomplete)
        gated, self.status_reason = exit_status(
            session.exitstatus,
            self.gate,
            errors=self.errors,
            collect_errors=self.collect_errors,
            other_failures=self.other_failures,
            undecided=o.undecided,
        )
        self.status = (int(session.exitstatus), gated)
        session.exitstatus = gated

    def _report_data(self, records: list[CaseRecord], rows: list) -> ReportData:
        from shape_asserts.results.report import ReportData

        s, o = self.settings, self.options
        candidates = [m for m in s.models if m != o.baseline]
        meta = [("models", ", ".join(candidates))]
        if o.baseline:
            meta.append(("baseline", o.baseline))
        meta += [
            ("cases", str(len({r.case for r in records}))),
            ("samples per case", str(s.samples)),
            ("required pass rate", f"{s.min_pass_rate:.2f}"),
            ("language", s.lang),
            ("record", s.record),
            ("temperature", "provider default" if s.temperature is None else f"{s.temperature:g}"),
        ]
        meta += _sent_lines(s)
        if self.status is not None:
            meta.append(("exit status", str(self.status[1])))
        return ReportData(
            records=records,
            rows=rows,
            gate=self.gate,
            leaderboard=self.leaderboard(),
            models=list(s.models),
            baseline=o.baseline,
            lang=s.lang,
            cases={c.id: c for c in s.cases()},
            load=self._spool.load if self._spool is not None else None,
            settings=meta,
            generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        )

    def write_results(self, tr: Any) -> None:
        """The summary table and the leaderboard, before other plugins' summaries (syrupy's)."""
        if self.records:
            from shape_asserts.results.summary import format_table, summarize

            tr.section("shape-asserts summary")
            for line in format_table(summarize(self.ordered())):
                tr.write_line(line)
            tr.write_line(
                "spread/std: how much a case's score moves when only the start point and direction "
                "change (mean over groups of otherwise identical cases; lower is steadier)"
            )
            board = self.leaderboard()
            if board is not None:
                from shape_asserts.results.leaderboard_view import terminal_lines

                tr.section("shape-asserts leaderboard")
                for line in terminal_lines(board):  # as `shape-asserts leaderboard FILE` prints it
                    tr.write_line(line)
            self._write_drawings_hint(tr)

    def _write_drawings_hint(self, tr: Any) -> None:
        """Where the drawings are, when failing cases printed one line each (many models, or -m benchmark)."""
        from shape_asserts.plugin.suite import drawings_in_terminal

        if drawings_in_terminal(self.settings, self.config.get_verbosity()):
            return
        failed = sum(r.outcome == "failed" for r in self.records)
        if not failed:
            return
        where = (
            f"; every drawing is in {self.options.report}"
            if self.options.report
            else "; --shape-report PATH draws them all"
        )
        tr.write_line(
            f"shape-asserts: {failed} failing case(s) printed one line each (several models or -m benchmark); "
            f"-v prints each one's drawing{where}"
        )

    def write_gate(self, tr: Any) -> None:
        """The gate, the exit status, any problem and the report's path, after other plugins' summaries."""
        if self.gate is not None:
            from shape_asserts.results.gate import FAIL, PASS, UNDECIDED
            from shape_asserts.results.gate_text import format_gate

            g = self.gate
            colour = {PASS: {"green": True}, FAIL: {"red": True}, UNDECIDED: {"yellow": True}}[g.verdict]
            tr.section("shape-asserts gate", sep="=", bold=True, **colour)
            for line in format_gate(g):
                tr.write_line(line)
            tr.write_line("")
            tr.write_line(f"gate: {g.verdict}", bold=True, **colour)
            if g.verdict == UNDECIDED:
                policy = self.options.undecided
                tr.write_line(
                    "WARNING: the gate is UNDECIDED — the results cannot tell whether the candidate is worse "
                    f"than the baseline by more than {g.margin:g}; treated as {policy.upper()} "
                    f"(--gate-undecided={policy})",
                    yellow=True,
                    bold=True,
                )
            if self.status is not None:
                tr.write_line(f"exit status {self.status[1]}: {self.status_reason}")
        for problem in self.problems:
            tr.write_line(f"shape-asserts: {problem}", red=True)
        if self.results_path is not None:
            partial = self.results_path.name.endswith(".partial")
            kind = " (the run did not finish: a partial file)" if partial else ""
            tr.write_sep("-", f"shape-asserts results: {self.results_path}, {self._written} tests{kind}")
        if self.report_path is not None:
            tr.write_sep("-", f"shape-asserts report: {self.report_path}")


def _sent_lines(settings: Any) -> list[tuple[str, str]]:
    """The report's line per model of a run that configures what models are sent: its litellm model
    and arguments (checked at start: never a secret), so the report says what each name stands for."""
    if not (getattr(settings, "configs", None) or getattr(settings, "provider_args", None)):
        return []
    from shape_asserts.asking.model_config import canonical, resolve

    lines = []
    for model in settings.models:
        sent = resolve(model, settings.configs, settings.provider_args, settings.temperature, settings.max_tokens)
        lines.append((f"model {model}", f"{sent.model} {canonical(dict(sent.args))}"))
    return lines
