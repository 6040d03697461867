"""Fig. 1 of Ramona et al. (2012): mean test error vs n on the two toy problems."""

import logging

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rlsbench.benchmark._io import atomic_path  # noqa: E402
from rlsbench.studies.ramona.report import LABELS, method_style, plot_order, summarize  # noqa: E402

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
rows = pd.concat([pd.read_csv(p) for p in sm.input], ignore_index=True)
summary = summarize(rows, ["problem", "kernel", "method", "n_train"])
with atomic_path(sm.output.rows) as tmp:
    rows.to_csv(tmp, index=False)
with atomic_path(sm.output.summary) as tmp:
    summary.to_csv(tmp, index=False, float_format="%.4f")

problems = [p for p in ("linear", "nonlinear") if p in set(summary["problem"])]
fig, axes = plt.subplots(1, len(problems), figsize=(6 * len(problems), 4.5), squeeze=False)
for ax, problem in zip(axes[0], problems):
    sub = summary[summary["problem"] == problem]
    # one colour and line style per method in both panels (rlsbench.studies.ramona.report)
    for method in plot_order(sub["method"].unique()):
        g = sub[sub["method"] == method].sort_values("n_train")
        ax.plot(
            g["n_train"],
            g["mean"],
            marker="o",
            ms=3,
            label=LABELS.get(method, method),
            **method_style(method),
        )
    ax.set_title(
        f"({'ab'[problems.index(problem)]}) {problem} problem "
        f"({'linear' if problem == 'linear' else 'RBF'} kernel), "
        f"{int(sub['n_repeats'].max())} repetitions"
    )
    ax.set_xlabel("Number of samples")
    ax.set_ylabel("Mean error rate (%)")
    ax.set_ylim(0, 55)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
fig.tight_layout()
with atomic_path(sm.output.figure) as tmp:
    fig.savefig(tmp, dpi=120, format="png")
logging.info("toy: %d rows, %d summary lines", len(rows), len(summary))
