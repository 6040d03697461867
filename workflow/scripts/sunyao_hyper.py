"""Hyperparameters of one dataset by Sun & Yao's 5-fold CV on a subset (rule sunyao_hyper)."""

import json
import logging

from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_write_text
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.sunyao.experiments import choose_hyperparameters, load_data

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
dataset, entry = sm.wildcards.sy_dataset, sm.params.entry
sigma2 = entry.get("sigma2", sm.params.sigma2)  # a dataset may override the fixed σ²
with threadpool_limits(int(sm.threads)):
    X, y = load_data(dataset, entry, sm.input.get("data"))
    hyper = choose_hyperparameters(
        X,
        y,
        sm.params.cv,
        sm.params.rvm,
        sigma2=sigma2,
        seed=sm.params.seed,
        target=entry.get("target", "raw"),
    )
for method in ("forward", "rvm_old", "rvm_new"):
    logging.info("%s %s: %s", dataset, method, hyper[method])
    if hyper[method]["at_grid_edge"]:
        logging.warning(
            "%s %s: CV choice on the edge of its grid (%s); widen sunyao.cv",
            dataset,
            method,
            ", ".join(hyper[method]["at_grid_edge"]),
        )
hyper["provenance"] = provenance(
    {"cv": sm.params.cv, "rvm": sm.params.rvm, "entry": entry, "sigma2": sigma2}, sm.params.seed
)
atomic_write_text(sm.output[0], json.dumps(hyper, indent=1, sort_keys=True) + "\n")
