"""The GitHub workflows: offline replay on every push, and the model gate started by hand."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from shape_asserts.plugin.options import OPTIONS

yaml = pytest.importorskip("yaml", reason="pyyaml (the test extra) parses the workflows")

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"


def load(name: str) -> dict:
    doc = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean True
    doc["on"] = doc.pop(True)
    return doc


def steps(doc: dict) -> list[dict]:
    (job,) = doc["jobs"].values()
    return job["steps"]


def uses(doc: dict) -> list[str]:
    return [s["uses"].split("@")[0] for s in steps(doc) if "uses" in s]


def pytest_command(doc: dict) -> list[str]:
    (run,) = [s["run"] for s in steps(doc) if "pytest" in s.get("run", "")]
    return shlex.split(run)


def option_names(words: list[str]) -> set[str]:
    return {w.split("=", 1)[0] for w in words if w.startswith("--")}


def known_options() -> set[str]:
    return {o.flag for o in OPTIONS}


@pytest.mark.parametrize("name", ["offline.yml", "model-gate.yml"])
def test_the_workflow_is_valid_yaml_with_a_job_that_checks_out_installs_and_runs_pytest(name):
    doc = load(name)

    assert doc["name"] and doc["permissions"] == {"contents": "read"}
    assert uses(doc)[:2] == ["actions/checkout", "actions/setup-python"]
    assert any(re.search(r"pip install -e '?\.", s.get("run", "")) for s in steps(doc))
    cmd = pytest_command(doc)
    assert cmd[:5] == ["python", "-m", "pytest", "-n", "auto"]
    # every shape-asserts option the workflow passes exists
    assert option_names(cmd) - {"--record"} <= known_options()


def test_offline_runs_on_push_and_pull_request_replaying_without_secrets():
    doc = load("offline.yml")
    text = (WORKFLOWS / "offline.yml").read_text(encoding="utf-8")

    assert set(doc["on"]) == {"push", "pull_request"}
    assert "secrets." not in text
    assert "--record=none" in pytest_command(doc)


def test_model_gate_is_started_by_hand_with_a_model_and_a_baseline():
    doc = load("model-gate.yml")

    assert set(doc["on"]) == {"workflow_dispatch"}
    inputs = doc["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"model", "baseline"}
    assert all(i["required"] and i["type"] == "string" for i in inputs.values())


def test_model_gate_runs_the_suite_against_the_baseline_and_writes_the_report():
    cmd = pytest_command(load("model-gate.yml"))

    assert "tests/suite" in cmd
    assert {"--model=$MODEL", "--baseline=$BASELINE", "--record=missing", "--shape-report=shape-report.html"} <= set(
        cmd
    )


def test_model_gate_passes_inputs_and_keys_through_the_environment_never_into_the_script():
    doc = load("model-gate.yml")
    (job,) = doc["jobs"].values()
    (gate,) = [s for s in steps(doc) if "pytest" in s.get("run", "")]

    assert gate["env"] == {"MODEL": "${{ inputs.model }}", "BASELINE": "${{ inputs.baseline }}"}
    assert "${{" not in gate["run"]  # an input spliced into the script could inject shell code
    assert job["env"] and all(re.fullmatch(r"\$\{\{ secrets\.[A-Z_]+ \}\}", v) for v in job["env"].values())


def test_model_gate_uploads_the_report_even_when_the_gate_fails():
    (upload, *_) = [s for s in steps(load("model-gate.yml")) if s.get("uses", "").startswith("actions/upload-artifact")]

    assert upload["if"] == "always()"
    assert upload["with"]["path"] == "shape-report.html"
