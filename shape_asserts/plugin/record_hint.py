"""The "record it with" command's options: the run's own settings that recording depends on.

A case without a valid recording in ``--record=none`` mode is an error that says how to record it;
following that command must record what this run reads, so it repeats the run's command-line
options, every one of :data:`~shape_asserts.plugin.options.OPTIONS` except those that only judge,
gate or report (a new option is repeated unless listed here).
"""

from __future__ import annotations

import shlex

import pytest

from shape_asserts.asking.failure import address, redact
from shape_asserts.plugin.options import OPTIONS

__all__ = ["reproduce"]


#: Settings a command that records one case needs not repeat: which model and record mode it names
#: itself; the rest only judge, gate or report what was recorded.
_NOT_FOR_RECORDING = frozenset(
    {"models", "record", "report", "baseline", "gate_margin", "gate_undecided", "snapshots_dir", "min_pass_rate"}
)


def reproduce(config: pytest.Config) -> tuple[str, ...]:
    """The run's own command-line settings that a command recording one of its cases must repeat.

    Every option of :data:`OPTIONS` given on the command line, except those in
    :data:`_NOT_FOR_RECORDING` (a new option is repeated unless listed there), as ``--flag=value``
    quoted for a shell; ini settings are not repeated, since the command reads the same ini file.
    """
    out = []
    for o in OPTIONS:
        given = config.getoption(o.ini)
        if o.field in _NOT_FOR_RECORDING or given is None:
            continue
        if o.field == "api_base":  # its path, query or user:pass@ may hold a token
            given = address(given)
        if o.kind == "flag":  # store_true: given bare ("--batch=True" is a usage error)
            out.append(o.flag)
            continue
        for value in given if o.repeatable else [given]:
            # a value may hold a secret (a password in a --model-arg's URL): the hint reaches the
            # terminal, the JUnit XML and the report, so it says [REDACTED] for the user to fill in
            said = f"{o.flag}={value:g}" if isinstance(value, float) else f"{o.flag}={value}"
            out.append(shlex.quote(redact(said)))
    return tuple(out)
