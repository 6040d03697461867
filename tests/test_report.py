"""The report's pages, without a browser or a workflow run: the table views
(rlsbench.benchmark.views) and the first page (rlsbench.studies.overview), from small tables
written here. The report itself is opened in Chromium by tests/test_report_browser.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pandas as pd
import pytest

from rlsbench.benchmark.views import (
    frame_view,
    latex_path,
    markdown_view,
    protocol_settings,
    view_path,
    viewed_tables,
    views_job,
)
from rlsbench.studies import overview
from rlsbench.studies.fidelity.verdicts import VERDICTS
from rlsbench.studies.main import overview as main_overview

MARKDOWN = """# Errors beside the paper's

Each cell: **ours** (paper).

| dataset | method | error |
|:--|:--|--:|
| abalone | forward | **0.52** (0.50) |
| boston | forward | **11.2** (10.9) |
| abalone | rvm | **0.55** (0.51) |

## Second table

| k | time (s) |
|---|---|
| 1 | 0.10 |
| 2 | 0.25 |
"""


class _Tables(HTMLParser):
    """Rows (lists of cell texts) and classes of the cells of every <table>."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.classes = [], None, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
            self.classes.append(attrs.get("class") or "")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def tables_of(page: str) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def test_markdown_view_shows_every_table_sortable_with_its_prose():
    page = markdown_view(MARKDOWN, title="Errors beside the paper's", made="Run <code>x</code>")
    first, second = tables_of(page)
    assert first[0] == ["dataset", "method", "error"]
    assert first[1:] == [
        ["abalone", "forward", "0.52 (0.50)"],
        ["boston", "forward", "11.2 (10.9)"],
        ["abalone", "rvm", "0.55 (0.51)"],
    ]
    assert second[1:] == [["1", "0.10"], ["2", "0.25"]]
    assert page.count('class="sortable"') == 2
    assert "<strong>ours</strong> (paper)" in page
    assert "Run <code>x</code>" in page
    # the title is the document's first heading, shown once
    assert len(re.findall(r"<h1>", page)) == 1
    assert "<h2>Second table</h2>" in page
    # numbers right-aligned (the error column is right-aligned in the file)
    assert re.search(r'<td class="[^"]*num[^"]*"[^>]*>\s*<strong>0.52', page)


def test_a_long_table_gets_a_filter_box_and_a_short_one_none():
    rows = "\n".join(f"| {i} | {i / 7:.3f} |" for i in range(30))
    long = markdown_view(f"| k | x |\n|---|---|\n{rows}\n", title="long")
    short = markdown_view("| k | x |\n|---|---|\n| 1 | 2 |\n", title="short")
    assert 'class="filter"' in long and 'class="filter"' not in short


def test_frame_view_formats_numbers_and_folds_constant_columns():
    frame = pd.DataFrame(
        {
            "method": ["a", "b", "c"],
            "k": [1, 2, 3],
            "error": [0.123456, float("nan"), 2.5],
            "host": ["vm", "vm", "vm"],
        }
    )
    page = frame_view(frame, title="data")
    (table,) = tables_of(page)
    assert table[0] == ["method", "k", "error"]
    assert table[1:] == [["a", "1", "0.1235"], ["b", "2", "–"], ["c", "3", "2.5"]]
    assert "1 column(s) with the same value in every row" in page
    assert "<dt>host</dt><dd>vm</dd>" in page
    assert "3 rows × 4 columns" in page


def test_protocol_settings_name_folds_splits_repeats_and_seeds_at_any_depth():
    section = {
        "seed": 0,
        "alpha": 1.0,
        "tasks": [{"name": "a", "n_folds": 5}, {"name": "b", "split": "random"}],
        "timing": {"repeats": 2, "M_values": [1, 2]},
    }
    assert protocol_settings(section, "part") == [
        ("part.seed", 0),
        ("part.tasks[0].n_folds", 5),
        ("part.tasks[1].split", "random"),
        ("part.timing.repeats", 2),
    ]


