"""Aggregate the tidy rows of :mod:`rlsbench.kernel.experiments` into the paper's tables,
side by side with the published numbers (:mod:`rlsbench.kernel.paper_tables`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import paper_tables

LABELS = {
    "fisher": "Fisher", "arom": "AROM", "rfe": "RFE", "sas": "1) SAS", "scss": "2) SCSS",
    "kfds": "3) KFDS", "sfs": "(SFS)", "svm": "SVM (all features)", "r2w2": "R2W2",
    "fspp": "FSPP", "neumann": "Neumann KTA", "bahsic": "BAHSIC", "gmkl": "GMKL",
}

#: Legend order of the figures (the paper's: existing methods, then the proposed ones).
PLOT_ORDER = ("fisher", "arom", "r2w2", "rfe", "sfs", "sas", "scss", "kfds", "svm")
#: Methods proposed by the paper: dotted lines in its figures (existing ones solid).
PROPOSED = ("sas", "scss", "kfds", "sfs")
_COLORS = {
    "fisher": "tab:blue", "arom": "tab:orange", "r2w2": "tab:green", "rfe": "tab:red",
    "sfs": "tab:purple", "sas": "tab:brown", "scss": "tab:pink", "kfds": "tab:cyan",
    "svm": "black",
}


def method_style(method: str) -> dict:
    """Matplotlib line properties of ``method``, the same in every panel of every figure.

    A fixed colour per method (unknown methods grey), dotted lines for the proposed methods
    and solid ones for the existing methods (as in the paper's figures), a thicker black line
    for the SVM on all features.
    """
    style = {"color": _COLORS.get(method, "tab:gray"),
             "ls": ":" if method in PROPOSED else "-", "lw": 1.5}
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


def table4(summary: pd.DataFrame, experiments: dict) -> pd.DataFrame:
    """Table IV (Neumann et al.'s feature counts): ours | paper per kernel, dataset, method.

    ``experiments`` maps the paper's dataset name to our experiment name.
    """
    recs = []
    for (kernel, pname), paper in paper_tables.TABLE4.items():
        exp = experiments.get(pname)
        S = int(np.floor(paper["dim"] + 0.5))
        rec = {"kernel": kernel, "dataset": pname, "dim (paper)": paper["dim"], "S (ours)": S,
               "Neumann KTA paper": fmt(*paper["neumann"])}
        for m in ("sas", "scss", "kfds"):
            ours = _lookup(summary, experiment=exp, kernel=kernel, method=m, n_selected=S) \
                if exp else None
            rec[f"{LABELS[m]} ours"] = fmt(*ours[:2]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(*paper[m])
        recs.append(rec)
    return pd.DataFrame(recs)


def table6(summary: pd.DataFrame, experiments: dict) -> pd.DataFrame:
    """Table VI (70/30 splits, RBF): accuracy (%) ours | paper."""
    recs = []
    for (pname, S), paper in paper_tables.TABLE6.items():
        exp = experiments.get(pname)
        rec = {"dataset": pname, "S": S, "BAHSIC paper": fmt(*paper["bahsic"]),
               "GMKL paper": fmt(*paper["gmkl"])}
        for m in ("sas", "scss", "kfds"):
            ours = _lookup(summary, experiment=exp, kernel="rbf", method=m, n_selected=S) \
                if exp else None
            rec[f"{LABELS[m]} ours"] = fmt(100.0 - ours[0], ours[1]) if ours else "—"
            rec[f"{LABELS[m]} paper"] = fmt(*paper[m])
        recs.append(rec)
    return pd.DataFrame(recs)


def cputime_table(rows: pd.DataFrame, axis: str) -> pd.DataFrame:
    """Tables VIII (axis "N") / IX (axis "D"): times normalised to the fastest cell, beside
    the paper's normalised times."""
    paper = paper_tables.TABLE8 if axis == "N" else paper_tables.TABLE9
    sub = rows[rows["axis"] == axis]
    wide = sub.pivot_table(index=axis, columns="method", values="seconds", aggfunc="min")
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
    """A GitHub-flavoured Markdown table (no tabulate dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for rec in df.itertuples(index=False):
        lines.append("| " + " | ".join("—" if (isinstance(v, float) and np.isnan(v)) else str(v)
                                       for v in rec) + " |")
    return "\n".join(lines) + "\n"
