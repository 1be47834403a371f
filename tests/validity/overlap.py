"""What the grid cannot tell apart: the impostors allowed to pass, each with the reason.

Three kinds, each stated as a rule rather than lists, so a new impostor is judged by the same rule:

* ``grid-limit`` impostors (the catalogue's own label): every cell within 0.75 of the asked outline,
  or every vertex a fair rounding of the asked one — a fair drawing by the grid's own measure;
* shapes standing in for a circle or an ellipse that keep to the curve as closely as a fair
  raster nearly does: a polygon whose sides bow less than :data:`MAX_SAGITTA` cells from it (the
  sagitta ``R (1 − cos(π/n))`` the catalogue writes in the note), or any impostor whose every cell
  lies within :data:`MAX_STRAY` cells of it (also in the note: a 10 × 5.5 ellipse for 10 × 6). A fair raster's own cells stray up to 0.69
  from the curve (a cell's half-diagonal is 0.71), and a fair drawing from points every 10° or 15°
  joined by straight cells up to 1.05–1.2 (radius 19–24; ``families/single.py``, ``near_tolerance``),
  so such a polygon stays inside the band a fair drawing fills: a 16-gon of radius 24 (bow 0.46), a
  12-gon of radius 16 (0.55) or 24 (0.82), an octagon of radius 9 (0.69) or 12 (0.91), an octagon
  about a 14 × 8 ellipse (cells within 0.86) or about a 20 × 12 one (within 1.14); for an ellipse
  the band is :data:`MAX_ELLIPSE_STRAY` (its tips lie anywhere in the band ``near`` allows);

* impostors for a straight-sided figure (square, rectangle, triangle, polygon, star) whose every
  cell lies within :data:`MAX_POLYGON_STRAY` of the asked sides (the catalogue's note says how
  far): inside the band fair drawings of the exact sides fill.

``bench/calibrate_catalogue.py`` lists every impostor that passes under one of these rules in
``docs/calibration.md``; any other passing impostor is a wrong verdict there and a failure here.
"""

from __future__ import annotations

import re

#: Bow of a polygon's sides (cells) below which it cannot be told from the curve it stands for: a
#: fair drawing from points every 10° joined by straight cells strays as far (issue 29).
MAX_SAGITTA = 0.95
#: Farthest any cell of such a polygon lies from the curve (cells) for it still to be that close:
#: under what a fair drawing from keypoints strays at radius 19–24 (1.2).
MAX_STRAY = 1.15
#: The same for an ellipse, whose axes are read from the asked ellipse stretched to the drawing and
#: whose tips a fair drawing may put anywhere in the band ``near`` holds every cell to (1.25 from
#: a = 11 on; ``families/ellipse.py``, ``EllipseThresholds``): an impostor whose every cell lies
#: within it keeps its tips and sides there too. A 10-gon inscribed in a 20 × 12 ellipse (cells
#: within 1.23, tips cut 0.98), a superellipse p = 2.5 about 20 × 10 (within 1.22), a 9 × 6 ellipse
#: for 10 × 6 (within 1.17) stay inside the band fair drawings from points every 15° fill.
MAX_ELLIPSE_STRAY = 1.25
#: Farthest any cell of an impostor for a straight-sided figure may lie from the asked sides
#: (cells) and still sit inside the band fair drawings fill: points taken along the exact sides,
#: rounded and joined by digital lines, stray 1.05, and a vertex rounded the far way (0.75 in each
#: coordinate) joined by a 4-connected staircase 1.43. A blunt corner (a 5- to 8-gon's, 108° to
#: 135°) moved 2 cells along the outline stays within 1.39, a pentagon 2 cells wider within 1.30,
#: a star whose inner corners turn 11° off its bisectors within 1.23: each corner cell is still a
#: floor or ceiling of its vertex, and the sides bend less than a fair drawing's may.
MAX_POLYGON_STRAY = 1.4
_POLYGON_STRAY = re.compile(r"max\s*([0-9]*\.?[0-9]+) cells off the asked outline")

_SAGITTA = re.compile(r"sagitta[^;]*?[=:]\s*([0-9]*\.?[0-9]+)")
_STRAY = re.compile(r"max distance from the asked outline\s*([0-9]*\.?[0-9]+)")


def overlap_reason(family: str, cls: str, note: str) -> str | None:
    """Why an impostor of ``cls`` (with the catalogue's ``note``) may pass, or None if it may not."""
    if cls.endswith("grid-limit"):
        return "at the grid's limit (the catalogue's own label)"
    if family == "spiral" and cls == "polygonal":
        # a spiral of straight sides, corners on the curve: the same bow rule as a polygon for a circle
        bows = [float(x) for x in _SAGITTA.findall(note)]
        if bows and max(bows) < MAX_SAGITTA:
            return f"a polygonal spiral whose sides bow {max(bows):.2f} cells (< {MAX_SAGITTA:g}) from the curve"
    if family in ("circle", "concentric", "circles", "ellipse"):
        bows = [float(x) for x in _SAGITTA.findall(note)]
        if cls == "ngon" and bows and max(bows) < MAX_SAGITTA:
            return f"a polygon whose sides bow {max(bows):.2f} cells (< {MAX_SAGITTA:g}) from the curve"
        strays = [float(x) for x in _STRAY.findall(note)]
        if strays and max(strays) < MAX_STRAY:
            return f"every cell within {max(strays):.2f} cells (< {MAX_STRAY:g}) of the asked curve"
        if family == "ellipse" and strays and max(strays) < MAX_ELLIPSE_STRAY:
            return f"every cell within {max(strays):.2f} cells (< {MAX_ELLIPSE_STRAY:g}) of the asked ellipse"
    if family in ("square", "rectangle", "triangle", "polygon", "star"):
        strays = [float(x) for x in _POLYGON_STRAY.findall(note)]
        if strays and max(strays) <= MAX_POLYGON_STRAY:
            return f"every cell within {max(strays):.2f} cells (≤ {MAX_POLYGON_STRAY:g}) of the asked sides"
    return None
