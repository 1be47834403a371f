"""The option table (``shape_asserts/plugin/options.py``): one record per setting, and the README's
options table generated from it."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shape_asserts import defaults
from shape_asserts.plugin.options import OPTIONS, Option
from shape_asserts.plugin.options_table import END, START, main, markdown_table, replace_table
from shape_asserts.plugin.session import VerdictOptions
from shape_asserts.plugin.suite import Settings

README = Path(__file__).resolve().parents[2] / "README.md"
FIX = "python -m shape_asserts.plugin --write-readme README.md"


def test_the_readme_options_table_is_the_one_the_option_table_generates():
    text = README.read_text(encoding="utf-8")

    assert START in text and END in text, f"README.md lost its {START} / {END} markers"
    table = text.split(START, 1)[1].split(END, 1)[0].lstrip("\n")
    assert table == markdown_table(), f"README.md's options table is out of date; rewrite it with: {FIX}"


def test_every_option_has_its_own_flag_ini_key_and_field():
    for attr in ("flag", "ini", "field"):
        names = [getattr(o, attr) for o in OPTIONS]
        assert len(set(names)) == len(names), attr
    assert all(o.flag.startswith("--") and o.ini.startswith("shape_") for o in OPTIONS)


def test_every_option_fills_a_field_of_the_settings_or_of_the_verdict_options():
    settings = {f.name for f in dataclasses.fields(Settings)}
    gate = {"report", "results", "baseline", "gate_margin", "gate_undecided"}
    assert {f.name for f in dataclasses.fields(VerdictOptions)} == {
        "report",
        "results",
        "baseline",
        "margin",
        "undecided",
    }

    # set by the plugin, not by an option: where the fetch leaves its state, the options a record
    # hint repeats, whether -m names benchmark, and the arguments and configurations read from
    # --model-arg and --shape-models
    plugin_set = {"state_path", "record_args", "_cases", "benchmark", "provider_args", "configs"}
    assert {o.field for o in OPTIONS} == (settings - plugin_set) | gate


def test_every_default_comes_from_the_defaults_module():
    homes = {v for k, v in vars(defaults).items() if k.isupper() and not k.startswith("_")}

    for o in OPTIONS:
        values = o.default if isinstance(o.default, tuple) else (o.default,)
        assert all(v is None or v in homes for v in values), o.flag


def test_the_settings_defaults_are_the_options_defaults():
    settings = Settings()

    for o in OPTIONS:
        if o.field in ("fixtures_dir", "snapshots_dir"):
            assert getattr(settings, o.field) == Path(o.default)
        elif hasattr(settings, o.field):
            assert getattr(settings, o.field) == o.default, o.flag


def test_the_help_says_the_default_and_whether_an_option_repeats():
    model = next(o for o in OPTIONS if o.flag == "--model")
    cost = next(o for o in OPTIONS if o.flag == "--max-cost")

    assert model.help_text.endswith(f"; repeatable (default: {defaults.MODEL})")
    assert cost.help_text.endswith("(default: no cap)")


def test_an_unknown_kind_is_refused_when_the_table_is_built():
    with pytest.raises(ValueError, match="--x: kind must be one of"):
        Option("--x", "shape_x", "x", "number", help="x")


def test_the_markdown_has_a_row_of_four_cells_per_option():
    rows = markdown_table().splitlines()[2:]

    assert [r.split("`")[1].split()[0] for r in rows] == [o.flag for o in OPTIONS]
    assert all(len(re.split(r"(?<!\\)\|", r)) == 6 for r in rows)  # a | inside a cell is escaped


def test_rewriting_a_readme_replaces_only_the_table(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# before\n\n{START}\n| stale |\n{END}\n\nafter\n", encoding="utf-8")

    assert main(["--write-readme", str(readme)]) == 0

    assert readme.read_text(encoding="utf-8") == f"# before\n\n{START}\n{markdown_table()}{END}\n\nafter\n"


def test_a_readme_without_the_markers_is_refused():
    with pytest.raises(ValueError, match="exactly one"):
        replace_table("# no table here\n")


def test_the_module_prints_the_table():
    done = subprocess.run(
        [sys.executable, "-m", "shape_asserts.plugin", "--markdown"], capture_output=True, text=True, check=True
    )

    assert done.stdout == markdown_table()
    assert done.stderr == ""
