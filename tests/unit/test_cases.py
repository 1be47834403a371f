"""cases: the built-in circle cases, user case files, and errors that name the file and the case."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shape_asserts.cases import CASE_ID_RE, Case, CaseIndex, builtin_case_files, builtin_cases, load_cases
from shape_asserts.exceptions import CaseError
from shape_asserts.families.prompts import SEED_CIRCLE_PROMPTS
from shape_asserts.geometry.raster import angle_of

SEED_IDS = {
    1: "seed1-circle-start270-cw",
    2: "seed2-circle-start330-cw",
    3: "seed3-circle-start150-ccw",
}

USER_CASE = """
[[case]]
id = "my-small-circle"
family = "circle"
center = [20, 20]
start = [20, 10]
direction = "ccw"
tags = ["mine"]

[case.thresholds]
max_gaps = 2
"""


@pytest.fixture(scope="module")
def everything() -> list[Case]:
    """Every built-in case, of every family."""
    return load_cases()


@pytest.fixture(scope="module")
def builtin(everything) -> list[Case]:
    """The built-in circle cases (``circle.toml``), in load order."""
    return [c for c in everything if c.source == "builtin:circle.toml"]


def _write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the built-in circle cases ----------------------------------------------------------------------


def test_builtin_case_files_start_with_the_circle_file():
    names = [p.name for p in builtin_case_files()]
    assert names[0] == "circle.toml" and names == sorted(names)


def test_builtin_circles_are_twenty_four_cases(builtin):
    assert len(builtin) == 24
    assert {c.family for c in builtin} == {"circle"}


def test_seed_cases_come_first_with_recognisable_ids(everything, builtin):
    assert [c.id for c in everything[:3]] == list(SEED_IDS.values())
    assert [c.id for c in builtin[:3]] == list(SEED_IDS.values())
    assert all("seed" in c.tags for c in builtin[:3])


@pytest.mark.parametrize("number", [1, 2, 3])
def test_seed_case_asks_the_seed_prompt_verbatim(builtin, number):
    case = next(c for c in builtin if c.id == SEED_IDS[number])
    assert case.prompt("ru") == SEED_CIRCLE_PROMPTS[number]


def test_seed_case_ids_name_the_angle_of_their_start(builtin):
    for case in builtin[:3]:
        angle = int(re.search(r"start(\d+)", case.id).group(1))
        measured = angle_of(case.params["start"], case.params["center"])
        assert abs(measured - angle) < 1, (case.id, measured)


def test_case_ids_are_unique(everything):
    ids = [c.id for c in everything]
    assert len(ids) == len(set(ids))


def test_case_ids_are_filesystem_safe(everything):
    for case in everything:
        assert CASE_ID_RE.match(case.id), case.id
        assert re.fullmatch(r"[a-z0-9._-]+", case.id) and not case.id.startswith(".")


def test_matrix_starts_every_thirty_degrees_in_both_directions(builtin):
    asked = {
        (round(angle_of(c.params["start"], c.params["center"]) / 30) % 12 * 30, c.params["direction"]) for c in builtin
    }
    assert asked == {(a, d) for a in range(0, 360, 30) for d in ("cw", "ccw")}


def test_matrix_start_points_lie_on_the_circle_the_case_describes(builtin):
    for case in builtin:
        (cx, cy), (sx, sy) = case.params["center"], case.params["start"]
        assert abs(((sx - cx) ** 2 + (sy - cy) ** 2) ** 0.5 - 24) < 0.6, case.id


def test_seed_cases_replace_their_twins_in_the_matrix(builtin):
    ids = {c.id for c in builtin}
    assert "circle-start330-cw" not in ids and "circle-start150-ccw" not in ids
    assert "circle-start270-cw" not in ids
    assert "circle-start330-ccw" in ids and "circle-start150-cw" in ids


def test_cases_that_differ_only_in_start_and_direction_share_a_group(builtin):
    assert len({c.group for c in builtin}) == 1
    assert len({c.variant for c in builtin}) == 24


def test_variant_names_the_start_and_direction(builtin):
    assert builtin[1].variant == "start=(46,13), direction=cw"


def test_every_case_has_a_russian_and_an_english_prompt_that_differ(everything):
    for case in everything:
        assert set(case.prompts) == {"ru", "en"}
        assert case.prompt("ru") != case.prompt("en")


def test_messages_are_the_prompt_as_one_user_message(builtin):
    case = builtin[0]
    assert case.messages("en") == [{"role": "user", "content": case.prompt("en")}]


def test_asking_for_a_missing_language_is_a_case_error(builtin):
    with pytest.raises(CaseError, match="has no prompt in 'de'"):
        builtin[0].prompt("de")


# --- prompt_hash ------------------------------------------------------------------------------------


def test_prompt_hash_is_stable_and_differs_between_languages(builtin):
    case = builtin[0]
    again = load_cases([p for p in builtin_case_files() if p.name == "circle.toml"], builtin=False)[0]
    assert case.prompt_hash("ru") == again.prompt_hash("ru")
    assert re.fullmatch(r"[0-9a-f]{64}", case.prompt_hash("ru"))
    assert case.prompt_hash("ru") != case.prompt_hash("en")


def test_prompt_hash_changes_when_the_prompt_changes(tmp_path):
    def hash_with(prompt: str) -> str:
        path = _write(tmp_path, USER_CASE.replace('tags = ["mine"]', f'tags = ["mine"]\nprompt = "{prompt}"'))
        return load_cases([path], builtin=False)[0].prompt_hash("ru")

    assert hash_with("Draw a circle.") != hash_with("Draw a circle!")


def test_prompt_hash_changes_when_a_parameter_changes_the_prompt(tmp_path):
    a = load_cases([_write(tmp_path, USER_CASE, "a.toml")], builtin=False)[0]
    b = load_cases([_write(tmp_path, USER_CASE.replace("[20, 10]", "[20, 11]"), "b.toml")], builtin=False)[0]
    assert a.prompt_hash() != b.prompt_hash()


# --- user case files --------------------------------------------------------------------------------


def test_user_file_adds_its_cases_after_the_builtin_ones(tmp_path, everything):
    loaded = load_cases([_write(tmp_path, USER_CASE)])
    assert len(loaded) == len(everything) + 1
    assert [c.id for c in loaded[:-1]] == [c.id for c in everything]
    mine = loaded[-1]
    assert (mine.id, mine.family, mine.tags) == ("my-small-circle", "circle", ("mine",))
    assert mine.params["start"] == (20, 10) and mine.params["direction"] == "ccw"
    assert mine.thresholds == {"max_gaps": 2}
    assert mine.source == str(tmp_path / "mine.toml")


def test_user_file_can_hold_a_matrix(tmp_path):
    path = _write(
        tmp_path,
        """
