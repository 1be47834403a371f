"""The shape suite as an inspect_ai task: the same cases, prompts and scorer, run by inspect_ai.

After ``pip install 'shape-asserts[inspect]'`` the task is registered through the ``inspect_ai``
entry point (``pyproject.toml``), so inspect finds it by name::

    inspect eval shape_asserts/shapes -T family=circle --model openai/gpt-4o-mini
    inspect eval shape_asserts/shapes -T benchmark=true -T lang=en -T samples=3 --model ...

Thin wiring, as the pytest plugin is: the cases come from :mod:`shape_asserts.cases`, each sample
is the case's own prompt, each answer is judged by :func:`shape_asserts.results.verdict.judge`
(parse, the family's scorer, the verdict), and the task's numbers are the leaderboard's
(:mod:`shape_asserts.results.leaderboard`): the mean case score, the pass rate and the stability
across start points (the mean spread of a case's score over groups of cases that differ only in
start point and direction). ``-T samples=N`` asks every case N times (inspect's epochs), and a
case's samples are averaged before anything else, as the leaderboard does.

This is the one module of the package that imports inspect_ai; nothing else imports it, so the
library, the plugin and a replayed run never load it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ContentText, GenerateConfig, ModelOutput
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState, generate

from shape_asserts import defaults
from shape_asserts.asking.failure import redact, redact_json
from shape_asserts.asking.recorded import RecordedAnswer
from shape_asserts.cases import Case, load_cases
from shape_asserts.cases.load import BENCHMARK
from shape_asserts.results.leaderboard import OVERALL, leaderboard
from shape_asserts.results.record import CaseRecord, SampleRecord
from shape_asserts.results.verdict import CaseResult, judge, meets

__all__ = ["shapes", "shape_scorer", "shape_metrics", "select_cases", "recorded_answer"]

#: inspect's reasons a model stopped, as the finish reasons the verdict reads (others: none said).
_FINISH_REASONS = {
    "stop": "stop",
    "max_tokens": "length",
    "model_length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}
#: The records the metric builds stand for one model: inspect computes metrics per model run.
_MODEL = "inspect"


@task
def shapes(
    family: str | list[str] | None = None,
    benchmark: bool = False,
    lang: str = defaults.LANG,
    samples: int = defaults.SAMPLES,
) -> Task:
    """The shape suite's cases as one inspect_ai task.

    Parameters
    ----------
    family
        A family's name (``-T family=circle``), several (``-T family=circle,spiral``, or a list),
        or ``None`` for every family.
    benchmark
        ``True``: the benchmark matrix (the cases ``pytest -m benchmark`` runs); ``False``: the
        default run's cases.
    lang
        The prompts' language: ``ru`` (the seed post's) or ``en``.
    samples
        Answers per case (inspect's epochs), averaged per case before the metrics.
    """
    cases = select_cases(family, benchmark)
    lang = _checked_lang(lang)
    epochs = _checked_samples(samples)
    dataset = MemoryDataset([_sample(case, lang) for case in cases], name="shape-asserts")
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=shape_scorer({case.id: case for case in cases}),
        epochs=Epochs(epochs, "mean"),
        # the suite's own default: room for the longest drawing (inspect's --max-tokens overrides it)
        config=GenerateConfig(max_tokens=defaults.MAX_TOKENS),
        metadata={"lang": lang, "benchmark": benchmark, "families": sorted({c.family for c in cases})},
    )


def select_cases(family: str | Sequence[str] | None, benchmark: bool) -> list[Case]:
    """The built-in cases of ``family`` (one name, several, or ``None`` for all), in the benchmark
    matrix or out of it; raises ``ValueError`` naming what was asked and what is known."""
    if not isinstance(benchmark, bool):
        raise ValueError(f"shapes: -T benchmark={benchmark!r} is not true or false; write -T benchmark=true")
    cases = [c for c in load_cases(benchmark=benchmark) if (BENCHMARK in c.tags) == benchmark]
    if family is None:
        return cases
    # inspect's -T splits "circle,spiral" into a list; eval()'s task_args hands the text as it is
    wanted = family.split(",") if isinstance(family, str) else list(family)
    known = sorted({c.family for c in cases})
    unknown = [name for name in wanted if name not in known]
    if unknown:
        where = "the benchmark matrix" if benchmark else "the default cases"
        raise ValueError(
            f"shapes: -T family={','.join(map(str, wanted))}: no case of {', '.join(map(repr, unknown))} in {where}; "
            f"families with cases there: {', '.join(known)}"
        )
    return [c for c in cases if c.family in wanted]


def _checked_lang(lang: str) -> str:
    if lang not in defaults.LANGS:
        raise ValueError(
            f"shapes: -T lang={lang!r} is not a prompt language; choose one of {', '.join(defaults.LANGS)}"
        )
    return lang


def _checked_samples(samples: int) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= defaults.MAX_SAMPLES:
        raise ValueError(
            f"shapes: -T samples={samples!r} is not a whole number of answers per case from 1 to "
            f"{defaults.MAX_SAMPLES:,}; write -T samples=3"
        )
    return samples


def _sample(case: Case, lang: str) -> Sample:
    """One case as an inspect sample: its prompt as the one user message, as the suite sends it."""
    return Sample(
        id=case.id,
        input=case.prompt(lang),
        metadata={"case": case.id, "family": case.family, "group": case.group, "variant": case.variant},
    )


def recorded_answer(output: ModelOutput) -> RecordedAnswer:
    """inspect's model output as the answer the verdict reads: its text, a refusal, the tool calls'
    arguments and why it ended (the same facts a recording keeps).

    Each is masked (:func:`redact`) as a recording's answers are, before the verdict quotes or cuts
    any of it: a key the cut of a quote goes through is no longer found whole afterwards."""
    if not output.choices:
        return RecordedAnswer(text=redact(output.completion))
    message = output.message
    texts: list[str] = []
    refusals: list[str] = []
    if isinstance(message.content, str):
        texts.append(message.content)
    else:
        for part in message.content:
            if isinstance(part, ContentText):
                (refusals if part.refusal else texts).append(part.text)
    arguments = tuple(json.dumps(redact_json(call.arguments)) for call in message.tool_calls or ())
    return RecordedAnswer(
        text=redact("".join(texts)),
        finish_reason=_FINISH_REASONS.get(output.stop_reason),
        refusal=redact("".join(refusals)) or None,
        tool_arguments=arguments,
    )


@metric
def shape_metrics() -> Metric:
    """The leaderboard's numbers for the run: ``mean_score`` (0–100), ``pass_rate`` (0–1) and
    ``stability`` (the mean spread across start points, in score points; lower is steadier)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        board = leaderboard([_case_record(s) for s in scores])
        standing = board.standing(_MODEL, OVERALL)
        if standing is None or standing.score is None or standing.pass_rate is None:
            return {}
        out = {"mean_score": standing.score.value, "pass_rate": standing.pass_rate.value / 100.0}
        if standing.spread is not None:  # no case shares its group with another drawing: no spread
            out["stability"] = standing.spread.value
        return out

    return compute


def _case_record(reduced: SampleScore) -> CaseRecord:
    """A case's record from its score with its samples averaged (inspect reduces epochs first):
    the case score and pass rate are those means, as the leaderboard would take them."""
    # the scorer's own keys, each a mean over the case's samples
    value = {k: float(v) for k, v in reduced.score.as_dict().items() if isinstance(v, (int, float))}
    meta = reduced.sample_metadata or {}
    rate = value["passed"]
    return CaseRecord(
        model=_MODEL,
        case=str(meta.get("case", reduced.sample_id)),
        family=str(meta.get("family", "")),
        group=str(meta.get("group", "")),
        outcome="passed" if meets(rate, defaults.MIN_PASS_RATE) else "failed",
        score=value["score"],
        pass_rate=rate,
        # whether any sample was a drawing: stability counts only cases that drew
        drawn=int(value["drawn"] > 0),
    )


@scorer(metrics=[shape_metrics()])
def shape_scorer(cases: dict[str, Case]) -> Scorer:
    """Scores an answer as the suite does: the value holds the ``score``, whether it ``passed``
    every check, and whether it ``drawn`` at all; the metadata holds the verdict and every check."""

    async def score(state: TaskState, target: Target) -> Score:
        case = cases[str(state.sample_id)]
        judged = judge(case, str(state.model), [recorded_answer(state.output)])
        # the sample's number is its epoch, so the failure message names the answer it shows
        sample = dataclasses.replace(judged.samples[0], index=state.epoch - 1)
        result = dataclasses.replace(judged, samples=(sample,))
        return Score(
            value={"score": sample.value, "passed": float(sample.passed), "drawn": float(sample.drawing is not None)},
            explanation=_explanation(result),
            metadata=_verdict(result),
        )

    return score


def _verdict(result: CaseResult) -> dict[str, Any]:
    """What a sample's score carries: the verdict, every check and the metrics, as the result
    record writes them (JSON types; the answer itself is in inspect's log already)."""
    sample = SampleRecord.from_sample(result.samples[0])
    return {
        "verdict": "passed" if sample.passed else "failed",
        "format_error": redact(sample.format_error) if sample.format_error is not None else None,
        "checks": [check.to_json() for check in sample.checks],
        "metrics": dict(sample.metrics),
    }


def _explanation(result: CaseResult) -> str:
    """The suite's own words: the score when it passed, else its failure message and drawing,
    redacted as the suite's own failure text is (the answer it quotes may hold a token)."""
    sample = result.samples[0]
    if sample.passed:
        return f"passed every check (score {sample.value:.2f})"
    return redact(result.failure_message())
