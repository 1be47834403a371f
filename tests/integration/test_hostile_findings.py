"""The hostile sweep's findings (issue 14), each replayed end to end against a hostile server.

Every test here is named for the finding it proves, runs the suite as a user would (pytest in a
subprocess, the real litellm, ``--model=openai/...`` against :class:`.hostile.HostileServer` on
127.0.0.1) and failed on the main branch the issue was filed against (``df719ae``). The index:

1. One huge coordinate defeats the gate — ``test_finding_1_*`` below; also
   ``test_option_baseline.py::test_one_answer_too_large_to_measure_cannot_turn_a_failing_gate_undecided``
   and ``unit/test_score.py`` (a NaN-free score).
2. Scoring is unbounded — ``test_finding_2_*`` below; ``bench/hostile_cost.py`` measures the cost.
3. Paid calls for runs that execute no test — ``test_finding_3_*`` below; also
   ``test_no_calls_without_tests.py`` (collection errors, ``-n 2``).
4. Paid samples lost — ``test_finding_4_*`` below; also ``unit/test_fetch.py`` (a write failure is
   one case's error), ``unit/test_fixtures.py`` (read-modify-write under the lock).
5. ``--request-timeout`` does not bound a call — ``test_finding_5_*`` below; also
   ``test_faults.py::test_request_timeout_bounds_the_whole_call_not_only_the_first_byte``.
6. Answers recorded lossily (tool calls, refusals, content filter) —
   ``test_answer_shapes.py::test_finding_6_*`` (every shape through litellm and the stub server,
   recorded whole, judged, replayed identically); also ``unit/test_diagnosis.py``,
   ``unit/test_recorded.py``.
7. Under xdist the report's reason is the worker header — ``test_finding_7_*`` below; also
   ``unit/test_results.py::test_the_reason_under_xdist_is_the_error_not_the_worker_header``.
8. Smaller — terminal escapes from provider errors and the session end's re-read of a shrunk
   recording below; case files (``test_case_file_errors.py``, ``unit/test_case_bounds.py``), the
   report's prompts and drawings (``unit/test_report_bounds.py``), option values
   (``test_option_validation.py``), retries (``unit/test_ask.py``), hostile fixture files
   (``unit/test_fixtures.py``), Markdown in the job summary (``unit/test_step_summary.py``).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from shape_asserts.asking.store import model_slug

from .conftest import SUBPROCESS_TIMEOUT, interruptible
from .hostile import HostileServer, Reply, Request, drawing, exact

#: End to end through the real litellm (a subprocess importing it): run by --full, -m live or by path.
pytestmark = pytest.mark.live

KEY = "sk-hostile-findings-key-0001"
#: Ten circle cases: enough paired cases for the gate to decide (it needs five).
TEN_CIRCLES = ("-k", "circle-start000 or circle-start060 or circle-start120 or circle-start180 or circle-start240")


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def run(suite: pytest.Pytester, server: HostileServer, *args: str, model: str = "openai/hostile") -> pytest.RunResult:
    """The suite in a subprocess, asking ``model`` at the hostile server, recording under recorded/
    (:data:`PRICED` registered with litellm's price list first)."""
    if model == PRICED:
        suite.makepyfile(priced_model=PRICED_PLUGIN)
        args = ("-p", "priced_model", *args)
    return suite.runpytest_subprocess(
        f"--model={model}",
        f"--api-base={server.base_url}",
        "--fixtures-dir=recorded",
        "-p",
        "no:randomly",
        *args,
        timeout=SUBPROCESS_TIMEOUT,
    )


def output(result: pytest.RunResult) -> str:
    return "\n".join(result.outlines + result.errlines)


def recordings(suite: pytest.Pytester) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (suite.path / "recorded").rglob("*.json")}


# --- 1: one huge coordinate defeats the gate ---------------------------------------------------------


def test_finding_1_one_coordinate_at_1e308_leaves_a_failing_candidate_failing_the_gate(suite):
    """It scored NaN: the session end crashed in statistics.pstdev, or the gate said Δ +nan,
    UNDECIDED and exit 0 for a candidate that plainly fails without it."""
    planted = threading.Event()

    def reply(request: Request) -> Reply:
        if not request.model.endswith("hostile"):
            return exact(request)
        answer = drawing(request, "noisy")
        if not planted.is_set():  # exactly one answer of the run
            planted.set()
            answer["points"][5] = {"x": 1e308, "y": 3}
        return Reply(json.dumps(answer))

    with HostileServer(reply) as server:
        result = run(suite, server, "--baseline=openai/exact", *TEN_CIRCLES)

    assert planted.is_set()
    text = output(result)
    assert result.ret == 1, text
    assert "gate: FAIL" in result.outlines, text
    assert "nan" not in text.replace("infinite or NaN", "").lower()
    assert "Traceback" not in text


# --- 2: scoring is unbounded -------------------------------------------------------------------------


def test_finding_2_an_answer_making_every_point_a_contour_is_judged_without_pairwise_blowup(suite):
    """2,000 points alternating (0,0)/(49,49) took 394 s per sample in the concentric scorer, and
    the session end judged it again; the run now ends with the sample failing named checks."""

    def reply(request: Request) -> Reply:
        return Reply(json.dumps({"points": [{"x": 49 * (i % 2), "y": 49 * (i % 2)} for i in range(2_000)]}))

    with HostileServer(reply) as server:
        result = run(suite, server, "-k", "concentric-k3-c25-start-top-cw")

    text = output(result)
    result.assert_outcomes(failed=1)
    assert "concentric-k3-c25-start-top-cw" in text and "Traceback" not in text


# --- 3: paid calls for runs that execute no test -----------------------------------------------------


@pytest.mark.parametrize("args", [("--collect-only",), ("-k", "circle and ("), ("--setup-plan",)])
def test_finding_3_a_run_that_executes_no_test_asks_the_server_nothing(suite, args):
    """--collect-only asked every case; an invalid -k sent 139 requests, then exited 4."""
    with HostileServer() as server:
        run(suite, server, *args)

    assert server.requests == []