[[matrix]]
id = "small-start{angle:03d}-{direction}"
family = "circle"
center = [20, 20]
radius = 10
angles = [0, 90]
directions = ["cw", "ccw"]
""",
    )
    loaded = load_cases([path], builtin=False)
    assert [c.id for c in loaded] == [
        "small-start000-cw",
        "small-start000-ccw",
        "small-start090-cw",
        "small-start090-ccw",
    ]
    assert loaded[0].params["start"] == (30, 20) and loaded[2].params["start"] == (20, 30)


def test_user_case_asking_a_builtin_question_is_an_error_naming_both(tmp_path):
    """It was dropped without a word, its own thresholds with it: a file redefining a built-in
    case with looser thresholds seemed to apply them (red-team m7)."""
    path = _write(
        tmp_path,
        USER_CASE.replace("my-small-circle", "my-seed-twin")
        .replace("[20, 20]", "[25, 25]")
        .replace("[20, 10]", "[46, 13]")
        .replace('"ccw"', '"cw"'),
    )
    with pytest.raises(CaseError, match=r"case my-seed-twin asks the same question as .* \(builtin:circle.toml\)"):
        load_cases([path])


def test_user_case_with_its_own_prompt_text_asks_that_text(tmp_path):
    path = _write(tmp_path, USER_CASE.replace('tags = ["mine"]', 'prompt = "Нарисуй круг."'))
    case = load_cases([path], builtin=False)[0]
    assert case.prompt("ru") == case.prompt("en") == "Нарисуй круг."


# --- errors name the file and the case --------------------------------------------------------------


def _error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(CaseError) as info:
        load_cases([path], builtin=False)
    return str(info.value)


def test_unknown_family_error_names_the_file_the_case_and_the_known_families(tmp_path):
    message = _error(tmp_path, USER_CASE.replace('family = "circle"', 'family = "hexagon"'))
    assert str(tmp_path / "mine.toml") in message
    assert "my-small-circle" in message
    assert "'hexagon'" in message and "circle" in message


def test_missing_family_is_an_unknown_family_error_naming_the_case(tmp_path):
    message = _error(tmp_path, USER_CASE.replace('family = "circle"\n', ""))
    assert "mine.toml" in message and "my-small-circle" in message and "family" in message


@pytest.mark.parametrize("bad_id", ["My Circle", "../escape", "", "-leading-dash", "a/b", "x" * 101])
def test_bad_id_error_names_the_file_and_the_id(tmp_path, bad_id):
    message = _error(tmp_path, USER_CASE.replace('"my-small-circle"', f'"{bad_id}"'))
    assert "mine.toml" in message
    assert repr(bad_id) in message


def test_missing_id_error_names_the_file(tmp_path):
    message = _error(tmp_path, USER_CASE.replace('id = "my-small-circle"\n', ""))
    assert "mine.toml" in message and "case id None" in message


def test_missing_start_error_names_the_file_the_case_and_the_key(tmp_path):
    message = _error(tmp_path, USER_CASE.replace("start = [20, 10]\n", ""))
    assert "mine.toml" in message and "my-small-circle" in message
    assert "'start' is required" in message


@pytest.mark.parametrize(
    "line, expected",
    [
        ("start = [20, 10]", "'start' must be [x, y]"),
        ('direction = "ccw"', "'direction' must be 'cw' or 'ccw'"),
        ("center = [20, 20]", "outside the 50×50 grid"),
    ],
)
def test_malformed_parameter_error_names_the_file_the_case_and_the_problem(tmp_path, line, expected):
    broken = {"start": 'start = "top"', "direction": 'direction = "up"', "center": "center = [20, 60]"}
    text = USER_CASE.replace(line, broken[line.split(" ")[0]])
    message = _error(tmp_path, text)
    assert "mine.toml" in message and "my-small-circle" in message and expected in message


def test_duplicate_id_error_names_both_files(tmp_path):
    first = _write(tmp_path, USER_CASE, "first.toml")
    second = _write(tmp_path, USER_CASE.replace("[20, 10]", "[20, 12]"), "second.toml")
    with pytest.raises(CaseError) as info:
        load_cases([first, second], builtin=False)
    message = str(info.value)
    assert "my-small-circle" in message and "first.toml" in message and "second.toml" in message


def test_duplicate_of_a_builtin_id_error_names_the_builtin_file(tmp_path):
    path = _write(tmp_path, USER_CASE.replace("my-small-circle", "seed1-circle-start270-cw"))
    with pytest.raises(CaseError, match=r"seed1-circle-start270-cw is already defined in builtin:circle\.toml"):
        load_cases([path])


def test_unreadable_toml_error_names_the_file(tmp_path):
    message = _error(tmp_path, "[[case]\nid = ")
    assert str(tmp_path / "mine.toml") in message and "could not be read" in message


def test_missing_case_file_error_names_the_file(tmp_path):
    with pytest.raises(CaseError, match=re.escape(str(tmp_path / "nope.toml")) + " does not exist"):
        load_cases([tmp_path / "nope.toml"], builtin=False)


def test_single_bracket_case_table_is_an_error_naming_the_file(tmp_path):
    message = _error(tmp_path, USER_CASE.replace("[[case]]", "[case]").replace("[case.thresholds]\nmax_gaps = 2\n", ""))
    assert "mine.toml" in message and "[[case]]" in message


def test_matrix_without_radius_error_names_the_file_and_the_template(tmp_path):
    message = _error(
        tmp_path,
        """
