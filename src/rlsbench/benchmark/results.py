"""Tidy result tables of the protocol: one row per (dataset, method, fold, seed, k), written
once, never edited.

Per-job tables are merged into ``steps.csv``; the curves (mean ± sd per k), the summary
(accuracy at chosen k, runtimes per method, as CSV and Markdown) and the jobs' run
times are derived from it. Rows are sorted and floats written in their shortest round-trip
form, so the same config gives byte-identical tables apart from the timing columns
(:data:`rlsbench.benchmark.protocol.TIMING_COLUMNS`). The ``*_job`` functions are what the
workflow's rules run (file in, file out).
"""

from __future__ import annotations

import logging
import os
import re

import numpy as np
import pandas as pd

from rlsbench.benchmark.tables import markdown_table, write_csv, write_markdown

log = logging.getLogger(__name__)

#: Leading columns of every step table, in this order; provenance and the rest follow.
ID_COLUMNS = ["dataset", "task", "method", "fold", "seed", "k", "status", "reason"]
SORT_COLUMNS = ["dataset", "method", "fold", "seed", "k"]


def write_table(rows, path):
    """Write result rows as a CSV table, atomically.

    Parameters
    ----------
    rows : list of dict
    path : str or Path
    """
    frame = pd.DataFrame(rows)
    frame = frame[[c for c in ID_COLUMNS if c in frame] + [c for c in frame if c not in ID_COLUMNS]]
    write_csv(frame, path)


def read_tables(paths):
    """Concatenate per-job CSV tables into one frame, in a canonical row order.

    Parameters
    ----------
    paths : iterable of str or Path

    Returns
    -------
    pandas.DataFrame
        Sorted by dataset, method, fold, seed, k (independent of the order of ``paths``).
    """
    frames = [pd.read_csv(p, keep_default_na=False, na_values=[""]) for p in paths]
    frame = pd.concat(frames, ignore_index=True, sort=False)
    frame["reason"] = frame["reason"].fillna("")
    frame = frame.sort_values(SORT_COLUMNS, kind="mergesort").reset_index(drop=True)
    leading = [c for c in ID_COLUMNS if c in frame]
    return frame[leading + [c for c in frame if c not in leading]]


def merge_tables(paths, out):
    """Merge per-job tables into ``out`` (CSV), atomically."""
    frame = read_tables(paths)
    write_csv(frame, out)
    return frame


def _score_column(frame):
    return "test_accuracy" if frame["task"].iloc[0] != "regression" else "test_mse"


def chosen_k(run):
    """k of one run chosen on the training split: best LOO accuracy (classification) or LOO
    MSE (regression); ties go to the smaller k."""
    if run["task"].iloc[0] == "regression":
        return int(run["k"].iloc[int(np.argmin(run["loo_mse"].to_numpy()))])
    return int(run["k"].iloc[int(np.argmax(run["loo_accuracy"].to_numpy()))])


def _short_reason(group):
    """The first run's skip reason without its shape details (they vary by a row per fold)."""
    reasons = group.loc[group["reason"] != "", "reason"]
    if reasons.empty:
        return ""
    return re.sub(r"\s*\(m=.*\)$", "", reasons.iloc[0])


def _mean_sd(values, digits=3):
    values = np.asarray(values, dtype=float)
    if values.size == 0 or np.all(np.isnan(values)):
        return ""
    return f"{np.nanmean(values):.{digits}f} ± {np.nanstd(values):.{digits}f}"


