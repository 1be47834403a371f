"""Every legitimate drawing in the independent catalogue passes its case; every impostor fails it.

The catalogue (``tests/catalogue``) is written from the prompts alone, without the scorers. An
impostor the grid cannot tell from a fair drawing, by the rules in ``tests/validity/overlap.py``,
may pass; ``docs/calibration.md`` lists each one as the known overlap. Any other passing impostor,
and any failing legitimate drawing, fails this test with the checks that went wrong. The default
run sweeps a fixed sample of the cases, ``--full`` all of them (``tests/sweep.py``).
"""

from __future__ import annotations

import pytest

from tests.sweep import sample

from .verdicts import IMPOSTOR, LEGIT, builtin_cases, verdicts

#: A sweep over catalogue cases: a fixed sample by default, every case with --full (tests/sweep.py).
pytestmark = pytest.mark.sweep

CASES = builtin_cases()
#: A fixed sample of each family's cases; every case with ``--full`` (``tests/sweep.py``).
SWEPT = sample(CASES)


@pytest.mark.parametrize("case", SWEPT, ids=[c.id for c in SWEPT])
def test_every_legitimate_drawing_passes_and_every_impostor_fails(case):
    scored = verdicts(case)
    assert any(v.variant.kind == LEGIT for v in scored), f"{case.id}: the catalogue has no legitimate drawing"
    assert any(v.variant.kind == IMPOSTOR for v in scored), f"{case.id}: the catalogue has no impostor"
    wrong = [v.describe() for v in scored if v.wrong]
    assert not wrong, f"{len(wrong)} wrong verdict(s):\n" + "\n".join(wrong)


def test_the_catalogue_covers_every_family():
    families = {c.family for c in CASES}
    assert families == {
        "circle",
        "ellipse",
        "concentric",
        "circles",
        "square",
        "rectangle",
        "triangle",
        "polygon",
        "star",
        "spiral",
        "house",
        "stick",
    }
