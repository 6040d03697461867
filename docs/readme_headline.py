"""The README's headline tables, made from the committed measurements (``make readme``).

- ``HEADLINE-SPEED``: the ratio table of ``make bench`` (``benchmarks/results/greedy_rls.md``,
  written by ``benchmarks/bench_greedy_rls.py --markdown``);
- ``HEADLINE-FIDELITY``: the fidelity ledger's counts per paper
  (``results/paper/fidelity_summary.csv``, written by the ``fidelity`` rule).

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
VERDICTS = [
    "match",
    "same conclusion",
    "inconclusive",
    "contradicts",
    "not public",
    "not run",
    "total",
]
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


def fidelity_block(path=FIDELITY) -> str:
    summary = pd.read_csv(path)
    names = paper_names()
    parts = []
    for level, title in (
        ("item", "numbered tables and figures of the papers"),
        ("claim", "claims stated in the papers' text"),
    ):
        table = summary[summary["level"] == level].set_index("paper")[VERDICTS]
        if level == "claim":  # a claim holds or not: "match" (a number) does not apply
            table = table.drop(columns="match").rename(
                columns={"same conclusion": "holds", "contradicts": "does not hold"}
            )
        table.index = [names.get(p, p) for p in table.index]
        table.index.name = "paper"
        parts.append(f"*{title.capitalize()}*, by verdict:\n\n" + table.to_markdown() + "\n")
    return (
        "**How the papers fare** (the fidelity ledger, `results/paper/fidelity_summary.csv`; "
        "a verdict comes from a written rule, not by hand):\n\n" + "\n".join(parts)
    )


BLOCKS = {"HEADLINE-SPEED": speed_block, "HEADLINE-FIDELITY": fidelity_block}


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
