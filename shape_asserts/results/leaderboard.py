"""The leaderboard: any number of models ranked per shape family and overall, with intervals.

Pure functions over the tests' :class:`~shape_asserts.results.record.CaseRecord` s (no I/O, no
pytest), shown by :mod:`shape_asserts.results.leaderboard_view` in the terminal, the HTML report
and the job summary.

What is measured, per model and *scope* (each family, then :data:`OVERALL`, every case weighing
the same):

* **score** — the mean over cases of the case's score. A case asked ``--samples N`` times counts
  once, with the mean of its samples (repeats are aggregated per case first, as inspect_ai reduces
  epochs); how much the samples of one case disagree is shown apart, as ``sample_sd``: the square
  root of the mean within-case variance of sample scores (``None`` with one sample per case);
* **pass rate** — the mean over cases of the share of a case's samples passing every check, in %;
* **spread** — the stability the seed post asks about: per *group* (cases asking the same thing
  but for the start point and direction, see :mod:`shape_asserts.results.summary`) the spread
  (max − min) of the case scores of drawings, averaged over the groups. Lower is steadier.

Each comes with a percentile bootstrap interval from :func:`shape_asserts.results.gate.bootstrap_ci`
(the gate's: :data:`~shape_asserts.results.gate.RESAMPLES` resamples, fixed
:data:`~shape_asserts.results.gate.SEED`, so the board is the same on every machine). Score and
pass rate resample *cases*; spread resamples *groups*, its units (a group's spread is not a mean
of its cases).

**Like with like**: in each scope the numbers are taken over the cases every model there has a
judged result for (a model that ran fewer cases, or whose cases errored or were skipped, narrows
them for all; one that ran more cases has them left out and counted apart, ``apart``): a mean
over other cases is no rival, and no model can shut another out by running a case more. A model
that would leave fewer than :data:`~shape_asserts.results.gate.MIN_PAIRS` cases in common with the
models sharing the most (a job whose every call failed, a smoke job of a few cases, files asked in
another language) is left out of the comparison, unranked with its own numbers
(:func:`_comparable`); two models that cannot be compared are both unranked.

**Ranks** go by score first, then by pass rate among models that score alike, and tie where
intervals overlap. Models are taken best score first; each joins the score group of the models
just before it unless one of them is clearly ahead of it on score (its whole score interval
above). Within a group, where no score is clearly better, pass rate decides (the seed's score
does not see a circle's direction: a model drawing every circle the wrong way round scores as well
and passes nothing): taken best pass rate first, each shares the rank of the models just before it
unless one of them is clearly ahead on pass rate (its whole pass-rate interval above), and then
takes the rank of its place (1, 1, 3). Each step goes down one sorted list, so no model ties with
one clearly ahead of it, none is listed below one it clearly scores above, and none below one of
its own score group it is clearly ahead of on pass rate. Across groups score decides: a model
clearly ahead on pass rate of one whose score interval its own overlaps is listed below it only
where a third between them clearly scores below that one (a cycle: the first model clearly above
the third on score, the third above the second on pass rate, the second above the first on pass
rate). A shared rank is shown ``=1``.

**Comparisons** pair each ranked model with the next one down in each scope, on the cases (and
sample indices) both have (:func:`shape_asserts.results.gate.pair`): the mean paired score
difference, better minus worse, with its interval. It is *resolved* when the interval excludes 0,
or, when it does not, the pass-rate difference's interval does (which then says which is better).
Neighbours only: every two of a hundred models would be 4,950 pairs a scope. Ranks stand on each
model's own intervals; a paired difference is sharper (two models whose scores differ by the same
half point on every case have overlapping intervals of their own), so a pair line can resolve on
score two models the ranks left to pass rate, and it then says which is better on score.

Example
-------
>>> recs = [CaseRecord.from_scores(m, f"c{i}", "circle", (s + i % 3,), (True,))
...         for m, s in (("a", 90.0), ("b", 80.0)) for i in range(9)]
>>> board = leaderboard(recs)
>>> [(s.model, s.rank, round(s.score.value, 2)) for s in board.ranking(OVERALL)]
[('a', 1, 91.0), ('b', 2, 81.0)]
>>> c = board.comparisons[0]
>>> (c.better, c.worse, c.score.estimate, c.resolved)
('a', 'b', 10.0, True)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from shape_asserts.results.gate import CONFIDENCE, MIN_PAIRS, RESAMPLES, SEED, Difference, bootstrap_ci, pair
from shape_asserts.results.record import CaseRecord

__all__ = ["OVERALL", "Estimate", "Standing", "Comparison", "Leaderboard", "leaderboard", "estimate"]

#: The scope of all families together.
OVERALL = "overall"
#: Intervals closer than this count as touching (a mean can drift a few ulps off equal numbers).
_EPS = 1e-9


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its bootstrap interval."""

    value: float
    low: float
    high: float

    def contains(self, v: float) -> bool:
        return self.low - _EPS <= v <= self.high + _EPS


