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

And the numbers of ``results/benchmark/README.md`` (``BENCHMARK-*``: what ran, where the time
went, the cells the budgets skipped, the power of the rank tests), from the files beside it.

Run: ``python docs/readme_headline.py [README.md | results/benchmark/README.md]`` (no
argument: both).
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
        f"{config['n_folds']}-fold CV"
        + (
            f", repeated {config['cv_repeats']} times below {config['cv_repeat_below']} examples"
            if config.get("cv_repeat_below")
            else ""
        )
        + "; committed in `results/benchmark/`, its README gives the wall time and what is "
        "not met). Critical-difference diagrams of the mean test score over k = 1..K "
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
            f"{test['p_chi2'].iloc[0]:.2g}, critical difference "
            f"{test['critical_difference'].iloc[0]:.2f} ranks; against it, the Holm-corrected "
            "Wilcoxon test over "
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


# ---------------------------------------------------------------------------------------------
# results/benchmark/README.md: its numbers, from the files beside it
# ---------------------------------------------------------------------------------------------
#: The reason prefixes of a cell the budgets skipped (``tables/summary.csv``); ``task:`` is a
#: method that does not support the dataset's task, not a skip.
BUDGET_REASONS = ("time:", "memory:")


def _table(frame: pd.DataFrame, **kwargs) -> str:
    return frame.to_markdown(index=False, **kwargs) + "\n"


def benchmark_setup_block(root=BENCHMARK) -> str:
    """What ran: the datasets per task and regime, the methods, the splits of small datasets."""
    from rlsbench.benchmark.datasets.registry import load_registry

    root = Path(root)
    config = __import__("json").loads((root / "provenance.json").read_text())["config"]["main"]
    high = (config.get("statistics") or {}).get("high_dim_features")
    registry = load_registry().as_dicts()
    rows = []
    for name in config["datasets"]:
        entry = registry[name]
        n_features = int((entry.get("expected") or {}).get("n_features") or 0)
        regime = "high" if high and n_features >= high else "low"
        task = "regression" if entry["task"] == "regression" else "classification"
        rows.append({"task": task, "regime": regime, "family": entry.get("family", name)})
    frame = pd.DataFrame(rows)
    counts = (
        frame.groupby(["task", "regime"])
        .agg(datasets=("family", "size"), families=("family", "nunique"))
        .reset_index()
    )
    counts["regime"] = counts["regime"].map(
        {"high": f"≥ {high} features", "low": f"< {high} features"} if high else {"low": "all"}
    )
    alphas = pd.read_csv(root / "tables" / "alphas.csv")
    split_rules = ""
    if "cv_rule" in alphas:
        rules = alphas.dropna(subset=["cv_rule"]).drop_duplicates("dataset")
        repeated = rules[rules["cv_repeats"] > 1]
        folds = rules[rules["cv_folds"] < config["n_folds"]]
        split_rules = (
            f" {len(repeated)} datasets of fewer than {config.get('cv_repeat_below')} examples "
            f"are split {config.get('cv_repeats')} times (repetitions seeded apart)"
            + (
                f"; {len(folds)} datasets have a class too small for {config['n_folds']} "
                "stratified folds and get as many folds as that class has members ("
                + ", ".join(f"{r.dataset}: {int(r.cv_folds)}" for r in folds.itertuples())
                + ")"
                if len(folds)
                else ""
            )
            + ". The rule is the `cv_rule` column of `tables/alphas.csv` and of every job "
            "table."
        )
    return (
        f"{len(config['datasets'])} datasets ({frame['family'].nunique()} sources: datasets "
        "that share a registry `family` count once in the rank tests, by their mean) and "
        f"{len(config['methods'])} methods: "
        + ", ".join(f"`{m}`" for m in config["methods"])
        + ". k goes up to "
        f"{config['k_max']} (every feature of a dataset with fewer).{split_rules}\n\n"
        + _table(counts)
    )


def benchmark_time_block(root=BENCHMARK) -> str:
    """Where the jobs' time went (``tables/runtime.csv``), in all and per method."""
    runtime = pd.read_csv(Path(root) / "tables" / "runtime.csv")
    span = runtime[runtime["stage"] == "all"].iloc[0]
    jobs = runtime[runtime["stage"] != "all"]
    total = jobs["total_s"].sum()
    parts = pd.DataFrame(
        {
            "": [
                "jobs' wall time",
                "the methods' selections",
                "the protocol (λ search, scoring)",
                "outside both",
            ],
            "seconds": [total, *(jobs[c].sum() for c in ("method_s", "protocol_s", "other_s"))],
        }
    )
    parts["share"] = [f"{100 * s / total:.1f} %" for s in parts["seconds"]]
    parts["seconds"] = parts["seconds"].round().astype(int)
    per = (
        jobs.assign(method=jobs["method"].where(jobs["stage"] != "alpha", "(λ search)"))
        .groupby("method", sort=False)[["jobs", "total_s", "method_s", "protocol_s", "other_s"]]
        .sum()
        .sort_values("total_s", ascending=False)
        .reset_index()
    )
    per["outside"] = [
        f"{100 * o / t:.0f} %" if t else "–" for o, t in zip(per["other_s"], per["total_s"])
    ]
    per = per.round({"total_s": 0, "method_s": 0, "protocol_s": 0, "other_s": 0})
    for column in ("total_s", "method_s", "protocol_s", "other_s"):
        per[column] = per[column].astype(int)
    return (
        f"{int(span['jobs'])} jobs ran from the first one's start to the last one's end in "
        f"{span['mean_s'] / 60:.1f} min and add up to {total / 3600:.2f} h "
        "(`tables/runtime.csv`: each job's wall time split into the method's own selection, the "
        "protocol's work around it and the rest: start-up, reading the data, writing the "
        "table):\n\n"
        + _table(parts, colalign=("left", "right", "right"))
        + "\nPer method (seconds over its jobs; *outside*: the share of its jobs' time outside "
        "the method and the protocol):\n\n" + _table(per)
    )


