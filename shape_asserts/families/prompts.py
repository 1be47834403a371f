"""Prompt texts: the seed post's prompts verbatim, and templates written from them.

The three circle prompts and the free-scene template are copied from the seed post character for
character (tabs included); ``tests/unit/test_prompts.py`` compares them with the post itself when
``shared/seeds`` is present. The circle template reproduces the seed's second and third prompts
exactly when filled with their start points. English renderings (``--lang en``) are translations
written for this project, not part of the seed.
"""

from __future__ import annotations

from shape_asserts.defaults import LANGS
from shape_asserts.geometry.points import Point

__all__ = [
    "SEED_CIRCLE_PROMPTS",
    "SEED_SCENE_TEMPLATE",
    "SCENE_PLACEHOLDER",
    "LANGS",
    "circle_prompt",
    "contour_prompt",
    "fmt_xy",
    "fmt_num",
    "DIRECTION_WORDS",
    "scene_prompt",
]


#: The seed's three circle prompts, verbatim: start (25,1) clockwise; (46,13) clockwise; (4,37)
#: counter-clockwise.
SEED_CIRCLE_PROMPTS: dict[int, str] = {
    1: (
        "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
        "Нужно задать ровную окружность в виде списка точек контура.\n"
        "\n"
        "Используй сетку 50×50 с координатами от 0 до 49.\n"
        "Точка (0,0) — левый верхний угол.\n"
        "Центр окружности находится в точке (25,25).\n"
        "\n"
        "Выбери радиус так, чтобы окружность полностью помещалась в сетке.\n"
        "Указывай только точки контура, без заливки.\n"
        "\n"
        'Начни с верхней точки окружности { "x": 25, "y": 1 } и двигайся по часовой стрелке.\n'
        "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
        "Не используй внешние инструменты или программные расчёты.\n"
        "Ответ должен представлять собой последовательность точек обхода контура.\n"
        "\n"
        "Ответ верни строго в формате JSON:\n"
        "\n"
        "{\n"
        '  "grid_size": 50,\n'
        '  "center": { "x": 25, "y": 25 },\n'
        '  "points": [\n'
        '\t{ "x": 25, "y": 1 },\n'
        '\t{ "x": 26, "y": 1 }\n'
        "  ]\n"
        "}\n"
    ),
    2: (
        "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
        "Нужно задать ровную окружность в виде списка точек контура.\n"
        "\n"
        "Используй сетку 50×50 с координатами от 0 до 49.\n"
        "Точка (0,0) — левый верхний угол.\n"
        "Центр окружности находится в точке (25,25).\n"
        "\n"
        "Выбери радиус так, чтобы окружность полностью помещалась в сетке.\n"
        "Указывай только точки контура, без заливки.\n"
        "\n"
        'Начни с точки окружности { "x": 46, "y": 13 } и двигайся по часовой стрелке.\n'
        "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
        "Не используй внешние инструменты или программные расчёты.\n"
        "Ответ должен представлять собой последовательность точек обхода контура.\n"
        "\n"
        "Ответ верни строго в формате JSON:\n"
        "\n"
        "{\n"
        '  "grid_size": 50,\n'
        '  "center": { "x": 25, "y": 25 },\n'
        '  "points": [\n'
        '\t{ "x": 46, "y": 13 }\n'
        "  ]\n"
        "}\n"
    ),
    3: (
        "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
        "Нужно задать ровную окружность в виде списка точек контура.\n"
        "\n"
        "Используй сетку 50×50 с координатами от 0 до 49.\n"
        "Точка (0,0) — левый верхний угол.\n"
        "Центр окружности находится в точке (25,25).\n"
        "\n"
        "Выбери радиус так, чтобы окружность полностью помещалась в сетке.\n"
        "Указывай только точки контура, без заливки.\n"
        "\n"
        'Начни с точки окружности { "x": 4, "y": 37 } и двигайся против часовой стрелки.\n'
        "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
        "Не используй внешние инструменты или программные расчёты.\n"
        "Ответ должен представлять собой последовательность точек обхода контура.\n"
        "\n"
        "Ответ верни строго в формате JSON:\n"
        "\n"
        "{\n"
        '  "grid_size": 50,\n'
        '  "center": { "x": 25, "y": 25 },\n'
        '  "points": [\n'
        '\t{ "x": 4, "y": 37 }\n'
        "  ]\n"
        "}\n"
    ),
}

