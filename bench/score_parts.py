"""Where one family's score spends its time: the scorer's steps, each timed without a profiler.

Run: ``.venv/bin/python bench/score_parts.py [--family square ...] [--rounds R]``

``bench/score_cost.py`` says how long each family's score takes; this says where it goes, for
whoever works on the rest of the goal (≤ 200 µs). The cases and answers are ``score_cost``'s (one
representative case per family, scored on its own ~200-point ideal answer).

For each family, one pass under :mod:`cProfile` finds the steps: from ``Case.score`` down, as long
as one project function takes nearly all of its caller's time (≥ 85%) it is followed; the project
functions that the first function with several such callees calls directly (or from a
comprehension or lambda written in it) are the steps; those under 1% of a score are printed
together. A profiler inflates every Python call, so the steps are then timed
without it: each is wrapped in a timer (its module-level name replaced wherever a project module
holds it, a method replaced on its class), the scores are run again, and the time inside each
step is summed (a step called from inside another step is counted in the outer one only).
Closures and numpy calls in the step-finding function itself are not wrapped: they are "the
rest", with that function's own lines (a step the profile saw the comprehension call is timed
wherever it is called from, the timer sitting on the function itself). Printed per step: µs per score and its
share, best of ``R`` rounds (the round with the least total, the one a busy moment disturbed
least), with the score's time unwrapped beside it (the timers add ~0.2 µs a call).
``--within NAME`` splits that function's time instead (the project function of that name that
took the most; its steps timed only while it runs; it is split itself, not followed down into its
largest callee), to look one level further down:
``--family ellipse --within from_estimate``.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import inspect
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import score_cost  # noqa: E402  (the bench's cases and answers)

from shape_asserts.geometry.drawing import parse_drawing  # noqa: E402

Key = tuple[str, int, str]  # cProfile's (file, first line, function name)

#: A function taking at least this share of its caller's time is followed down.
FOLLOW = 0.85
#: A step taking less than this share of a score is printed among "smaller steps", not on a line of its own.
LEAST = 0.01


def _own(key: Key) -> bool:
    return str(Path(key[0]).resolve()).startswith(str(ROOT / "shape_asserts"))


def find_steps(score: Callable[[], object], number: int = 200, within: str | None = None) -> tuple[Key, list[Key]]:
    """The step-finding function and its steps (see the module docstring), by one profiled pass."""
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(number):
        score()
    prof.disable()
    stats: dict[Key, Any] = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    children: dict[Key, dict[Key, float]] = {}
    for callee, (_, _, _, _, callers) in stats.items():
        for caller, (_, _, _, cum) in callers.items():
            children.setdefault(caller, {})[callee] = cum
    if within is None:
        node = next(k for k in stats if k[2] == "score" and k[0].endswith(str(Path("cases", "model.py"))))
    else:  # the project function of that name that takes the most time
        named = [k for k in stats if k[2] == within and _own(k)]
        if not named:
            raise SystemExit(f"--within {within}: no project function of that name ran in this score")
        node = max(named, key=lambda k: stats[k][3])

    def calls(parent: Key, seen: frozenset[Key] = frozenset()) -> dict[Key, float]:
        """The project functions ``parent`` calls, a comprehension's or lambda's in it taken as its own."""
        out: dict[Key, float] = {}
        for k, t in children.get(parent, {}).items():
            if not _own(k) or k in seen:
                continue
            if k[2].startswith("<") and k[0] == parent[0]:  # <listcomp>, <dictcomp>, <genexpr>, <lambda>
                for kk, tt in calls(k, seen | {k}).items():
                    out[kk] = out.get(kk, 0.0) + tt
            else:
                out[k] = out.get(k, 0.0) + t
        return out

    while True:
        total = stats[node][3]
        own = calls(node)
        if not own:
            return node, []
        top = max(own, key=own.__getitem__)
        # --within names the function to split: never followed further down, whatever the timings
        if within is None and own[top] >= FOLLOW * total and top != node:
            node = top
            continue
        steps = sorted(own, key=lambda k: -own[k])
        return node, steps


def _module_of(path: str) -> Any:
    rel = Path(path).resolve().relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return importlib.import_module(".".join(parts))


def _code_of(obj: object) -> Any:
    for attr in ("__func__", "fget"):
        obj = getattr(obj, attr, obj)
    return getattr(inspect.unwrap(obj) if callable(obj) else obj, "__code__", None)


def _is(code: Any, key: Key) -> bool:
    """Whether ``code`` is the function cProfile names ``key`` (its file, first line and name)."""
    return (
        code is not None
        and code.co_firstlineno == key[1]
        and code.co_name == key[2]
        and Path(code.co_filename).resolve() == Path(key[0]).resolve()
    )


class Timers:
    """Timers wrapped round the steps: :meth:`on` puts them in place, :meth:`off` the originals."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._swaps: list[tuple[Any, str, object, object]] = []  # owner, name, original, timed
        self._depth = 0
        self.outer = False  # (set while the --within function itself is wrapped)
        self.split = False  # whether a --within function is wrapped: steps count only inside it
        self._within = 0

    def _wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        spent = self.spent
        spent[name] = 0.0
        clock = time.perf_counter
        if self.outer:  # the function split by --within: timed whole, outside the steps' count

            def outer(*args: Any, **kwargs: Any) -> Any:
                self._within += 1
                start = clock()
                try:
                    return fn(*args, **kwargs)
                finally:
                    spent[name] += clock() - start
                    self._within -= 1

            self.split = True
            return outer

        def timed(*args: Any, **kwargs: Any) -> Any:
            # inside another step: counted there; outside the function split by --within: not its time
            if self._depth or (self.split and not self._within):
                return fn(*args, **kwargs)
            self._depth += 1
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += clock() - start
                self._depth -= 1

        return timed

    def add(self, key: Key) -> str | None:
        """Wrap the function at ``key``; its printed name, or ``None`` when it cannot be wrapped."""
        path, line, func = key
        if func.startswith("<"):  # a comprehension or a lambda
            return None
        module = _module_of(path)
        for name, value in vars(module).items():  # a module-level function
            code = _code_of(value)
            if inspect.isfunction(value) and _is(code, key):
                label = f"{name} ({Path(path).relative_to(ROOT / 'shape_asserts')})"
                timed = self._wrap(label, value)
                for other in list(sys.modules.values()):
                    if getattr(other, "__name__", "").startswith("shape_asserts") and vars(other).get(name) is value:
                        self._swap(other, name, value, timed)
                return label
        for cls in [v for v in vars(module).values() if inspect.isclass(v) and v.__module__ == module.__name__]:
            for name, raw in list(vars(cls).items()):
                code = _code_of(raw)
                if not _is(code, key):
                    continue
                label = f"{cls.__name__}.{name} ({Path(path).relative_to(ROOT / 'shape_asserts')})"
                if isinstance(raw, classmethod):
                    new: Any = classmethod(self._wrap(label, raw.__func__))
                elif isinstance(raw, staticmethod):
                    new = staticmethod(self._wrap(label, raw.__func__))
                elif isinstance(raw, property) and raw.fget is not None:
                    new = property(self._wrap(label, raw.fget), raw.fset, raw.fdel, raw.__doc__)
                elif inspect.isfunction(raw):
                    new = self._wrap(label, raw)
                else:
                    return None
                self._swap(cls, name, raw, new)
                return label
        return None

    def _swap(self, owner: Any, name: str, old: object, new: object) -> None:
        setattr(owner, name, new)
        self._swaps.append((owner, name, old, new))

    def on(self) -> None:
        for owner, name, _, new in self._swaps:
            setattr(owner, name, new)

    def off(self) -> None:
        for owner, name, old, _ in reversed(self._swaps):
            setattr(owner, name, old)


