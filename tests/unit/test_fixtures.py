"""fixtures: where recordings live, how they round-trip, go stale, get corrupt, and get written."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import time
from pathlib import Path

import pytest

from shape_asserts.asking import store as fixtures_module
from shape_asserts.asking.call import Answer
from shape_asserts.asking.store import FORMAT_VERSION, FixtureStore, Recording, model_slug, sample_record
from shape_asserts.cases import Case
from shape_asserts.exceptions import FixtureError

MODEL = "openai/gpt-4o"
SAFE_NAME = re.compile(r"[A-Za-z0-9._-]+")


def _recording(
    case: Case, texts: list[str], *, lang: str = "ru", temperature: float | None = None, model: str = MODEL
) -> Recording:
    samples = [
        sample_record(i, Answer(text=t, usage={"total_tokens": 7}, latency_s=0.5), "1.2.3") for i, t in enumerate(texts)
    ]
    return Recording(
        model=model,
        case_id=case.id,
        lang=lang,
        temperature=temperature,
        prompt_sha256=case.prompt_hash(lang),
        samples=samples,
    )


# --- layout and model slugs -------------------------------------------------------------------------


def test_path_is_model_slug_then_case_id(store, case):
    assert store.path(MODEL, case.id) == store.root / "openai_gpt-4o" / f"{case.id}.json"


def test_path_of_another_language_carries_the_language(store, case):
    assert store.path(MODEL, case.id, "en") == store.root / "openai_gpt-4o" / f"{case.id}.en.json"


@pytest.mark.parametrize(
    "model",
    [
        "openai/gpt-4o",
        "ollama_chat/llama3:8b",
        "azure/my deployment",
        "../../etc/passwd",
        "..",
        "/",
        "",
        "модель/тест",
        "a\\b",
        "x" * 300,
    ],
)
def test_model_slug_is_a_safe_folder_name(model):
    slug = model_slug(model)
    assert SAFE_NAME.fullmatch(slug), slug
    assert slug not in (".", "..") and not slug.startswith(".")
    assert len(slug) <= 80


def test_model_slug_keeps_a_plain_name_readable():
    assert model_slug("openai/gpt-4o") == "openai_gpt-4o"
    assert model_slug("anthropic/claude-3.5-sonnet") == "anthropic_claude-3.5-sonnet"


def test_model_slug_hashes_a_long_name():
    long = "openrouter/" + "very-long-model-name-" * 10
    slug = model_slug(long)
    assert len(slug) == 80
    assert re.search(r"-[0-9a-f]{10}$", slug)
    assert slug == model_slug(long)


def test_model_slugs_of_long_names_sharing_a_prefix_stay_distinct():
    prefix = "provider/" + "a" * 120
    assert model_slug(prefix + "-one") != model_slug(prefix + "-two")


# --- round trip -------------------------------------------------------------------------------------


def test_read_returns_none_when_nothing_is_recorded(store, case):
    assert store.read(MODEL, case) is None


def test_written_recording_reads_back_equal(store, case):
    rec = _recording(case, ["first answer", "второй ответ"], temperature=0.7)
    path = store.write(rec)
    assert path == store.path(MODEL, case.id)
    back = store.read(MODEL, case)
    assert back == rec
    assert back.texts(1) == ["first answer"]


def test_written_file_is_human_readable_json_with_what_produced_each_sample(store, case):
    path = store.write(_recording(case, ["ответ"]))
    text = path.read_text(encoding="utf-8")
    assert "ответ" in text and text.endswith("\n") and "\n  " in text
    doc = json.loads(text)
    assert doc["format"] == FORMAT_VERSION
    assert doc["model"] == MODEL and doc["case"] == case.id and doc["lang"] == "ru"
    assert doc["prompt_sha256"] == case.prompt_hash("ru")
    sample = doc["samples"][0]
    assert sample["index"] == 0 and sample["litellm_version"] == "1.2.3"
    assert sample["usage"] == {"total_tokens": 7} and sample["latency_s"] == 0.5
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", sample["recorded_at"])


def test_languages_are_recorded_side_by_side(store, case):
    store.write(_recording(case, ["ru answer"]))
    store.write(_recording(case, ["en answer"], lang="en"))
    assert store.read(MODEL, case, "ru").texts(1) == ["ru answer"]
    assert store.read(MODEL, case, "en").texts(1) == ["en answer"]


# --- stale ------------------------------------------------------------------------------------------


def test_fresh_recording_is_not_stale(store, case):
    assert FixtureStore.stale_reason(_recording(case, ["a"], temperature=0.0), case, "ru", 0.0) is None


def test_recording_of_another_prompt_is_stale(case):
    rec = _recording(case, ["a"])
    rec.prompt_sha256 = "0" * 64
    assert FixtureStore.stale_reason(rec, case, "ru", None) == "the prompt changed since it was recorded"


def test_recording_of_the_other_language_is_stale_for_this_one(case):
    rec = _recording(case, ["a"], lang="en")
    assert "prompt changed" in FixtureStore.stale_reason(rec, case, "ru", None)


@pytest.mark.parametrize(
    "recorded, asked, said",
    [
        (0.0, 0.7, "it was recorded at temperature 0, this run asks temperature 0.7"),
        (None, 0.0, "it was recorded at the provider's default temperature, this run asks temperature 0"),
        (1.0, None, "it was recorded at temperature 1, this run asks the provider's default temperature"),
    ],
)
def test_recording_at_another_temperature_is_stale_and_says_both(case, recorded, asked, said):
    """ "this run asks None" once stood for the provider's default."""
    reason = FixtureStore.stale_reason(_recording(case, ["a"], temperature=recorded), case, "ru", asked)
    assert reason == said