def benchmark_skips_block(root=BENCHMARK) -> str:
    """The cells the budgets skipped, per method, each with its measured reason."""
    summary = pd.read_csv(Path(root) / "tables" / "summary.csv", keep_default_na=False)
    supported = summary[~summary["reason"].str.startswith("task:")]
    budget = supported[supported["reason"].str.startswith(BUDGET_REASONS)]
    other = supported[(supported["status"] != "ok") & ~supported.index.isin(budget.index)]
    rows = []
    for method, cells in supported.groupby("method", sort=True):
        skipped = budget[budget["method"] == method]
        rows.append(
            {
                "method": method,
                "cells of its tasks": len(cells),
                "budget skips": len(skipped),
                "share": f"{100 * len(skipped) / len(cells):.1f} %",
                "where, and the estimate": "; ".join(
                    f"{r.dataset} ({r.reason})" for r in skipped.itertuples()
                ),
            }
        )
    frame = pd.DataFrame(rows)
    worst = frame.loc[frame["budget skips"].idxmax()] if len(frame) else None
    return (
        f"{len(budget)} of the {len(supported)} cells (dataset × method of a supported task) "
        "were skipped by the budgets, which compare each method's cost model with the time and "
        "memory budget per fold before the job runs (the estimate is in the reason)"
        + (
            f"; the most for one method: {worst['budget skips']} of {worst['cells of its tasks']} "
            f"({worst['share']}, `{worst['method']}`)"
            if worst is not None
            else ""
        )
        + (
            f". {len(other)} other cells did not finish: "
            + "; ".join(
                f"{r.dataset}/{r.method} ({r.status}: {r.reason})" for r in other.itertuples()
            )
            if len(other)
            else ". Every other cell finished"
        )
        + ".\n\n"
        + _table(frame)
    )


def benchmark_statistics_block(root=BENCHMARK, method="greedy_rls") -> str:
    """The power of the rank tests: per comparison and operating point, the datasets, methods,
    Friedman's p, the critical difference and where ``method`` ranks."""
    stats = Path(root) / "tables" / "statistics"
    friedman = pd.read_csv(stats / "friedman.csv", keep_default_na=False)
    ranks = pd.read_csv(stats / "ranks.csv")
    rows = []
    for r in friedman.itertuples():
        these = ranks[(ranks["group"] == r.group) & (ranks["operating_point"] == r.operating_point)]
        rows.append(
            {
                "comparison": r.group,
                "operating point": r.operating_point,
                "datasets": r.n_datasets,
                "methods": r.n_methods,
                "Friedman p": f"{float(r.p_chi2):.2g}" if r.p_chi2 != "" else "–",
                "critical difference": (
                    f"{float(r.critical_difference):.2f}" if r.critical_difference != "" else "–"
                ),
                method: _standing(these, method).split(" (")[0],
            }
        )
    return (
        "Per comparison and operating point (`tables/statistics/friedman.csv`, `ranks.csv`; "
        "datasets counted after merging families, critical difference of the Nemenyi test "
        "at α = 0.05 in ranks):\n\n" + _table(pd.DataFrame(rows))
    )


BENCHMARK_BLOCKS = {
    "BENCHMARK-SETUP": benchmark_setup_block,
    "BENCHMARK-TIME": benchmark_time_block,
    "BENCHMARK-SKIPS": benchmark_skips_block,
    "BENCHMARK-STATISTICS": benchmark_statistics_block,
}
#: The files this script writes into, with their blocks.
TARGETS = {"README.md": BLOCKS, "results/benchmark/README.md": BENCHMARK_BLOCKS}


def block_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- {name} -->\n)(.*?)(<!-- /{name} -->)", re.S)


def render(readme: str, blocks=None, name="README.md") -> str:
    """``readme`` with every block of ``blocks`` (default: the README's headline blocks)
    replaced by what the files say now."""
    for block, make in (BLOCKS if blocks is None else blocks).items():
        pattern = block_pattern(block)
        if not pattern.search(readme):
            raise ValueError(f"{name}: no <!-- {block} --> … <!-- /{block} --> block")
        readme = pattern.sub(lambda m, make=make: m.group(1) + make() + m.group(3), readme)
    return readme


if __name__ == "__main__":
    # no argument: every target; else the files named (relative to the repository)
    names = sys.argv[1:] or list(TARGETS)
    for name in names:
        relative = Path(name).resolve().relative_to(REPO).as_posix()
        if relative not in TARGETS:
            raise SystemExit(f"{name}: not one of {', '.join(TARGETS)}")
        target = REPO / relative
        target.write_text(render(target.read_text(), TARGETS[relative], relative))
        print(f"updated {', '.join(TARGETS[relative])} in {relative}")
