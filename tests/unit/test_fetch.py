"""The asker's up-front fetch: concurrency per run, retries counted, failures, the cost cap, the run state."""

from __future__ import annotations

import asyncio
import types

import pytest

from shape_asserts.asking.asker import Asker
from shape_asserts.asking.call import Answer
from shape_asserts.asking.reference import answer_text
from shape_asserts.asking.runstate import NotAsked, RunState
from shape_asserts.asking.store import FixtureStore
from shape_asserts.cases import load_cases
from shape_asserts.exceptions import FixtureError, ModelUnavailable, ProviderError

CASES = [c for c in load_cases() if c.family == "circle"][:6]


class FakeProvider:
    """An async ``call`` that answers with the reference drawer, tracking calls in flight."""

    def __init__(self, fail: set[str] = frozenset(), cost: float = 0.0, delay: float = 0.01) -> None:
        self.fail, self.cost, self.delay = fail, cost, delay
        self.in_flight = self.max_in_flight = self.calls = 0
        self.asked: list[tuple[str, int]] = []

    async def __call__(self, model, messages, *, sample, on_retry=None, **kwargs):
        self.calls += 1
        self.asked.append((next(c.id for c in CASES if c.messages("ru") == messages), sample))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            case = next(c for c in CASES if c.messages("ru") == messages)
            if case.id in self.fail:
                if on_retry is not None:
                    on_retry(RuntimeError("503"), 0.0)
                raise ProviderError(f"{model}: ServiceUnavailableError (HTTP 503): down after 2 attempts")
            return Answer(text=answer_text(case, "exact", sample), usage={"total_tokens": 10}, cost_usd=self.cost)
        finally:
            self.in_flight -= 1


PAIRS = [("m", c) for c in CASES]


def asker(tmp_path, record: str = "missing", **params) -> Asker:
    return Asker(FixtureStore(tmp_path / "fx"), record, **params)


def test_plan_lists_only_the_samples_without_a_valid_recording(tmp_path):
    jobs = asker(tmp_path).plan(PAIRS, samples=2)
    assert [(j.case.id, j.indices) for j in jobs] == [(c.id, (0, 1)) for c in CASES]
    asker(tmp_path, call=FakeProvider()).fetch(jobs[:1])
    again = asker(tmp_path).plan(PAIRS, samples=2)
    assert [j.case.id for j in again] == [c.id for c in CASES[1:]]


def test_plan_asks_nothing_in_replay_only_mode(tmp_path):
    assert asker(tmp_path, "none").plan(PAIRS, samples=1) == []


def test_a_case_two_tests_share_is_planned_and_paid_for_once(tmp_path):
    provider = FakeProvider()
    run = asker(tmp_path, call=provider)
    _, progress = run.fetch(run.plan(PAIRS + PAIRS, samples=1))
    assert provider.calls == len(CASES) == progress.planned


def test_fetch_never_has_more_calls_in_flight_than_the_concurrency(tmp_path):
    provider = FakeProvider()
    run = asker(tmp_path, concurrency=4, call=provider)
    state, progress = run.fetch(run.plan(PAIRS, samples=3))
    assert provider.calls == progress.answered == 18
    assert provider.max_in_flight == 4
    assert state.failures == {} and state.unasked == {}
    assert run.plan(PAIRS, samples=3) == []  # everything is recorded


def test_a_case_whose_calls_fail_is_reported_with_the_last_reply_and_not_recorded(tmp_path):
    bad = CASES[2].id
    run = asker(tmp_path, call=FakeProvider(fail={bad}))
    state, progress = run.fetch(run.plan(PAIRS, samples=1))
    assert progress.failed == 1 and progress.retried == 1
    assert "HTTP 503" in state.failures[RunState.key("m", bad)]
    assert run.store.read("m", CASES[2]) is None
    with pytest.raises(ProviderError, match="HTTP 503"):
        state.raise_for("m", bad)
    state.raise_for("m", CASES[0].id)  # the others are recorded: nothing to raise