def test_views_job_writes_a_view_of_every_table_and_latex_of_every_markdown(tmp_path):
    md = tmp_path / "errors.md"
    md.write_text(MARKDOWN)
    csv = tmp_path / "rows.csv"
    pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}).to_csv(csv, index=False)
    tables = viewed_tables([str(md), str(tmp_path / "figure.png"), str(csv)], [str(csv)])
    assert tables == [str(md), str(csv)]
    views = [view_path(t) for t in tables]
    views_job(
        tables,
        views,
        [latex_path(str(md))],
        part="part",
        run="run",
        configfiles=["config/x.yaml"],
        section={"n_folds": 3},
    )
    page = (tmp_path / "errors.html").read_text()
    assert "<title>Errors beside the paper&#x27;s</title>" in page
    assert "<code>part.n_folds</code> = 3" in page and "config/x.yaml" in page
    assert len(tables_of((tmp_path / "rows.html").read_text())[0]) == 3
    tex = (tmp_path / "errors.tex").read_text()
    assert tex.count("\\begin{table}") == 2 and "\\toprule" in tex
    with pytest.raises(ValueError, match="2 tables but 1 views"):
        views_job(tables, views[:1], [], part="p", run="r", configfiles=[], section={})


# ---------------------------------------------------------------------------------------------
# The first page
# ---------------------------------------------------------------------------------------------
def ledger():
    rows = [("item", "pahikkala", "Table 1", "match", "", "")]
    rows += [("item", "pahikkala", "Table 1", "contradicts", "", "our setting")]
    rows += [("item", "sunyao", "Fig. 1", "not run", "", "")]
    rows += [("claim", "buteneers", "", v, "B1", "") for v in ("same conclusion", "match", "match")]
    return pd.DataFrame(rows, columns=["level", "paper", "item", "verdict", "claim_id", "whose"])


SPEEDUPS = pd.DataFrame(
    {
        "sweep": ["s", "s", "s", "s"],
        "vary": ["m"] * 4,
        "metric": ["cpu"] * 4,
        "size": [100, 200, 100, 200],
        "threads": [1] * 4,
        "method": ["lowrank_lssvm", "lowrank_lssvm", "wrapper_loo", "wrapper_loo"],
        "status": ["ok"] * 4,
        "reference_status": ["ok"] * 4,
        "time_s": [1.0, 4.0, 0.5, 0.9],
        "reference_s": [0.1, 0.2, 1.0, 1.8],
        "speedup": [10.0, 20.0, 0.5, 0.5],
        "kind": ["greedy_rls_over_method"] * 4,
    }
)
SUMMARY = pd.DataFrame(
    {
        "dataset": ["wine", "wine", "wine", "diabetes", "diabetes"],
        "method": ["greedy_rls", "random", "wrapper_blackbox", "greedy_rls", "random"],
        "status": ["ok", "ok", "skipped", "ok", "ok"],
        "runs": [3, 6, 3, 3, 6],
        "metric": ["accuracy"] * 3 + ["mse"] * 2,
        "k by LOO": [4.0, 3.8, None, 5.0, 6.0],
        "at k by LOO": ["0.944 ± 0.034", "0.755 ± 0.071", None, "3012 ± 210", "2990 ± 250"],
        "at k_max": ["0.944 ± 0.034", "0.775 ± 0.063", None, "3100 ± 200", "3100 ± 200"],
        "fit time (s)": [0.4, 0.01, None, 0.2, 0.01],
    }
)


def _answers(speedups, summary):
    """The greedy RLS paper's answers (its main part's Part.overview) from these tables."""
    return main_overview.paper_answers(speedups, summary, folds="3 ")


def test_first_page_is_a_fragment_the_report_can_embed():
    page = overview.first_page_html(ledger=ledger(), answers=_answers(SPEEDUPS, SUMMARY))
    # the report puts it in a <script> string and then in a 32 rem column with innerHTML
    for forbidden in ("<script", "</script", "<style", "<html", "<body", "<!DOCTYPE"):
        assert forbidden.lower() not in page.lower(), forbidden
    assert 'id="rlsbench-first"' in page
    assert all(len(t[0]) <= 4 for t in tables_of(page))


