"""The HTML report as a reader sees it, in headless Chromium: a tiny run (the tiny main config
and a two-size scaling sweep) in a temporary directory, ``snakemake --report``, then

* the landing page: its dumped DOM shows the summary (the ledger's verdict counts, the speed-up
  of greedy RLS over each other method, the best test score per dataset) with the numbers of the
  run's own tables;
* one table view (the main part's summary) opened in the report as a reader's click opens it:
  its rows render in the report's frame, one per row of the CSV;
* the LaTeX file of every Markdown table of the run compiles in a two-column article.

Screenshots of both pages are saved in the test's temporary directory (and copied to
``$RLSBENCH_SCREENSHOTS`` when that is set). Skipped where no Chromium is installed (CI
installs Debian's ``chromium``); the LaTeX test where ``pdflatex`` or a LaTeX package the
tables load is missing (tests/_tools.py names it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.studies.fidelity.verdicts import VERDICTS
from tests._tools import chromium, missing_chromium
from tests.benchmark.test_latex import MISSING_LATEX

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "configs" / "tiny.yaml"

pytestmark = pytest.mark.slow

CHROMIUM = chromium()
MISSING_CHROMIUM = missing_chromium()
needs_chromium = pytest.mark.skipif(MISSING_CHROMIUM is not None, reason=MISSING_CHROMIUM or "")

# The tiny main config plus a scaling sweep small enough to take seconds: the landing page
# then has all three answers (fidelity, speed-ups, accuracy).
SCALING = {
    "enabled": True,
    "seed": 0,
    "alpha": 1.0,
    "repeats": 1,
    "threads": [1],
    "metric": "cpu",
    "budget": {"max_flops": 1e10, "timeout_s": 120},
    "methods": {
        "greedy_rls": {"exponents": {"m": 1, "n": 1, "k": 1}},
        "lowrank_lssvm": {"exponents": {"m": 2, "n": 1, "k": 1}},
        "wrapper_loo": {"exponents": {"m": 1, "n": 1, "k": 3}},
    },
    "sweeps": {
        "tiny_m": {
            "vary": "m",
            "values": [16, 24],
            "fixed": {"n": 6, "k": 2},
            "methods": ["greedy_rls", "lowrank_lssvm", "wrapper_loo"],
            "figures": ["log"],
        }
    },
    "paper_reference": {
        "method": "greedy_rls",
        "m": 24,
        "n": 6,
        "k": 2,
        "seconds": 720,
        "source": "test",
        "note": "test",
    },
}
SUMMARY_VIEW = "results/runs/report/main/tables/summary.html"


def snakemake(workdir, *args):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
    proc = subprocess.run(
        [*cmd, "--directory", str(workdir), *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """(workdir, report.html) of the tiny run."""
    workdir = tmp_path_factory.mktemp("report")
    config = yaml.safe_load(TINY.read_text())
    config.update(run_name="report", scaling=SCALING)
    configfile = workdir / "report.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    snakemake(workdir, "--configfile", configfile)
    snakemake(workdir, "--configfile", configfile, "--report", workdir / "report.html")
    return workdir, workdir / "report.html"


def chromium(page: Path, *, out: Path, screenshot: str) -> str:
    """The DOM of ``page`` after its scripts ran, and a screenshot of it (1400 × 1000)."""
    profile = out / f"profile-{screenshot}"
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        # the report shows a result in an iframe of a data: URL, another origin to the
        # report's file: URL; the probe script reads the frame's document
        "--disable-web-security",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
        # scripts and timers run to completion before the dump (virtual time)
        "--virtual-time-budget=15000",
    ]
    png = out / f"{screenshot}.png"
    shot = subprocess.run(
        [CHROMIUM, *flags, f"--screenshot={png}", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert png.is_file(), shot.stderr[-3000:]
    dom = subprocess.run(
        [CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=180
    )
    assert dom.returncode == 0, dom.stderr[-3000:]
    if os.environ.get("RLSBENCH_SCREENSHOTS"):
        target = Path(os.environ["RLSBENCH_SCREENSHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(png, target / png.name)
    shutil.rmtree(profile, ignore_errors=True)
    return dom.stdout


class _Text(HTMLParser):
    """The text inside the element with a given id (whitespace collapsed)."""

    def __init__(self, ident):
        super().__init__()
        self.ident, self.depth, self.parts = ident, 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth or dict(attrs).get("id") == self.ident:
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)

    def text(self):
        return re.sub(r"\s+", " ", " ".join(self.parts)).strip()


def element_text(dom: str, ident: str) -> str:
    parser = _Text(ident)
    parser.feed(dom)
    return parser.text()


@needs_chromium
def test_landing_page_shows_the_summary(report, tmp_path):
    workdir, page = report
    run = workdir / "results" / "runs" / "report"
    dom = chromium(page, out=tmp_path, screenshot="report_first_page")
    text = element_text(dom, "rlsbench-first")
    assert text, "the landing page has no summary (element #rlsbench-first)"

    # fidelity: the ledger's verdict counts, as numbers in the table's rows
    ledger = pd.read_csv(run / "fidelity" / "fidelity.csv", keep_default_na=False)
    items = ledger[ledger["level"] == "item"]["verdict"].value_counts()
    claims = ledger[ledger["level"] == "claim"]["verdict"].value_counts()
    assert "Fidelity to the papers" in text
    for verdict in VERDICTS:
        row = f"{verdict} {int(items.get(verdict, 0))} {int(claims.get(verdict, 0))}"
        assert row in text, (row, text)
    assert f"total {int(items.sum())} {int(claims.sum())}" in text

    # speed: each method the sweep ran beside greedy RLS, with its speed-up
    speedups = pd.read_csv(run / "scaling" / "tables" / "speedups.csv")
    ours = speedups[
        (speedups["kind"] == "greedy_rls_over_method")
        & (speedups["status"] == "ok")
        & (speedups["reference_status"] == "ok")
    ]
    assert "Speed" in text
    for method, group in ours.groupby("method"):
        last = group.sort_values("size").iloc[-1]
        ratio = last["speedup"]
        shown = f"×{ratio:,.0f}" if ratio >= 100 else f"×{ratio:.2g}"
        assert re.search(rf"{method} m = {int(last['size'])} {re.escape(shown)}", text), (
            method,
            shown,
            text,
        )

    # accuracy: every dataset of the main part with greedy RLS's test score at k by LOO
    summary = pd.read_csv(run / "main" / "tables" / "summary.csv")
    assert "Accuracy" in text
    for dataset, group in summary.groupby("dataset"):
        score = group.loc[group["method"] == "greedy_rls", "at k by LOO"].iloc[0]
        assert f"{dataset} (accuracy)" in text and score in text, (dataset, score, text)


# Opens one result the way a reader's clicks do (category Main, subcategory Tables, the eye
# button of the summary's view, which shows it in the content frame), then copies what the
# frame rendered into the page for the DOM dump. The report (Snakemake 9) has no URL that opens
# a result, so the test appends this script to a copy of the report.
PROBE = """
<script>
(function () {
  var path = %(path)s;
  function open() {
    // the report's React app sets the global `app` when it first renders
    if (typeof app === "undefined") { setTimeout(open, 100); return; }
    app.setView({navbarMode: "subcategory", category: "Main", subcategory: "Tables",
                 resultPath: path, content: "html", contentPath: results[path].data_uri});
    setTimeout(probe, 500);
  }
  function probe() {
    var frame = document.querySelector("iframe");
    var doc = frame && frame.contentDocument;
    if (!doc || !doc.querySelector("table")) { setTimeout(probe, 200); return; }
    var tables = Array.prototype.map.call(doc.querySelectorAll("table"), function (t) {
      return {
        header: Array.prototype.map.call(t.tHead.rows[0].cells,
                                         function (c) { return c.textContent.trim(); }),
        rows: Array.prototype.map.call(t.tBodies[0].rows, function (r) {
          return Array.prototype.map.call(r.cells, function (c) { return c.textContent.trim(); });
        })
      };
    });
    var out = document.createElement("pre");
    out.id = "rlsbench-probe";
    out.textContent = JSON.stringify({title: doc.title, tables: tables});
    document.body.appendChild(out);
  }
  open();
})();
</script>
"""


@needs_chromium
def test_a_table_view_renders_its_rows_in_the_report(report, tmp_path):
    workdir, page = report
    html = page.read_text()
    assert SUMMARY_VIEW in html, "the summary's view is not a result of the report"
    opened = tmp_path / "report_table_view.html"
    end = html.rindex("</body>")
    opened.write_text(html[:end] + PROBE % {"path": json.dumps(SUMMARY_VIEW)} + html[end:])
    dom = chromium(opened, out=tmp_path, screenshot="report_table_view")
    probe = element_text(dom, "rlsbench-probe")
    assert probe, "the table view did not render a table in the report's frame"
    shown = json.loads(probe)

    summary = pd.read_csv(workdir / SUMMARY_VIEW.replace(".html", ".csv"))
    assert shown["title"].startswith("Test performance")
    (table,) = shown["tables"]
    assert len(table["rows"]) == len(summary) > 3
    header = [h.rstrip(" ↕▲▼") for h in table["header"]]
    assert header[:2] == ["dataset", "method"]
    cells = [tuple(row[:2]) for row in table["rows"]]
    assert cells == list(zip(summary["dataset"], summary["method"]))
    loo = header.index("at k by LOO")
    assert [row[loo] for row in table["rows"]] == summary["at k by LOO"].fillna("").tolist()


@pytest.mark.skipif(MISSING_LATEX is not None, reason=MISSING_LATEX or "")
def test_the_runs_latex_tables_compile_and_fit(report, tmp_path):
    from tests.benchmark.test_latex import compile_in_article

    workdir, _ = report
    run = workdir / "results" / "runs" / "report"
    markdown = sorted(run.rglob("*.md"))
    assert markdown
    for md in markdown:
        tex = md.with_suffix(".tex")
        assert tex.is_file(), f"{md} has no LaTeX file"
        compile_in_article(tex, tmp_path)
