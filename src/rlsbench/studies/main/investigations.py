"""Runs that isolate what the main part's protocol adds to the greedy RLS paper's, and how
much claim P7 moves with random selection's seeds.

The paper (Pahikkala et al., Section 4.2) chooses λ by LOO on the training split and adds
features one at a time; it states neither a scaling of the features nor a bias term. Our
protocol standardises the features by the training split and appends a constant bias
feature (regularised like the others). ``protocol`` compares the paper run (standardised,
bias 1) with the same run without each addition and without both (the Snakemake configs
``config/investigations/protocol_*.yaml`` that ``config/investigations/main.yaml`` lists):
greedy RLS's test accuracy at the paper's k on every dataset of the paper run but mnist5,
and claim P7 (greedy RLS clearly above random selection) on german.numer, where it fails.

``seeds`` re-runs random selection on one data set (german.numer, where P7 fails by one
standard error at k = 1) under the paper run's protocol (``config/paper.yaml`` main: the same
folds, λ search, standardisation and bias) with other seed triples than the paper run's
``random_seeds`` (the grid's first triple is the paper run's own), and greedy RLS once (it draws
nothing). Per triple and k: greedy RLS's and random selection's test accuracy (mean, sd and
runs over folds × seeds), the gap and its ``z``, and P7's outcome per triple
(:func:`rlsbench.studies.main.ledger.p7_gaps`); the ledger's P7 check reads ``seeds.csv``.

Usage::

    for c in config/investigations/protocol_*.yaml; do
        snakemake main_all --cores 2 --configfile $c --config 'mirrors=["/path/to/mirror"]'
    done
    rlsbench investigate main protocol
    rlsbench investigate main seeds --data results/datasets/prepared
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rlsbench.benchmark.investigate import Investigation, without_provenance
from rlsbench.benchmark.protocol import cv_plan
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.benchmark.tables import markdown_table


def _summary(root: Path) -> pd.DataFrame:
    path = root / "main" / "tables" / "summary.csv"
    if not path.exists():
        raise FileNotFoundError(f"{path}: run the variant first (see this module's docstring)")
    return pd.read_csv(path)


def _variants(section):
    return [(v["run"], bool(v["standardize"]), float(v["bias"])) for v in section["variants"]]


def protocol_table(runs: Path, paper: Path, section) -> pd.DataFrame:
    """Greedy RLS's test accuracy (mean ± sd over the folds) per dataset and variant; the
    datasets are those of the first variant that is not the paper run."""
    variants = _variants(section)
    rows = []
    for name, std, bias in variants:
        frame = _summary(paper if name == "paper run" else runs / name)
        datasets = _summary(runs / variants[1][0])["dataset"].unique()
        for _, r in frame[frame["method"] == "greedy_rls"].iterrows():
            if r["dataset"] not in datasets:
                continue
            rows.append(
                {
                    "dataset": r["dataset"],
                    "features": "standardised" if std else "as given",
                    "bias": bias,
                    **{k: r[k] for k in section["ks"]},
                }
            )
    return pd.DataFrame(rows).sort_values(["dataset", "features", "bias"], kind="stable")


def claim_p7(runs: Path, paper: Path, section) -> pd.DataFrame:
    """Claim P7 (greedy RLS above random selection) on german.numer, per variant."""
    from rlsbench.studies.fidelity.ours import RunTree
    from rlsbench.studies.main.ledger import CHECKS

    rows = []
    for name, std, bias in _variants(section):
        root = paper if name == "paper run" else runs / f"{name}_german"
        for outcome in CHECKS["P7"](RunTree(root)):
            if outcome.scope == "german.numer":
                rows.append(
                    {
                        "features": "standardised" if std else "as given",
                        "bias": bias,
                        "P7 holds": outcome.holds,
                        "greedy RLS − random selection": outcome.ours,
                    }
                )
    return pd.DataFrame(rows)


def protocol_markdown(acc, p7, command):
    return (
        "### Greedy RLS without the protocol's additions (standardisation, bias)\n\n"
        f"Made by `{command}` from the paper run "
        "(`config/paper.yaml`: features standardised by the training split, a bias feature of "
        "value 1) and three runs of `config/investigations/protocol_*.yaml` that differ from "
        "it only in `main.standardize` and `main.bias` (same folds, λ grid and selection). "
        "Greedy RLS's test accuracy, mean ± standard deviation over the 10 folds.\n\n"
        + markdown_table(acc)
        + "\nClaim P7 on german.numer (greedy RLS clearly above random selection; the ledger's "
        "rule), in runs of greedy RLS and random selection with the same settings "
        "(`protocol_*_german.yaml`):\n\n" + markdown_table(p7)
    )


def protocol(ctx):
    """Write ``protocol.csv``, ``protocol_p7.csv`` and ``protocol.md`` from the variant runs."""
    runs, paper = Path(ctx.section["runs"]), Path(ctx.section["paper"])
    acc, p7 = protocol_table(runs, paper, ctx.section), claim_p7(runs, paper, ctx.section)
    ctx.write_csv("protocol.csv", acc, ctx.section)
    ctx.write_csv("protocol_p7.csv", p7, ctx.section)
    return ctx.write_markdown("protocol.md", protocol_markdown(acc, p7, ctx.command))


def protocol_from_csv(ctx):
    acc = without_provenance(ctx.read_csv("protocol.csv"))
    p7 = without_provenance(ctx.read_csv("protocol_p7.csv"))
    return ctx.write_markdown("protocol.md", protocol_markdown(acc, p7, ctx.command))


# --------------------------------------------------------------------------------------- seeds
def _alpha(dataset, fold, settings):
    from rlsbench.benchmark.protocol import run_alpha_job

    return run_alpha_job(dataset, fold, settings)


def _select(dataset, method, fold, seed, alpha_record, settings):
    from rlsbench.benchmark.protocol import run_select_job

    return run_select_job(dataset, method, fold, seed, alpha_record, settings)


def _triple_label(seeds):
    return " ".join(str(int(s)) for s in seeds)


def seed_curves(ctx, dataset, triples, main):
    """Greedy RLS's curve and random selection's per seed triple on ``dataset`` under the
    ``main`` section, parsed once into the protocol's settings (a long frame: one row per
    (triple, k))."""
    from rlsbench.benchmark.datasets import load_prepared
    from rlsbench.benchmark.results import curves_table

    path = Path(ctx.data) / f"{dataset}.npz"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: prepared {dataset} not found (--data: the folder of the prepared datasets)"
        )
    data = load_prepared(str(path))
    settings = ProtocolSettings.from_section(
        {**main, "datasets": [dataset], "methods": ["greedy_rls", "random"]}, key="main"
    )
    folds = range(cv_plan(data.y, data.task, settings).n_splits)
    alphas = ctx.map(_alpha, [(data, fold, settings) for fold in folds], what="λ search, fold")
    seeds = sorted({int(s) for triple in triples for s in triple})
    greedy = ctx.map(
        _select,
        [(data, "greedy_rls", fold, settings.cv_seed, alphas[fold], settings) for fold in folds],
        what="greedy RLS, fold",
    )
    tasks = [
        (data, "random", fold, seed, alphas[fold], settings) for fold in folds for seed in seeds
    ]
    random = ctx.map(_select, tasks, what="random selection, fold/seed")
    greedy = curves_table(pd.DataFrame([r for rows in greedy for r in rows])).set_index("k")
    random = pd.DataFrame([r for rows in random for r in rows])
    frames = []
    for triple in triples:
        drawn = random[random["seed"].isin([int(s) for s in triple])]
        r = curves_table(drawn).set_index("k")
        ks = greedy.index.intersection(r.index)
        frame = pd.DataFrame(
            {
                "dataset": dataset,
                "seeds": _triple_label(triple),
                "k": ks,
                **{
                    f"{name}_{stat}": curve.loc[ks, col].to_numpy()
                    for name, curve in (("greedy", greedy), ("random", r))
                    for stat, col in (
                        ("mean", "test_accuracy_mean"),
                        ("sd", "test_accuracy_sd"),
                        ("runs", "runs"),
                    )
                },
            }
        )
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def seed_claims(curves: pd.DataFrame) -> pd.DataFrame:
    """Claim P7 per seed triple of :func:`seed_curves` (the ledger's own reading)."""
    from rlsbench.studies.main.ledger import p7_gaps

    rows = []
    for (dataset, seeds), t in curves.groupby(["dataset", "seeds"], sort=False):
        t = t.set_index("k")
        g, r = (
            t[[f"{m}_mean", f"{m}_sd", f"{m}_runs"]].set_axis(
                ["test_accuracy_mean", "test_accuracy_sd", "runs"], axis=1
            )
            for m in ("greedy", "random")
        )
        p = p7_gaps(g, r)
        rows.append(
            {
                "dataset": dataset,
                "seeds": seeds,
                "k range": f"1…{max(p['ks'])}",
                "mean gap": round(p["mean"], 4),
                "lowest gap": round(p["lowest"], 4),
                "at k": p["k"],
                "z": round(p["z"], 2),
                "P7 holds": p["holds"],
            }
        )
    return pd.DataFrame(rows)


def _with_gaps(curves):
    gap = curves["greedy_mean"] - curves["random_mean"]
    se = np.sqrt(
        curves["greedy_sd"] ** 2 / curves["greedy_runs"]
        + curves["random_sd"] ** 2 / curves["random_runs"]
    )
    return curves.assign(gap=gap.round(6), se=se.round(6), z=(gap / se).round(3))


def seeds_markdown(curves, claims, command):
    dataset = ", ".join(claims["dataset"].unique())
    k1 = curves[curves["k"] == 1][["seeds", "greedy_mean", "random_mean", "gap", "z"]]
    return (
        f"### Claim P7 on {dataset} over random selection's seed triples\n\n"
        f"Made by `{command}`: the paper run's protocol (`config/paper.yaml` main: folds, λ "
        "search, standardised features, bias 1), random selection re-drawn with each seed "
        "triple of `config/investigations/main.yaml` seeds (the paper run's `random_seeds` are "
        "the first), greedy RLS once (it draws nothing). Gap = greedy RLS − random selection "
        "(test accuracy, mean over folds × seeds), z = gap / combined standard error. P7 holds "
        "when the mean gap over k is positive and random selection is nowhere ahead by more "
        "than one combined standard error (the ledger's reading); per-k rows in `seeds.csv`."
        "\n\n" + markdown_table(claims) + "\nAt k = 1:\n\n" + markdown_table(k1)
    )


def seeds(ctx):
    """Write ``seeds.csv`` (per triple and k), ``seeds_p7.csv`` (P7 per triple) and
    ``seeds.md``."""
    triples = [list(t) for t in ctx.section["seed_triples"]]
    if not triples or any(len(t) == 0 for t in triples):
        raise ValueError(f"{ctx.config}: seeds.seed_triples must list non-empty seed lists")
    curves = _with_gaps(seed_curves(ctx, ctx.section["dataset"], triples, ctx.paper_section()))
    claims = seed_claims(curves)
    ctx.write_csv("seeds.csv", curves, ctx.section)
    ctx.write_csv("seeds_p7.csv", claims, ctx.section)
    return ctx.write_markdown("seeds.md", seeds_markdown(curves, claims, ctx.command))


def seeds_from_csv(ctx):
    curves = without_provenance(ctx.read_csv("seeds.csv"))
    claims = without_provenance(ctx.read_csv("seeds_p7.csv"))
    return ctx.write_markdown("seeds.md", seeds_markdown(curves, claims, ctx.command))


INVESTIGATIONS = {
    "protocol": Investigation(
        run=protocol,
        markdown=protocol_from_csv,
        doc="greedy RLS without standardisation and/or the bias feature (runs of "
        "config/investigations/protocol_*.yaml), and claim P7 on german.numer",
        keys=("runs", "paper", "ks", "variants"),
    ),
    "seeds": Investigation(
        run=seeds,
        markdown=seeds_from_csv,
        doc="claim P7 on one data set with random selection re-drawn over seed triples, "
        "under the paper run's protocol",
        keys=("dataset", "seed_triples"),
    ),
}
