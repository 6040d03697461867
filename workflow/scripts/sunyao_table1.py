"""Table 1: test MSE ± std (basis vectors) per dataset and method, beside the paper's values."""

import json
import logging

import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text
from rlsbench.studies.sunyao.experiments import hyper_markdown, summarize_table1, table1_markdown

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
splits = pd.concat([pd.read_csv(path) for path in sm.input.runs], ignore_index=True)
summary = summarize_table1(splits)
shapes = {
    d: (int(g["n_features"].iloc[0]), int(g["n_train"].iloc[0]), int(g["n_test"].iloc[0]))
    for d, g in splits.groupby("dataset", sort=False)
}
note = (
    "\n`ours`: this run (features standardized on each training set, targets centred; the "
    "dataset's `target` setting says whether they were also scaled). `p`: paired t-test of the "
    "RVM's test MSE against Forward's over the splits. Failed or non-converged fits and "
    "outliers (MSE > 2× the method's median) are counted in table1.csv, not removed.\n"
)
hypers = {}
for path in sm.input.hyper:
    with open(path) as f:
        hypers[path.rsplit("/", 1)[-1].removesuffix(".json")] = json.load(f)
choices = (
    "\n**CV choices** (5-fold CV on the subset; r/d is the grid's width factor):\n\n"
    + hyper_markdown(hypers, {d: shape[0] for d, shape in shapes.items()})
)
atomic_write_text(sm.output.md, table1_markdown(summary, shapes) + note + choices)
with atomic_path(sm.output.csv) as tmp:
    summary.to_csv(tmp, index=False)
with atomic_path(sm.output.splits) as tmp:
    splits.to_csv(tmp, index=False)
logging.info("\n%s", summary.to_string())
