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

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

# Nothing heavier than the defaults: the option table is read in every pytest run (pytest_addoption).
from shape_asserts import defaults

__all__ = ["Option", "OPTIONS", "register", "resolve"]

#: What a value may be. ``names`` and ``paths`` are repeatable on the command line and one per
#: line in the ini file; ``choice`` is a string from ``choices``.
_CASTS: dict[str, Callable[[str], Any]] = {
    "str": str,
    "choice": str,
    "path": str,
    "int": int,
    "float": float,
    "names": str,
    "paths": str,
}
_INI_TYPES: dict[str, Literal["linelist", "paths", "string"]] = {"names": "linelist", "paths": "paths"}

#: The README holds the generated table between these lines.


@dataclass(frozen=True)
class Option:
    """One setting: its command-line flag, its ini twin, its default and the values it allows.

    ``ini`` is also the command-line option's ``dest``; ``field`` is the name :func:`resolve`
    returns the value under (the :class:`~shape_asserts.plugin.suite.Settings` field it fills).
    ``check`` tells whether a value of the right type is allowed, and ``allowed`` says which are,
    for the error message (``--samples must be a whole number ≥ 1, got 0``).
    """

    flag: str
    ini: str
    field: str
    kind: str
    help: str
    default: Any = None
    default_text: str = ""
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    check: Callable[[Any], bool] | None = None
    allowed: str = ""
    base: str = "rootdir"

    def __post_init__(self) -> None:
        if self.kind not in _CASTS:
            raise ValueError(f"{self.flag}: kind must be one of {', '.join(_CASTS)}, got {self.kind!r}")

    @property
    def repeatable(self) -> bool:
        return self.kind in ("names", "paths")

    @property
    def allows(self) -> str:
        return f"one of {', '.join(self.choices)}" if self.choices else self.allowed

    @property
    def shown_default(self) -> str:
        """The default as ``--help`` and the README say it ('' when there is none)."""
        if self.default_text or self.default in (None, ()):
            return self.default_text
        return ", ".join(self.default) if isinstance(self.default, tuple) else str(self.default)

    @property
    def help_text(self) -> str:
        """The help ``pytest --help`` shows: the README's, plus what the README says in other columns."""
        text = self.help + ("; repeatable" if self.repeatable else "")
        return f"{text} (default: {self.shown_default})" if self.shown_default else text

    def value(self, config: pytest.Config) -> Any:
        """This setting's value for the run: checked, cast, paths made absolute."""
        given = config.getoption(self.ini)
        ini = config.getini(self.ini)
        if self.kind == "paths":  # the command line's files add to the ini's (already absolute)
            self._check(self.flag, given or [])
            return tuple(self._absolute(p, config, self.base) for p in (given or [])) + tuple(ini)
        if given is not None:
            name, value, base = self.flag, given, self.base
        elif ini not in ("", []):
            name, base = f"ini setting {self.ini}", "rootdir"
            value = ini if self.repeatable else self._cast(name, ini)
        else:
            name, value, base = "", self.default, "rootdir"
        if name:
            self._check(name, value)
        if self.kind == "names":
            return tuple(value)
        if self.kind == "path" and value is not None:
            return self._absolute(value, config, base)
        return value

    def _cast(self, name: str, raw: str) -> Any:
        try:
            return _CASTS[self.kind](raw.strip())
        except ValueError:
            raise pytest.UsageError(f"{name} must be {self.allows}, got {raw!r}") from None

    def _check(self, name: str, value: Any) -> None:
        items = list(value) if self.repeatable else [value]
        if _CASTS[self.kind] is str and any(not str(v).strip() for v in items):
            raise pytest.UsageError(f"{name} needs {self.allows}, got an empty one")
        twice = sorted({v for v in items if items.count(v) > 1}) if self.kind == "names" else []
        if twice:
            raise pytest.UsageError(f"{name} names {', '.join(twice)} more than once; give each once")
        if self.choices and value not in self.choices:
            raise pytest.UsageError(f"{name} must be {self.allows}, got {value!r}")
        if self.check is not None and not self.check(value):
            raise pytest.UsageError(f"{name} must be {self.allows}, got {value}")

    @staticmethod
    def _absolute(value: str | Path, config: pytest.Config, base: str) -> Path:
        path = Path(value)
        if path.is_absolute():
            return path
        return (Path(config.invocation_params.dir) if base == "cwd" else Path(config.rootpath)) / path


