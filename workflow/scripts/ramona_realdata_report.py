"""Real-data results of Ramona et al. (2012): curves (Fig. 2, 3, 6) and Tables II, IV, VI
beside the paper's numbers."""

import logging

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from rlsbench.benchmark._io import atomic_path, atomic_write_text  # noqa: E402
from rlsbench.studies.ramona.report import (  # noqa: E402
    LABELS,
    method_style,
    paired_tests,
    paired_tests_against,
    plot_order,
    summarize,
    table2,
    table4,
    table6,
    to_markdown,
)

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
experiments = sm.params.experiments
rows = pd.concat([pd.read_csv(p) for p in sm.input], ignore_index=True)
summary = summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"])
with atomic_path(sm.output.rows) as tmp:
    rows.to_csv(tmp, index=False)
with atomic_path(sm.output.summary) as tmp:
    summary.to_csv(tmp, index=False, float_format="%.4f")
# paired t-tests between methods over their shared repetitions (the paper's 5 % tests)
tests = paired_tests(rows)
with atomic_path(sm.output.tests) as tmp:
    tests.to_csv(tmp, index=False, float_format="%.6g")
atomic_write_text(
    sm.output.tests_sas,
    (
        "### SAS against the other methods — paired t-tests over the shared repetitions\n\n"
        "Cells: mean error of SAS minus that of the other method (% points), two-sided paired "
        "t-test p-value; * = significant at 5 %. '—': not run at this S or fewer than 2 shared "
        "repetitions. All pairs: `paired_tests.csv`.\n\n"
    )
    + to_markdown(paired_tests_against(tests, "sas")),
)


def paper_names(table):
    return {
        (e.get("paper") or {}).get("name", e["dataset"]): name
        for name, e in experiments.items()
        if (e.get("paper") or {}).get("table") == table
    }


def header(title, names, quantity="Errors"):
    runs = ", ".join(f"`{v}`" for v in names.values()) or "none in this run"
    return (
        f"{title}\n\nOur experiments: {runs}. Cells '—' were not run in this "
        f"configuration. {quantity} in %, mean ± standard deviation over repetitions.\n\n"
    )


t2 = paper_names("table2")
body = "".join(to_markdown(table2(summary, exp)) for exp in t2.values()) or to_markdown(
    table2(summary, None)
)
atomic_write_text(
    sm.output.table2,
    header("### Table II — 10-class USPS, Gaussian RBF kernel (error %)", t2) + body,
)
t4 = paper_names("table4")
atomic_write_text(
    sm.output.table4,
    header("### Table IV — at Neumann et al.'s feature counts (error %)", t4)
    + to_markdown(table4(summary, t4)),
)
t6 = paper_names("table6")
atomic_write_text(
    sm.output.table6,
    header("### Table VI — 70 % / 30 % splits, Gaussian RBF kernel (accuracy %)", t6, "Accuracies")
    + to_markdown(table6(summary, t6)),
)

curves = [
    (e, k)
    for (e, k), g in summary.groupby(["experiment", "kernel"])
    if g["n_selected"].nunique() > 1
]
ncol = min(3, max(1, len(curves)))
nrow = max(1, int(np.ceil(len(curves) / ncol)))
fig, axes = plt.subplots(nrow, ncol, figsize=(5.5 * ncol, 4 * nrow), squeeze=False)
for ax, (exp, kernel) in zip(axes.flat, curves):
    sub = summary[(summary["experiment"] == exp) & (summary["kernel"] == kernel)]
    # one colour and line style per method in every panel (rlsbench.studies.ramona.report)
    for method in plot_order(sub["method"].unique()):
        g = sub[sub["method"] == method].sort_values("n_selected")
        if method == "svm":
            ax.axhline(g["mean"].iloc[0], label=LABELS["svm"], **method_style(method))
            continue
        ax.plot(
            g["n_selected"],
            g["mean"],
            marker="o",
            ms=3,
            label=LABELS.get(method, method),
            **method_style(method),
        )
    ax.set_title(
        f"{sub['dataset'].iloc[0]} — {kernel} kernel ({exp}, {int(sub['n_repeats'].max())} reps)",
        fontsize=9,
    )
    ax.set_xlabel("Number of features")
    ax.set_ylabel("Mean error rate (%)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
for ax in list(axes.flat)[len(curves) :]:
    ax.axis("off")
if not curves:
    axes.flat[0].text(0.5, 0.5, "no experiment with several S values", ha="center")
fig.tight_layout()
with atomic_path(sm.output.figure) as tmp:
    fig.savefig(tmp, dpi=110, format="png")
logging.info(
    "realdata: %d rows, %d summary lines, %d paired tests, %d curves",
    len(rows),
    len(summary),
    len(tests),
    len(curves),
)
