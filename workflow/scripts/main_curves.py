"""Mean ± sd over runs of every curve, per (dataset, method, k) (rule main_curves)."""

from rlsbench.benchmark.results import curves_table, read_step_table, write_csv

table = curves_table(read_step_table(snakemake.input[0]))  # noqa: F821
write_csv(table, snakemake.output[0])  # noqa: F821
with open(snakemake.log[0], "w") as log:  # noqa: F821
    print(f"{len(table)} rows", file=log)
