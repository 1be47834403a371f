"""The run's default settings, in one place.

The option table (:mod:`shape_asserts.plugin.options`) shows these as each option's default, and
the library's own signatures use them, so a default is changed here and nowhere else. The values
an option allows live here too (its owner imports them from here), so the option table reads
nothing heavier than this module: the plugin loads in every pytest run.
"""

from __future__ import annotations

__all__ = [
    "MODEL",
    "RECORD",
    "LANG",
    "TIMEOUT",
    "CONCURRENCY",
    "MAX_RETRIES",
    "TIMEOUT_RETRIES_HOSTED",
    "TIMEOUT_RETRIES_LOCAL",
    "MAX_TOKENS",
    "SAMPLES",
    "MIN_PASS_RATE",
    "GATE_MARGIN",
    "GATE_UNDECIDED",
    "BATCH",
    "BATCH_POLL",
    "BATCH_HEARTBEAT",
    "BATCH_WAIT",
    "FIXTURES_DIR",
    "SNAPSHOTS_DIR",
    "RECORD_MODES",
    "LANGS",
    "UNDECIDED_POLICIES",
    "UNSEEN",
]

#: The model asked when none is named: the in-process reference drawer (no key, no network).
MODEL = "reference/exact"
#: Record modes: replay only; ask only for what is not recorded; ask everything again.
RECORD_MODES = ("none", "missing", "all")
#: Record mode: ask only for what is not recorded.
RECORD = "missing"
#: Prompt languages: the seed post's, and English.
LANGS = ("ru", "en")
#: Prompt language: the seed post's.
LANG = "ru"
#: Seconds one model call may take, connect to last byte.
TIMEOUT = 120.0
#: Most model calls in flight at once, per run.
CONCURRENCY = 16
#: Retries of one call after a retriable provider reply (a 5xx, a dropped connection).
MAX_RETRIES = 3
#: Seconds in which a model refusing calls for a rate limit (429) answers none before its calls end
#: (the one refused then, and every one not yet sent): a quota per minute has reset well within it.
#: While the model answers some calls (a quota smaller than the calls in flight), the refused ones
#: wait their turn. A 429 is not billed, so only time is spent.
RATE_LIMIT_PATIENCE = 120.0
#: Retries of one call that timed out, at a server on this machine or a private network: none,
#: since a local server goes on generating for a client that left (it is slow, not flaky), and
#: asking again at once only piles up work.
TIMEOUT_RETRIES_LOCAL = 0
#: Retries of one call that timed out anywhere else: two, as the openai client makes (a hosted
#: server's stalled reply is a transient fault).
TIMEOUT_RETRIES_HOSTED = 2
#: Most tokens a model may write in one answer (sent as litellm's ``max_tokens``). The longest
#: built-in ideal answer is ~5,600 characters, ~1,900 tokens at 3 characters a token
#: (``python bench/answer_tokens.py``); 4,096 leaves room for prose, fences and indentation.
MAX_TOKENS = 4096
#: Answers per case.
SAMPLES = 1
#: Most answers per case a run asks (``--samples``, inspect's ``-T samples``): each is a call, and a
#: run plans them all at its start.
MAX_SAMPLES = 1_000
#: Share of a case's samples that must pass.
MIN_PASS_RATE = 1.0
#: How much worse (score points, pass-rate points) a candidate may be before the gate fails.
GATE_MARGIN = 2.0
#: What ``--gate-undecided`` may say an UNDECIDED gate does to the exit status.
UNDECIDED_POLICIES = ("pass", "fail")
#: What an UNDECIDED gate does to the exit status: the gate refuses only what it shows to be worse.
GATE_UNDECIDED = "pass"
#: Whether a run's missing answers are asked as one provider batch per model (``--batch``).
BATCH = False
#: Seconds between two polls of a submitted batch: a provider's batch takes minutes to hours.
BATCH_POLL = 30.0
#: Most seconds between two lines while a batch is polled, changed or not: a run is never silent
#: for longer while it waits.
BATCH_HEARTBEAT = 60.0
#: Seconds a run polls its batch before it stops waiting: the batch runs on at the provider, its
#: state is kept, and a later run fetches its answers.
BATCH_WAIT = 3600.0
#: Folders, relative to the rootdir.
FIXTURES_DIR = "fixtures"
SNAPSHOTS_DIR = "snapshots"

#: Characters dropped wherever a model's or a provider's text is shown (terminal, report, leaderboard),
#: as the body of a regular-expression character class: bidirectional overrides and isolates
#: (U+202A–U+202E, U+2066–U+2069), marks (U+061C, U+200E, U+200F) and zero-width characters
#: (U+200B–U+200D, U+FEFF). They reorder or hide the text around them.
UNSEEN = "\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
