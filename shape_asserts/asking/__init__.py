"""Asking: a case's answers, replayed from the recordings or asked of a model and recorded.

- ``asker.py`` — the :class:`~shape_asserts.asking.asker.Asker`: the run's call parameters and
  record mode over one store; decides replay vs ask, asks concurrently (retries, cost cap) and
  records each answer as it arrives. Both the up-front fetch and a test asking for itself use it.
- ``call.py`` — one model call through litellm (imported lazily): retries, Retry-After, the
  whole-call timeout, failures as ``ProviderError``, secrets redacted.
- ``model_config.py`` — arguments for the provider: ``--model-arg`` and named configurations
  (``--shape-models``), what each model of a run is asked with, and the refusal of secrets.
- ``prices.py`` — litellm's prices for a model: the most a call can cost before it is made (which
  ``--max-cost`` holds for each call in flight) and what an answer cost, in the region billed.
- ``store.py`` — recorded answers on disk: layout, staleness, corrupt files moved aside, atomic
  merged writes.
- ``runstate.py`` — what a run's asking did (progress counters) and could not do (the state file
  handed to xdist workers, raised per test).
- ``batch.py`` — ``--batch``: the planned samples as one provider batch per model (litellm's file
  and batch functions), polled, recorded like live answers; ``batch_state.py`` — the batch's state
  file (a killed run resumes it; every field checked against the run) and the reading of its
  output rows; ``batch_submit.py`` — submitting a batch exactly once (no hidden retries, a lock,
  a lost create reply found again or said to be of unknown fate).
- ``failure.py`` — what a failed call says (one line, secrets masked, ``--api-base`` shown as
  scheme://host:port); ``retry.py`` — which failures are retried, and how long to wait.
- ``reference.py`` — the in-process reference drawers, a litellm custom provider.
- ``stub_server.py`` — a local OpenAI-compatible server with injectable faults, for tests and benches;
  ``stub_batches.py`` — its batch and file endpoints.
"""
