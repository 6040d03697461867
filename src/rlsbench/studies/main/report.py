"""The greedy RLS paper's findings and figures, regenerated from a run's merged step table.

* :func:`paper_checks` — the paper's two claims measured on the run (Sections 4.2 and 4.3);
* :func:`plot_test_curves` — test accuracy (MSE for regression) against the number of selected
  features, mean ± standard deviation over folds (and seeds), one line per method: the greedy
  RLS paper's Figs. 4-9.
* :func:`plot_loo_vs_test` — LOO estimate on the training split against test accuracy for one
  method (greedy RLS): the paper's Figs. 10-15.
"""

from __future__ import annotations

import pandas as pd
import seaborn as sns

from rlsbench.benchmark import figures

#: k axes with more steps than this are drawn on a log scale, so small k stays readable.
LOG_X_ABOVE = 40


def _metric(frame):
    if frame["task"].iloc[0] == "regression":
        return "mse", "MSE"
    return "accuracy", "accuracy"


def _finish(fig, ax, frame, path):
    if frame["k"].max() > LOG_X_ABOVE:
        ax.set_xscale("log")
    ax.set_xlabel("number of selected features k")
    ax.grid(True, alpha=0.3)
    figures.save_figure(fig, path)


def _skipped_note(frame):
    skipped = sorted(set(frame.loc[frame["status"] == "skipped", "method"]))
    return f"skipped: {', '.join(skipped)}" if skipped else ""


def plot_test_curves(frame, dataset, path):
    """Test performance against k for every method on ``dataset`` (mean ± sd over runs).

    Parameters
    ----------
    frame : pandas.DataFrame
        Merged step table (:func:`rlsbench.benchmark.results.read_tables`).
    dataset : str
    path : str or Path
        The PNG; its vector and one-column files beside it
        (:func:`rlsbench.benchmark.figures.save_figure`).
    """
    data = frame[frame["dataset"] == dataset]
    ok = data[data["status"] == "ok"]
    metric, label = _metric(data)
    fig, ax = figures.subplots()
    if not ok.empty:
        methods = sorted(set(ok["method"]))
        sns.lineplot(
            data=ok,
            x="k",
            y=f"test_{metric}",
            hue="method",
            style="method",  # exact methods select the same features: dashes keep all visible
            palette=figures.palette(methods),
            markers=figures.markers(methods),
            markevery=max(1, ok["k"].nunique() // 12),
            errorbar="sd",
            estimator="mean",
            ax=ax,
        )
    ax.set_ylabel(f"test {label} (mean ± sd over folds)")
    note = _skipped_note(data)
    ax.set_title(f"{dataset}" + (f"  ({note})" if note else ""), fontsize=10)
    _finish(fig, ax, ok if not ok.empty else data.assign(k=1), path)


def plot_loo_vs_test(frame, dataset, path, method="greedy_rls"):
    """LOO estimate (training split) and test performance against k for one method.

    Parameters
    ----------
    frame : pandas.DataFrame
    dataset : str
    path : str or Path
    method : str
    """
    data = frame[(frame["dataset"] == dataset) & (frame["method"] == method)]
    ok = data[data["status"] == "ok"]
    metric, label = _metric(data) if not data.empty else ("accuracy", "accuracy")
    fig, ax = figures.subplots()
    if not ok.empty:
        long = pd.concat(
            [
                ok[["k", "fold", "seed"]].assign(estimate="test", value=ok[f"test_{metric}"]),
                ok[["k", "fold", "seed"]].assign(
                    estimate="LOO (training split)", value=ok[f"loo_{metric}"]
                ),
            ],
            ignore_index=True,
        )
        sns.lineplot(data=long, x="k", y="value", hue="estimate", errorbar="sd", ax=ax)
        title = f"{dataset}: {method}, LOO vs test {label}"
    else:
        reason = "; ".join(sorted(set(data["reason"]))) if not data.empty else "not run"
        ax.text(
            0.5,
            0.5,
            f"{method} not run:\n{reason}",
            ha="center",
            va="center",
            transform=ax.transAxes,
            wrap=True,
        )
        title = f"{dataset}: {method}"
    ax.set_ylabel(f"{label} (mean ± sd over folds)")
    ax.set_title(title, fontsize=10)
    _finish(fig, ax, ok if not ok.empty else pd.DataFrame({"k": [1]}), path)


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
