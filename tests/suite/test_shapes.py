"""The shape suite: one test per model × case (see shape_asserts.plugin).

Run it against a hosted model with ``pytest -n auto --model=gpt-4o``; by default it asks the
in-process reference drawer ``reference/exact`` and replays recorded answers from ``fixtures/``.
"""


def test_drawing(shape_run):
    shape_run.check()
