"""Fast paths of the scenes that replace a numpy call by plain floats where the answer is already
settled give what the numpy form gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shape_asserts.families.scene.body import hypot_within
from shape_asserts.families.scene.stick import _body_spans
from shape_asserts.families.scene.strokes import (
    heal_spans,
    holes,
    scene_strokes,
    seg_along_xy,
    seg_distance,
    split_at_junctions,
)
from shape_asserts.geometry.simplify import segment_angles

_SIZES = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0, 4.0, -4.0, 3.0, float("nan"), float("inf"), -float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-6, 6).map(float),
)


@given(_SIZES, _SIZES, st.sampled_from([0.0, 1.0, 1.5, 2.0, 4.0, 3.5]))
def test_hypot_within_is_numpys(dx: float, dy: float, limit: float) -> None:
    with np.errstate(all="ignore"):
        assert hypot_within(dx, dy, limit) == bool(np.hypot(dx, dy) <= limit)


@pytest.mark.parametrize("seed", range(60))
def test_body_spans_on_the_grid_are_the_lookups(seed: int) -> None:
    """The stick's body spans from the head marked on the drawing's box are those of the cell-by-cell
    lookup (``_off_cells``, then each healed span's runs)."""
    rng = np.random.default_rng(seed)
    steps = rng.integers(-1, 2, (int(rng.integers(1, 150)), 2))
    steps[rng.random(len(steps)) < 0.1] *= 3
    pts = np.vstack([[25, 25], 25 + np.cumsum(steps, axis=0)]).astype(float)
    pts = np.clip(pts, -1, 50)
    if rng.random() < 0.3:
        pts = pts + rng.choice([0.0, 0.5, -0.5, 0.25], pts.shape)
    strokes = scene_strokes(pts)
    healed = heal_spans(pts, strokes, 2.0)
    ext = (np.minimum.reduce(pts, axis=0).tolist(), np.maximum.reduce(pts, axis=0).tolist())
    rings = holes(pts, [s for _, s in strokes], 2.0, 2.0, 50, ext)
    cells = np.rint(pts[rng.random(len(pts)) < 0.4])
    for ring in [*rings, cells, np.zeros((0, 2))]:
        assert _body_spans(pts, ring, healed, ext, 50) == _body_spans(pts, ring, healed, None, 50)


_COORDS = st.one_of(st.integers(-60, 60).map(float), st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 0.5, -0.5]))


@given(_COORDS, _COORDS, _COORDS, _COORDS)
def test_one_segments_direction_is_segment_angles(ax: float, ay: float, bx: float, by: float) -> None:
    """torso_chain's direction of the segment a to b on two floats is segment_angles' of it."""
    want = float(segment_angles(np.array([[[ax, ay], [bx, by]]]))[0][0])
    assert repr(float(np.degrees(np.arctan2(by - ay, bx - ax)) % 180.0)) == repr(want)


def _split_at_junctions_old(segs, tol, min_ends, on):  # type: ignore[no-untyped-def]
    if not len(segs):
        return segs
    tips = segs.reshape(-1, 2)
    owner = np.repeat(np.arange(len(segs)), 2)
    a_all, b_all = segs[:, 0], segs[:, 1]
    d_all = b_all - a_all
    lengths = np.hypot(d_all[:, 0], d_all[:, 1])  # the same float as np.hypot of one edge's d
    # every edge long enough to be cut, against every tip at once: rel[k] is tips - a of edge
    # long[k]; the stacked matmul makes the same matrix-vector products as ``rel @ u`` one edge at
    # a time (one gemv each), which is not the same float as the two products added by hand
    long = (lengths >= 2 * tol).nonzero()[0]
    u_all = d_all[long] / lengths[long, None]
    rel_all = tips[None, :, :] - a_all[long, None, :]
    along_all = (rel_all @ u_all[:, :, None])[..., 0]
    across_all = np.abs(rel_all[..., 0] * u_all[:, 1, None] - rel_all[..., 1] * u_all[:, 0, None])
    on_line = (
        (owner[None, :] != long[:, None])
        & (across_all <= on)
        & (along_all >= tol)
        & (along_all <= (lengths[long] - tol)[:, None])
    )
    # fewer than min_ends tips on an edge can make no cut: only the others are walked one by one
    busy = (np.add.reduce(on_line, axis=1) >= min_ends).nonzero()[0].tolist()
    if not busy:
        return segs.astype(float).reshape(-1, 2, 2)
    cut_at = {}
    for k in busy:
        near = np.sort(along_all[k][on_line[k]])
        cuts = []
        m = 0
        while m < len(near):
            j = m
            while j + 1 < len(near) and near[j + 1] - near[m] <= tol:
                j += 1
            if j - m + 1 >= min_ends:
                cuts.append(float(near[m : j + 1].mean()))
            m = j + 1
        if cuts:
            cut_at[int(long[k])] = cuts
    # the edges in order, each cut one replaced by its pieces
    out = []
    done = 0
    for i, cuts in sorted(cut_at.items()):
        out.append(segs[done:i])
        a, b = segs[i]
        u = d_all[i] / float(lengths[i])
        corners = [a] + [a + c * u for c in cuts] + [b]
        out.append(np.array([[p, q] for p, q in zip(corners[:-1], corners[1:])], dtype=float))
        done = i + 1
    out.append(segs[done:])
    return np.concatenate(out).astype(float).reshape(-1, 2, 2)


@pytest.mark.parametrize("seed", range(80))
def test_split_at_junctions_leaves_own_ends_out_by_bounds(seed: int) -> None:
    """Cutting edges where others end on them gives what it gave when each edge's own ends were
    left out by who owns them, for every tol (0 too) and for edges long enough to need that."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    segs = rng.integers(0, 30, (n, 2, 2)).astype(float)
    # edges drawn through others' ends, and repeated ones
    for _ in range(int(rng.integers(0, 6))):
        i, j = (int(v) for v in rng.integers(0, n, 2))
        segs[i, 1] = segs[j, 0] + (segs[j, 0] - segs[i, 0])
    if rng.random() < 0.3:
        segs = segs + rng.choice([0.0, 0.5, 0.25], segs.shape)
    if seed % 9 == 0:
        segs[0] = [[1e14, 0.0], [-1e14, 1.0]]  # longer than tol * 1e12
    if seed % 13 == 0:
        segs[-1] = [[np.inf, 0.0], [3.0, np.nan]]
    for tol, ends, on in ((1.5, 2, 1.0), (0.0, 1, 1.0), (1.0, 1, 0.5), (3.0, 2, 2.0)):
        with np.errstate(all="ignore"):
            got, want = split_at_junctions(segs, tol, ends, on), _split_at_junctions_old(segs, tol, ends, on)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()


@given(_COORDS, _COORDS, _COORDS, _COORDS, _COORDS, _COORDS)
def test_seg_along_is_seg_distances(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> None:
    """limbs' place of a tip along the torso on plain floats is seg_distance's (a zero's sign aside)."""
    want = seg_distance(np.array([px, py]), np.array([ax, ay]), np.array([bx, by]))[1]
    assert seg_along_xy(px, py, ax, ay, bx, by) == want
