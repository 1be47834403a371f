"""The contract every fitted model keeps, in the style of scikit-image's ``measure.fit``.

A model is built from named geometry (``CircleModel(center, radius)``) or estimated from points
with the class method ``from_estimate(points, ...)``, which returns the model or a falsy
:class:`FitFailure` saying why no model fits (``ValueError`` is kept for arrays of the wrong
shape). A model gives the distance of points from its ideal curve, ``residuals(points)``, and
samples that curve, ``predict_xy(t)``: to draw the ideal overlay, or to make perfect inputs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from shape_asserts.geometry.points import FloatArray

__all__ = ["FitFailure", "FittedModel", "Estimator"]


@dataclass(frozen=True)
class FitFailure:
    """A fit that could not be made; falsy, with the reason.

    Examples
    --------
    >>> bool(FitFailure("points are collinear")), FitFailure("points are collinear").reason
    (False, 'points are collinear')
    """

    reason: str

    def __bool__(self) -> Literal[False]:
        return False


@runtime_checkable
class FittedModel(Protocol):
    """A fitted (or named) shape: truthy, with residuals and samples of its ideal curve.

    :class:`~shape_asserts.geometry.fit.CircleModel`, :class:`~shape_asserts.geometry.fit.EllipseModel`,
    :class:`~shape_asserts.geometry.fit.SpiralModel` and :class:`~shape_asserts.geometry.fit.PolygonModel`
    keep it; what ``t`` means is each model's own (an angle, a turn, a share of the perimeter).
    """

    def residuals(self, points: ArrayLike, /) -> FloatArray:
        """Distance of each point from the model's curve, shape (N,) (or fewer: see the model)."""
        ...

    def predict_xy(self, t: ArrayLike, /) -> FloatArray:
        """Points of the ideal curve at parameters ``t``, shape (len(t), 2)."""
        ...

    def __bool__(self) -> bool:
        """Always true: a model is a fit that worked (a :class:`FitFailure` is false)."""
        ...


class Estimator(Protocol):
    """A model class: ``from_estimate(points, ...)`` gives a :class:`FittedModel` or a :class:`FitFailure`.

    The arguments after the points are each model's own (the spiral's known center, the polygon's
    tolerance), so the contract names only what comes back.
    """

    def from_estimate(self, points: ArrayLike, /, *args: Any, **kwargs: Any) -> FittedModel | FitFailure:
        """The model fitted to ``points``, or a falsy failure saying why none fits."""
        ...


# --- the small linear algebra of the fits, without numpy.linalg's wrappers ---------------------------
#
# ``np.linalg``'s functions check their arguments, pick a LAPACK kernel (a gufunc of
# ``numpy.linalg._umath_linalg``), call it under an error state that turns LAPACK's failures into
# ``LinAlgError``, and convert the results: most of their cost on the 2×2 to 200×5 systems of the
# fits. The functions below call the same kernel on the same real arrays, so they give the same
# numbers; a failure (the kernel's NaN where the wrapper would raise) is handed back to the public
# function, which then raises or returns exactly as before. They are called on finite matrices. Where this numpy
# lays its kernels out otherwise, the public functions are called instead.

_kernels: Any
try:
    from numpy.linalg import _umath_linalg as _kernels
except ImportError:  # pragma: no cover - another numpy layout
    _kernels = None

_EIGH = getattr(_kernels, "eigh_lo", None)
_EIG = getattr(_kernels, "eig", None)
_SOLVE = getattr(_kernels, "solve", None)
#: numpy 2's kernels (numpy 1 names them lstsq_m / lstsq_n and svd_n: it takes the public calls)
_LSTSQ = getattr(_kernels, "lstsq", None)
_SINGULAR = getattr(_kernels, "svd", None)
_EPS = float(np.finfo(np.float64).eps)
#: What a kernel call that raised stands for: a failure, so the public function is called.
_FAILED = np.array([math.nan])


def _finite(m: Any) -> bool:
    """Whether every entry of a small matrix is finite: in Python floats, a third of
    ``np.isfinite(m).all()``'s cost on the fits' 2×2 and 3×3 matrices (the same answer)."""
    return all(map(math.isfinite, m.ravel().tolist()))


def _worked(out: Any) -> bool:
    """Whether a kernel's result is one: a kernel that fails fills its outputs with NaN (numpy's
    ``umath_linalg``), so the first entry tells (a finite input never gives a legitimate NaN or
    infinity there)."""
    return math.isfinite(abs(out.flat[0]))


