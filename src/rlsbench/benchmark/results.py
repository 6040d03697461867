"""Tidy result tables: one row per (dataset, method, fold, seed, k), written once, never edited.

Per-job tables are merged into ``steps.csv``; the summary (accuracy at chosen k, runtimes per
method) is derived from it and written as CSV, Markdown and LaTeX (booktabs). Rows are sorted
and floats written in their shortest round-trip form, so the same config gives byte-identical
tables apart from the timing columns (:data:`rlsbench.benchmark.protocol.TIMING_COLUMNS`).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text

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
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


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
    with atomic_path(out) as tmp:
        frame.to_csv(tmp, index=False)
    return frame


def _score_column(frame):
    return "test_accuracy" if frame["task"].iloc[0] != "regression" else "test_mse"


def _chosen_k(run):
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
        chosen = [(_chosen_k(run), run) for _, run in ok.groupby(["fold", "seed"], sort=True)]
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


def write_summary(table, csv_path, md_path, tex_path, *, caption=""):
    """Write the summary as CSV, Markdown (pipe table) and LaTeX (booktabs), atomically."""
    with atomic_path(csv_path) as tmp:
        table.to_csv(tmp, index=False)
    atomic_write_text(md_path, table.to_markdown(index=False, disable_numparse=True) + "\n")
    latex = table.to_latex(index=False, escape=True, caption=caption or None, label="tab:main")
    if "\\toprule" not in latex:
        raise RuntimeError("pandas did not write a booktabs table")
    atomic_write_text(tex_path, latex.replace("±", "$\\pm$"))


def read_step_table(path):
    """Read a merged step table written by :func:`merge_tables`."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    frame["reason"] = frame["reason"].fillna("")
    return frame


def write_csv(frame, path):
    """Write a frame as CSV without its index, atomically."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


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


def runtime_table(benchmark_paths, prefix):
    """Wall time and peak memory of the jobs, from Snakemake's benchmark files.

    Parameters
    ----------
    benchmark_paths : list of str
        ``<prefix>alpha/<dataset>/fold<f>.tsv`` and
        ``<prefix>select/<dataset>/<method>/fold<f>-seed<s>.tsv``.
    prefix : str

    Returns
    -------
    pandas.DataFrame
        Per (stage, dataset, method): jobs, total and mean seconds, max RSS (MB); a final
        ``all`` row with the total job seconds and the span from the first job's start to the
        last job's end (end = benchmark file time, start = end − s).
    """
    import os

    rows = []
    for path in benchmark_paths:
        parts = str(path)[len(prefix) :].split("/")
        bench = pd.read_csv(path, sep="\t")
        end = os.path.getmtime(path)
        seconds = float(bench["s"].iloc[0])
        rows.append(
            {
                "stage": parts[0],
                "dataset": parts[1],
                "method": parts[2] if parts[0] == "select" else "(λ search)",
                "s": seconds,
                "max_rss_mb": pd.to_numeric(bench["max_rss"], errors="coerce").iloc[0],
                "start": end - seconds,
                "end": end,
            }
        )
    jobs = pd.DataFrame(rows)
    table = (
        jobs.groupby(["stage", "dataset", "method"], sort=True)
        .agg(
            jobs=("s", "size"),
            total_s=("s", "sum"),
            mean_s=("s", "mean"),
            max_rss_mb=("max_rss_mb", "max"),
        )
        .reset_index()
    )
    total = pd.DataFrame(
        [
            {
                "stage": "all",
                "dataset": "",
                "method": "span of the jobs (first start to last end)",
                "jobs": len(jobs),
                "total_s": jobs["s"].sum(),
                "mean_s": jobs["end"].max() - jobs["start"].min(),
                "max_rss_mb": jobs["max_rss_mb"].max(),
            }
        ]
    )
    return pd.concat([table, total], ignore_index=True).round(3)


def publish(sources, targets, log_path):
    """Copy a run's tables and figures to the committed location, atomically per file."""
    import shutil

    with open(log_path, "w") as log:
        for src, dst in zip(sources, targets, strict=True):
            with atomic_path(dst) as tmp:
                shutil.copyfile(src, tmp)
            print(f"{src} -> {dst}", file=log)


def paper_checks(frame, report_k, *, method="greedy_rls", baseline="random"):
    """The greedy RLS paper's two findings, measured on a run, one row per dataset.

    * Section 4.2: ``method`` above ``baseline`` at small k — mean test accuracy difference
      (method − baseline) at each k in ``report_k``;
    * Section 4.3: LOO over-optimism — mean over k of (LOO accuracy on the training split −
      test accuracy) of ``method``, and its largest value over k.

    Returns
    -------
    pandas.DataFrame
        Columns: dataset, n_train, n_features, ``<method> − <baseline> at k=…``,
        ``LOO − test (mean over k)``, ``LOO − test (max over k)``; classification sets only.
    """
    ok = frame[(frame["status"] == "ok") & (frame["task"] != "regression")]
    rows = []
    for dataset, data in ok.groupby("dataset", sort=True):
        curve = data.groupby(["method", "k"])[["test_accuracy", "loo_accuracy"]].mean()
        row = {
            "dataset": dataset,
            "n_train": int(data["n_train"].median()),
            "n_features": int(data["n_features"].iloc[0]),
        }
        methods = set(curve.index.get_level_values(0))
        for k in report_k:
            key = f"{method} − {baseline} at k={k}"
            if (
                {method, baseline} <= methods
                and (method, k) in curve.index
                and (baseline, k) in curve.index
            ):
                diff = (
                    curve.loc[(method, k), "test_accuracy"]
                    - curve.loc[(baseline, k), "test_accuracy"]
                )
                row[key] = f"{diff:+.3f}"
            else:
                row[key] = ""
        if method in methods:
            gap = curve.loc[method, "loo_accuracy"] - curve.loc[method, "test_accuracy"]
            row["LOO − test (mean over k)"] = f"{gap.mean():+.3f}"
            row["LOO − test (max over k)"] = f"{gap.max():+.3f}"
        rows.append(row)
    return pd.DataFrame(rows).astype(object).fillna("")
