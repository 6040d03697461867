"""Summary table of the main part as CSV, Markdown and LaTeX (rule main_summary)."""

from rlsbench.benchmark.results import read_step_table, summary_table, write_summary

sm = snakemake  # noqa: F821
table = summary_table(read_step_table(sm.input[0]), sm.params.report_k)
write_summary(
    table,
    sm.output.csv,
    sm.output.md,
    sm.output.tex,
    caption="Test performance (mean ± sd over folds) at chosen k, and run times per method.",
)
with open(sm.log[0], "w") as log:
    print(table.to_string(index=False), file=log)
