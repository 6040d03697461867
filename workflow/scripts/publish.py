"""Refresh the committed copy of a run's tables and figures (rules <part>_publish)."""

from rlsbench.benchmark.results import publish

publish(snakemake.input, snakemake.output, snakemake.log[0])  # noqa: F821
