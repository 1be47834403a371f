"""The pure helpers of ``bench/output_size.py``: model names, section sizes and its block in the docs.

Nothing here runs the benchmark; the bench itself is run by hand (see docs/performance.md).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "output_size.py"


@pytest.fixture(scope="module")
def output_size() -> Iterator[ModuleType]:
    """``bench/output_size.py``, loaded."""
    spec = importlib.util.spec_from_file_location("output_size_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_half_the_models_draw_exactly_and_half_noisily(output_size):
    assert output_size.model_names(4) == ["bench/exact-1", "bench/exact-2", "bench/noisy-1", "bench/noisy-2"]
    assert output_size.model_names(3) == ["bench/exact-1", "bench/noisy-1", "bench/noisy-2"]


def test_each_section_of_a_report_is_measured_to_the_next_one(output_size):
    page = '<main><section id="summary">ab</section><section id="drawings">é</section></main>'

    sizes = output_size.section_sizes(page)

    assert sizes == {
        "summary": len('<section id="summary">ab</section>'),
        "drawings": len(page) - page.index('<section id="drawings">') + 1,
    }


def test_the_block_is_replaced_only_between_its_markers(output_size, tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"before\n{output_size.BEGIN}\nold figures\n{output_size.END}\nafter\n", encoding="utf-8")

    output_size.write_block(doc, ["new figures"], "python bench/output_size.py --models 10")

    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith("after\n")
    assert "old figures" not in text and "```text\nnew figures\n```" in text
    assert "with `python bench/output_size.py --models 10`" in text


def test_a_page_without_its_markers_is_refused(output_size, tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"{output_size.END}\n{output_size.BEGIN}\n", encoding="utf-8")

    with pytest.raises(SystemExit, match="no pair of markers"):
        output_size.write_block(doc, ["x"], "cmd")
