"""Results: a case's answers judged, recorded once per test, and everything shown from the records.

The walk: :mod:`verdict` judges a case's answer texts (parse, score, pass rate) inside the test;
the plugin turns that verdict and the test's outcome into one :class:`record.CaseRecord`, which
travels as a single JSON user property (``shape_result``: across xdist, into JUnit XML). One
collector on the controller (:class:`shape_asserts.plugin.session.VerdictSession`) gathers the
records; every consumer below reads only them.

Modules
-------
``record``
    :class:`~shape_asserts.results.record.CaseRecord` (with its samples and checks): typed, frozen,
    ``to_json``/``from_json``; the one shape a result has after the test that made it.
``verdict``
    Judging: answer texts → parsed, scored samples → pass/fail and the failure message.
``assertions``, ``render``
    Pictures of a drawing for failure messages (ASCII) and for the report (SVG, PNG).
``snapshots``
    Where syrupy pins each case's result summary (``snapshots/``).
``summary``
    The terminal table: per model × family, cases, outcomes, mean/worst score and stability.
``gate``
    The baseline gate: paired bootstrap over the records' sample scores and pass/fail.
``report``, ``panels``
    The HTML report: the page (gate, summary, overview) and the per-case drawing panels.
``step_summary``
    The GitHub Actions job summary (Markdown).

Adding a report column
----------------------
One change in the record and one in the consumer: add a field to
:class:`~shape_asserts.results.record.CaseRecord` (or ``SampleRecord``/``CheckRecord``) and fill it
in ``from_result`` — ``to_json``/``from_json`` go field by field, so the property, xdist and JUnit
XML carry it with no further change — then read the field where it is shown (``summary.py``,
``panels.py``/``report.py``, ``step_summary.py`` or ``gate.py``).
"""
