"""pytest plugin: registers options, markers and fixtures, and hands the work to the library.

Which setting wins: command line > ini file (``[tool.pytest.ini_options]``) > default. The
default record mode is the safe one, ``missing``: nothing recorded is ever re-asked.

Any test that requests the ``shape_run`` fixture is parametrized over models × cases; the test
body is one line (``shape_run.check()``). Answers are obtained during fixture *setup*, so a
provider outage or a missing fixture is reported as an ERROR, while a bad drawing is a FAILURE.
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from shape_asserts.exceptions import CaseError, FixtureError, ProviderError
from shape_asserts.families.prompts import LANGS
from shape_asserts.asking.asker import RECORD_MODES
from shape_asserts.families.registry import FAMILIES
from shape_asserts.plugin.suite import DEFAULT_MODEL, CaseParam, CaseRun, Settings, prefetch
from shape_asserts.results.collect import printable
from shape_asserts.results.summary import format_table, record_from_properties, summarize
from shape_asserts.results.gate import DEFAULT_MARGIN as DEFAULT_GATE_MARGIN
from shape_asserts.plugin.session import UNDECIDED_POLICIES, VerdictOptions, VerdictSession, with_baseline

OPTION_MODEL = "--model"
OPTION_RECORD = "--record"
OPTION_FIXTURES_DIR = "--fixtures-dir"
OPTION_TEMPERATURE = "--temperature"
OPTION_LANG = "--lang"
OPTION_SAMPLES = "--samples"
OPTION_MIN_PASS_RATE = "--min-pass-rate"
OPTION_API_BASE = "--api-base"
OPTION_TIMEOUT = "--request-timeout"
OPTION_CASES = "--shape-cases"
OPTION_CONCURRENCY = "--concurrency"
OPTION_MAX_RETRIES = "--max-retries"
OPTION_MAX_COST = "--max-cost"
OPTION_REPORT = "--shape-report"
OPTION_BASELINE = "--baseline"
OPTION_GATE_MARGIN = "--gate-margin"
OPTION_GATE_UNDECIDED = "--gate-undecided"

_SETTINGS_KEY = pytest.StashKey[Settings]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("shape-asserts", "shape-asserts: how well models draw shapes")
    group.addoption(OPTION_MODEL, action="append", dest="shape_models", default=None, metavar="NAME",
                    help=f"litellm model to ask (repeatable), e.g. gpt-4o, anthropic/..., ollama/..., "
                         f"openai/<name> with --api-base. Default: {DEFAULT_MODEL} (in-process, no key).")
    group.addoption(OPTION_RECORD, dest="shape_record", choices=RECORD_MODES, default=None,
                    help="none: replay only, fail cases without a valid recording; missing (default): "
                         "ask only for what is not recorded; all: ask again and overwrite.")
    group.addoption(OPTION_FIXTURES_DIR, dest="shape_fixtures_dir", default=None, metavar="DIR",
                    help="where recorded answers live (default: fixtures/ under the rootdir).")
    group.addoption(OPTION_TEMPERATURE, dest="shape_temperature", type=float, default=None, metavar="T",
                    help="sampling temperature sent to the model (default: the provider's own).")
    group.addoption(OPTION_LANG, dest="shape_lang", choices=LANGS, default=None,
                    help="prompt language: ru (the seed's, default) or en.")
    group.addoption(OPTION_SAMPLES, dest="shape_samples", type=int, default=None, metavar="N",
                    help="answers per case, each its own call and recording (default 1).")
    group.addoption(OPTION_MIN_PASS_RATE, dest="shape_min_pass_rate", type=float, default=None, metavar="P",
                    help="share of a case's samples that must pass every check (default 1.0).")
    group.addoption(OPTION_API_BASE, dest="shape_api_base", default=None, metavar="URL",
                    help="API base URL for OpenAI-compatible servers (with --model=openai/<name>).")
    group.addoption(OPTION_TIMEOUT, dest="shape_timeout", type=float, default=None, metavar="S",
                    help="seconds one model call may take (default 120).")
    group.addoption(OPTION_CASES, dest="shape_cases", action="append", default=None, metavar="FILE",
                    help="extra case file (TOML), repeatable; adds to the built-in cases.")
    group.addoption(OPTION_CONCURRENCY, dest="shape_concurrency", type=int, default=None, metavar="C",
                    help="most model calls in flight at once, per run (not per xdist worker; default 16).")
    group.addoption(OPTION_MAX_RETRIES, dest="shape_max_retries", type=int, default=None, metavar="N",
                    help="retries of a call after a 429 (honouring Retry-After), 5xx, timeout or "
                         "dropped connection (default 3).")
    group.addoption(OPTION_MAX_COST, dest="shape_max_cost", type=float, default=None, metavar="USD",
                    help="stop issuing new calls once this much was spent (where litellm knows prices); "
                         "cases left unasked are skipped.")
    group.addoption(OPTION_REPORT, dest="shape_report", default=None, metavar="PATH",
                    help="write one self-contained HTML report at the end of the run: summary, gate, and "
                         "every case's drawings side by side with metrics, failed checks and raw answers.")
    group.addoption(OPTION_BASELINE, dest="shape_baseline", default=None, metavar="MODEL",
                    help="gate the --model(s) against this model: it runs as one more model (usually replayed "
                         "from fixtures), and the run's exit status becomes the gate's: 0 pass, 1 fail.")
    group.addoption(OPTION_GATE_MARGIN, dest="shape_gate_margin", type=float, default=None, metavar="M",
                    help="with --baseline: how much worse the candidate may be, in score points and in "
                         "pass-rate percentage points, before the gate fails (default 2.0).")
    group.addoption(OPTION_GATE_UNDECIDED, dest="shape_gate_undecided", choices=UNDECIDED_POLICIES, default="pass",
                    help="with --baseline: what an UNDECIDED gate (too little evidence) does to the exit status: "
                         "pass (default; exit 0 with a warning) or fail (exit 1).")
    parser.addini("shape_models", "models to ask (one per line)", type="linelist", default=[])
    parser.addini("shape_record", "record mode: none, missing or all", default="")
    parser.addini("shape_fixtures_dir", "folder of recorded answers", default="")
    parser.addini("shape_snapshots_dir", "folder of result snapshots", default="")
    parser.addini("shape_lang", "prompt language (ru or en)", default="")
    parser.addini("shape_samples", "answers per case", default="")
    parser.addini("shape_min_pass_rate", "share of samples that must pass", default="")
    parser.addini("shape_temperature", "sampling temperature", default="")
    parser.addini("shape_cases", "extra case files (TOML), one per line", type="paths", default=[])


def _pick(config: pytest.Config, option: str, ini: str, default: Any, cast: Any = str) -> Any:
    value = config.getoption(option)
    if value is not None:
        return value
    raw = config.getini(ini)
    if raw not in ("", None, []):
        try:
            return cast(raw)
        except ValueError:
            raise pytest.UsageError(f"ini setting {ini} = {raw!r} is not a valid {cast.__name__}") from None
    return default


def _settings(config: pytest.Config) -> Settings:
    root = Path(config.rootpath)
    models = tuple(config.getoption("shape_models") or config.getini("shape_models") or [DEFAULT_MODEL])
    if any(not m.strip() for m in models):
        raise pytest.UsageError(f"{OPTION_MODEL} needs a model name, got an empty one (e.g. {OPTION_MODEL}=gpt-4o)")
    twice = sorted({m for m in models if models.count(m) > 1})
    if twice:
        raise pytest.UsageError(f"{OPTION_MODEL} names {', '.join(twice)} more than once; each model is asked once")
    record = _pick(config, "shape_record", "shape_record", "missing")
    if record not in RECORD_MODES:
        raise pytest.UsageError(f"shape_record must be one of {', '.join(RECORD_MODES)}, got {record!r}")
    lang = _pick(config, "shape_lang", "shape_lang", "ru")
    if lang not in LANGS:
        raise pytest.UsageError(f"shape_lang must be one of {', '.join(LANGS)}, got {lang!r}")
    samples = _pick(config, "shape_samples", "shape_samples", 1, int)
    if samples < 1:
        raise pytest.UsageError(f"{OPTION_SAMPLES} must be at least 1, got {samples}")
    rate = _pick(config, "shape_min_pass_rate", "shape_min_pass_rate", 1.0, float)
    if not 0.0 <= rate <= 1.0:
        raise pytest.UsageError(f"{OPTION_MIN_PASS_RATE} must be between 0 and 1, got {rate}")
    timeout = config.getoption("shape_timeout")
    timeout = 120.0 if timeout is None else timeout
    if not (math.isfinite(timeout) and timeout > 0):
        raise pytest.UsageError(f"{OPTION_TIMEOUT} must be a positive number of seconds, got {timeout}")
    temperature = _pick(config, "shape_temperature", "shape_temperature", None, float)
    if temperature is not None and not (math.isfinite(temperature) and 0 <= temperature <= 2):
        raise pytest.UsageError(f"{OPTION_TEMPERATURE} must be a number from 0 to 2, got {temperature}")
    fixtures_raw = _pick(config, "shape_fixtures_dir", "shape_fixtures_dir", "fixtures")
    if not str(fixtures_raw).strip():
        raise pytest.UsageError(f"{OPTION_FIXTURES_DIR} needs a folder (an empty one would write into the rootdir)")
    fixtures = Path(fixtures_raw)
    snaps = Path(config.getini("shape_snapshots_dir") or "snapshots")
    cases = [Path(p) for p in (config.getoption("shape_cases") or [])] + list(config.getini("shape_cases"))
    concurrency = config.getoption("shape_concurrency")
    concurrency = 16 if concurrency is None else concurrency
    retries = config.getoption("shape_max_retries")
    retries = 3 if retries is None else retries
    max_cost = config.getoption("shape_max_cost")
    if concurrency < 1 or retries < 0 or (max_cost is not None and not (math.isfinite(max_cost) and max_cost >= 0)):
        raise pytest.UsageError(f"{OPTION_CONCURRENCY} must be ≥ 1, {OPTION_MAX_RETRIES} ≥ 0, {OPTION_MAX_COST} ≥ 0")
    return Settings(
        concurrency=concurrency, max_retries=retries, max_cost=max_cost, state_path=_state_path(config),
        models=models, record=record,
        fixtures_dir=fixtures if fixtures.is_absolute() else root / fixtures,
        snapshots_dir=snaps if snaps.is_absolute() else root / snaps,
        temperature=temperature,
        lang=lang, samples=samples, min_pass_rate=rate,
        api_base=config.getoption("shape_api_base"), timeout=float(timeout),
        case_files=tuple(Path(p) if Path(p).is_absolute() else Path.cwd() / p for p in cases),
    )


def _state_path(config: pytest.Config) -> Path:
    """Where this run's fetch leaves its state: chosen by the controller, handed to xdist workers."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and "shape_state_path" in workerinput:
        return Path(workerinput["shape_state_path"])
    return Path(tempfile.mkdtemp(prefix="shape-asserts-run-")) / "state.json"


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shape: a shape-drawing case asked of a model")
    config.addinivalue_line("markers", "seed: one of the seed post's own prompts")
    for family in FAMILIES:
        config.addinivalue_line("markers", f"{family}: shape family '{family}'")
    config.stash[_SETTINGS_KEY] = _settings(config)
    config.stash[_SETTINGS_KEY] = _verdicts(config, config.stash[_SETTINGS_KEY])
    config.pluginmanager.register(_Reporter(), "shape-asserts-reporter")
    if not _is_worker(config):
        config.pluginmanager.register(_Fetcher(config), "shape-asserts-fetcher")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "shape_case" not in metafunc.fixturenames:
        return
    settings = metafunc.config.stash[_SETTINGS_KEY]
    try:
        cases = settings.cases()
    except CaseError as exc:
        raise pytest.UsageError(f"shape-asserts: {exc}") from None
    params = []
    for model in settings.models:
        for case in cases:
            param = CaseParam(model=model, case=case)
            marks = [pytest.mark.shape, getattr(pytest.mark, case.family)]
            if "seed" in case.tags:
                marks.append(pytest.mark.seed)
            params.append(pytest.param(param, id=param.id, marks=marks))
    metafunc.parametrize("shape_case", params)