def test_after_a_sample_fails_the_cases_samples_not_yet_asked_are_not_asked(tmp_path):
    bad = CASES[0].id
    provider = FakeProvider(fail={bad})
    run = asker(tmp_path, concurrency=1, call=provider)
    _, progress = run.fetch(run.plan(PAIRS[:2], samples=3))
    assert [a for a in provider.asked if a[0] == bad] == [(bad, 0)]
    assert (progress.failed, progress.answered, progress.unasked) == (1, 3, 2)


def test_max_cost_stops_issuing_calls_and_says_so(tmp_path):
    provider = FakeProvider(cost=0.01)
    run = asker(tmp_path, concurrency=1, max_cost=0.025, call=provider)
    state, progress = run.fetch(run.plan(PAIRS, samples=1))
    assert provider.calls == 3 and progress.unasked == 3
    assert progress.cost_usd == pytest.approx(0.03)
    assert len(state.unasked) == 3
    assert all("--max-cost 0.025 USD was reached" in why for why in state.unasked.values())
    with pytest.raises(NotAsked, match="--max-cost"):
        state.raise_for("m", CASES[-1].id)


def test_run_state_round_trips_through_its_file(tmp_path):
    state = RunState(failures={"m|a": "down"}, unasked={"m|b": "cost"}, unrecorded={"m|c": "disk"}, fetched=True)
    state.write(tmp_path / "s" / "state.json")
    assert RunState.read(tmp_path / "s" / "state.json") == state
    assert [p.name for p in (tmp_path / "s").iterdir()] == ["state.json"]  # no temporary file left
    assert RunState.read(tmp_path / "missing.json") is None
    with pytest.raises(FixtureError, match="disk"):
        state.raise_for("m", "c")


def test_tokens_and_cost_are_told_per_model_even_when_its_name_has_a_colon(tmp_path):
    provider = FakeProvider(cost=0.5)
    run = asker(tmp_path, call=provider)
    _, progress = run.fetch(run.plan([("ollama/llama3:8b", CASES[0]), ("m", CASES[1])], samples=1))
    assert progress.usage_lines() == [
        "shape-asserts: m: 0 prompt + 0 completion tokens, $0.5000",
        "shape-asserts: ollama/llama3:8b: 0 prompt + 0 completion tokens, $0.5000",
    ]


class PricedBy(FakeProvider):
    """Each model's answers cost its own price (``None``: litellm has none for it)."""

    def __init__(self, prices: dict[str, float | None]) -> None:
        super().__init__()
        self.prices = prices

    async def __call__(self, model, messages, **kwargs):
        answer = await super().__call__(model, messages, **kwargs)
        return Answer(text=answer.text, usage=answer.usage, cost_usd=self.prices[model])


def test_a_model_litellm_cannot_price_is_told_as_unknown_not_as_free(tmp_path):
    run = asker(tmp_path, call=PricedBy({"m": None}))
    _, progress = run.fetch(run.plan(PAIRS[:2], samples=1))
    assert ", cost unknown, " in progress.line() and "$" not in progress.line()
    assert progress.usage_lines() == [
        "shape-asserts: m: 0 prompt + 0 completion tokens, cost unknown (litellm has no price for it)"
    ]
    # a model priced at nothing (a local one registered free) is free, and said so
    free = asker(tmp_path / "free", call=PricedBy({"m": 0.0}))
    _, progress = free.fetch(free.plan(PAIRS[:2], samples=1))
    assert ", $0.0000, " in progress.line()
    assert progress.usage_lines() == ["shape-asserts: m: 0 prompt + 0 completion tokens, $0.0000"]


def test_priced_and_unpriced_answers_are_counted_apart(tmp_path):
    run = asker(tmp_path, call=PricedBy({"paid": 0.5, "local": None}))
    _, progress = run.fetch(run.plan([("paid", CASES[0]), ("paid", CASES[1]), ("local", CASES[2])], samples=1))
    assert ", $1.0000 + 1 unpriced, " in progress.line()
    assert progress.usage_lines() == [
        "shape-asserts: local: 0 prompt + 0 completion tokens, cost unknown (litellm has no price for it)",
        "shape-asserts: paid: 0 prompt + 0 completion tokens, $1.0000",
    ]


