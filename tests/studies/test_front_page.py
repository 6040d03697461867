"""The report's front page describes the parts that ran: a run of one part (a user's own
``main`` with their methods and datasets, ``run_name: mypaper``) is named as such, on the
landing page Snakemake renders from ``workflow/report/workflow.rst`` and on the first page
(rlsbench.studies.overview), and neither points to a category the report does not have."""

from __future__ import annotations

from pathlib import Path

import jinja2
from snakemake.report import Category

from rlsbench.studies import overview

REPO = Path(__file__).resolve().parents[2]
LANDING = REPO / "workflow" / "report" / "workflow.rst"

MAIN_ONLY = {
    "main": {
        "datasets": ["my_data", "breast_cancer", "wine", "diabetes"],
        "methods": list("abcde"),
    },
    "scaling": {},
}


class _Snakemake:
    config = {"run_name": "mypaper"}


def _landing(categories, files=()):
    """workflow.rst as Snakemake renders it (snakemake.report: Jinja with snakemake,
    categories and files)."""
    template = jinja2.Environment().from_string(LANDING.read_text())
    return template.render(snakemake=_Snakemake, categories=categories, files=list(files))


def _categories(*names):
    return {Category(name): {Category("Tables"): [], Category("Figures"): []} for name in names}


def test_the_landing_page_of_a_run_without_the_first_page_lists_the_parts_that_ran():
    text = _landing(_categories("Main"))
    assert "No part that the summary reads ran" not in text
    assert "`Main`_: Tables, Figures" in text
    assert "mypaper" in text
    # no Fidelity category in this report: the page does not send the reader to one
    assert "Fidelity" not in text


def test_the_landing_page_names_the_fidelity_category_only_where_there_is_one():
    text = _landing(_categories("Main", "Fidelity"))
    assert "The Fidelity category\nholds the ledger" in text


def test_the_landing_page_shows_the_first_page_where_the_run_built_it(tmp_path):
    class Result:
        path = tmp_path / "overview.html"

    text = _landing(_categories("Main", "At a glance"), [Result])
    assert "raw:: html" in text and "first_page.html" in text
    assert "`Main`_" not in text


def test_the_first_page_says_what_ran_with_its_datasets_and_methods():
    line = overview.parts_ran(MAIN_ONLY)
    assert "<code>main</code>: 4 datasets, 5 methods" in line
    assert "scaling" not in line
    page = overview.first_page_html(ledger=None, sections=MAIN_ONLY)
    assert "What ran" in page and "app.showCategory('Main')" in page


def test_a_run_of_no_part_says_so():
    assert "no part of rlsbench is enabled" in overview.parts_ran({"main": {}})


def test_the_overview_page_of_a_run_without_the_ledger_points_to_no_fidelity_category():
    page = overview.overview_html(ledger=None, run="mypaper", sections=MAIN_ONLY)
    assert "What ran" in page and "4 datasets" in page
    assert "Fidelity category" not in page
