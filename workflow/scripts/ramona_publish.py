"""Copy a run's Ramona et al. tables and figures to the committed folder results/paper/ramona/."""

import logging
import shutil

from rlsbench._io import atomic_path

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
for src, dst in zip(sm.input, sm.output, strict=True):
    with atomic_path(dst) as tmp:
        shutil.copyfile(src, tmp)
    logging.info("%s -> %s", src, dst)