def test_max_cost_says_what_it_could_not_count(tmp_path):
    run = asker(tmp_path, max_cost=0.6, concurrency=1, call=PricedBy({"paid": 0.5, "local": None}))
    state, progress = run.fetch(
        run.plan([("local", c) for c in CASES[:3]] + [("paid", c) for c in CASES[:3]], samples=1)
    )
    # the unpriced answers did not count toward the cap; the priced ones stopped at it
    assert progress.unpriced == 3 and progress.cost_usd == pytest.approx(1.0) and len(state.unasked) == 1
    assert progress.usage_lines()[-1] == (
        "shape-asserts: --max-cost 0.6 USD did not count 3 answer(s) litellm has no price for (local): a server "
        "on this machine or a private network is taken to cost nothing (a hosted model without a price is refused "
        "before anything is asked)"
    )
    # without a cap, or with every answer priced, nothing is said about one
    capped = asker(tmp_path / "priced", max_cost=5.0, call=PricedBy({"paid": 0.5}))
    _, progress = capped.fetch(capped.plan([("paid", CASES[0])], samples=1))
    assert not any("--max-cost" in line for line in progress.usage_lines())


class NoServer(FakeProvider):
    """Model ``down``'s server cannot be connected to; the others answer."""

    async def __call__(self, model, messages, **kwargs):
        if model == "down":
            self.calls += 1
            await asyncio.sleep(self.delay)
            raise ModelUnavailable(
                f"{model}: could not connect to the server at X (refused) after 4 attempts; check",
                "could not connect to the server at X (refused); check",
            )
        return await super().__call__(model, messages, **kwargs)


def test_a_model_whose_server_cannot_be_reached_is_asked_nothing_more(tmp_path):
    provider = NoServer()
    run = asker(tmp_path, concurrency=2, call=provider)
    pairs = [("down", c) for c in CASES[:5]] + [("up", c) for c in CASES[:2]]
    state, progress = run.fetch(run.plan(pairs, samples=2))
    # the two calls in flight when the first failed were made; nothing after them was asked of that model
    assert provider.calls == 2 + 4
    assert progress.failed == 2 and progress.unasked == 8 and progress.answered == 4
    down = [state.failures[f"down|{c.id}"] for c in CASES[:5]]
    assert down[0].startswith("down: could not connect to the server at X (refused) after 4 attempts")
    assert all(
        why == "down: not asked: an earlier call could not connect to the server at X (refused); check"
        for why in down[1:]  # (the two calls in flight were case 0's two samples)
    )
    # an error, not a skip: the cases not asked are failures (each test errors with its reason)
    assert not state.unasked and all(f"up|{c.id}" not in state.failures for c in CASES[:2])
    with pytest.raises(ProviderError, match="not asked: an earlier call could not connect"):
        state.raise_for("down", CASES[4].id)


class GoesAway(FakeProvider):
    """Model ``flaky`` answers its first ``up`` calls, then its server is gone; the rest answer."""

    def __init__(self, up: int) -> None:
        super().__init__()
        self.up = up

    async def __call__(self, model, messages, **kwargs):
        if model == "flaky":
            if self.up <= 0:
                self.calls += 1
                await asyncio.sleep(self.delay)
                raise ModelUnavailable(
                    f"{model}: could not connect (refused); check", "could not connect (refused); check"
                )
            self.up -= 1
        return await super().__call__(model, messages, **kwargs)


def test_a_model_that_has_answered_keeps_being_asked_when_its_server_goes_away(tmp_path):
    # a server restarting mid-run: every case is still tried (each errors on its own if it stays down)
    provider = GoesAway(up=2)
    run = asker(tmp_path, concurrency=1, call=provider)
    state, progress = run.fetch(run.plan([("flaky", c) for c in CASES[:6]], samples=1))
    assert provider.calls == 6 and progress.answered == 2 and progress.failed == 4 and progress.unasked == 0
    assert not any("not asked" in why for why in state.failures.values())


def test_the_reference_drawers_are_free_not_unpriced(tmp_path):
    run = asker(tmp_path, max_cost=1.0, call=PricedBy({"reference/exact": None}))
    _, progress = run.fetch(run.plan([("reference/exact", c) for c in CASES[:2]], samples=1))
    assert ", $0.0000, " in progress.line() and progress.unpriced == 0
    assert progress.usage_lines() == ["shape-asserts: reference/exact: 0 prompt + 0 completion tokens, $0.0000"]


