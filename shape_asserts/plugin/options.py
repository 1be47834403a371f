"""The plugin's options, declared once: each setting's flag, ini twin, default, type and rules.

Everything else is generated from :data:`OPTIONS`: :func:`register` adds every command-line
option and its ini twin, :func:`resolve` reads the values, and :func:`markdown_table` renders the
README's options table (``python -m shape_asserts.plugin --write-readme README.md`` rewrites it;
a test fails when the README and the table differ).

Which source wins: command line > ini file (``[tool.pytest.ini_options]``) > default (from
:mod:`shape_asserts.defaults`), except ``--shape-cases``, whose files add to the ini's.
A relative path is taken from the rootdir, or for an option whose ``base`` is ``"cwd"`` and whose
value came from the command line, from the folder pytest was started in (like ``--junitxml``).

To add an option: add an :class:`Option` here (its default in :mod:`shape_asserts.defaults`), a
field of the same name to whatever it configures, regenerate the README table, and add a test.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

# Nothing heavier than the defaults: the option table is read in every pytest run (pytest_addoption).
from shape_asserts import defaults
from shape_asserts.plugin.option import CASTS, INI_TYPES, Option, finite, http_url, url_shown

__all__ = ["Option", "OPTIONS", "register", "resolve"]


#: Every setting of the plugin, in the order ``--help`` and the README list them.
OPTIONS: tuple[Option, ...] = (
    Option(
        "--model",
        "shape_models",
        "models",
        "names",
        default=(defaults.MODEL,),
        metavar="NAME",
        allowed="a model name",
        help="litellm model to ask: gpt-4o, anthropic/..., ollama/..., openai/<name> with "
        "--api-base; reference/exact and reference/noisy draw in-process, without a key",
    ),
    Option(
        "--model-arg",
        "shape_model_args",
        "model_args",
        "pairs",
        default=(),
        metavar="KEY=VALUE",
        allowed="KEY=VALUE",
        help="argument passed to litellm's completion call for every model (top_p=0.5, seed=7, "
        "reasoning_effort=high, extra_body={...}); the value is read as JSON where it parses, else as text; "
        "ini lines come first, so a key given here wins; a configuration's own key wins over both. Never a "
        "secret (refused: use the environment); part of a recording's identity",
    ),
    Option(
        "--shape-models",
        "shape_models_file",
        "models_file",
        "path",
        metavar="FILE",
        allowed="a TOML file",
        base="cwd",
        help='TOML file of named model configurations, [models.NAME] tables with model = "<litellm model>" '
        "and any other litellm arguments; --model=NAME runs one under its name (README: Model configurations). "
        "Added to [tool.shape-asserts.models] of the rootdir's pyproject.toml; a name in both is this file's",
    ),
    Option(
        "--record",
        "shape_record",
        "record",
        "choice",
        default=defaults.RECORD,
        choices=defaults.RECORD_MODES,
        help="none: replay only, a case without a valid recording is an error; missing: ask only for "
        "what is not recorded (or is stale); all: ask again, replacing the samples asked",
    ),
    Option(
        "--fixtures-dir",
        "shape_fixtures_dir",
        "fixtures_dir",
        "path",
        default=defaults.FIXTURES_DIR,
        metavar="DIR",
        allowed="a folder",
        folder=True,
        help="folder of recorded answers, relative to the rootdir",
    ),
    Option(
        "--snapshots-dir",
        "shape_snapshots_dir",
        "snapshots_dir",
        "path",
        default=defaults.SNAPSHOTS_DIR,
        metavar="DIR",
        allowed="a folder",
        folder=True,
        help="folder of pinned results (one per model), relative to the rootdir",
    ),
    Option(
        "--temperature",
        "shape_temperature",
        "temperature",
        "float",
        default_text="the provider's own",
        metavar="T",
        check=finite(0, 2),
        allowed="a number from 0 to 2",
        help="sampling temperature sent to the model, from 0 to 2 (OpenAI's range; a provider with a "
        "narrower one refuses the rest); part of a recording's identity",
    ),
    Option(
        "--max-tokens",
        "shape_max_tokens",
        "max_tokens",
        "int",
        default=defaults.MAX_TOKENS,
        metavar="N",
        check=finite(1),
        allowed="a whole number ≥ 1",
        help="most tokens the model may write in one answer (litellm's max_tokens); part of a live "
        "recording's identity. The default is ~2x the longest built-in answer (~5,600 characters at "
        "~3 characters a token: bench/answer_tokens.py); an answer cut at it fails as cut",
    ),
    Option(
        "--lang",
        "shape_lang",
        "lang",
        "choice",
        default=defaults.LANG,
        choices=defaults.LANGS,
        help="prompt language: ru (the seed post's) or en",
    ),
    Option(
        "--samples",
        "shape_samples",
        "samples",
        "int",
        default=defaults.SAMPLES,
        metavar="N",
        check=finite(1, defaults.MAX_SAMPLES),
        allowed=f"a whole number from 1 to {defaults.MAX_SAMPLES:,}",
        help="answers per case, each its own call and recorded entry",
    ),
    Option(
        "--min-pass-rate",
        "shape_min_pass_rate",
        "min_pass_rate",
        "float",
        default=defaults.MIN_PASS_RATE,
        metavar="P",
        check=finite(0, 1),
        allowed="a number from 0 to 1",
        help="share of a case's samples that must pass every check",
    ),
    Option(
        "--api-base",
        "shape_api_base",
        "api_base",
        "str",
        metavar="URL",
        check=http_url,
        shown=url_shown,
        allowed="an http:// or https:// URL with a host, no space and no user:password@ (a key goes in "
        "the provider's variable, OPENAI_API_KEY for openai/<name>)",
        help="base URL of an OpenAI-compatible server (with --model=openai/<name>)",
    ),
    Option(
        "--request-timeout",
        "shape_request_timeout",
        "timeout",
        "float",
        default=defaults.TIMEOUT,
        metavar="S",
        check=finite(0, above=True),
        allowed="a positive number of seconds",
        help="seconds one model call may take, connect to last byte; a call that times out for good, begun "
        "when the model had answered nothing for two minutes, ends the model's other calls",
    ),
    Option(
        "--shape-cases",
        "shape_cases",
        "case_files",
        "paths",
        default=(),
        metavar="FILE",
        allowed="a TOML file",
        base="cwd",
        help="extra case file (TOML); adds to the built-in cases and to the ini's files",
    ),
    Option(
        "--concurrency",
        "shape_concurrency",
        "concurrency",
        "int",
        default=defaults.CONCURRENCY,
        metavar="C",
        check=finite(1),
        allowed="a whole number ≥ 1",
        help="most model calls in flight at once, per run (not per xdist worker)",
    ),
    Option(
        "--max-retries",
        "shape_max_retries",
        "max_retries",
        "int",
        default=defaults.MAX_RETRIES,
        metavar="N",
        check=finite(0),
        allowed="a whole number ≥ 0",
        help="retries of a call after a 5xx or dropped connection (a timeout: see --timeout-retries); a wait "
        "the provider states (Retry-After) holds every call to the model; after a 429 a call is retried, whatever "
        "this says, 2, 4, 8 … s apart while the model answers others; once it has answered none for two minutes "
        "(none under way either), its calls end at their next failure",
    ),
    Option(
        "--timeout-retries",
        "shape_timeout_retries",
        "timeout_retries",
        "int",
        default_text=f"{defaults.TIMEOUT_RETRIES_HOSTED}; {defaults.TIMEOUT_RETRIES_LOCAL} at a local server",
        metavar="N",
        check=finite(0),
        allowed="a whole number ≥ 0",
        help="retries of a call that timed out; by default as the openai client makes, but none when "
        "--api-base (else the provider's server in the environment, as OPENAI_BASE_URL) is on a loopback or "
        "private address (or for ollama/, lm_studio/, llamafile/ without either), "
        "since a local server goes on generating for a client that left (raise --request-timeout there); "
        "the run's header says which applies",
    ),
    Option(
        "--max-cost",
        "shape_max_cost",
        "max_cost",
        "float",
        default_text="no cap",
        metavar="USD",
        check=finite(0),
        allowed="a finite number ≥ 0",
        help="stop issuing new calls once this much was spent, in US dollars (the tokens each reply says "
        "it used, at the asked model's list price, the region's, or litellm's own figure where higher; a reply "
        "that does not say counts at its call's worst case); cases left unasked are skipped. A model the cap cannot count "
        "(it runs searches of its own, it is hosted and litellm lists no price for it, or it is asked with arguments "
        "other than sampling, answer limits, plain tools, reasoning and regions) is refused before anything "
        "is asked; one without a price served on this machine or a private network is taken to cost nothing. "
        "Not with --batch, which is submitted whole",
    ),
    Option(
        "--shape-report",
        "shape_report",
        "report",
        "path",
        metavar="PATH",
        allowed="a file path",
        base="cwd",
        help="write one self-contained HTML report at the end of the run: summary, gate, and every "
        "case's drawings with metrics, failed checks and raw answers",
    ),
    Option(
        "--shape-results",
        "shape_results",
        "results",
        "path",
        metavar="FILE",
        allowed="a file path",
        base="cwd",
        help="write one JSON line per model × case × sample (configuration, case, score, checks, verdict, "
        "answer digest, cost; docs/results.md), whole at the end of the run; shape-asserts leaderboard "
        "FILE... merges such files into a leaderboard",
    ),
    Option(
        "--baseline",
        "shape_baseline",
        "baseline",
        "str",
        metavar="MODEL",
        allowed="a model name",
        help="gate the --model(s) against this model (not also a --model): it runs as one more model, "
        "usually replayed, and the run's exit status becomes the gate's: 0 pass, 1 fail",
    ),
    Option(
        "--gate-margin",
        "shape_gate_margin",
        "gate_margin",
        "float",
        default=defaults.GATE_MARGIN,
        metavar="M",
        check=finite(0),
        allowed="a finite number ≥ 0",
        help="with --baseline: how much worse the candidate may be, in score points and in pass-rate "
        "percentage points, before the gate fails",
    ),
    Option(
        "--gate-undecided",
        "shape_gate_undecided",
        "gate_undecided",
        "choice",
        default=defaults.GATE_UNDECIDED,
        choices=defaults.UNDECIDED_POLICIES,
        help="with --baseline: what an UNDECIDED gate (too little evidence) does to the exit status: "
        "pass (exit 0 with a warning) or fail (exit 1)",
    ),
    Option(
        "--batch",
        "shape_batch",
        "batch",
        "flag",
        default=defaults.BATCH,
        default_text="off",
        allowed="true or false",
        help="ask what is missing as one provider batch per model, resumed if killed (README: Batch runs)",
    ),
    Option(
        "--batch-wait",
        "shape_batch_wait",
        "batch_wait",
        "float",
        default=defaults.BATCH_WAIT,
        metavar="SECONDS",
        check=finite(0, above=True),
        allowed="a positive number of seconds",
        help="how long a --batch run polls its batch; then it stops waiting, and the batch runs on at the "
        "provider, kept for the next run to fetch",
    ),
)


def register(parser: pytest.Parser) -> None:
    """Add every option to the ``shape-asserts`` group of ``pytest --help``, and its ini twin."""
    group = parser.getgroup("shape-asserts", "shape-asserts: how well models draw shapes")
    for o in OPTIONS:
        kwargs: dict[str, Any] = {"dest": o.ini, "default": None, "help": o.help_text}
        if o.kind == "flag":
            kwargs["action"] = "store_true"  # not given: None, so the ini decides
        if o.repeatable:
            kwargs["action"] = "append"
        if o.kind in ("int", "float"):
            kwargs["type"] = CASTS[o.kind]  # argparse refuses "abc" with its own usage error
        if o.choices:
            kwargs["choices"] = o.choices  # and an unknown choice: "invalid choice: 'fr'"
        elif o.kind != "flag":
            kwargs["metavar"] = o.metavar
        group.addoption(o.flag, **kwargs)
        parser.addini(
            o.ini, f"{o.flag}: {o.help_text}", type=INI_TYPES.get(o.kind, "string"), default=[] if o.repeatable else ""
        )


def resolve(config: pytest.Config) -> dict[str, Any]:
    """Every setting's value by ``field``: command line > ini > default, checked and cast.

    Raises
    ------
    pytest.UsageError
        A value that is not allowed; the message names the flag or ini key, the value and what is
        allowed.
    """
    return {o.field: o.value(config) for o in OPTIONS}


#: ``-m`` naming the benchmark marker as a word: ``-m benchmark``, ``-m "benchmark and circle"``.
_BENCHMARK_WORD = re.compile(r"(?<![\w.])benchmark(?![\w.])")


def benchmark_selected(config: pytest.Config) -> bool:
    """Whether this run has the benchmark matrix: its ``-m`` expression names ``benchmark``.

    Decided from ``-m`` rather than by deselecting after collection so that a user's project (which
    has none of this project's ini settings) gets the same quick default run, and a default run does
    not even build the benchmark's cases. ``-m "not benchmark"`` builds them and pytest deselects them.
    """
    return bool(_BENCHMARK_WORD.search(getattr(config.option, "markexpr", "") or ""))
