"""Fig. 1: training time and test NMSE against the training size, one line per method."""

import logging

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rlsbench.benchmark._io import atomic_path, atomic_write_text  # noqa: E402
from rlsbench.studies.sunyao.experiments import LABELS  # noqa: E402

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
frame = pd.concat([pd.read_csv(path) for path in sm.input.runs], ignore_index=True)
entry = sm.params.entry

fig, (ax_time, ax_nmse) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
for method, g in frame.groupby("method", sort=False):
    ok = g[g["status"] == "ok"]
    label = LABELS[method]
    ax_time.plot(ok["n_train"], ok["fit_s"], marker="o", label=label)
    ax_nmse.plot(ok["n_train"], ok["nmse"], marker="o", label=label)
    stop = g[g["status"].isin(["over_time", "over_memory"])]
    if len(stop):
        row = stop.iloc[0]
        ax_time.axvline(row["n_train"], color=ax_time.lines[-1].get_color(), ls=":", lw=1)
        logging.info("%s stops at n = %d (%s)", method, row["n_train"], row["reason"])
ax_time.set(
    xlabel="training size n",
    ylabel="training time (CPU s, 1 thread)",
    yscale="log",
    title=f"{entry['dataset']}: training time",
)
ax_nmse.set(
    xlabel="training size n", ylabel="test NMSE", title=f"test NMSE on {entry['n_test']} examples"
)
ax_time.legend(loc="lower right")
ax_time.text(
    0.01,
    0.99,
    f"budget {entry['time_budget_s']} s, {entry['memory_budget_mb']} MB "
    "(dotted: first size over budget)",
    transform=ax_time.transAxes,
    fontsize=7,
    va="top",
)
with atomic_path(sm.output.png) as tmp:
    fig.savefig(tmp, dpi=120, format="png")

cols = ["n_train", "method", "status", "fit_s", "nmse", "n_basis", "k_max", "memory_mb_estimate"]
table = frame[cols].sort_values(["n_train", "method"], kind="stable")
lines = ["| n | method | status | CPU time (s) | NMSE | basis vectors | k_max |", "|---" * 7 + "|"]
for r in table.itertuples():

    def fmt(v, spec):
        return "–" if pd.isna(v) else format(v, spec)

    lines.append(
        f"| {r.n_train} | {LABELS[r.method]} | {r.status} | {fmt(r.fit_s, '.3g')} | "
        f"{fmt(r.nmse, '.4f')} | {fmt(r.n_basis, '.0f')} | {fmt(r.k_max, '.0f')} |"
    )
atomic_write_text(sm.output.md, "\n".join(lines) + "\n")
with atomic_path(sm.output.csv) as tmp:
    frame.to_csv(tmp, index=False)