def test_the_decisions_name_each_recording_asked_again_and_why(tmp_path, monkeypatch):
    run = asker(tmp_path, call=FakeProvider())
    run.fetch(run.plan(PAIRS[:2], samples=1))
    stale = asker(tmp_path, temperature=0.5)
    lines = stale.decisions(stale.plan(PAIRS, samples=1))
    assert [line.split(":")[0] for line in lines] == [f"asking m/{c.id} again" for c in CASES[:2]]
    assert all("is stale: it was recorded at the provider's default temperature" in line for line in lines)
    everything = asker(tmp_path, "all")
    assert everything.decisions(everything.plan(PAIRS, samples=1)) == [
        f"asking {len(CASES)} recorded case(s) again: --record=all"
    ]
    monkeypatch.setattr("shape_asserts.asking.asker.MAX_DECISION_LINES", 1)
    assert stale.decisions(stale.plan(PAIRS, samples=1))[1:] == [
        "... and 1 more asked again for the same kinds of reason"
    ]


def test_a_recording_that_cannot_be_written_errors_that_case_and_the_fetch_goes_on(tmp_path, monkeypatch):
    """A write failure (read-only folder, full disk) once aborted the whole fetch, and the tests then
    asked again one by one: paid twice."""
    run = asker(tmp_path, call=FakeProvider())
    real = run.store.save
    blocked = CASES[1].id

    def save(rec):
        if rec.case_id == blocked:
            raise OSError(28, "No space left on device")
        return real(rec)

    monkeypatch.setattr(run.store, "save", save)
    state, progress = run.fetch(run.plan(PAIRS, samples=1))
    assert progress.answered == len(CASES)
    assert state.failures == {} and list(state.unrecorded) == [RunState.key("m", blocked)]
    assert "could not be recorded at" in state.unrecorded[RunState.key("m", blocked)]
    assert "No space left on device (errno 28)" in state.unrecorded[RunState.key("m", blocked)]
    assert run.plan(PAIRS, samples=1)[0].case.id == blocked  # the rest recorded


def test_while_calls_wait_the_listener_hears_heartbeats_naming_the_calls_in_flight(tmp_path, monkeypatch):
    """A live run was silent until a call completed (~400 s against a local server)."""
    monkeypatch.setenv("SHAPE_ASSERTS_HEARTBEAT", "0.02")
    heard: list[tuple[int, str]] = []
    provider = FakeProvider(delay=0.3)
    asker(tmp_path, concurrency=1, call=provider).fetch(
        asker(tmp_path).plan(PAIRS[:1], samples=1), lambda p: heard.append((p.done, p.line()))
    )
    waiting = [line for done, line in heard if done == 0 and "in flight" in line]
    assert len(waiting) >= 2, heard
    assert "1 in flight, the longest for" in waiting[-1] and f"({CASES[0].id}@m #0)" in waiting[-1]
    assert "in flight" not in heard[-1][1]  # the last word, once everything ended


def test_while_another_run_holds_a_samples_claim_the_heartbeat_says_so(tmp_path, monkeypatch):
    """Red-team sweep 60 (minor): a claim held by a run stopped with Ctrl-Z was waited on with
    "0/1 calls done … asked 0" and nothing said of why."""
    import threading

    monkeypatch.setenv("SHAPE_ASSERTS_HEARTBEAT", "0.02")
    heard: list[str] = []
    run = asker(tmp_path, call=FakeProvider())
    held = run.store.claim("m", CASES[0].id, run.lang, 0)  # (another open of the lock: another holder)
    assert held is not None
    threading.Timer(0.5, held.close).start()
    run.fetch(run.plan(PAIRS[:1], samples=1), lambda p: heard.append(p.line()))
    waiting = [line for line in heard if "waiting for another run on the same fixtures" in line]
    assert waiting and f"({CASES[0].id}@m #0; a run that is stopped" in waiting[-1], heard
    assert "waiting for another run" not in heard[-1]  # the claim was let go, and the sample asked