def test_first_page_answers_with_the_tables_numbers():
    page = overview.first_page_html(ledger=ledger(), answers=_answers(SPEEDUPS, SUMMARY))
    counts, speed, accuracy = tables_of(page)
    assert counts[0] == ["verdict", "tables and figures", "claim checks"]
    # contradicts is split by whose it is: only the classes that occur
    assert dict((r[0], r[1:]) for r in counts[1:]) == {
        **{v: ["0", "0"] for v in VERDICTS if v != "contradicts"},
        "contradicts: our setting": ["1", "0"],
        "match": ["1", "2"],
        "same conclusion": ["0", "1"],
        "not run": ["1", "0"],
        "total": ["3", "3"],
    }
    assert "1 of 3 numbered tables and figures" in page
    # at the largest size of each method
    assert speed[1:] == [["lowrank_lssvm", "m = 200", "×20"], ["wrapper_loo", "m = 200", "×0.5"]]
    # lowest MSE on a regression set, highest accuracy otherwise; skipped methods left out
    assert accuracy[1:] == [
        ["diabetes (MSE)", "random", "2990 ± 250", "3012 ± 210"],
        ["wine (accuracy)", "greedy_rls", "0.944 ± 0.034", "0.944 ± 0.034"],
    ]


def test_first_page_names_the_parts_that_did_not_run():
    page = overview.first_page_html(ledger=None, answers=_answers(None, None))
    assert "the ledger was not computed" in page
    assert "neither the scaling study nor the main part ran" in page
    assert "the main part did not run" in page


def test_first_page_falls_back_to_the_main_parts_fit_times():
    page = overview.first_page_html(ledger=ledger(), answers=_answers(None, SUMMARY))
    speed = tables_of(page)[1]
    assert speed[0] == ["method", "datasets", "time ÷ greedy RLS's"]
    assert speed[1:] == [["random", "2", "×0.025 – ×0.05"]]


def test_overview_headline_says_slower_below_one():
    headline, _ = main_overview.speed_section(SPEEDUPS, None)
    assert "×20 faster than lowrank_lssvm" in headline
    assert "×2 slower than wrapper_loo" in headline


def test_overview_job_reads_only_the_tables_it_is_given(tmp_path):
    rundir = tmp_path / "runs" / "r"
    for part, rel, frame in (
        ("main", "tables/summary.csv", SUMMARY),
        ("scaling", "tables/speedups.csv", SPEEDUPS),
    ):
        (rundir / part / rel).parent.mkdir(parents=True)
        frame.to_csv(rundir / part / rel, index=False)
    ledger_csv = tmp_path / "fidelity.csv"
    ledger().assign(reason="why").to_csv(ledger_csv, index=False)
    built = {"main": [f"{rundir}/main/tables/summary.csv"], "scaling": []}
    # the scaling part did not run in this config: its stale table stays unread
    tables = overview.overview_inputs(str(rundir), built)
    assert tables == [f"{rundir}/main/tables/summary.csv"]
    page, first = tmp_path / "overview.html", tmp_path / "first_page.html"
    overview.overview_job(
        str(page),
        str(first),
        run="r",
        configfiles=["config/x.yaml"],
        rundir=str(rundir),
        sections={"main": {"n_folds": 7}, "scaling": {}},
        ledger=str(ledger_csv),
        tables=tables,
    )
    text = first.read_text()
    assert "the scaling study did not run" in text and "wrapper_loo" not in text
    assert text.index("Fidelity to the papers") < text.index("<b>Speed</b>")
    assert text.index("<b>Speed</b>") < text.index("<b>Accuracy</b>")
    html_page = page.read_text()
    assert "over the 7 folds and seeds" in html_page
    # the ledger's papers, counted
    assert "table and figure of the three papers" in html_page


def test_number_word_spells_small_counts():
    assert [overview.number_word(n) for n in (0, 4, 10, 11)] == ["no", "four", "ten", "11"]
