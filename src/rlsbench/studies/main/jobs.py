"""The jobs of the main part's report rules (``workflow/rules.smk`` here): files in, files out.

The protocol's own jobs (λ search, selection) and the generic tables (steps, curves,
summary, run times) are library functions (:mod:`rlsbench.benchmark.jobs`,
:mod:`rlsbench.benchmark.results`); these two exist for the paper.
"""

from __future__ import annotations

import logging

from rlsbench.benchmark.results import read_step_table
from rlsbench.benchmark.tables import markdown_table, write_csv, write_markdown
from rlsbench.studies.main.report import paper_checks, plot_loo_vs_test, plot_test_curves

log = logging.getLogger(__name__)


def checks_job(steps, csv, md, *, report_k):
    """Write the paper's findings measured on the run (:func:`paper_checks`) as CSV and
    Markdown.

    Parameters
    ----------
    steps : str
        The merged step table.
    csv, md : str
        Output paths.
    report_k : list of int
        k at which greedy RLS is compared with random selection.
    """
    table = paper_checks(read_step_table(steps), report_k)
    write_csv(table, csv)
    write_markdown(md, markdown_table(table))
    log.info("\n%s", table.to_string(index=False))


def figures_job(steps, test, loo, *, dataset):
    """Draw the test curves (Figs. 4-9) and LOO vs test (Figs. 10-15) of one dataset."""
    frame = read_step_table(steps)
    plot_test_curves(frame, dataset, test)
    plot_loo_vs_test(frame, dataset, loo)
    log.info("%s, %s", test, loo)
