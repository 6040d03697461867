"""CPU-time sweep of Tables VIII (axis N) / IX (axis D), one BLAS thread -> CSV rows."""

import logging

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.ramona.experiments import cputime_rows

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
cfg, seed, axis = sm.params.cputime, sm.params.seed, sm.wildcards.axis
with threadpool_limits(limits=1):  # the paper times a single core
    rows = cputime_rows(
        axis,
        cfg[axis],
        fixed=cfg.get("fixed", 30),
        methods=cfg.get("methods", ["arom", "rfe", "sas", "kfds"]),
        n_iter=cfg.get("n_iter", 10),
        n_repeats=cfg.get("n_repeats", 3),
        seed=seed,
    )
df = pd.DataFrame(rows)
for key, value in provenance(cfg, seed).items():
    df[key] = value
with atomic_path(sm.output[0]) as tmp:
    df.to_csv(tmp, index=False)
logging.info("axis %s: %d timings", axis, len(df))
