"""Copy a run's scaling tables and figures to the committed folder results/paper/scaling/."""

import logging
import sys
import shutil

from rlsbench._io import atomic_path

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(
    stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")
for src, dst in zip(sm.input, sm.output, strict=True):
    with atomic_path(dst) as tmp:
        shutil.copyfile(src, tmp)
    logging.info("%s -> %s", src, dst)
