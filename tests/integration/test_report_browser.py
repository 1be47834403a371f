"""The HTML report renders in a real browser (headless Chromium), styles applied despite its CSP.

Skipped when no Chromium is on PATH (``apt-get install chromium``; ``.ci/run`` tries to install it).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from shape_asserts.plugin.suite import CaseParam, Settings
from shape_asserts.results.gate import gate
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.report import ReportData, write_report
from shape_asserts.results.summary import summarize
from shape_asserts.results.verdict import judge

REPO = Path(__file__).resolve().parents[2]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH, HEIGHT = 1400, 2000
EXACT, NOISY = "reference/exact", "reference/noisy"


def browser() -> str | None:
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


def screenshot(page: Path, png: Path, profile: Path) -> None:
    """Render ``page`` headless into ``png`` (the viewport, WIDTH × HEIGHT)."""
    subprocess.run(
        [
            browser(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--screenshot={png}",
            f"--window-size={WIDTH},{HEIGHT}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )


def png_size(png: Path) -> tuple[int, int]:
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


def noisy_against_exact_report(path: Path) -> Path:
    """The report of the circle cases, noisy drawer gated against the exact one, from the recordings."""
    settings = Settings(models=(NOISY, EXACT), record="none", fixtures_dir=REPO / "fixtures")
    circles = [c for c in settings.cases() if c.family == "circle"]
    records = []
    for case in circles:
        for model in settings.models:
            result = judge(case, model, settings.obtain(CaseParam(model, case)).texts)
            records.append(CaseRecord.from_result(result, "passed" if result.passed else "failed"))
    g = gate({NOISY: [r for r in records if r.model == NOISY]}, EXACT, [r for r in records if r.model == EXACT])
    return write_report(
        path,
        ReportData(
            records=records,
            rows=summarize(records),
            gate=g,
            models=settings.models,
            baseline=EXACT,
            cases={c.id: c for c in circles},
            settings=[("models", NOISY), ("baseline", EXACT)],
        ),
    )


@pytest.mark.skipif(
    browser() is None,
    reason="no headless browser: none of " + ", ".join(BROWSERS) + " is on PATH (apt-get install chromium)",
)
def test_the_report_renders_in_headless_chromium_with_its_styles(tmp_path):
    page = noisy_against_exact_report(tmp_path / "report.html")
    png = tmp_path / "report.png"

    screenshot(page, png, tmp_path / "profile")

    assert png.stat().st_size > 30_000
    assert png_size(png) == (WIDTH, HEIGHT)
    PIL = pytest.importorskip("PIL.Image", reason="Pillow (the test extra) reads the screenshot's pixels")
    with PIL.open(png) as im:
        colours = Counter({rgb: n for n, rgb in im.convert("RGB").getcolors(maxcolors=WIDTH * HEIGHT)})
    assert len(colours) > 200  # text, tables, badges and drawings, not a blank or error page
    # the stylesheet applied (the CSP allows inline styles): the FAIL banner's and the PASS badges' fills
    assert colours[(0xFD, 0xE8, 0xE6)] > 5_000
    assert colours[(0xE3, 0xF3, 0xE8)] > 1_000


@pytest.mark.skipif(
    browser() is None,
    reason="no headless browser: none of " + ", ".join(BROWSERS) + " is on PATH (apt-get install chromium)",
)
def test_the_stability_picture_renders_its_lines_and_scores_in_headless_chromium(tmp_path):
    full = noisy_against_exact_report(tmp_path / "full.html").read_text(encoding="utf-8")
    start, end = full.index('<section id="stability">'), full.index('<section id="drawings">')
    page = tmp_path / "stability.html"
    page.write_text(full[:start].split("<main>")[0] + "<main>" + full[start:end] + "</main></body></html>\n")
    png = tmp_path / "stability.png"

    screenshot(page, png, tmp_path / "profile")

    PIL = pytest.importorskip("PIL.Image", reason="Pillow (the test extra) reads the screenshot's pixels")
    with PIL.open(png) as im:
        colours = Counter({rgb: n for n, rgb in im.convert("RGB").getcolors(maxcolors=WIDTH * HEIGHT)})
    # the inline SVG drew: the ccw line's orange (used nowhere else) and the scores' pass green and fail red
    assert colours[(0xD9, 0x5F, 0x02)] > 500
    assert colours[(0x17, 0x70, 0x3A)] > 200 and colours[(0xB4, 0x23, 0x18)] > 100
