"""Fixtures shared by the unit tests of the suite modules."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from shape_asserts.asking.store import FixtureStore
from shape_asserts.cases import Case, builtin_case_files, load_cases


def circle_cases() -> list[Case]:
    """The built-in circle cases alone (loading every family's file is slower and not needed here)."""
    (path,) = [p for p in builtin_case_files() if p.name == "circle.toml"]
    return load_cases([path], builtin=False)


@pytest.fixture(scope="module")
def case() -> Case:
    """The first built-in circle case (a test module may define its own)."""
    return circle_cases()[0]


@pytest.fixture
def store(tmp_path: Path) -> FixtureStore:
    """An empty recording store in a temporary folder."""
    return FixtureStore(tmp_path / "fixtures")


@pytest.fixture(scope="session")
def int_point_sets() -> Callable[..., list[np.ndarray]]:
    """``make(seed, count, min_points=1)``: whole-number drawings for the seed score's int paths —
    small and near the small-int limit (2**24), negative ones, sums not divisible by the count,
    every seventh all one point (no radius)."""

    def make(seed: int, count: int, min_points: int = 1) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        out = []
        for i in range(count):
            n = int(rng.integers(min_points, 150))
            span = [50, 1000, 2**23, 2**24 + 5][i % 4]
            shift = [0, -span, 2**24 - span - 2, 3][i % 4]
            pts = rng.integers(-span, span, (n, 2)) + shift
            if i % 7 == 0:
                pts[:] = pts[0]
            out.append(pts.astype(np.int64))
        return out

    return make


#: Values that find the edges: signed zeros, the largest and smallest floats, squares that
#: underflow or overflow (1e-160, 1e160), infinities, nan.
ODD_VALUES = (0.0, -0.0, 1.0, -1.0, 2.5, 1e308, -1e308, 5e-324, 1e-160, 1e160, np.inf, -np.inf, np.nan)


@pytest.fixture(scope="session")
def odd_floats() -> Callable[..., np.ndarray]:
    """``make(rng, shape, kind, whole=(0, 4))``: floats for the exactness tests of numeric
    shortcuts — kind 0 ordinary (normal times 1e-5..1e16), 1 edge values (:data:`ODD_VALUES`), 2
    whole numbers in ``[whole[0], whole[1])`` (ties, segments of no length)."""

    def make(
        rng: np.random.Generator, shape: int | tuple[int, ...], kind: int, whole: tuple[int, int] = (0, 4)
    ) -> np.ndarray:
        if kind == 0:
            return rng.normal(size=shape) * 10.0 ** rng.integers(-5, 17, size=shape)
        if kind == 1:
            return rng.choice(ODD_VALUES, size=shape)
        return rng.integers(whole[0], whole[1], size=shape).astype(float)

    return make


#: The repository's benchmark scripts (not a package: each is loaded from its file).
BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_module(name: str) -> Iterator[ModuleType]:
    """``bench/<name>.py`` loaded as a module for the length of a test module (a fixture's body)."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


@pytest.fixture(scope="module")
def wall_time() -> Iterator[ModuleType]:
    """``bench/wall_time.py``, loaded."""
    yield from bench_module("wall_time")


@pytest.fixture(scope="module")
def score_parts() -> Iterator[ModuleType]:
    """``bench/score_parts.py``, loaded."""
    yield from bench_module("score_parts")


@pytest.fixture(scope="module")
def score_fingerprint() -> Iterator[ModuleType]:
    """``bench/score_fingerprint.py``, loaded."""
    yield from bench_module("score_fingerprint")
