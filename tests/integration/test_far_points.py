"""An answer with a point far outside the grid: a failure of every family's case, never a warning.

A coordinate such as 1e300 is a finite number the parser keeps (the ``bounds`` and ``finite``
checks fail it); measuring the drawing then overflows. numpy said so once per overflow, seven
warnings a test in pytest's summary, and under ``-W error::RuntimeWarning`` each was an exception
in the scorer.
"""

from __future__ import annotations

import json

import pytest

from shape_asserts.cases import builtin_cases
from shape_asserts.geometry.drawing import parse_drawing

from .conftest import recording


def _first_case_of_each_family() -> list[str]:
    seen: dict[str, str] = {}
    for case in builtin_cases():
        seen.setdefault(case.family, case.id)
    return sorted(seen.values())


CASES = _first_case_of_each_family()


@pytest.mark.parametrize("far", [1e300, -1e300, 1e308])
def test_a_point_far_outside_the_grid_fails_each_family_without_a_warning(suite, far):
    for case_id in CASES:
        path = recording(suite, case_id)
        doc = json.loads(path.read_text(encoding="utf-8"))
        points = parse_drawing(doc["samples"][0]["text"]).points.tolist()
        points.insert(len(points) // 2, [far, 3.0])
        doc["samples"][0]["text"] = json.dumps({"points": points})
        path.write_text(json.dumps(doc), encoding="utf-8")

    result = suite.runpytest_subprocess(
        "--record=none", "-W", "error::RuntimeWarning", "-k", " or ".join(CASES), "--shape-report=report.html"
    )

    text = result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=len(CASES))
    assert "Warning" not in text and "Traceback" not in text, text
    assert len(CASES) >= 12  # every built-in family
    assert (suite.path / "report.html").stat().st_size > 0
