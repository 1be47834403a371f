"""prompts: the seed post's prompts are kept verbatim, and the templates reproduce them.

The seed post lives outside the package (``shared/seeds`` next to the repository). It is found by
walking up from this file; the comparisons with it are skipped, with the reason, when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shape_asserts.families.prompts import (
    LANGS,
    SCENE_PLACEHOLDER,
    SEED_CIRCLE_PROMPTS,
    SEED_SCENE_TEMPLATE,
    circle_prompt,
    scene_prompt,
)

SEED_POST_NAME = "000_4b463280096e897b.txt"
PROMPT_FIRST_LINE = "Ты не рисуешь изображение"

#: (start, direction) of the seed's three circle prompts, in the post's order.
SEED_STARTS = {1: ((25, 1), "cw"), 2: ((46, 13), "cw"), 3: ((4, 37), "ccw")}


def _seed_post_path() -> Path | None:
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "seeds" / SEED_POST_NAME
        if candidate.is_file():
            return candidate
    return None


def _prompt_blocks(post: str) -> list[str]:
    """The prompt blocks quoted in the post, each with its common indentation removed.

    A block starts at a line beginning with the prompts' first words and ends at the first line
    that is a lone ``}`` indented like that first line (the end of the JSON example).
    """
    lines = post.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if not stripped.startswith(PROMPT_FIRST_LINE):
            i += 1
            continue
        indent = lines[i][: len(lines[i]) - len(stripped)]
        block = []
        while i < len(lines):
            line = lines[i]
            block.append(line[len(indent) :] if line.startswith(indent) else line.strip())
            i += 1
            if line == indent + "}":
                break
        blocks.append("\n".join(block) + "\n")
    return blocks


def _normalised(text: str) -> str:
    """Each line's whitespace collapsed to single spaces, blank lines at either end dropped."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines())


@pytest.fixture(scope="module")
def seed_blocks() -> list[str]:
    path = _seed_post_path()
    if path is None:
        pytest.skip(f"the seed post shared/seeds/{SEED_POST_NAME} was not found above {Path(__file__).parent}")
    blocks = _prompt_blocks(path.read_text(encoding="utf-8"))
    assert len(blocks) == 4, f"expected 3 circle prompts and the scene template in {path}, found {len(blocks)}"
    return blocks


# --- the seed's own text --------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_seed_circle_prompt_equals_the_post_with_whitespace_normalised(seed_blocks, number):
    assert _normalised(SEED_CIRCLE_PROMPTS[number]) == _normalised(seed_blocks[number - 1])


def test_seed_scene_template_equals_the_post_with_whitespace_normalised(seed_blocks):
    assert _normalised(SEED_SCENE_TEMPLATE) == _normalised(seed_blocks[3])


@pytest.mark.parametrize("number", [1, 2, 3])
def test_seed_circle_prompt_equals_the_post_character_for_character_once_dedented(seed_blocks, number):
    # the module promises tabs included: the example's point lines are tab-indented in the post
    assert SEED_CIRCLE_PROMPTS[number] == seed_blocks[number - 1]


def test_seed_scene_template_equals_the_post_character_for_character_once_dedented(seed_blocks):
    assert seed_blocks[3] == SEED_SCENE_TEMPLATE


def test_seed_circle_prompts_name_their_start_points_and_directions():
    for number, ((x, y), direction) in SEED_STARTS.items():
        text = SEED_CIRCLE_PROMPTS[number]
        assert f'{{ "x": {x}, "y": {y} }}' in text
        assert ("против часовой стрелки" in text) == (direction == "ccw")


def test_scene_template_holds_its_placeholder_once():
    assert SEED_SCENE_TEMPLATE.count(SCENE_PLACEHOLDER) == 1


# --- the templates ----------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [2, 3])
def test_circle_template_reproduces_seed_prompt_exactly(number):
    start, direction = SEED_STARTS[number]
    assert circle_prompt(center=(25, 25), start=start, direction=direction) == SEED_CIRCLE_PROMPTS[number]


def test_circle_template_differs_from_seed_prompt_one_only_where_the_post_did():
    # the first prompt says "the top point" and shows two example points; the later ones do not
    made = circle_prompt(center=(25, 25), start=(25, 1), direction="cw")
    assert made != SEED_CIRCLE_PROMPTS[1]
    assert made.replace("с точки", "с верхней точки") == SEED_CIRCLE_PROMPTS[1].replace(
        '\t{ "x": 25, "y": 1 },\n\t{ "x": 26, "y": 1 }\n', '\t{ "x": 25, "y": 1 }\n'
    )


def test_circle_template_writes_whole_numbers_without_a_decimal_point():
    text = circle_prompt(center=(25.0, 25.0), start=(46.0, 13.0), direction="cw")
    assert text == SEED_CIRCLE_PROMPTS[2]


def test_circle_template_states_a_fixed_radius_instead_of_the_free_one():
    free = circle_prompt(center=(25, 25), start=(25, 5), direction="cw")
    fixed = circle_prompt(center=(25, 25), start=(25, 5), direction="cw", radius=20)
    assert "Выбери радиус" in free and "Выбери радиус" not in fixed
    assert "Радиус окружности — 20." in fixed


def test_circle_template_follows_the_grid_size():
    text = circle_prompt(center=(10, 10), start=(10, 2), direction="cw", grid_size=21)
    assert "сетку 21×21 с координатами от 0 до 20" in text
    assert '"grid_size": 21' in text


def test_scene_prompt_fills_the_seed_template():
    text = scene_prompt("домик с трубой")
    assert text == SEED_SCENE_TEMPLATE.replace(SCENE_PLACEHOLDER, "домик с трубой")
    assert SCENE_PLACEHOLDER not in text


# --- English renderings -----------------------------------------------------------------------------


def test_english_is_one_of_the_languages():
    assert set(LANGS) == {"ru", "en"}


@pytest.mark.parametrize("direction, words", [("cw", "clockwise"), ("ccw", "counter-clockwise")])
def test_english_circle_prompt_exists_and_differs_from_russian(direction, words):
    en = circle_prompt(center=(25, 25), start=(46, 13), direction=direction, lang="en")
    ru = circle_prompt(center=(25, 25), start=(46, 13), direction=direction, lang="ru")
    assert en != ru
    assert f"move {words}." in en
    assert '{ "x": 46, "y": 13 }' in en
    assert not any("а" <= ch <= "я" for ch in en.lower()), "the English prompt contains Cyrillic"


def test_english_scene_prompt_exists_and_differs_from_russian():
    en = scene_prompt("a house", lang="en")
    assert en != scene_prompt("a house", lang="ru")
    assert "Depict a house as contour points." in en


@pytest.mark.parametrize(
    "make",
    [
        lambda: circle_prompt(center=(25, 25), start=(25, 1), direction="cw", lang="de"),
        lambda: scene_prompt("x", lang="de"),
    ],
)
def test_unknown_language_is_a_value_error_naming_the_known_ones(make):
    with pytest.raises(ValueError, match="ru, en"):
        make()