[[matrix]]
id = "m-{angle}-{direction}"
family = "circle"
center = [20, 20]
angles = [0]
""",
    )
    assert "mine.toml" in message and "m-{angle}-{direction}" in message and "radius" in message


# --- CaseIndex -------------------------------------------------------------------------------------


def test_case_index_finds_the_case_by_either_language(everything):
    index = CaseIndex(everything)
    for case in everything:
        assert index.find(case.prompt("ru")) is case
        assert index.find(case.prompt("en")) is case


def test_case_index_finds_a_seed_case_from_the_seed_text(everything):
    assert CaseIndex(everything).find(SEED_CIRCLE_PROMPTS[3]).id == SEED_IDS[3]


def test_case_index_returns_none_for_an_unknown_prompt(everything):
    assert CaseIndex(everything).find("Нарисуй, пожалуйста, слона.") is None


def test_case_index_knows_only_the_cases_it_was_given(tmp_path):
    mine = load_cases([_write(tmp_path, USER_CASE)], builtin=False)[0]
    index = CaseIndex([mine])
    assert index.find(mine.prompt()) is mine
    assert index.find(SEED_CIRCLE_PROMPTS[1]) is None
    index.add(builtin_cases())
    assert index.find(SEED_CIRCLE_PROMPTS[1]).id == SEED_IDS[1]


def test_loading_cases_indexes_nothing_behind_the_callers_back(tmp_path):
    from shape_asserts.asking.reference import case_for_prompt

    mine = load_cases([_write(tmp_path, USER_CASE.replace("[20, 10]", "[20, 13]"))], builtin=False)[0]
    assert case_for_prompt(mine.prompt()) is None


def test_builtin_cases_are_loaded_once_and_match_a_fresh_load(everything):
    assert builtin_cases() is builtin_cases()
    assert [c.id for c in builtin_cases()] == [c.id for c in everything]


# --- unknown or ill-typed keys are errors at load, naming the file, the case and the key ------------


def test_a_misspelt_parameter_is_an_error_naming_the_file_the_case_and_the_key(tmp_path):
    # before: 'radus' loaded fine and the circle's radius silently came from the start point
    message = _error(tmp_path, USER_CASE.replace('direction = "ccw"', 'direction = "ccw"\nradus = 8'))
    assert "mine.toml" in message and "my-small-circle" in message
    assert "unknown parameter 'radus' for the circle family" in message
    assert "did you mean 'radius'?" in message


def test_a_misspelt_parameter_of_another_family_is_an_error_too(tmp_path):
    message = _error(
        tmp_path,
        """
