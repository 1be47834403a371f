"""Calibrate the multi-contour families (concentric, circles, house, stick) against the reference drawers.

For every built-in case of those families: the ideal drawing (``reference/exact``) must pass, and
the noisy drawer (``reference/noisy``: jitter, a skipped run, a missed start, a doubled point) must
fail where its defects matter. Prints, per family, the ideal score's min and median, how many noisy
samples pass, and which checks the failing ones fail; then, per family, a few targeted defects
(a part left out, the scene upside down, ...) and whether each is caught.

    .venv/bin/python bench/calibrate_scenes.py [--samples N]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter, defaultdict

import numpy as np

from shape_asserts.asking.reference import draw
from shape_asserts.cases import load_cases
from shape_asserts.families.scene import house_reference, stick_reference
from shape_asserts.geometry.contours import split_contours
from shape_asserts.geometry.drawing import Drawing
from shape_asserts.geometry.raster import raster_circle, raster_polyline

FAMILIES = ("concentric", "circles", "house", "stick")


def _line(vertices) -> np.ndarray:
    """An open stroke through ``vertices`` (the ideal raster of a polyline)."""
    return raster_polyline(vertices, closed=False)


def _score(case, pts):
    return case.score(Drawing.from_points(np.asarray(pts)))


def _defects(case):
    """Named targeted defects of the ideal drawing for one case."""
    ideal = np.asarray(case.ideal())
    parts = [c.points for c in split_contours(ideal)]
    out = {}
    if case.family in ("concentric", "circles"):
        out["one circle left out"] = np.vstack(parts[:-1])
        joined = [parts[0]]
        for prev, nxt in zip(parts, parts[1:]):
            joined += [_line([prev[-1], nxt[0]])[1:-1], nxt]
        out["drawn in one stroke (pen never lifted)"] = np.vstack(joined)
        shifted = [parts[0], parts[1] + np.array([parts[0][:, 0].max() - parts[1][:, 0].min(), 0])] + parts[2:]
        out["two circles overlapping"] = np.vstack(shifted)
    if case.family == "concentric":
        out["order reversed"] = np.vstack(parts[::-1])
        out["every circle reversed"] = np.vstack([p[::-1] for p in parts])
    if case.family == "house":
        area = case.params.get("area")
        walls, roof, chimney = house_reference(area) if area else house_reference()
        out["no chimney"] = np.vstack([walls, roof])
        out["no roof"] = np.vstack([walls, chimney])
        out["upside down"] = np.column_stack([ideal[:, 0], ideal[:, 1].max() + ideal[:, 1].min() - ideal[:, 1]])
    if case.family == "stick":
        out["upside down"] = np.column_stack([ideal[:, 0], ideal[:, 1].max() + ideal[:, 1].min() - ideal[:, 1]])
        area = case.params.get("area")
        head, torso, arms, legs = stick_reference(area) if area else stick_reference()
        out["no legs"] = np.vstack([head, torso, arms])
        out["head open (half circle)"] = np.vstack([head[: len(head) // 2], torso, arms, legs])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=5, help="noisy samples per case (default 5)")
    args = ap.parse_args()
    cases = [c for c in load_cases() if c.family in FAMILIES]
    by_family = defaultdict(list)
    for c in cases:
        by_family[c.family].append(c)

    print(
        f"{'family':<11} {'cases':>5} {'ideal min':>9} {'ideal med':>9} {'ideal pass':>10} "
        f"{'noisy pass':>11} {'noisy s0':>9}  noisy failing checks (samples)"
    )
    for fam in FAMILIES:
        fc = by_family[fam]
        ideal = [_score(c, c.ideal()) for c in fc]
        failing: Counter[str] = Counter()
        passed = total = passed0 = 0
        for c in fc:
            for s in range(args.samples):
                r = _score(c, draw(c, "noisy", s))
                total += 1
                passed += r.passed
                passed0 += r.passed and s == 0
                failing.update({ch.name for ch in r.failed})
        scores = [r.score for r in ideal]
        print(
            f"{fam:<11} {len(fc):>5} {min(scores):>9.2f} {statistics.median(scores):>9.2f} "
            f"{sum(r.passed for r in ideal):>4}/{len(fc):<5} {passed:>4}/{total:<6} {passed0:>3}/{len(fc):<5} "
            + ", ".join(f"{k} {v}" for k, v in failing.most_common())
        )
        bad = [(c.id, [ch.describe() for ch in r.failed]) for c, r in zip(fc, ideal) if not r.passed]
        for cid, why in bad:
            print(f"    IDEAL FAILS {cid}: {why}")

    print("\ntargeted defects (caught = at least one check fails; the checks that fail)")
    for fam in FAMILIES:
        seen: dict[str, tuple[int, int, Counter]] = {}
        for c in by_family[fam]:
            for name, pts in _defects(c).items():
                r = _score(c, pts)
                caught, n, checks = seen.get(name, (0, 0, Counter()))
                checks.update(ch.name for ch in r.failed)
                seen[name] = (caught + (not r.passed), n + 1, checks)
        for name, (caught, n, checks) in seen.items():
            print(
                f"  {fam:<11} {name:<40} caught {caught}/{n}  "
                + ", ".join(f"{k} {v}" for k, v in checks.most_common(5))
            )
    _likeness_probes()


def _likeness_probes() -> None:
    """Where ``likeness`` puts honest variants and non-houses (calibrates ``min_likeness``)."""
    cases = {c.id: c for c in load_cases() if c.id in ("house-iso-1", "stick-1")}
    house, stick = cases["house-iso-1"], cases["stick-1"]
    ideal = np.asarray(house.ideal())
    mid_x = ideal[:, 0].max() + ideal[:, 0].min()
    rng = np.random.default_rng(0)
    walk = np.cumsum(rng.integers(-1, 2, size=(200, 2)), axis=0) + 25
    front = np.vstack(
        [
            _line([(12, 44), (12, 24), (38, 24), (38, 44), (12, 44)])[:-1],
            _line([(10, 24), (25, 8), (40, 24)]),
            _line([(31, 16), (31, 9), (35, 9), (35, 20)]),
        ]
    )
    head, torso, legs = raster_circle((25, 10), 5), _line([(25, 16), (25, 30)]), _line([(17, 45), (25, 30), (33, 45)])
    probes = [
        (house, "house mirrored left-right", np.column_stack([mid_x - ideal[:, 0], ideal[:, 1]])),
        (house, "house squashed to 3/4 width", np.column_stack([np.rint(25 + (ideal[:, 0] - 25) * 0.75), ideal[:, 1]])),
        (house, "house in front view", front),
        (house, "random walk", walk),
        (house, "one big circle", raster_circle((25, 25), 18)),
        (stick, "stick, arms straight out", np.vstack([head, torso, _line([(15, 20), (35, 20)]), legs])),
        (stick, "stick, arms raised", np.vstack([head, torso, _line([(15, 12), (25, 20), (35, 12)]), legs])),
        (stick, "the reference house", ideal),
        (stick, "one big circle", raster_circle((25, 25), 18)),
    ]
    print("\nlikeness of variants (min_likeness passes at ≥ the threshold; other failing checks listed)")
    for case, name, pts in probes:
        r = _score(case, pts)
        print(
            f"  {case.id:<12} {name:<30} likeness {r.score:6.1f}  failing: "
            + (", ".join(c.name for c in r.failed) or "none")
        )


if __name__ == "__main__":
    main()