def measure(case: Any, rounds: int, number: int, within: str | None = None, least: float = LEAST) -> None:
    drawing = parse_drawing(score_cost._answer(case))
    score = lambda: case.score(drawing)
    for _ in range(20):
        score()
    finder, steps = find_steps(score, within=within)
    timers = Timers()
    whole = None
    if within is not None:
        timers.outer = True
        whole = timers.add(finder)
        timers.outer = False
        if whole is None:
            raise SystemExit(f"--within {within}: it cannot be wrapped (a comprehension, a closure)")
    labels = [timers.add(k) for k in steps]
    left_out = [f"{k[2]} ({Path(k[0]).name}:{k[1]})" for k, lab in zip(steps, labels) if lab is None]
    try:
        best_total, best_spent, plain, base = float("inf"), {}, float("inf"), 0.0
        for _ in range(rounds):  # each round: with the timers, then without (the same machine state)
            timers.on()
            for name in timers.spent:
                timers.spent[name] = 0.0
            start = time.perf_counter()
            for _ in range(number):
                score()
            total = (time.perf_counter() - start) / number
            if total < best_total:
                best_total, best_spent = total, {k: v / number for k, v in timers.spent.items()}
                base = best_spent.pop(whole) if whole is not None else total
            timers.off()
            start = time.perf_counter()
            for _ in range(number):
                score()
            plain = min(plain, (time.perf_counter() - start) / number)
    finally:
        timers.off()
    where = f"{finder[2]} ({Path(finder[0]).relative_to(ROOT / 'shape_asserts')})"
    head = f"{case.family}: {plain * 1e6:.1f} µs a score ({best_total * 1e6:.1f} µs with the step timers)"
    if whole is not None:
        head += f"; {where} takes {base * 1e6:.1f} µs of it (the shares below are of that)"
    print(f"{head}; steps of {where}")
    small = {k: v for k, v in best_spent.items() if v < least * base}
    for name, spent in sorted(best_spent.items(), key=lambda kv: -kv[1]):
        if name not in small:
            print(f"  {spent * 1e6:8.1f} µs  {spent / base:6.1%}  {name}")
    if small:
        spent = sum(small.values())
        names = ", ".join(n.split(" (")[0] for n in sorted(small, key=lambda n: -small[n]))
        print(f"  {spent * 1e6:8.1f} µs  {spent / base:6.1%}  {len(small)} smaller steps: {names}")
    rest = base - sum(best_spent.values())
    also = f"; also {', '.join(left_out)}" if left_out else ""
    print(f"  {rest * 1e6:8.1f} µs  {rest / base:6.1%}  the rest: {finder[2]}'s own lines and numpy calls{also}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", help="a family to look at (repeatable; default: every one)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds (the least disturbed is kept)")
    ap.add_argument("--number", type=int, default=300, help="scores a round")
    ap.add_argument("--within", help="split this function's time instead (its name, e.g. from_estimate)")
    ap.add_argument(
        "--least", type=float, default=LEAST, help=f"a step under this share is among 'smaller steps' (default {LEAST})"
    )
    args = ap.parse_args(argv)
    cases = [c for c in score_cost.bench_cases() if not args.family or c.family in args.family]
    if not cases:
        ap.error(f"no such family among {', '.join(c.family for c in score_cost.bench_cases())}")
    for case in cases:
        measure(case, args.rounds, args.number, args.within, args.least)
    return 0


if __name__ == "__main__":
    sys.exit(main())
