"""The table a paper prints of the main experiment: one booktabs float, datasets × methods
(or the transpose), the mean ± sd over folds of one score at one operating point, the best
value of every dataset in bold and the values the Holm-corrected test cannot tell from it
marked with a dagger.

The per-dataset test pairs the folds: per fold, a method's score is its mean over seeds (a
randomized method runs several seeds per fold, a deterministic one one), and every method is
compared with the dataset's best by the Wilcoxon signed-rank test over the folds (SciPy), the
p-values of one dataset corrected together by Holm's step-down method (statsmodels'
``multipletests``). The test across datasets is :mod:`rlsbench.benchmark.statistics`'; this
one answers, per row of the table, "could the best be a fold-to-fold accident?".

A run of classification and regression datasets gets one float per task: test accuracy has
no meaning for a regression set, whose rows show the held-out R² instead (as the statistics
across datasets score it, :mod:`rlsbench.studies.main.statistics`), k chosen there by the
smallest LOO MSE. Methods are shown by their labels (``tags["label"]``,
:mod:`rlsbench.benchmark.labels`).

The float fits the chosen layout (``table`` in one column, ``table*`` across both) at the
largest font size at which it fits (:func:`rlsbench.benchmark.views.fit.fitting_size`); a
table that fits at none stops with an error that says what to change.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.views.fit import COLUMN_PT, TABCOLSEP_PT, TEXT_PT, fitting_size
from rlsbench.benchmark.views.latex_text import latex_escape
from rlsbench.benchmark.views.markdown import Cell, Table
from rlsbench.errors import RLSBenchError

log = logging.getLogger(__name__)

#: Float environment and width of each layout.
LAYOUTS = {"one-column": ("table", COLUMN_PT), "two-column": ("table*", TEXT_PT)}
#: The scores a paper table shows, with the direction that is better and the LOO estimate
#: that chooses k on the training split.
VALUES = {
    "test_accuracy": ("max", "loo_accuracy", "test accuracy"),
    "test_mse": ("min", "loo_mse", "test MSE"),
    "test_r2": ("max", "loo_mse", "test R²"),
}
#: Which LOO estimate is better high and which low (k at ``loo`` is its best).
LOO_BETTER = {"loo_accuracy": "max", "loo_mse": "min"}
#: The floats of a run, one per task it has: task -> (the step table's tasks, the score shown
#: for each ``latex.value``).
TASKS = {
    "classification": (
        ("binary", "multiclass"),
        {"test_accuracy": "test_accuracy", "test_mse": "test_mse"},
    ),
    "regression": (("regression",), {"test_accuracy": "test_r2", "test_mse": "test_mse"}),
}
#: Marks a value the corrected test cannot tell from the best.
DAGGER = r"$^\dagger$"
MISSING = "--"


class PaperTableError(ValueError, RLSBenchError):
    """A paper table that cannot be made as asked (the message names the setting to change)."""


def run_scores(steps: pd.DataFrame, *, value: str = "test_accuracy", k="loo") -> pd.DataFrame:
    """One score per run (dataset, method, fold, seed) at one operating point.

    Parameters
    ----------
    steps : pandas.DataFrame
        A step table (:func:`rlsbench.benchmark.results.read_step_table`).
    value : {"test_accuracy", "test_mse", "test_r2"}
        The score.
    k : int or "loo"
        A fixed number of features (a run that stops before it has no score), or ``"loo"``:
        the k each run chooses by its training-split LOO estimate (ties to the smaller k, as
        the summary table chooses).

    Returns
    -------
    pandas.DataFrame
        Columns dataset, method, fold, seed, score; runs of every status but ``ok`` are left
        out.
    """
    if value not in VALUES:
        raise PaperTableError(f"value {value!r}: choose one of {', '.join(VALUES)}")
    _, loo, _ = VALUES[value]
    if value not in steps:
        raise PaperTableError(
            f"value {value!r}: the step table has no column {value} (written by an older "
            "rlsbench: rerun the main part's selection jobs)"
        )
    runs = ["dataset", "method", "fold", "seed"]
    ok = steps[(steps["status"] == "ok") & steps[value].notna()]
    if k == "loo":
        ok = ok[ok[loo].notna()].sort_values([*runs, "k"], kind="mergesort")
        # idxmax / idxmin return the first extreme: the smallest k among equal estimates
        grouped = ok.groupby(runs, sort=True)[loo]
        chosen = ok.loc[grouped.idxmax() if LOO_BETTER[loo] == "max" else grouped.idxmin()]
    else:
        chosen = ok[ok["k"] == int(k)]
    return chosen[[*runs, value]].rename(columns={value: "score"}).reset_index(drop=True)


def _fold_means(scores: pd.DataFrame) -> pd.DataFrame:
    # folds × methods of one dataset: the mean over seeds pairs a randomized method's folds
    # with a deterministic one's
    return scores.groupby(["fold", "method"])["score"].mean().unstack("method")


def best_methods(scores: pd.DataFrame, *, best: str = "max") -> pd.Series:
    """The method with the best mean score on every dataset (the first in name order on a
    tie), indexed by dataset."""
    means = scores.groupby(["dataset", "method"])["score"].mean().unstack("method")
    return means.idxmax(axis=1) if best == "max" else means.idxmin(axis=1)


def holm_vs_best(scores: pd.DataFrame, *, best: str = "max") -> pd.DataFrame:
    """Per dataset, every method against the best one: Wilcoxon signed-rank over the folds,
    Holm-corrected across the dataset's methods.

    Parameters
    ----------
    scores : pandas.DataFrame
        One score per run (:func:`run_scores`): dataset, method, fold, seed, score.
    best : {"max", "min"}
        Whether a higher or a lower score is better.

    Returns
    -------
    pandas.DataFrame
        Columns dataset, method, best (the dataset's best method), folds (paired folds), p
        (two-sided Wilcoxon), p_holm; one row per (dataset, method) other than the best. A
        method with no fold in common with the best has p NaN; one whose every paired
        difference is zero has p 1 (nothing tells it from the best).
    """
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    if best not in ("max", "min"):
        raise PaperTableError(f"best {best!r}: choose max or min")
    rows = []
    leaders = best_methods(scores, best=best)
    for dataset, group in scores.groupby("dataset", sort=True):
        folds = _fold_means(group)
        leader = leaders[dataset]
        found = []
        for method in folds.columns:
            if method == leader:
                continue
            pair = folds[[leader, method]].dropna()
            diff = (pair[leader] - pair[method]).to_numpy()
            if diff.size == 0:
                p = np.nan
            elif np.all(diff == 0):
                p = 1.0
            else:
                p = float(stats.wilcoxon(diff, zero_method="wilcox").pvalue)
            found.append({"dataset": dataset, "method": method, "best": leader})
            found[-1].update(folds=len(diff), p=p)
        tested = [r for r in found if np.isfinite(r["p"])]
        if tested:
            corrected = multipletests([r["p"] for r in tested], method="holm")[1]
            for r, p_holm in zip(tested, corrected):
                r["p_holm"] = float(p_holm)
        rows += found
    columns = ["dataset", "method", "best", "folds", "p", "p_holm"]
    return pd.DataFrame(rows, columns=columns)


def _format(mean: float, sd: float, digits: int) -> tuple[str, str]:
    return f"{mean:.{digits}f}", f"{sd:.{digits}f}"


def paper_table(
    scores: pd.DataFrame,
    *,
    value: str = "test accuracy",
    columns: Sequence[str] | None = None,
    layout: str = "two-column",
    best: str = "max",
    indistinguishable: pd.DataFrame | None = None,
    alpha: float = 0.05,
    transpose: bool = False,
    digits: int = 3,
    caption: str = "",
    label: str = "tab:paper",
    labels: Mapping[str, str] | None = None,
) -> str:
    """One booktabs float of the mean ± sd score of every (dataset, method).

    Parameters
    ----------
    scores : pandas.DataFrame
        One score per run (:func:`run_scores`): dataset, method, fold, seed, score.
    value : str
        What the score is, with its unit where it has one, for the caption (``"test
        accuracy"``).
    columns : sequence of str, optional
        The methods shown, in this order (default: every method, in name order).
    layout : {"one-column", "two-column"}
        ``table`` within a column of a two-column page, or ``table*`` across both.
    best : {"max", "min"}
        Whether a higher or a lower score is better: the best mean of every dataset among the
        shown methods is bold (every one that shows the same rounded value).
    indistinguishable : pandas.DataFrame, optional
        Holm-corrected p-values (dataset, method, p_holm; :func:`holm_vs_best`): a value whose
        p_holm is at least ``alpha`` gets a dagger. None: no marks.
    alpha : float
        Level of the corrected test.
    transpose : bool
        Methods as rows and datasets as columns (default: datasets as rows).
    digits : int
        Decimals of the means and standard deviations.
    caption : str
        LaTeX text that opens the caption (already escaped; default: ``value``); the spread
        shown and what bold and the dagger mean follow it.
    label : str
        The float's ``\\label``.
    labels : mapping, optional
        The name shown for a method (``{method: label}``; default: its name).

    Returns
    -------
    str
        The float, for ``\\usepackage{booktabs}``.

    Raises
    ------
    PaperTableError
        An unknown layout or method, or a table too wide for its layout even at
        ``\\scriptsize``.
    """
    if layout not in LAYOUTS:
        raise PaperTableError(f"layout {layout!r}: choose one of {', '.join(LAYOUTS)}")
    if best not in ("max", "min"):
        raise PaperTableError(f"best {best!r}: choose max or min")
    known = sorted(scores["method"].unique())
    methods = list(known if columns is None else columns)
    unknown = [m for m in methods if m not in known]
    if unknown:
        raise PaperTableError(
            f"columns: no scores of method(s) {unknown}; the scores have {', '.join(known)}"
        )
    shown = scores[scores["method"].isin(methods)]
    grouped = shown.groupby(["dataset", "method"])["score"]
    # the spread over runs as numpy's std (ddof 0), as the summary table shows it
    means = grouped.mean().unstack("method").reindex(columns=methods)
    sds = grouped.std(ddof=0).unstack("method").reindex(columns=methods)
    marked = set()
    if indistinguishable is not None:
        close = indistinguishable[indistinguishable["p_holm"] >= alpha]
        marked = set(zip(close["dataset"], close["method"]))
    cells: dict[tuple[str, str], Cell] = {}
    for dataset in means.index:
        row = {m: _format(means.at[dataset, m], sds.at[dataset, m], digits) for m in methods}
        finite = means.loc[dataset].dropna()
        top = finite.max() if best == "max" else finite.min()
        top_text = _format(top, 0.0, digits)[0]
        for method in methods:
            if np.isnan(means.at[dataset, method]):
                cells[dataset, method] = Cell(MISSING, MISSING, MISSING)
                continue
            mean, sd = row[method]
            bold = mean == top_text
            mark = (dataset, method) in marked and not bold
            latex = (rf"\textbf{{{mean}}}" if bold else mean) + rf"~$\pm$~{sd}"
            text = f"{mean} ± {sd}" + (" †" if mark else "")
            cells[dataset, method] = Cell(text, text, latex + (DAGGER if mark else ""), bold)
    datasets = list(means.index)
    rows, cols = (methods, datasets) if transpose else (datasets, methods)
    corner = "method" if transpose else "dataset"
    shown_as = dict(labels or {})

    def name_cell(name):
        text = shown_as.get(name, name)
        return Cell(text, text, latex_escape(text))

    header = [Cell(corner, corner, corner)] + [name_cell(c) for c in cols]
    body = [[name_cell(r)] + [cells[(c, r) if transpose else (r, c)] for c in cols] for r in rows]
    table = Table("", header, body, ["left"] + ["right"] * len(cols))
    environment, width = LAYOUTS[layout]
    size = fitting_size(table, width)
    if size is None:
        raise PaperTableError(
            f"layout {layout}: {len(cols)} columns of {len(rows)} rows do not fit "
            f"{width:g} pt even at \\scriptsize; choose fewer columns or "
            + ("the two-column layout" if layout == "one-column" else "the transpose")
        )
    what = (caption or latex_escape(value).capitalize()) + (
        " (mean~$\\pm$~sd over folds and seeds); bold: the best of each dataset"
    )
    if indistinguishable is not None:
        what += (
            f"; {DAGGER}: not significantly different from the best (Wilcoxon signed-rank "
            f"test over the folds, Holm-corrected across methods, $\\alpha = {alpha:g}$)"
        )
    lines = [
        rf"\begin{{{environment}}}[htbp]",
        r"\centering",
        rf"\caption{{{what}.}}",
        rf"\label{{{label}}}",
        rf"\{size}",
        rf"\setlength{{\tabcolsep}}{{{TABCOLSEP_PT:g}pt}}",
        r"\begin{tabular}{l" + "r" * len(cols) + "}",
        r"\toprule",
        " & ".join(c.latex for c in header) + r" \\",
        r"\midrule",
        *(" & ".join(c.latex for c in row) + r" \\" for row in body),
        r"\bottomrule",
        r"\end{tabular}",
        rf"\end{{{environment}}}",
    ]
    return "\n".join(lines) + "\n"


def _operating_point(k) -> str:
    return "the k chosen by LOO on the training split" if k == "loo" else f"k = {int(k)}"


def check_settings(settings: Mapping, methods: Sequence[str], *, key: str) -> None:
    """The names of a ``latex`` config section that the schema cannot check.

    Raises
    ------
    rlsbench.benchmark.config.ConfigError
        A column names a method the run does not have, naming ``<key>.columns[i]``.
    """
    from rlsbench.benchmark.config import ConfigError

    columns = settings.get("columns", "all")
    if columns != "all":
        for i, name in enumerate(columns):
            if name not in methods:
                raise ConfigError(
                    f"config key {key}.columns[{i}]: {name!r} is not one of the run's methods "
                    f"({', '.join(methods)})"
                )


def paper_table_job(steps, tex, *, settings: Mapping) -> None:
    """Write the paper table (:func:`paper_table`) of the step table ``steps`` to ``tex``.

    Parameters
    ----------
    steps, tex : path-like
        The merged step table and the LaTeX file written.
    settings : mapping
        The config's ``latex`` section: value, k, columns, layout, transpose, alpha.
    """
    from rlsbench.benchmark.labels import method_labels
    from rlsbench.benchmark.results import read_step_table

    frame = read_step_table(steps)
    value = settings.get("value", "test_accuracy")
    k = settings.get("k", "loo")
    columns = settings.get("columns", "all")
    columns = None if columns == "all" else list(columns)
    alpha = float(settings.get("alpha", 0.05))
    floats = task_tables(frame)
    parts = []
    for task, rows in floats.items():
        shown_value = TASKS[task][1][value] if task in TASKS else value
        best, _, name = VALUES[shown_value]
        scores = run_scores(rows, value=shown_value, k=k)
        # the best of a dataset is the best of the methods shown, and so is the Holm family
        shown = scores if columns is None else scores[scores["method"].isin(columns)]
        if shown.empty:
            log.warning("no %s score of the %s datasets: no table of them", name, task)
            continue
        # a classification-only method has no score on regression, and no column there
        had = set(scores["method"])
        caption = f"{latex_escape(name[:1].upper() + name[1:])} at {_operating_point(k)}"
        label = "tab:main-paper-table"
        if len(floats) > 1:
            caption += f", {task} datasets"
            label += f"-{task}"
        parts.append(
            paper_table(
                scores,
                value=name,
                columns=None if columns is None else [c for c in columns if c in had],
                layout=settings.get("layout", "two-column"),
                best=best,
                indistinguishable=holm_vs_best(shown, best=best),
                alpha=alpha,
                transpose=bool(settings.get("transpose", False)),
                caption=caption,
                label=label,
                labels=method_labels(scores["method"].unique()),
            )
        )
        log.info(
            "%s: %d datasets, %d methods -> %s",
            task,
            shown["dataset"].nunique(),
            shown["method"].nunique(),
            tex,
        )
    if not parts:
        raise PaperTableError(f"the step table {steps} has no {value} score to show")
    atomic_write_text(tex, "\n".join(parts))


def task_tables(steps: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The step table's rows split into the floats of :data:`TASKS`, in that order, the tasks
    the table has only; a table without a ``task`` column is one float (``"all"``)."""
    if "task" not in steps:
        return {"all": steps}
    out = {}
    for task, (members, _) in TASKS.items():
        rows = steps[steps["task"].isin(members)]
        if len(rows):
            out[task] = rows
    return out or {"all": steps}
