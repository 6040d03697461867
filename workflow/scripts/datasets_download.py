"""Rule ``download``: fetch one dataset's raw files (mirrors, then upstream) and verify them.

The mirrors and network options are read from the config here rather than declared as
``params``, so that switching mirrors does not invalidate downloads whose content already verified.
"""

import shlex
import sys

from rlsbench.benchmark.cli import main
from rlsbench.benchmark.datasets import rules as dsrules

sm = snakemake  # noqa: F821 (injected by Snakemake)

with open(sm.log[0], "w") as log:
    sys.stdout = sys.stderr = log
    argv = [
        "-v",
        "datasets",
        "--registry",
        sm.params.registry,
        "download",
        sm.wildcards.dataset,
        "--raw-dir",
        sm.params.raw_dir,
        "--root",
        sm.params.root,
        *shlex.split(dsrules.download_options(sm.config)),
    ]
    status = main(argv)
sys.exit(status)