def _finite(low: float, high: float = math.inf, *, above: bool = False) -> Callable[[Any], bool]:
    """A check: a finite number from ``low`` (or above it) to ``high``; NaN and infinity never pass."""
    return lambda v: math.isfinite(v) and (v > low if above else v >= low) and v <= high


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
        "--record",
        "shape_record",
        "record",
        "choice",
        default=defaults.RECORD,
        choices=defaults.RECORD_MODES,
        help="none: replay only, a case without a valid recording is an error; missing: ask only for "
        "what is not recorded (or is stale); all: ask again and overwrite",
    ),
    Option(
        "--fixtures-dir",
        "shape_fixtures_dir",
        "fixtures_dir",
        "path",
        default=defaults.FIXTURES_DIR,
        metavar="DIR",
        allowed="a folder",
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
        help="folder of pinned results (one per model), relative to the rootdir",
    ),
    Option(
        "--temperature",
        "shape_temperature",
        "temperature",
        "float",
        default_text="the provider's own",
        metavar="T",
        check=_finite(0, 2),
        allowed="a number from 0 to 2",
        help="sampling temperature sent to the model; part of a recording's identity",
    ),
    Option(
        "--max-tokens",
        "shape_max_tokens",
        "max_tokens",
        "int",
        default=defaults.MAX_TOKENS,
        metavar="N",
        check=_finite(1),
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
        check=_finite(1),
        allowed="a whole number ≥ 1",
        help="answers per case, each its own call and recorded entry",
    ),
    Option(
        "--min-pass-rate",
        "shape_min_pass_rate",
        "min_pass_rate",
        "float",
        default=defaults.MIN_PASS_RATE,
        metavar="P",
        check=_finite(0, 1),
        allowed="a number from 0 to 1",
        help="share of a case's samples that must pass every check",
    ),
    Option(
        "--api-base",
        "shape_api_base",
        "api_base",
        "str",
        metavar="URL",
        allowed="a URL",
        help="base URL of an OpenAI-compatible server (with --model=openai/<name>)",
    ),
    Option(
        "--request-timeout",
        "shape_request_timeout",
        "timeout",
        "float",
        default=defaults.TIMEOUT,
        metavar="S",
        check=_finite(0, above=True),
        allowed="a positive number of seconds",
        help="seconds one model call may take, connect to last byte",
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
        check=_finite(1),
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
        check=_finite(0),
        allowed="a whole number ≥ 0",
        help="retries of a call after a 429 (honouring Retry-After), 5xx or dropped connection "
        "(a timeout: see --timeout-retries)",
    ),
    Option(
        "--timeout-retries",
        "shape_timeout_retries",
        "timeout_retries",
        "int",
        default=defaults.TIMEOUT_RETRIES,
        metavar="N",
        check=_finite(0),
        allowed="a whole number ≥ 0",
        help="retries of a call that timed out; none by default, since a local server goes on "
        "generating for a client that left (raise --request-timeout instead)",
    ),
    Option(
        "--max-cost",
        "shape_max_cost",
        "max_cost",
        "float",
        default_text="no cap",
        metavar="USD",
        check=_finite(0),
        allowed="a finite number ≥ 0",
        help="stop issuing new calls once this much was spent, in US dollars (where litellm knows "
        "prices); cases left unasked are skipped",
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
        check=_finite(0),
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
)


def register(parser: pytest.Parser) -> None:
    """Add every option to the ``shape-asserts`` group of ``pytest --help``, and its ini twin."""
    group = parser.getgroup("shape-asserts", "shape-asserts: how well models draw shapes")
    for o in OPTIONS:
        kwargs: dict[str, Any] = {"dest": o.ini, "default": None, "help": o.help_text}
        if o.repeatable:
            kwargs["action"] = "append"
        if o.kind in ("int", "float"):
            kwargs["type"] = _CASTS[o.kind]  # argparse refuses "abc" with its own usage error
        if o.choices:
            kwargs["choices"] = o.choices  # and an unknown choice: "invalid choice: 'fr'"
        else:
            kwargs["metavar"] = o.metavar
        group.addoption(o.flag, **kwargs)
        parser.addini(
            o.ini, f"{o.flag}: {o.help_text}", type=_INI_TYPES.get(o.kind, "string"), default=[] if o.repeatable else ""
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
