"""How much of a catalogue sweep a run covers: a fixed sample by default, everything with ``--full``.

The validity sweeps score every catalogue drawing of every built-in case; that is most of the test
command's time. The default run takes every :data:`EVERY`-th case of each family (the first one
included: each family's main variant), so every family, check and drawing style is still exercised;
``pytest --full`` (which ``.ci/run`` also runs) and ``bench/calibrate_catalogue.py`` cover all.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: The root conftest sets it for the run when ``--full`` is given.
FULL_ENV = "SHAPE_ASSERTS_FULL"

#: The default run keeps one case in this many of each family, in file order.
EVERY = 4


def exhaustive() -> bool:
    """Whether this run sweeps every case (``--full``)."""
    return os.environ.get(FULL_ENV) == "1"


def sample(cases: Sequence[T], family_of=lambda case: case.family) -> list[T]:
    """Every case under ``--full``; else every :data:`EVERY`-th case of each family, in order."""
    if exhaustive():
        return list(cases)
    seen: dict[str, int] = {}
    out = []
    for case in cases:
        k = seen.get(family_of(case), 0)
        seen[family_of(case)] = k + 1
        if k % EVERY == 0:
            out.append(case)
    return out


def pick(default: T, everything: T) -> T:
    """``everything`` under ``--full``, else ``default``."""
    return everything if exhaustive() else default