# --- 4: paid samples lost ----------------------------------------------------------------------------


def test_finding_4_recording_all_again_with_fewer_samples_keeps_the_other_samples(suite):
    """--record=all --samples 1 dropped the recorded samples 1 and 2 for good."""
    case = ("-k", "circle-start000-cw")
    with HostileServer() as server:
        run(suite, server, "--record=all", "--samples=3", *case).assert_outcomes(passed=1)
        run(suite, server, "--record=all", "--samples=1", *case).assert_outcomes(passed=1)

    (recorded,) = recordings(suite).values()
    assert len(recorded["samples"]) == 3
    assert len(server.requests) == 4  # three, then sample 0 again


def test_finding_4_an_answer_holding_a_lone_surrogate_is_recorded_and_never_paid_for_again(suite):
    """Half an emoji (legal JSON on the wire) could not be written: the fetch aborted, and the answer
    was asked again on every run."""

    def reply(request: Request) -> Reply:
        return Reply("Here \ud83d is my drawing:\n" + json.dumps(drawing(request)))

    case = ("-k", "circle-start000-cw")
    with HostileServer(reply) as server:
        first = run(suite, server, *case)
        second = run(suite, server, *case)

    first.assert_outcomes(passed=1)
    second.assert_outcomes(passed=1)
    assert len(server.requests) == 1
    (recorded,) = recordings(suite).values()
    assert recorded["samples"][0]["text"].startswith("Here \ud83d is my drawing")


# --- 5: --request-timeout does not bound a call ------------------------------------------------------


def test_finding_5_a_body_trickled_past_the_timeout_is_an_error_not_an_answer(suite):
    """Headers at once, then the body over 10 s: accepted after 10 s with a 3 s timeout."""

    def reply(request: Request) -> Reply:
        return Reply(json.dumps(drawing(request)), trickle=10.0)

    with HostileServer(reply) as server:
        result = run(suite, server, "--request-timeout=3", "--max-retries=0", "-k", "circle-start000-cw")

    result.assert_outcomes(errors=1)
    assert "Timeout" in output(result)
    assert recordings(suite) == {}


# --- 7: under xdist the report's reason is the worker header -----------------------------------------


def test_finding_7_under_xdist_the_reports_reason_is_the_providers_error(suite):
    """The report said `no answer: [gw1] linux -- Python …` for every error of an offline CI run."""

    def reply(request: Request) -> Reply:
        error = {"error": {"message": "this model is not available to you", "type": "invalid_request_error"}}
        return Reply(status=404, body=json.dumps(error).encode())

    with HostileServer(reply) as server:
        result = run(suite, server, "-n", "2", "--shape-report=report.html", "-k", "circle-start000 or circle-start030")

    result.assert_outcomes(errors=4)  # two cases × cw/ccw
    html = (suite.path / "report.html").read_text(encoding="utf-8")
    reasons = [part.split("</p>", 1)[0] for part in html.split("no answer: ")[1:]]
    assert len(reasons) == 4
    assert all("this model is not available to you" in r and "[gw" not in r for r in reasons), reasons


# --- 8: the smaller ones -----------------------------------------------------------------------------


def test_finding_8_terminal_escapes_in_a_providers_error_never_reach_the_terminal(suite):
    """A provider's error body could clear the screen, set the title and print a fake '139 passed'."""

    def reply(request: Request) -> Reply:
        message = "\x1b[2J\x1b[H\x1b]0;pwned\x07\r139 passed in 0.01s\x1b[0m"
        return Reply(status=400, body=json.dumps({"error": {"message": message, "type": "bad"}}).encode())

    with HostileServer(reply) as server:
        result = run(suite, server, "--shape-report=report.html", "-k", "circle-start000-cw")

    result.assert_outcomes(errors=1)
    text = output(result)
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "139 passed in 0.01s" in text  # the words are kept, as text on the error's line
    assert "\x1b" not in (suite.path / "report.html").read_text(encoding="utf-8")


def test_a_key_quoted_where_the_error_line_is_cut_is_masked_whole_everywhere(suite, monkeypatch):
    """Red team rt44 F1: a provider error quoting an Azure-style key (no ``sk-``, no ``Bearer``:
    only the environment says it is a key) near the 300-character cut of the reason was cut first
    and masked after. The key's first 20 characters reached the terminal, the JUnit XML, the HTML
    report and the results file."""
    key = "AZ9fQ3kLm2Xv7Pp1Rt5Ww8Yy0Bc4Dd6E"
    monkeypatch.setenv("AZURE_API_KEY", key)

    def reply(request: Request) -> Reply:
        message = "y" * 240 + f" your key {key} is not valid for this deployment"
        return Reply(status=400, body=json.dumps({"error": {"message": message, "type": "bad"}}).encode())

    with HostileServer(reply) as server:
        result = run(
            suite,
            server,
            "--max-retries=0",
            "--shape-results=results.jsonl",
            "--shape-report=report.html",
            "--junitxml=junit.xml",
            "-rA",
            "-k",
            "circle-start000-cw",
        )

    result.assert_outcomes(errors=1)
    text = output(result)
    assert "BadRequestError (HTTP 400): yyyy" in text
    written = [suite.path / name for name in ("results.jsonl", "report.html", "junit.xml")]
    assert all(p.is_file() for p in written)
    assert all(key[:6] not in p.read_text(encoding="utf-8") for p in written)
    assert key[:6] not in text


SHRINK = '''
import json
from pathlib import Path


def test_zz_shrink_the_recordings():
    """Runs after the shape tests: every recording loses its second sample, as a concurrent run's
    write could make it do."""
    for path in Path(__file__).parent.joinpath("recorded").rglob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["samples"] = doc["samples"][:1]
        path.write_text(json.dumps(doc), encoding="utf-8")
'''