@pytest.fixture
def shape_settings(request: pytest.FixtureRequest) -> Settings:
    """The run's resolved shape-asserts settings."""
    return request.config.stash[_SETTINGS_KEY]


@pytest.fixture
def shape_run(request: pytest.FixtureRequest, shape_case: CaseParam, shape_settings: Settings) -> CaseRun:
    """One model × case: its answers (recorded, replayed or asked now) ready to be judged."""
    node = request.node
    case = shape_case.case
    node.user_properties.extend([("shape_model", shape_case.model), ("shape_case", case.id),
                                 ("shape_family", case.family), ("shape_group", case.group)])
    obtained = shape_settings.obtain(shape_case)
    snapshot = None
    if request.config.pluginmanager.hasplugin("syrupy"):  # -p no:syrupy: nothing is pinned
        snapshot = request.getfixturevalue("snapshot")
    return CaseRun(shape_case, shape_settings, obtained, node, snapshot)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[Any]:
    report = yield
    # A provider outage or a bad recording is the harness's problem, not the model's drawing:
    # show the one-line reason (it names the cause and the fix) instead of a traceback.
    if call.excinfo is not None and isinstance(call.excinfo.value, (ProviderError, FixtureError)):
        # the provider's words are hostile text: no escape sequence reaches the terminal
        report.longrepr = printable(f"{type(call.excinfo.value).__name__}: {call.excinfo.value}")
    return report


