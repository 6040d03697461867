"""``python -m rlsbench.studies.fidelity TREE [--out DIR]``: write the ledger of a results tree."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rlsbench.studies.fidelity.ledger import CLASS_COLUMNS, summarize, write_ledger
from rlsbench.studies.fidelity.verdicts import VERDICTS


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m rlsbench.studies.fidelity",
        description="Join the papers' transcribed results with a results tree "
        "(results/paper or results/runs/<run>) and judge every row.",
    )
    parser.add_argument("tree", type=Path, help="folder holding the parts' outputs")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: TREE)")
    args = parser.parse_args(argv)
    if not args.tree.is_dir():
        parser.error(f"TREE {args.tree}: no such folder")
    paths = write_ledger(args.tree, args.out)
    counts = summarize_counts(paths[0])
    print(f"wrote {', '.join(str(p) for p in paths)}; items: {counts}")
    return 0


def summarize_counts(ledger_path):
    import pandas as pd

    summary = summarize(pd.read_csv(ledger_path, keep_default_na=False))
    items = summary[(summary["level"] == "item") & (summary["paper"] == "all")].iloc[0]
    classes = ", ".join(
        f"{items[c]} {c.removeprefix('contradicts: ')}" for c in CLASS_COLUMNS if items[c]
    )
    return ", ".join(
        f"{items[v]} {v}" + (f" ({classes})" if v == "contradicts" and classes else "")
        for v in VERDICTS
        if items[v]
    )


if __name__ == "__main__":
    sys.exit(main())
