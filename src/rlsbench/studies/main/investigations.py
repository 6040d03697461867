"""Runs that isolate what the main part's protocol adds to the greedy RLS paper's.

The paper (Pahikkala et al., Section 4.2) chooses λ by LOO on the training split and adds
features one at a time; it states neither a scaling of the features nor a bias term. Our
protocol standardises the features by the training split and appends a constant bias
feature (regularised like the others). ``protocol`` compares the paper run (standardised,
bias 1) with the same run without each addition and without both (the Snakemake configs
``config/investigations/protocol_*.yaml`` that ``config/investigations/main.yaml`` lists):
greedy RLS's test accuracy at the paper's k on every dataset of the paper run but mnist5,
and claim P7 (greedy RLS clearly above random selection) on german.numer, where it fails.

Usage::

    for c in config/investigations/protocol_*.yaml; do
        snakemake main_all --cores 2 --configfile $c --config 'mirrors=["/path/to/mirror"]'
    done
    rlsbench investigate main protocol
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rlsbench.benchmark.investigate import Investigation, without_provenance
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


INVESTIGATIONS = {
    "protocol": Investigation(
        run=protocol,
        markdown=protocol_from_csv,
        doc="greedy RLS without standardisation and/or the bias feature (runs of "
        "config/investigations/protocol_*.yaml), and claim P7 on german.numer",
        keys=("runs", "paper", "ks", "variants"),
    ),
}