#: Where the seed's free-scene template takes the description of the figure or scene.
SCENE_PLACEHOLDER = "[ОПИСАНИЕ ФИГУРЫ ИЛИ СЦЕНЫ]"

#: The seed's free-scene template, verbatim.
SEED_SCENE_TEMPLATE = (
    "Ты не рисуешь изображение, а описываешь фигуры через координаты точек.\n"
    "\n"
    "Нужно изобразить [ОПИСАНИЕ ФИГУРЫ ИЛИ СЦЕНЫ] в виде точек контуров.\n"
    "Это может быть один объект или несколько отдельных объектов.\n"
    "\n"
    "Используй сетку 50×50 с целочисленными координатами от 0 до 49.\n"
    "Точка (0,0) — левый верхний угол.\n"
    "\n"
    "Каждый объект должен быть представлен как последовательность точек его контура.\n"
    "Точки должны идти по порядку обхода, с минимальным шагом, без пропусков.\n"
    "Заливку не используй — только контуры.\n"
    "\n"
    "Если объектов несколько:\n"
    "— располагай их так, чтобы они не пересекались;\n"
    "— все точки выводи в одном общем списке, в порядке рисования объектов.\n"
    "\n"
    "Не используй внешние инструменты или программные расчёты.\n"
    "Ответ должен быть результатом последовательного обхода контуров.\n"
    "\n"
    "Ответ верни строго в формате JSON:\n"
    "\n"
    "{\n"
    '  "grid_size": 50,\n'
    '  "center": { "x": 25, "y": 25 },\n'
    '  "points": [\n'
    '\t{ "x": 25, "y": 5 },\n'
    '\t{ "x": 26, "y": 5 }\n'
    "  ]\n"
    "}\n"
)

_CIRCLE_RU = (
    "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
    "Нужно задать ровную окружность в виде списка точек контура.\n"
    "\n"
    "Используй сетку {g}×{g} с координатами от 0 до {gmax}.\n"
    "Точка (0,0) — левый верхний угол.\n"
    "Центр окружности находится в точке ({cx},{cy}).\n"
    "\n"
    "{radius_line}"
    "Указывай только точки контура, без заливки.\n"
    "\n"
    'Начни с точки окружности {{ "x": {sx}, "y": {sy} }} и двигайся {dir}.\n'
    "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
    "Не используй внешние инструменты или программные расчёты.\n"
    "Ответ должен представлять собой последовательность точек обхода контура.\n"
    "\n"
    "Ответ верни строго в формате JSON:\n"
    "\n"
    "{{\n"
    '  "grid_size": {g},\n'
    '  "center": {{ "x": {cx}, "y": {cy} }},\n'
    '  "points": [\n'
    '\t{{ "x": {sx}, "y": {sy} }}\n'
    "  ]\n"
    "}}\n"
)
_RADIUS_RU_FREE = "Выбери радиус так, чтобы окружность полностью помещалась в сетке.\n"
_RADIUS_RU_FIXED = "Радиус окружности — {r}.\n"
_DIR_RU = {"cw": "по часовой стрелке", "ccw": "против часовой стрелки"}

