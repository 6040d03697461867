"""Pahikkala, Airola & Salakoski (2010) in the fidelity ledger: our numbers, the claim checks.

The greedy RLS paper is reproduced by two parts: ``main`` (Section 4.2-4.3, Table 1 and Figs.
4-15) and ``scaling`` (Section 4.1, Figs. 1-3). What the paper brings to
:mod:`rlsbench.studies.fidelity` (:data:`LEDGER`, key ``pahikkala``): the reader of our numbers
(:func:`our_numbers`, which reads both parts' published tables through the
:class:`~rlsbench.studies.fidelity.ours.RunTree` the framework hands it), one check per claim
of ``claims.csv`` (:data:`CHECKS`), and the paper's numbers as transcribed in ``reported.csv``,
``claims.csv`` and ``investigations.csv`` next to this module.
"""

from __future__ import annotations

import numpy as np

from rlsbench.studies.fidelity.claims import (
    NOISE_Z,
    ClaimChecks,
    Outcome,
    draws_text,
    gap_z,
    majority,
    noise_reason,
    noise_rule,
    not_run,
    sig,
    within_noise,
)
from rlsbench.studies.fidelity.ours import RunTree
from rlsbench.studies.fidelity.ours import row as our_row
from rlsbench.studies.fidelity.ours import series as our_series
from rlsbench.studies.fidelity.papers import PaperLedger
from rlsbench.studies.fidelity.verdicts import (
    decide_interval,
    exponent_interval,
    interval_text,
)

CHECKS = ClaimChecks()
check = CHECKS.register

# ---------------------------------------------------------------------------------------------
# Pahikkala et al.: the main part (Section 4.2-4.3) and the scaling part (Section 4.1).
# ---------------------------------------------------------------------------------------------
PAHIKKALA_FIGS = {
    "adult": (4, 10),
    "australian": (5, 11),
    "colon-cancer": (6, 12),
    "german.numer": (7, 13),
    "ijcnn1": (8, 14),
    "mnist5": (9, 15),
}


def our_numbers(tree):
    """Our Table 1 sizes, Figs. 1-3 growth exponents and times (scaling part), Figs. 4-15
    curves (main part), keyed like ``reported.csv``."""
    rows = []
    checks, summary = (
        tree.table("main", "tables/paper_checks.csv"),
        tree.table("main", "tables/summary.csv"),
    )
    if checks is not None:
        n_folds = None
        if summary is not None:
            greedy = summary[(summary["method"] == "greedy_rls") & (summary["status"] == "ok")]
            n_folds = int(greedy["runs"].max()) if len(greedy) else None
        for _, r in checks.iterrows():
            rows.append(
                our_row("pahikkala", "Table 1", r["dataset"], "", "", "n_features", r["n_features"])
            )
            if n_folds and n_folds > 1:
                # stratified n-fold CV: a training split holds (n_folds − 1)/n_folds of the set
                n = round(r["n_train"] * n_folds / (n_folds - 1))
                rows.append(
                    our_row(
                        "pahikkala",
                        "Table 1",
                        r["dataset"],
                        "",
                        "",
                        "n_samples",
                        n,
                        note=f"from the median training split ({r['n_train']}) of "
                        f"{n_folds}-fold CV",
                    )
                )
    exps = tree.table("scaling", "tables/exponents.csv")
    if exps is not None:
        cpu1 = exps[(exps["metric"] == "cpu") & (exps["threads"] == 1)]
        for _, r in cpu1.iterrows():
            items = {"fig1_2": ("Fig. 1", "Fig. 2"), "fig3": ("Fig. 3",)}.get(r["sweep"], ())
            for item in items:
                rows.append(
                    our_row(
                        "pahikkala",
                        item,
                        "synthetic",
                        r["method"],
                        "n=1000;k=50",
                        "exponent_m",
                        r["exponent"],
                        r["stderr"],
                        r["n_points"],
                        note=f"log-log fit over m = {r['size_min']}…{r['size_max']}, "
                        f"spread = standard error of the slope",
                    )
                )
    paper_csv = tree.table("scaling", "tables/paper.csv")
    if paper_csv is not None:
        ours = paper_csv[
            paper_csv["source"].str.startswith("this run") & (paper_csv["threads"] == 1)
        ]
        for _, r in ours.iterrows():
            rows.append(
                our_row(
                    "pahikkala",
                    "Fig. 3",
                    "synthetic",
                    "greedy_rls",
                    f"m={int(r['m'])};n={int(r['n'])};k={int(r['k'])}",
                    "cpu_time",
                    r["cpu_s"],
                    note=f"{r['source']}; {r['note']}",
                )
            )
    curves = tree.table("main", "tables/curves.csv")
    if curves is not None:
        for (dataset, method), c in curves.groupby(["dataset", "method"]):
            if dataset not in PAHIKKALA_FIGS:
                continue
            c = c.sort_values("k")
            fig_test, fig_loo = PAHIKKALA_FIGS[dataset]
            ks = c["k"].to_numpy()
            if method in ("greedy_rls", "random"):
                rows.append(
                    our_series(
                        "pahikkala",
                        f"Fig. {fig_test}",
                        dataset,
                        method,
                        "",
                        "test_accuracy",
                        ks,
                        c["test_accuracy_mean"].to_numpy(),
                        c["runs"].max(),
                        "k",
                    )
                )
            if method == "greedy_rls":
                for metric in ("test_accuracy", "loo_accuracy"):
                    rows.append(
                        our_series(
                            "pahikkala",
                            f"Fig. {fig_loo}",
                            dataset,
                            method,
                            "",
                            metric,
                            ks,
                            c[f"{metric}_mean"].to_numpy(),
                            c["runs"].max(),
                            "k",
                        )
                    )
    return rows