@pytest.mark.parametrize(("value", "seconds"), [("1e-9", 0.1), ("0.5", 0.5), ("1e308", 3600.0)])
def test_a_heartbeat_setting_is_brought_within_a_tenth_of_a_second_and_an_hour(monkeypatch, value, seconds):
    """Fourth red-team sweep: 1e-9 printed 57,886 progress lines in 2 s, and 1e308 printed none."""
    from shape_asserts.asking.runstate import heartbeat_interval

    monkeypatch.setenv("SHAPE_ASSERTS_HEARTBEAT", value)
    assert heartbeat_interval() == seconds


@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf", "nan"])
def test_a_heartbeat_setting_that_is_not_a_positive_number_keeps_the_default(monkeypatch, value):
    from shape_asserts.asking.runstate import HEARTBEAT, heartbeat_interval

    monkeypatch.setenv("SHAPE_ASSERTS_HEARTBEAT", value)
    assert heartbeat_interval() == HEARTBEAT


def test_each_case_is_said_settled_once_after_all_its_samples_and_with_what_went_wrong(tmp_path):
    run = asker(tmp_path, concurrency=3, call=FakeProvider(fail={CASES[1].id}))
    settled: list[tuple[str, bool, int]] = []

    def on_settled(key, state):
        case_id = key.split("|", 1)[1]
        recorded = run.store.read("m", next(c for c in CASES if c.id == case_id), "ru")
        settled.append((case_id, key in state.failures, len(recorded.samples) if recorded else 0))

    run.fetch(run.plan(PAIRS, samples=2), on_settled=on_settled)
    assert sorted(s[0] for s in settled) == sorted(c.id for c in CASES)  # each once
    for case_id, failed, recorded in settled:
        # said only once every sample is on disk (or the case failed, and nothing of it was)
        assert (failed, recorded) == ((True, 0) if case_id == CASES[1].id else (False, 2))


def test_once_stopped_no_call_starts_and_the_calls_in_flight_are_still_recorded(tmp_path):
    import threading

    stop = threading.Event()
    provider = FakeProvider(delay=0.05)
    run = asker(tmp_path, concurrency=2, call=provider)
    seen: list[str] = []

    def on_settled(key, state):
        seen.append(key)
        stop.set()  # the run ends once the first case is in

    state, progress = run.fetch(run.plan(PAIRS, samples=1), on_settled=on_settled, stop=stop)
    assert provider.calls == 2 == progress.answered  # the two in flight when it stopped, no more
    assert len(state.unasked) == len(CASES) - 2 and progress.unasked == len(CASES) - 2
    assert all("the run ended" in why for why in state.unasked.values())
    assert len(seen) == len(CASES)  # the unasked are settled too: no test waits for ever
    assert len(run.plan(PAIRS, samples=1)) == len(CASES) - 2  # the answers paid for are recorded


def test_the_baseline_is_planned_before_the_candidates_however_the_tests_are_ordered(tmp_path):
    pairs = [("new", c) for c in CASES[:2]] + [("old", c) for c in CASES[:2]] + [("other", CASES[0])]

    jobs = asker(tmp_path).plan(pairs, samples=1, first="old")

    assert [(j.model, j.case.id) for j in jobs] == [
        ("old", CASES[0].id),
        ("old", CASES[1].id),
        ("new", CASES[0].id),
        ("new", CASES[1].id),
        ("other", CASES[0].id),
    ]


def test_max_cost_holds_with_calls_in_flight_each_holding_its_worst_case(tmp_path):
    """Issue 32, M4: ``--max-cost 0.01`` spent $0.152: sixteen calls were in flight before the first
    price came back. Each call now holds its worst case against the cap from when it is sent."""
    provider = FakeProvider(cost=0.04, delay=0.05)
    run = asker(
        tmp_path, concurrency=16, max_cost=0.1, call=provider, bound_cost=lambda model, messages, limit, args: 0.045
    )
    state, progress = run.fetch(run.plan(PAIRS, samples=1))

    assert progress.cost_usd <= 0.1
    assert provider.calls == 2 and provider.max_in_flight == 2  # 2 × 0.045 held; a third could pass the cap
    assert len(state.unasked) == len(CASES) - 2
    assert "this call may cost 0.0450 USD" in next(iter(state.unasked.values()))
    assert progress.reserved_usd == pytest.approx(0.0)


