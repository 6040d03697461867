"""The greedy RLS paper's findings and figures, regenerated from a run's merged step table.

* :func:`paper_checks` — the paper's two claims measured on the run (Sections 4.2 and 4.3);
* :func:`plot_test_curves` — test accuracy (MSE for regression) against the number of selected
  features, mean ± standard deviation over folds (and seeds), one line per method: the greedy
  RLS paper's Figs. 4-9.
* :func:`plot_loo_vs_test` — LOO estimate on the training split against test accuracy for one
  method (greedy RLS): the paper's Figs. 10-15.
* :func:`plot_curves_all` — the test curves of every dataset in one figure (a panel each);
* :func:`plot_runtime` — selection time per method and dataset;
* :func:`plot_pareto` — test accuracy at the LOO-chosen k against selection time (per dataset).
"""

from __future__ import annotations

import math

import pandas as pd
import seaborn as sns
from matplotlib import ticker

from rlsbench.benchmark import figures
from rlsbench.benchmark.results import chosen_k

#: k axes with more steps than this are drawn on a log scale, so small k stays readable.
LOG_X_ABOVE = 40


def _metric(frame):
    if frame["task"].iloc[0] == "regression":
        return "mse", "MSE"
    return "accuracy", "accuracy"


def _finish(fig, ax, frame, path):
    _integer_k_axis(ax, frame["k"].max())
    ax.set_xlabel("number of selected features k")
    ax.grid(True, alpha=0.3)
    figures.save_figure(fig, path)


def _skipped_note(frame):
    skipped = sorted(set(frame.loc[frame["status"] == "skipped", "method"]))
    return f"skipped: {', '.join(skipped)}" if skipped else ""


def _curves(ok, metric):
    """Mean and sd over runs of the test metric per (method, k), sorted by k."""
    return (
        ok.groupby(["method", "k"], sort=True)[f"test_{metric}"]
        .agg(["mean", "std"])
        .fillna({"std": 0.0})
        .reset_index()
    )


def _draw_curves(ax, ok, metric):
    """One line per method: markers every ``step`` points from a per-method offset, so
    identical curves (exact methods select the same features) show each method's markers;
    the sd as error bars at the marked points only, so the bands of close curves do not
    merge into one."""
    curves = _curves(ok, metric)
    methods = sorted(set(curves["method"]))
    n_k = curves["k"].nunique()
    # a marker every `step` points, each method from its own offset: as many offsets as
    # methods where the k axis is long enough (identical curves then show every method's
    # markers at different k), and about ten markers a line on long axes
    step = max(2, min(len(methods), n_k // 2), n_k // 10)
    for i, method in enumerate(methods):
        curve = curves[curves["method"] == method]
        style = figures.method_style(method)
        marked = slice(i % step, None, step)
        ax.plot(curve["k"], curve["mean"], label=method, markevery=marked, **style)
        ax.errorbar(
            curve["k"].to_numpy()[marked],
            curve["mean"].to_numpy()[marked],
            yerr=curve["std"].to_numpy()[marked],
            fmt="none",
            ecolor=style["color"],
            elinewidth=0.7,
            alpha=0.7,
        )


def _integer_k_axis(ax, k_max):
    """Log k above :data:`LOG_X_ABOVE` steps (its major ticks are powers of ten), else
    integer ticks only."""
    if k_max > LOG_X_ABOVE:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    else:
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))


