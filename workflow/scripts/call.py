"""The workflow's one script: run the function a rule names (rlsbench.benchmark.workflow),
in a warm child of the job server where one can run (rlsbench.benchmark.jobserver)."""

from rlsbench.benchmark.jobserver import run_script

run_script(snakemake)  # noqa: F821
