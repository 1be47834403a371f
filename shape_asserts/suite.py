"""The suite's per-run objects: settings resolved from options, and one case's run.

The plugin builds a :class:`Settings` from the command line and ini file, parametrizes tests with
:class:`CaseParam` (model × case), and hands each test a :class:`CaseRun` whose ``check()`` scores
the answers, attaches the results as test properties, compares the snapshot and asserts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .cases import Case, load_cases
from .fixtures import FixtureStore
from .record import Obtained, Recorder
from .snapshots import extension_for, snapshot_folder
from .verdict import CaseResult, judge

__all__ = ["Settings", "CaseParam", "CaseRun", "DEFAULT_MODEL"]

DEFAULT_MODEL = "reference/exact"


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to ask, record and judge; built once per process."""

    models: tuple[str, ...] = (DEFAULT_MODEL,)
    record: str = "missing"
    fixtures_dir: Path = Path("fixtures")
    snapshots_dir: Path = Path("snapshots")
    temperature: float | None = None
    lang: str = "ru"
    samples: int = 1
    min_pass_rate: float = 1.0
    api_base: str | None = None
    timeout: float = 120.0
    case_files: tuple[Path, ...] = ()
    _cases: list[Case] = field(default_factory=list, compare=False, repr=False)

    def cases(self) -> list[Case]:
        """The run's cases: built-in ones, then the user's files (loaded once)."""
        if not self._cases:
            self._cases.extend(load_cases(self.case_files))
        return self._cases

    def recorder(self) -> Recorder:
        return Recorder(FixtureStore(self.fixtures_dir), self.record, temperature=self.temperature,
                        lang=self.lang, timeout=self.timeout, api_base=self.api_base)


@dataclass(frozen=True)
class CaseParam:
    """One test's parameter: a model and a case."""

    model: str
    case: Case

    @property
    def id(self) -> str:
        return f"{self.case.id}@{self.model}"


class CaseRun:
    """One model × case inside a test: answers obtained at setup, verdict at ``check()``."""

    def __init__(self, param: CaseParam, settings: Settings, obtained: Obtained,
                 node: pytest.Item, snapshot: Any | None) -> None:
        self.param = param
        self.settings = settings
        self.obtained = obtained
        self.node = node
        self._snapshot = snapshot
        self.result: CaseResult | None = None

    def judge(self) -> CaseResult:
        """Parse and score every sample, and attach the results to the test report."""
        if self.result is None:
            self.result = judge(self.param.case, self.param.model, self.obtained.texts,
                                self.settings.min_pass_rate)
            props = dict(self.node.user_properties)
            for name, value in self.result.properties():
                if name not in props:
                    self.node.user_properties.append((name, value))
        return self.result

    def _compare_snapshot(self, result: CaseResult) -> str | None:
        """Compare with the pinned summary; the reason it differs, or ``None``."""
        snap = self._snapshot
        if snap is None:
            return None
        s = self.settings
        folder = snapshot_folder(s.snapshots_dir, self.param.model, s.lang, s.samples)
        if not folder.is_dir() and not snap.update_snapshots:
            return None  # this model has no snapshots: nothing pinned, not an error
        case = self.param.case
        ext = snap.use_extension(extension_for(folder, case.family, case.id))
        if ext == result.summary():
            return None
        diff = "\n".join(ext.get_assert_diff())
        return (f"result differs from the snapshot in {folder / case.family / (case.id + '.json')}; "
                f"review and accept with --snapshot-update\n{diff}")

    def check(self) -> CaseResult:
        """Judge, compare the snapshot, and fail the test with a readable reason if needed."""
        result = self.judge()
        mismatch = self._compare_snapshot(result)
        if not result.passed:
            message = result.failure_message()
            if mismatch:
                message += "\n\n" + mismatch.splitlines()[0]
            pytest.fail(message, pytrace=False)
        if mismatch:
            pytest.fail(mismatch, pytrace=False)
        return result