class QuotaLitellm:
    """Stands in for litellm behind a quota of ``quota`` calls per ``window`` seconds, refusing the
    rest with a 429 that says when the window resets (as Gemini's free tier does, per minute)."""

    def __init__(self, quota: int, window: float) -> None:
        self.quota, self.window = quota, window
        self.started, self.served, self.refused = None, 0, 0

    async def acompletion(self, **kwargs):
        import time
        import types

        now = time.monotonic()
        if self.started is None or now - self.started >= self.window:
            self.started, self.served_now = now, 0
        if self.served_now >= self.quota:
            self.refused += 1
            left = self.window - (now - self.started)
            error = type("RateLimitError", (Exception,), {"status_code": 429})("quota per window exceeded")
            error.litellm_response_headers = {"retry-after-ms": str(left * 1000)}
            raise error
        self.served_now += 1
        self.served += 1
        case = next(c for c in CASES if c.messages("ru") == kwargs["messages"])
        text = answer_text(case, "exact", kwargs["metadata"]["shape_sample"])
        choice = types.SimpleNamespace(message=types.SimpleNamespace(content=text), finish_reason="stop")
        return types.SimpleNamespace(choices=[choice], usage=None, model="m", _hidden_params={"response_cost": 0.0})


def test_a_quota_smaller_than_the_calls_in_flight_loses_no_case(tmp_path, monkeypatch):
    """Red-team sweep 64: five calls a minute, sixteen in flight, every waiting call retried at each
    reset and a call that lost two gave up: 9 of 24 cases lost. Here: 2 calls per 0.25 s window,
    12 calls, a patience of 0.8 s (under the 1.5 s the quota needs). Every call is answered: each
    waits while the model answers others, and none is sent while another waits out the 429."""
    from shape_asserts.asking import call, retry

    fake = QuotaLitellm(quota=2, window=0.25)
    monkeypatch.setattr(call, "load_litellm", lambda: fake)
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.8)
    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)
    run = asker(tmp_path, concurrency=16, api_base="http://127.0.0.1:1")
    lines: list[str] = []
    state, progress = run.fetch(run.plan([("openai/m", c) for c in CASES], samples=2), lambda p: lines.append(p.line()))

    assert state.failures == {} and fake.served == progress.answered == 12
    assert any("rate limited (its calls wait, not asked meanwhile): openai/m for 0s" in line for line in lines)
    # a call waiting out the rate limit is not at the server: not said to be in flight
    assert any("rate limited" in line and "in flight" not in line for line in lines)
    assert "rate limited" not in lines[-1]  # (not once the asking is over)
    # refused: the calls sent together at a window's start, past its quota; not one per call per look
    assert fake.refused <= 6 * 16


def test_a_call_waiting_for_the_caps_room_does_not_hold_the_turn_the_calls_holding_it_need(tmp_path):
    """A call waiting before another attempt sets its turn aside; one waiting for the room
    ``--max-cost`` leaves once held its turn, and the calls holding that room could never take
    theirs back: one call at a time, a retried timeout, and the run hung for ever."""
    import threading

    class Retrying(FakeProvider):
        async def __call__(self, model, messages, **kwargs):
            await kwargs["pause"](0.05)  # (a wait before another attempt, as aask makes one)
            return await super().__call__(model, messages, **kwargs)

    provider = Retrying(cost=0.01)
    run = asker(tmp_path, concurrency=1, max_cost=0.1, call=provider, bound_cost=lambda *args: 0.045)
    jobs = run.plan(PAIRS, samples=1)
    done: list = []
    fetching = threading.Thread(target=lambda: done.append(run.fetch(jobs)), daemon=True)
    fetching.start()
    fetching.join(timeout=20)

    assert done, "the fetch hung: a call waiting for the cap's room held the only turn"
    state, progress = done[0]
    assert progress.answered == len(CASES) and provider.max_in_flight == 1  # still one at a time
    assert state.failures == {} and state.unasked == {}