# ---------------------------------------------------------------------------------------------
# Pahikkala et al.
# ---------------------------------------------------------------------------------------------
@check("P1")
def _same_features(tree: RunTree):
    """Every pair the scaling part compares selects identical features (or order), and on the
    main part every equivalent method that ran has greedy RLS's test-accuracy curve."""
    out = []
    agree = tree.table("scaling", "tables/agreement.csv")
    if agree is None:
        out += not_run("scaling/tables/agreement.csv", "scaling part")
    else:
        compared = agree[agree["compared_by"] != "excluded"]
        ok = compared["agree"].astype(str).str.lower() == "true"
        out.append(
            Outcome(
                "scaling part: selected features",
                bool(len(compared)) and bool(ok.all()),
                f"{int(ok.sum())} of {len(compared)} comparisons identical",
                "agreement.csv: the same features (in the same order where compared by order) "
                f"as greedy RLS for {', '.join(sorted(set(compared['method'])))}",
            )
        )
    curves = tree.table("main", "tables/curves.csv")
    if curves is None:
        out += not_run("main/tables/curves.csv", "main part")
    else:
        piv = curves.pivot_table(
            index=["dataset", "k"], columns="method", values="test_accuracy_mean"
        )
        same, total = 0, 0
        for method in ("wrapper_loo", "wrapper_blackbox", "lowrank_lssvm"):
            if method not in piv or "greedy_rls" not in piv:
                continue
            both = piv[[method, "greedy_rls"]].dropna()
            for _, d in both.groupby(level=0):
                total += 1
                same += bool(np.allclose(d[method], d["greedy_rls"], atol=1e-9))
        out.append(
            Outcome(
                "main part: test-accuracy curves",
                total > 0 and same == total,
                f"{same} of {total} (dataset, method) curves equal greedy RLS's",
                "identical curves at every k are what identical selections give"
                if total
                else "no equivalent method ran beside greedy RLS",
            )
        )
    return out


def _exponents(tree):
    exps = tree.table("scaling", "tables/exponents.csv")
    if exps is None:
        return None
    return exps[(exps["metric"] == "cpu") & (exps["threads"] == 1)].dropna(subset=["exponent"])


def _exponent_outcome(exps, sweep, method, expected, scope):
    e = exps[(exps["sweep"] == sweep) & (exps["method"] == method)]
    if e.empty:
        return Outcome(scope, None, "", f"no {method} exponent in sweep {sweep}")
    r = e.iloc[0]
    low, high = exponent_interval(r["exponent"], r["stderr"], r["n_points"])
    return Outcome(
        scope,
        decide_interval(low, high, expected - 0.5, expected + 0.5),
        f"exponent {sig(r['exponent'])} ± {sig(r['stderr'], 2)} ({int(r['n_points'])} sizes, "
        f"{r['size_min']}…{r['size_max']}; {interval_text(low, high)})",
        f"the stated complexity holds when the fitted exponent rounds to {expected} "
        "(|exponent − stated| < 0.5), decided on the exponent's confidence interval",
    )


