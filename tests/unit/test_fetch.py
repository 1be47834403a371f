"""The run's up-front fetch: concurrency per run, retries counted, failures and the cost cap."""

from __future__ import annotations

import asyncio

import pytest

from shape_asserts.asking.call import Answer
from shape_asserts.cases import load_cases
from shape_asserts.exceptions import ProviderError
from shape_asserts.asking.fetch import RunState, fetch, plan
from shape_asserts.asking.store import FixtureStore
from shape_asserts.asking.recorder import Recorder
from shape_asserts.asking.reference import answer_text

CASES = [c for c in load_cases() if c.family == "circle"][:6]


class FakeProvider:
    """An async ask_fn that answers with the reference drawer, tracking calls in flight."""

    def __init__(self, fail: set[str] = frozenset(), cost: float = 0.0, delay: float = 0.01) -> None:
        self.fail, self.cost, self.delay = fail, cost, delay
        self.in_flight = self.max_in_flight = self.calls = 0

    async def __call__(self, model, messages, *, sample, on_retry=None, **kwargs):
        self.calls += 1
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


@pytest.fixture
def recorder(tmp_path) -> Recorder:
    return Recorder(FixtureStore(tmp_path / "fx"), "missing")


def test_plan_lists_only_the_samples_without_a_valid_recording(recorder):
    jobs = plan(recorder, [("m", c) for c in CASES], samples=2)
    assert [(j.case.id, j.indices) for j in jobs] == [(c.id, (0, 1)) for c in CASES]
    fetch(jobs[:1], recorder, ask_fn=FakeProvider())
    again = plan(recorder, [("m", c) for c in CASES], samples=2)
    assert [j.case.id for j in again] == [c.id for c in CASES[1:]]


def test_plan_asks_nothing_in_replay_only_mode(tmp_path):
    assert plan(Recorder(FixtureStore(tmp_path), "none"), [("m", c) for c in CASES], samples=1) == []


def test_fetch_never_has_more_calls_in_flight_than_the_concurrency(recorder):
    provider = FakeProvider()
    state, progress = fetch(plan(recorder, [("m", c) for c in CASES], samples=3), recorder,
                            concurrency=4, ask_fn=provider)
    assert provider.calls == progress.answered == 18
    assert provider.max_in_flight == 4
    assert state.failures == {} and state.unasked == {}
    assert plan(recorder, [("m", c) for c in CASES], samples=3) == []  # everything is recorded


def test_a_case_whose_calls_fail_is_reported_with_the_last_reply_and_not_recorded(recorder):
    bad = CASES[2].id
    state, progress = fetch(plan(recorder, [("m", c) for c in CASES], samples=1), recorder,
                            ask_fn=FakeProvider(fail={bad}))
    assert progress.failed == 1 and progress.retried == 1
    assert "HTTP 503" in state.failures[RunState.key("m", bad)]
    assert recorder.store.read("m", CASES[2]) is None


def test_max_cost_stops_issuing_calls_and_says_so(recorder):
    provider = FakeProvider(cost=0.01)
    state, progress = fetch(plan(recorder, [("m", c) for c in CASES], samples=1), recorder,
                            concurrency=1, max_cost=0.025, ask_fn=provider)
    assert provider.calls == 3 and progress.unasked == 3
    assert progress.cost_usd == pytest.approx(0.03)
    assert len(state.unasked) == 3
    assert all("--max-cost 0.025 USD was reached" in why for why in state.unasked.values())


def test_run_state_round_trips_through_its_file(tmp_path):
    state = RunState(failures={"m|a": "down"}, unasked={"m|b": "cost"}, fetched=True)
    state.write(tmp_path / "s" / "state.json")
    assert RunState.read(tmp_path / "s" / "state.json") == state
    assert RunState.read(tmp_path / "missing.json") is None


def test_a_recording_that_cannot_be_written_errors_that_case_and_the_fetch_goes_on(recorder, monkeypatch):
    """A write failure (read-only folder, full disk) once aborted the whole fetch, and the tests then
    asked again one by one: paid twice."""
    real = recorder.store.save
    blocked = CASES[1].id

    def save(rec):
        if rec.case_id == blocked:
            raise OSError(28, "No space left on device")
        return real(rec)

    monkeypatch.setattr(recorder.store, "save", save)
    jobs = plan(recorder, [("m", c) for c in CASES], samples=1)
    state, progress = fetch(jobs, recorder, ask_fn=FakeProvider())
    assert progress.answered == len(CASES)
    assert state.failures == {} and list(state.unrecorded) == [RunState.key("m", blocked)]
    assert "could not be recorded at" in state.unrecorded[RunState.key("m", blocked)]
    assert "No space left on device (errno 28)" in state.unrecorded[RunState.key("m", blocked)]
    assert plan(recorder, [("m", c) for c in CASES], samples=1)[0].case.id == blocked  # the rest recorded
