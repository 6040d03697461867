"""Rule ``download``: fetch one dataset's raw files (mirrors, then upstream) and verify them."""

import sys

from rlsbench.benchmark.datasets.rules import download_job

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.exit(
    download_job(sm.config, sm.wildcards.dataset, sm.params.raw_dir, sm.params.root, sm.log[0])
)
