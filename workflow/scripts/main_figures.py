"""Test curves (Figs. 4-9) and LOO vs test (Figs. 10-15) of one dataset (rule main_figures)."""

from rlsbench.benchmark.reporting import plot_loo_vs_test, plot_test_curves
from rlsbench.benchmark.results import read_step_table

sm = snakemake  # noqa: F821
frame = read_step_table(sm.input[0])
plot_test_curves(frame, sm.wildcards.dataset, sm.output.test)
plot_loo_vs_test(frame, sm.wildcards.dataset, sm.output.loo)
with open(sm.log[0], "w") as log:
    print(f"{sm.output.test}\n{sm.output.loo}", file=log)