[[case]]
id = "my-square"
family = "square"
center = [25, 25]
side = 20
start_vertx = 0
direction = "cw"
""",
    )
    assert "my-square" in message and "'start_vertx'" in message and "did you mean 'start_vertex'?" in message


def test_a_misspelt_parameter_in_a_vary_matrix_names_the_generated_case(tmp_path):
    message = _error(
        tmp_path,
        """
[[matrix]]
id = "my-sq-{side}"
family = "square"
center = [25, 25]
start_vertex = 0
direction = "cw"
vary = { side = [10, 20], rotaton = [0] }
""",
    )
    assert "mine.toml" in message and "my-sq-10" in message and "'rotaton'" in message


def test_every_builtin_parameter_is_one_its_family_reads(everything):
    # the check above must not reject the shipped cases (they loaded: `everything` exists)
    assert len(everything) > 100


def test_an_ill_typed_parameter_is_an_error_naming_the_key(tmp_path):
    message = _error(tmp_path, USER_CASE.replace('direction = "ccw"', 'direction = "ccw"\nradius = "big"'))
    assert "mine.toml" in message and "my-small-circle" in message and "'radius' must be a number" in message


@pytest.mark.parametrize(
    "prompt, expected",
    [
        ('{ ru = "Нарисуй круг.", de = "Zeichne einen Kreis." }', "unknown prompt language 'de'; known: ru, en"),
        ("{ ru = 5 }", "prompt.ru must be the prompt's text, got 5"),
        ('{ en = "" }', "prompt.en must be the prompt's text"),
        ("{}", "'prompt' is an empty table"),
        ("42", "'prompt' must be a text, 'seed:circle-N' or a table of ru/en texts, got 42"),
        ('["Нарисуй круг."]', "'prompt' must be a text"),
        ('"  "', "'prompt' is empty"),
        ('"seed:circle-9"', "prompt 'seed:circle-9' names no seed prompt; known: seed:circle-1"),
    ],
)
def test_a_bad_prompt_is_an_error_naming_the_file_the_case_and_the_key(tmp_path, prompt, expected):
    # before: a number or a list was ignored (the family's prompt was asked instead), 'de' was
    # dropped, 5 became "5", and seed:circle-9 failed with a KeyError when the prompt was asked
    message = _error(tmp_path, USER_CASE.replace('tags = ["mine"]', f"prompt = {prompt}"))
    assert "mine.toml" in message and "my-small-circle" in message and expected in message


def test_a_prompt_table_may_give_one_language(tmp_path):
    case = load_cases(
        [_write(tmp_path, USER_CASE.replace('tags = ["mine"]', 'prompt = { en = "Draw a circle." }'))], builtin=False
    )[0]
    assert dict(case.prompts) == {"en": "Draw a circle."}


def test_a_seed_prompt_for_a_family_that_does_not_ask_it_is_an_error(tmp_path):
    message = _error(
        tmp_path,
        """