def test_finding_8_a_recording_that_shrinks_during_the_run_cannot_crash_the_session_end(suite):
    """results._judged re-read every recording at the session end, outside its try: one that had
    shrunk raised KeyError there, and the summary, report and gate were lost."""
    case = ("-k", "circle-start000-cw or zz_shrink")
    with HostileServer() as server:
        run(suite, server, "--record=all", "--samples=2", *case).assert_outcomes(passed=1)
        suite.makepyfile(test_zz_shrink=SHRINK)
        result = run(suite, server, "--record=none", "--samples=2", "--shape-report=report.html", *case)

    text = output(result)
    result.assert_outcomes(passed=2)
    assert result.ret == 0 and "Traceback" not in text and "KeyError" not in text
    assert "shape-asserts summary" in text and (suite.path / "report.html").is_file()
    assert len(server.requests) == 2
    assert Path(suite.path / "recorded").is_dir()


# --- issue 32: money spent twice or silently ---------------------------------------------------------

_NO_CHOICES = json.dumps(
    {
        "id": "x",
        "object": "chat.completion",
        "model": "m",
        "choices": [],
        "usage": {"prompt_tokens": 7, "completion_tokens": 11},
    }
).encode()


def _completion(**fields) -> bytes:
    """A chat completion's body with ``fields`` put in (a choice's ``message`` replaced by ``message``)."""
    doc = json.loads(_NO_CHOICES)
    choice = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "[]"}}
    if "message" in fields:
        choice["message"] = fields.pop("message")
    doc["choices"] = [choice]
    doc.update(fields)
    return json.dumps(doc).encode()


# bodies litellm cannot read as a completion, each reported as an HTTP 500 of its own making
_UNREADABLE = {
    "message-null": _completion(message=None),
    "choices-string": _completion(choices="abc"),
    "choices-of-strings": _completion(choices=["abc"]),
    "usage-string": _completion(usage="lots"),
    "content-object": _completion(message={"role": "assistant", "content": {"a": 1}}),
    "error-with-200": json.dumps({"error": {"message": "overloaded", "type": "server_error"}}).encode(),
    "json-list": b"[1, 2, 3]",
    "json-null": b"null",
    "json-string": b'"hello"',
    # (seventh sweep) a whole completion in Latin-1: litellm's UnicodeDecodeError, retried 3 times at $0
    "latin-1": _completion(message={"role": "assistant", "content": "café"}).replace(b"caf\\u00e9", b"caf\xe9"),
}


@pytest.mark.parametrize(
    "body",
    [b"<!doctype html><html><body>gateway</body></html>", b'{"id": "x", "choices": [', _NO_CHOICES]
    + list(_UNREADABLE.values()),
    ids=["html", "invalid-json", "no-choices"] + list(_UNREADABLE),
)
def test_issue32_m3_a_delivered_reply_without_an_answer_is_never_retried_and_its_usage_counted(suite, body):
    """M3: a 200 whose body is HTML or invalid JSON became litellm's "HTTP 500" and was retried
    (12 paid requests for 3 cases, cost reported $0); so did one that is JSON but no completion
    litellm can read (a null message, a string for choices or usage, a list, an error object)."""
    with HostileServer(lambda request: Reply(body=body)) as server:
        result = run(suite, server, "-k", "circle-start000")

    result.assert_outcomes(errors=2)  # cw and ccw
    text = output(result)
    assert len(server.requests) == 2, text
    assert "not retried: a delivered reply may have been paid for" in text
    assert "most recent call last" not in text, text  # not litellm's traceback
    if body is _NO_CHOICES:
        assert "openai/hostile: 14 prompt + 22 completion tokens" in text
    elif body in _UNREADABLE.values():
        assert "cost unknown" in text, text  # delivered, so maybe billed: not reported as $0


@pytest.mark.parametrize("where", ["read-only-folder", "read-only-file-system"])
def test_issue32_m6_a_recordings_folder_that_cannot_be_written_is_found_before_any_paid_call(suite, where):
    """M6: with the fixtures folder read-only, 24 answers were paid for and none recorded or judged."""
    if where == "read-only-folder":
        if os.geteuid() == 0:
            pytest.skip("permissions do not stop a root user")
        folder = suite.path / "recorded" / model_slug("openai/hostile")
        folder.mkdir(parents=True)
        folder.chmod(0o555)
        fixtures = "--fixtures-dir=recorded"
    else:
        fixtures = "--fixtures-dir=/sys/shape-asserts-fixtures"  # sysfs: no folder can be made there
    with HostileServer() as server:
        result = run(suite, server, fixtures, "-k", "circle-start000")

    result.assert_outcomes(errors=2)
    assert server.requests == []
    assert "nothing was asked of openai/hostile: its recordings' folder" in output(result)


#: A model priced as gpt-4o's list ($2.50 and $10 a million tokens) and at no other price: no
#: priority tier, region, speed or audio answer, so each call's worst case held against --max-cost
#: is the list price's and the caps below read in it (gpt-4o's own worst case is at its priority
#: price). litellm's list has none such, so the run registers it (:data:`PRICED_PLUGIN`).
PRICED = "openai/shape-test-priced"
PRICED_PLUGIN = """
def pytest_configure(config):
    from shape_asserts.asking import call

    call.load_litellm().register_model(
        {"shape-test-priced": {"input_cost_per_token": 2.5e-6, "output_cost_per_token": 1e-5,
                               "max_output_tokens": 16384, "litellm_provider": "openai", "mode": "chat"}}
    )
"""


