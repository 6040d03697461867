"""Optimisation time against M and N on random problems (rule ``buteneers_timing``)."""

import logging

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.buteneers.experiment import timing_point

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(
    filename=sm.log[0], filemode="w", level=logging.INFO, format="%(asctime)s %(message)s"
)
cfg, seed = sm.params.timing, int(sm.params.seed)
points = [("M", M, cfg["N_fixed"]) for M in cfg["M_values"]] + [
    ("N", cfg["M_fixed"], N) for N in cfg["N_values"]
]
rows = []
with threadpool_limits(int(sm.threads)):
    for sweep, M, N in points:
        for r in timing_point(
            M,
            N,
            methods=cfg["methods"],
            n_folds=cfg["n_folds"],
            n_lambdas=cfg["n_lambdas"],
            seed=seed,
            max_seconds=cfg.get("fs_max_seconds"),
            repeats=cfg.get("repeats", 1),
        ):
            r["sweep"] = sweep
            logging.info("%s", r)
            rows.append(r)
df = pd.DataFrame(rows)
df["n_folds"], df["n_lambdas"], df["threads"] = cfg["n_folds"], cfg["n_lambdas"], int(sm.threads)
df["repeats"] = cfg.get("repeats", 1)
for key, value in provenance(cfg, seed).items():
    df[key] = value
with atomic_path(sm.output.table) as tmp:
    df.to_csv(tmp, index=False, float_format="%.6g")
