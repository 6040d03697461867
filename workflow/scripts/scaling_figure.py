"""Running time against the swept size for one sweep (Figs. 1-3 of the greedy RLS paper).

One line per method and thread count: median selection time over the repeats in the sweep's
metric (CPU seconds as in the paper, or wall seconds), bars from the fastest to the slowest
repeat. Points that were skipped or timed out are not drawn; they are
listed in the timings table with their reason.
"""

import logging
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

from rlsbench.benchmark._io import atomic_path  # noqa: E402
from rlsbench.studies.scaling.experiment import read_points, sweep_frame  # noqa: E402

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")

sweep, scale = sm.wildcards.sweep, sm.wildcards.scale
spec = sm.params.cfg["sweeps"][sweep]
labels = sm.params.labels
metric = spec.get("metric", sm.params.cfg.get("metric", "cpu"))
data = sweep_frame(read_points(sm.input.points), {sweep: spec}, metric)
ok = data[data["status"] == "ok"]

fig, ax = plt.subplots(figsize=(6.4, 4.4), layout="constrained")
for (method, threads), grp in ok.groupby(["method", "threads"], sort=True):
    grp = grp.sort_values("size")
    ax.errorbar(
        grp["size"],
        grp["time_s"],
        yerr=[grp["time_s"] - grp["time_s_min"], grp["time_s_max"] - grp["time_s"]],
        marker="o",
        markersize=4,
        capsize=2,
        linestyle="-" if threads == 1 else "--",
        label=f"{labels.get(method, method)} "
        f"({'1 thread' if threads == 1 else f'{threads} threads'})",
    )
fixed = ", ".join(f"{key} = {value}" for key, value in spec["fixed"].items())
ax.set_xlabel(
    {"m": "training examples m", "n": "features n", "k": "selected features k"}[spec["vary"]]
)
ax.set_ylabel(f"{'CPU' if metric == 'cpu' else 'wall-clock'} seconds (median of repeats)")
ax.set_title(f"{spec.get('title', sweep)} ({fixed})", fontsize=10)
if scale == "log":
    ax.set_xscale("log")
    ax.set_yscale("log")
    # sizes as plain numbers (500, 1000, ...) rather than powers of ten
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ticks = sorted(data["size"].unique())
    if len(ticks) <= 12:
        ax.set_xticks(ticks)
ax.grid(True, which="both", alpha=0.3)
if len(ok):
    ax.legend(fontsize=8)
with atomic_path(sm.output[0]) as tmp:
    fig.savefig(tmp, dpi=120, format="png")
logging.info("%s %s: %d points drawn, %d not run", sweep, scale, len(ok), len(data) - len(ok))
