"""Run times and peak memory of the main part's jobs, from their benchmarks (rule main_runtime)."""

from rlsbench.benchmark.results import runtime_table, write_csv

table = runtime_table(snakemake.input, snakemake.params.prefix)  # noqa: F821
write_csv(table, snakemake.output[0])  # noqa: F821
with open(snakemake.log[0], "w") as log:  # noqa: F821
    print(table.to_string(index=False), file=log)