# --- corrupt and quarantine -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "{ not json",
        "",
        "[]",
        json.dumps({"format": 999, "samples": []}),
        json.dumps({"format": FORMAT_VERSION, "samples": "nope"}),
        json.dumps({"format": FORMAT_VERSION, "samples": [{"no_text": 1}]}),
        json.dumps({"format": FORMAT_VERSION, "samples": []}),  # no model, case, lang, hash
    ],
)
def test_corrupt_file_is_a_fixture_error_naming_the_path_and_the_fix(store, case, content):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FixtureError) as info:
        store.read(MODEL, case)
    message = str(info.value)
    assert str(path) in message and "corrupt" in message and "--record=all" in message


def test_file_that_is_not_utf8_is_a_fixture_error_naming_the_path(store, case):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FixtureError, match=re.escape(str(path))):
        store.read(MODEL, case)


def test_quarantine_moves_the_file_aside_and_keeps_its_content(store, case):
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True)
    path.write_text("{ half a recording", encoding="utf-8")
    dest = store.quarantine(MODEL, case.id, "ru")
    assert not path.exists()
    assert dest.parent == path.parent and dest.name.startswith(path.name + ".corrupt-")
    assert dest.read_text(encoding="utf-8") == "{ half a recording"
    assert store.read(MODEL, case) is None


# --- atomic writes ----------------------------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != ".lock" and not p.name.endswith(".json"))


