"""Aggregate the tidy rows of :mod:`rlsbench.studies.ramona.experiments` into the paper's tables,
side by side with the published numbers (:mod:`rlsbench.studies.ramona.paper_tables`)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from rlsbench.benchmark import figures
from rlsbench.benchmark.stats import paired_t_test
from rlsbench.benchmark.tables import markdown_table
from rlsbench.studies.ramona import paper_tables

LABELS = {
    "fisher": "Fisher",
    "arom": "AROM",
    "rfe": "RFE",
    "sas": "1) SAS",
    "scss": "2) SCSS",
    "kfds": "3) KFDS",
    "sfs": "(SFS)",
    "svm": "SVM (all features)",
    "r2w2": "R2W2",
    "fspp": "FSPP",
    "neumann": "Neumann KTA",
    "bahsic": "BAHSIC",
    "gmkl": "GMKL",
    "r2w2_wang": "R2W2 (Wang)",
    "kcs_wang": "KCS (Wang)",
}

#: Legend order of the figures (the paper's: existing methods, then the proposed ones).
PLOT_ORDER = ("fisher", "arom", "r2w2", "rfe", "sfs", "sas", "scss", "kfds", "svm")
#: Methods proposed by the paper: dotted lines in its figures (existing ones solid).
PROPOSED = ("sas", "scss", "kfds", "sfs")


def method_style(method: str) -> dict:
    """Matplotlib line properties of ``method``, the same in every panel of every figure.

    The method's colour and marker of every figure of every part
    (:func:`rlsbench.benchmark.figures.method_style`), dotted lines for the proposed methods
    and solid ones for the existing methods (as in the paper's figures), a thicker black line
    for the SVM on all features.
    """
    # the paper's line styles (dotted: proposed) replace the method's own
    common = {k: v for k, v in figures.method_style(method).items() if k != "linestyle"}
    style = {
        **common,
        "ls": ":" if method in PROPOSED else "-",
        "lw": 1.5,
    }
    if method == "svm":
        style["lw"] = 2.0
    return style


def plot_order(methods) -> list[str]:
    """``methods`` in legend order (:data:`PLOT_ORDER`, unknown ones last, alphabetically)."""
    known = [m for m in PLOT_ORDER if m in set(methods)]
    return known + sorted(set(methods) - set(PLOT_ORDER))


def summarize(rows: pd.DataFrame, keys) -> pd.DataFrame:
    """Mean and standard deviation of the error (in %) over repetitions.

    Parameters
    ----------
    rows : DataFrame with columns ``keys`` + error (fraction) + repeat
    keys : list of str

    Returns
    -------
    DataFrame with columns keys + mean, std (in %), n_repeats
    """
    g = rows.groupby(list(keys), sort=True)["error"]
    out = g.agg(mean="mean", std="std", n_repeats="count").reset_index()
    out["mean"] *= 100.0
    out["std"] = out["std"].fillna(0.0) * 100.0
    return out


#: Columns of :func:`paired_tests`.
PAIRED_TEST_COLUMNS = (
    "experiment",
    "kernel",
    "S",
    "method_a",
    "method_b",
    "n_pairs",
    "mean_diff",
    "p_value",
    "significant_5pct",
)


def paired_tests(rows: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Paired Student t-tests between every two methods, per experiment, kernel and S.

    For every (experiment, kernel, n_selected) and every pair of methods with rows there, the
    test errors of the two methods are paired on the repetitions both have (same split) and
    compared with :func:`rlsbench.benchmark.stats.paired_t_test` (two-sided). The paper
    reports 5 %-level Student tests between methods; this is the paired version over the
    shared splits, with that function's special cases (fewer than 2 shared repetitions: no
    test, ``p_value`` NaN, not significant; identical errors on every shared repetition:
    ``p_value`` 1.0; a constant non-zero difference: ``p_value`` 0).

    Parameters
    ----------
    rows : DataFrame with columns experiment, kernel, method, n_selected, repeat and error
        (fraction), one row per (experiment, kernel, method, n_selected, repeat); rows with a
        NaN error are ignored.
    alpha : float
        Level of ``significant_5pct`` (``p_value < alpha``).

    Returns
    -------
    DataFrame of shape (sum over the (experiment, kernel, S) cells of m (m - 1) / 2, 9), m the
    number of methods in the cell, with the columns :data:`PAIRED_TEST_COLUMNS`: S
    (= n_selected, int), method_a < method_b (alphabetically), n_pairs (int, shared
    repetitions), mean_diff (mean of error_a - error_b, in % points, rounded to 9 decimals so
    that differences cancelling out give exactly 0), p_value (float) and significant_5pct
    (bool). Sorted by experiment, kernel, S, method_a, method_b; the index is 0..n-1.

    Raises
    ------
    ValueError
        If a (experiment, kernel, method, n_selected, repeat) occurs twice.
    """
    keys = ["experiment", "kernel", "n_selected"]
    rows = rows.dropna(subset=["error"])
    dup = rows.duplicated(keys + ["method", "repeat"])
    if dup.any():
        raise ValueError(
            "paired_tests: duplicated rows for "
            f"{rows.loc[dup, keys + ['method', 'repeat']].iloc[0].to_dict()}"
        )
    recs = []
    for (exp, kernel, S), g in rows.groupby(keys, sort=True):
        wide = g.pivot(index="repeat", columns="method", values="error")
        for a, b in itertools.combinations(sorted(wide.columns), 2):
            n, diff, p = paired_t_test(wide[a].to_numpy(), wide[b].to_numpy())
            # rounded to 1e-9 points: cancelling differences give 0, not ±1e-17
            mean_diff = float(np.round(diff * 100.0, 9)) + 0.0 if n else np.nan
            recs.append(
                (exp, kernel, int(S), a, b, n, mean_diff, p, bool(np.isfinite(p) and p < alpha))
            )
    out = pd.DataFrame.from_records(recs, columns=list(PAIRED_TEST_COLUMNS))
    return out.astype(
        {"S": int, "n_pairs": int, "mean_diff": float, "p_value": float, "significant_5pct": bool}
    )


def paired_tests_against(tests: pd.DataFrame, method: str = "sas") -> pd.DataFrame:
    """``method`` against every other method, one line per (experiment, kernel, S).

    Parameters
    ----------
    tests : DataFrame as returned by :func:`paired_tests`
    method : str

    Returns
    -------
    DataFrame with columns experiment, kernel, S, then one column "vs <label>" per other
    method (in :func:`plot_order`) holding "<diff> (p <p>)" where diff = error of ``method``
    minus error of the other method (% points, one decimal; p with three decimals, "< 0.001"
    below), "*" appended when significant at 5 %, "—" where the pair was not run or not
    tested. Sorted by experiment, kernel, S.
    """
    sel = tests[(tests["method_a"] == method) | (tests["method_b"] == method)]
    flip = sel["method_b"] == method
    other = np.where(flip, sel["method_a"], sel["method_b"])
    diff = np.where(flip, -sel["mean_diff"], sel["mean_diff"])
    cells = [
        (
            "—"
            if not np.isfinite(p)
            else f"{dd:+.1f} (p {'< 0.001' if p < 0.001 else f'{p:.3f}'}){'*' if sig else ''}"
        )
        for dd, p, sig in zip(diff, sel["p_value"], sel["significant_5pct"])
    ]
    long = pd.DataFrame(
        {
            "experiment": sel["experiment"].to_numpy(),
            "kernel": sel["kernel"].to_numpy(),
            "S": sel["S"].to_numpy(),
            "other": other,
            "cell": cells,
        }
    )
    cols = ["experiment", "kernel", "S"]
    if long.empty:
        return pd.DataFrame(columns=cols)
    wide = long.pivot(index=cols, columns="other", values="cell").fillna("—")
    wide = wide[plot_order(wide.columns)]
    wide.columns = [f"vs {LABELS.get(m, m)}" for m in wide.columns]
    return wide.reset_index().sort_values(cols, kind="stable").reset_index(drop=True)


def fmt(mean, std) -> str:
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "—"
    return f"{mean:.1f} ± {std:.1f}"


def _lookup(summary, **where):
    sel = summary
    for k, v in where.items():
        sel = sel[sel[k] == v]
    if sel.empty:
        return None
    return float(sel["mean"].iloc[0]), float(sel["std"].iloc[0]), int(sel["n_repeats"].iloc[0])


def table2(summary: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Table II (USPS, RBF): ours | paper, per S and method (error %)."""
    recs = []
    for S, paper in paper_tables.TABLE2.items():
        rec = {"S": S}
        for m, (pm, ps) in paper.items():
            ours = _lookup(summary, experiment=experiment, kernel="rbf", method=m, n_selected=S)
            rec[f"{LABELS[m]} ours"] = fmt(*ours[:2]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(pm, ps)
        recs.append(rec)
    return pd.DataFrame(recs)


def table5(summary: pd.DataFrame, experiment: str | None) -> pd.DataFrame:
    """Table V (binarised USPS, Wang's protocol, RBF): error (%) ours | paper per S; Wang's
    R2W2 and KCS as the paper quotes them."""
    recs = []
    for S, paper in paper_tables.TABLE5.items():
        rec = {"S": S}
        for ref in ("r2w2_wang", "kcs_wang"):
            rec[f"{LABELS[ref]} paper"] = f"{paper[ref]:.1f}"
        for m in ("sas", "scss", "kfds"):
            ours = (
                _lookup(summary, experiment=experiment, kernel="rbf", method=m, n_selected=S)
                if experiment
                else None
            )
            rec[f"{LABELS[m]} ours"] = fmt(*ours[:2]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(*paper[m])
        recs.append(rec)
    return pd.DataFrame(recs)


def table4(summary: pd.DataFrame, experiments: dict) -> pd.DataFrame:
    """Table IV (Neumann et al.'s feature counts): ours | paper per kernel, dataset, method.

    ``experiments`` maps the paper's dataset name to our experiment name.
    """
    recs = []
    for (kernel, pname), paper in paper_tables.TABLE4.items():
        exp = experiments.get(pname)
        S = int(np.floor(paper["dim"] + 0.5))
        rec = {
            "kernel": kernel,
            "dataset": pname,
            "dim (paper)": paper["dim"],
            "S (ours)": S,
            "Neumann KTA paper": fmt(*paper["neumann"]),
        }
        for m in ("sas", "scss", "kfds"):
            ours = (
                _lookup(summary, experiment=exp, kernel=kernel, method=m, n_selected=S)
                if exp
                else None
            )
            rec[f"{LABELS[m]} ours"] = fmt(*ours[:2]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(*paper[m])
        recs.append(rec)
    return pd.DataFrame(recs)


def table6(summary: pd.DataFrame, experiments: dict) -> pd.DataFrame:
    """Table VI (70/30 splits, RBF): accuracy (%) ours | paper."""
    recs = []
    for (pname, S), paper in paper_tables.TABLE6.items():
        exp = experiments.get(pname)
        rec = {
            "dataset": pname,
            "S": S,
            "BAHSIC paper": fmt(*paper["bahsic"]),
            "GMKL paper": fmt(*paper["gmkl"]),
        }
        for m in ("sas", "scss", "kfds"):
            ours = (
                _lookup(summary, experiment=exp, kernel="rbf", method=m, n_selected=S)
                if exp
                else None
            )
            rec[f"{LABELS[m]} ours"] = fmt(100.0 - ours[0], ours[1]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(*paper[m])
        recs.append(rec)
    return pd.DataFrame(recs)


def cputime_table(rows: pd.DataFrame, axis: str) -> pd.DataFrame:
    """Tables VIII (axis "N") / IX (axis "D"): times normalised to the fastest cell, beside
    the paper's normalised times."""
    paper = paper_tables.TABLE8 if axis == "N" else paper_tables.TABLE9
    sub = rows[rows["axis"] == axis]
    wide = sub.pivot_table(index=axis, columns="method", values="seconds", aggfunc="median")
    norm = wide / np.nanmin(wide.to_numpy())
    out = pd.DataFrame({axis: wide.index.astype(int)})
    for m in wide.columns:
        out[f"{LABELS.get(m, m)} ours"] = np.round(norm[m].to_numpy(), 1)
        if m in paper:
            ref = dict(zip(paper[axis], paper[m]))
            out[f"{LABELS.get(m, m)} paper"] = [ref.get(v, np.nan) for v in out[axis]]
    out["fastest (s)"] = f"{float(np.nanmin(wide.to_numpy())):.2e}"
    return out


def to_markdown(df: pd.DataFrame) -> str:
    """A Markdown table of already formatted cells, "—" where a value is missing
    (:func:`rlsbench.benchmark.tables.markdown_table`)."""
    return markdown_table(df, missing="—")