[[case]]
id = "my-square"
family = "square"
center = [25, 25]
side = 20
start_vertex = 0
direction = "cw"
prompt = "seed:circle-1"
""",
    )
    assert "my-square" in message and "'seed:circle-1'" in message and "square family does not ask" in message


def test_thresholds_for_a_family_without_any_are_an_error(tmp_path, monkeypatch):
    from dataclasses import replace

    from shape_asserts.cases import load
    from shape_asserts.families.registry import get_family

    bare = replace(get_family("circle"), thresholds=None)
    monkeypatch.setattr(load, "get_family", lambda name: bare)
    message = _error(tmp_path, USER_CASE)
    assert "my-small-circle" in message and "no thresholds to override" in message and "'max_gaps'" in message


def test_tags_must_be_a_list(tmp_path):
    message = _error(tmp_path, USER_CASE.replace('tags = ["mine"]', 'tags = "mine"'))
    assert "my-small-circle" in message and "'tags' must be a list" in message


@pytest.mark.parametrize(
    "line, expected",
    [
        ('center = "middle"', "'center' must be [x, y] finite numbers"),
        ('radius = "ten"', "'radius' must be a finite number"),
        ('angles = ["north"]', "'angles' must be a list of numbers"),
        # (seventh sweep: a traceback, the start points placed on a circle of radius inf or nan)
        ("radius = inf", "'radius' must be a finite number, got inf"),
        ("radius = nan", "'radius' must be a finite number, got nan"),
        ("center = [inf, 20]", "'center' must be [x, y] finite numbers"),
        ("angles = [0, nan]", "'angles' must be a list of numbers"),
    ],
)
def test_an_ill_typed_circle_matrix_key_names_the_file_the_template_and_the_key(tmp_path, line, expected):
    text = """
