"""The baseline gate: is a candidate model worse at drawing than the baseline, beyond noise?

Pure functions over the tests' :class:`~shape_asserts.results.record.CaseRecord` s (their per-sample
scores and pass/fail; numpy only, no I/O, no pytest), so every rule below is unit-tested on plain
numbers (``tests/unit/test_gate.py``). Records that were not judged (errors, skips) do not pair.

The rules
---------
Per shape family, candidate and baseline are *paired* on the cases both have results for, and on
the sample indices both have within a case. For each paired case two differences are taken,
candidate minus baseline:

* **score** — the difference of the mean sample score (points on the 0–100 scale);
* **pass rate** — the difference of the share of samples passing every check, in percentage points.

Each mean difference gets a percentile bootstrap confidence interval that resamples *cases* (not
samples: cases are the units that differ in difficulty), :data:`RESAMPLES` times with the fixed
seed :data:`SEED`, so a verdict is reproducible bit for bit. With the margin ``m`` (``--gate-margin``):

* **FAIL** when the upper bound of either interval is below ``−m``: the candidate is worse by more
  than the margin, with confidence;
* **PASS** when the lower bounds of both are at least ``−m``: any loss is within the margin;
* **UNDECIDED** otherwise — or whenever fewer than :data:`MIN_PAIRS` cases pair up, because a
  bootstrap over a handful of cases cannot be trusted either way; unless each of those few cases
  is worse than the baseline's by more than the margin (on score or on pass rate), which FAILS:
  a certain loss on every case asked is no lack of evidence. An undecided family says how many
  paired cases would likely decide it (the interval's half-width shrinks as ``1/sqrt(n)``).

Overall, the gate FAILS when any family fails, PASSES when every family passes, and is UNDECIDED
otherwise. Noise alone never makes a FAIL: identical drawings give a zero-width interval at 0.

Whatever the families show, the gate FAILS when its results are incomplete (:func:`shortfall`): a
selected case without a result for the candidate or the baseline (skipped by ``--max-cost``,
errored, never run), a run stopped early (``-x``, ``--maxfail``) or tests lost to crashed xdist
workers. A gate over the cases that happened to finish would pass a model on what it was not
asked; :func:`exit_status` makes such a run exit non-zero and says why in one line.

Example
-------
>>> exact = [CaseRecord.from_scores("m", f"c{i}", "circle", (99.0,), (True,)) for i in range(8)]
>>> gate({"new": exact}, "old", exact).verdict
'PASS'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shape_asserts.defaults import GATE_MARGIN
from shape_asserts.results.record import CaseRecord

__all__ = [
    "PASS",
    "FAIL",
    "UNDECIDED",
    "DEFAULT_MARGIN",
    "RESAMPLES",
    "CONFIDENCE",
    "SEED",
    "MIN_PAIRS",
    "Paired",
    "Difference",
    "FamilyGate",
    "Gate",
    "pair",
    "bootstrap_ci",
    "difference",
    "decide",
    "cases_needed",
    "gate_family",
    "gate",
    "NOT_RESULTS",
    "shortfall",
    "exit_status",
]

PASS = "PASS"
FAIL = "FAIL"
UNDECIDED = "UNDECIDED"

#: Default ``--gate-margin``: score points, and percentage points of pass rate.
DEFAULT_MARGIN = GATE_MARGIN
#: Bootstrap resamples per interval.
RESAMPLES = 10_000
#: Two-sided confidence of the intervals.
CONFIDENCE = 0.95
#: Seed of the bootstrap's generator: the same results give the same verdict on every machine.
SEED = 20_261_130
#: Fewest paired cases a family needs before it can PASS or FAIL.
MIN_PAIRS = 5
#: Comparisons with the margin tolerate this much float noise (a mean of equal numbers can land a
#: few ulps off them, which must not flip a verdict at the boundary).
_EPS = 1e-9
#: Resampled indices drawn and averaged at once (2 MB of indices, 2 MB of picked values): memory
#: stays bounded for any number of cases.
_BLOCK = 250_000
#: pytest's exit statuses of a run that did not get as far as results (interrupted, internal
#: error, usage error, no tests collected): a gated run keeps them, all non-zero.
NOT_RESULTS = (2, 3, 4, 5)
#: Characters of a missing case's reason quoted in the gate's one line.
_WHY_CHARS = 200


@dataclass(frozen=True)
class Paired:
    """One family's cases that both models have, as per-case differences (candidate − baseline)."""

    family: str
    cases: tuple[str, ...]
    score: np.ndarray  # (n,) difference of mean score per case, in points
    pass_rate: np.ndarray  # (n,) difference of pass rate per case, in percentage points
    candidate_only: tuple[str, ...] = ()
    baseline_only: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.cases)


