"""Runs that isolate what the main part's protocol adds to the greedy RLS paper's.

The paper (Pahikkala et al., Section 4.2) chooses λ by LOO on the training split and adds
features one at a time; it states neither a scaling of the features nor a bias term. Our
protocol standardises the features by the training split and appends a constant bias
feature (regularised like the others). ``protocol`` compares the paper run (standardised,
bias 1) with the same run without each addition and without both (configs
``config/investigations/protocol_*.yaml``, run with ``snakemake main_all --configfile …``):
greedy RLS's test accuracy at the paper's k on every dataset of the paper run but mnist5,
and claim P7 (greedy RLS clearly above random selection) on german.numer, where it fails.

Usage::

    for c in config/investigations/protocol_*.yaml; do
        snakemake main_all --cores 2 --configfile $c --config 'mirrors=["/path/to/mirror"]'
    done
    python -m rlsbench.studies.main.investigations protocol \\
        --runs results/runs --paper results/paper --out results/paper/main/investigations
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from rlsbench.benchmark.tables import markdown_table, write_csv, write_markdown

#: (run name, features standardised, bias); the paper run is ``results/paper`` itself.
VARIANTS = (
    ("paper run", True, 1.0),
    ("protocol_std_nobias", True, 0.0),
    ("protocol_raw_bias", False, 1.0),
    ("protocol_raw_nobias", False, 0.0),
)
KS = ("k=1", "k=2", "k=5", "k=10", "k=20", "at k by LOO")


def _summary(root: Path) -> pd.DataFrame:
    path = root / "main" / "tables" / "summary.csv"
    if not path.exists():
        raise FileNotFoundError(f"{path}: run the variant first (see this module's docstring)")
    return pd.read_csv(path)


def protocol_table(runs: Path, paper: Path) -> pd.DataFrame:
    """Greedy RLS's test accuracy (mean ± sd over the folds) per dataset and variant."""
    rows = []
    for name, std, bias in VARIANTS:
        frame = _summary(paper if name == "paper run" else runs / name)
        datasets = _summary(runs / VARIANTS[1][0])["dataset"].unique()
        for _, r in frame[frame["method"] == "greedy_rls"].iterrows():
            if r["dataset"] not in datasets:
                continue
            rows.append(
                {
                    "dataset": r["dataset"],
                    "features": "standardised" if std else "as given",
                    "bias": bias,
                    **{k: r[k] for k in KS},
                }
            )
    return pd.DataFrame(rows).sort_values(["dataset", "features", "bias"], kind="stable")


def claim_p7(runs: Path, paper: Path) -> pd.DataFrame:
    """Claim P7 (greedy RLS above random selection) on german.numer, per variant."""
    from rlsbench.studies.fidelity.ours import RunTree
    from rlsbench.studies.main.ledger import CHECKS

    rows = []
    for name, std, bias in VARIANTS:
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


def protocol(runs, paper, out):
    runs, paper, out = Path(runs), Path(paper), Path(out)
    acc, p7 = protocol_table(runs, paper), claim_p7(runs, paper)
    write_csv(acc, out / "protocol.csv")
    write_csv(p7, out / "protocol_p7.csv")
    text = (
        "### Greedy RLS without the protocol's additions (standardisation, bias)\n\n"
        "Made by `python -m rlsbench.studies.main.investigations protocol` from the paper run "
        "(`config/paper.yaml`: features standardised by the training split, a bias feature of "
        "value 1) and three runs of `config/investigations/protocol_*.yaml` that differ from "
        "it only in `main.standardize` and `main.bias` (same folds, λ grid and selection). "
        "Greedy RLS's test accuracy, mean ± standard deviation over the 10 folds.\n\n"
        + markdown_table(acc)
        + "\nClaim P7 on german.numer (greedy RLS clearly above random selection; the ledger's "
        "rule), in runs of greedy RLS and random selection with the same settings "
        "(`protocol_*_german.yaml`):\n\n" + markdown_table(p7)
    )
    write_markdown(out / "protocol.md", text)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m rlsbench.studies.main.investigations")
    parser.add_argument("name", choices=["protocol"])
    parser.add_argument("--runs", default="results/runs", help="where the variant runs are")
    parser.add_argument("--paper", default="results/paper", help="the committed paper run")
    parser.add_argument("--out", default="results/paper/main/investigations")
    args = parser.parse_args(argv)
    try:
        print(protocol(args.runs, args.paper, args.out))
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