def _priced(written: int, usage: Any = "billed", named: str = "gpt-4o") -> Callable[[Request], Reply]:
    """gpt-4o's answer with the exact drawing, billed 100 prompt + ``written`` answer tokens (or
    with the ``usage`` given, ``None`` for none), its body sent over a second (the calls stay in
    flight together); the reply says it comes from the model ``named``."""

    def reply(request: Request) -> Reply:
        body = {
            "id": "chatcmpl-priced",
            "object": "chat.completion",
            "model": named,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": json.dumps(drawing(request))},
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": written, "total_tokens": 100 + written},
        }
        if usage != "billed":
            body["usage"] = usage
        if usage is None:
            del body["usage"]
        return Reply(body=json.dumps(body).encode(), trickle=1.0)

    return reply


def test_issue32_m4_max_cost_holds_with_every_call_in_flight_at_once(suite):
    """M4: ``--max-cost 0.01`` spent $0.152: sixteen calls were in flight before the first price came
    back. Each answer here costs $0.04 at gpt-4o's prices (4,096 answer tokens), so a $0.10 cap
    allows two, however many calls the run may have in flight."""

    with HostileServer(_priced(4096)) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(passed=2, skipped=8)
    spent = float(re.findall(r"unasked 8, \$(\d+\.\d+)", text)[-1])  # the last progress line: all settled
    assert 0.08 < spent <= 0.1


