"""The workflow's one script: run the function a rule names (rlsbench.benchmark.workflow)."""

from rlsbench.benchmark.workflow import run_rule

run_rule(snakemake)  # noqa: F821
