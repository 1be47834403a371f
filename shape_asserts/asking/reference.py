"""Reference drawers: in-process "models" that answer from the case's specification.

``reference/exact`` draws the ideal of every case (start point and direction honoured), so every
case passes: it calibrates the suite. ``reference/noisy`` is imperfect the way real models are —
jitter, a skipped run of points, a missed start, a doubled point — seeded by case and sample, so
it fails some cases and passes others, the same ones on every run.

They are reached through litellm as a custom provider (``reference/<style>``); the answer is
looked up from the prompt text, so any transport that carries the prompt (litellm, the local
OpenAI-compatible test server) gets the same drawing. The drawers know the built-in cases, the
benchmark's among them (indexed once, on first use), and the cases a run hands them with
:func:`serve` — its own case files: litellm's provider map is one per process, so that is where the
run tells the provider what it may be asked. A server is handed its case files by :func:`prepare`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shape_asserts.cases import Case, CaseIndex, builtin_cases, load_cases
from shape_asserts.cases.load import BENCHMARK

__all__ = [
    "STYLES",
    "draw",
    "answer_text",
    "answer_for_messages",
    "case_for_prompt",
    "prepare",
    "serve",
    "register_with_litellm",
]

STYLES = ("exact", "noisy")

#: The cases runs handed the drawers beyond the built-in ones (see :func:`serve`).
_SERVED = CaseIndex()


_BUILTIN: CaseIndex | None = None
_BUILTIN_LOCK = threading.Lock()


def _builtin_index() -> CaseIndex:
    # Built once, under a lock: the stub server answers each request on a thread of its own, and a
    # first wave of 16 requests used to build it 16 times over, all at once (1.2 s instead of 0.03 s)
    global _BUILTIN
    if _BUILTIN is None:
        with _BUILTIN_LOCK:
            if _BUILTIN is None:
                index = CaseIndex(builtin_cases())
                # the benchmark's too (+0.2 s, once): `-m benchmark` asks them of any drawer, a
                # server's included; those twin to a default case are dropped here as in a run
                index.add(c for c in load_cases(benchmark=True) if BENCHMARK in c.tags)
                _BUILTIN = index
    return _BUILTIN


def prepare(case_files: Sequence[str | Path] = ()) -> None:
    """Index every case a run can load now — built in, the benchmark's and ``case_files``' (the
    run's ``--shape-cases``) — as a server loads its model before it listens: the first requests
    are then answered as fast as the rest.

    Raises
    ------
    CaseError
        For a case file that cannot be loaded (naming the file and the case).
    """
    _builtin_index()
    if case_files:
        serve(load_cases(case_files, builtin=False))


def serve(cases: Iterable[Case]) -> None:
    """Let the drawers answer ``cases``' prompts too: a run hands over its own case files' cases."""
    _SERVED.add(cases)


def case_for_prompt(prompt: str) -> Case | None:
    """The case whose prompt is exactly ``prompt``: a built-in one, else one handed to :func:`serve`."""
    return _builtin_index().find(prompt) or _SERVED.find(prompt)


def _rng(case: Case, sample: int, style: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{style}:{case.id}:{sample}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def draw(case: Case, style: str = "exact", sample: int = 0) -> np.ndarray:
    """The drawer's points for ``case``: the ideal, or the ideal with seeded defects."""
    if style not in STYLES:
        raise ValueError(f"unknown reference style {style!r}; known: {', '.join(STYLES)}")
    pts = np.asarray(case.ideal(), dtype=np.int64)
    if style == "exact" or len(pts) < 8:
        return pts
    rng = _rng(case, sample, style)
    pts = pts.copy()
    if rng.random() < 0.25:  # missed start: begin 15–45 % of the way round
        pts = np.roll(pts, -int(len(pts) * rng.uniform(0.15, 0.45)), axis=0)
    if rng.random() < 0.5:  # jitter: a few points pushed one cell off the line
        for i in rng.choice(len(pts), size=max(1, len(pts) // 25), replace=False):
            pts[i] += rng.integers(-1, 2, size=2)
    if rng.random() < 0.3:  # a skipped run of points: a gap
        i = int(rng.integers(1, len(pts) - 8))
        pts = np.delete(pts, range(i, i + int(rng.integers(3, 7))), axis=0)
    if rng.random() < 0.15:  # a point written twice
        i = int(rng.integers(0, len(pts)))
        pts = np.insert(pts, i, pts[i], axis=0)
    return pts


def answer_text(case: Case, style: str = "exact", sample: int = 0) -> str:
    """The drawer's answer as a model would write it (noisy wraps it in prose and a fence)."""
    pts = draw(case, style, sample)
    p = case.params
    body: dict[str, Any] = {"grid_size": case.grid_size}
    if "center" in p:
        body["center"] = {"x": p["center"][0], "y": p["center"][1]}
    body["points"] = [{"x": int(x), "y": int(y)} for x, y in pts]
    text = json.dumps(body, ensure_ascii=False)
    if style == "noisy":
        return f"Вот контур:\n```json\n{text}\n```\nГотово."
    return text


def answer_for_messages(style: str, messages: list[dict[str, Any]], sample: int = 0) -> str:
    """Answer a chat request: find the case by its prompt and draw it.

    Raises
    ------
    LookupError
        When the prompt is not one of the loaded cases' prompts.
    """
    prompt = ""
    for m in messages:
        if m.get("role") == "user":
            content = m.get("content")
            prompt = content if isinstance(content, str) else json.dumps(content)
    case = case_for_prompt(prompt)
    if case is None:
        raise LookupError(
            "the reference drawer only answers the prompts of loaded cases (the built-in "
            "ones, the benchmark's, and the run's --shape-cases files; a server is given them "
            "with its own --shape-cases)"
        )
    return answer_text(case, style, sample)


_REGISTERED = False


def register_with_litellm(litellm: Any) -> None:
    """Register the ``reference`` custom provider with an imported litellm module (idempotent)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from litellm import CustomLLM  # imported here: litellm is only loaded for live asking

    def respond(model: str, messages: list, optional_params: dict | None, litellm_params: dict | None) -> Any:
        style = model.split("/", 1)[-1]
        meta = (litellm_params or {}).get("metadata") or {}
        sample = int(meta.get("shape_sample", 0) or 0)
        started = time.perf_counter()
        try:
            text = answer_for_messages(style, messages, sample)
        except (LookupError, ValueError) as exc:
            raise litellm.BadRequestError(
                message=f"reference/{style}: {exc}", model=model, llm_provider="reference"
            ) from None
        prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
        return litellm.ModelResponse(
            model=f"reference/{style}",
            choices=[{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            usage={
                "prompt_tokens": prompt_chars // 4,
                "completion_tokens": len(text) // 4,
                "total_tokens": prompt_chars // 4 + len(text) // 4,
            },
            response_ms=(time.perf_counter() - started) * 1000,
        )

    class ReferenceDrawer(CustomLLM):
        def completion(self, model, messages, *args, optional_params=None, litellm_params=None, **kwargs):  # type: ignore[override]
            return respond(model, messages, optional_params, litellm_params)

        async def acompletion(self, model, messages, *args, optional_params=None, litellm_params=None, **kwargs):  # type: ignore[override]
            return respond(model, messages, optional_params, litellm_params)

    litellm.custom_provider_map = [
        *[p for p in litellm.custom_provider_map if p.get("provider") != "reference"],
        {"provider": "reference", "custom_handler": ReferenceDrawer()},
    ]
    _REGISTERED = True