@dataclass(frozen=True)
class Standing:
    """One model in one scope (a family or :data:`OVERALL`): its numbers and its rank there."""

    model: str
    scope: str
    cases: int  # judged cases in the numbers (the bootstrap's units for score and pass rate)
    unjudged: int  # cases that errored or were skipped: not in the numbers
    apart: int  # judged cases not every model has: left out of the numbers, to compare like with like
    score: Estimate | None
    pass_rate: Estimate | None  # percent
    spread: Estimate | None  # mean group spread, points; lower is steadier
    groups: int  # groups of ≥ 2 drawings behind the spread
    samples: int  # most samples a case had
    sample_sd: float | None  # within-case standard deviation of sample scores (≥ 2 samples)
    rank: int | None = None
    tied: bool = False

    @property
    def rank_text(self) -> str:
        return "—" if self.rank is None else f"{'=' if self.tied else ''}{self.rank}"


@dataclass(frozen=True)
class Comparison:
    """Two models paired on their common cases in one scope: ``better`` minus ``worse``."""

    scope: str
    better: str
    worse: str
    n: int  # paired cases
    score: Difference  # points
    pass_rate: Difference  # percentage points

    @property
    def resolved(self) -> bool:
        """Whether ``better`` is better, with confidence: the score interval excludes 0, or, where
        it does not, the pass-rate interval does."""
        return self.score.low > _EPS or (self.score.high >= -_EPS and self.pass_rate.low > _EPS)


@dataclass(frozen=True)
class Leaderboard:
    """Every model's standing per scope, and each model compared with the next one down."""

    models: tuple[str, ...]
    scopes: tuple[str, ...]  # families (sorted), then OVERALL
    standings: tuple[Standing, ...]
    comparisons: tuple[Comparison, ...]
    resamples: int = RESAMPLES
    confidence: float = CONFIDENCE
    seed: int = SEED

    def standing(self, model: str, scope: str) -> Standing | None:
        return self._by_model_scope.get((model, scope))

    @functools.cached_property
    def _by_model_scope(self) -> dict[tuple[str, str], Standing]:
        """Each standing by (model, scope), for :meth:`standing` (a table of models × families
        looks up every cell)."""
        return {(s.model, s.scope): s for s in reversed(self.standings)}  # (the first one wins, as before)

    def ranking(self, scope: str) -> list[Standing]:
        """The scope's standings, best first (unranked last, in model order)."""
        rows = [s for s in self.standings if s.scope == scope]
        order = {m: i for i, m in enumerate(self.models)}
        return sorted(rows, key=lambda s: (*_by_rank(s), order.get(s.model, 0)))

    def compared(self, scope: str) -> list[Comparison]:
        return [c for c in self.comparisons if c.scope == scope]

    @property
    def samples(self) -> int:
        return max((s.samples for s in self.standings), default=0)


def estimate(values: Sequence[float] | np.ndarray, **kwargs) -> Estimate | None:
    """The mean of ``values`` with its bootstrap interval (keyword arguments: ``bootstrap_ci``)."""
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return None
    mean = float(np.mean(v))
    if float(np.ptp(v)) == 0.0:  # all equal: every resample's mean is this one
        return Estimate(mean, mean, mean)
    low, high = bootstrap_ci(v, **kwargs)
    return Estimate(mean, low, high)


def _case_score(r: CaseRecord) -> float:
    """A case's score: the mean of its samples (repeats aggregated per case first)."""
    return statistics.fmean(r.scores) if r.samples else float(r.score or 0.0)


