"""One (experiment, kernel) of the real-data protocol (Section V-B/C), every method -> CSV rows."""

import logging
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.datasets import load_prepared
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.ramona.experiments import realdata_rows

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
exp, seed = sm.params.experiment, sm.params.seed
data = load_prepared(sm.input.data)
if data.task not in ("binary", "multiclass"):
    raise ValueError(
        f"{sm.input.data}: task {data.task!r}; Ramona et al.'s protocol needs class labels"
    )
t0 = time.perf_counter()
with threadpool_limits(limits=sm.threads):
    rows = []
    for method in exp["methods"]:
        t1 = time.perf_counter()
        rows += realdata_rows(
            data.X,
            np.asarray(data.y),
            experiment=sm.wildcards.experiment,
            dataset=data.name,
            method=method,
            kernel=sm.wildcards.kernel,
            n_selected=exp["n_selected"],
            n_train=exp["n_train"],
            n_test=exp.get("n_test"),
            train_per_class=exp.get("train_per_class"),
            pools=exp.get("pools"),
            n_repeats=exp["n_repeats"],
            degree=exp.get("degree", 3),
            standardize=exp.get("standardize", True),
            seed=seed,
        )
        logging.info("%s: %.1f s", method, time.perf_counter() - t1)
df = pd.DataFrame(rows)
for key, value in provenance(exp, seed).items():
    df[key] = value
with atomic_path(sm.output[0]) as tmp:
    df.to_csv(tmp, index=False)
logging.info(
    "%s %s: %d rows in %.1f s",
    sm.wildcards.experiment,
    sm.wildcards.kernel,
    len(df),
    time.perf_counter() - t0,
)