def summary_table(frame, report_k):
    """Accuracy (MSE for regression) at chosen k and runtimes, one row per (dataset, method).

    Parameters
    ----------
    frame : pandas.DataFrame
        The merged step table (:func:`read_tables`).
    report_k : list of int
        Fixed numbers of features at which test performance is reported (k above a dataset's
        k_max is left blank).

    Returns
    -------
    pandas.DataFrame
        Columns: dataset, method, status, runs, metric, ``at k=…`` (mean ± sd over folds and
        seeds), k by LOO (mean), at k by LOO, at k_max, fit time (s, mean per run), skipped
        reason.
    """
    rows = []
    for (dataset, method), group in frame.groupby(["dataset", "method"], sort=True):
        ok = group[group["status"] == "ok"]
        runs = group.groupby(["fold", "seed"]).ngroups
        row = {"dataset": dataset, "method": method, "runs": runs}
        if ok.empty:
            row.update({"status": "skipped", "reason": _short_reason(group)})
            rows.append(row)
            continue
        col = _score_column(ok)
        row["status"] = "ok" if len(ok.groupby(["fold", "seed"])) == runs else "partly skipped"
        row["metric"] = "accuracy" if col == "test_accuracy" else "mse"
        for k in report_k:
            at_k = ok[ok["k"] == k][col]
            row[f"k={k}"] = _mean_sd(at_k) if len(at_k) else ""
        chosen = [(chosen_k(run), run) for _, run in ok.groupby(["fold", "seed"], sort=True)]
        row["k by LOO"] = f"{np.mean([c for c, _ in chosen]):.1f}"
        row["at k by LOO"] = _mean_sd([run.loc[run["k"] == c, col].iloc[0] for c, run in chosen])
        last = ok[ok["k"] == ok["k_max"]]
        row["k_max"] = str(int(ok["k_max"].iloc[0]))
        row["at k_max"] = _mean_sd(last[col])
        per_run = ok.groupby(["fold", "seed"])["fit_time_s"].first()
        row["fit time (s)"] = f"{per_run.mean():.3g}"
        row["reason"] = _short_reason(group[group["status"] != "ok"])
        rows.append(row)
    table = pd.DataFrame(rows)
    order = (
        ["dataset", "method", "status", "runs", "metric"]
        + [f"k={k}" for k in report_k]
        + ["k by LOO", "at k by LOO", "k_max", "at k_max", "fit time (s)", "reason"]
    )
    for col in order:
        if col not in table:
            table[col] = ""
    return table[order].astype(object).fillna("")


def read_step_table(path):
    """Read a merged step table written by :func:`merge_tables`."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    frame["reason"] = frame["reason"].astype(object).fillna("")  # all empty: read as float
    return frame


def curves_table(frame):
    """Mean and standard deviation over runs (folds × seeds) of every curve, per k.

    The compact form of the step table that the figures show (small enough to commit).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, k): runs, and ``<score>_mean`` / ``<score>_sd`` for the
        test and LOO accuracy and MSE.
    """
    ok = frame[frame["status"] == "ok"]
    values = ["test_accuracy", "loo_accuracy", "test_mse", "loo_mse"]
    grouped = ok.groupby(["dataset", "method", "k"], sort=True)
    table = grouped[values].agg(["mean", "std"])
    table.columns = [f"{v}_{'sd' if s == 'std' else s}" for v, s in table.columns]
    table.insert(0, "runs", grouped.size())
    # six decimals are far below the fold-to-fold spread and keep the committed copy small
    return table.reset_index().round(6)


#: Columns of a job's table that time its parts (seconds, one value per fold/seed task,
#: repeated on the task's rows): the method's own selection, and the protocol's work around it
#: (the λ search of a λ-search job; scoring the path on the held-out fold and by LOO).
METHOD_TIME = "fit_time_s"
PROTOCOL_TIMES = {"alpha": ("alpha_time_s",), "select": ("score_time_s",)}
#: Column of a job's table with the job process's own peak memory (MB).
PEAK_MEMORY = "job_max_rss_mb"


def _task_seconds(frame, columns, keys):
    """Sum over a job's tasks (rows unique in ``keys``) of each of ``columns``."""
    present = [c for c in columns if c in frame.columns]
    if not present or frame.empty:
        return dict.fromkeys(columns, 0.0)
    tasks = frame.drop_duplicates([k for k in keys if k in frame.columns])
    return {
        c: float(pd.to_numeric(tasks[c], errors="coerce").fillna(0).sum()) if c in present else 0.0
        for c in columns
    }