class _Reporter:
    """Collects shape results from every report (xdist workers' too) and prints the summary."""

    def __init__(self) -> None:
        self.records: list = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = None
        if report.when == "call":
            outcome = report.outcome
        elif report.when == "setup" and report.outcome != "passed":
            outcome = "error" if report.outcome == "failed" else "skipped"
        if outcome is None:
            return
        rec = record_from_properties(report.user_properties, outcome)
        if rec is not None:
            self.records.append(rec)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.records:
            return
        terminalreporter.section("shape-asserts summary")
        for line in format_table(summarize(self.records)):
            terminalreporter.write_line(line)
        terminalreporter.write_line(
            "spread/std: how much a case's score moves when only the start point and direction "
            "change (mean over groups of otherwise identical cases; lower is steadier)"
        )


class _Fetcher:
    """Plans and makes the run's live calls once, in the process that sees the whole selection."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.session: pytest.Session | None = None
        self.done = False
        self.progress: Any = None
        self._last_line = 0.0

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:  # xdist controller: tell workers the path
        node.workerinput["shape_state_path"] = str(self.config.stash[_SETTINGS_KEY].state_path)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:  # no xdist: the tests are about to run
        if self.config.pluginmanager.has_plugin("dsession"):
            return  # xdist controller: the workers' collection decides (below)
        if not _tests_will_run(session):
            return
        params = [item.callspec.params["shape_case"] for item in session.items
                  if hasattr(item, "callspec") and isinstance(item.callspec.params.get("shape_case"), CaseParam)]
        self._fetch(params)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if self.done or (self.session is not None and not _tests_will_run(self.session)):
            return
        known = self.config.stash[_SETTINGS_KEY].params()
        params = []
        for nodeid in ids:
            if nodeid.endswith("]") and "[" in nodeid:
                p = known.get(nodeid[nodeid.index("[") + 1 : -1])
                if p is not None:
                    params.append(p)
        self._fetch(params)

    def _fetch(self, params: list[CaseParam]) -> None:
        if self.done:
            return
        self.done = True
        settings = self.config.stash[_SETTINGS_KEY]
        try:
            self.progress = prefetch(settings, params, on_progress=self._show,
                                     on_decision=lambda line: self._write(f"shape-asserts: {line}"))
        except Exception as exc:  # noqa: BLE001 - never lose the run to the fetch: tests ask themselves
            self._write(f"shape-asserts: fetching before the tests failed ({type(exc).__name__}: {exc}); "
                        f"cases will be asked one by one")
            if settings.state_path is not None and settings.state_path.exists():
                settings.state_path.unlink()
            return
        if self.progress is not None:
            self._write(self.progress.line())
            for line in self.progress.usage_lines():
                self._write(line)

    def _write(self, line: str) -> None:
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tr.write_line(line)

    def _show(self, progress: Any) -> None:
        now = time.monotonic()
        if now - self._last_line >= 2.0 and progress.finished is None:
            self._last_line = now
            self._write(progress.line())

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        path = config.stash[_SETTINGS_KEY].state_path
        if path is not None and path.parent.name.startswith("shape-asserts-run-"):
            import shutil

            shutil.rmtree(path.parent, ignore_errors=True)


def _tests_will_run(session: pytest.Session) -> bool:
    """Whether this run goes on to execute tests: no model is asked (and paid) for any other.

    Not for ``--collect-only``, ``--setup-plan`` or ``--setup-only``, nor after a collection error
    (pytest then stops before the first test unless ``--continue-on-collection-errors``); a usage
    error (a bad ``-k``) never reaches here.
    """
    opt = session.config.option
    if getattr(opt, "collectonly", False) or getattr(opt, "setupplan", False) or getattr(opt, "setuponly", False):
        return False
    return not (session.testsfailed and not getattr(opt, "continue_on_collection_errors", False))


def _verdicts(config: pytest.Config, settings: Settings) -> Settings:
    """Register the end-of-run report and gate; the settings with the baseline as one more model."""
    margin = config.getoption("shape_gate_margin")
    margin = DEFAULT_GATE_MARGIN if margin is None else margin
    if not margin >= 0 or margin == float("inf"):
        raise pytest.UsageError(f"{OPTION_GATE_MARGIN} must be a finite number ≥ 0, got {margin}")
    baseline = config.getoption("shape_baseline")
    try:
        settings = with_baseline(settings, baseline)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    report = config.getoption("shape_report")
    options = VerdictOptions(
        report=Path(config.invocation_params.dir) / report if report else None,  # like --junitxml: from cwd
        baseline=baseline, margin=margin, undecided=config.getoption("shape_gate_undecided"),
    )
    config.pluginmanager.register(VerdictSession(config, settings, options), "shape-asserts-verdicts")
    return settings
