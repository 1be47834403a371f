"""The geometry library: pure numpy, no I/O, each primitive written once.

In the order a drawing meets them:

- ``drawing`` — a model's answer text → :class:`~shape_asserts.geometry.drawing.Drawing` (points);
- ``points`` — the array types and the one shape guard; ``distances`` — Chebyshev, segment,
  polyline, nearest-point and Chamfer distances; ``simplify`` — Ramer–Douglas–Peucker corners
  and edges; ``contours`` — an answer split into the strokes it draws;
- ``checks`` — path measures (continuity, bounds, area, direction, winding); ``fit`` — fitted
  models behind one protocol (circle, ellipse, spiral, polygon); ``seed`` — the seed post's PHP
  circle score, ported exactly;
- ``score`` and ``scorecard`` — the :class:`~shape_asserts.geometry.score.Check` and
  :class:`~shape_asserts.geometry.score.ShapeScore` a scorer returns, built with a
  :class:`~shape_asserts.geometry.scorecard.Scorecard`;
- ``samples`` and ``raster`` — the asked curves sampled, and the ideal drawings as grid cells.
"""