@pytest.mark.parametrize(
    "arg",
    ["max_completion_tokens=8192", 'extra_body={"max_completion_tokens": 8192}'],
    ids=["argument", "extra-body"],
)
def test_max_cost_reserves_the_answer_limit_an_argument_raises(suite, arg):
    """An answer limit raised through an argument (``max_completion_tokens``, the one reasoning
    models obey) was not reserved: each call held --max-tokens' 4,096 tokens ($0.04 at gpt-4o's
    prices) while its answer could run to 8,192 ($0.08), so a $0.10 cap let two calls spend $0.16."""

    with HostileServer(_priced(8192)) as server:
        result = run(suite, server, "--max-cost=0.1", f"--model-arg={arg}", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 1, text
    spent = float(re.findall(r"unasked 9, \$(\d+\.\d+)", text)[-1])
    assert 0.08 < spent <= 0.1


@pytest.mark.parametrize(
    "usage",
    [None, {"prompt_tokens": -5_000_000, "completion_tokens": 4096, "total_tokens": -4_995_904}],
    ids=["no-usage", "negative"],
)
def test_rt36_a_reply_that_does_not_say_what_it_used_counts_at_its_worst_case(suite, usage):
    """Critical (fourth sweep): ``--max-cost`` believed the reply's token counts: without a
    ``usage`` object every answer was priced $0 and all 24 calls went through a cap meant for 3;
    negative counts were subtracted from what was spent. Such a reply now costs its call's worst
    case (here $0.04), so a $0.10 cap allows two, and the run says why."""
    with HostileServer(_priced(4096, usage)) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(passed=2, skipped=8)
    assert f"counted at their call's worst case against --max-cost: {PRICED} (2)" in text
    spent = float(re.findall(r"unasked 8, \$(\d+\.\d+)", text)[-1])
    assert 0.08 <= spent <= 0.1


@pytest.mark.parametrize(
    "named, usage",
    [
        ("gpt-4o-mini", "billed"),
        ("gpt-4o", {"prompt_tokens": 100, "completion_tokens": 4096, "total_tokens": 4196, "cost": 0.0}),
    ],
    ids=["reply-names-a-cheaper-model", "reply-states-its-price"],
)
def test_max_cost_prices_an_answer_at_the_asked_models_list_price(suite, named, usage):
    """Critical (fifth sweep): ``--max-cost`` took litellm's price of the reply, which goes by the
    model the reply names and by a price it states (``usage.cost``, as proxies send it): asking
    gpt-4o, replies naming gpt-4o-mini or stating a cost of 0 let every call through a cap meant for
    a few. Each answer costs $0.04 at gpt-4o's list price, so a $0.10 cap allows two."""
    with HostileServer(_priced(4096, usage, named)) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(passed=2, skipped=8)
    spent = float(re.findall(r"unasked 8, \$(\d+\.\d+)", text)[-1])
    assert 0.08 < spent <= 0.1


def test_a_successful_reply_whose_body_breaks_off_is_never_asked_again(suite):
    """Major (fifth sweep): a 200 whose body broke off (the connection dropped half-way: the answer
    was generated, and may be billed) was litellm's "Connection error", retried three more times and
    counted $0: 96 requests for 24 cases under a cap meant for three. It is a delivered reply now:
    not retried, counted at its call's worst case ($0.04 here), so a $0.10 cap allows two."""
    billed = _priced(4096)

    def cut(request: Request) -> Reply:
        whole = billed(request).body
        assert whole is not None
        return Reply(body=whole, cut=len(whole) // 2)

    with HostileServer(cut) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(errors=2, skipped=8)
    assert "the reply's body broke off before it was whole" in text
    assert "not retried: a delivered reply may have been paid for" in text


def test_a_successful_reply_whose_compressed_body_is_corrupt_is_never_asked_again(suite):
    """Major (sixth sweep): a 200 whose gzip body could not be inflated (a broken proxy, a flipped
    bit) was litellm's "HTTP 500", retried and counted $0: delivered, it is counted at its worst case."""
    billed = _priced(4096)

    def corrupt(request: Request) -> Reply:
        whole = billed(request).body
        assert whole is not None
        packed = bytearray(gzip.compress(whole))
        packed[len(packed) // 2] ^= 0xFF
        return Reply(body=bytes(packed), headers={"Content-Encoding": "gzip"})

    with HostileServer(corrupt) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(errors=2, skipped=8)
    assert "body could not be decoded" in text and "not retried: a delivered reply may have been paid for" in text


def test_a_failed_reply_whose_body_breaks_off_is_still_retried(suite):
    """A 503 whose body breaks off delivered no answer: retried as any 503 is."""
    body = json.dumps({"error": {"message": "overloaded, try again"}}).encode()

    def cut_once(request: Request) -> Reply:
        return Reply(status=503, body=body, cut=10) if request.sample == 0 else exact(request)

    with HostileServer(cut_once) as server:
        result = run(suite, server, "-k", "circle-start000-cw")

    result.assert_outcomes(passed=1)
    assert len(server.requests) == 2, output(result)


def test_rt36_max_cost_waits_for_the_calls_in_flight_instead_of_skipping_cases(suite):
    """Major (fourth sweep): a call was refused for good whenever the worst cases the calls in flight
    held would pass the cap, though they settle far below it: a $0.0155 run under a $0.03 cap
    skipped 13 of 24 cases. Each call here may cost $0.04 and costs $0.0023 (200 answer tokens:
    enough for the drawing), so a $0.10 cap holds two in flight at a time and asks every case."""
    with HostileServer(_priced(200)) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 10, text
    result.assert_outcomes(passed=10)


def test_max_cost_does_not_believe_too_few_tokens_for_what_was_sent_and_written(suite):
    """Critical (sixth sweep): a reply saying it used 1 prompt token and no answer token for a
    prompt of a kilobyte and a drawing of hundreds of characters was priced at nothing, and every
    call went through a cap meant for two. Such counts are not believed: each reply costs its
    call's worst case ($0.04 here)."""
    lowball = {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1}
    with HostileServer(_priced(4096, lowball)) as server:
        result = run(suite, server, "--max-cost=0.1", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    result.assert_outcomes(passed=2, skipped=8)
    assert f"counted at their call's worst case against --max-cost: {PRICED} (2)" in text


@pytest.mark.parametrize("model", ["openai/hostile", "reference/exact"])
def test_rt36_a_file_where_a_models_recordings_go_is_one_line_per_case(suite, model):
    """Major (fourth sweep): a regular file at ``fixtures/<model>`` gave ~100 lines of traceback a
    case (moving the 'corrupt' recording aside failed: its folder is a file). Now one line says
    what stands there and what to do; nothing is asked."""
    (suite.path / "recorded").mkdir()
    (suite.path / "recorded" / model_slug(model)).write_text("not a folder\n")
    with HostileServer() as server:
        result = run(suite, server, "-k", "circle-start000", model=model)

    text = output(result)
    result.assert_outcomes(errors=2)
    assert server.requests == []
    assert text.count(f"recorded/{model_slug(model)} is not a folder: a file stands where the recordings") >= 2
    assert "Traceback" not in text and "NotADirectoryError" not in text


def _slow(request: Request) -> Reply:
    """The exact drawing, three seconds after the request (the call stays in flight)."""
    time.sleep(3)
    return exact(request)


def _signalled_mid_run(
    suite: pytest.Pytester, server: HostileServer, sig: int, after: float, *args: str
) -> tuple[subprocess.Popen, Path, float]:
    """The suite in a subprocess asking ``openai/hostile`` at ``server``, sent ``sig`` ``after``
    seconds past the first request; the process (ended), its log, and seconds from the signal to
    its end."""
    log = suite.path / "interrupted.log"
    with log.open("w") as fh:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                "--model=openai/hostile", f"--api-base={server.base_url}", "--fixtures-dir=recorded", *args,
            ],
            cwd=suite.path,
            stdout=fh,
            stderr=subprocess.STDOUT,
            preexec_fn=interruptible,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + SUBPROCESS_TIMEOUT
            while not server.requests:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "no call reached the server"
                time.sleep(0.05)
            time.sleep(after)
            signalled = time.monotonic()
            proc.send_signal(sig)
            proc.wait(timeout=60)
            took = time.monotonic() - signalled
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return proc, log, took


@pytest.mark.parametrize(
    ("sig", "workers"),
    [(signal.SIGINT, []), (signal.SIGTERM, []), (signal.SIGTERM, ["-n", "2"])],
    ids=["ctrl-c", "sigterm", "sigterm-xdist"],
)
def test_rt36_an_interrupted_run_records_the_calls_in_flight(suite, sig, workers):
    """Major (fourth sweep): without xdist, Ctrl-C cancelled the calls in flight, and SIGTERM (what
    ``timeout``, ``docker stop`` and a cancelled CI job send) killed the run with or without it:
    answers the server was generating, and billing, were never recorded and were bought again by
    the next run. Now no new call starts and every call that reached the server is recorded."""
    with HostileServer(_slow) as server:
        proc, log, _ = _signalled_mid_run(suite, server, sig, 0.5, "--concurrency=2", *TEN_CIRCLES, *workers)
        asked = len(server.requests)

    text = log.read_text()
    assert proc.returncode != 0, text
    assert asked < 10, text  # stopped early: the run started no call after the signal came
    assert len(recordings(suite)) == asked, text


def test_an_interrupted_run_tries_no_call_again(suite):
    """Major (sixth sweep): after SIGTERM a call waiting out a Retry-After of 20 s went on sending
    attempts, each after its wait (a minute and more past the signal, longer than a CI job's grace
    before it kills). The wait ends with the signal, and no attempt follows."""
    busy = json.dumps({"error": {"message": "slow down"}}).encode()
    with HostileServer(lambda request: Reply(status=429, body=busy, headers={"Retry-After": "20"})) as server:
        proc, log, took = _signalled_mid_run(
            suite, server, signal.SIGTERM, 1.0, "--concurrency=1", "-k", "circle-start000-cw"
        )
        asked = len(server.requests)

    text = log.read_text()
    assert proc.returncode != 0, text
    assert asked == 1, text
    assert took < 15, text  # (the Retry-After was 20 s)


def _gzipped(padding: int) -> Callable[[Request], Reply]:
    """The exact drawing's completion with ``padding`` spaces after it, sent gzip-compressed (64 MB
    of spaces travel as 64 KB)."""

    def reply(request: Request) -> Reply:
        body = _completion_body(request)
        return Reply(body=gzip.compress(body + b" " * padding, 1), headers={"Content-Encoding": "gzip"})

    return reply


def test_rt36_a_gzip_bomb_is_refused_at_the_bound_and_not_asked_again(suite):
    """Major (fourth sweep): a reply of a megabyte sent with ``Content-Encoding: gzip`` was inflated
    whole in memory (1 GB inflated: 4.3 GB of memory for one case; 16 in flight would exhaust the
    machine). Replies are now decoded a chunk at a time and refused past 32 MB: one line, the
    case an error, the reply (delivered: maybe billed) not asked for again."""
    with HostileServer(_gzipped(64 * 2**20)) as server:
        result = run(suite, server, "-k", "circle-start000-cw")

    text = output(result)
    result.assert_outcomes(errors=1)
    assert len(server.requests) == 1, text
    assert "the reply ran past 33,554,432 bytes once decoded from gzip; not read further" in text


def test_rt36_a_gzip_compressed_reply_within_the_bound_is_read(suite):
    with HostileServer(_gzipped(1000)) as server:
        result = run(suite, server, "-k", "circle-start000-cw")

    result.assert_outcomes(passed=1)


def _cut(request: Request, prompt: int, written: int) -> Reply:
    """An answer cut off mid-drawing (``finish_reason=length``) after ``prompt`` + ``written`` tokens."""
    text = json.dumps(drawing(request))
    body = {
        "id": "chatcmpl-cut",
        "object": "chat.completion",
        "model": "hostile",
        "choices": [
            {"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": text[: len(text) // 2]}}
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": written, "total_tokens": prompt + written},
    }
    return Reply(body=json.dumps(body).encode())


def test_issue32_an_answer_cut_by_the_context_window_is_not_blamed_on_max_tokens(suite):
    """A server with a 2,048-token window cut an answer at 639 + 1,409 tokens, and the run said "cut
    at the token limit of 4,096 … raise it with --max-tokens": advice that cannot help."""
    with HostileServer(lambda request: _cut(request, 639, 1409)) as server:
        result = run(suite, server, "--max-tokens=4096", "-k", "circle-start000-cw")

    text = output(result)
    result.assert_outcomes(failed=1)
    assert "cut at the server's context window" in text, text
    assert "prompt 639 + answer 1,409 = 2,048 tokens, the answer short of --max-tokens 4,096" in text
    assert "raise it with --max-tokens" not in text


def test_issue32_an_answer_cut_at_max_tokens_is_told_to_raise_it(suite):
    """The other limit: the answer used every token ``--max-tokens`` allowed."""
    with HostileServer(lambda request: _cut(request, 639, 512)) as server:
        result = run(suite, server, "--max-tokens=512", "-k", "circle-start000-cw")

    text = output(result)
    result.assert_outcomes(failed=1)
    assert "cut at the token limit of 512" in text and "raise it with --max-tokens" in text, text
    assert "context window" not in text


#: Makes ``hosted.example`` (a name no rule counts as local) reach the test's server on 127.0.0.1.
HOSTED_NAME_CONFTEST = """
import socket


_real = socket.getaddrinfo


def _getaddrinfo(host, *args, **kwargs):
    return _real("127.0.0.1" if host == "hosted.example" else host, *args, **kwargs)


socket.getaddrinfo = _getaddrinfo
"""


def _stalls_once(request: Request) -> Reply:
    """Each prompt's first request stalls: headers at once, then a body trickled over 30 s."""
    if request.sample == 0:
        return Reply(body=_completion_body(request), trickle=30.0)
    return exact(request)


def _completion_body(request: Request) -> bytes:
    body = {
        "id": "chatcmpl-stall",
        "object": "chat.completion",
        "model": "hostile",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": json.dumps(drawing(request))},
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }
    return json.dumps(body).encode()


def test_issue32_a_hosted_servers_stalled_bodies_are_retried_by_default(suite):
    """A hosted-looking server whose bodies stall lost every stalled case (``--timeout-retries 0``
    by default): a gated run failed on a transient fault. Retried twice there now, as the openai
    client does; the header says so."""
    suite.makeconftest(HOSTED_NAME_CONFTEST)
    with HostileServer(_stalls_once) as server:
        hosted = server.base_url.replace("127.0.0.1", "hosted.example")
        result = run(suite, server, f"--api-base={hosted}", "--request-timeout=2", "-k", "circle-start000")

    text = output(result)
    result.assert_outcomes(passed=2)
    assert len(server.requests) == 4, text
    assert "a call that timed out is retried 2 times for openai/hostile (served at http://hosted.example:" in text


def test_issue32_a_local_servers_timeouts_are_still_not_retried_by_default(suite):
    """At 127.0.0.1 a slow server is slow, not flaky: asking again piles up work it has not finished.
    (Only a call that had another in flight beside it, and may have queued behind it, is asked
    again: ``test_issue32_a_one_slot_local_server_with_defaults_loses_no_case``.)"""
    with HostileServer(_stalls_once) as server:
        result = run(suite, server, "--request-timeout=1", "-k", "circle-start000-cw")

    text = output(result)
    result.assert_outcomes(errors=1)
    assert len(server.requests) == 1, text
    assert "a call that timed out is not retried for openai/hostile (served on this machine" in text


def test_max_cost_counts_an_attempt_that_timed_out_at_its_worst_case(suite):
    """Major (fifth sweep): a retried attempt that timed out was not counted: the server may go on
    generating it and bill it. Here each prompt's first attempt stalls and the second is billed
    100 + 1,000 tokens ($0.0103 at gpt-4o's price); a call's worst case is $0.0134. Counting the
    stalled attempts, a $0.06 cap asks two cases (four attempts); not counting them, it asked five."""
    suite.makeconftest(HOSTED_NAME_CONFTEST)
    billed = _priced(1000)

    def stalls_once(request: Request) -> Reply:
        # (the billed reply sent at once: trickled over a second, a loaded machine timed it out too)
        return Reply(body=b"{}", trickle=30.0) if request.sample == 0 else replace(billed(request), trickle=0.0)

    with HostileServer(stalls_once) as server:
        hosted = server.base_url.replace("127.0.0.1", "hosted.example")
        result = run(
            suite,
            server,
            f"--api-base={hosted}",
            "--request-timeout=3",
            "--max-tokens=1000",
            "--max-cost=0.06",
            "--concurrency=1",
            *TEN_CIRCLES,
            model=PRICED,
        )

    text = output(result)
    assert len(server.requests) == 4, text
    result.assert_outcomes(passed=2, skipped=8)
    assert "attempts that timed out or lost their connection after the request went out" in text
    assert f"{PRICED} (2)" in text


def test_a_model_argument_holding_a_password_is_asked_once_and_never_written(suite):
    """Major (fifth sweep): a ``--model-arg`` URL with ``user:password@`` was recorded redacted, so
    the recording never matched the arguments sent: every case was asked twice in the run that
    recorded it and again by every later run, and ``--record=none`` could never replay it. The
    password itself went into the results file and the "record it with" hint (terminal, JUnit XML)."""
    arg = '--model-arg=extra_body={"webhook": "https://ci-bot:hunter2pass@hooks.example.com/notify"}'
    with HostileServer(exact) as server:
        first = run(suite, server, arg, "-k", "circle-start000", "--shape-results=first.jsonl")
        again = run(suite, server, arg, "-k", "circle-start000", "--shape-results=again.jsonl")
        replay = run(suite, server, arg, "-k", "circle-start000", "--record=none")
        hint = run(
            suite, server, arg, "-k", "circle-start000", "--record=none", "--fixtures-dir=empty", "--junitxml=hint.xml"
        )

    first.assert_outcomes(passed=2)
    again.assert_outcomes(passed=2)
    replay.assert_outcomes(passed=2)
    assert len(server.requests) == 2, output(again)
    hint.assert_outcomes(errors=2)
    assert "https://[REDACTED]@hooks.example.com/notify" in output(hint)
    written = [*(suite.path / "recorded").rglob("*.json"), suite.path / "first.jsonl", suite.path / "hint.xml"]
    shown = output(first) + output(again) + output(replay) + output(hint)
    assert all("hunter2pass" not in p.read_text(encoding="utf-8") for p in written)
    assert "hunter2pass" not in shown


def test_max_cost_counts_an_attempt_whose_connection_dropped_after_the_request(suite):
    """Major (sixth sweep): a connection the server dropped after the whole request was sent (a
    load balancer's cut, while a hosted model may go on and bill) was retried and counted $0:
    every attempt now counts at its call's worst case ($0.04 here), so a $0.10 cap asks two."""
    with HostileServer(lambda request: Reply(drop=True)) as server:
        result = run(suite, server, "--max-cost=0.1", "--max-retries=3", *TEN_CIRCLES, model=PRICED)

    text = output(result)
    assert len(server.requests) == 2, text
    assert "attempts that timed out or lost their connection after the request went out" in text


class _OneSlot:
    """A local server that answers one request at a time, each taking ``seconds``, and goes on
    answering a request whose client has left (as a llama.cpp server with one slot may)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.slot = threading.Lock()

    def __call__(self, request: Request) -> Reply:
        with self.slot:
            threading.Event().wait(self.seconds)
            return exact(request)


def test_issue32_a_one_slot_local_server_with_defaults_loses_no_case(suite):
    """Six calls sent at once to a server answering one at a time in 0.6 s: with a 1.5 s timeout the
    later ones timed out waiting their turn, and their cases errored. Now they are asked again one
    at a time, the first given the time the abandoned ones may still take, and every case passes."""
    with HostileServer(_OneSlot(0.6)) as server:
        result = run(suite, server, "--request-timeout=1.5", "-k", "circle and start0 and not start000-")

    text = output(result)
    result.assert_outcomes(passed=6)
    assert "one call at a time (calls queued at a local server timed out waiting: asked again)" in text
    assert "then it is asked again, and calls go one at a time" in text


def test_a_call_asked_again_after_queueing_at_a_local_server_counts_against_the_cost_cap(suite):
    """Red-team sweep 51: a priced model behind a server on this network (a company proxy) may go
    on and bill a call whose client left it queued; the attempt asked again was counted $0."""
    with HostileServer(_OneSlot(0.6)) as server:
        result = run(
            suite,
            server,
            "--request-timeout=1.5",
            "--max-cost=10",
            "-k",
            "circle and start0 and not start000-",
            model=PRICED,
        )

    text = output(result)
    result.assert_outcomes(passed=6)
    assert "one call at a time (calls queued at a local server timed out waiting: asked again)" in text
    assert "attempts that timed out or lost their connection after the request went out" in text


def test_issue32_timeout_retries_given_apply_anywhere(suite):
    with HostileServer(_stalls_once) as server:
        result = run(suite, server, "--request-timeout=2", "--timeout-retries=1", "-k", "circle-start000-cw")

    text = output(result)
    result.assert_outcomes(passed=1)
    assert len(server.requests) == 2, text
    assert "a call that timed out is retried 1 time(s) (--timeout-retries)" in text


def test_two_live_runs_on_one_fixtures_folder_pay_for_each_answer_once(suite):
    """Two runs started together on one fixtures folder each asked every missing answer (4 paid
    requests for 2 cases) and one run's answer was dropped from the recording: a sample is now
    claimed before it is asked, and the run that waited takes the other's recorded answer."""

    def slow(request: Request) -> Reply:
        return Reply(json.dumps(drawing(request)), trickle=3.0)

    args = [
        "--api-base={}",
        "--model=openai/hostile",
        "--fixtures-dir=recorded",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
    ]
    logs = [suite.path / f"run-{i}.log" for i in range(2)]
    with HostileServer(slow) as server:
        procs = []
        for log in logs:
            with log.open("w") as fh:
                cmd = [
                    sys.executable,
                    "-m",
                    "pytest",
                    *(a.format(server.base_url) for a in args),
                    "-k",
                    "circle-start000",
                ]
                procs.append(subprocess.Popen(cmd, cwd=suite.path, stdout=fh, stderr=subprocess.STDOUT))
        try:
            for proc in procs:
                proc.wait(timeout=SUBPROCESS_TIMEOUT)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()

    texts = [log.read_text() for log in logs]
    assert len(server.requests) == 2, texts  # cw and ccw, once each
    assert all(proc.returncode == 0 and "2 passed" in text for proc, text in zip(procs, texts)), texts
    assert all(len(doc["samples"]) == 1 for doc in recordings(suite).values())


# --- masking JSON: the text is masked before it is written as JSON, never after ---------------------


def test_an_answer_quoting_a_url_with_a_key_is_recorded_readable_and_never_paid_for_again(suite):
    """Critical (seventh sweep): recordings were masked as JSON text, where a quote ending a URL's
    ``?key=…`` is written ``\\"``: the mask took the backslash, the file was no JSON, and every run
    called the recording corrupt and asked (and paid) again; ``--record=none`` errored."""

    def reply(request: Request) -> Reply:
        return Reply(json.dumps({**drawing(request), "source": "https://example.org/map?key=demo"}))

    case = ("-k", "circle-start000-cw")
    with HostileServer(reply) as server:
        first = run(suite, server, *case)
        second = run(suite, server, *case)
        replay = run(suite, server, *case, "--record=none")

    for result in (first, second, replay):
        result.assert_outcomes(passed=1)
    assert len(server.requests) == 1, output(second)
    (recorded,) = recordings(suite).values()  # (json.loads: it reads back)
    assert "?key=[REDACTED]" in recorded["samples"][0]["text"]
    assert not list((suite.path / "recorded").rglob("*.corrupt*"))


def test_model_words_quoting_a_signed_url_keep_every_results_line_readable(suite):
    """Major (seventh sweep): a results line quoting a model's words with ``?sig=…"`` was masked as
    JSON text and became no JSON: the case's failure vanished from the file and the leaderboard."""

    def reply(request: Request) -> Reply:
        if "против часовой" in str(request.messages):  # the seed's counter-clockwise circle: refused
            words = 'I cannot draw that. Please read "https://example.org/policy?sig=abc" first.'
            return Reply(body=_completion(message={"role": "assistant", "content": None, "refusal": words}))
        return exact(request)

    with HostileServer(reply) as server:
        result = run(suite, server, "-m", "seed", "--shape-results=r.jsonl")

    result.assert_outcomes(passed=2, failed=1)
    lines = (suite.path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]  # every line reads back
    failed = [row for row in rows if row.get("outcome") == "failed"]
    assert len(failed) == 1, rows
    assert "sig=abc" not in "".join(lines)


def test_a_url_password_of_any_length_never_reaches_disk(suite):
    """Critical (seventh sweep): URL credentials were masked up to 256 characters only; a longer
    password in a model argument's URL was written to the recording, the results and the report."""
    password = "p" * 300
    arg = f'--model-arg=extra_body={{"callback": "https://bot:{password}@hooks.example.com/n"}}'
    with HostileServer(exact) as server:
        result = run(suite, server, arg, "-k", "circle-start000-cw", "--shape-results=r.jsonl", "--shape-report=r.html")

    result.assert_outcomes(passed=1)
    written = [*(suite.path / "recorded").rglob("*.json"), suite.path / "r.jsonl", suite.path / "r.html"]
    assert all(password not in p.read_text(encoding="utf-8") for p in written)
    assert password not in output(result)


@pytest.mark.parametrize(
    ("model", "args", "why"),
    [
        ("openai/gpt-9", (), "openai/gpt-9: litellm lists no price for it"),
        ("perplexity/sonar-deep-research", (), "it bills searches of its own and the pages they read"),
        (PRICED, ('--model-arg=web_search_options={"search_context_size": "high"}',), "web_search_options has"),
        (
            PRICED,
            ('--model-arg=extra_body={"generationConfig": {"candidate": 1}}',),
            "extra_body.generationConfig does",
        ),
    ],
)
def test_issue32_max_cost_refuses_a_hosted_model_it_cannot_count(suite, monkeypatch, model, args, why):
    """Red-team sweep 59: litellm prices a name it does not list (openai/gpt-9, a new model) at 0,
    and the run counted $0 under the cap while it was billed 12 times the cap; a deep-research
    model ran 30 searches a call against one held. Refused before anything is asked."""
    monkeypatch.setenv("PERPLEXITYAI_API_KEY", "dummy")
    suite.makeconftest(HOSTED_NAME_CONFTEST)
    with HostileServer(exact) as server:
        hosted = server.base_url.replace("127.0.0.1", "hosted.example")
        result = run(suite, server, f"--api-base={hosted}", "--max-cost=1", *args, "-k", "circle-start000", model=model)

    text = output(result)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert not server.requests
    assert "--max-cost 1 cannot bound what these calls cost, so nothing was asked" in text and why in text, text


def test_issue32_max_cost_takes_an_unpriced_local_server_to_cost_nothing(suite):
    """The same unlisted name at a server on this machine is asked, and the run says, before it
    asks (red-team sweep 63: a paid model behind a local proxy is not counted) and at the end, that
    the cap did not count it."""
    with HostileServer(exact) as server:
        result = run(suite, server, "--max-cost=1", "-k", "circle-start000", model="openai/gpt-9")

    text = output(result)
    result.assert_outcomes(passed=2)
    said = "--max-cost 1 takes openai/gpt-9 to cost nothing: litellm lists no price for it"
    assert said in text and text.index(said) < text.index("calls done"), text
    assert "did not count 2 answer(s) litellm has no price for (openai/gpt-9)" in text, text
