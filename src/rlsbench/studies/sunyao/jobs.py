"""The jobs of the Sun & Yao rules (``workflow/rules.smk`` here): files in, files out.

* :func:`hyper_method_job`, :func:`hyper_job` — one method's hyperparameters by 5-fold CV on
  a subset, then the dataset's three merged;
* :func:`table1_runs_job`, :func:`table1_job` — one method over the random splits, then
  Table 1 beside the paper's values;
* :func:`fig1_runs_job`, :func:`fig1_job` — one method over growing training sets, then
  Fig. 1 (training time and test NMSE against the training size).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import (
    markdown_table,
    read_csvs,
    with_provenance,
    write_csv,
    write_markdown,
)
from rlsbench.studies.sunyao.experiments import (
    LABELS,
    METHODS,
    choose_hyperparameters,
    fig1_rows,
    hyper_markdown,
    load_data,
    summarize_table1,
    table1_findings,
    table1_markdown,
    table1_rows,
)

log = logging.getLogger(__name__)


def hyper_method_job(hyper, *, dataset, method, entry, cv, rvm, sigma2, seed, threads, data=None):
    """One method's hyperparameters on one dataset by Sun & Yao's 5-fold CV on a subset (JSON:
    ``{method: chosen, "cv_rows": [...], "provenance": {...}}``).

    Parameters
    ----------
    hyper : str
        Output JSON.
    dataset, method : str
    entry : dict
        The dataset's config entry (``source``, ``target``, its own ``sigma2``, ...).
    cv : dict
        ``sunyao.cv`` (with the study's k_max grid).
    rvm : dict or None
        ``sunyao.rvm`` (None for Forward, which does not read it).
    sigma2 : float
        The section's fixed σ² (an entry may override it).
    seed, threads : int
    data : str, optional
        The prepared dataset (``source: prepared``).
    """
    sigma2 = entry.get("sigma2", sigma2)  # a dataset may override the fixed σ²
    with threadpool_limits(int(threads)):
        X, y = load_data(dataset, entry, data)
        chosen = choose_hyperparameters(
            X,
            y,
            cv,
            rvm or {},
            sigma2=sigma2,
            seed=seed,
            target=entry.get("target", "raw"),
            methods=(method,),
        )
    log.info("%s %s: %s", dataset, method, chosen[method])
    if chosen[method]["at_grid_edge"]:
        log.warning(
            "%s %s: CV choice on the edge of its grid (%s); widen sunyao.cv",
            dataset,
            method,
            ", ".join(chosen[method]["at_grid_edge"]),
        )
    chosen["provenance"] = provenance(
        {"cv": cv, "rvm": rvm, "entry": entry, "sigma2": sigma2, "method": method}, seed
    )
    atomic_write_text(hyper, json.dumps(chosen, indent=1, sort_keys=True) + "\n")


def merge_hyper(parts):
    """The per-method JSONs of :func:`hyper_method_job` as one dataset's hyperparameters:
    ``{method: chosen, ..., "cv_rows": [...]}`` in :data:`METHODS` order, the form
    :func:`choose_hyperparameters` gives for all methods at once."""
    by_method = {}
    for path in parts:
        part = json.loads(Path(path).read_text())
        methods = [m for m in METHODS if m in part]
        if len(methods) != 1:
            raise ValueError(f"{path}: expected one method's hyperparameters, found {methods}")
        by_method[methods[0]] = part
    missing = [m for m in METHODS if m not in by_method]
    if missing:
        raise ValueError(f"hyperparameters missing for {', '.join(missing)}: {list(parts)}")
    merged = {m: by_method[m][m] for m in METHODS}
    merged["cv_rows"] = [row for m in METHODS for row in by_method[m]["cv_rows"]]
    return merged


def hyper_job(hyper, *, parts, entry, cv, rvm, sigma2, seed):
    """One dataset's hyperparameters (JSON): the methods' own CV results
    (:func:`hyper_method_job`) merged by :func:`merge_hyper`."""
    chosen = merge_hyper(parts)
    sigma2 = entry.get("sigma2", sigma2)
    chosen["provenance"] = provenance(
        {"cv": cv, "rvm": rvm, "entry": entry, "sigma2": sigma2}, seed
    )
    atomic_write_text(hyper, json.dumps(chosen, indent=1, sort_keys=True) + "\n")


def table1_runs_job(
    table, hyper, *, dataset, method, entry, n_splits, rvm, sigma2, seed, threads, data=None
):
    """Test MSE of one method on one dataset over the random splits (CSV rows)."""
    sigma2 = entry.get("sigma2", sigma2)
    chosen = json.loads(Path(hyper).read_text())
    with threadpool_limits(int(threads)):
        X, y = load_data(dataset, entry, data)
        rows = table1_rows(
            X,
            y,
            method,
            chosen,
            n_train=entry["n_train"],
            n_test=entry["n_test"],
            n_splits=n_splits,
            seed=seed,
            sigma2=sigma2,
            rvm=rvm,
            target=entry.get("target", "raw"),
        )
    frame = pd.DataFrame(rows)
    frame.insert(0, "dataset", dataset)
    frame["n_features"] = X.shape[1]
    frame["n_train"], frame["n_test"] = entry["n_train"], entry["n_test"]
    info = {"entry": entry, "rvm": rvm, "sigma2": sigma2, "hyper": chosen[method]}
    frame = with_provenance(frame, provenance(info, seed))
    for row in rows:
        log.info(
            "%s %s split %d: %s mse=%.5g basis=%s",
            dataset,
            method,
            row["split"],
            row["status"],
            row["mse"],
            row["n_basis"],
        )
    write_csv(frame, table)


def table1_job(runs, hyper, md, csv, splits):
    """Table 1: test MSE ± std (basis vectors) per dataset and method, beside the paper's
    values, with the CV choices."""
    frame = read_csvs(runs)
    summary = summarize_table1(frame)
    shapes = {
        d: (int(g["n_features"].iloc[0]), int(g["n_train"].iloc[0]), int(g["n_test"].iloc[0]))
        for d, g in frame.groupby("dataset", sort=False)
    }
    note = (
        "\n`ours`: this run (inputs as the dataset's `features` setting selects them, "
        "standardized on each training set; targets centred, and scaled where the dataset's "
        "`target` setting says so). `p`: paired t-test of the RVM's test MSE against Forward's "
        "over the splits. Failed or non-converged fits and outliers (MSE > 2× the method's "
        "median) are counted in table1.csv, not removed. Whether each number matches the "
        "paper's, and why not, is in the fidelity ledger (results/paper/fidelity.csv).\n"
    )
    hypers = {Path(path).stem: json.loads(Path(path).read_text()) for path in hyper}
    choices = (
        "\n**CV choices** (5-fold CV on the subset; r/d is the grid's width factor):\n\n"
        + hyper_markdown(hypers, {d: shape[0] for d, shape in shapes.items()})
    )
    write_markdown(
        md, table1_findings(summary) + "\n" + table1_markdown(summary, shapes) + note + choices
    )
    write_csv(summary, csv)
    write_csv(frame, splits)
    log.info("\n%s", summary.to_string())


def fig1_runs_job(table, hyper, *, method, entry, rvm, sigma2, seed, threads, data=None):
    """Training time and test NMSE of one method for growing training sets (CSV rows); which
    sizes run is decided by the deterministic flop and memory budgets of ``entry``."""
    sigma2 = entry.get("sigma2", sigma2)
    dataset = entry["dataset"]
    chosen = json.loads(Path(hyper).read_text())
    with threadpool_limits(int(threads)):
        X, y = load_data(dataset, entry, data)
        rows = fig1_rows(
            X,
            y,
            method,
            chosen,
            train_sizes=entry["train_sizes"],
            n_test=entry["n_test"],
            seed=seed,
            sigma2=sigma2,
            rvm=rvm,
            k_max_fraction=entry["k_max_fraction"],
            k_max_cap=entry["k_max_cap"],
            flop_budget=entry["flop_budget"],
            memory_budget_mb=entry["memory_budget_mb"],
            target=entry.get("target", "raw"),
        )
    frame = pd.DataFrame(rows)
    frame.insert(0, "dataset", dataset)
    frame["threads"] = int(threads)
    info = {"entry": entry, "rvm": rvm, "sigma2": sigma2, "hyper": chosen[method]}
    frame = with_provenance(frame, provenance(info, seed))
    for row in rows:
        log.info(
            "%s n=%d: %s fit %.3g s nmse %.4g %s",
            method,
            row["n_train"],
            row["status"],
            row["fit_s"],
            row["nmse"],
            row.get("reason", ""),
        )
    write_csv(frame, table)


FIG1_COLUMNS = {
    "n_train": ("n", "d"),
    "method": ("method", None),
    "status": ("status", None),
    "flops": ("estimated flops", ".3g"),
    "fit_s": ("CPU time (s)", ".3g"),
    "nmse": ("NMSE", ".4f"),
    "n_basis": ("basis vectors", ".0f"),
    "k_max": ("k_max", ".0f"),
}


def fig1_job(runs, png, md, csv, *, entry):
    """Fig. 1: training time and test NMSE against the training size, one line per method,
    with its table (Markdown, CSV)."""
    from rlsbench.benchmark import figures

    frame = read_csvs(runs)
    fig, (ax_time, ax_nmse) = figures.subplots(1, 2, aspect=0.4)
    for method, g in frame.groupby("method", sort=False):
        ok = g[g["status"] == "ok"]
        label = LABELS[method]
        ax_time.plot(ok["n_train"], ok["fit_s"], label=label, **figures.method_style(method))
        ax_nmse.plot(ok["n_train"], ok["nmse"], label=label, **figures.method_style(method))
        stop = g[g["status"].isin(["over_flops", "over_memory"])]
        if len(stop):
            row = stop.iloc[0]
            ax_time.axvline(row["n_train"], color=ax_time.lines[-1].get_color(), ls=":", lw=1)
            log.info("%s stops at n = %d (%s)", method, row["n_train"], row["reason"])
    ax_time.set(
        xlabel="training size n",
        ylabel="training time (CPU s, 1 thread)",
        yscale="log",
        title=f"{entry['dataset']}: training time",
    )
    ax_nmse.set(
        xlabel="training size n",
        ylabel="test NMSE",
        title=f"test NMSE on {entry['n_test']} examples",
    )
    # the budgets in the legend's title: a note inside the panel overlapped the curves
    ax_time.legend(
        loc="lower right",
        title=f"dotted: first n over a budget\n({entry['flop_budget']:.3g} estimated flops, "
        f"{entry['memory_budget_mb']} MB)",
        title_fontsize="x-small",
    )
    figures.save_figure(fig, png)

    table = frame[[*FIG1_COLUMNS, "memory_mb_estimate"]].sort_values(
        ["n_train", "method"], kind="stable"
    )
    shown = pd.DataFrame(
        {
            head: [
                "–" if pd.isna(v) else (format(v, spec) if spec else str(v))
                for v in (table["method"].map(LABELS) if col == "method" else table[col])
            ]
            for col, (head, spec) in FIG1_COLUMNS.items()
        }
    )
    write_markdown(md, markdown_table(shown))
    write_csv(frame, csv)