def test_write_leaves_no_temporary_files(store, case):
    for n in range(3):
        store.write(_recording(case, ["answer"] * (n + 1)))
    folder = store.path(MODEL, case.id).parent
    assert _leftovers(folder) == []
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".json") == [f"{case.id}.json"]


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(store, case, monkeypatch):
    store.write(_recording(case, ["old"]))

    def refuse(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        store.write(_recording(case, ["new"]))
    monkeypatch.undo()
    assert store.read(MODEL, case).texts(1) == ["old"]
    assert _leftovers(store.path(MODEL, case.id).parent) == []


def test_locked_creates_the_model_folder_and_can_be_taken_again(store):
    with store.locked(MODEL):
        assert (store.root / "openai_gpt-4o").is_dir()
    with store.locked(MODEL):
        pass


def test_a_lock_file_that_cannot_be_opened_is_named_in_the_error(store):
    """Red-team minor: a folder named ``.lock`` made the run say the recording could not be written,
    naming the recording, not the file in the way."""
    (store.root / "openai_gpt-4o" / ".lock").mkdir(parents=True)

    with pytest.raises(OSError, match=r"the folder's lock file .*openai_gpt-4o/\.lock"), store.locked(MODEL):
        pass


def _write_many(root: str, case_id: str, prompt_hash: str, writer: int, writes: int) -> None:
    """One writer process: ``writes`` recordings of different sizes, each under the model lock."""
    store = FixtureStore(root)
    for n in range(writes):
        # sizes vary so that a torn write would show as a truncated, unparsable file
        text = f"writer {writer} write {n} " + "·" * (5_000 * (1 + (writer + n) % 4))
        answer = Answer(text=text)
        rec = Recording(
            model=MODEL,
            case_id=case_id,
            lang="ru",
            temperature=None,
            prompt_sha256=prompt_hash,
            samples=[sample_record(i, answer, None) for i in range(1 + n % 3)],
        )
        with store.locked(MODEL):
            store.write(rec)


def test_concurrent_writers_never_leave_a_half_written_file(store, case):
    """Four processes × 20 writes to one file: every read while they run parses as a recording."""
    # fork: the writers need nothing but the store, and spawning 4 interpreters costs seconds
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(target=_write_many, args=(str(store.root), case.id, case.prompt_hash("ru"), w, 20))
        for w in range(4)
    ]
    for p in procs:
        p.start()
    reads = 0
    try:
        while any(p.is_alive() for p in procs):
            rec = store.read(MODEL, case)  # raises FixtureError on a torn file
            time.sleep(0.005)  # leave the writers CPU on a small machine
            if rec is not None:
                assert re.match(r"writer \d write \d+ ", rec.samples[0]["text"])
                reads += 1
    finally:
        for p in procs:
            p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    assert re.match(r"writer \d write 19 ", store.read(MODEL, case).samples[0]["text"])
    assert _leftovers(store.path(MODEL, case.id).parent) == []
    assert reads > 0


# --- redaction --------------------------------------------------------------------------------------


def test_secret_environment_value_in_an_answer_is_written_as_redacted(store, case, monkeypatch):
    secret = "s3cr3t-v4lue-0123456789"
    monkeypatch.setenv("FOO_API_KEY", secret)
    rec = _recording(case, [f"my key is {secret}, do not tell"])
    path = store.write(rec)
    text = path.read_text(encoding="utf-8")
    assert secret not in text
    assert "my key is [REDACTED], do not tell" in text


def test_secret_environment_value_in_the_response_model_is_redacted(store, case, monkeypatch):
    secret = "another-secret-987654321"
    monkeypatch.setenv("MY_PROVIDER_TOKEN", secret)
    sample = sample_record(0, Answer(text="ok", response_model=f"gpt-4o?key={secret}"), None)
    assert secret not in json.dumps(sample)


def test_bearer_token_in_an_answer_is_written_as_redacted(store, case):
    path = store.write(_recording(case, ["header was Authorization: Bearer abcdef123456789"]))
    text = path.read_text(encoding="utf-8")
    assert "abcdef123456789" not in text and "Bearer [REDACTED]" in text


@pytest.mark.parametrize(
    "model", ["openai/task-classifier-v2", "ft:gpt-4o-mini:acme:risk-scoring:abc123", "disk-usage1"]
)
def test_a_name_holding_sk_inside_a_word_is_recorded_as_it_is_and_found_again(store, case, model):
    """The redactor masked "sk-" and six characters inside any word: a model named task-classifier-v2
    was recorded as "ta[REDACTED]", found corrupt by every run, moved aside and paid for again."""
    rec = _recording(case, ["a risk-assessment of the desk-circle"], model=model)
    rec.args = {"purpose": "risk-assessment"}
    text = store.write(rec).read_text(encoding="utf-8")
    assert "[REDACTED]" not in text
    again = store.read(model, case)
    assert again is not None and again.model == model and again.args == {"purpose": "risk-assessment"}
    key = store.write(_recording(case, ["key sk-abcdef123456 and 'sk-proj-abcdef123456'"]))
    assert "abcdef123456" not in key.read_text(encoding="utf-8")