def test_a_rate_limited_model_does_not_hold_up_the_other_models_of_the_run(tmp_path, monkeypatch):
    """Ten models in a run, one of them on a quota it has spent for the minute: its calls wait
    with their turns set aside, so the other models are asked meanwhile, not after it."""
    import time
    import types

    from shape_asserts.asking import call, retry

    answered_at: dict[str, float] = {}

    class TwoModels:
        async def acompletion(self, **kwargs):
            if kwargs["model"] == "openai/limited":
                error = type("RateLimitError", (Exception,), {"status_code": 429})("quota spent for the minute")
                error.litellm_response_headers = {"retry-after": "0.2"}
                raise error
            case = next(c for c in CASES if c.messages("ru") == kwargs["messages"])
            answered_at[case.id] = time.monotonic()
            text = answer_text(case, "exact", kwargs["metadata"]["shape_sample"])
            choice = types.SimpleNamespace(message=types.SimpleNamespace(content=text), finish_reason="stop")
            return types.SimpleNamespace(choices=[choice], usage=None, model="m", _hidden_params={"response_cost": 0.0})

    monkeypatch.setattr(call, "load_litellm", lambda: TwoModels())
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 2.0)
    monkeypatch.setattr(retry, "RATE_LIMIT_BACKOFF", 0.004)
    run = asker(tmp_path, concurrency=1, api_base="http://127.0.0.1:1")
    pairs = [("openai/limited", c) for c in CASES] + [("openai/fine", c) for c in CASES]
    started = time.monotonic()
    state, progress = run.fetch(run.plan(pairs, samples=1))

    assert progress.answered == len(CASES) and len(state.failures) == len(CASES)  # the limited model's, in the end
    assert max(answered_at.values()) - started < 1.5  # the other model's, while the limited one waited (2 s)
    # one call waited out the patience; the others were then not sent, and say why
    assert sum("rate limited for" in why for why in state.failures.values()) >= 1
    assert all("rate limit" in why for why in state.failures.values())


def test_a_server_down_for_its_stated_wait_ends_the_models_calls_after_the_patience(tmp_path, monkeypatch):
    """Red-team sweep 66: 503s saying Retry-After: 60 to every call took three minutes a wave of 16
    calls, ~27 minutes for a full run. Once a call has spent its retries and the model has answered
    nothing for the patience, its other calls end unsent. Sweep 67: at a full run's size no call
    spent its retries for ten minutes (each wait's few attempts went to whichever calls woke
    first): once the model is silent for the patience, a call's next failure ends them all."""
    from shape_asserts.asking import call

    class Down:
        requests = 0

        async def acompletion(self, **kwargs):
            Down.requests += 1
            error = type("ServiceUnavailableError", (Exception,), {"status_code": 503})("down for maintenance")
            error.litellm_response_headers = {"retry-after": "0.1"}
            raise error

    monkeypatch.setattr(call, "load_litellm", lambda: Down())
    monkeypatch.setattr(call, "RATE_LIMIT_PATIENCE", 0.25)
    # (ten retries a call: at 16 attempts a wait, no call spends them before most calls were sent)
    run = asker(tmp_path, concurrency=16, api_base="http://127.0.0.1:1", max_retries=10)
    cases = load_cases()  # (the whole suite: many times the 16 at once)
    state, progress = run.fetch(run.plan([("openai/m", c) for c in cases], samples=1))

    assert len(state.failures) == len(cases) and progress.answered == 0
    # each call would make 11 attempts; the waits before the patience is over let through 16 each
    assert Down.requests < len(cases)
    assert any("no call to the model answered" in why for why in state.failures.values())
    # the calls never sent are counted as not asked, not as asked and failed
    assert progress.asked == progress.failed < len(cases) and progress.asked + progress.unasked == len(cases)