def plot_test_curves(frame, dataset, path):
    """Test performance against k for every method on ``dataset`` (mean ± sd over runs).

    Each method has its colour, marker and line style
    (:func:`rlsbench.benchmark.figures.method_style`); markers sit on alternate points from
    a per-method offset and carry the sd as error bars, so identical curves stay visible and
    the spreads of close curves stay apart; the k axis has integer ticks.

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
        _draw_curves(ax, ok, metric)
        ax.legend()
    ax.set_ylabel(f"test {label} (mean ± sd over folds)")
    note = _skipped_note(data)
    ax.set_title(f"{dataset}" + (f"  ({note})" if note else ""), fontsize=10)
    _integer_k_axis(ax, ok["k"].max() if not ok.empty else 1)
    ax.set_xlabel("number of selected features k")
    ax.grid(True, alpha=0.3)
    figures.save_figure(fig, path)


def _panels(n):
    """A grid of ``n`` panels at two-column width, at most three a row; the unused ones
    hidden."""
    ncols = min(3, n)
    nrows = math.ceil(n / ncols)
    fig, axes = figures.subplots(nrows, ncols, aspect=0.27 * nrows + 0.12, squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def plot_curves_all(frame, path):
    """:func:`plot_test_curves` of every dataset of the run in one figure: a panel per
    dataset (three a row, two-column width), one legend below the panels.

    Parameters
    ----------
    frame : pandas.DataFrame
        Merged step table.
    path : str or Path
        The PNG.
    """
    datasets = sorted(set(frame["dataset"]))
    fig, axes = _panels(len(datasets))
    for ax, dataset in zip(axes, datasets, strict=True):
        data = frame[frame["dataset"] == dataset]
        ok = data[data["status"] == "ok"]
        metric, label = _metric(data)
        if not ok.empty:
            _draw_curves(ax, ok, metric)
        _integer_k_axis(ax, ok["k"].max() if not ok.empty else 1)
        ax.set_title(dataset)
        ax.set_xlabel("k")
        ax.set_ylabel(f"test {label}")
    figures.legend_below(fig)
    figures.save_figure(fig, path)


def selection_times(frame):
    """Selection time of every run (fold, seed) that ran, and its test performance at the
    k chosen by LOO on the training split, one row per (dataset, method, fold, seed).

    Parameters
    ----------
    frame : pandas.DataFrame
        Merged step table.

    Returns
    -------
    pandas.DataFrame
        Columns: dataset, method, fold, seed, fit_time_s (the run's selection time, s),
        k_loo, test (accuracy, or MSE for regression, at k_loo).
    """
    ok = frame[frame["status"] == "ok"]
    rows = []
    for (dataset, method, fold, seed), run in ok.groupby(
        ["dataset", "method", "fold", "seed"], sort=True
    ):
        metric, _ = _metric(run)
        k = chosen_k(run)
        rows.append(
            {
                "dataset": dataset,
                "method": method,
                "fold": fold,
                "seed": seed,
                "fit_time_s": float(run["fit_time_s"].iloc[0]),
                "k_loo": k,
                "test": float(run.loc[run["k"] == k, f"test_{metric}"].iloc[0]),
            }
        )
    return pd.DataFrame(
        rows, columns=["dataset", "method", "fold", "seed", "fit_time_s", "k_loo", "test"]
    )


def _median_iqr(grouped):
    """Median, first and third quartile of a grouped series. Run times are skewed (the first
    run of a process pays for imports and warm-up): a mean ± sd would reach below zero on
    the log axis."""
    return grouped.median(), grouped.quantile(0.25), grouped.quantile(0.75)


def _missing_points(frame) -> str:
    """What the runtime figure's title says of the (dataset, method) pairs without a point:
    those the budgets skipped, and apart from them those never run because the method does
    not support the dataset's task (a regression set for a classifier: not a skip); "" when
    every pair ran."""
    cells = frame.loc[frame["status"] == "skipped", ["dataset", "method", "reason"]]
    unsupported = cells["reason"].astype(str).str.startswith("task:")
    counts = [
        (len(cells.loc[~unsupported, ["dataset", "method"]].drop_duplicates()), "skipped"),
        (
            len(cells.loc[unsupported, ["dataset", "method"]].drop_duplicates()),
            "not run (task not supported)",
        ),
    ]
    said = [f"{n} (dataset, method) pair(s) {what}" for n, what in counts if n]
    return "; ".join(said) + ": no point (tables/summary.md says why)" if said else ""


def plot_runtime(frame, path):
    """Selection time per method and dataset (median over runs, quartiles as error bars, log
    scale): a row per dataset (names on the y axis, legible at any count and width), a point
    per method beside the others in the row, in the method's colour and marker; a method
    skipped on a dataset, or not run there because it does not support the dataset's task,
    has no point there (the title counts each; ``tables/summary.md`` says why).

    Parameters
    ----------
    frame : pandas.DataFrame
        Merged step table.
    path : str or Path
        The PNG.
    """
    times = selection_times(frame)
    datasets = sorted(set(frame["dataset"]))
    methods = sorted(set(times["method"]))
    # a row of 0.17 in per dataset, the legend and axis label besides
    fig, ax = figures.subplots(aspect=max(0.45, (1.2 + 0.17 * len(datasets)) / 7.16))
    width = 0.8 / max(len(methods), 1)
    for j, method in enumerate(methods):
        per = times[times["method"] == method].groupby("dataset")["fit_time_s"]
        median, low, high = _median_iqr(per)
        y = [datasets.index(d) - 0.4 + width * (j + 0.5) for d in median.index]
        style = figures.method_style(method)
        ax.errorbar(
            median.to_numpy(),
            y,
            xerr=[(median - low).to_numpy(), (high - median).to_numpy()],
            fmt=style["marker"] or "o",
            color=style["color"],
            linestyle="none",
            label=method,
        )
    ax.set_xscale("log")
    ax.set_yticks(range(len(datasets)), datasets)
    ax.set_ylim(len(datasets) - 0.5, -0.5)  # the first dataset at the top, as in the tables
    ax.set_xlabel("selection time per run (s; median, quartiles)")
    title = _missing_points(frame)
    if title:
        ax.set_title(title, fontsize="small")
    figures.legend_below(fig)
    figures.save_figure(fig, path)


def plot_pareto(frame, path):
    """Test performance at the k chosen by LOO against selection time, a panel per dataset
    (log time axis): a point per method at its median time (quartiles as error bars) and mean
    test performance (sd as error bars), so the methods that are both fast and accurate sit
    top left (bottom left for MSE).

    Parameters
    ----------
    frame : pandas.DataFrame
        Merged step table.
    path : str or Path
        The PNG.
    """
    times = selection_times(frame)
    datasets = sorted(set(frame["dataset"]))
    fig, axes = _panels(len(datasets))
    for ax, dataset in zip(axes, datasets, strict=True):
        _, label = _metric(frame[frame["dataset"] == dataset])
        data = times[times["dataset"] == dataset]
        for method, runs in data.groupby("method", sort=True):
            style = figures.method_style(method)
            time = runs["fit_time_s"]
            median = time.median()
            ax.errorbar(
                median,
                runs["test"].mean(),
                xerr=[[median - time.quantile(0.25)], [time.quantile(0.75) - median]],
                yerr=runs["test"].std() if len(runs) > 1 else None,
                fmt=style["marker"] or "o",
                color=style["color"],
                markersize=5,
                elinewidth=0.8,
                label=method,
            )
        ax.set_xscale("log")
        ax.set_title(dataset)
        ax.set_xlabel("selection time (s, median)")
        ax.set_ylabel(f"test {label} at LOO k")
    figures.legend_below(fig)
    figures.save_figure(fig, path)


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


#: The figures across datasets of a run, by name (rule ``main_overview_<name>``).
OVERVIEW_FIGURES = {
    "curves_all": plot_curves_all,
    "runtime": plot_runtime,
    "pareto": plot_pareto,
}


def overview_figure_job(steps, png, figure):
    """Draw one figure across the datasets of a run (``workflow/rules.smk`` here, rules
    ``main_overview_<figure>``).

    Parameters
    ----------
    steps : str
        The merged step table.
    png : str
        The PNG to write; :func:`rlsbench.benchmark.figures.save_figure` writes the PDF and
        SVG variants beside it.
    figure : str
        A key of :data:`OVERVIEW_FIGURES`.
    """
    from rlsbench.benchmark.results import read_step_table

    OVERVIEW_FIGURES[figure](read_step_table(steps), png)