def eigh(m: FloatArray, *, finite: bool = False) -> tuple[FloatArray, FloatArray]:
    """``np.linalg.eigh(m)`` of a real symmetric float64 matrix: eigenvalues ascending, eigenvectors.
    ``finite=True``: the caller has checked that every entry is finite (so this does not again)."""
    if _EIGH is not None:
        # On a finite matrix the kernel is called without an error state (entering one costs ~1.2 µs,
        # the check ~0.4): numpy's kernel clears the floating-point flags when LAPACK
        # succeeds, so nothing can warn (checked on 600,000 finite 2×2 and 3×3 matrices, 1e-320 to
        # 1e308 and mixed, under np.errstate(all="raise"): never a flag, the public call's numbers
        # bit for bit), and only a LAPACK failure, which no finite 3×3 has shown, would. A NaN or
        # an infinity takes the error state, as before.
        if finite or _finite(m):
            try:
                vals, vecs = _EIGH(m, signature="d->dd")
            except (TypeError, ValueError):  # another numpy's kernel: the public call
                vals = vecs = _FAILED
        else:
            with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
                try:
                    vals, vecs = _EIGH(m, signature="d->dd")
                except (TypeError, ValueError):
                    vals = vecs = _FAILED
        if _worked(vals):
            return vals, vecs
    vals, vecs = np.linalg.eigh(m)
    return vals, vecs


def eig_vectors(m: FloatArray) -> FloatArray:
    """``np.real(np.linalg.eig(m)[1])`` of a real float64 matrix: the real parts of its eigenvectors
    (the public call keeps them real when every eigenvalue is, which gives the same numbers)."""
    if _EIG is not None and _finite(m):  # (eig refuses a non-finite matrix: the public call says so)
        with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
            try:
                vals, vecs = _EIG(m, signature="d->DD")
            except (TypeError, ValueError):
                vals = vecs = _FAILED
        if _worked(vals):
            real: FloatArray = vecs.real
            return real
    return np.real(np.linalg.eig(m)[1])


def solve(a: FloatArray, b: FloatArray) -> FloatArray:
    """``np.linalg.solve(a, b)`` for a real square float64 ``a`` and a 2-D ``b``."""
    if _SOLVE is not None and b.ndim == 2:
        with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
            try:
                x = _SOLVE(a, b, signature="dd->d")
            except (TypeError, ValueError):
                x = _FAILED
        if _worked(x):
            out: FloatArray = x
            return out
    return cast(FloatArray, np.linalg.solve(a, b))


def lstsq(a: FloatArray, b: FloatArray) -> FloatArray:
    """``np.linalg.lstsq(a, b, rcond=None)[0]`` for a real 2-D float64 ``a`` and a 1-D ``b``."""
    if _LSTSQ is not None and b.ndim == 1 and a.ndim == 2 and a.shape[0] > 0:
        rcond = _EPS * max(a.shape)  # the default rcond=None stands for
        with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
            try:
                x, _, _, _ = _LSTSQ(a, b[:, None], rcond, signature="ddd->ddid")
            except (TypeError, ValueError):
                x = _FAILED
        if _worked(x):
            out: FloatArray = x[:, 0]
            return out
    return cast(FloatArray, np.linalg.lstsq(a, b, rcond=None)[0])


def matrix_rank(m: FloatArray) -> int:
    """``np.linalg.matrix_rank(m)`` of a real 2-D float64 matrix: its singular values above
    ``max(shape) × eps`` times the largest."""
    if _SINGULAR is not None:
        with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
            try:
                s = _SINGULAR(m, signature="d->d")
            except (TypeError, ValueError):
                s = _FAILED
        if _worked(s):
            # matrix_rank's tolerance, the largest value (or 0) times max(shape) × eps, in Python floats
            values = s.tolist()
            tol = max(0.0, *values) * (max(m.shape[-2:]) * _EPS)
            return sum(v > tol for v in values)
    return int(np.linalg.matrix_rank(m))


def _kernels_agree() -> bool:
    """Whether this numpy's kernels give what its public functions give, on small fixed systems
    like the fits' (checked once, at import): a numpy whose kernels differ takes the public calls."""
    sym = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
    gen = np.array([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 1.0, 4.0]])
    tall = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.5]])
    rhs = np.array([1.0, 2.0, 2.5, 4.0])
    try:
        return (
            all(np.array_equal(x, y) for x, y in zip(eigh(sym), np.linalg.eigh(sym)))
            and np.array_equal(eig_vectors(gen), np.real(np.linalg.eig(gen)[1]))
            and np.array_equal(solve(gen, sym), np.linalg.solve(gen, sym))
            and np.array_equal(lstsq(tall, rhs), np.linalg.lstsq(tall, rhs, rcond=None)[0])
            and matrix_rank(tall) == int(np.linalg.matrix_rank(tall))
        )
    except Exception:  # any surprise: the public calls
        return False


if not _kernels_agree():  # pragma: no cover - a numpy whose kernels differ from this one's
    _EIGH = _EIG = _SOLVE = _LSTSQ = _SINGULAR = None