@check("P2")
def _fig12_scaling(tree):
    exps = _exponents(tree)
    if exps is None:
        return not_run("scaling/tables/exponents.csv")
    return [
        _exponent_outcome(exps, "fig1_2", "lowrank_lssvm", 2, "low-rank LS-SVM, m = 500…5000"),
        _exponent_outcome(exps, "fig1_2", "greedy_rls", 1, "greedy RLS, m = 500…5000"),
    ]


@check("P3")
def _fig3_scaling(tree):
    exps = _exponents(tree)
    if exps is None:
        return not_run("scaling/tables/exponents.csv")
    return [_exponent_outcome(exps, "fig3", "greedy_rls", 1, "greedy RLS, m = 1000…50000")]


@check("P4")
def _greedy_complexity(tree):
    exps = _exponents(tree)
    if exps is None:
        return not_run("scaling/tables/exponents.csv")
    return [
        _exponent_outcome(exps, "fig3", "greedy_rls", 1, "in m"),
        _exponent_outcome(exps, "features", "greedy_rls", 1, "in n"),
        _exponent_outcome(exps, "selected", "greedy_rls", 1, "in k"),
    ]


@check("P5")
def _lowrank_complexity(tree):
    exps = _exponents(tree)
    if exps is None:
        return not_run("scaling/tables/exponents.csv")
    return [
        _exponent_outcome(exps, "fig1_2", "lowrank_lssvm", 2, "in m"),
        _exponent_outcome(exps, "features", "lowrank_lssvm", 1, "in n"),
        _exponent_outcome(exps, "selected", "lowrank_lssvm", 1, "in k"),
    ]


@check("P6")
def _greedy_faster(tree):
    sp = tree.table("scaling", "tables/speedups.csv")
    if sp is None:
        return not_run("scaling/tables/speedups.csv")
    sp = sp[
        (sp["sweep"] == "fig1_2")
        & (sp["method"] == "lowrank_lssvm")
        & (sp["kind"] == "greedy_rls_over_method")
    ].dropna(subset=["speedup"])
    if sp.empty:
        return not_run("low-rank LS-SVM speed-up in sweep fig1_2")
    sp = sp.sort_values("size")
    return [
        Outcome(
            "Figs. 1-2 sizes",
            bool((sp["speedup"] > 1).all()),
            ", ".join(f"m={s}: ×{sig(v)}" for s, v in zip(sp["size"], sp["speedup"])),
            "greedy RLS is faster at every size (time of the low-rank LS-SVM / greedy RLS's > 1)",
        )
    ]


def _curves(tree):
    curves = tree.table("main", "tables/curves.csv")
    return None if curves is None else curves[curves["dataset"].isin(_PAHIKKALA_SETS)]


_PAHIKKALA_SETS = ("adult", "australian", "colon-cancer", "german.numer", "ijcnn1", "mnist5")


#: Claim P7 on german.numer over re-drawn random-selection seeds (``rlsbench investigate main
#: seeds``): greedy RLS and random selection per (seed triple, k); the check reads it when present.
SEEDS_TABLE = "investigations/seeds.csv"


