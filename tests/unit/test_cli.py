"""The ``shape-asserts`` command line, driven through ``main(argv)``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import shape_asserts
from shape_asserts import cli, seed_score
from shape_asserts.cli import commands

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ANSWER = EXAMPLES / "answer.json"
BROKEN = EXAMPLES / "broken_answer.txt"
SVG_NS = "{http://www.w3.org/2000/svg}"
START_RING = "#2ca02c"


def _fenced_json(path: Path) -> object:
    """The answer's JSON decoded straight from its fence, independently of the parser."""
    match = re.search(r"```json\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)
    assert match, f"{path} has no ```json fence"
    return json.loads(match.group(1))


def _score(capsys, *args: str) -> dict:
    assert cli.main(["score", *args]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def _circle(xs_ys: list[tuple[int, int]], prose: str = "") -> str:
    return prose + "\n```json\n" + json.dumps({"points": [{"x": x, "y": y} for x, y in xs_ys]}) + "\n```\n"


# --- score ---------------------------------------------------------------------------------------


def test_score_prints_the_seed_score_of_the_answer_json(capsys):
    report = _score(capsys, str(ANSWER))
    assert report["seed_score"] == seed_score(_fenced_json(ANSWER))
    assert report["n_points"] == len(_fenced_json(ANSWER)["points"])


def test_score_reports_checks_with_value_limit_and_detail(capsys):
    report = _score(capsys, str(ANSWER))
    assert set(report["checks"]) >= {"seed_score", "gaps", "closure", "winding", "roundness"}
    for check in report["checks"].values():
        assert set(check) >= {"passed", "value", "limit", "detail"}
    assert report["passed"] == all(c["passed"] for c in report["checks"].values())
    # the example skips a point: a gap the seed score does not see
    assert report["checks"]["seed_score"]["passed"]
    assert not report["checks"]["gaps"]["passed"]
    assert report["checks"]["gaps"]["indices"]


def test_score_exits_0_even_when_checks_fail(capsys):
    report = _score(capsys, str(ANSWER), "--start", "25", "1", "--direction", "ccw")
    assert report["checks"]["direction"]["passed"] is False
    assert report["checks"]["start"]["passed"] is True
    assert report["passed"] is False


def test_score_defaults_to_the_answers_center_and_grid(capsys):
    report = _score(capsys, str(ANSWER))
    assert report["request"] == {"center": [25.0, 25.0], "grid_size": 50, "start": None, "direction": None}
    assert "start" not in report["checks"] and "direction" not in report["checks"]


def test_score_uses_the_grid_center_when_the_answer_gives_none(capsys, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(_circle([(5, 1), (9, 5), (5, 9), (1, 5), (5, 1)]))
    assert _score(capsys, str(f))["request"]["center"] == [25.0, 25.0]
    assert _score(capsys, str(f), "--grid", "10")["request"]["center"] == [5.0, 5.0]


def test_command_line_center_and_grid_win_over_the_answer(capsys):
    report = _score(capsys, str(ANSWER), "--center", "30", "20", "--grid", "60")
    assert report["request"]["center"] == [30.0, 20.0]
    assert report["request"]["grid_size"] == 60
    assert report["checks"]["center"]["passed"] is False


def test_score_reads_stdin_text(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(ANSWER.read_text(encoding="utf-8")))
    report = _score(capsys, "-")
    assert report["seed_score"] == seed_score(_fenced_json(ANSWER))
    assert report["file"] == "stdin"


def test_score_reads_stdin_bytes(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ANSWER.read_bytes()), encoding="utf-8"))
    assert _score(capsys, "-")["n_points"] == len(_fenced_json(ANSWER)["points"])


def test_seed_score_is_null_with_a_note_where_php_would_throw(capsys, monkeypatch):
    def php_type_error(data):
        raise ValueError("PHP TypeError: non-numeric string 'a' in arithmetic")

    monkeypatch.setattr(commands, "seed_score", php_type_error)
    report = _score(capsys, str(ANSWER))
    assert report["seed_score"] is None
    assert "TypeError" in report["seed_score_note"]


def test_overflowing_coordinates_still_give_strict_json(capsys, tmp_path):
    f = tmp_path / "huge.txt"
    f.write_text('{"points": [[1e308, 1e308], [-1e308, 5], [3, 4], [10, 10], [11, 11]]}')
    assert cli.main(["score", str(f)]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert captured.err == ""


# --- errors --------------------------------------------------------------------------------------


def test_truncated_answer_exits_2_with_the_format_error(capsys):
    assert cli.main(["score", str(BROKEN)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        "shape-asserts: answer truncated: its JSON ends inside 'points' and no finish reason was recorded"
    )


def test_missing_file_exits_2_naming_the_path(capsys, tmp_path):
    missing = tmp_path / "no-such-answer.json"
    assert cli.main(["score", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shape-asserts: cannot read ")
    assert str(missing) in err and "No such file" in err
    assert "Traceback" not in err


def test_directory_instead_of_a_file_exits_2(capsys, tmp_path):
    assert cli.main(["render", str(tmp_path), "-o", str(tmp_path / "x.svg")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_option_value_exits_2(capsys):
    assert cli.main(["score", str(ANSWER), "--center", "nan", "1"]) == 2
    assert "finite" in capsys.readouterr().err


def test_version_prints_the_package_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"shape-asserts {shape_asserts.__version__}"


def test_python_dash_m_runs_the_same_command():
    done = subprocess.run(
        [sys.executable, "-m", "shape_asserts", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"shape-asserts {shape_asserts.__version__}"


# --- render --------------------------------------------------------------------------------------


def _svg(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())


def test_render_writes_an_svg_with_the_start_marked(tmp_path):
    out = tmp_path / "answer.svg"
    assert cli.main(["render", str(ANSWER), "-o", str(out)]) == 0
    root = _svg(out)
    assert root.tag == f"{SVG_NS}svg"
    rings = [c for c in root.iter(f"{SVG_NS}circle") if c.get("stroke") == START_RING]
    assert len(rings) == 1
    first = _fenced_json(ANSWER)["points"][0]
    # cells are 10 units wide and points sit at cell centers
    assert (float(rings[0].get("cx")), float(rings[0].get("cy"))) == (first["x"] * 10 + 5, first["y"] * 10 + 5)
    assert root.find(f"{SVG_NS}title").text == "answer.json"
    dashed = [ln for ln in root.iter(f"{SVG_NS}line") if ln.get("stroke-dasharray")]
    assert len(dashed) == 2  # the example's two gaps


def test_render_ideal_overlays_the_fitted_circle(tmp_path):
    plain, ideal = tmp_path / "plain.svg", tmp_path / "ideal.svg"
    assert cli.main(["render", str(ANSWER), "-o", str(plain)]) == 0
    assert cli.main(["render", str(ANSWER), "--ideal", "-o", str(ideal)]) == 0
    assert not [p for p in _svg(plain).iter(f"{SVG_NS}path") if p.get("stroke-opacity")]
    overlay = [p for p in _svg(ideal).iter(f"{SVG_NS}path") if p.get("stroke-opacity")]
    assert len(overlay) == 1
    # radius 24 about (25, 25): the top of the ideal circle is cell (25, 1)
    assert overlay[0].get("d").startswith("M255.0,15.0")


def test_render_dash_o_dash_writes_svg_to_stdout(capsysbinary):
    assert cli.main(["render", str(ANSWER), "-o", "-"]) == 0
    out = capsysbinary.readouterr().out
    assert ET.fromstring(out).tag == f"{SVG_NS}svg"


def test_render_png_is_a_png_pillow_can_open(tmp_path):
    image = pytest.importorskip("PIL.Image")
    out = tmp_path / "answer.png"
    assert cli.main(["render", str(ANSWER), "--ideal", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with image.open(out) as img:
        assert img.format == "PNG"
        assert img.width > 0 and img.height > 0
        # the start ring is drawn in green somewhere
        assert (44, 160, 44) in {c for _, c in img.convert("RGB").getcolors(1 << 20)}


def test_render_png_without_pillow_exits_2_with_the_install_hint(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "PIL", None)  # makes `import PIL` raise ImportError
    out = tmp_path / "answer.png"
    assert cli.main(["render", str(ANSWER), "-o", str(out)]) == 2
    assert "pip install 'shape-asserts[png]'" in capsys.readouterr().err
    assert not out.exists()


def test_render_refuses_an_output_name_it_cannot_tell_the_format_of(capsys, tmp_path):
    assert cli.main(["render", str(ANSWER), "-o", str(tmp_path / "answer.gif")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


def test_text_from_the_answer_never_reaches_the_svg(tmp_path):
    hostile = '<script>alert(1)</script> & "x"'
    answer = {"note": hostile, "points": [{"x": 5, "y": 1, "label": hostile}, [9, 5], [5, 9], [1, 5], [5, 1]]}
    f = tmp_path / "answer.txt"
    f.write_text(f"{hostile}\n```json\n{json.dumps(answer)}\n```\n{hostile}")
    out = tmp_path / "out.svg"
    assert cli.main(["render", str(f), "--ideal", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "script" not in text and "alert" not in text
    ET.fromstring(text)


def test_a_hostile_file_name_is_escaped_in_the_svg_title(tmp_path):
    f = tmp_path / '<script>alert(1)<\x01"&.txt'
    f.write_text(_circle([(5, 1), (9, 5), (5, 9), (1, 5), (5, 1)]))
    out = tmp_path / "out.svg"
    assert cli.main(["render", str(f), "-o", str(out)]) == 0
    root = _svg(out)  # parses: the control character is dropped, the rest escaped
    assert root.find(f"{SVG_NS}title").text == '<script>alert(1)<"&.txt'
    assert "<script" not in out.read_text(encoding="utf-8")


def test_points_far_outside_the_grid_are_drawn_on_the_margin(tmp_path):
    f = tmp_path / "far.txt"
    f.write_text('{"points": [[1e300, 3], [3, 4], [4, 4], [5, 5], [6, 6]]}')
    out = tmp_path / "far.svg"
    assert cli.main(["render", str(f), "--grid", "10", "-o", str(out)]) == 0
    ring = next(c for c in _svg(out).iter(f"{SVG_NS}circle") if c.get("stroke") == START_RING)
    assert float(ring.get("cx")) == 10 * 10 + 5  # clamped to the one-cell margin


# --- --case, --cases and `cases` ----------------------------------------------------------------

SQUARE_CASE = "square-c25-s30-start-tl-cw"  # corners (10, 10) and (40, 40), from top-left, clockwise
CIRCLE_CASE = "circle-start000-cw"


def _square(x0: int = 10, y0: int = 10, side: int = 30) -> list[tuple[int, int]]:
    """A hand-drawn square, clockwise on screen from the top-left corner, not repeating it."""
    x1, y1 = x0 + side, y0 + side
    return (
        [(x, y0) for x in range(x0, x1)]
        + [(x1, y) for y in range(y0, y1)]
        + [(x, y1) for x in range(x1, x0, -1)]
        + [(x0, y) for y in range(y1, y0, -1)]
    )


@pytest.fixture
def square_file(tmp_path) -> Path:
    f = tmp_path / "square.txt"
    f.write_text(_circle(_square(), prose="Here is the square:"))
    return f


def _one_line_error(capsys, argv: list[str]) -> str:
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("shape-asserts: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
    return captured.err


def test_a_square_drawing_passes_the_checks_of_a_square_case(capsys, square_file):
    report = _score(capsys, str(square_file), "--case", SQUARE_CASE)
    assert report["case"] == SQUARE_CASE and report["family"] == "square"
    assert report["passed"] is True and report["failed"] == []
    assert report["n_points"] == 120
    assert report["request"]["center"] == [25, 25] and report["request"]["side"] == 30
    # the same shape as the circle report: metrics, checks with value and limit, the seed score
    assert {"seed_score", "metrics", "checks"} <= set(report)
    assert {"start", "direction", "gaps"} <= set(report["checks"])
    for check in report["checks"].values():
        assert set(check) == {"passed", "value", "limit", "detail", "indices"}


def test_the_same_square_fails_a_circle_case_naming_the_failed_checks(capsys, square_file):
    report = _score(capsys, str(square_file), "--case", CIRCLE_CASE)
    assert report["case"] == CIRCLE_CASE and report["family"] == "circle"
    assert report["passed"] is False
    assert report["failed"] == [name for name, c in report["checks"].items() if not c["passed"]]
    assert "start" in report["failed"]  # the circle starts at (49, 25), the square at (10, 10)


def test_check_makes_a_failed_verdict_exit_1_and_a_passed_one_exit_0(capsys, square_file):
    assert cli.main(["score", str(square_file), "--case", CIRCLE_CASE, "--check"]) == 1
    assert json.loads(capsys.readouterr().out)["passed"] is False
    assert cli.main(["score", str(square_file), "--case", SQUARE_CASE, "--check"]) == 0
    assert cli.main(["score", str(ANSWER), "--check"]) == 1  # the example's gaps, circle path
    capsys.readouterr()


def test_the_circle_report_names_its_failed_checks_too(capsys):
    report = _score(capsys, str(ANSWER))
    assert "case" not in report
    assert report["failed"] == [name for name, c in report["checks"].items() if not c["passed"]]
    assert "gaps" in report["failed"]


def test_an_unknown_case_id_exits_2_naming_close_matches_and_how_to_list_cases(capsys, square_file):
    err = _one_line_error(capsys, ["score", str(square_file), "--case", "squar-c25-s30-start-tl-cw"])
    assert "unknown case 'squar-c25-s30-start-tl-cw'" in err
    assert f"did you mean {SQUARE_CASE}" in err
    assert err.rstrip().endswith("list the cases with: shape-asserts cases")


def test_an_id_like_nothing_still_says_how_to_list_cases(capsys, square_file):
    err = _one_line_error(capsys, ["score", str(square_file), "--case", "zzzz"])
    assert "unknown case 'zzzz'; no close match; list the cases with: shape-asserts cases" in err


def test_cases_lists_every_id_one_per_line_with_its_family(capsys):
    assert cli.main(["cases"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    ids = [row[0] for row in rows]
    assert all(len(row) == 2 for row in rows) and len(set(ids)) == len(ids)
    assert [SQUARE_CASE, "square"] in rows and [CIRCLE_CASE, "circle"] in rows
    assert {row[1] for row in rows} >= {"circle", "square", "ellipse", "spiral"}


def test_cases_family_lists_only_that_familys_cases(capsys):
    assert cli.main(["cases", "--family", "square"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert rows and all(family == "square" for _, family in rows)
    assert [SQUARE_CASE, "square"] in rows
    assert cli.main(["cases", "--family", "hexagon"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_case_with_circle_only_options_is_a_usage_error_naming_them(capsys, square_file, tmp_path):
    err = _one_line_error(
        capsys, ["score", str(square_file), "--case", SQUARE_CASE, "--center", "25", "25", "--direction", "cw"]
    )
    assert "--case cannot be combined with --center, --direction" in err
    err = _one_line_error(
        capsys, ["render", str(square_file), "--case", SQUARE_CASE, "--grid", "60", "-o", str(tmp_path / "x.svg")]
    )
    assert "--case cannot be combined with --grid" in err
    assert not (tmp_path / "x.svg").exists()


USER_CASES = """
[[case]]
id = "my-small-square"
family = "square"
center = [8, 8]
side = 6
start = [5, 5]
direction = "cw"
"""


def test_cases_files_add_user_cases_to_case_and_to_the_listing(capsys, tmp_path):
    cases_file = tmp_path / "mine.toml"
    cases_file.write_text(USER_CASES)
    answer = tmp_path / "small.txt"
    answer.write_text(_circle(_square(5, 5, 6)))
    report = _score(capsys, str(answer), "--case", "my-small-square", "--cases", str(cases_file))
    assert report["case"] == "my-small-square" and report["passed"] is True
    assert cli.main(["cases", "--cases", str(cases_file), "--family", "square"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["my-small-square", "square"]
    err = _one_line_error(capsys, ["score", str(answer), "--case", "my-small-square"])
    assert "unknown case 'my-small-square'" in err  # not built in


def test_a_bad_case_file_exits_2_with_one_line_naming_it(capsys, tmp_path, square_file):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[case]]\nid = "x"\nfamily = "hexagon"\n')
    err = _one_line_error(capsys, ["score", str(square_file), "--case", "x", "--cases", str(bad)])
    assert str(bad) in err and "hexagon" in err
    err = _one_line_error(capsys, ["cases", "--cases", str(tmp_path / "missing.toml")])
    assert "does not exist" in err


def test_cases_without_case_is_a_usage_error(capsys, square_file, tmp_path):
    err = _one_line_error(capsys, ["score", str(square_file), "--cases", str(tmp_path / "mine.toml")])
    assert "--cases only adds cases for --case" in err


def test_render_with_case_overlays_that_cases_ideal_on_its_grid(tmp_path, square_file):
    out = tmp_path / "square.svg"
    assert cli.main(["render", str(square_file), "--case", SQUARE_CASE, "--ideal", "-o", str(out)]) == 0
    root = _svg(out)
    overlay = [p for p in root.iter(f"{SVG_NS}path") if p.get("stroke-opacity")]
    assert len(overlay) == 1
    assert overlay[0].get("d").startswith("M105.0,105.0")  # the ideal starts at corner (10, 10)
    assert root.find(f"{SVG_NS}title").text == f"square.txt · {SQUARE_CASE}"
    assert root.get("width") == str(50 * 10 + 20)  # the case's 50×50 grid