@dataclass(frozen=True)
class Difference:
    """A mean paired difference and its bootstrap confidence interval."""

    estimate: float
    low: float
    high: float

    def verdict(self, margin: float) -> str:
        """This difference alone: FAIL, PASS or UNDECIDED against ``−margin``."""
        return decide(self.low, self.high, margin)


@dataclass(frozen=True)
class FamilyGate:
    """One candidate × family: the paired differences and their verdict."""

    candidate: str
    baseline: str
    family: str
    n: int
    score: Difference | None
    pass_rate: Difference | None
    verdict: str
    reason: str
    need: int | None = None  # paired cases that would likely decide an UNDECIDED family
    candidate_only: int = 0
    baseline_only: int = 0


@dataclass(frozen=True)
class Gate:
    """The whole gate: every candidate × family against the baseline, and the overall verdict."""

    baseline: str
    margin: float
    families: tuple[FamilyGate, ...]
    resamples: int = RESAMPLES
    confidence: float = CONFIDENCE
    seed: int = SEED
    #: Why the results are incomplete, in one line (:func:`shortfall`); "" when they are whole.
    incomplete: str = ""

    @property
    def verdict(self) -> str:
        if self.incomplete:
            return FAIL  # only a run with every selected case's result may pass
        verdicts = [f.verdict for f in self.families]
        if FAIL in verdicts:
            return FAIL
        if verdicts and all(v == PASS for v in verdicts):
            return PASS
        return UNDECIDED

    def failing(self) -> list[FamilyGate]:
        return [f for f in self.families if f.verdict == FAIL]

    def undecided(self) -> list[FamilyGate]:
        return [f for f in self.families if f.verdict == UNDECIDED]


def _mean(values: Sequence[float]) -> float:
    # a case has a few samples: numpy's call costs more than the sum (56,000 calls at ten models)
    return statistics.fmean(values) if len(values) else math.nan


def pair(candidate: Iterable[CaseRecord], baseline: Iterable[CaseRecord]) -> dict[str, Paired]:
    """Pair two models' judged records by family, case and sample index; per-case differences.

    Only the sample indices both have count (``min`` of the two lengths); a case without any
    common sample, or judged on one side only, is listed as unpaired. Families come out sorted.
    """
    cand = {(c.family, c.case): (c.scores, c.sample_passed) for c in candidate if c.judged}
    base = {(c.family, c.case): (c.scores, c.sample_passed) for c in baseline if c.judged}
    families = sorted({f for f, _ in cand} | {f for f, _ in base})
    out = {}
    for family in families:
        ids: list[str] = []
        score: list[float] = []
        rate: list[float] = []
        c_only: list[str] = []
        b_only: list[str] = []
        for key in sorted(k for k in cand.keys() | base.keys() if k[0] == family):
            c, b = cand.get(key), base.get(key)
            k = min(len(c[0]), len(b[0])) if c and b else 0
            if k == 0 or c is None or b is None:
                (c_only if c is not None else b_only).append(key[1])
                continue
            (c_scores, c_passed), (b_scores, b_passed) = c, b
            ids.append(key[1])
            score.append(_mean(c_scores[:k]) - _mean(b_scores[:k]))
            rate.append(100.0 * (_mean([float(p) for p in c_passed[:k]]) - _mean([float(p) for p in b_passed[:k]])))
        out[family] = Paired(
            family, tuple(ids), np.asarray(score, float), np.asarray(rate, float), tuple(c_only), tuple(b_only)
        )
    return out