def p7_gaps(greedy, random):
    """Claim P7 on one data set from greedy RLS's and random selection's test-accuracy curves.

    Parameters
    ----------
    greedy, random : pandas.DataFrame
        Indexed by k, with ``test_accuracy_mean``, ``test_accuracy_sd`` and ``runs``.

    Returns
    -------
    dict or None
        None when the two share no k ≤ min(50, n/2). Else ``ks``; ``gap`` and ``se`` (greedy −
        random and its combined standard error, per k); ``mean`` (of the gap over k);
        ``lowest``, ``k`` and ``z`` (the lowest gap, its k and gap / se); ``holds`` (the
        claim's reading: mean gap positive and no k with random selection ahead by more than
        one combined standard error); ``holds_within_noise`` (the same with every gap within
        :data:`~rlsbench.studies.fidelity.verdicts.NOISE_Z` standard errors read in the
        claim's favour; the mean gap's standard error is taken as the mean of the per-k ones,
        the bound for curves correlated across k); ``holds_beyond_noise`` (the same with the
        mean gap read against the claim: positive by more than that many standard errors).
    """
    ks = [
        k for k in greedy.index.intersection(random.index) if k <= min(50, greedy.index.max() // 2)
    ]
    if not ks:
        return None
    gap = greedy.loc[ks, "test_accuracy_mean"] - random.loc[ks, "test_accuracy_mean"]
    se = np.sqrt(
        greedy.loc[ks, "test_accuracy_sd"] ** 2 / greedy.loc[ks, "runs"]
        + random.loc[ks, "test_accuracy_sd"] ** 2 / random.loc[ks, "runs"]
    )
    k_low = gap.idxmin()
    mean = float(gap.mean())
    beyond = (gap + NOISE_Z * se.fillna(0.0)).min()
    return {
        "ks": ks,
        "gap": gap,
        "se": se,
        "mean": mean,
        "lowest": float(gap[k_low]),
        "k": int(k_low),
        "z": gap_z(float(gap[k_low]), float(se[k_low])),
        "holds": bool(mean > 0 and float((gap + se).min()) >= 0),
        "holds_within_noise": bool(
            (mean > 0 or within_noise(mean, float(se.mean()))) and float(beyond) >= 0
        ),
        "holds_beyond_noise": bool(
            mean > 0 and not within_noise(mean, float(se.mean())) and float((gap + se).min()) >= 0
        ),
    }


def p7_text(p):
    """'greedy − random: mean +0.020 over k = 1…12, lowest -0.005 (k = 1, z = -1.0)'."""
    return (
        f"greedy − random: mean {p['mean']:+.3f} over k = 1…{max(p['ks'])}, "
        f"lowest {p['lowest']:+.3f} (k = {p['k']}, z = {p['z']:+.1f})"
    )


def _seed_draws(tree, dataset):
    """P7's gaps per seed triple of the seeds investigation on ``dataset`` (None: not run)."""
    seeds = tree.table("main", SEEDS_TABLE)
    if seeds is None or dataset not in set(seeds["dataset"]):
        return None
    out = {}
    for triple, t in seeds[seeds["dataset"] == dataset].groupby("seeds", sort=False):
        t = t.set_index("k")
        curve = {
            method: t[[f"{method}_mean", f"{method}_sd", f"{method}_runs"]].set_axis(
                ["test_accuracy_mean", "test_accuracy_sd", "runs"], axis=1
            )
            for method in ("greedy", "random")
        }
        p = p7_gaps(curve["greedy"], curve["random"])
        if p is not None:
            out[str(triple)] = p
    return out or None


@check("P7")
def _beats_random(tree: RunTree):
    """Per data set: over k = 1…min(50, n/2), greedy RLS's mean test accuracy is never below
    random selection's by more than their combined standard error, and above it on average.
    Beyond n/2 both keep most features and their curves meet by construction.

    A failure or a success within noise (:func:`~rlsbench.studies.fidelity.verdicts.noise_rule`)
    is inconclusive: where the seeds investigation (:data:`SEEDS_TABLE`) re-drew random
    selection's seeds on a data set, the outcome per seed triple is stated and decides too."""
    curves = _curves(tree)
    if curves is None:
        return not_run("main/tables/curves.csv")
    out = []
    for ds in _PAHIKKALA_SETS:
        c = curves[curves["dataset"] == ds]
        p = p7_gaps(
            c[c["method"] == "greedy_rls"].set_index("k"), c[c["method"] == "random"].set_index("k")
        )
        if p is None:
            out.append(Outcome(ds, None, "", "greedy RLS and random selection did not both run"))
            continue
        ours = p7_text(p)
        rule = (
            "holds when the mean difference over k ≤ min(50, n/2) is positive and no such "
            "k has random selection ahead by more than the combined standard error; "
            + noise_reason()
        )
        draws = _seed_draws(tree, ds)
        if draws is not None:
            ours += "; " + draws_text(
                [d["holds"] for d in draws.values()], list(draws), "seed triples"
            )
            ours += "; lowest gap per triple: " + ", ".join(
                f"{label} {d['lowest']:+.4f} (z = {d['z']:+.1f})" for label, d in draws.items()
            )
            rule += f"; random selection re-drawn with {len(draws)} seed triples ({SEEDS_TABLE})"
        holds = noise_rule(
            p["holds"],
            p["holds_within_noise"],
            None if draws is None else [d["holds"] for d in draws.values()],
            p["holds_beyond_noise"],
        )
        out.append(Outcome(ds, holds, ours, rule))
    return out


@check("P8")
def _small_subset(tree):
    """Most data sets (> half): some k ≤ max(5, n/10) comes within max(one fold standard
    deviation, 0.01) of the test accuracy with all n features ('as good' as read off a plot)."""
    curves = _curves(tree)
    if curves is None:
        return not_run("main/tables/curves.csv")
    flags, texts = [], []
    for ds in _PAHIKKALA_SETS:
        g = curves[(curves["dataset"] == ds) & (curves["method"] == "greedy_rls")].set_index("k")
        if g.empty:
            continue
        n = int(g.index.max())
        full = g.loc[n]
        small = g[g.index <= max(5, n // 10)]
        best_k = small["test_accuracy_mean"].idxmax()
        margin = max(full["test_accuracy_sd"], 0.01)
        ok = small["test_accuracy_mean"].max() >= full["test_accuracy_mean"] - margin
        flags.append(bool(ok))
        texts.append(
            f"{ds}: {small['test_accuracy_mean'].max():.3f} at k = {best_k} vs "
            f"{full['test_accuracy_mean']:.3f} ± {full['test_accuracy_sd']:.3f} at k = {n}"
        )
    if not flags:
        return not_run("greedy RLS curves on the paper's data sets")
    return [
        Outcome(
            "all data sets",
            majority(flags),
            "; ".join(texts),
            f"holds on {sum(flags)} of {len(flags)} data sets (needs more than half); 'as good' = "
            "within max(fold sd, 0.01) of all features, 'small' = k ≤ max(5, n/10)",
        )
    ]


def _loo_gaps(tree):
    curves = _curves(tree)
    if curves is None:
        return None
    g = curves[curves["method"] == "greedy_rls"]
    return (g["loo_accuracy_mean"] - g["test_accuracy_mean"]).groupby(g["dataset"]).mean()


@check("P9")
def _loo_reliable(tree):
    """|mean over k of (LOO − test accuracy)| ≤ 0.01 (one accuracy point) on each large set."""
    gaps = _loo_gaps(tree)
    if gaps is None:
        return not_run("main/tables/curves.csv")
    out = []
    for ds in ("adult", "australian", "ijcnn1", "mnist5"):
        if ds not in gaps:
            out.append(Outcome(ds, None, "", "greedy RLS did not run on it"))
            continue
        out.append(
            Outcome(
                ds,
                bool(abs(gaps[ds]) <= 0.01),
                f"LOO − test accuracy, mean over k: {gaps[ds]:+.4f}",
                "close to identical = within one accuracy point (0.01) on average over k",
            )
        )
    return out


@check("P10")
def _loo_overfits(tree):
    """LOO − test accuracy (mean over k) is larger on colon-cancer and german.numer than on every
    other set, and largest on colon-cancer."""
    gaps = _loo_gaps(tree)
    if gaps is None or not {"colon-cancer", "german.numer"} <= set(gaps.index):
        return not_run("greedy RLS curves on colon-cancer and german.numer")
    others = gaps.drop(["colon-cancer", "german.numer"])
    ok = bool(
        min(gaps["colon-cancer"], gaps["german.numer"]) > max(others.max(), 0)
        and gaps["colon-cancer"] == gaps.max()
    )
    return [
        Outcome(
            "colon-cancer, german.numer",
            ok,
            ", ".join(f"{d}: {v:+.4f}" for d, v in gaps.sort_values(ascending=False).items()),
            "LOO − test accuracy (mean over k) of the two sets above every other set's and "
            "colon-cancer's the largest",
        )
    ]


LEDGER = PaperLedger(
    paper="pahikkala",
    title="Pahikkala, Airola & Salakoski, Linear time feature selection for RLS (2010)",
    items=("Table 1", *(f"Fig. {i}" for i in range(1, 16))),
    part_files={
        "main": (
            "tables/curves.csv",
            "tables/summary.csv",
            "tables/paper_checks.csv",
            SEEDS_TABLE,
        ),
        "scaling": (
            "tables/exponents.csv",
            "tables/paper.csv",
            "tables/agreement.csv",
            "tables/speedups.csv",
        ),
    },
    reader=our_numbers,
    checks=CHECKS,
    heading=r"pahikkala|greedy rls paper",
    data=__package__,
)
