"""The protocol's jobs: file in, file out (what the main part's rules run).

Each job reads a prepared dataset, parses its ``settings`` (the part of the config section its
result depends on, :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.job_settings`
or :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.alpha_settings`, passed by the
rule as ``params.settings``) once into
:class:`~rlsbench.benchmark.protocol_settings.ProtocolSettings`, runs the array code of
:mod:`rlsbench.benchmark.protocol` on every fold (and seed), side by side on the job's threads
(:mod:`rlsbench.benchmark.parallel`), and writes one table atomically:

* :func:`alpha_job`: every fold's λ of one dataset (:func:`~rlsbench.benchmark.protocol.
  run_alpha_job`);
* :func:`select_job`: every fold and seed of one (dataset, method)
  (:func:`~rlsbench.benchmark.protocol.run_select_job`).
"""

from __future__ import annotations

import logging
import math

import numpy as np

from rlsbench.benchmark.protocol import cv_plan, estimate_flops, run_alpha_job, run_select_job
from rlsbench.benchmark.protocol_settings import ProtocolSettings

log = logging.getLogger(__name__)

#: Estimated flops of a job above which its tasks run in joblib workers; below, one after
#: another in the job's process (a worker start costs more than such a job).
PARALLEL_MIN_FLOPS = 4e9


def _alpha_task(dataset, fold, settings, n_jobs=1):
    record = run_alpha_job(dataset, fold, settings)
    return {"dataset": dataset.name, "fold": int(fold), **record}


def _select_task(dataset, method_name, fold, seed, alpha_record, settings, n_jobs=1):
    return run_select_job(dataset, method_name, fold, seed, alpha_record, settings, n_jobs=n_jobs)


def _fold_shape(dataset, plan):
    m = math.ceil(dataset.X.shape[0] * (plan.n_folds - 1) / plan.n_folds)
    return m, dataset.X.shape[1]


def alpha_job(data, table, *, settings, threads=1):
    """λ of every fold of one dataset by the LOO grid search
    (:func:`~rlsbench.benchmark.protocol.run_alpha_job`).

    Parameters
    ----------
    data : str
        Prepared dataset (``.npz``).
    table : str
        Output CSV: one row per split (``dataset, fold, alpha, alpha_index, alpha_time_s``;
        where the dataset's :func:`~rlsbench.benchmark.protocol.cv_plan` departs from the
        configured split, also ``cv_folds, cv_repeats, cv_rule``, the rule in words).
    settings : dict
        :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.alpha_settings` of the
        ``main`` section.
    threads : int
        Threads of the job; folds run side by side (:func:`rlsbench.benchmark.parallel.map_tasks`).
    """
    from rlsbench.benchmark.datasets import load_prepared
    from rlsbench.benchmark.parallel import map_tasks
    from rlsbench.benchmark.results import write_table

    protocol = ProtocolSettings.of(settings)
    dataset = load_prepared(data)
    plan = cv_plan(dataset.y, dataset.task, protocol)
    if plan.rule:
        log.info("%s: %s", dataset.name, plan.rule)
    m, n = _fold_shape(dataset, plan)
    flops = 2.0 * m * n * min(m, n) * plan.n_splits
    rows = map_tasks(
        _alpha_task,
        [(dataset, fold, protocol) for fold in range(plan.n_splits)],
        n_jobs=threads,
        what=f"{dataset.name} λ search, fold",
        label=lambda task: f"fold {task[1]}",
        parallel=flops > PARALLEL_MIN_FLOPS,
    )
    for row in rows:
        log.info("%s fold %d: alpha = %r", dataset.name, row["fold"], row["alpha"])
        if plan.rule:  # the split departs from the configured one: say how, on every row
            row.update(cv_folds=plan.n_folds, cv_repeats=plan.n_repeats, cv_rule=plan.rule)
    write_table(_with_peak_memory(rows), table)


def read_alphas(path):
    """{fold: λ record} from an :func:`alpha_job` table."""
    import pandas as pd

    frame = pd.read_csv(path)
    return {int(r["fold"]): r for r in frame.to_dict("records")}


