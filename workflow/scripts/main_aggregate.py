"""Merge the main part's per-job tables into one tidy step table (rule main_aggregate)."""

from rlsbench.benchmark.results import merge_tables

frame = merge_tables(snakemake.input, snakemake.output[0])  # noqa: F821
with open(snakemake.log[0], "w") as log:  # noqa: F821
    print(f"merged {len(snakemake.input)} job tables, {len(frame)} rows", file=log)  # noqa: F821