def _judged(recs: Iterable[CaseRecord]) -> list[CaseRecord]:
    return [r for r in recs if r.judged and r.outcome in ("passed", "failed")]


def _standing(model: str, scope: str, recs: list[CaseRecord], shared: set[str] | None, kw: dict) -> Standing:
    """One model's numbers in one scope, over the ``shared`` cases (``None``: over all it has)."""
    every = _judged(recs)
    judged = [r for r in every if shared is None or r.case in shared]
    scores = [_case_score(r) for r in judged]
    rates = [100.0 * float(r.pass_rate or 0.0) for r in judged]
    groups: dict[str, list[float]] = defaultdict(list)
    for r, s in zip(judged, scores):
        if r.drawn:  # stability over drawings only: a model that never drew is not "steady"
            groups[r.group].append(s)
    spreads = [max(g) - min(g) for g in groups.values() if len(g) >= 2]
    variances = [statistics.pvariance(r.scores) for r in judged if len(r.samples) >= 2]
    return Standing(
        model=model,
        scope=scope,
        cases=len(judged),
        unjudged=len(recs) - len(every),
        apart=len(every) - len(judged),
        score=estimate(scores, **kw),
        pass_rate=estimate(rates, **kw),
        spread=estimate(spreads, **kw),
        groups=len(spreads),
        samples=max((len(r.samples) for r in judged), default=0),
        sample_sd=math.sqrt(statistics.fmean(variances)) if variances else None,
    )


def _ahead(a: Estimate | None, b: Estimate | None) -> bool:
    """Whether ``a``'s whole interval lies above ``b``'s."""
    return a is not None and b is not None and a.low > b.high + _EPS


def _groups(rows: list[Standing], measure: Callable[[Standing], Estimate | None]) -> list[list[Standing]]:
    """``rows`` (each with its ``measure``), best ``measure`` first, cut into runs: each row joins
    the run before it unless a row of that run is clearly ahead of it (its whole interval above)."""

    def best_first(s: Standing) -> float:
        e = measure(s)
        assert e is not None
        return -e.value

    runs: list[list[Standing]] = []
    for s in sorted(rows, key=best_first):
        if runs and not any(_ahead(measure(o), measure(s)) for o in runs[-1]):
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs


def _ranked(rows: list[Standing]) -> list[Standing]:
    """The rows with ranks (see the module's **Ranks**): score groups best first, and within each
    group the runs of pass rate best first, each run one rank, the rank of its first place."""
    scored = [s for s in rows if s.score is not None and s.pass_rate is not None]
    ranks: dict[str, int] = {}
    place = 1
    for group in _groups(scored, lambda s: s.score):
        for run in _groups(group, lambda s: s.pass_rate):
            for s in run:
                ranks[s.model] = place
            place += len(run)
    counts: dict[int, int] = defaultdict(int)
    for r in ranks.values():
        counts[r] += 1
    out = []
    for s in rows:
        rank = ranks.get(s.model)
        out.append(dataclasses.replace(s, rank=rank, tied=rank is not None and counts[rank] > 1))
    return out


def _compare(scope: str, a: str, b: str, score: np.ndarray, rate: np.ndarray, kw: dict) -> Comparison:
    ds, dr = _difference(score, kw), _difference(rate, kw)
    # the better by score; where its interval holds 0, by pass rate if that one's does not
    by_rate = ds.low <= _EPS and ds.high >= -_EPS and (dr.low > _EPS or dr.high < -_EPS)
    if (dr.estimate < 0) if by_rate else (ds.estimate < 0 or (ds.estimate == 0 and dr.estimate < 0)):
        a, b = b, a
        ds, dr = _negate(ds), _negate(dr)
    return Comparison(scope=scope, better=a, worse=b, n=len(score), score=ds, pass_rate=dr)


def _by_rank(s: Standing) -> tuple[bool, int, float]:
    return (s.rank is None, s.rank or 0, -(s.score.value if s.score else 0.0))