def _check_alpha_plan(records, plan, path) -> None:
    """Refuse a λ table written under another split than ``plan`` (an older config's)."""
    folds = sorted(records)
    recorded = {
        (r.get("cv_folds", plan.n_folds), r.get("cv_repeats", plan.n_repeats))
        for r in records.values()
        if not _missing(r.get("cv_folds"))
    }
    if folds != list(range(plan.n_splits)) or recorded - {(plan.n_folds, plan.n_repeats)}:
        raise ValueError(
            f"{path}: the λ table has {len(folds)} split(s) "
            f"({', '.join(f'{f} x {r}' for f, r in sorted(recorded)) or 'no cv_folds column'}); "
            f"the dataset's plan has {plan.n_splits} ({plan.n_folds} folds x {plan.n_repeats}): "
            "run its alpha job again"
        )


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def select_job(data, alphas, table, *, method, settings, threads=1):
    """Every fold (and seed) of one (dataset, method): the tidy step table of
    :func:`~rlsbench.benchmark.protocol.run_select_job` for each, in (fold, seed) order, in one
    CSV.

    Parameters
    ----------
    data : str
        Prepared dataset (``.npz``).
    alphas : str
        The dataset's λ table (:func:`alpha_job`).
    table : str
        Output CSV.
    method : str
        Method name.
    settings : dict
        :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.job_settings` of the
        ``main`` section for this dataset (the rows' ``config_hash`` is its hash).
    threads : int
        Threads of the job; (fold, seed) tasks run side by side.

    Raises
    ------
    ValueError
        The k cap exceeds the dataset's features (the message names the config key).
    """
    from rlsbench.benchmark.datasets import load_prepared
    from rlsbench.benchmark.methods import get_method
    from rlsbench.benchmark.parallel import map_tasks
    from rlsbench.benchmark.results import write_table

    protocol = ProtocolSettings.of(settings)
    dataset = load_prepared(data)
    records = read_alphas(alphas)
    plan = cv_plan(dataset.y, dataset.task, protocol)
    _check_alpha_plan(records, plan, alphas)
    tasks = [
        (dataset, method, fold, seed, records[fold], protocol)
        for fold in range(plan.n_splits)
        for seed in protocol.seeds_for(method)
    ]
    m, n = _fold_shape(dataset, plan)
    k = protocol.k_for(dataset.name, n)
    t = len(np.unique(dataset.y)) if dataset.task == "multiclass" else 1
    flops = estimate_flops(get_method(method), m, n, k, t) * len(tasks)
    results = map_tasks(
        _select_task,
        tasks,
        n_jobs=threads,
        what=f"{dataset.name} {method}, fold/seed",
        label=lambda task: f"fold {task[2]} seed {task[3]}",
        parallel=flops > PARALLEL_MIN_FLOPS,
    )
    rows = []
    for (_, _, fold, seed, _, _), task_rows in zip(tasks, results, strict=True):
        first, last = task_rows[0], task_rows[-1]
        if first["status"] == "skipped":
            log.info("fold %d seed %d: skipped: %s", fold, seed, first["reason"])
        else:
            log.info(
                "fold %d seed %d: %d steps, alpha=%r, fit %.3f s, final test accuracy %.4f, "
                "final test mse %.4f",
                fold,
                seed,
                len(task_rows),
                first["alpha_protocol"],
                first["fit_time_s"],
                last["test_accuracy"],
                last["test_mse"],
            )
        rows.extend(task_rows)
    write_table(_with_peak_memory(rows), table)


def _with_peak_memory(rows):
    """``rows`` with the job process's peak resident memory (MB, its finished workers
    included) in ``job_max_rss_mb``: the job's own measurement, since a child of the job
    server (:mod:`rlsbench.benchmark.jobserver`) is not the process Snakemake's benchmark
    watches."""
    import resource

    peak_kb = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    return [{**row, "job_max_rss_mb": round(peak_kb / 1024.0, 1)} for row in rows]
