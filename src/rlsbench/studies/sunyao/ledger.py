"""Sun & Yao (2006) in the fidelity ledger: our numbers, the claim checks.

What the paper brings to :mod:`rlsbench.studies.fidelity` (:data:`LEDGER`): the reader of our
numbers (:func:`our_numbers`: Table 1 and Fig. 1), one check per claim of ``claims.csv``
(:data:`CHECKS`; significance from the paired t-tests of ``table1/table1.csv``), and the
paper's numbers as transcribed in ``reported.csv``, ``claims.csv`` and ``investigations.csv``
next to this module.
"""

from __future__ import annotations

import math

from rlsbench.studies.fidelity.claims import (
    ClaimChecks,
    Outcome,
    exponent_claim,
    not_run,
    sig,
)
from rlsbench.studies.fidelity.ours import row as our_row
from rlsbench.studies.fidelity.ours import series as our_series
from rlsbench.studies.fidelity.papers import PaperLedger

CHECKS = ClaimChecks()
check = CHECKS.register


# ---------------------------------------------------------------------------------------------
# Sun & Yao: Table 1 and Fig. 1.
# ---------------------------------------------------------------------------------------------
def our_numbers(tree):
    """Our Table 1 (MSE, basis size, data sizes) and Fig. 1 (time and NMSE against the
    training size), keyed like ``reported.csv``."""
    rows = []
    t1 = tree.table("sunyao", "table1/table1.csv")
    if t1 is not None:
        for _, r in t1.iterrows():
            note = (
                f"{int(r['n_failed'])} failed, {int(r['n_not_converged'])} not converged, "
                f"{int(r['n_outliers'])} outlier split(s) (MSE > 2× median), all kept"
            )
            rows.append(
                our_row(
                    "sunyao",
                    "Table 1",
                    r["dataset"],
                    r["method"],
                    "",
                    "mse",
                    r["mse_mean"],
                    r["mse_std"],
                    r["n_splits"],
                    note=note,
                )
            )
            rows.append(
                our_row(
                    "sunyao",
                    "Table 1",
                    r["dataset"],
                    r["method"],
                    "",
                    "n_basis",
                    r["n_basis_mean"],
                    n=r["n_splits"],
                )
            )
    splits = tree.table("sunyao", "table1/splits.csv")
    if splits is not None:
        for ds, s in splits.groupby("dataset"):
            for col in ("n_features", "n_train", "n_test"):
                rows.append(our_row("sunyao", "Table 1", ds, "", "", col, s[col].median()))
    f1 = tree.table("sunyao", "fig1/fig1.csv")
    if f1 is not None:
        for (ds, method), f in f1.groupby(["dataset", "method"]):
            f = f.sort_values("n_train")
            ok = f[f["status"] == "ok"]
            for metric, col in (("cpu_time", "fit_s"), ("nmse", "nmse")):
                rows.append(
                    our_series(
                        "sunyao",
                        "Fig. 1",
                        ds,
                        method,
                        "",
                        metric,
                        ok["n_train"].to_numpy(),
                        ok[col].to_numpy(),
                        math.nan,
                        "n",
                    )
                )
            if len(ok):
                stopped = f[f["status"] != "ok"]
                reason = (
                    f"; larger sizes: {', '.join(sorted(set(stopped['status'])))}"
                    if len(stopped)
                    else "; every size ran"
                )
                rows.append(
                    our_row(
                        "sunyao",
                        "Fig. 1",
                        ds,
                        method,
                        "",
                        "max_n_train",
                        ok["n_train"].max(),
                        note="largest training size that ran within our budgets" + reason,
                    )
                )
    return rows


# ---------------------------------------------------------------------------------------------
# Sun & Yao
# ---------------------------------------------------------------------------------------------
@check("S1")
def _comparable_mse(tree):
    t1 = tree.table("sunyao", "table1/table1.csv")
    if t1 is None:
        return not_run("sunyao/table1/table1.csv")
    out = []
    for ds, t in t1.groupby("dataset", sort=False):
        rvm = t[t["method"] != "forward"]
        if rvm.empty:
            continue
        best = rvm.loc[rvm["mse_mean"].idxmin()]
        fwd = t[t["method"] == "forward"]["mse_mean"].iloc[0]
        out.append(
            Outcome(
                ds,
                bool(best["p_vs_forward"] >= 0.01),
                f"Forward {sig(fwd, 4)}, best RVM ({best['method']}) {sig(best['mse_mean'], 4)}: "
                f"paired t-test p = {sig(best['p_vs_forward'], 2)}",
                "comparable = the paired t-test does not reject at p = 0.01",
            )
        )
    return out