def runtime_table(benchmark_paths, prefix, tables=None):
    """Where the jobs' time goes: wall time, the method's, the protocol's and the rest.

    Parameters
    ----------
    benchmark_paths : list of str
        Snakemake's benchmark files, ``<prefix>alpha/<dataset>.tsv`` (every fold's λ search of
        a dataset) and ``<prefix>select/<dataset>/<method>.tsv`` (every fold and seed of a
        method).
    prefix : str
    tables : list of str, optional
        The jobs' own tables, in the order of ``benchmark_paths`` (the λ-search table of a
        dataset, the step table of a selection job). Without them the breakdown columns are
        NaN.

    Returns
    -------
    pandas.DataFrame
        Per (stage, dataset, method): jobs; ``total_s`` and ``mean_s``, the jobs' wall time
        (Snakemake's ``benchmark:``, from the job's start to its end); ``method_s``, the
        method's own selection (``fit_time_s`` summed over folds and seeds); ``protocol_s``,
        what the protocol adds (the λ search of a λ-search job; scoring the path on the
        held-out fold and by LOO of a selection job); ``other_s`` = ``total_s`` − the two,
        outside both (start-up, reading the data, writing the table; negative only where a
        job's tasks ran side by side on several threads); ``other_share`` = ``other_s`` /
        ``total_s``; and ``max_rss_mb``, the job process's peak memory (MB: its table's
        ``job_max_rss_mb``, else Snakemake's benchmark of the process it started). A
        final ``all`` row has the sums over every job, and in ``mean_s`` the span from the
        first job's start to the last job's end (end = benchmark file time, start = end −
        wall).
    """
    if tables is not None and len(tables) != len(benchmark_paths):
        raise ValueError(
            f"runtime_table: {len(tables)} job table(s) for {len(benchmark_paths)} benchmark(s)"
        )
    rows = []
    for i, path in enumerate(benchmark_paths):
        parts = str(path)[len(prefix) :].removesuffix(".tsv").split("/")
        stage = parts[0]
        bench = pd.read_csv(path, sep="\t")
        end = os.path.getmtime(path)
        seconds = float(bench["s"].iloc[0])
        row = {
            "stage": stage,
            "dataset": parts[1],
            "method": parts[2] if stage == "select" else "(λ search)",
            "s": seconds,
            "method_s": np.nan,
            "protocol_s": np.nan,
            "max_rss_mb": pd.to_numeric(bench["max_rss"], errors="coerce").iloc[0],
            "start": end - seconds,
            "end": end,
        }
        if tables is not None:
            protocol = PROTOCOL_TIMES.get(stage, ())
            frame = pd.read_csv(tables[i])
            used = _task_seconds(frame, (METHOD_TIME, *protocol), ("fold", "seed"))
            row["method_s"] = used[METHOD_TIME] if stage == "select" else 0.0
            row["protocol_s"] = sum(used[c] for c in protocol)
            if PEAK_MEMORY in frame.columns and frame[PEAK_MEMORY].notna().any():
                row["max_rss_mb"] = float(frame[PEAK_MEMORY].max())
        rows.append(row)
    jobs = pd.DataFrame(rows)
    sums = {
        "jobs": ("s", "size"),
        "total_s": ("s", "sum"),
        "mean_s": ("s", "mean"),
        "method_s": ("method_s", lambda x: x.sum(min_count=1)),
        "protocol_s": ("protocol_s", lambda x: x.sum(min_count=1)),
        "max_rss_mb": ("max_rss_mb", "max"),
    }
    table = jobs.groupby(["stage", "dataset", "method"], sort=True).agg(**sums).reset_index()
    total = jobs.assign(stage="all").groupby("stage").agg(**sums).reset_index()
    total["dataset"] = ""
    total["method"] = "span of the jobs (first start to last end)"
    total["mean_s"] = jobs["end"].max() - jobs["start"].min()
    table = pd.concat([table, total], ignore_index=True)
    table["other_s"] = table["total_s"] - table["method_s"] - table["protocol_s"]
    table["other_share"] = table["other_s"] / table["total_s"]
    columns = ["stage", "dataset", "method", "jobs", "total_s", "mean_s", "method_s"]
    columns += ["protocol_s", "other_s", "other_share", "max_rss_mb"]
    return table[columns].round(3)


# ---------------------------------------------------------------------------------------------
# Jobs of the workflow (the main part's workflow/rules.smk): files in, files out
# ---------------------------------------------------------------------------------------------
def aggregate_job(tables, steps):
    """Merge the per-job tables (list of paths) into the step table ``steps``."""
    frame = merge_tables(tables, steps)
    log.info("merged %d job tables, %d rows", len(tables), len(frame))


def alphas_job(tables, alphas):
    """The λ chosen on every training split: the λ-search jobs' tables in one CSV, sorted by
    dataset and fold."""
    frame = pd.concat([pd.read_csv(p) for p in tables], ignore_index=True)
    frame = frame.sort_values(["dataset", "fold"], kind="mergesort").reset_index(drop=True)
    write_csv(frame, alphas)
    log.info("λ of %d folds of %d dataset(s)", len(frame), frame["dataset"].nunique())


def curves_job(steps, curves):
    """Write the curves table (:func:`curves_table`) of the step table ``steps``."""
    table = curves_table(read_step_table(steps))
    write_csv(table, curves)
    log.info("%d rows", len(table))


def summary_job(steps, csv, md, *, report_k):
    """Write the summary (:func:`summary_table`) as CSV and Markdown (its view and LaTeX file
    come from :mod:`rlsbench.benchmark.views`)."""
    table = summary_table(read_step_table(steps), report_k)
    write_csv(table, csv)
    write_markdown(md, markdown_table(table))
    log.info("\n%s", table.to_string(index=False))


def runtime_job(benchmarks, runtime, *, prefix, tables=None):
    """Write the run-time table (:func:`runtime_table`) of the jobs' benchmark files and,
    given, their own tables (the same order)."""
    table = runtime_table(benchmarks, prefix, tables)
    write_csv(table, runtime)
    log.info("\n%s", table.to_string(index=False))