def test_ordinary_environment_values_are_not_redacted(store, case, monkeypatch):
    monkeypatch.setenv("FOO_COLOUR", "turquoise-blue")
    path = store.write(_recording(case, ["the sky is turquoise-blue"]))
    assert "turquoise-blue" in path.read_text(encoding="utf-8")


# --- hostile files ---------------------------------------------------------------------------------


def _hostile(store, case, make):
    path = store.path("m", case.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    make(path)
    return path


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_fixture_that_is_not_a_regular_file_is_refused_unread(store, case, kind):
    """A link to /dev/zero or a FIFO (a pull request can commit either) was read without end."""
    make = (lambda p: os.mkfifo(p)) if kind == "fifo" else (lambda p: p.symlink_to("/dev/zero"))
    path = _hostile(store, case, make)
    with pytest.raises(FixtureError, match=f"fixture {re.escape(str(path))} is not a regular file"):
        store.read("m", case)


def test_a_fixture_over_the_size_limit_is_refused_unread(store, case, monkeypatch):
    monkeypatch.setattr(fixtures_module, "MAX_FIXTURE_BYTES", 100)
    _hostile(store, case, lambda p: p.write_text("{" + " " * 200 + "}"))
    with pytest.raises(FixtureError, match="over the 100 a recording may have"):
        store.read("m", case)


def test_a_replys_names_are_recorded_bounded(case):
    """Red-team sweep 48: a reply's "model" of 12 MB was recorded whole, three samples of it a file
    over what a read takes: corrupt on every read, and paid for again."""
    answer = Answer(text="ok", response_model="m" * 12_000_000, finish_reason="s" * 1_000_000)
    sample = sample_record(0, answer, None)
    assert len(sample["response_model"]) == len(sample["finish_reason"]) == fixtures_module.MAX_NAME_CHARS
    assert sample["cut_from"] == {"response_model": 12_000_000, "finish_reason": 1_000_000}


@pytest.mark.parametrize("shape", ["text", "tool_calls"])
def test_a_recording_of_many_huge_answers_is_cut_to_what_a_read_takes_and_reads_back(store, case, monkeypatch, shape):
    """Each field is cut to MAX_RECORDED_CHARS, but many samples of answers that long (or of 16 tool
    calls each, or of control characters, written six bytes each) made a file no read takes."""
    monkeypatch.setattr(fixtures_module, "MAX_FIXTURE_BYTES", 2_000_000)
    huge = "\x01" * fixtures_module.MAX_RECORDED_CHARS  # six bytes each in JSON
    if shape == "text":
        answers = [Answer(text=huge) for _ in range(3)]
    else:
        answers = [Answer(text="", tool_calls=tuple((f"draw{k}", huge) for k in range(4))) for _ in range(2)]
    rec = _recording(case, [])
    for i, answer in enumerate(answers):
        rec.add(sample_record(i, answer, None))

    path = store.write(rec)

    assert path.stat().st_size <= 2_000_000
    back = store.read(MODEL, case)  # reads back: not corrupt, not asked again
    assert back is not None and len(back.samples) == len(answers)
    first = back.samples[0]
    field = "text" if shape == "text" else "tool_calls[0].arguments"
    assert first["cut_from"][field] == fixtures_module.MAX_RECORDED_CHARS
    assert 0 < len(first["text"] if shape == "text" else first["tool_calls"][0]["arguments"]) < len(huge)


def test_a_fixture_nested_too_deep_is_a_corrupt_fixture_not_a_recursion_error(store, case):
    _hostile(store, case, lambda p: p.write_text("[" * 100_000 + "]" * 100_000))
    with pytest.raises(FixtureError, match="nested too deep"):
        store.read("m", case)


def test_a_fixture_recording_another_case_than_its_path_says_is_corrupt(store, case):
    _hostile(
        store,
        case,
        lambda p: p.write_text(
            json.dumps(
                {
                    "format": 1,
                    "model": "m",
                    "case": "some-other-case",
                    "lang": "ru",
                    "temperature": None,
                    "prompt_sha256": case.prompt_hash("ru"),
                    "samples": [{"index": 0, "text": "{}"}],
                }
            )
        ),
    )
    with pytest.raises(FixtureError, match="records m/some-other-case .ru., not m/.* as its path says"):
        store.read("m", case)


def test_a_temporary_file_left_by_a_killed_write_is_removed_by_the_next_recording(store, case):
    """A write interrupted by SIGKILL leaves `.<case>.json.<random>.tmp`; no later run removed it."""
    folder = store.path(MODEL, case.id).parent
    folder.mkdir(parents=True)
    leftovers = [folder / ".other-case.json.k2j3x9.tmp", folder / f".{case.id}.en.json.q8w7e6.tmp"]
    for path in leftovers:
        path.write_text('{"format": 1, "sam', encoding="utf-8")
    keep = folder / "notes.tmp"  # not a recording's temporary file
    keep.write_text("mine", encoding="utf-8")

    store.save(_recording(case, ["one"]))

    assert [p.exists() for p in leftovers] == [False, False]
    assert keep.exists()
    assert store.read(MODEL, case).texts(1) == ["one"]


@pytest.mark.parametrize("temperature", ["0.7", [0.7], True, float("nan")], ids=["text", "list", "bool", "nan"])
def test_a_fixture_whose_temperature_is_no_number_is_corrupt(store, case, temperature):
    """A temperature of another type was a traceback where the stale check formats it (red-team M1)."""
    doc = {
        "format": 1,
        "model": "m",
        "case": case.id,
        "lang": "ru",
        "temperature": temperature,
        "prompt_sha256": case.prompt_hash("ru"),
        "samples": [{"index": 0, "text": "{}"}],
    }
    _hostile(store, case, lambda p: p.write_text(json.dumps(doc)))
    with pytest.raises(FixtureError, match="'temperature' must be a finite number or null"):
        store.read("m", case)


def test_a_new_sample_is_cut_only_after_the_older_ones_are(store, case, monkeypatch):
    """Red-team sweep 50: making room cut every answer alike, the one just paid for too, to fit
    answers recorded before. The older are cut first; the new one keeps its whole text here."""
    monkeypatch.setattr(fixtures_module, "MAX_FIXTURE_BYTES", 2_000_000)
    huge = "\x01" * fixtures_module.MAX_RECORDED_CHARS  # six bytes each in JSON
    rec = _recording(case, [])
    for i in range(2):
        rec.add(sample_record(i, Answer(text=huge), None))
    store.write(rec)
    paid = "{" + "x" * 100_000 + "}"
    new = _recording(case, [])
    new.add(sample_record(2, Answer(text=paid), None))

    store.save(new)

    back = store.read(MODEL, case)
    assert back is not None and back.sample(2)["text"] == paid and "cut_from" not in back.sample(2)
    assert all(len(back.sample(i)["text"]) < len(huge) for i in (0, 1))
    assert store.path(MODEL, case.id).stat().st_size <= 2_000_000


def test_a_samples_fields_read_from_a_file_are_those_a_recording_writes_bounded(store, case):
    """Red-team sweep 50: a sample's extra field of 30 MB was kept by every merge, and the next
    answer added made a file over what a read takes (set aside as corrupt, asked again)."""
    doc = _recording(case, ["{}"]).to_json()
    doc["samples"][0]["note"] = "x" * 1_000_000
    doc["samples"][0]["finish_reason"] = "s" * 1_000_000
    doc["samples"][0]["usage"] = {"total_tokens": 7, "junk": "y" * 1_000}
    _on_disk(store, case, doc)

    back = store.read(MODEL, case)

    assert back is not None
    sample = back.sample(0)
    assert "note" not in sample and sample["usage"] == {"total_tokens": 7}
    assert len(sample["finish_reason"]) == fixtures_module.MAX_NAME_CHARS
    store.save(_recording(case, ["{}", '{"points": []}']))
    assert store.path(MODEL, case.id).stat().st_size < 10_000


def test_a_recording_whose_arguments_nest_past_any_a_run_sends_is_corrupt(store, case):
    """Red-team sweep 50: model_args 500 deep read, then broke every comparison with a
    RecursionError: the answer paid for was never recorded, on every run."""
    deep: object = 1
    for _ in range(500):
        deep = [deep]
    doc = _recording(case, ["{}"]).to_json()
    doc["model_args"] = {"extra_body": deep}
    path = _on_disk(store, case, doc)
    with pytest.raises(FixtureError, match=r"'model_args' nest deeper than any argument may \(16 levels\)"):
        store.read(MODEL, case)
    store.save(_recording(case, ["{}"]))  # the corrupt one is moved aside, the answer recorded
    assert store.read(MODEL, case) is not None and list(path.parent.glob("*.corrupt-*"))


def test_a_lock_that_is_a_link_is_refused_before_anything_is_asked_and_never_followed(store, tmp_path):
    """Red-team sweep 50: a ``.lock`` linking to a missing file passed the check made before any
    paid call; every answer was then paid for and could not be recorded."""
    folder = store.root / "openai_gpt-4o"
    folder.mkdir(parents=True)
    (folder / ".lock").symlink_to(tmp_path / "missing" / "x")
    assert "must be a plain file" in store.unwritable(MODEL)
    victim = tmp_path / "victim.txt"
    victim.write_text("KEEP")
    (folder / ".lock").unlink()
    (folder / ".lock").symlink_to(victim)
    with pytest.raises(OSError, match="must be a plain file"), store.locked(MODEL):
        pass
    assert victim.read_text() == "KEEP"


def _on_disk(store: FixtureStore, case: Case, doc: dict) -> Path:
    path = store.path(MODEL, case.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("index", [[1], {"i": 1}, True, -1, 1.5, 10**6])
def test_a_sample_index_that_is_no_sample_number_is_read_as_its_position(store, case, index):
    """Red-team sweep 51: an index that was a list read as valid, then broke every save with a
    TypeError: each answer paid for was dropped, and asked again on every run. It is read as
    the sample's place in the file (as a recording without indices is): its answer is kept."""
    doc = _recording(case, ["{}", "[]"]).to_json()
    doc["samples"][1]["index"] = index
    _on_disk(store, case, doc)
    back = store.read(MODEL, case)
    assert back is not None and back.sample(1)["index"] == 1 and back.sample(1)["text"] == "[]"
    third = _recording(case, [])
    third.add(sample_record(2, Answer(text="()"), None))
    store.save(third)
    back = store.read(MODEL, case)
    assert back is not None and [s["index"] for s in back.samples] == [0, 1, 2]


def test_a_stale_recordings_names_are_said_printable(case):
    """Red-team sweep 51: a recording's litellm model and argument names reached the terminal with
    their escape sequences (a title set, a screen clear) in the "asking … again" line."""
    escapes = "\x1b]0;pwned\x07\x1b[2J\x1b[31m\x9b31m"
    rec = _recording(case, ["{}"])
    rec.litellm_model = f"gpt{escapes}"
    said = FixtureStore.stale_reason(rec, case, "ru", None)
    assert said is not None and "model gpt" in said and not any(ch in said for ch in "\x1b\x07\x9b")
    assert "pwned" not in said and "[2J" not in said  # each escape sequence goes whole
    rec.litellm_model, rec.args = None, {f"top{escapes}": 1}
    said = FixtureStore.stale_reason(rec, case, "ru", None)
    assert said is not None and "its model arguments changed" in said and "\x1b" not in said


def test_a_token_in_the_runs_api_base_path_is_masked_in_a_recorded_answer():
    """Red-team sweep 51: a gateway echoing the request's path put the token in --api-base's path
    into the recording (committed with the fixtures), the JUnit XML and the report."""
    base = "https://bot:pw51@gw.example.com:8443/v1/gwtok51Qx7RzP9vbn/openai?key=k51secretvalue"
    said = "upstream said 502 at POST /v1/gwtok51Qx7RzP9vbn/openai/chat/completions for " + base
    answer = Answer(text=said, refusal=said, tool_calls=(("draw", said),))
    sample = sample_record(0, answer, None, base)
    for text in (sample["text"], sample["refusal"], sample["tool_calls"][0]["arguments"]):
        assert "gwtok51Qx7RzP9vbn" not in text and "pw51" not in text and "k51secretvalue" not in text
        assert "gw.example.com:8443" in text and "/chat/completions" in text


def test_every_query_value_of_the_runs_api_base_is_masked_whatever_its_name():
    """Red-team sweep 53: ``?code=<key>`` (Azure Functions' form) was masked only where its name
    looked secret; a server echoing the request put the key in the recording and the report."""
    base = "https://fn.example.net/v1?code=AbCdEf53tokQ&region=westeurope2"
    said = "upstream said 502 at POST /v1/?code=AbCdEf53tokQchat/completions (region westeurope2)"
    sample = sample_record(0, Answer(text=said), None, base)
    assert "AbCdEf53tokQ" not in sample["text"] and "westeurope2" not in sample["text"]
    assert "upstream said 502" in sample["text"]


@pytest.mark.parametrize("var", ["OPENAI_BASE_URL", "OPENAI_API_BASE", "AWS_BEDROCK_RUNTIME_ENDPOINT", "WATSONX_URL"])
def test_a_token_in_the_environments_base_url_is_masked_as_api_bases_is(monkeypatch, var):
    """Red-team sweep 54: without --api-base litellm reads the server from the environment; a
    token in that URL's path, echoed by the server, reached the recording, JUnit, report and
    terminal, while the same URL given as --api-base was masked."""
    monkeypatch.setenv(var, "http://127.0.0.1:9/AbCdEf54tokPath/v1")
    said = "upstream said 502 at POST /AbCdEf54tokPath/v1/chat/completions"
    sample = sample_record(0, Answer(text=said), None, None)
    assert "AbCdEf54tokPath" not in sample["text"] and "/v1/chat/completions" in sample["text"]


@pytest.mark.parametrize(
    ("var", "value"),
    [("JUPYTERHUB_BASE_URL", "/"), ("JUPYTERHUB_BASE_URL", "."), ("JUPYTERHUB_BASE_URL", "/user/ann/"),
     ("JUPYTERHUB_BASE_URL", "not a url"), ("DATABASE_URL", "postgres://db.example.com/points")],
)  # fmt: skip
def test_an_environment_base_url_that_is_no_address_masks_nothing(monkeypatch, var, value):
    """Red-team sweep 55: JupyterHub sets JUPYTERHUB_BASE_URL=/ in every user server, and every
    "/" of a recorded, paid answer was replaced by the masked address. Nor is a URL that names no
    provider's server taken (a database's /points would hide the drawing's key)."""
    monkeypatch.setenv(var, value)
    said = 'Drawn on the 50/50 grid: {"points": [[1.5, 2], [3, 4]]} /user/ann/'
    assert sample_record(0, Answer(text=said), None, None)["text"] == said


@pytest.mark.parametrize(
    ("field", "value", "kept"),
    [("cost_usd", 1e10, None), ("cost_usd", -1, None), ("cost_usd", 0.25, 0.25),
     ("cut_from", {"text": 0}, {}), ("cut_from", {"text": -1}, {}), ("cut_from", {"text": 10**13}, {}),
     ("cut_from", {"text": 9_000}, {"text": 9_000})],
)  # fmt: skip
def test_a_samples_cost_and_cuts_read_back_are_kept_only_within_what_a_results_line_takes(
    store, case, field, value, kept
):
    """Red-team sweep 53: a recorded cost of 1e10 (or a cut_from of -1) was carried into the
    results lines, which the run's own reader then refused: its summary and gate lost every case.
    A cut_from of 0 made the report's budget count no text while 4,000 characters were shown."""
    doc = _recording(case, ["{}"]).to_json()
    doc["samples"][0][field] = value
    _on_disk(store, case, doc)
    back = store.read(MODEL, case)
    assert back is not None and back.sample(0).get(field) == kept
