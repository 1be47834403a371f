"""Free scenes from the seed: an isometric wire-frame house with a roof and a chimney, and a stick figure.

Both are asked with the seed's free-scene template (``prompts.SEED_SCENE_TEMPLATE``), the
description filled in ("каркас дома в изометрии с крышей и трубой" is the seed's own wording), and
optionally an area of the grid the drawing should occupy. A free scene has no single right answer,
so the checks are only those that can be stated honestly from the points alone, plus a distance to
a reference drawing made here (:func:`house_reference`, :func:`stick_reference`).

Strokes
-------
The template asks for every object "in one common list, in the order the objects are drawn", so a
jump between two points may be a pen lift between objects, and a point written twice in a row may
be a stroke that begins on the cell where the previous one ended (a junction). Neither is a defect
in a scene, so the answer is cut into *strokes* (:func:`scene_strokes`) at every step that is not
to an 8-neighbour and at every repeated point, and a finished loop that runs on (a head continued
into the torso) is cut where it comes closest to its start (after rule 3 of
``shape_asserts.geometry.contours``). Each stroke is simplified to straight edges (Ramer–Douglas–Peucker,
1 cell), after cutting it where it turns straight back on itself (a retraced limb or edge); the
checks look at those edges and where they meet.

Shared checks
    ``bounds`` (and ``area`` when one was asked); ``fragments`` — the share of points in strokes of
    fewer than ``fragment_cells`` cells: a line drawn with every second or third cell missing falls
    apart into such crumbs, while a few dots of detail (eyes, a door knob) stay under the limit;
    ``likeness`` — similarity to the reference drawing (reported, not gated by default: see below).
House (isometric: vertical edges and ground lines rising at 20–36°, i.e. the 2:1 pixel
isometric 26.6° or the true 30°)
    ``iso_axes`` — edges run along all three isometric axes; ``iso_share`` — most of the edge length
    does. The edges are then cut at corners: where two or more other edges end on a line (a wall
    edge drawn straight on into a roof edge). ``walls`` — at least three vertical edges *stand on
    the ground* (nothing is drawn below their foot): a box seen in isometric view always shows its
    left, front and right corner edges, a front view or a bare outline shows two;
    ``roof_above_walls`` — an edge that is neither a wall nor along a ground axis (vertical allowed)
    leaves the top of a wall edge and rises above it, within the walls' width: a gable or hip edge
    (a flat top has only eave lines there; a roof set beside or below the walls starts from no wall
    top); ``gable`` — only when the description asks for a gable roof ("gable", "двускат"): a roof
    edge and another edge from the neighbouring wall top meet in a peak above the middle third of
    that wall face (a gable end stands in the face; a hip roof's end leans back, its peak above the
    corner); ``chimney`` — two vertical edges side by side (at most half the walls' width apart),
    their tops level (a small box), standing above the eave line (the line through the wall tops)
    and within the walls' width, neither of them a wall edge nor rising straight from a wall top.
Stick figure
    ``head`` — the topmost closed loop is round: its largest radial harmonic about the fitted
    circle stays within the limits a drawn circle is held to (``CircleThresholds.harmonic_limits``),
    so a square, diamond, triangle or hexagon head fails; ``head_aspect`` — it is as wide as it is
    tall, to the one cell any digital circle allows; ``torso`` — the line hanging from the head (the
    body edge steeper than 45° whose top is nearest the head's bottom, continued by collinear edges)
    is within ``torso_tolerance`` of vertical; ``head_above_torso`` — it starts below the head's
    center and at most ``max_neck`` head radii below the head; ``limbs`` — the edges that leave the
    torso (an edge drawn across it counts on both sides; pieces in one direction from one place
    count once) are exactly one arm on each side from its upper half and one leg on each side from
    its lower half: a missing, extra or misplaced limb fails.

``likeness`` is :func:`shape_asserts.geometry.contours.similarity` between the drawing and the reference
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
  or whether the chimney stands *on* the roof rather than floating just above it. A very flat roof
  (pitch under ~13°, whose gable edges run along the ground axes) cannot be told from a flat top.
  Corners must meet within ``corner_tol`` (1.5 cells): a roof drawn detached from the walls, or
  overhanging them, has no edge rising from a wall top and fails. Anything drawn under the house
  (a ground line, a path) hides the walls' feet. A chimney drawn as a single line is not a box and
  is missed. The roof type is only judged when the description names a gable roof.
- Small heads: at a radius of 3–4 cells a polygon with many sides, or a square with cut corners,
  can lie within a cell of the circle everywhere and pass as round; the head is a circle only as
  far as the grid can show.
- Which stroke is which part: strokes are not labelled, so "wall" means "a vertical edge standing
  on the ground", "roof" means "an off-axis edge rising from a wall top", "chimney" means "two
  level vertical edges close together above the eaves", "torso" means "the line hanging from the
  topmost loop"; limbs are counted by where their edges leave the torso, so a bent arm drawn in two pieces
  counts once, but legs drawn straight down in line with the torso (they continue it), limbs
  attached to nothing, or a limb retraced along a slightly different line are misjudged.
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

HOUSE = Family(name="house", params=house_params, prompt=scene_prompt_of, ideal=house_ideal, score=house_score,
               variant_keys=("description", "description_en"), thresholds=HOUSE_THRESHOLDS)
STICK = Family(name="stick", params=stick_params, prompt=scene_prompt_of, ideal=stick_ideal, score=stick_score,
               variant_keys=("description", "description_en"), thresholds=STICK_THRESHOLDS)

#: What this module adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (HOUSE, STICK)
