"""The seed score's int fast path (``geometry/seed.py``) gives what the PHP loop's port gives, bit for
bit, on both of its branches: coordinates below 2**24 (both axes at once, in doubles) and larger
ones up to the fast path's limit (int64 steps)."""

from __future__ import annotations

import math

import numpy as np

import shape_asserts.geometry.seed as seed


def _int_answers() -> list[dict]:
    rng = np.random.default_rng(11)
    out = []
    for i in range(600):
        n = int(rng.integers(5, 120))
        span = [60, 2**23, 2**24 + 7, 2**29][i % 4]
        shift = [0, -span, span // 2, 2**24 - 3][i % 3]
        pts = rng.integers(-span, span, (n, 2)) + shift
        if i % 5 == 0:
            pts[:] = pts[0]  # one point many times: no radius
        out.append({"points": [{"x": int(x), "y": int(y)} for x, y in pts]})
    return out


def test_the_seed_score_of_int_drawings_is_the_php_loops(monkeypatch):
    answers = _int_answers()
    fast = [seed.seed_score(a) for a in answers]
    monkeypatch.setattr(seed, "_fast_int_score", lambda entries: None)  # the loop, as in PHP
    slow = [seed.seed_score(a) for a in answers]
    assert [(x, math.copysign(1, x)) for x in fast] == [(x, math.copysign(1, x)) for x in slow]
