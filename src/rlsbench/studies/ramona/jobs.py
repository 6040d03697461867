"""The jobs of the Ramona et al. rules (``workflow/rules.smk`` here): files in, files out.

* :func:`toy_job`, :func:`realdata_job`, :func:`cputime_job` — one measured job each, tidy
  CSV rows with provenance;
* :func:`toy_report_job`, :func:`realdata_report_job`, :func:`cputime_report_job` — Fig. 1,
  the real-data curves and Tables II, IV, VI, VIII, IX beside the paper's numbers.
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
from rlsbench.studies.ramona.config import protocol
from rlsbench.studies.ramona.experiments import cputime_rows, realdata_rows, toy_rows
from rlsbench.studies.ramona.report import (
    LABELS,
    cputime_table,
    method_style,
    paired_tests,
    paired_tests_against,
    plot_order,
    summarize,
    table2,
    table4,
    table5,
    table6,
    to_markdown,
)

log = logging.getLogger(__name__)


def _figures():
    # imported by the report jobs only: the measured jobs need no matplotlib
    from rlsbench.benchmark import figures

    return figures


# ---------------------------------------------------------------------------------------------
# Measured jobs
# ---------------------------------------------------------------------------------------------
def toy_job(table, *, problem, method, toy, seed, threads):
    """One (toy problem, method) of Fig. 1 (Section V-A) -> tidy CSV rows.

    Parameters
    ----------
    table : str
        Output CSV.
    problem : {"linear", "nonlinear"}
    method : str
    toy : dict
        ``ramona.toy`` without its method list (adding a method re-runs no other job), with
        this method's ranker options under ``method_options`` where the part sets any
        (:func:`rlsbench.studies.ramona.config.toy_job_settings`).
    seed, threads : int
    """
    with Stopwatch() as clock, threadpool_limits(limits=threads):
        rows = toy_rows(
            problem,
            method,
            n_train=toy["n_train"],
            n_test=toy.get("n_test", 500),
            n_repeats=toy.get("n_repeats", 40),
            n_select=toy.get("n_selected", 2),
            method_options=toy.get("method_options"),
            seed=seed,
        )
    df = with_provenance(pd.DataFrame(rows), provenance({"toy": toy}, seed))
    write_csv(df, table)
    log.info("%s/%s: %d rows in %.1f s", problem, method, len(df), clock.wall_s)


def realdata_job(table, *, data, experiment_name, kernel, experiment, seed, threads):
    """One (experiment, kernel) of the real-data protocol (Section V-B/C), every method ->
    tidy CSV rows.

    Parameters
    ----------
    table : str
        Output CSV.
    data : str
        The prepared dataset.
    experiment_name, kernel : str
    experiment : dict
        The experiment's settings, S resolved for ``kernel``
        (:func:`rlsbench.studies.ramona.config.experiment_job`).
    seed : int
    threads : int
        The job's threads: its repetitions run side by side on them, one BLAS thread each
        (the rows do not depend on it).
    """
    from rlsbench.benchmark.datasets import load_prepared

    exp = experiment
    dataset = load_prepared(data)
    if dataset.task not in ("binary", "multiclass"):
        raise ConfigError(
            f"config key ramona.realdata.experiments.{experiment_name}.dataset: {data} has "
            f"task {dataset.task!r}; Ramona et al.'s protocol needs class labels"
        )
    rows = []
    with Stopwatch() as total, threadpool_limits(limits=threads):
        for method in exp["methods"]:
            with Stopwatch() as clock:
                rows += realdata_rows(
                    dataset.X,
                    np.asarray(dataset.y),
                    experiment=experiment_name,
                    dataset=dataset.name,
                    method=method,
                    kernel=kernel,
                    n_selected=exp["n_selected"],
                    **protocol(exp),
                    method_options=(exp.get("method_options") or {}).get(method),
                    seed=seed,
                    n_jobs=threads,
                )
            log.info("%s: %.1f s", method, clock.wall_s)
    df = with_provenance(pd.DataFrame(rows), provenance(exp, seed))
    write_csv(df, table)
    log.info("%s %s: %d rows in %.1f s", experiment_name, kernel, len(df), total.wall_s)


def cputime_job(table, *, axis, cputime, seed):
    """CPU-time sweep of Table VIII (axis N) or IX (axis D), one BLAS thread -> CSV rows;
    ``cputime``: the section's ``cputime`` with the part's ``method_options`` where it sets
    any (:func:`rlsbench.studies.ramona.config.cputime_job_settings`)."""
    cfg = cputime
    with threadpool_limits(limits=1):  # the paper times a single core
        rows = cputime_rows(
            axis,
            cfg[axis],
            fixed=cfg.get("fixed", 30),
            methods=cfg.get("methods", ["arom", "rfe", "sas", "kfds"]),
            n_iter=cfg.get("n_iter", 10),
            n_repeats=cfg.get("n_repeats", 5),
            method_options=cfg.get("method_options"),
            seed=seed,
        )
    df = with_provenance(pd.DataFrame(rows), provenance(cfg, seed))
    write_csv(df, table)
    log.info("axis %s: %d timings", axis, len(df))


# ---------------------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------------------
def toy_report_job(tables, rows, summary, figure):
    """Fig. 1: mean test error against n on the two toy problems, with the rows and summary."""
    figures = _figures()
    data = read_csvs(tables)
    summ = summarize(data, ["problem", "kernel", "method", "n_train"])
    write_csv(data, rows)
    write_csv(summ, summary, float_format="%.4f")

    problems = [p for p in ("linear", "nonlinear") if p in set(summ["problem"])]
    fig, axes = figures.subplots(1, len(problems), aspect=0.5, squeeze=False)
    for ax, problem in zip(axes[0], problems):
        sub = summ[summ["problem"] == problem]
        # one colour and line style per method in both panels
        for method in plot_order(sub["method"].unique()):
            g = sub[sub["method"] == method].sort_values("n_train")
            ax.plot(
                g["n_train"],
                g["mean"],
                label=LABELS.get(method, method),
                **method_style(method),
            )
        ax.set_title(
            f"({'ab'[problems.index(problem)]}) {problem} problem "
            f"({'linear' if problem == 'linear' else 'RBF'} kernel), "
            f"{int(sub['n_repeats'].max())} reps"
        )
        ax.set_xlabel("Number of samples")
        ax.set_ylabel("Mean error rate (%)")
        ax.set_ylim(0, 55)
        ax.grid(alpha=0.3)
    # one legend below both panels (inside, it hid the curves of the nonlinear problem)
    figures.legend_below(fig)
    figures.save_figure(fig, figure)
    log.info("toy: %d rows, %d summary lines", len(data), len(summ))


def _paper_names(experiments, table):
    return {
        (e.get("paper") or {}).get("name", e["dataset"]): name
        for name, e in experiments.items()
        if (e.get("paper") or {}).get("table") == table
    }


def _header(title, names, quantity="Errors"):
    runs = ", ".join(f"`{v}`" for v in names.values()) or "none in this run"
    return (
        f"{title}\n\nOur experiments: {runs}. Cells '—' were not run in this "
        f"configuration. {quantity} in %, mean ± standard deviation over repetitions.\n\n"
    )


def realdata_report_job(
    tables,
    rows,
    summary,
    tests,
    tests_sas,
    figure,
    table2_md,
    table4_md,
    table5_md,
    table6_md,
    *,
    experiments,
):
    """Real-data results: curves (Fig. 2, 3, 6), paired t-tests, Tables II, IV, V, VI beside
    the paper's numbers.

    Parameters
    ----------
    tables : list of str
        The (experiment, kernel) rows of :func:`realdata_job`.
    rows, summary, tests, tests_sas, figure, table2_md, table4_md, table5_md, table6_md : str
        Output paths.
    experiments : dict
        Every experiment's settings (``ramona.realdata.experiments`` with defaults).
    """
    figures = _figures()
    data = read_csvs(tables)
    summ = summarize(data, ["experiment", "dataset", "kernel", "method", "n_selected"])
    write_csv(data, rows)
    write_csv(summ, summary, float_format="%.4f")
    # paired t-tests between methods over their shared repetitions (the paper's 5 % tests)
    paired = paired_tests(data)
    write_csv(paired, tests, float_format="%.6g")
    write_markdown(
        tests_sas,
        "### SAS against the other methods — paired t-tests over the shared repetitions\n\n"
        "Cells: mean error of SAS minus that of the other method (% points), two-sided paired "
        "t-test p-value; * = significant at 5 %. '—': not run at this S or fewer than 2 shared "
        "repetitions. All pairs: `paired_tests.csv`.\n\n"
        + to_markdown(paired_tests_against(paired, "sas")),
    )

    t2 = _paper_names(experiments, "table2")
    body = "".join(to_markdown(table2(summ, exp)) for exp in t2.values()) or to_markdown(
        table2(summ, None)
    )
    write_markdown(
        table2_md,
        _header("### Table II — 10-class USPS, Gaussian RBF kernel (error %)", t2) + body,
    )
    t4 = _paper_names(experiments, "table4")
    write_markdown(
        table4_md,
        _header("### Table IV — at Neumann et al.'s feature counts (error %)", t4)
        + to_markdown(table4(summ, t4)),
    )
    t5 = _paper_names(experiments, "table5")
    body = "".join(to_markdown(table5(summ, exp)) for exp in t5.values()) or to_markdown(
        table5(summ, None)
    )
    write_markdown(
        table5_md,
        _header(
            "### Table V — binarised USPS (digits 0-4 against 5-9), Wang's protocol, Gaussian "
            "RBF kernel (error %)",
            t5,
        )
        + "Features selected on 7 samples per class, SVM trained on 1000 samples, error on "
        "the 2007 test samples. Wang's R2W2 and KCS: the numbers the paper quotes (not run "
        "here).\n\n" + body,
    )
    t6 = _paper_names(experiments, "table6")
    write_markdown(
        table6_md,
        _header(
            "### Table VI — 70 % / 30 % splits, Gaussian RBF kernel (accuracy %)", t6, "Accuracies"
        )
        + to_markdown(table6(summ, t6)),
    )

    curves = [
        (e, k)
        for (e, k), g in summ.groupby(["experiment", "kernel"])
        if g["n_selected"].nunique() > 1
    ]
    ncol = min(3, max(1, len(curves)))
    nrow = max(1, int(np.ceil(len(curves) / ncol)))
    # a two-line title a panel, and one legend below them all (inside, it hid the curves)
    fig, axes = figures.subplots(nrow, ncol, aspect=0.8 * nrow / ncol + 0.08, squeeze=False)
    for ax, (exp, kernel) in zip(axes.flat, curves):
        sub = summ[(summ["experiment"] == exp) & (summ["kernel"] == kernel)]
        # one colour and line style per method in every panel
        for method in plot_order(sub["method"].unique()):
            g = sub[sub["method"] == method].sort_values("n_selected")
            if method == "svm":
                ax.axhline(g["mean"].iloc[0], label=LABELS["svm"], **method_style(method))
                continue
            ax.plot(
                g["n_selected"],
                g["mean"],
                label=LABELS.get(method, method),
                **method_style(method),
            )
        ax.set_title(
            f"{sub['dataset'].iloc[0]}, {kernel} kernel\n{exp}, {int(sub['n_repeats'].max())} reps",
            fontsize="small",
        )
        ax.set_xlabel("Number of features")
        ax.set_ylabel("Mean error rate (%)")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(curves) :]:
        ax.axis("off")
    if curves:
        figures.legend_below(fig)
    else:
        axes.flat[0].text(0.5, 0.5, "no experiment with several S values", ha="center")
    figures.save_figure(fig, figure)
    log.info(
        "realdata: %d rows, %d summary lines, %d paired tests, %d curves",
        len(data),
        len(summ),
        len(paired),
        len(curves),
    )


def cputime_report_job(tables, rows, table8, table9):
    """Tables VIII-IX: CPU times normalised to the fastest cell, beside the paper's."""
    data = read_csvs(tables)
    write_csv(data, rows)
    note = (
        "Times of one ranking with 10 iterations (median over repeats, one BLAS thread), divided "
        "by the fastest cell of the table; the paper's columns are its normalised times "
        "(MATLAB + SVMlight, 2012). Our R2W2 is our re-implementation (the Spider toolbox is "
        "not available): where its growth differs from the paper's, "
        "`investigations/r2w2_cost.md` shows what its time is spent on. Compare the growth "
        "along a column, not absolute values.\n\n"
    )
    for axis, out, title in (
        ("N", table8, "Table VIII — CPU time over N (D = 30)"),
        ("D", table9, "Table IX — CPU time over D (N = 30)"),
    ):
        if axis in set(data["axis"]):
            body = to_markdown(cputime_table(data, axis))
        else:
            body = "not run in this configuration\n"
        write_markdown(out, f"### {title}\n\n{note}{body}")
    log.info("cputime: %d rows", len(data))
