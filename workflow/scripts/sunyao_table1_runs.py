"""Test MSE of one method on one dataset over the random splits (rule sunyao_table1_runs)."""

import json
import logging

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.sunyao.experiments import load_data, table1_rows

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
dataset, method, entry = sm.wildcards.sy_dataset, sm.wildcards.sy_method, sm.params.entry
sigma2 = entry.get("sigma2", sm.params.sigma2)  # a dataset may override the fixed σ²
hyper = json.loads(open(sm.input.hyper).read())
with threadpool_limits(int(sm.threads)):
    X, y = load_data(dataset, entry, sm.input.get("data"))
    rows = table1_rows(
        X,
        y,
        method,
        hyper,
        n_train=entry["n_train"],
        n_test=entry["n_test"],
        n_splits=sm.params.n_splits,
        seed=sm.params.seed,
        sigma2=sigma2,
        rvm=sm.params.rvm,
        target=entry.get("target", "raw"),
    )
frame = pd.DataFrame(rows)
frame.insert(0, "dataset", dataset)
frame["n_features"] = X.shape[1]
frame["n_train"], frame["n_test"] = entry["n_train"], entry["n_test"]
for key, value in provenance(
    {"entry": entry, "rvm": sm.params.rvm, "sigma2": sigma2, "hyper": hyper[method]}, sm.params.seed
).items():
    frame[key] = value
for row in rows:
    logging.info(
        "%s %s split %d: %s mse=%.5g basis=%s",
        dataset,
        method,
        row["split"],
        row["status"],
        row["mse"],
        row["n_basis"],
    )
with atomic_path(sm.output[0]) as tmp:
    frame.to_csv(tmp, index=False)
