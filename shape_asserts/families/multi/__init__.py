"""Several circles in one answer: nested (``concentric``) and side by side (``circles``).

The seed's author drew both after the single circle ("вложенные круги, несколько маленьких
кругов"). Both are asked with the seed's free-scene template (``prompts.scene_prompt``), whose
rules fit them exactly: each object a contour in drawing order, objects not intersecting, all
points in one list. The description filled into the template states the centers, radii, order,
start side and direction.

Scoring (``scorer.py``) splits the answer into contours at pen lifts
(:func:`shape_asserts.geometry.contours.split_contours`, whose docstring says how a lift is told from
a gap), matches contours to the asked circles, scores each matched contour with
:func:`shape_asserts.families.circle.score_circle` and merges those per-circle checks
into one check per name (``roundness`` fails when any circle's roundness does; the detail names
the circle). Family-level checks come on top:

- ``contours``: exactly as many contours as circles asked;
- ``intersections``: no two contours matched to asked circles share a cell or cross diagonally (only
  those: the work stays bounded by the asked count, and extra contours fail ``contours`` anyway);
- ``bounds``: every point on the grid;
- concentric: ``radii`` (each fitted radius within ``max_radius_error`` of the asked one) or, when
  the model chooses the radii, ``spacing`` (neighbouring radii at least the asked spacing apart);
  ``order`` (drawn from the smallest out, or from the largest in, as asked); the per-circle
  ``center`` check is the common-center check;
- circles: ``radii`` as above; matching is by fitted center, so the drawing order is free.

The headline score is the mean of the circles' seed scores (the post's roundness metric, per
contour), a circle not drawn counting 0: comparable with the single-circle family.
"""

from __future__ import annotations

from shape_asserts.families.base import Family
from shape_asserts.families.multi.asked import (
    SIDES,
    concentric_ideal,
    concentric_params,
    concentric_prompt,
    separate_ideal,
    separate_params,
    separate_prompt,
)
from shape_asserts.families.multi.scorer import (
    CIRCLES,
    CirclesThresholds,
    assign,
    concentric_score,
    score_circles,
    separate_score,
)

__all__ = ["CirclesThresholds", "CIRCLES", "CONCENTRIC", "SEPARATE", "FAMILIES", "SIDES", "assign", "score_circles"]

CONCENTRIC = Family(
    name="concentric",
    params=concentric_params,
    prompt=concentric_prompt,
    ideal=concentric_ideal,
    score=concentric_score,
    thresholds=CIRCLES,
    variant_keys=("start", "direction"),
)
SEPARATE = Family(
    name="circles",
    params=separate_params,
    prompt=separate_prompt,
    ideal=separate_ideal,
    score=separate_score,
    thresholds=CIRCLES,
    variant_keys=("start", "direction"),
)

#: What this package adds to the registry (every family module exports ``FAMILIES``).
FAMILIES = (CONCENTRIC, SEPARATE)
