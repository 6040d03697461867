"""Training time and test NMSE of one method for growing training sets (rule sunyao_fig1_runs)."""

import json
import logging

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.sunyao.experiments import fig1_rows, load_data

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
method, entry = sm.wildcards.sy_method, sm.params.entry
sigma2 = entry.get("sigma2", sm.params.sigma2)  # a dataset may override the fixed σ²
dataset = entry["dataset"]
hyper = json.loads(open(sm.input.hyper).read())
with threadpool_limits(int(sm.threads)):
    X, y = load_data(dataset, entry, sm.input.get("data"))
    rows = fig1_rows(
        X,
        y,
        method,
        hyper,
        train_sizes=entry["train_sizes"],
        n_test=entry["n_test"],
        seed=sm.params.seed,
        sigma2=sigma2,
        rvm=sm.params.rvm,
        k_max_fraction=entry["k_max_fraction"],
        k_max_cap=entry["k_max_cap"],
        time_budget_s=entry["time_budget_s"],
        memory_budget_mb=entry["memory_budget_mb"],
        target=entry.get("target", "raw"),
    )
frame = pd.DataFrame(rows)
frame.insert(0, "dataset", dataset)
frame["threads"] = int(sm.threads)
for key, value in provenance(
    {"entry": entry, "rvm": sm.params.rvm, "sigma2": sigma2, "hyper": hyper[method]}, sm.params.seed
).items():
    frame[key] = value
for row in rows:
    logging.info(
        "%s n=%d: %s fit %.3g s nmse %.4g %s",
        method,
        row["n_train"],
        row["status"],
        row["fit_s"],
        row["nmse"],
        row.get("reason", ""),
    )
with atomic_path(sm.output[0]) as tmp:
    frame.to_csv(tmp, index=False)