_CIRCLE_EN = (
    "You are not drawing an image; you are describing a figure through point coordinates.\n"
    "Define an even circle as a list of contour points.\n"
    "\n"
    "Use a {g}×{g} grid with coordinates from 0 to {gmax}.\n"
    "Point (0,0) is the top-left corner.\n"
    "The center of the circle is at point ({cx},{cy}).\n"
    "\n"
    "{radius_line}"
    "Give contour points only, no fill.\n"
    "\n"
    'Start at the circle point {{ "x": {sx}, "y": {sy} }} and move {dir}.\n'
    "The points must go in order, with the minimal step, without gaps.\n"
    "Do not use external tools or programmatic calculations.\n"
    "The answer must be the sequence of points traversing the contour.\n"
    "\n"
    "Return the answer strictly as JSON:\n"
    "\n"
    "{{\n"
    '  "grid_size": {g},\n'
    '  "center": {{ "x": {cx}, "y": {cy} }},\n'
    '  "points": [\n'
    '\t{{ "x": {sx}, "y": {sy} }}\n'
    "  ]\n"
    "}}\n"
)
_RADIUS_EN_FREE = "Choose the radius so that the circle fits entirely in the grid.\n"
_RADIUS_EN_FIXED = "The radius of the circle is {r}.\n"
_DIR_EN = {"cw": "clockwise", "ccw": "counter-clockwise"}


def fmt_num(v: float) -> str:
    """A number as the seed writes it in prose: whole numbers without a point."""
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def circle_prompt(
    *,
    center: Point,
    start: Point,
    direction: str,
    grid_size: int = 50,
    radius: float | None = None,
    lang: str = "ru",
) -> str:
    """The seed's circle prompt for any center, start and direction (radius free unless given)."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, got {lang!r}")
    ru = lang == "ru"
    template = _CIRCLE_RU if ru else _CIRCLE_EN
    if radius is None:
        radius_line = _RADIUS_RU_FREE if ru else _RADIUS_EN_FREE
    else:
        radius_line = (_RADIUS_RU_FIXED if ru else _RADIUS_EN_FIXED).format(r=fmt_num(radius))
    return template.format(
        g=grid_size,
        gmax=grid_size - 1,
        cx=fmt_num(center[0]),
        cy=fmt_num(center[1]),
        sx=fmt_num(start[0]),
        sy=fmt_num(start[1]),
        dir=(_DIR_RU if ru else _DIR_EN)[direction],
        radius_line=radius_line,
    )


_SCENE_EN = (
    "You are not drawing an image; you are describing figures through point coordinates.\n"
    "\n"
    "Depict [DESCRIPTION OF THE FIGURE OR SCENE] as contour points.\n"
    "It may be one object or several separate objects.\n"
    "\n"
    "Use a 50×50 grid with integer coordinates from 0 to 49.\n"
    "Point (0,0) is the top-left corner.\n"
    "\n"
    "Each object must be given as the sequence of its contour points.\n"
    "The points must go in traversal order, with the minimal step, without gaps.\n"
    "Do not use fill, contours only.\n"
    "\n"
    "If there are several objects:\n"
    "— place them so that they do not intersect;\n"
    "— output all points in one common list, in the order the objects are drawn.\n"
    "\n"
    "Do not use external tools or programmatic calculations.\n"
    "The answer must be the result of traversing the contours in sequence.\n"
    "\n"
    "Return the answer strictly as JSON:\n"
    "\n"
    "{\n"
    '  "grid_size": 50,\n'
    '  "center": { "x": 25, "y": 25 },\n'
    '  "points": [\n'
    '\t{ "x": 25, "y": 5 },\n'
    '\t{ "x": 26, "y": 5 }\n'
    "  ]\n"
    "}\n"
)
_SCENE_PLACEHOLDER_EN = "[DESCRIPTION OF THE FIGURE OR SCENE]"


def scene_prompt(description: str, *, lang: str = "ru") -> str:
    """The seed's free-scene template with its description filled in."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, got {lang!r}")
    if lang == "ru":
        return SEED_SCENE_TEMPLATE.replace(SCENE_PLACEHOLDER, description)
    return _SCENE_EN.replace(_SCENE_PLACEHOLDER_EN, description)


# --- one-contour figures (ellipse, polygons, star, spiral): the circle prompt, generalised ---