def bootstrap_ci(
    diffs: np.ndarray, *, resamples: int = RESAMPLES, confidence: float = CONFIDENCE, seed: int = SEED
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``diffs`` (shape ``(n,)``), resampling entries.

    >>> bootstrap_ci(np.zeros(6))
    (0.0, 0.0)
    """
    d = np.asarray(diffs, dtype=float)
    if d.ndim != 1 or len(d) == 0:
        raise ValueError(f"diffs must be a non-empty 1-D array, got shape {d.shape}")
    means = np.concatenate([d[picks].mean(axis=1) for picks in _resamples(len(d), resamples, seed)])
    tail = (1.0 - confidence) / 2
    low, high = np.quantile(means, [tail, 1.0 - tail])
    # never wider than the data: a mean of equal numbers can drift a few ulps off them
    return float(max(low, d.min())), float(min(high, d.max()))


def _resamples(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The entries each resample of ``n`` entries picks, in blocks of rows."""
    rng = np.random.default_rng(seed)
    block = max(1, _BLOCK // n)
    for start in range(0, resamples, block):
        yield rng.integers(0, n, size=(min(block, resamples - start), n))


def difference(diffs: np.ndarray, **kwargs) -> Difference:
    """The mean of ``diffs`` with its bootstrap interval (keyword arguments: :func:`bootstrap_ci`)."""
    low, high = bootstrap_ci(diffs, **kwargs)
    return Difference(float(np.mean(diffs)), low, high)


def decide(low: float, high: float, margin: float) -> str:
    """FAIL when the whole interval is below ``−margin``, PASS when none of it is, else UNDECIDED."""
    if high < -margin - _EPS:
        return FAIL
    if low >= -margin - _EPS:
        return PASS
    return UNDECIDED


def _needed_for(d: Difference, n: int, margin: float) -> tuple[str, float]:
    """Where one difference is heading (PASS or FAIL) and the cases it needs to get there."""
    state = d.verdict(margin)
    if state != UNDECIDED:
        return state, float(n)
    gap = d.estimate + margin  # distance of the estimate from the boundary −margin
    if abs(gap) <= _EPS:
        return PASS, math.inf  # sits on the margin: no number of cases is sure to decide it
    # the interval's side facing the boundary scales as 1/sqrt(n); it must shrink inside |gap|
    side = (d.estimate - d.low) if gap > 0 else (d.high - d.estimate)
    return (PASS if gap > 0 else FAIL), n * (side / abs(gap)) ** 2


def cases_needed(diffs: Sequence[Difference], n: int, margin: float, min_pairs: int = MIN_PAIRS) -> int | None:
    """About how many paired cases would decide the gate, or ``None`` if no number would.

    A family fails as soon as one difference fails, and passes once all of them pass: so the need
    is the fewest cases for any difference heading to FAIL, else the most for those heading to PASS.
    """
    heading = [_needed_for(d, n, margin) for d in diffs]
    to_fail = [k for state, k in heading if state == FAIL]
    to_pass = [k for state, k in heading if state == PASS]
    need = min(to_fail) if to_fail else (max(to_pass) if to_pass else math.inf)
    if not math.isfinite(need):
        return None
    return max(int(math.ceil(need - 1e-9)), min_pairs)


def gate_family(
    paired: Paired,
    *,
    candidate: str,
    baseline: str,
    margin: float = DEFAULT_MARGIN,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = SEED,
    min_pairs: int = MIN_PAIRS,
) -> FamilyGate:
    """The verdict for one candidate × family from its paired differences."""
    common: dict[str, Any] = dict(
        candidate=candidate,
        baseline=baseline,
        family=paired.family,
        n=paired.n,
        candidate_only=len(paired.candidate_only),
        baseline_only=len(paired.baseline_only),
    )
    if paired.n == 0:
        missing = "the baseline" if paired.candidate_only else "the candidate"
        return FamilyGate(
            score=None,
            pass_rate=None,
            verdict=UNDECIDED,
            need=None,
            reason=f"no paired cases: {missing} has no results for this family",
            **common,
        )
    kw = dict(resamples=resamples, confidence=confidence, seed=seed)
    score, rate = difference(paired.score, **kw), difference(paired.pass_rate, **kw)
    verdicts = {"score": score.verdict(margin), "pass rate": rate.verdict(margin)}
    bound = f"-{margin:g}"
    worse_each = [name for name, d in (("score", paired.score), ("pass rate", paired.pass_rate)) if d.max() < -margin]
    if paired.n < min_pairs and worse_each:
        verdict = FAIL
        reason = (
            f"each of the {paired.n} paired case(s) is worse than the baseline beyond the margin "
            f"({' and '.join(worse_each)} below {bound})"
        )
    elif paired.n < min_pairs:
        verdict = UNDECIDED
        reason = f"only {paired.n} paired case(s); at least {min_pairs} are needed to decide"
    elif FAIL in verdicts.values():
        verdict = FAIL
        worse = [
            f"{name} {d.estimate:+.2f} (upper bound {d.high:+.2f} < {bound})"
            for name, d in (("score", score), ("pass rate", rate))
            if verdicts[name] == FAIL
        ]
        reason = "worse than the baseline beyond the margin: " + "; ".join(worse)
    elif all(v == PASS for v in verdicts.values()):
        verdict = PASS
        reason = f"any loss is within the margin (lower bounds {score.low:+.2f}, {rate.low:+.2f} ≥ {bound})"
    else:
        verdict = UNDECIDED
        open_ = [name for name, v in verdicts.items() if v == UNDECIDED]
        reason = f"the interval of {' and '.join(open_)} straddles {bound}"
    need = cases_needed([score, rate], paired.n, margin, min_pairs) if verdict == UNDECIDED else None
    return FamilyGate(score=score, pass_rate=rate, verdict=verdict, reason=reason, need=need, **common)


def gate(
    candidates: Mapping[str, Iterable[CaseRecord]],
    baseline_name: str,
    baseline: Iterable[CaseRecord],
    *,
    margin: float = DEFAULT_MARGIN,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = SEED,
    min_pairs: int = MIN_PAIRS,
    incomplete: str = "",
) -> Gate:
    """Gate every candidate against the baseline, family by family.

    ``candidates`` maps a model name to its records (those not judged are left out).
    ``incomplete`` says why the run's results are short (:func:`shortfall`): the gate then fails,
    whatever the families show. Raises ``ValueError`` for a negative margin or a confidence
    outside (0, 1).
    """
    if not margin >= 0 or not math.isfinite(margin):
        raise ValueError(f"margin must be a finite number ≥ 0, got {margin}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    base = list(baseline)
    families = []
    for name, results in candidates.items():
        for paired in pair(results, base).values():
            families.append(
                gate_family(
                    paired,
                    candidate=name,
                    baseline=baseline_name,
                    margin=margin,
                    resamples=resamples,
                    confidence=confidence,
                    seed=seed,
                    min_pairs=min_pairs,
                )
            )
    return Gate(
        baseline=baseline_name,
        margin=margin,
        families=tuple(families),
        resamples=resamples,
        confidence=confidence,
        seed=seed,
        incomplete=incomplete,
    )


# --- is the run whole, and its exit status ------------------------------------------------------


def shortfall(
    selected: Iterable[str],
    records: Iterable[CaseRecord],
    models: Sequence[str],
    *,
    baseline: str,
    stopped: str = "",
    crashed: int = 0,
) -> str:
    """Why a gated run's results cannot pass, in one line; "" when they are whole.

    Every case the run selected (``selected``: case ids, for any model) needs a judged record from
    every model in ``models`` (the candidates, then the baseline; the counts come in this order).
    ``stopped`` is pytest's reason for stopping before the last test (``-x``, ``--maxfail``),
    ``crashed`` the number of tests lost to crashed xdist workers. A run that selected no case at
    all has nothing to gate on: that too is a shortfall.
    """
    records = list(records)
    judged = {(r.model, r.case) for r in records if r.judged}
    unjudged = {(r.model, r.case): r for r in records if not r.judged}
    cases = set(selected) | {r.case for r in records}
    wanted = {(model, case) for model in models for case in cases}
    parts = []
    if stopped:
        parts.append(f"the run stopped early ({stopped})")
    if crashed:
        parts.append(f"{crashed} test(s) were lost to crashed xdist workers")
    if not cases:  # no evidence at all, not too little: never an undecided gate let through
        parts.append("no shape case was selected (-k, -m, --deselect or the paths given left none)")
    missing = sorted(wanted - judged)
    if missing:
        parts.append(_missing_text(missing, wanted, models, baseline, unjudged))
    return "; ".join(parts)


def _missing_text(
    missing: list[tuple[str, str]],
    wanted: set[tuple[str, str]],
    models: Sequence[str],
    baseline: str,
    unjudged: Mapping[tuple[str, str], CaseRecord],
) -> str:
    """How many selected cases of each model have no result, and why the first of them has none."""
    order = {m: i for i, m in enumerate(models)}
    by_model = sorted({m for m, _ in missing}, key=lambda m: (order.get(m, len(order)), m))
    counts = []
    for model in by_model:
        short = sum(1 for m, _ in missing if m == model)
        total = sum(1 for m, _ in wanted if m == model)
        role = "baseline " if model == baseline else ""
        counts.append(f"{short} of {total} {role}{model} case(s)")
    first = min(missing, key=lambda k: (order.get(k[0], len(order)), k[0], k[1]))
    record = unjudged.get(first)
    if record is None or not record.reason:
        why = "did not run"
    elif record.reason.lower().startswith(record.outcome):  # a skip's reason reads "Skipped: ..."
        why = record.reason
    else:
        why = f"{record.outcome}: {record.reason}"
    if len(why) > _WHY_CHARS:  # the test's own report has it whole
        why = why[:_WHY_CHARS] + "…"
    return f"{' and '.join(counts)} have no result (first: {first[0]} {first[1]}, {why})"


def exit_status(
    status: int,
    g: Gate,
    *,
    errors: int = 0,
    other_failures: int = 0,
    collect_errors: int = 0,
    undecided: str = "pass",
) -> tuple[int, str]:
    """A gated run's exit status, and why in one line.

    pytest's status is kept when the run did not get as far as results (:data:`NOT_RESULTS`). It is
    1 when a test errored, a test file could not be collected (``--continue-on-collection-errors``
    ran the rest), a test that is no shape case failed, or the gate's results are
    incomplete (:attr:`Gate.incomplete`); otherwise the gate's: 0 for PASS, 1 for FAIL, and for
    UNDECIDED 0 with ``undecided="pass"`` or 1 with ``"fail"``. Failed shape cases alone do not
    count: the gate compares the candidate with the baseline, which may fail the same cases.
    """
    status = int(status)
    incomplete = f"the gate cannot pass: {g.incomplete}" if g.incomplete else ""
    if status in NOT_RESULTS:
        why = f"pytest's own (the run ended with status {status} before the gate could count)"
        return status, "; ".join(r for r in (why, incomplete) if r)
    reasons = []
    if errors:
        reasons.append(f"{errors} test(s) errored; the harness could not produce every result the gate needs")
    if collect_errors:
        reasons.append(f"{collect_errors} collection error(s): what they held never ran")
    if other_failures:
        reasons.append(f"{other_failures} test(s) that are not shape cases failed")
    if incomplete:
        reasons.append(incomplete)
    if reasons:
        return 1, "; ".join(reasons)
    verdict = (
        "the gate's verdict (with --baseline the run's status is the gate's; failed cases above are shown, not counted)"
    )
    if g.verdict == PASS:
        return 0, verdict
    if g.verdict == FAIL:
        return 1, verdict
    return (1 if undecided == "fail" else 0), verdict
