"""One task of Buteneers et al.'s Tables 3-6 (rule ``buteneers_task``): build the read-out
features (fixed-size LS-SVM or ELM), then time and evaluate every method on them."""

import logging
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.provenance import provenance
from rlsbench.numerics.ridgecv.elm import ELMFeatures
from rlsbench.numerics.ridgecv.fixed_size_lssvm import NystromFeatures
from rlsbench.studies.buteneers.experiment import run_task

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(
    filename=sm.log[0], filemode="w", level=logging.INFO, format="%(asctime)s %(message)s"
)
log = logging.getLogger("buteneers_task")
name, spec, common = sm.wildcards.task, sm.params.task, sm.params.common
seed = int(common["seed"])


def load():
    if "dataset" in spec:
        from rlsbench.benchmark.datasets import load_prepared

        ds = load_prepared(sm.input.data)
        return ds.X, ds.y, ds.task
    from rlsbench.numerics.synthetic import make_two_gaussians

    syn = spec["synthetic"]
    X, y = make_two_gaussians(
        syn["n_samples"],
        syn["n_features"],
        seed=syn.get("seed", seed),
        n_informative=syn.get("n_informative"),
    )
    return X, y, "binary"


U, y, kind = load()
task = "classification" if kind == "binary" else "regression"
if kind == "multiclass":
    raise ValueError(
        f"config key buteneers.tasks.{name}: multiclass datasets are not in Tables 3-6"
    )
n_train = int(spec["n_train"])
if not 0 < n_train < U.shape[0]:
    raise ValueError(f"config key buteneers.tasks.{name}.n_train: must be in (0, {U.shape[0]})")
order = (
    np.arange(U.shape[0])
    if spec.get("split", "random") == "head"
    else np.random.default_rng(seed).permutation(U.shape[0])
)
train, test = order[:n_train], order[n_train:]
if spec.get("n_test"):
    test = test[: int(spec["n_test"])]
if task == "regression":  # targets in units of the training std (NRMSE is unit-free)
    mu, sd = y[train].mean(), y[train].std()
    y = (y - mu) / sd

feat = spec["features"]
with threadpool_limits(int(sm.threads)):
    t0 = time.perf_counter()
    if feat["kind"] == "elm":
        mapper = ELMFeatures(n_hidden=feat["n_hidden"], random_state=seed)
    else:
        mapper = NystromFeatures(
            n_prototypes=feat["n_prototypes"],
            sigma=feat.get("sigma", "median"),
            n_iter=feat["renyi_iterations"],
            random_state=seed,
        )
    mapper.fit(U[train])
    X_train, X_test = mapper.transform(U[train]), mapper.transform(U[test])
    if feat["kind"] != "elm":  # ELM features carry their own constant column
        X_train = np.hstack([X_train, np.ones((X_train.shape[0], 1))])
        X_test = np.hstack([X_test, np.ones((X_test.shape[0], 1))])
    t_features = time.perf_counter() - t0
    log.info("task %s: %s features %s in %.3gs", name, feat["kind"], X_train.shape, t_features)
    rows = run_task(
        X_train,
        y[train],
        X_test,
        y[test],
        task=task,
        methods=common["methods"],
        n_folds=spec["n_folds"],
        n_lambdas=spec["n_lambdas"],
        seed=seed,
        fixed=[X_train.shape[1] - 1],
        max_seconds=common.get("fs_max_seconds"),
        log=log.info,
    )

prov = provenance({"task": spec, "common": common}, seed)
df = pd.DataFrame(rows)
df.insert(0, "task", name)
df.insert(1, "dataset", spec.get("dataset", "synthetic"))
df.insert(2, "stands_in_for", spec.get("stands_in_for", ""))
df.insert(3, "paper_table", spec.get("paper", ""))
df.insert(4, "features", feat["kind"])
df["t_features"] = t_features
df["threads"] = int(sm.threads)
for key, value in prov.items():
    df[key] = value
with atomic_path(sm.output.table) as tmp:
    df.to_csv(tmp, index=False, float_format="%.6g")
