"""One (toy problem, method) of Fig. 1 (Ramona et al. 2012, Section V-A) -> tidy CSV rows."""

import logging
import time

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.ramona.experiments import toy_rows

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
toy, seed = sm.params.toy, sm.params.seed
t0 = time.perf_counter()
with threadpool_limits(limits=sm.threads):
    rows = toy_rows(
        sm.wildcards.problem,
        sm.wildcards.method,
        n_train=toy["n_train"],
        n_test=toy.get("n_test", 500),
        n_repeats=toy.get("n_repeats", 40),
        n_select=toy.get("n_selected", 2),
        seed=seed,
    )
df = pd.DataFrame(rows)
for key, value in provenance({"toy": toy}, seed).items():
    df[key] = value
with atomic_path(sm.output[0]) as tmp:
    df.to_csv(tmp, index=False)
logging.info(
    "%s/%s: %d rows in %.1f s",
    sm.wildcards.problem,
    sm.wildcards.method,
    len(df),
    time.perf_counter() - t0,
)
