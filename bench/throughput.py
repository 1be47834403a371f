"""Live throughput: how close a live run gets to the provider's limit N·L/C.

Starts the local OpenAI-compatible stub server on 127.0.0.1 with a fixed latency L, then fetches
N case-samples (all circle cases × --samples) through litellm with --concurrency C, exactly as a
``pytest --model=openai/exact --api-base=...`` run does before its tests. Prints the wall time and
its ratio to the bound N·L/C (goal: ≤ 1.5×). litellm's import and first-call set-up are measured
separately (a warm-up call), since they are paid once per run, not per call.

    python bench/throughput.py [--latency 0.3] [--samples 9] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")

from shape_asserts.asking.call import aask, load_litellm
from shape_asserts.asking.stub_server import StubServer
from shape_asserts.plugin.suite import Settings, plan, prefetch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--samples", type=int, default=9)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    litellm = load_litellm()
    t_import = time.perf_counter() - t0
    # Give the stub model a price, as every hosted model has: an unpriced name sends litellm's
    # cost lookup down a slow fallback search on every call, which real runs do not pay.
    litellm.register_model(
        {
            "openai/exact": {
                "input_cost_per_token": 1e-7,
                "output_cost_per_token": 4e-7,
                "litellm_provider": "openai",
                "mode": "chat",
            }
        }
    )
    with StubServer(latency=args.latency) as srv, tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            models=("openai/exact",),
            fixtures_dir=Path(tmp) / "fixtures",
            state_path=Path(tmp) / "state.json",
            api_base=srv.base_url,
            samples=args.samples,
            concurrency=args.concurrency,
            timeout=30.0,
        )
        params = [p for p in settings.params().values() if p.case.family == "circle"]
        t0 = time.perf_counter()
        asyncio.run(aask("openai/exact", params[0].case.messages("en"), api_base=srv.base_url))  # warm-up, not recorded
        t_warm = time.perf_counter() - t0
        t0 = time.perf_counter()
        progress = prefetch(settings, plan(settings, params))
        wall = time.perf_counter() - t0
        n = progress.planned if progress else 0
        bound = n * args.latency / args.concurrency
        print(f"machine: {os.cpu_count()} cores")
        print(f"litellm import {t_import:.1f} s, first call {t_warm:.2f} s (once per run)")
        print(f"N={n} case-samples, L={args.latency:g} s, C={args.concurrency}: bound N·L/C = {bound:.2f} s")
        print(
            f"fetch wall time {wall:.2f} s = {wall / bound:.2f}× the bound "
            f"(max in flight at the server: {srv.state.max_in_flight}; answered {progress.answered})"
        )
        print(f"cost recorded: ${progress.cost_usd:.4f} (stub priced at $0.1/$0.4 per million tokens)")
        print(f"goal ≤ 1.5×: {'met' if wall / bound <= 1.5 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
