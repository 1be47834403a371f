"""stub_server: a local OpenAI-compatible server answering with the reference drawers, faults on demand."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.stub_server import Faults, Shape, StubServer, main
from shape_asserts.cases import Case, CaseIndex, builtin_case_files, load_cases
from shape_asserts.results.verdict import judge

#: The built-in circle cases alone (the server itself finds any built-in case by its prompt).
CIRCLES: list[Case] = load_cases([p for p in builtin_case_files() if p.name == "circle.toml"], builtin=False)
CASE = CIRCLES[1]
CHAT = "/v1/chat/completions"


def _request(
    srv: StubServer, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def _chat(srv: StubServer, model: str = "exact", case: Case = CASE, **kwargs: Any):
    return _request(srv, "POST", CHAT, {"model": model, "messages": case.messages()}, **kwargs)


@pytest.fixture(scope="module")
def srv():
    """One plain server for the tests that only read answers (stopping one takes ~0.5 s)."""
    with StubServer() as server:
        yield server


@pytest.fixture(scope="module")
def keyed():
    with StubServer(require_key="sk-test-123") as server:
        yield server


# --- answers ----------------------------------------------------------------------------------------


def test_base_url_is_local_with_the_v1_prefix(srv):
    assert srv.base_url == f"http://127.0.0.1:{srv.port}/v1" and srv.port > 0


def test_known_prompt_is_answered_with_a_drawing_that_passes(srv):
    status, _, body = _chat(srv)
    assert status == 200
    text = body["choices"][0]["message"]["content"]
    assert text == answer_text(CASE, "exact")
    assert judge(CASE, "openai/exact", [text]).passed


def test_answer_is_shaped_like_an_openai_chat_completion(srv):
    _, headers, body = _chat(srv, model="my-exact")
    assert headers["Content-Type"] == "application/json"
    assert body["object"] == "chat.completion" and body["model"] == "my-exact"
    choice = body["choices"][0]
    assert choice["finish_reason"] == "stop" and choice["message"]["role"] == "assistant"
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0


def test_route_without_the_v1_prefix_answers_too(srv):
    status, _, _ = _request(srv, "POST", "/chat/completions", {"model": "exact", "messages": CASE.messages()})
    assert status == 200


def test_english_prompt_is_answered_with_the_same_drawing(srv):
    status, _, body = _request(srv, "POST", CHAT, {"model": "exact", "messages": CASE.messages("en")})
    assert status == 200 and body["choices"][0]["message"]["content"] == answer_text(CASE, "exact")


def test_model_named_noisy_draws_like_the_noisy_drawer_one_sample_per_request():
    with StubServer() as srv:
        texts = [_chat(srv, model="openai/noisy")[2]["choices"][0]["message"]["content"] for _ in range(3)]
    assert texts == [answer_text(CASE, "noisy", s) for s in range(3)]


def test_each_model_counts_its_own_samples_of_a_prompt():
    # ten models asking one prompt each: every one gets its sample 0, whichever asks first
    with StubServer() as srv:
        texts = [_chat(srv, model=f"openai/noisy-{i}")[2]["choices"][0]["message"]["content"] for i in (1, 2)]
    assert texts == [answer_text(CASE, "noisy", 0)] * 2


def test_a_benchmark_prompt_is_answered_without_being_told(srv):
    case = next(c for c in load_cases(benchmark=True) if "benchmark" in c.tags)
    status, _, body = _chat(srv, model="openai/exact-1", case=case)
    assert status == 200 and body["choices"][0]["message"]["content"] == answer_text(case, "exact")


MY_CASES = """
[[case]]
id = "my-circle"
family = "circle"
grid_size = 40
center = [20, 20]
radius = 11
start = [20, 9]
direction = "ccw"
"""


def test_a_case_file_s_prompt_is_answered_by_a_server_given_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr("shape_asserts.asking.reference._SERVED", CaseIndex())  # this test's cases only
    path = tmp_path / "mine.toml"
    path.write_text(MY_CASES, encoding="utf-8")
    mine = load_cases([path], builtin=False)[0]
    with StubServer() as plain:
        assert _chat(plain, case=mine)[0] == 400
    with StubServer(case_files=[path]) as given:
        status, _, body = _chat(given, case=mine)
    assert status == 200 and body["choices"][0]["message"]["content"] == answer_text(mine, "exact")


def test_the_command_line_refuses_a_bad_case_file_naming_it(tmp_path, capsys):
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(SystemExit) as exit_:
        main(["--port", "0", "--shape-cases", str(missing)])
    assert exit_.value.code == 2
    assert f"case file {missing} does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["70000", "-1", "taken"])
def test_the_command_line_refuses_a_bad_or_taken_port_in_one_line(srv, capsys, port):
    """Red-team sweep 54: a port in use or out of range ended in a 19-line traceback."""
    port = str(srv.port) if port == "taken" else port
    with pytest.raises(SystemExit) as exit_:
        main(["--port", port])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"--port {port}:" in err and "Traceback" not in err


def test_models_are_listed(srv):
    status, _, body = _request(srv, "GET", "/v1/models")
    assert status == 200 and [m["id"] for m in body["data"]] == ["exact", "noisy"]


# --- client errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method, path", [("POST", "/v1/completions"), ("POST", "/v1/embeddings"), ("GET", "/v1/chat")])
def test_unknown_route_is_404(srv, method, path):
    status, _, body = _request(srv, method, path, {} if method == "POST" else None)
    assert status == 404 and body["error"]["type"] == "invalid_request_error"


def test_unknown_prompt_is_400_and_not_counted_as_answered(srv):
    answered = sum(srv.state.answered.values())
    status, _, body = _request(
        srv, "POST", CHAT, {"model": "exact", "messages": [{"role": "user", "content": "Draw a cat."}]}
    )
    assert status == 400 and "loaded cases" in body["error"]["message"]
    assert sum(srv.state.answered.values()) == answered
    assert _chat(srv)[0] == 200  # the server is still serving


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"messages": "hi"}', b'{"messages": ["hi"]}', b"{}"])
def test_malformed_body_is_400_not_a_dropped_connection(srv, body):
    status, _, answer = _request(srv, "POST", CHAT, body)
    assert status == 400 and answer["error"]["type"] == "invalid_request_error"


def test_too_large_body_is_413(srv, monkeypatch):
    monkeypatch.setattr("shape_asserts.asking.stub_server.MAX_BODY", 10)
    status, _, _ = _chat(srv)
    assert status == 413


# --- keys -------------------------------------------------------------------------------------------


def test_required_key_missing_is_401(keyed):
    status, _, body = _chat(keyed)
    assert status == 401 and body["error"]["code"] == "invalid_api_key"


def test_required_key_wrong_is_401(keyed):
    status, _, _ = _chat(keyed, headers={"Authorization": "Bearer sk-other"})
    assert status == 401


def test_required_key_given_is_answered_and_the_header_is_seen(keyed):
    status, _, _ = _chat(keyed, headers={"Authorization": "Bearer sk-test-123"})
    assert status == 200
    assert keyed.state.auth_headers[-1] == "Bearer sk-test-123"


# --- faults -----------------------------------------------------------------------------------------


def test_rate_limit_fault_is_429_with_retry_after():
    with StubServer(faults=Faults(rate=1.0, kinds=("429",), retry_after=0.25)) as srv:
        status, headers, body = _chat(srv)
        assert srv.state.faulted == {"429": 1}
    assert status == 429 and headers["Retry-After"] == "0.25"
    assert body["error"]["type"] == "rate_limit_error"


def test_server_error_fault_is_500():
    with StubServer(faults=Faults(rate=1.0, kinds=("500",))) as srv:
        status, _, _ = _chat(srv)
    assert status == 500


def test_drop_fault_closes_the_connection_without_an_answer():
    with StubServer(faults=Faults(rate=1.0, kinds=("drop",))) as srv:
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            _chat(srv)
        assert srv.state.faulted == {"drop": 1}


def test_faulted_request_does_not_use_up_a_sample():
    with StubServer(faults=Faults(rate=1.0, kinds=("429",))) as srv:
        _chat(srv, model="noisy")
        srv.state.faults.rate = 0.0
        _, _, body = _chat(srv, model="noisy")
    assert body["choices"][0]["message"]["content"] == answer_text(CASE, "noisy", 0)


def test_faults_at_a_partial_rate_are_the_same_for_the_same_seed():
    def statuses(seed: int) -> list[int]:
        with StubServer(faults=Faults(rate=0.5, kinds=("429", "500"), seed=seed)) as srv:
            return [_chat(srv)[0] for _ in range(12)]

    first = statuses(7)
    assert first == statuses(7)
    assert {200} < set(first) <= {200, 429, 500}


# --- counters ---------------------------------------------------------------------------------------


def test_counters_record_requests_answers_and_in_flight():
    other = CIRCLES[2]
    with StubServer() as srv:
        _chat(srv)
        _chat(srv)
        _chat(srv, case=other)
    state = srv.state
    assert state.requests == 3
    assert sorted(state.answered.values()) == [1, 2]
    assert state.faulted == {}
    assert state.auth_headers == ["", "", ""]
    # a handler leaves "in flight" just after its answer is sent, so a quick next request may overlap it
    assert 1 <= state.max_in_flight <= 3


def test_each_request_s_times_are_kept_for_the_wall_time_bench():
    import time

    before = time.monotonic()
    with StubServer(latency=0.05) as srv:
        _chat(srv)
        _chat(srv)
    after = time.monotonic()
    served = srv.state.served
    assert len(served) == 2
    for received, answered in served:
        assert before <= received and received + 0.05 <= answered <= after  # the latency is inside
    # one after the other: the second was sent once the first was answered, a latency after it came
    # (the first's answered time is noted after its reply is written, when the second may be in already)
    assert served[0][0] + 0.05 <= served[1][0]


# --- answer shapes and max_tokens -------------------------------------------------------------------


def test_max_tokens_cuts_the_answer_as_a_real_server_does_and_every_body_is_kept():
    with StubServer() as server:
        status, _, body = _request(
            server, "POST", CHAT, {"model": "exact", "messages": CASE.messages(), "max_tokens": 10}
        )
    choice = body["choices"][0]
    assert status == 200 and choice["finish_reason"] == "length"
    assert choice["message"]["content"] == answer_text(CASE)[:40]
    assert server.state.bodies[0]["max_tokens"] == 10


def test_sample_n_is_answered_in_the_nth_shape():
    shapes = [Shape("tool_call"), Shape("refusal", "No."), Shape("content_filter"), Shape("fixed", "hi", None)]
    with StubServer(shape=shapes) as server:
        messages = [_chat(server)[2]["choices"][0] for _ in shapes]
    tool, refusal, filtered, fixed = messages
    assert tool["finish_reason"] == "tool_calls" and tool["message"]["content"] is None
    assert tool["message"]["tool_calls"][0]["function"]["arguments"] == answer_text(CASE)
    assert (refusal["message"]["refusal"], refusal["message"]["content"]) == ("No.", None)
    assert filtered["finish_reason"] == "content_filter" and filtered["message"]["content"] is None
    assert (fixed["message"]["content"], fixed["finish_reason"]) == ("hi", None)


def test_an_unknown_shape_is_refused_naming_the_shapes():
    with pytest.raises(ValueError, match="text, tool_call, refusal, content_filter, fixed"):
        Shape("poem")


def test_answers_leave_without_waiting_for_the_clients_ack(monkeypatch):
    # TCP_NODELAY on each connection: with Nagle's algorithm on, an answer's body waited for the
    # client's (delayed, up to 40 ms) acknowledgement of its headers, so every answer came ~40 ms
    # past the latency the bench gave the server
    import socket

    options: list[tuple[int, int, int, Any]] = []  # (local port, level, name, value)
    real = socket.socket.setsockopt

    def noted(self: socket.socket, level: int, name: int, value: Any, *rest: Any) -> None:
        options.append((self.getsockname()[1], level, name, value))
        real(self, level, name, value, *rest)

    monkeypatch.setattr(socket.socket, "setsockopt", noted)
    with StubServer() as server:
        status, _, _ = _chat(server)
    assert status == 200
    served = [(level, name, value) for port, level, name, value in options if port == server.port]  # not the client's
    assert (socket.IPPROTO_TCP, socket.TCP_NODELAY, True) in served
