"""The jobs of the Buteneers et al. rules (``workflow/rules.smk`` here): files in, files
out.

* :func:`task_job` — one task of Tables 3, 5 and 6: read-out features, then every method on them
  (:func:`task_inputs` and :func:`build_task` also serve the investigations);
* :func:`timing_job` — optimisation time against M and N on random problems;
* :func:`tables_job` — Tables 3, 5 and 6 beside the paper's numbers, and the timing table.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import read_csvs, with_provenance, write_csv, write_markdown
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.studies.buteneers.experiment import run_task, timing_point
from rlsbench.studies.buteneers.inputs import ordinal_categoricals
from rlsbench.studies.buteneers.report import tables_markdown

log = logging.getLogger(__name__)


def task_inputs(spec, seed, dataset=None):
    """The raw inputs, targets and target kind of one task.

    Parameters
    ----------
    spec : dict
        The task's entry of ``buteneers.tasks``.
    seed : int
    dataset : rlsbench.benchmark.datasets.Dataset, optional
        The task's dataset (tasks with a ``dataset``); its one-hot attributes are coded as
        ``spec["features"]["categorical"]`` says.

    Returns
    -------
    U : ndarray of shape (n_samples, n_inputs)
    y : ndarray of shape (n_samples,)
    kind : {"binary", "multiclass", "regression"}
    """
    if "dataset" in spec:
        U = dataset.X
        if spec["features"].get("categorical", "ordinal") == "ordinal":
            U, _ = ordinal_categoricals(U, dataset.feature_names)
        return U, dataset.y, dataset.task
    from rlsbench.numerics.synthetic import make_two_gaussians

    syn = spec["synthetic"]
    X, y = make_two_gaussians(
        syn["n_samples"],
        syn["n_features"],
        seed=syn.get("seed", seed),
        n_informative=syn.get("n_informative"),
    )
    return X, y, "binary"


def build_task(name, spec, seed, U, y, kind):
    """Split one task and build its read-out features (Section 5.3: fixed-size LS-SVM;
    Section 5.4: ELM).

    Parameters
    ----------
    name : str
    spec : dict
        The task's entry of ``buteneers.tasks``.
    seed : int
        Split, ELM weights / prototype search.
    U : ndarray of shape (n_samples, n_inputs)
    y : ndarray of shape (n_samples,)
    kind : {"binary", "regression"}

    Returns
    -------
    dict
        ``X_train`` (M, N), ``y_train``, ``X_test``, ``y_test``, ``task``
        ("classification"/"regression"), ``t_features`` (seconds), ``n_inputs_used``.
    """
    from rlsbench.numerics.ridgecv.elm import ELMFeatures
    from rlsbench.numerics.ridgecv.fixed_size_lssvm import NystromFeatures

    if kind == "multiclass":
        raise ConfigError(
            f"config key buteneers.tasks.{name}: multiclass datasets are not in Tables 3-6"
        )
    task_kind = "classification" if kind == "binary" else "regression"
    n_train = int(spec["n_train"])
    if not 0 < n_train < U.shape[0]:
        raise ConfigError(
            f"config key buteneers.tasks.{name}.n_train: must be in (0, {U.shape[0]})"
        )
    order = (
        np.arange(U.shape[0])
        if spec.get("split", "random") == "head"
        else np.random.default_rng(seed).permutation(U.shape[0])
    )
    train, test = order[:n_train], order[n_train:]
    if spec.get("n_test"):
        test = test[: int(spec["n_test"])]
    if task_kind == "regression":  # targets in units of the training std (NRMSE is unit-free)
        mu, sd = y[train].mean(), y[train].std()
        y = (y - mu) / sd
    feat = spec["features"]
    with Stopwatch() as clock:
        if feat["kind"] == "elm":
            mapper = ELMFeatures(
                n_hidden=feat["n_hidden"],
                inputs=feat.get("inputs", "independent"),
                random_state=seed,
            )
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
    used = mapper.inputs_.shape[0] if feat["kind"] == "elm" else U.shape[1]
    return dict(
        X_train=X_train,
        y_train=y[train],
        X_test=X_test,
        y_test=y[test],
        task=task_kind,
        t_features=clock.wall_s,
        n_inputs_used=int(used),
    )


def task_job(table, *, name, task, common, threads, data=None):
    """One task of Buteneers et al.'s Tables 3, 5 and 6: build the read-out features
    (fixed-size LS-SVM or ELM), then time and evaluate every method on them (one row per
    method).

    Parameters
    ----------
    table : str
        Output CSV.
    name : str
        The task's name.
    task : dict
        Its entry of ``buteneers.tasks`` (without the name).
    common : dict
        ``seed``, ``methods``, ``covariance_steps`` and (if set) ``method_options`` of the
        section (a task's own ``covariance_steps`` overrides the section's).
    threads : int
        BLAS threads.
    data : str, optional
        The prepared dataset (tasks with a ``dataset``).
    """
    from rlsbench.benchmark.datasets import load_prepared

    spec, seed = task, int(common["seed"])
    U, y, kind = task_inputs(spec, seed, load_prepared(data) if "dataset" in spec else None)
    with threadpool_limits(int(threads)):
        built = build_task(name, spec, seed, U, y, kind)
        log.info(
            "task %s: %s features %s in %.3gs",
            name,
            spec["features"]["kind"],
            built["X_train"].shape,
            built["t_features"],
        )
        rows = run_task(
            built["X_train"],
            built["y_train"],
            built["X_test"],
            built["y_test"],
            task=built["task"],
            methods=common["methods"],
            n_folds=spec["n_folds"],
            n_lambdas=spec["n_lambdas"],
            seed=seed,
            fixed=[built["X_train"].shape[1] - 1],
            covariance_steps=spec.get("covariance_steps", common.get("covariance_steps")),
            method_options=common.get("method_options"),
            log=log.info,
        )

    df = pd.DataFrame(rows)
    df.insert(0, "task", name)
    df.insert(1, "dataset", spec.get("dataset", "synthetic"))
    df.insert(2, "stands_in_for", spec.get("stands_in_for", ""))
    df.insert(3, "paper_table", spec.get("paper", ""))
    df.insert(4, "features", spec["features"]["kind"])
    df["t_features"] = built["t_features"]
    df["n_inputs"] = int(U.shape[1])
    df["n_inputs_used"] = built["n_inputs_used"]
    df["threads"] = int(threads)
    df = with_provenance(df, provenance({"task": spec, "common": common}, seed))
    write_csv(df, table, float_format="%.6g")


def timing_job(table, *, timing, seed, threads):
    """Optimisation time against M and N on random regression problems (one row per method
    and size)."""
    cfg, seed = timing, int(seed)
    points = [("M", M, cfg["N_fixed"]) for M in cfg["M_values"]] + [
        ("N", cfg["M_fixed"], N) for N in cfg["N_values"]
    ]
    rows = []
    with threadpool_limits(int(threads)):
        for sweep, M, N in points:
            for r in timing_point(
                M,
                N,
                methods=cfg["methods"],
                n_folds=cfg["n_folds"],
                n_lambdas=cfg["n_lambdas"],
                seed=seed,
                repeats=cfg.get("repeats", 1),
            ):
                r["sweep"] = sweep
                log.info("%s", r)
                rows.append(r)
    df = pd.DataFrame(rows)
    df["n_folds"], df["n_lambdas"] = cfg["n_folds"], cfg["n_lambdas"]
    df["threads"] = int(threads)
    df["repeats"] = cfg.get("repeats", 1)
    df = with_provenance(df, provenance(cfg, seed))
    write_csv(df, table, float_format="%.6g")


def tables_job(tasks, timing, tables, results):
    """Tables 3, 5 and 6 beside the paper's numbers and the timing table (Markdown), and every
    task's rows in one CSV."""
    rows = read_csvs(tasks)
    write_csv(rows, results, float_format="%.6g")
    write_markdown(tables, tables_markdown(rows, pd.read_csv(timing)))
    log.info("wrote %s", tables)