def _paired(paired: dict, scope: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The paired score and pass-rate differences in ``scope`` (every family's, overall)."""
    parts = [p for f, p in paired.items() if p.n and (scope == OVERALL or f == scope)]
    if not parts:
        return None
    return np.concatenate([p.score for p in parts]), np.concatenate([p.pass_rate for p in parts])


def _difference(diffs: np.ndarray, kw: dict) -> Difference:
    e = estimate(diffs, **kw)
    assert e is not None
    return Difference(e.value, e.low, e.high)


def _negate(d: Difference) -> Difference:
    return Difference(-d.estimate, -d.high, -d.low)


#: The most models :func:`_comparable` starts its comparison from, one after the other: its time
#: grows with their number times the results'.
MOST_FIRSTS = 32


def _comparable(cases: dict[str, set[str]]) -> tuple[set[str], list[str]]:
    """The cases to compare on and the models compared, from each model's judged ``cases``.

    Models are taken most shared first (by the sum, over its cases, of the models having each
    case); each joins if it has at least :data:`MIN_PAIRS` of the cases those before it share,
    narrowing them to its own, and is left out otherwise (a job whose every call failed, a smoke
    job of a few cases, files asked in another language or of another family). Which model comes
    first decides who can join (a big job of cases no other model ran shuts every other out), so
    the comparison is started from each of the first :data:`MOST_FIRSTS` models in turn, and the
    one comparing the most models (then the most cases) is kept. None when under two models are
    left of several."""
    models = [m for m, judged in cases.items() if judged]
    held = Counter(c for m in models for c in cases[m])
    order = sorted(models, key=lambda m: -sum(held[c] for c in cases[m]))  # (stable: ties in order)
    best: tuple[set[str], list[str]] = (set(), [])
    for first in order[:MOST_FIRSTS]:
        shared, compared = set(cases[first]), [first]
        if len(shared) < MIN_PAIRS:
            continue
        for m in order:
            common = shared & cases[m]
            if m != first and len(common) >= MIN_PAIRS:
                shared = common
                compared.append(m)
        if (len(compared), len(shared)) > (len(best[1]), len(best[0])):
            best = (shared, compared)
    shared, chosen = best
    if not chosen or (len(chosen) == 1 and len(models) > 1):  # one of several: nothing compared
        return set(), []
    return shared, [m for m in models if m in chosen]


def leaderboard(
    records: Iterable[CaseRecord],
    *,
    models: Sequence[str] | None = None,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = SEED,
) -> Leaderboard:
    """The leaderboard of ``records`` (every model's, any number), per family and overall.

    ``models`` gives the order of models shown (default: first seen); models without records are
    left out. Raises ``ValueError`` for a confidence outside (0, 1).
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    kw = dict(resamples=resamples, confidence=confidence, seed=seed)
    by_model: dict[str, list[CaseRecord]] = defaultdict(list)
    for r in records:
        by_model[r.model].append(r)
    order = [m for m in (models or ()) if m in by_model] + [m for m in by_model if m not in (models or ())]
    families = sorted({r.family for recs in by_model.values() for r in recs})
    scopes = (*families, OVERALL)
    standings: list[Standing] = []
    comparisons: list[Comparison] = []
    paired: dict[tuple[str, str], dict] = {}
    for scope in scopes:
        mine = {m: [r for r in by_model[m] if scope == OVERALL or r.family == scope] for m in order}
        mine = {m: recs for m, recs in mine.items() if recs}
        shared, compared = _comparable({m: {r.case for r in _judged(recs)} for m, recs in mine.items()})
        ranked_rows = {r.model: r for r in _ranked([_standing(m, scope, mine[m], shared, kw) for m in compared])}
        rows = [ranked_rows.get(m) or _standing(m, scope, recs, None, kw) for m, recs in mine.items()]
        standings += rows
        ranked = [st.model for st in sorted(rows, key=_by_rank) if st.rank is not None]
        for a, b in zip(ranked, ranked[1:]):
            if (a, b) not in paired:
                paired[a, b] = pair(by_model[a], by_model[b])
            p = _paired(paired[a, b], scope)
            if p is not None:
                comparisons.append(_compare(scope, a, b, *p, kw))
    return Leaderboard(
        models=tuple(order),
        scopes=scopes,
        standings=tuple(standings),
        comparisons=tuple(comparisons),
        resamples=resamples,
        confidence=confidence,
        seed=seed,
    )
