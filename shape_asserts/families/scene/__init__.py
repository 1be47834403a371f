"""Free scenes from the seed: an isometric wire-frame house with a roof and a chimney, and a stick figure.

Both are asked with the seed's free-scene template (``prompts.SEED_SCENE_TEMPLATE``), the
description filled in ("каркас дома в изометрии с крышей и трубой" is the seed's own wording), and
optionally an area of the grid the drawing should occupy. A free scene has no single right answer,
so the checks are only those that can be stated honestly from the points alone, plus a distance to
a reference drawing made here (:func:`~shape_asserts.families.scene.house.house_reference`,
:func:`~shape_asserts.families.scene.stick.stick_reference`).

The answer is cut into strokes and the strokes into straight edges (``strokes.py``; the regions
its closed loops are found by in ``regions.py``); the checks look at those edges and where they
meet. ``common.py`` holds what both scenes share, ``house.py`` and ``stick.py`` each scene's
thresholds, reference drawing and structural checks (their docstrings list the checks), and
``body.py`` the stick figure's torso and limbs.

Shared checks
    ``bounds``; when the case asks for an area, ``area`` (every point within a cell of it) and
    ``area_fill`` (the drawing spans at least 0.6 of it along its fuller axis); ``fragments`` — the share of points in strokes of
    fewer than ``fragment_cells`` cells: a line drawn with every second or third cell missing falls
    apart into such crumbs, while a few dots of detail (eyes, a door knob) stay under the limit;
    ``likeness`` — similarity to the reference drawing (reported, not gated by default: see below).

``likeness`` is :func:`shape_asserts.geometry.distances.similarity` between the drawing and the reference
after the drawing's bounding box is fitted onto the reference's (uniform scale, proportions kept),
so it measures shape, not placement; ``chamfer_raw`` in the metrics is the distance without that
fit. It is the headline score, for comparing models on one case, but it rewards closeness to *one*
reference design (a long low house, a hip roof, raised arms score lower) and random scribbles
reach the scores of fair drawings, so by default it decides nothing; the structural checks do.

What these checks cannot judge
------------------------------
- Whether it *looks like* a house or a person to a human, or is pleasing: a drawing can pass every
  structural check and still be a poor picture, and a charming drawing in another style (a front
  view, a figure in profile, a figure sitting) fails checks written for this style.
- Continuity inside a stroke: a skipped run of points in the middle of a line looks exactly like a
  pen lift between two objects, and a point written twice like a junction, so neither is caught;
  only a line falling apart into crumbs (``fragments``) is. A stray dot or two is not caught either.
- Occlusion and hidden lines: a wire-frame may or may not show the hidden edges; nothing checks
  which edges should be visible or whether a face is drawn "in front of" another.
- 3-D consistency: the house checks look at edge directions and at where edges meet; they cannot
  tell whether the box is a consistent 3-D box, whether the roof's far side matches its near side,
  or whether the chimney stands on the roof slope or higher up it: a chimney counts as standing
  on the house when it lies in the house's solid piece (loops filled), so one floating with an
  empty cell or more between it and the roof fails, but one lifted within the roof's face looks
  like a chimney further up the slope and passes. A very flat roof
  (pitch under ~13°, whose gable edges run along the ground axes) cannot be told from a flat top.
  Corners must meet within ``corner_tol`` (1.5 cells): a roof drawn detached from the walls, or
  overhanging them, has no edge rising from a wall top and fails. A roof edge left out is seen
  where it opens a roof face to the sky or runs two into one over the eaves: a ridge missing beside
  a chimney that closes the faces there, or an edge behind hidden lines drawn, is not. Anything
  drawn under the house (a ground line, a path) hides the walls' feet. A chimney drawn as a single line is not a box and
  is missed. The roof type is only judged when the description names a gable roof.
- Small heads: at a radius of 3–4 cells a polygon with many sides, or a square with cut corners,
  can lie within a cell of the circle everywhere and pass as round; the head is a circle only as
  far as the grid can show.
- Which stroke is which part: strokes are not labelled, so "wall" means "a vertical edge standing
  on the ground", "roof" means "an off-axis edge rising from a wall top", "chimney" means "two
  level vertical edges close together above the eaves", "torso" means "the line hanging from the
  topmost loop"; a limb is a path of edges leaving the torso, so a bent arm counts once, and so
  does an arm whose hand comes back to the hip; one leg drawn straight on from the torso is told
  from it by the other leg leaving the hip beside it, but both legs drawn straight down (one
  thick line), hands hanging among the legs, or a limb retraced along a slightly different line
  are misjudged. A part with two or more empty cells between it and what it should hang from (a
  head over the torso, a limb off the torso) is detached; one empty cell is a slip. A limb is a
  stub under half the torso (a leg) or under 0.4 of it and half the room the area leaves beside
  the shoulder (an arm): on a small figure four cells is an arm. On a head of radius 3, eyes two
  cells apart, or two cells from where the pen left the head, read as a line with a slip.
- Extra objects (a sun, a door, windows, a hat) are neither required nor penalised, except where
  they change the structures above (a line under a wall's foot, a loop above the head, a third
  edge leaving the torso).
"""

from __future__ import annotations

from shape_asserts.families.base import Family
from shape_asserts.families.scene.common import SceneThresholds, scene_description, scene_prompt_of
from shape_asserts.families.scene.house import (
    HOUSE_AREA,
    HOUSE_THRESHOLDS,
    HouseThresholds,
    house_ideal,
    house_params,
    house_reference,
    house_score,
)
from shape_asserts.families.scene.stick import (
    STICK_AREA,
    STICK_THRESHOLDS,
    StickThresholds,
    stick_ideal,
    stick_params,
    stick_reference,
    stick_score,
)
from shape_asserts.families.scene.strokes import scene_strokes

__all__ = [
    "SceneThresholds",
    "HouseThresholds",
    "StickThresholds",
    "HOUSE_THRESHOLDS",
    "STICK_THRESHOLDS",
    "HOUSE_AREA",
    "STICK_AREA",
    "HOUSE",
    "STICK",
    "FAMILIES",
    "house_reference",
    "stick_reference",
    "scene_description",
    "scene_strokes",
]

HOUSE = Family(
    name="house",
    params=house_params,
    prompt=scene_prompt_of,
    ideal=house_ideal,
    score=house_score,
    variant_keys=("description", "description_en"),
    thresholds=HOUSE_THRESHOLDS,
)
STICK = Family(
    name="stick",
    params=stick_params,
    prompt=scene_prompt_of,
    ideal=stick_ideal,
    score=stick_score,
    variant_keys=("description", "description_en"),
    thresholds=STICK_THRESHOLDS,
)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (HOUSE, STICK)
