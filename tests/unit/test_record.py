"""The asker's record/replay decisions: which answers come from disk and which from the model,
under each record mode, when a test asks for itself (:meth:`Asker.obtain`).

The model is a fake ``call`` that counts its calls; nothing here imports litellm.
"""

from __future__ import annotations

import pytest

from shape_asserts.asking.asker import RECORD_MODES, Asker
from shape_asserts.asking.call import Answer
from shape_asserts.asking.runstate import NotAsked
from shape_asserts.asking.store import FixtureStore, Recording, sample_record
from shape_asserts.cases import Case
from shape_asserts.exceptions import FixtureError, ProviderError

MODEL = "fake/model"


class FakeModel:
    """A ``call`` that answers ``answer <n>`` and remembers what it was asked."""

    def __init__(self, fail_on_sample: int | None = None, cost: float | None = None) -> None:
        self.calls: list[dict] = []
        self.fail_on_sample = fail_on_sample
        self.cost = cost

    async def __call__(
        self, model, messages, *, temperature, max_tokens, timeout, api_base, sample, max_retries, on_retry, **kwargs
    ) -> Answer:
        self.calls.append(
            {
                "model": model,
                "messages": messages,
                "temperature": temperature,
                "max_tokens": max_tokens,
                "timeout": timeout,
                "api_base": api_base,
                "sample": sample,
                "max_retries": max_retries,
            }
        )
        if sample == self.fail_on_sample:
            raise ProviderError(f"{model}: RateLimitError (HTTP 429): slow down")
        return Answer(text=f"answer {len(self.calls)}", finish_reason="stop", latency_s=0.1, cost_usd=self.cost)

    @property
    def samples_asked(self) -> list[int]:
        return [c["sample"] for c in self.calls]


def _record(
    store: FixtureStore,
    case: Case,
    texts: list[str],
    *,
    temperature: float | None = None,
    prompt_sha256: str | None = None,
) -> None:
    store.write(
        Recording(
            model=MODEL,
            case_id=case.id,
            lang="ru",
            temperature=temperature,
            prompt_sha256=prompt_sha256 or case.prompt_hash("ru"),
            samples=[sample_record(i, Answer(text=t), None) for i, t in enumerate(texts)],
        )
    )


def _recorded_texts(store: FixtureStore, case: Case) -> list[str]:
    return [s["text"] for s in store.read(MODEL, case).samples]


def test_unknown_record_mode_is_a_value_error_naming_the_modes(store):
    with pytest.raises(ValueError, match="none, missing, all"):
        Asker(store, "sometimes")
    assert RECORD_MODES == ("none", "missing", "all")


def test_default_mode_is_missing(store):
    assert Asker(store).record == "missing"


# --- missing (the default) --------------------------------------------------------------------------


def test_missing_mode_asks_for_every_sample_when_nothing_is_recorded(store, case):
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert got.texts == ("answer 1", "answer 2", "answer 3")
    assert (got.asked, got.replayed) == (3, 0)
    assert fake.samples_asked == [0, 1, 2]
    assert "no recorded answer" in got.note
    assert store.read(MODEL, case).texts(3) == ["answer 1", "answer 2", "answer 3"]


def test_missing_mode_passes_the_run_settings_to_the_model(store, case):
    fake = FakeModel()
    Asker(store, temperature=0.3, timeout=9.0, api_base="http://127.0.0.1:1/v1", max_retries=5, call=fake).obtain(
        MODEL, case
    )
    call = fake.calls[0]
    assert call["messages"] == case.messages("ru")
    assert (call["temperature"], call["timeout"], call["api_base"]) == (0.3, 9.0, "http://127.0.0.1:1/v1")
    assert call["max_retries"] == 5


def test_missing_mode_replays_a_complete_recording_without_asking(store, case):
    _record(store, case, ["one", "two", "three"])
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=2)
    assert got.texts == ("one", "two")
    assert (got.asked, got.replayed) == (0, 2)
    assert fake.calls == []


def test_missing_mode_asks_only_for_the_missing_samples_and_appends_them(store, case):
    _record(store, case, ["one"])
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == [1, 2]
    assert got.texts == ("one", "answer 1", "answer 2")
    assert (got.asked, got.replayed) == (2, 1)
    assert [s["index"] for s in store.read(MODEL, case).samples] == [0, 1, 2]
    assert _recorded_texts(store, case) == ["one", "answer 1", "answer 2"]