[[matrix]]
id = "m-{angle}-{direction}"
family = "circle"
center = [20, 20]
radius = 10
angles = [0]
"""
    key = line.split(" ")[0]
    text = "\n".join(line if row.startswith(key + " ") else row for row in text.splitlines())
    message = _error(tmp_path, text)
    assert "mine.toml" in message and "m-{angle}-{direction}" in message and expected in message


@pytest.mark.parametrize("table", ["cases", "matrices", "defaults"])
def test_an_unknown_table_is_an_error_naming_the_file_and_the_closest_table(tmp_path, table):
    """A misspelt ``[[cases]]`` loaded as no case at all, without a word."""
    message = _error(
        tmp_path, USER_CASE.replace("[[case]]", f"[[{table}]]").replace("[case.thresholds]", f"[{table}.thresholds]")
    )
    assert "mine.toml" in message and f"unknown table or key {table!r}" in message
    if table != "defaults":
        assert "did you mean [[" in message


def test_a_case_file_that_is_no_regular_file_is_refused_unread(tmp_path):
    """A pipe waited for a writer for ever; ``/dev/zero`` (or a link to it) ate memory until killed."""
    import os

    fifo = tmp_path / "cases.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    for path in (fifo, link, tmp_path):
        with pytest.raises(CaseError, match="could not be read: it is not a regular file"):
            load_cases([path], builtin=False)


def test_a_case_file_over_the_bound_is_refused(tmp_path, monkeypatch):
    from shape_asserts.cases import load

    monkeypatch.setattr(load, "MAX_CASE_FILE_BYTES", 100)
    path = _write(tmp_path, USER_CASE + "\n# " + "x" * 200 + "\n")
    with pytest.raises(CaseError, match="larger than the 100 bytes"):
        load_cases([path], builtin=False)


@pytest.mark.parametrize(
    "lines, says",
    [
        ("center = [25, 25]\nradius = 2\nstart = [27, 25]", "'radius' must be a number ≥ 3"),
        ("center = [25, 25]\nradius = 2.5\nstart = [25, 22]", "'radius' must be a number ≥ 3"),
        ("center = [25, 25]\nstart = [25, 23]", "'start' (25, 23) is 2.00 cells from 'center' (25, 25)"),
        ("center = [25, 25]\nstart = [27, 27]", "is 2.83 cells from 'center'"),
    ],
)
def test_a_circle_smaller_than_the_grid_can_tell_from_a_diamond_is_refused(tmp_path, lines, says):
    """The ``radius`` check asks a fitted radius of 2.4 (the least a case asks, 3, less the grid's
    tolerance): a case of radius 2 could not be passed by any drawing, however fair."""
    message = _error(tmp_path, f'[[case]]\nid = "tiny"\nfamily = "circle"\ndirection = "cw"\n{lines}\n')
    assert says in message and "too few cells" in message


@pytest.mark.parametrize("radius", ["51", "1e9"])
def test_a_circle_wider_than_the_grid_is_refused(tmp_path, radius):
    """Seventh sweep: radius 1e9 loaded, and the first failure built its ideal circle pixel by pixel
    (hours, and memory until the machine ran out)."""
    lines = f"center = [25, 25]\nradius = {radius}\nstart = [25, 5]"
    message = _error(tmp_path, f'[[case]]\nid = "huge"\nfamily = "circle"\ndirection = "cw"\n{lines}\n')
    assert "huge" in message and "'radius' must be at most the grid's side, 50" in message


def test_a_case_whose_exact_drawing_no_answer_may_hold_is_refused(tmp_path):
    """Red-team sweep 48: a spiral of ten turns on a grid of 1,000 loaded, and its exact drawing
    (12,747 points) was more than an answer may hold: the exact reference drawer failed it."""
    lines = 'grid_size = 1000\ncenter = [500, 500]\nturns = 10\nspacing = 45\nangle = 0\ndirection = "cw"'
    message = _error(tmp_path, f'[[case]]\nid = "big-spiral"\nfamily = "spiral"\n{lines}\n')
    assert "big-spiral" in message and "its exact drawing has 12,747 points" in message and "10,000" in message


def test_a_circle_of_the_least_radius_loads(tmp_path):
    path = _write(
        tmp_path, '[[case]]\nid = "r3"\nfamily = "circle"\ndirection = "cw"\ncenter = [25, 25]\nstart = [25, 22]\n'
    )
    assert [c.id for c in load_cases([path], builtin=False)] == ["r3"]


def test_a_refusal_near_its_limit_shows_the_value_below_it(tmp_path):
    """A triangle's smallest angle of 14.6° was shown as "15°; at least 15° is needed"."""
    message = _error(
        tmp_path,
        '[[case]]\nid = "thin"\nfamily = "triangle"\ndirection = "cw"\nvertices = [[2, 10], [47, 10], [24, 16]]\n',
    )
    assert "smallest angle 14.6°; at least 15° is needed" in message
