"""Rule ``prepare``: one dataset's verified raw files -> its canonical ``.npz``."""

import sys

from rlsbench.benchmark.datasets.rules import prepare_job

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.exit(prepare_job(sm.config, sm.wildcards.dataset, sm.params.raw_dir, sm.output[0], sm.log[0]))