@check("S2")
def _new_rvm_unstable(tree):
    t1 = tree.table("sunyao", "table1/table1.csv")
    if t1 is None:
        return not_run("sunyao/table1/table1.csv")
    r = t1[(t1["dataset"] == "abalone") & (t1["method"] == "rvm_new")]
    if r.empty:
        return not_run("New RVM on Abalone")
    r = r.iloc[0]
    bad = int(r["n_failed"] + r["n_outliers"])
    return [
        Outcome(
            "abalone",
            bad >= 1,
            f"{bad} bad split(s) of {int(r['n_splits'])} (failed or MSE > 2× median); "
            f"{int(r['n_not_converged'])} not converged",
            "at least one very bad realization (a failed fit or an MSE above twice the median)",
        )
    ]


@check("S3")
def _rvm_sparser(tree):
    t1 = tree.table("sunyao", "table1/table1.csv")
    if t1 is None:
        return not_run("sunyao/table1/table1.csv")
    out = []
    for ds, t in t1.groupby("dataset", sort=False):
        k = t.set_index("method")["n_basis_mean"]
        if "forward" not in k:
            continue
        out.append(
            Outcome(
                ds,
                bool((k.drop("forward") < k["forward"]).all()),
                ", ".join(f"{m} {v:.1f}" for m, v in k.items()) + " basis vectors",
                "both RVMs keep fewer basis vectors than Forward",
            )
        )
    return out


def _fig1(tree):
    f1 = tree.table("sunyao", "fig1/fig1.csv")
    return None if f1 is None else f1


@check("S4")
def _forward_scales(tree):
    f1 = _fig1(tree)
    if f1 is None:
        return not_run("sunyao/fig1/fig1.csv")
    ok = f1[f1["status"] == "ok"].pivot_table(index="n_train", columns="method", values="fit_s")
    if "forward" not in ok:
        return not_run("Forward in Fig. 1")
    common = ok.dropna()
    sizes = f1["n_train"].unique()
    every = len(ok["forward"].dropna()) == len(sizes)
    if common.empty:
        return not_run("a training size where all three methods ran")
    n = common.index.max()
    row = common.loc[n]
    return [
        Outcome(
            f"n = {n} (largest size all ran)",
            bool(row["forward"] == row.min() and every),
            ", ".join(f"{m} {sig(v)} s" for m, v in row.items())
            + f"; Forward ran at {len(ok['forward'].dropna())} of {len(sizes)} sizes",
            "Forward the fastest where all ran, and the only method to run at every size",
        )
    ]


@check("S5")
def _forward_nmse(tree):
    f1 = _fig1(tree)
    if f1 is None:
        return not_run("sunyao/fig1/fig1.csv")
    ok = f1[f1["status"] == "ok"].pivot_table(index="n_train", columns="method", values="nmse")
    common = ok.dropna()
    if common.empty or "forward" not in common:
        return not_run("a training size where all three methods ran")
    rvm = common.drop(columns="forward").min(axis=1)
    rel = (common["forward"] - rvm) / rvm
    return [
        Outcome(
            "sizes where all ran",
            bool((rel <= 0.10).all()),
            ", ".join(f"n={n}: {v:+.1%}" for n, v in rel.items()),
            "comparable: Forward's NMSE at most 10% above the better RVM's at every common size",
        )
    ]


@check("S6")
def _rvm_limits(tree):
    f1 = _fig1(tree)
    if f1 is None:
        return not_run("sunyao/fig1/fig1.csv")
    ok = f1[f1["status"] == "ok"]
    lim = ok.groupby("method")["n_train"].max()
    if not {"rvm_old", "rvm_new"} <= set(lim.index):
        return not_run("both RVMs in Fig. 1")
    return [
        Outcome(
            "California Housing",
            bool(lim["rvm_old"] < lim["rvm_new"]),
            f"largest size run: old RVM {lim['rvm_old']}, new RVM {lim['rvm_new']}",
            "the old RVM stops at a smaller size than the new RVM",
        )
    ]


@check("S7")
def _forward_linear(tree):
    f1 = _fig1(tree)
    if f1 is None:
        return not_run("sunyao/fig1/fig1.csv")
    fwd = f1[(f1["method"] == "forward") & (f1["status"] == "ok")]
    fixed = fwd[fwd["k_max"] == fwd["k_max"].max()]
    if len(fixed) < 2:
        return not_run("two Forward sizes at the same k_max")
    return [
        exponent_claim(
            f"k_max = {int(fixed['k_max'].iloc[0])}",
            fixed["n_train"],
            fixed["fit_s"],
            0.5,
            1.5,
            f"exponent in n (n = {fixed['n_train'].min()}…{fixed['n_train'].max()})",
            "linear: fitted exponent within 0.5 of 1 at fixed k_max",
        )
    ]


LEDGER = PaperLedger(
    paper="sunyao",
    title="Sun & Yao, Efficient forward regression with marginal likelihood (ESANN 2006)",
    items=("Table 1", "Fig. 1"),
    part_files={"sunyao": ("table1/table1.csv", "table1/splits.csv", "fig1/fig1.csv")},
    reader=our_numbers,
    checks=CHECKS,
    heading=r"sun\s*(&|and)\s*yao",
    data=__package__,
)
