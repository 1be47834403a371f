"""reference: the in-process drawers that calibrate the suite (exact) and imitate a model (noisy)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shape_asserts.asking import reference
from shape_asserts.asking.reference import STYLES, answer_for_messages, answer_text, draw
from shape_asserts.cases import Case, load_cases
from shape_asserts.geometry.drawing import parse_drawing
from shape_asserts.results.verdict import judge

BUILTIN = load_cases()
#: The circle cases (the seed's question); the noisy drawer's verdicts are studied on these.
CIRCLES = [c for c in BUILTIN if c.source == "builtin:circle.toml"]
#: One case of every family.
ONE_PER_FAMILY = list({c.family: c for c in reversed(BUILTIN)}.values())
SAMPLES = 3


def _noisy_verdicts(cases: list[Case]) -> dict:
    return {c.id: judge(c, "reference/noisy", [answer_text(c, "noisy", s) for s in range(SAMPLES)]) for c in cases}


@pytest.fixture(scope="module")
def noisy_results():
    return _noisy_verdicts(CIRCLES)


# --- exact ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", BUILTIN, ids=[c.id for c in BUILTIN])
def test_exact_drawer_passes_its_own_case(case):
    result = judge(case, "reference/exact", [answer_text(case, "exact")])
    assert result.passed, result.failure_message()


def test_exact_drawer_draws_the_ideal_and_ignores_the_sample_number():
    case = CIRCLES[0]
    assert np.array_equal(draw(case, "exact", 0), case.ideal())
    assert answer_text(case, "exact", 0) == answer_text(case, "exact", 7)


def test_exact_answer_is_bare_json_in_the_seed_format():
    case = CIRCLES[1]
    doc = json.loads(answer_text(case, "exact"))
    assert doc["grid_size"] == 50 and doc["center"] == {"x": 25, "y": 25}
    assert doc["points"][0] == {"x": 46, "y": 13}


# --- noisy ------------------------------------------------------------------------------------------


def test_noisy_drawer_is_deterministic_per_case_and_sample():
    for case in ONE_PER_FAMILY:
        for sample in range(SAMPLES):
            assert answer_text(case, "noisy", sample) == answer_text(case, "noisy", sample)


def test_noisy_drawer_varies_between_samples_and_between_cases():
    case = CIRCLES[0]
    assert len({answer_text(case, "noisy", s) for s in range(8)}) > 1
    assert answer_text(CIRCLES[3], "noisy", 0) != answer_text(CIRCLES[4], "noisy", 0)


def test_noisy_answer_wraps_the_drawing_in_prose_and_a_fence_that_still_parses():
    text = answer_text(CIRCLES[0], "noisy", 0)
    assert text.startswith("Вот контур:\n```json\n") and text.rstrip().endswith("Готово.")
    assert len(parse_drawing(text)) > 50


def test_noisy_drawer_fails_some_cases_and_passes_others(noisy_results):
    verdicts = [r.passed for r in noisy_results.values()]
    assert any(verdicts) and not all(verdicts)


def test_noisy_drawer_fails_some_samples_and_passes_others(noisy_results):
    samples = [s.passed for r in noisy_results.values() for s in r.samples]
    assert any(samples) and not all(samples)


def test_noisy_verdicts_are_the_same_on_every_run(noisy_results):
    again = {cid: r.summary() for cid, r in _noisy_verdicts(CIRCLES[:8]).items()}
    assert again == {cid: noisy_results[cid].summary() for cid in again}


def test_noisy_drawing_stays_close_to_the_ideal():
    case = CIRCLES[5]
    ideal = case.ideal()
    for sample in range(SAMPLES):
        pts = draw(case, "noisy", sample)
        assert abs(len(pts) - len(ideal)) <= 7
        # every point is at most one cell from some ideal point
        d = np.abs(pts[:, None, :] - ideal[None, :, :]).max(axis=2).min(axis=1)
        assert d.max() <= 1


def test_unknown_style_is_a_value_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="exact, noisy"):
        draw(CIRCLES[0], "wobbly")
    assert STYLES == ("exact", "noisy")


# --- answering chat requests ------------------------------------------------------------------------


def _messages(case: Case, lang: str = "ru") -> list[dict[str, str]]:
    return [{"role": "system", "content": "You are helpful."}, *case.messages(lang)]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_answer_for_messages_draws_the_case_whose_prompt_it_receives(lang):
    case = CIRCLES[2]
    assert answer_for_messages("exact", _messages(case, lang)) == answer_text(case, "exact")


def test_answer_for_messages_passes_the_sample_number_on():
    case = CIRCLES[4]
    assert answer_for_messages("noisy", case.messages(), sample=2) == answer_text(case, "noisy", 2)


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": "user", "content": "Draw an elephant."}],
        [{"role": "system", "content": CIRCLES[0].prompt()}],
        [],
    ],
)
def test_answer_for_messages_raises_lookup_error_for_an_unknown_prompt(messages):
    with pytest.raises(LookupError, match="only answers the prompts of loaded cases"):
        answer_for_messages("exact", messages)


def test_answer_for_messages_with_an_unknown_style_is_a_value_error():
    with pytest.raises(ValueError, match="unknown reference style"):
        answer_for_messages("wobbly", CIRCLES[0].messages())


# --- which cases the drawers answer -----------------------------------------------------------------

MY_CASE = """
[[case]]
id = "my-reference-circle"
family = "circle"
center = [21, 19]
start = [21, 9]
direction = "cw"
"""


@pytest.fixture
def served(monkeypatch):
    """A fresh set of served cases for one test (the process-wide one is left as it was)."""
    monkeypatch.setattr(reference, "_SERVED", reference.CaseIndex())
    return reference


@pytest.fixture
def my_case(tmp_path) -> Case:
    path = tmp_path / "mine.toml"
    path.write_text(MY_CASE, encoding="utf-8")
    return load_cases([path], builtin=False)[0]


def test_the_drawers_know_every_builtin_case_without_being_told(served):
    for case in ONE_PER_FAMILY:
        assert served.case_for_prompt(case.prompt("en")).id == case.id


def test_a_user_case_is_answered_only_once_a_run_serves_it(served, my_case):
    with pytest.raises(LookupError, match="--shape-cases"):
        answer_for_messages("exact", my_case.messages())

    served.serve([my_case])

    assert answer_for_messages("exact", my_case.messages()) == answer_text(my_case, "exact")
    assert served.case_for_prompt(my_case.prompt("en")) is my_case


def test_a_builtin_prompt_keeps_its_builtin_case_when_a_run_serves_a_twin(served):
    twin = Case(id="my-twin", family="circle", params=CIRCLES[0].params, prompts=CIRCLES[0].prompts)
    served.serve([twin])
    assert served.case_for_prompt(CIRCLES[0].prompt()).id == CIRCLES[0].id


def test_concurrent_first_requests_build_the_prompt_index_once(monkeypatch):
    # the stub server answers each request on a thread of its own: its first wave used to build
    # the index once per request, all at once (16 requests: 1.2 s instead of 0.03 s)
    import threading
    import time

    built = []

    def slow_cases():  # the sleep lets every thread reach the build before the first one ends
        built.append(threading.get_ident())
        time.sleep(0.05)
        return tuple(BUILTIN)

    monkeypatch.setattr(reference, "_BUILTIN", None)
    monkeypatch.setattr(reference, "builtin_cases", slow_cases)
    start = threading.Barrier(8)
    found = []

    def ask() -> None:
        start.wait()
        found.append(reference.case_for_prompt(CIRCLES[0].prompt()))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert len(built) == 1
    assert [c.id for c in found] == [CIRCLES[0].id] * 8


def test_a_stub_server_has_its_prompts_indexed_before_the_first_request(monkeypatch):
    from shape_asserts.asking.stub_server import StubServer

    monkeypatch.setattr(reference, "_BUILTIN", None)
    with StubServer():
        assert reference._BUILTIN is not None
