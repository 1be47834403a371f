"""``bench/score_parts.py``: it finds a family's steps, times them, and leaves every function as it was.

Nothing here checks a time; the figures are printed by the bench, run by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run_alone(*args: str) -> str:
    """The bench in a process of its own: what earlier measurements in this process wrapped and
    unwrapped cannot change which function it finds."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "score_parts.py"), *args], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _lines(out: str) -> list[tuple[float, float, str]]:
    """The step rows printed: µs, share (as a fraction) and what they name."""
    rows = re.findall(r"^\s+(-?[\d.]+) µs\s+(-?[\d.]+)%\s+(.*)$", out, flags=re.M)
    return [(float(us), float(share) / 100, what) for us, share, what in rows]


def test_a_polygon_family_is_split_into_its_scorer_steps(score_parts, capsys):
    from shape_asserts.families import single
    from shape_asserts.families.polygon import scorer
    from shape_asserts.geometry.fit.polygon import PolygonModel

    before = (single.outline_measures, scorer.outline_measures, vars(PolygonModel)["from_estimate"])
    assert score_parts.main(["--family", "square", "--rounds", "1", "--number", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("square: ") and "steps of score_polygon (families/polygon/scorer.py)" in out
    rows = _lines(out)
    named = [what for _, _, what in rows]
    assert any(w.startswith("PolygonModel.from_estimate (geometry/fit/polygon.py)") for w in named)
    assert any(w.startswith("outline_measures (families/single.py)") for w in named)
    assert named[-1].startswith("the rest: score_polygon's own lines")
    # the shares are of one total: the steps and the rest make it whole (each printed to 0.1%)
    assert sum(share for _, share, _ in rows) == pytest.approx(1.0, abs=0.002 * len(rows))
    # every wrapped function is the original again, in its module and where it was imported
    after = (single.outline_measures, scorer.outline_measures, vars(PolygonModel)["from_estimate"])
    assert all(a is b for a, b in zip(before, after))


def test_an_unknown_family_is_refused_with_the_known_ones(score_parts, capsys):
    with pytest.raises(SystemExit):
        score_parts.main(["--family", "hexagon"])
    assert "no such family among circle, ellipse" in capsys.readouterr().err


def test_within_splits_one_function_and_names_each_step_by_its_own_file():
    # score_ellipse (families/ellipse.py) calls _fit_checks, a function of that file, and also
    # outline_measures, imported from single.py: each is its own step, named by the file it is defined in
    # (each on a line of its own with --least 0: which steps are small depends on the machine's load)
    out = _run_alone(
        "--family", "ellipse", "--within", "score_ellipse", "--rounds", "1", "--number", "3", "--least", "0"
    )
    assert "score_ellipse (families/ellipse.py) takes" in out
    named = [what for _, _, what in _lines(out)]
    assert any(w.startswith("_fit_checks (families/ellipse.py)") for w in named)
    assert any(w.startswith("outline_measures (families/single.py)") for w in named)
    assert not any(w.startswith("outline_measures (families/ellipse.py)") for w in named)
    rows = _lines(out)
    assert sum(share for _, share, _ in rows) == pytest.approx(1.0, abs=0.002 * len(rows))


def test_within_counts_a_step_only_while_the_split_function_runs():
    # the star's corner search measures runs of points (_run_distances) when it moves the corners
    # and again when it merges pairs of them: split by the moving, only the first calls are its
    # time (else the rest came out negative)
    out = _run_alone("--family", "star", "--within", "_refine", "--rounds", "1", "--number", "3", "--least", "0")
    rows = _lines(out)
    # every step on a line of its own (--least 0): which steps are small depends on the machine's load
    assert any(name.startswith("_run_distances (geometry/corners.py)") for _, _, name in rows), out
    assert all(us >= 0 for us, _, _ in rows) and all(share < 1.0 for _, share, _ in rows)
