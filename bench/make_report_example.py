"""The README's pictures of the HTML report: the noisy reference drawer gated against the exact one.

Run: ``.venv/bin/python bench/make_report_example.py [--out docs] [--html report.html] [--only stability.png]``

Judges the recorded circle answers of ``reference/noisy`` and ``reference/exact`` (nothing is
asked), builds the report exactly as ``--shape-report`` does, and screenshots two parts of it with
headless Chromium:

* ``docs/report-summary.png`` — the gate verdict and the summary table;
* ``docs/drawing.png`` — one case (the seed post's second prompt) with both models side by side;
* ``docs/stability.png`` — the stability picture: each model's score by start angle and direction
  (polar chart) and its drawings placed round the circle of start points.

Needs ``chromium`` (or Google Chrome) on PATH and Pillow (``pip install -e '.[test]'``), which
crops the screenshots to their content.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shape_asserts.exceptions import FixtureError
from shape_asserts.plugin.suite import CaseParam, Settings
from shape_asserts.results.charts import buckets
from shape_asserts.results.gate import gate
from shape_asserts.results.record import CaseRecord
from shape_asserts.results.report import ReportData, write_report
from shape_asserts.results.summary import summarize
from shape_asserts.results.verdict import judge

REPO = Path(__file__).resolve().parents[1]
EXACT, NOISY = "reference/exact", "reference/noisy"
FAMILY = "circle"
#: The case shown in docs/drawing.png: the seed's second prompt, where the noisy drawer misses the
#: start, leaves gaps and steps off the grid.
DRAWING_CASE = "seed2-circle-start330-cw"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BACKGROUND = (0xF5, 0xF6, 0xF8)  # the page's background, cropped away
PAD = 20


def report_data() -> ReportData:
    """The report of the recorded circle answers, noisy gated against exact."""
    settings = Settings(models=(NOISY, EXACT), record="none", fixtures_dir=REPO / "fixtures")
    cases = [c for c in settings.cases() if c.family == FAMILY]
    records, missing = [], []
    for case in cases:
        for model in settings.models:
            try:
                result = judge(case, model, settings.obtain(CaseParam(model, case)).texts)
            except FixtureError as exc:
                missing.append(f"{model} {case.id}: {exc}")
                continue
            records.append(CaseRecord.from_result(result, "passed" if result.passed else "failed"))
    if missing:
        raise SystemExit("recordings missing:\n  " + "\n  ".join(missing))
    g = gate({NOISY: [r for r in records if r.model == NOISY]}, EXACT, [r for r in records if r.model == EXACT])
    meta = [
        ("models", NOISY),
        ("baseline", EXACT),
        ("cases", str(len(cases))),
        ("samples per case", "1"),
        ("record", "none"),
    ]
    return ReportData(
        records=records,
        rows=summarize(records),
        gate=g,
        models=settings.models,
        baseline=EXACT,
        cases={c.id: c for c in cases},
        settings=meta,
    )


def screenshot(page: Path, png: Path, width: int, height: int) -> None:
    browser = next((p for p in map(shutil.which, BROWSERS) if p), None)
    if browser is None:
        raise SystemExit("no headless browser on PATH: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="shape-asserts-chromium-") as profile:
        subprocess.run(
            [
                browser,
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
                f"--window-size={width},{height}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )


def crop(png: Path) -> None:
    """Cut the screenshot to its content plus a margin."""
    from PIL import Image, ImageChops

    with Image.open(png) as im:
        rgb = im.convert("RGB")
    box = ImageChops.difference(rgb, Image.new("RGB", rgb.size, BACKGROUND)).getbbox()
    if box is None:
        raise SystemExit(f"{png} is blank")
    left, top, right, bottom = box
    rgb.crop((max(0, left - PAD), max(0, top - PAD), min(rgb.width, right + PAD), min(rgb.height, bottom + PAD))).save(
        png, optimize=True
    )


def print_stability(records: list[CaseRecord] | tuple[CaseRecord, ...]) -> None:
    """What docs/stability.png shows, in numbers: per model and direction, the score by start angle."""
    print(f"stability ({FAMILY}): mean score by start angle, per model and direction")
    for model in dict.fromkeys(r.model for r in records):
        for direction in ("cw", "ccw"):
            bs = buckets([r for r in records if r.model == model and r.direction == direction and r.judged])
            if not bs:
                continue
            top = next((b.mean for b in bs if abs(b.angle - 270) < 1), None)
            worst = min(bs, key=lambda b: b.mean)
            print(
                f"  {model:<16} {direction:<4} {len(bs)} start angles: {min(b.mean for b in bs):.1f}–"
                f"{max(b.mean for b in bs):.1f}, from the top (270°) {top if top is None else f'{top:.1f}'}, "
                f"worst from {worst.angle:g}° ({worst.mean:.1f})"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs", help="folder for the PNGs (default docs/)")
    parser.add_argument("--html", type=Path, help="also keep the whole report here")
    parser.add_argument("--only", action="append", metavar="NAME", help="make only this picture (repeatable)")
    args = parser.parse_args(argv)
    data = report_data()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shape-asserts-report-") as tmp:
        parts = {
            "report-summary.png": (replace(data, sections=("header", "gate", "summary")), 1400, 1000),
            "drawing.png": (
                replace(data, records=[r for r in data.records if r.case == DRAWING_CASE], sections=("drawings",)),
                1200,
                2400,
            ),
            "stability.png": (replace(data, sections=("stability",)), 1700, 2000),
        }
        unknown = set(args.only or ()) - set(parts)
        if unknown:
            parser.error(f"--only: no picture named {', '.join(sorted(unknown))}; choose from {', '.join(parts)}")
        for name, (part, width, height) in parts.items():
            if args.only and name not in args.only:
                continue
            page = write_report(Path(tmp) / name.replace(".png", ".html"), part)
            png = args.out / name
            screenshot(page, png, width, height)
            crop(png)
            print(f"wrote {png}")
    if args.html:
        print(f"wrote {write_report(args.html, data)}")
    print_stability(data.records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