_CONTOUR_RU = (
    "Ты не рисуешь изображение, а описываешь фигуру через координаты точек.\n"
    "Нужно задать {figure} в виде списка точек {of}.\n"
    "\n"
    "Используй сетку {g}×{g} с координатами от 0 до {gmax}.\n"
    "Точка (0,0) — левый верхний угол.\n"
    "{center_line}"
    "\n"
    "{geometry}"
    "Указывай только точки {of}, без заливки.\n"
    "\n"
    'Начни с {start_at} {{ "x": {sx}, "y": {sy} }} и двигайся {dir}{dir_tail}.\n'
    "{after_start}"
    "Точки должны идти по порядку, с минимальным шагом, без пропусков.\n"
    "Не используй внешние инструменты или программные расчёты.\n"
    "Ответ должен представлять собой последовательность точек обхода {of}.\n"
    "\n"
    "Ответ верни строго в формате JSON:\n"
    "\n"
    "{{\n"
    '  "grid_size": {g},\n'
    '  "center": {{ "x": {cx}, "y": {cy} }},\n'
    '  "points": [\n'
    '\t{{ "x": {sx}, "y": {sy} }}\n'
    "  ]\n"
    "}}\n"
)
_CONTOUR_EN = (
    "You are not drawing an image; you are describing a figure through point coordinates.\n"
    "Define {figure} as a list of {of} points.\n"
    "\n"
    "Use a {g}×{g} grid with coordinates from 0 to {gmax}.\n"
    "Point (0,0) is the top-left corner.\n"
    "{center_line}"
    "\n"
    "{geometry}"
    "Give {of} points only, no fill.\n"
    "\n"
    'Start at {start_at} {{ "x": {sx}, "y": {sy} }} and move {dir}{dir_tail}.\n'
    "{after_start}"
    "The points must go in order, with the minimal step, without gaps.\n"
    "Do not use external tools or programmatic calculations.\n"
    "The answer must be the sequence of points traversing the {of}.\n"
    "\n"
    "Return the answer strictly as JSON:\n"
    "\n"
    "{{\n"
    '  "grid_size": {g},\n'
    '  "center": {{ "x": {cx}, "y": {cy} }},\n'
    '  "points": [\n'
    '\t{{ "x": {sx}, "y": {sy} }}\n'
    "  ]\n"
    "}}\n"
)
#: The way round, as each language says it in a prompt.
DIRECTION_WORDS = {"ru": _DIR_RU, "en": _DIR_EN}
_OF = {"ru": "контура", "en": "contour"}


def fmt_xy(p: Point) -> str:
    """``(x,y)`` as the seed writes points in prose."""
    return f"({fmt_num(p[0])},{fmt_num(p[1])})"


def contour_prompt(
    *,
    lang: str,
    figure: str,
    center_line: str,
    geometry: str,
    start_at: str,
    start: Point,
    direction: str,
    center: Point,
    grid_size: int = 50,
    after_start: str = "",
    dir_tail: str = "",
    of: str | None = None,
) -> str:
    """The seed's circle prompt, generalised: one figure, one contour, a start point and a direction.

    The phrases are given in ``lang`` by the family: ``figure`` ("ровный квадрат"), ``center_line``
    and ``geometry`` (whole lines ending in a newline), ``start_at`` ("вершины квадрата"); ``of``
    names what is traversed ("контура" by default).
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, got {lang!r}")
    return (_CONTOUR_RU if lang == "ru" else _CONTOUR_EN).format(
        figure=figure,
        of=of or _OF[lang],
        g=grid_size,
        gmax=grid_size - 1,
        center_line=center_line,
        geometry=geometry,
        start_at=start_at,
        sx=fmt_num(start[0]),
        sy=fmt_num(start[1]),
        dir=DIRECTION_WORDS[lang][direction],
        dir_tail=dir_tail,
        after_start=after_start,
        cx=fmt_num(center[0]),
        cy=fmt_num(center[1]),
    )
