"""The scenes' speed-ups give what the forms they replace gave, bit for bit: the healed strokes as
spans of the answer, edges found over spans, join_verticals and the stick's torso chain and limbs
on plain floats, the plain-float segment distance, the rows' runs from one pass, holes and the
off-head lookup given the drawing's extremes, and sketch's own fit to the reference's box with one
search for a drawing the fit leaves where it is. Each old form is kept here as it was."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shape_asserts.families.scene import common, stick
from shape_asserts.families.scene.body import angle_between as _angle_between
from shape_asserts.families.scene.body import limbs as _limbs
from shape_asserts.families.scene.body import torso_chain as _torso_chain
from shape_asserts.families.scene.stick import STICK_THRESHOLDS, _off_cells
from shape_asserts.families.scene.strokes import (
    edges,
    edges_of,
    heal,
    heal_spans,
    holes,
    join_verticals,
    scene_strokes,
    seg_distance,
    seg_distance_xy,
)
from shape_asserts.geometry.contours import fit_to_box
from shape_asserts.geometry.distances import chamfer_distance, nearest_on_segment
from shape_asserts.geometry.simplify import segment_angles

SEEDS = range(40)


def _walk(rng: np.random.Generator, n: int) -> np.ndarray:
    """An 8-connected walk of ``n`` cells with some repeats, jumps of 2–3 cells and retraces."""
    steps = rng.integers(-1, 2, (n - 1, 2))
    steps[rng.random(n - 1) < 0.08] *= 2
    steps[rng.random(n - 1) < 0.04] *= 3
    pts = np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)
    if rng.random() < 0.3:
        pts = pts + rng.choice([0.0, 0.5, -0.25], pts.shape)
    if rng.random() < 0.2:
        pts = np.vstack([pts, pts[::-1][1:]])  # retraced
    return pts


# --- the old forms -------------------------------------------------------------------------------


def _heal_old(strokes: list[np.ndarray], max_step: float) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for s in strokes:
        if out and len(s) and 1 < float(np.max(np.abs(s[0] - out[-1][-1]))) <= max_step:
            out[-1] = np.vstack([out[-1], s])
        else:
            out.append(s)
    return out


def _join_verticals_old(segs, vertical, gap, corner_tol, min_ends):  # type: ignore[no-untyped-def]
    from shape_asserts.families.scene.strokes import ends

    top, bottom = ends(segs)
    others = segs[~vertical].reshape(-1, 2)
    lines = [[top[i].copy(), bottom[i].copy()] for i in vertical.nonzero()[0]]
    merged = True
    while merged:
        merged = False
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                (a0, a1), (b0, b1) = lines[i], lines[j]
                upper, lower = ((a0, a1), (b0, b1)) if a0[1] <= b0[1] else ((b0, b1), (a0, a1))
                if not (abs(upper[1][0] - lower[0][0]) <= 1 and -1 <= lower[0][1] - upper[1][1] <= gap):
                    continue
                joint = (upper[1] + lower[0]) / 2
                if len(others) and int((np.hypot(*(others - joint).T) <= corner_tol).sum()) >= min_ends:
                    continue
                low = upper[1] if upper[1][1] >= lower[1][1] else lower[1]
                lines[i] = [upper[0], low]
                del lines[j]
                merged = True
                break
            if merged:
                break
    rest = segs[~vertical]
    joined = np.array(lines, dtype=float).reshape(-1, 2, 2)
    return np.concatenate([rest, joined]) if len(rest) else joined


def _torso_chain_old(segs, neck, head_x, r, t):  # type: ignore[no-untyped-def]
    from shape_asserts.families.scene.strokes import ends

    if not len(segs):
        return None
    ang, length = segment_angles(segs)
    top, bottom = ends(segs)
    tilt = np.abs(ang - 90.0)
    under = np.abs(top[:, 0] - head_x) <= r
    cand = ((tilt <= t.torso_search) & (length >= t.min_edge) & under).nonzero()[0]
    if not len(cand):
        return None
    dist = np.hypot(*(top[cand] - neck).T)
    i = int(cand[np.lexsort((-length[cand], tilt[cand], np.round(dist, 6)))[0]])
    chain, a, b = {i}, top[i].copy(), bottom[i].copy()
    angles = ang.tolist()
    grew = True
    while grew:
        grew = False
        direction = float(segment_angles(np.array([[a, b]]))[0][0])
        for j in range(len(segs)):
            if j in chain or abs(angles[j] - direction) > t.torso_continue:
                continue
            if (
                float(np.hypot(*(top[j] - b))) <= t.attach_tol
                or max(seg_distance(top[j], a, b)[0], seg_distance(bottom[j], a, b)[0]) <= t.attach_tol
                or float(np.hypot(*(bottom[j] - a))) <= t.attach_tol
            ):
                chain.add(j)
                if bottom[j, 1] > b[1]:
                    b = bottom[j].copy()
                if top[j, 1] < a[1]:
                    a = top[j].copy()
                grew = True
    return a, b, chain


def _limbs_old(segs, chain, a, b, t):  # type: ignore[no-untyped-def]
    end_dist = nearest_on_segment(segs.reshape(-1, 2), a, b)[0].tolist()
    (ax, ay), (bx, by) = a.tolist(), b.tolist()
    ex, ey = bx - ax, by - ay
    pieces = []
    for j, ((px, py), (qx, qy)) in enumerate(segs.tolist()):
        if j in chain:
            continue
        if max(end_dist[2 * j], end_dist[2 * j + 1]) <= t.attach_tol:
            continue
        dx, dy = qx - px, qy - py
        den = dx * ey - dy * ex
        if den != 0:
            s = ((ax - px) * ey - (ay - py) * ex) / den
            u = ((ax - px) * dy - (ay - py) * dx) / den
            x = (px + s * dx, py + s * dy)
            crosses = 0 <= u <= 1 and 0 < s < 1
            if crosses and min(np.hypot(x[0] - px, x[1] - py), np.hypot(x[0] - qx, x[1] - qy)) >= t.min_limb:
                pieces += [(x, (px, py)), (x, (qx, qy))]
                continue
        pieces.append(((px, py), (qx, qy)))
    span = (by - ay) or 1.0
    out = []
    dist: list[float] = []
    along: list[float] = []
    if pieces:
        near_d, near_t = nearest_on_segment(np.array(pieces, dtype=float).reshape(-1, 2), a, b)
        dist, along = near_d.tolist(), near_t.tolist()
    for i, (p, q) in enumerate(pieces):
        if np.hypot(q[0] - p[0], q[1] - p[1]) < t.min_limb:
            continue
        dp, dq = dist[2 * i], dist[2 * i + 1]
        root, tip = (p, q) if dp <= dq else (q, p)
        s = along[2 * i + 1] if dp <= dq else along[2 * i]
        if min(dp, dq) > t.attach_tol:
            continue
        same = [
            k
            for k, (_, _, r0, t0) in enumerate(out)
            if np.hypot(root[0] - r0[0], root[1] - r0[1]) <= 2 * t.attach_tol
            and _angle_between(np.subtract(tip, root), np.subtract(t0, r0)) <= t.limb_merge_angle
        ]
        if same:
            k = same[0]
            _, _, r0, t0 = out[k]
            if np.hypot(tip[0] - root[0], tip[1] - root[1]) > np.hypot(t0[0] - r0[0], t0[1] - r0[1]):
                out[k] = (out[k][0], out[k][1], root, tip)
            continue
        kind = "arm" if (root[1] - ay) / span < t.arm_zone else "leg"
        side_x = tip[0] - (ax + s * ex)
        side = "along" if abs(side_x) < t.min_limb_side else ("left" if side_x < 0 else "right")
        out.append((kind, side, root, tip))
    return out


def _runs_old(drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    h, w = drawn.shape
    padded = np.zeros((h, w + 2), dtype=np.int8)
    padded[:, 1:-1] = ~drawn
    step = np.diff(padded, axis=1)
    rows, starts = np.nonzero(step == 1)
    stops = np.nonzero(step == -1)[1]
    return rows, starts, stops


def _runs_new(drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # _enclosed's lines, as they stand there
    h, w = drawn.shape
    padded = np.zeros((h, w + 2), dtype=bool)
    padded[:, 1:-1] = ~drawn
    turn_rows, turns = np.nonzero(padded[:, 1:] != padded[:, :-1])
    return turn_rows[::2], turns[::2], turns[1::2]


# --- helpers ---------------------------------------------------------------------------------------


def _same(a: object, b: object) -> bool:
    """Equal, floats by repr (a zero's sign and nan count), arrays by dtype, shape and bytes."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return repr(a) == repr(b)
    return a == b


def _segs(rng: np.random.Generator, m: int) -> np.ndarray:
    """Edges with whole, half and odd ends, some vertical, some of no length, some sharing ends."""
    segs = rng.integers(0, 30, (m, 2, 2)).astype(float)
    v = rng.random(m) < 0.4
    segs[v, 1, 0] = segs[v, 0, 0] + rng.integers(-1, 2, int(v.sum()))
    segs[rng.random(m) < 0.2] += rng.choice([0.5, -0.0, 0.25], (2, 2))
    flat = rng.random(m) < 0.1
    segs[flat, 1] = segs[flat, 0]  # of no length
    if m > 2:
        segs[1, 0] = segs[0, 1]
    return segs


# --- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_heal_and_spans(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = np.vstack([_walk(rng, int(rng.integers(2, 120))) for _ in range(int(rng.integers(1, 4)))])
    strokes = scene_strokes(pts)
    arrays = [s for _, s in strokes]
    for step in (1.0, 2.0, 3.0):
        want = _heal_old(arrays, step)
        assert _same(heal(arrays, step), want)
        assert _same([pts[a:b] for a, b in heal_spans(pts, strokes, step)], want)


@pytest.mark.parametrize("seed", SEEDS)
def test_edges_of_spans(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = np.vstack([_walk(rng, int(rng.integers(2, 120))) for _ in range(int(rng.integers(1, 4)))])
    spans = heal_spans(pts, scene_strokes(pts), 2.0)
    # the stick's spans: pieces of those, of any length (one point, two, none)
    cut = sorted({int(c) for c in rng.integers(0, len(pts) + 1, 6)} | {0, len(pts)})
    pieces = [(a, b) for a, b in zip(cut[:-1], cut[1:])] + [(3, 3), (0, 1), (0, 2)]
    for sp in (spans, pieces):
        sp = [(a, b) for a, b in sp if b <= len(pts)]
        for tol in (1.0, 0.5):
            assert _same(edges_of(pts, sp, tol), edges([pts[a:b] for a, b in sp], tol))


@pytest.mark.parametrize("seed", SEEDS)
def test_join_verticals_plain(seed: int) -> None:
    rng = np.random.default_rng(seed)
    segs = _segs(rng, int(rng.integers(0, 30)))
    if seed % 7 == 0 and len(segs):
        segs[0] = [[1e308, -1e308], [-1e308, 1e308]]  # overflows to inf in the differences
    vertical = rng.random(len(segs)) < 0.6
    for gap, tol, ends in ((2.0, 1.5, 2), (3.0, 0.0, 1), (1.0, 2.5, 3)):
        with np.errstate(all="ignore"):
            assert _same(
                join_verticals(segs, vertical, gap, tol, ends), _join_verticals_old(segs, vertical, gap, tol, ends)
            )


@pytest.mark.parametrize("seed", SEEDS)
def test_seg_distance_plain(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vals = np.concatenate([rng.integers(-5, 6, 40).astype(float), [0.0, -0.0, 0.5, -0.5, 1e300, -1e300, 1e-320]])
    for _ in range(300):
        p, a, b = (rng.choice(vals, 2) for _ in range(3))
        if rng.random() < 0.2:
            b = a.copy()  # a segment of no length
        with np.errstate(all="ignore"):
            want = seg_distance(p, a, b)[0]
            got = seg_distance_xy(*p.tolist(), *a.tolist(), *b.tolist())
        assert repr(got) == repr(want) or (math.isnan(got) and math.isnan(want))


@pytest.mark.parametrize("seed", SEEDS)
def test_rows_runs_from_turns(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, 25, 2))
    drawn = rng.random((h, w)) < rng.uniform(0.0, 0.9)
    for x, y in zip(_runs_new(drawn), _runs_old(drawn)):
        assert x.tolist() == y.tolist()


def _figure(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A stick figure's body edges, jittered, with extra and crossing edges: (segs, a, b)."""
    hip = 30 + rng.integers(-2, 3)
    base = [
        [[25, 12], [25 + rng.integers(-2, 3), hip]],  # torso
        [[25, 15], [18 + rng.integers(-3, 3), 22]],
        [[25, 15], [32 + rng.integers(-3, 3), 22]],
        [[25, hip], [19, 40]],
        [[25, hip], [31, 40]],
        [[18, 18], [33, 19 + rng.integers(-1, 2)]],  # both arms in one line across the torso
        [[25, 12], [25, 20]],  # a retraced piece of the torso
        [[25, 15], [19, 21]],  # an arm drawn twice
    ]
    segs = np.array([base[k] for k in rng.permutation(len(base))[: int(rng.integers(2, len(base) + 1))]], dtype=float)
    segs = segs + rng.choice([0.0, 0.0, 0.5, -1.0], segs.shape)
    if rng.random() < 0.3:
        segs = segs[:, ::-1]
    return segs, np.array([25.0, 12.0]), np.array([25.0, float(hip)])


@pytest.mark.parametrize("seed", SEEDS)
def test_torso_chain_and_limbs_plain(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = STICK_THRESHOLDS
    for _ in range(10):
        segs, a, b = _figure(rng)
        for neck, head_x, r in ((np.array([25.0, 11.0]), 25.0, 4.0), (np.array([24.5, 10.0]), 24.0, 2.0)):
            new, old = _torso_chain(segs, neck, head_x, r, t), _torso_chain_old(segs, neck, head_x, r, t)
            assert (new is None) == (old is None)
            if new is not None and old is not None:
                assert _same(new[:3], old)
                # the direction returned is the tilt stick_score measured of the chain's ends
                assert repr(new[3]) == repr(float(segment_angles(np.array([[old[0], old[1]]]))[0][0]))
        got = _torso_chain(segs, np.array([25.0, 11.0]), 25.0, 4.0, t)
        if got is not None:
            ta, tb, chain, _ = got
            assert _same(_limbs(segs, chain, ta, tb, t), _limbs_old(segs, chain, ta, tb, t))
        chain = {int(k) for k in rng.integers(0, len(segs), 2)}
        assert _same(_limbs(segs, chain, a, b, t), _limbs_old(segs, chain, a, b, t))


def test_hypot_takes_each_size() -> None:
    """The limbs' lengths rest on np.hypot(-x, -y) being np.hypot(x, y)."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(0, 30, 10_000), rng.normal(0, 30, 10_000)
    assert np.hypot(-x, -y).tobytes() == np.hypot(x, y).tobytes()
    assert np.hypot(x, -y).tobytes() == np.hypot(-x, y).tobytes()


def test_interp_of_a_list_is_each_on_its_own() -> None:
    """The house's eave heights: np.interp of a list gives each x what a call of its own gives."""
    rng = np.random.default_rng(0)
    xp = np.sort(rng.integers(0, 50, 3).astype(float))
    fp = rng.integers(0, 50, 3).astype(float)
    xs = rng.uniform(-5, 55, 200).tolist() + xp.tolist()
    assert np.interp(xs, xp, fp).tolist() == [float(np.interp(x, xp, fp)) for x in xs]


@pytest.mark.parametrize("seed", SEEDS)
def test_holes_and_off_cells_given_extremes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = _walk(rng, int(rng.integers(3, 150)))
    if seed % 5 == 0:
        pts[int(rng.integers(0, len(pts)))] = [-3.0, 60.0]  # off the grid: holes leaves it out
    strokes = [s for _, s in scene_strokes(pts)]
    ext = (np.minimum.reduce(pts, axis=0).tolist(), np.maximum.reduce(pts, axis=0).tolist())
    assert _same(holes(pts, strokes, 2.0, 2.0, 50, ext), holes(pts, strokes, 2.0, 2.0, 50))
    cells = {(int(x), int(y)) for x, y in np.rint(pts[::3])}
    assert _off_cells(pts, cells, ext) == _off_cells(pts, cells)


@pytest.mark.parametrize("seed", SEEDS)
def test_sketch_fit_and_one_search(seed: int) -> None:
    rng = np.random.default_rng(seed)
    reference = common.reference_of(stick.stick_reference, stick.STICK_AREA)
    ref, box = common._stacked(reference)
    pts = _walk(rng, int(rng.integers(2, 150)))
    if seed % 3 == 0:  # a drawing with the reference's own box
        pts = ref[rng.permutation(len(ref))[: int(rng.integers(20, len(ref)))]]
        pts = np.vstack([pts, ref[[int(np.argmin(ref[:, 0])), int(np.argmax(ref[:, 0]))]]])
        pts = np.vstack([pts, ref[[int(np.argmin(ref[:, 1])), int(np.argmax(ref[:, 1]))]]])
    lo, hi = np.minimum.reduce(pts, axis=0).tolist(), np.maximum.reduce(pts, axis=0).tolist()
    fitted, unmoved = common._fit_to_box(pts, lo, hi, box)
    assert _same(fitted, fit_to_box(pts, box))
    both = [chamfer_distance(fit_to_box(pts, box), ref), chamfer_distance(pts, ref)]
    if unmoved and np.array_equal(fitted, pts):
        assert repr(both[0]) == repr(both[1])
    # and the whole sketch, against one made with the two searches as before
    card = common.sketch(pts, reference, None, 50, STICK_THRESHOLDS).card
    assert repr(card.metrics["chamfer_raw"]) == repr(both[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_enclosed_told_the_margin_is_empty(seed: int) -> None:
    from shape_asserts.families.scene.regions import _enclosed

    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(2, 25, 2))
    drawn = np.zeros((h + 2, w + 2), dtype=bool)
    drawn[1:-1, 1:-1] = rng.random((h, w)) < rng.uniform(0.1, 0.8)
    assert _same(_enclosed(drawn, empty_margin=True), _enclosed(drawn))
