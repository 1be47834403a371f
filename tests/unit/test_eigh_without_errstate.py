"""``fit.base.eigh`` calls LAPACK's kernel without an error state on a finite matrix: no warning, no
floating-point flag left (an error under ``np.errstate(all="raise")``), and the public call's numbers
bit for bit; a NaN or an infinity takes the error state and gives what the public call gives."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from shape_asserts.geometry.fit.base import eigh


def _matrices(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(400):
        k = 3 if i % 3 else 2
        with np.errstate(all="ignore"):
            if i % 5 == 0:
                a = rng.normal(size=(int(rng.integers(3, 200)), k))
                m = a.T @ a
            elif i % 5 == 1:
                m = rng.normal(size=(k, k)) * 10.0 ** rng.integers(-320, 306)
            elif i % 5 == 2:
                m = rng.normal(size=(k, k)) * 10.0 ** rng.integers(-300, 300, size=(k, k))
            elif i % 5 == 3:
                v = rng.normal(size=k)
                m = np.outer(v, v) * rng.choice([1.0, 0.0, 1e-300, 1e300])
            else:
                m = rng.choice([1.7e308, -1.7e308, 1e-308, 0.0, 5e-324], size=(k, k))
        out.append(np.tril(m) + np.tril(m, -1).T)
    return out


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("told", [False, True])
def test_finite_matrices_no_flag_same_numbers(seed: int, told: bool) -> None:
    # (told: the caller says the matrix is finite, as fit_circles does, and eigh does not look)
    for m in _matrices(seed):
        if told and not np.isfinite(m).all():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                vals, vecs = eigh(m, finite=told)
        with np.errstate(all="ignore"):
            w, v = np.linalg.eigh(m)
        assert vals.tobytes() == w.tobytes() and vecs.tobytes() == v.tobytes()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [(0, 0), (1, 0), (0, 1), (2, 2)])
def test_non_finite_matrices_as_the_public_call(bad: float, where: tuple[int, int]) -> None:
    m = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
    m[where] = bad

    def outcome(f):  # type: ignore[no-untyped-def]
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                vals, vecs = f(m)
            except np.linalg.LinAlgError as e:
                return ("raised", str(e), [str(w.message) for w in seen])
        return (vals.tobytes(), vecs.tobytes(), [str(w.message) for w in seen])

    assert outcome(eigh) == outcome(np.linalg.eigh)


def test_finite_is_numpys_isfinite_all() -> None:
    from shape_asserts.geometry.fit.base import _finite

    rng = np.random.default_rng(0)
    values = [0.0, -0.0, 1.0, 1e308, np.inf, -np.inf, np.nan, 5e-324]
    for _ in range(3000):
        m = rng.choice(values, size=(3, 3), p=[0.2, 0.1, 0.2, 0.2, 0.1, 0.05, 0.1, 0.05])
        assert _finite(m) == bool(np.isfinite(m).all())
        assert _finite(m[:2, :2]) == bool(np.isfinite(m[:2, :2]).all())
        assert _finite(m.T) == bool(np.isfinite(m).all())
