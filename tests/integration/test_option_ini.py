"""Every option's ini twin: the ini file sets the value, the command line beats it, and a bad ini
value is the same one-line usage error as a bad flag, naming the ini key."""

from __future__ import annotations

import json

import pytest

from .conftest import INI

#: A test that writes the run's resolved settings to settings.json (every value as text).
PROBE = """
import json
from pathlib import Path


def test_probe(shape_settings):
    values = {k: str(v) for k, v in vars(shape_settings).items() if not k.startswith("_")}
    Path(__file__).with_name("settings.json").write_text(json.dumps(values))
"""


def settings(pytester: pytest.Pytester, *args: str) -> dict[str, str]:
    """The settings a run with ``args`` resolves (it runs only the probe: no case, no model)."""
    pytester.makepyfile(test_probe=PROBE)
    result = pytester.runpytest("test_probe.py", *args)
    result.assert_outcomes(passed=1)
    return json.loads((pytester.path / "settings.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "ini,field,from_ini,flag,from_flag",
    [
        ("shape_request_timeout = 30", "timeout", "30.0", "--request-timeout=45", "45.0"),
        ("shape_concurrency = 2", "concurrency", "2", "--concurrency=3", "3"),
        ("shape_max_retries = 0", "max_retries", "0", "--max-retries=5", "5"),
        ("shape_max_cost = 0.5", "max_cost", "0.5", "--max-cost=1", "1.0"),
        (
            "shape_api_base = http://ini.invalid/v1",
            "api_base",
            "http://ini.invalid/v1",
            "--api-base=http://flag.invalid/v1",
            "http://flag.invalid/v1",
        ),
        ("shape_temperature = 0.3", "temperature", "0.3", "--temperature=0.7", "0.7"),
        ("shape_samples = 2", "samples", "2", "--samples=3", "3"),
    ],
)
def test_the_ini_sets_a_value_and_the_command_line_beats_it(suite, ini, field, from_ini, flag, from_flag):
    suite.makeini(INI + ini + "\n")

    assert settings(suite)[field] == from_ini
    assert settings(suite, flag)[field] == from_flag


def test_without_either_the_default_applies(suite):
    values = settings(suite)

    assert (values["timeout"], values["concurrency"], values["max_retries"]) == ("120.0", "16", "3")
    assert (values["max_cost"], values["api_base"], values["temperature"]) == ("None", "None", "None")


def test_the_snapshots_folder_is_taken_from_the_rootdir_from_either_source(suite):
    suite.makeini(INI + "shape_snapshots_dir = pinned\n")

    assert settings(suite)["snapshots_dir"] == str(suite.path / "pinned")
    assert settings(suite, "--snapshots-dir=other")["snapshots_dir"] == str(suite.path / "other")


def test_command_line_case_files_add_to_the_ini_ones(suite):
    suite.makeini(INI + "shape_cases =\n    ini.toml\n")
    for name in ("ini.toml", "flag.toml"):  # case files are loaded at start: they must exist
        suite.path.joinpath(name).write_text("", encoding="utf-8")

    files = settings(suite, "--shape-cases=flag.toml")["case_files"]

    assert files == str((suite.path / "flag.toml", suite.path / "ini.toml"))


def test_the_gate_options_come_from_the_ini_and_the_command_line_beats_them(suite):
    # two paired cases, one lost, are too few to decide: the gate is UNDECIDED, and the policy sets the status
    suite.makeini(INI + "shape_baseline = reference/exact\nshape_gate_undecided = fail\nshape_gate_margin = 50\n")
    run = ("--model=reference/noisy", "--record=none", "-k", "circle-start030")

    from_ini = suite.runpytest(*run)
    from_flag = suite.runpytest(*run, "--gate-undecided=pass")

    assert from_ini.ret == 1
    from_ini.stdout.fnmatch_lines(
        ["*baseline reference/exact · margin 50 *", "gate: UNDECIDED", "*treated as FAIL (--gate-undecided=fail)"]
    )
    assert from_flag.ret == 0
    from_flag.stdout.fnmatch_lines(["gate: UNDECIDED", "*treated as PASS (--gate-undecided=pass)"])


def test_the_ini_can_ask_for_the_report(suite):
    suite.makeini(INI + "shape_report = out/report.html\n")

    suite.runpytest("--record=none", "-k", "circle-start330-ccw")

    assert (suite.path / "out" / "report.html").is_file()


def test_a_bad_ini_value_is_not_read_when_the_command_line_gives_one(suite):
    suite.makeini(INI + "shape_samples = many\n")

    assert settings(suite, "--samples=1")["samples"] == "1"
