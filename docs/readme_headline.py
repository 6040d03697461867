"""The README's headline tables, made from the committed measurements (``make readme``).

- ``HEADLINE-SPEED``: the ratio table of ``make bench`` (``benchmarks/results/greedy_rls.md``,
  written by ``benchmarks/bench_greedy_rls.py --markdown``);
- ``HEADLINE-FIDELITY``: the fidelity ledger's counts per paper, *contradicts* split by whose
  it is (``results/paper/fidelity_summary.csv``, written by the ``fidelity`` rule);
- ``HEADLINE-BENCHMARK``: the reference benchmark's critical-difference diagrams and where
  greedy RLS ranks (``results/benchmark/``, published by ``main_publish`` with
  ``config/benchmark.yaml``).

Each block sits between ``<!-- NAME -->`` and ``<!-- /NAME -->``; ``tests/test_docs.py``
checks that the README holds exactly what this script makes, so a number on the front page
cannot drift from the files it comes from.

Run: ``python docs/readme_headline.py [README.md]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
SPEED = REPO / "benchmarks" / "results" / "greedy_rls.md"
FIDELITY = REPO / "results" / "paper" / "fidelity_summary.csv"
BENCHMARK = REPO / "results" / "benchmark"
#: The operating point the headline shows (the mean test score over k = 1..K).
BENCHMARK_POINT = "auc"
_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def paper_names() -> dict[str, str]:
    """The ledger's paper keys as a reader knows them (the installed parts' citations), and
    ``all``."""
    from rlsbench.benchmark.parts import papers

    names = papers()
    return {**names, "all": f"all {_COUNTS.get(len(names), len(names))}"}


def speed_block(path=SPEED) -> str:
    return (
        "**Greedy RLS against the alternatives** (`make bench`, every time measured in the same "
        "run on this repository's 2-core test machine; the ratio column is each one's time "
        "over rlsbench's):\n\n" + Path(path).read_text().strip() + "\n"
    )


#: Column headers of the README's tables for the classes of a contradiction (the full names
#: are the ledger's, ``rlsbench.studies.fidelity.investigations.CLASSES``).
SHORT = {
    "paper disagrees with itself": "✗ paper's own",
    "within noise": "✗ noise",
    "our setting": "✗ our setting",
    "implementation differs": "✗ implementation",
    "not borne out": "✗ not borne out",
    "hardware": "✗ hardware",
    "not investigated": "✗ not investigated",
}


def fidelity_block(path=FIDELITY) -> str:
    from rlsbench.studies.fidelity import split_by_whose
    from rlsbench.studies.fidelity.investigations import CLASSES

    summary = pd.read_csv(path)
    names = paper_names()
    parts = []
    levels = {
        "item": "numbered tables and figures of the papers",
        "claim": "claims stated in the papers' text",
    }
    # the classes of either table, in both: the two tables have the same columns
    columns = split_by_whose(summary[summary["level"].isin(list(levels))])
    shown = {c.removeprefix("contradicts: ") for c in columns}
    for level, title in levels.items():
        table = summary[summary["level"] == level].set_index("paper")[columns]
        if level == "claim":  # a claim holds or not: "match" (a number) does not apply
            table = table.drop(columns="match").rename(columns={"same conclusion": "holds"})
        # narrow headers: the classes are defined in the sentence above the tables
        table = table.rename(columns=lambda c: SHORT.get(c.removeprefix("contradicts: "), c))
        table.index = [names.get(p, p) for p in table.index]
        table.index.name = "paper"
        parts.append(f"*{title.capitalize()}*, by verdict:\n\n" + table.to_markdown() + "\n")
    classes = "; ".join(f"*{SHORT.get(c, c)}*: {what}" for c, what in CLASSES.items() if c in shown)
    return (
        "**How the papers fare** (the fidelity ledger, `results/paper/fidelity_summary.csv`; "
        "a verdict comes from a written rule, not by hand). A result that contradicts its paper "
        "(✗: a number or figure that contradicts, a claim that does not hold) is split by whose "
        f"it is, from the causes found: {classes}.\n\n" + "\n".join(parts)
    )


def _standing(ranks: pd.DataFrame, method: str) -> str:
    """'2nd of 19 (average rank 4.21 over 13 datasets)' for ``method`` in one comparison."""
    ordered = ranks.sort_values("average_rank", kind="mergesort").reset_index(drop=True)
    row = ordered[ordered["method"] == method]
    if row.empty:
        return "not in the comparison"
    place = int(row.index[0]) + 1
    ties = int((ordered["average_rank"] == row["average_rank"].iloc[0]).sum())
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    tied = f", tied with {ties - 1} other{'s' if ties > 2 else ''}" if ties > 1 else ""
    return (
        f"{place}{suffix} of {len(ordered)}{tied} (average rank "
        f"{row['average_rank'].iloc[0]:.2f} over {int(row['n_datasets'].iloc[0])} datasets)"
    )


def _names(methods) -> str:
    if not methods:
        return "no method"
    return ", ".join(f"`{m}`" for m in methods)


def benchmark_block(root=BENCHMARK, point=BENCHMARK_POINT, method="greedy_rls") -> str:
    root = Path(root)
    stats = root / "tables" / "statistics"
    ranks = pd.read_csv(stats / "ranks.csv")
    friedman = pd.read_csv(stats / "friedman.csv")
    wilcoxon = pd.read_csv(stats / "wilcoxon.csv")
    from rlsbench.studies.main.statistics import group_words

    config = __import__("json").loads((root / "provenance.json").read_text())["config"]["main"]
    high = (config.get("statistics") or {}).get("high_dim_features")
    regimes = (
        f" Each task is also compared within its regimes: high-dimensional (at least {high} "
        "features) and low-dimensional datasets."
        if high
        else ""
    )
    lines = [
        f"**The reference benchmark** (`config/benchmark.yaml`: {len(config['methods'])} "
        f"methods on {len(config['datasets'])} public datasets under the protocol above, "
        f"{config['n_folds']}-fold CV; committed in `results/benchmark/`, its README gives the "
        "wall time). Critical-difference diagrams of the mean test score over k = 1..K "
        f"(K = {config['k_max']}, or every feature of a smaller dataset; accuracy for "
        "classification, held-out R² for regression; a bar joins the methods the Nemenyi test "
        f"at α = 0.05 cannot tell apart).{regimes}",
        "",
    ]
    sentences = []
    first = ranks["group"].iloc[0]
    for group in dict.fromkeys(ranks["group"]):
        these = ranks[(ranks["group"] == group) & (ranks["operating_point"] == point)]
        png = f"results/benchmark/figures/statistics/cd_{group}_{point}.png"
        if group == first:  # the first comparison's diagram shown, the others linked
            lines += [f"![{group}, {point}]({png})", ""]
        test = friedman[(friedman["group"] == group) & (friedman["operating_point"] == point)]
        vs = wilcoxon[(wilcoxon["group"] == group) & (wilcoxon["operating_point"] == point)]
        worse = sorted(vs.loc[vs["significant"] & (vs["median_difference"] < 0), "method"])
        better = sorted(vs.loc[vs["significant"] & (vs["median_difference"] > 0), "method"])
        sentences.append(
            f"on {group_words(group)}{f' ([its diagram]({png}))' if group != first else ''} "
            "it ranks "
            f"{_standing(these, method)}, Friedman p = "
            f"{test['p_chi2'].iloc[0]:.2g}; against it, the Holm-corrected Wilcoxon test over "
            f"the datasets finds {_names(worse)} significantly worse and {_names(better)} "
            "significantly better"
        )
    lines.append("Greedy RLS, at this operating point: " + "; ".join(sentences) + ".")
    return "\n".join(lines) + "\n"


BLOCKS = {
    "HEADLINE-SPEED": speed_block,
    "HEADLINE-FIDELITY": fidelity_block,
    "HEADLINE-BENCHMARK": benchmark_block,
}


def block_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- {name} -->\n)(.*?)(<!-- /{name} -->)", re.S)


def render(readme: str) -> str:
    """``readme`` with every headline block replaced by what the files say now."""
    for name, make in BLOCKS.items():
        pattern = block_pattern(name)
        if not pattern.search(readme):
            raise ValueError(f"README.md: no <!-- {name} --> … <!-- /{name} --> block")
        readme = pattern.sub(lambda m, make=make: m.group(1) + make() + m.group(3), readme)
    return readme


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "README.md"
    target.write_text(render(target.read_text()))
    print(f"updated {', '.join(BLOCKS)} in {target}")