def test_missing_mode_re_asks_every_sample_of_a_stale_recording(store, case):
    _record(store, case, ["old one", "old two"], temperature=1.0)
    fake = FakeModel()
    got = Asker(store, "missing", temperature=0.0, call=fake).obtain(MODEL, case, samples=2)
    assert fake.samples_asked == [0, 1]
    assert got.texts == ("answer 1", "answer 2")
    assert "stale" in got.note and "temperature" in got.note
    # the answers paid for at temperature 1 are kept; these go beside them
    assert store.read(MODEL, case).temperature == 1.0
    assert store.read(MODEL, case, settings=got_settings(store, case, 0.0)).temperature == 0.0


def test_missing_mode_quarantines_a_corrupt_file_and_asks_again(store, case):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1, "samples": [', encoding="utf-8")
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=2)
    assert fake.samples_asked == [0, 1]
    assert got.texts == ("answer 1", "answer 2")
    assert "corrupt" in got.note and "moved aside" in got.note
    kept = list(path.parent.glob(path.name + ".corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == '{"format": 1, "samples": ['
    assert store.read(MODEL, case).texts(2) == ["answer 1", "answer 2"]


def test_missing_mode_fills_a_hole_between_recorded_samples(store, case):
    store.write(
        Recording(
            model=MODEL,
            case_id=case.id,
            lang="ru",
            temperature=None,
            prompt_sha256=case.prompt_hash("ru"),
            samples=[sample_record(0, Answer(text="zero"), None), sample_record(2, Answer(text="two"), None)],
        )
    )
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == [1]
    assert got.texts == ("zero", "answer 1", "two")
    assert [s["index"] for s in store.read(MODEL, case).samples] == [0, 1, 2]


# --- none -------------------------------------------------------------------------------------------


def test_none_mode_replays_a_complete_recording(store, case):
    _record(store, case, ["one", "two"])
    fake = FakeModel()
    got = Asker(store, "none", call=fake).obtain(MODEL, case, samples=2)
    assert got.texts == ("one", "two") and fake.calls == []


def _none_mode_error(store: FixtureStore, case: Case, samples: int = 2) -> str:
    fake = FakeModel()
    with pytest.raises(FixtureError) as info:
        Asker(store, "none", temperature=0.0, call=fake).obtain(MODEL, case, samples=samples)
    assert fake.calls == []
    return str(info.value)


def test_none_mode_missing_recording_says_how_to_record_it(store, case):
    message = _none_mode_error(store, case)
    assert "no recorded answer" in message and str(store.path(MODEL, case.id)) in message
    assert f"record it with: pytest --model={MODEL} --record=missing -k {case.id}" in message


def test_none_mode_short_recording_says_how_many_and_how_to_record_it(store, case):
    _record(store, case, ["only one"], temperature=0.0)
    message = _none_mode_error(store, case, samples=3)
    assert str(store.path(MODEL, case.id)) in message
    assert "3 requested" in message and "record it with" in message


def test_none_mode_stale_recording_says_why_and_how_to_record_it(store, case):
    _record(store, case, ["one", "two"], temperature=0.0, prompt_sha256="0" * 64)
    message = _none_mode_error(store, case)
    assert "stale" in message and "prompt changed" in message and "record it with" in message


def test_none_mode_corrupt_recording_is_an_error_and_stays_in_place(store, case):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_text("not json", encoding="utf-8")
    message = _none_mode_error(store, case)
    assert str(path) in message and "corrupt" in message
    assert path.read_text(encoding="utf-8") == "not json"


def test_none_mode_writes_nothing(store, case):
    _none_mode_error(store, case)
    assert not store.path(MODEL, case.id).exists()


# --- all --------------------------------------------------------------------------------------------


def test_all_mode_asks_every_sample_again_replaces_those_and_keeps_the_others(store, case):
    """--record=all --samples 2 once dropped a third recorded (paid) sample: now it is kept."""
    _record(store, case, ["old one", "old two", "old three"])
    fake = FakeModel()
    got = Asker(store, "all", call=fake).obtain(MODEL, case, samples=2)
    assert fake.samples_asked == [0, 1]
    assert got.texts == ("answer 1", "answer 2")
    assert (got.asked, got.replayed) == (2, 0)
    assert _recorded_texts(store, case) == ["answer 1", "answer 2", "old three"]


# --- provider errors --------------------------------------------------------------------------------


def test_provider_error_keeps_the_samples_answered_before_it_and_records_nothing_for_it(store, case):
    fake = FakeModel(fail_on_sample=2)
    with pytest.raises(ProviderError, match="429"):
        Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == [0, 1, 2]
    assert _recorded_texts(store, case) == ["answer 1", "answer 2"]
    assert [s["index"] for s in store.read(MODEL, case).samples] == [0, 1]
    assert "429" not in store.path(MODEL, case.id).read_text(encoding="utf-8")


def test_after_a_provider_error_the_next_run_asks_only_for_the_failed_sample(store, case):
    with pytest.raises(ProviderError):
        Asker(store, "missing", call=FakeModel(fail_on_sample=2)).obtain(MODEL, case, samples=3)
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == [2]
    assert got.texts == ("answer 1", "answer 2", "answer 1")


def test_provider_error_on_the_first_sample_asks_no_other_and_writes_no_file(store, case):
    fake = FakeModel(fail_on_sample=0)
    with pytest.raises(ProviderError):
        Asker(store, "missing", call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == [0]  # the test errors anyway: its other samples are not paid for
    assert not store.path(MODEL, case.id).exists()


def test_under_a_cost_cap_a_test_asking_for_itself_asks_nothing_and_replays_what_is_recorded(store, case):
    """Red-team sweep 51: the tests the fetch did not cover (it failed on one unreadable folder)
    each asked for themselves on a budget of their own: 14 calls under a cap made for 6. The cap
    is kept by the one fetch; outside it nothing is asked, and what is recorded still replays."""
    fake = FakeModel(cost=0.01)
    with pytest.raises(NotAsked, match="--max-cost 0.015 USD is kept by the asking done before the tests"):
        Asker(store, "missing", max_cost=0.015, call=fake).obtain(MODEL, case, samples=3)
    assert fake.samples_asked == []
    _record(store, case, ["one", "two", "three"])
    got = Asker(store, "missing", max_cost=0.015, call=fake).obtain(MODEL, case, samples=3)
    assert list(got.texts) == ["one", "two", "three"] and fake.samples_asked == []


def test_a_fetch_stops_at_the_cost_limit_and_keeps_what_it_bought(store, case):
    fake = FakeModel(cost=0.01)
    asker = Asker(store, "missing", max_cost=0.015, call=fake)
    state, _ = asker.fetch([asker.job(MODEL, case, 3)])
    with pytest.raises(NotAsked, match="--max-cost 0.015 USD was reached"):
        state.raise_for(MODEL, case.id)
    assert fake.samples_asked == [0, 1]
    assert _recorded_texts(store, case) == ["answer 1", "answer 2"]


def test_provider_error_in_all_mode_keeps_the_old_samples_it_could_not_replace(store, case):
    _record(store, case, ["old one", "old two", "old three"])
    with pytest.raises(ProviderError):
        Asker(store, "all", call=FakeModel(fail_on_sample=1)).obtain(MODEL, case, samples=3)
    assert _recorded_texts(store, case) == ["answer 1", "old two", "old three"]


def got_settings(store, case, temperature):
    """The settings name a run at ``temperature`` (and the defaults otherwise) keeps its answers under."""
    return Asker(store, "missing", temperature=temperature, call=FakeModel())._blank(MODEL, case).settings_key


# --- nothing lost ------------------------------------------------------------------------------------


def test_two_runs_recording_different_samples_of_one_case_both_keep_theirs(store, case):
    """A --samples 2 run finishing after a --samples 3 run once overwrote the third sample."""
    three = Asker(store, "missing", call=FakeModel())
    three.obtain(MODEL, case, samples=3)
    late = store.read(MODEL, case)
    late.samples = late.samples[:2]  # what a run that started before the third arrived held in memory
    store.save(late)
    assert len(_recorded_texts(store, case)) == 3


def test_answers_asked_with_other_settings_are_kept_beside_not_merged_nor_replaced(store, case):
    """Eleventh red-team sweep: a run at another temperature, token limit or arguments replaced
    the recording whole, and going back to the first settings paid for every answer again."""
    _record(store, case, ["old one", "old two"], temperature=0.7)
    fake = FakeModel()
    Asker(store, "missing", call=fake).obtain(MODEL, case, samples=1)
    assert [s["text"] for s in store.read(MODEL, case).samples] == ["old one", "old two"]
    beside = store.read(MODEL, case, settings=got_settings(store, case, None))
    assert beside.temperature is None and [s["text"] for s in beside.samples] == ["answer 1"]
    # both settings now replay without a call
    for temperature in (0.7, None):
        again = FakeModel()
        got = Asker(store, "missing", temperature=temperature, call=again).obtain(MODEL, case, samples=1)
        assert (again.samples_asked, got.replayed) == ([], 1)


@pytest.mark.parametrize("main", ["deleted", "corrupt"])
def test_answers_kept_beside_replay_when_the_main_file_is_gone(store, case, main):
    """Twelfth red-team sweep: the answers beside the file were looked for only when the file
    itself could be read; with it deleted or corrupt, they were asked and paid for again."""
    _record(store, case, ["old one"], temperature=0.7)
    Asker(store, "missing", call=FakeModel()).obtain(MODEL, case, samples=1)  # beside it
    path = store.path(MODEL, case.id)
    if main == "deleted":
        path.unlink()
    else:
        path.write_text("{ not json", encoding="utf-8")
    fake = FakeModel()
    got = Asker(store, "missing", call=fake).obtain(MODEL, case, samples=1)
    assert (fake.samples_asked, got.texts) == ([], ("answer 1",))
    if main == "corrupt":  # replay only: the answers beside it replay too
        path.write_text("{ not json", encoding="utf-8")
        assert Asker(store, "none", call=fake).obtain(MODEL, case, samples=1).texts == ("answer 1",)


def test_temperature_1_and_1_0_are_one_setting(store, case):
    """Twelfth red-team sweep: ``temperature = 1`` and ``1.0`` in a configuration matched for the
    stale check but were kept apart, so the second paid again."""
    whole = Asker(store, "missing", temperature=1, call=FakeModel())._blank(MODEL, case)
    point = Asker(store, "missing", temperature=1.0, call=FakeModel())._blank(MODEL, case)
    assert whole.settings_key == point.settings_key


def test_a_recording_for_another_prompt_is_replaced_whole(store, case):
    """A changed prompt's answers answer nothing asked now: re-recording replaces them."""
    _record(store, case, ["old one"])
    old = store.read(MODEL, case)
    old.prompt_sha256 = "0" * 64
    store.write(old)
    Asker(store, "missing", call=FakeModel()).obtain(MODEL, case, samples=1)
    assert _recorded_texts(store, case) == ["answer 1"]
    assert list(store.path(MODEL, case.id).parent.glob("*@*.json")) == []


def test_saving_over_a_corrupt_file_moves_it_aside_first(store, case):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_text("{ not json", encoding="utf-8")
    Asker(store, "all", call=FakeModel()).obtain(MODEL, case, samples=1)
    assert _recorded_texts(store, case) == ["answer 1"]
    assert [p.read_text() for p in path.parent.glob(f"{path.name}.corrupt-*")] == ["{ not json"]


def test_an_answer_with_a_lone_surrogate_is_recorded_and_replayed_identically(store, case):
    """Half an emoji is legal JSON on the wire but not UTF-8: it once could not be written at all."""
    text = '{"points": [{"x": 1, "y": 2}], "note": "\ud83d"}'
    store.save(
        Recording(
            model=MODEL,
            case_id=case.id,
            lang="ru",
            temperature=None,
            prompt_sha256=case.prompt_hash("ru"),
            samples=[sample_record(0, Answer(text=text), None)],
        )
    )
    assert _recorded_texts(store, case) == [text]


def test_a_recording_that_cannot_be_written_is_a_fixture_error_naming_the_path(store, case, monkeypatch):
    def refuse(rec, path=None, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store, "write", refuse)
    with pytest.raises(FixtureError, match=r"could not be recorded at .*\.json: Permission denied \(errno 13\)"):
        Asker(store, "missing", call=FakeModel()).obtain(MODEL, case, samples=1)


def test_one_model_folder_that_cannot_be_read_leaves_the_rest_of_the_plan(store, case):
    """Red-team sweep 51: a baseline folder that was a link loop ended the whole plan; every test
    then asked for itself. The other models' cases are planned; that one's test says what is wrong."""
    broken = store.root / "openai_old"
    store.root.mkdir(parents=True, exist_ok=True)
    broken.symlink_to(broken)
    asker = Asker(store, "missing", call=FakeModel())
    jobs = asker.plan([("openai/old", case), (MODEL, case)], 1)
    assert [job.model for job in jobs] == [MODEL]
    with pytest.raises(FixtureError, match="openai_old"):
        asker.obtain("openai/old", case, samples=1)