def test_a_local_server_that_takes_calls_in_and_never_answers_ends_the_models_calls(tmp_path, monkeypatch):
    """Red-team sweep 67: a local server that accepts every request and never answers (a hung
    llama.cpp slot) held a run for hours: every call timed out queued, was asked again alone with
    the time the abandoned ones may take, and every later call alone after it, one by one. Once a
    call alone has timed out with nothing answered for the patience, the model's other calls end
    unsent."""
    import asyncio

    from shape_asserts.asking import asker as asker_module
    from shape_asserts.asking import call

    class Hung:
        requests = 0

        async def acompletion(self, **kwargs):
            Hung.requests += 1
            await asyncio.sleep(3600)

    monkeypatch.setattr(call, "load_litellm", lambda: Hung())
    monkeypatch.setattr(asker_module, "RATE_LIMIT_PATIENCE", 1.0)
    run = asker(tmp_path, concurrency=4, timeout=0.4, api_base="http://127.0.0.1:1")
    circles = [c for c in load_cases() if c.family == "circle"]
    state, progress = run.fetch(run.plan([("openai/m", c) for c in circles], samples=1))

    assert len(state.failures) == len(circles) and progress.answered == 0
    assert progress.narrowed  # the first four timed out queued, and were asked again one at a time
    # the first alone timed out too (begun 0.4 s into the silence, given 2 s), and the next (begun
    # 2.4 s into it, past the patience): no other call was sent
    assert Hung.requests == 4 + 2
    assert sum("no call to the model answered" in why for why in state.failures.values()) == len(circles) - 2


def test_one_answer_past_the_timeout_one_call_at_a_time_ends_only_its_own_case(tmp_path, monkeypatch):
    """Red-team sweep 68: one call at a time, one answer that ran past --request-timeout (a small
    model generating to its length limit) was silence as long as the timeout, and gave up every
    case after it. The silence that gives up is the one before the call began."""
    import asyncio

    from shape_asserts.asking import asker as asker_module
    from shape_asserts.asking import call

    circles = [c for c in load_cases() if c.family == "circle"][:6]

    class Runaway:
        requests = 0

        async def acompletion(self, **kwargs):
            Runaway.requests += 1
            if Runaway.requests == 3:
                await asyncio.sleep(3600)
            case = next(c for c in circles if c.messages("ru") == kwargs["messages"])
            text = answer_text(case, "exact", kwargs["metadata"]["shape_sample"])
            choice = types.SimpleNamespace(message=types.SimpleNamespace(content=text), finish_reason="stop")
            return types.SimpleNamespace(choices=[choice], usage=None, model="m", _hidden_params={"response_cost": 0.0})

    monkeypatch.setattr(call, "load_litellm", lambda: Runaway())
    monkeypatch.setattr(asker_module, "RATE_LIMIT_PATIENCE", 0.2)
    run = asker(tmp_path, concurrency=1, timeout=0.4, api_base="http://127.0.0.1:1")
    state, progress = run.fetch(run.plan([("openai/m", c) for c in circles], samples=1))

    assert progress.answered == len(circles) - 1 and len(state.failures) == 1
    assert "no complete answer within" in next(iter(state.failures.values()))


def test_the_runs_output_going_away_loses_no_answer_in_flight(tmp_path):
    """Red-team sweep 67: with the run's output piped to a reader that quit (``| head``), the first
    progress line raised BrokenPipeError inside a call's task: the fetch ended, and every answer in
    flight (generated, billed) was dropped unrecorded. The listener is dropped; the asking goes on."""
    provider = FakeProvider(delay=0.05)
    run = asker(tmp_path, concurrency=4, call=provider)
    heard = []

    def gone(progress):
        heard.append(progress.done)
        raise BrokenPipeError(32, "Broken pipe")

    state, progress = run.fetch(run.plan(PAIRS, samples=1), gone)

    assert len(heard) == 1  # told nothing more
    assert progress.answered == provider.calls == len(CASES) and not state.failures
    assert asker(tmp_path).plan(PAIRS, samples=1) == []  # every answer recorded


def test_a_case_whose_settling_cannot_be_told_loses_no_answer_in_flight(tmp_path):
    """Red-team sweep 68: under xdist, the run's state folder gone or full made telling a worker
    its case was settled raise OSError inside a call's task: the fetch ended, the answers in flight
    were dropped, and the workers asked again what had been in flight (paid twice). The case's
    test waits for the end of the asking instead."""
    provider = FakeProvider(delay=0.05)
    run = asker(tmp_path, concurrency=4, call=provider)

    def full(key, state):
        raise OSError(28, "No space left on device")

    state, progress = run.fetch(run.plan(PAIRS, samples=1), on_settled=full)

    assert progress.answered == provider.calls == len(CASES) and not state.failures
    assert asker(tmp_path).plan(PAIRS, samples=1) == []  # every answer recorded
