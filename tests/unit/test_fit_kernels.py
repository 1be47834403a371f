"""The fits' linear algebra calls numpy's LAPACK kernels without the public wrappers: the same
numbers as ``np.linalg``, and the public call whenever a kernel fails or is not what it expects."""

from __future__ import annotations

import numpy as np
import pytest

from shape_asserts.geometry.fit import base

RNG = np.random.default_rng(11)


def _public(name: str, *args: np.ndarray):
    return {
        "eigh": lambda m: np.linalg.eigh(m),
        "eig_vectors": lambda m: np.real(np.linalg.eig(m)[1]),
        "solve": lambda a, b: np.linalg.solve(a, b),
        "lstsq": lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0],
        "matrix_rank": lambda m: int(np.linalg.matrix_rank(m)),
    }[name](*args)


def _cases():
    for _ in range(20):
        m = RNG.normal(size=(5, 5))
        yield "eigh", (m @ m.T,)
        yield "eig_vectors", (m,)
        yield "solve", (m, RNG.normal(size=(5, 2)))
        tall = RNG.normal(size=(40, 5))
        yield "lstsq", (tall, RNG.normal(size=40))
        yield "matrix_rank", (tall,)
    yield "matrix_rank", (np.ones((6, 3)),)  # rank 1
    yield "lstsq", (np.ones((6, 3)), np.arange(6.0))  # rank-deficient


def _same(x, y) -> bool:
    if isinstance(x, tuple):
        return all(np.array_equal(a, b) for a, b in zip(x, y))
    return bool(np.array_equal(x, y))


def test_every_kernel_gives_the_public_functions_numbers_bit_for_bit():
    assert base._kernels_agree()
    for name, args in _cases():
        assert _same(getattr(base, name)(*args), _public(name, *args)), name


@pytest.mark.parametrize("kernel", ["_EIGH", "_EIG", "_SOLVE", "_LSTSQ", "_SINGULAR"])
def test_a_kernel_that_raises_or_fails_hands_the_call_to_the_public_function(monkeypatch, kernel):
    def raising(*args, **kwargs):
        raise TypeError("no loop matching the specified signature")

    def failing(*args, **kwargs):  # what a kernel gives where the wrapper would raise: NaNs
        nans = np.full((5, 5), np.nan)
        return nans if kernel in ("_SOLVE", "_SINGULAR") else (nans,) * (4 if kernel == "_LSTSQ" else 2)

    for stand_in in (raising, failing):
        monkeypatch.setattr(base, kernel, stand_in)
        for name, args in list(_cases())[:10]:
            assert _same(getattr(base, name)(*args), _public(name, *args)), (kernel, name)


def test_a_singular_system_still_raises_as_numpy_does():
    with pytest.raises(np.linalg.LinAlgError):
        base.solve(np.zeros((3, 3)), np.ones((3, 1)))
