"""Exponent fits, speed-ups of greedy RLS, per-sweep timings and the paper comparison.

Runs only after the agreement check passed (its table is an input). CSV for machines,
Markdown for the report and the README. Every sweep is timed in its own metric (CPU seconds
as in the paper, or wall seconds for thread comparisons; column ``metric``).
"""

import logging
import math
import sys

import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text
from rlsbench.studies.scaling.experiment import (
    REFERENCE_METHOD,
    fit_exponents,
    read_points,
    speedup_table,
    sweep_frame,
    thread_speedup_table,
    to_markdown,
)

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")
cfg = sm.params.cfg


def write_csv(frame, path):
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


def pm(value, err):
    if math.isnan(value):
        return "–"
    return f"{value:.2f}" if math.isnan(err) else f"{value:.2f} ± {err:.2f}"


points = read_points(sm.input.points)
sweeps = sweep_frame(points, cfg["sweeps"], cfg.get("metric", "cpu"))
expected = {name: spec["exponents"] for name, spec in cfg["methods"].items()}

# Exponent of the swept size on a log-log scale, per method and thread count.
fitted = [name for name, spec in cfg["sweeps"].items() if spec.get("fit", True)]
exponents = fit_exponents(
    sweeps[sweeps["sweep"].isin(fitted)], expected, min_points=cfg.get("fit_min_points", 3)
)
write_csv(exponents, sm.output.exponents_csv)
shown = exponents.assign(
    exponent=[pm(e, s) for e, s in zip(exponents["exponent"], exponents["stderr"])],
    sizes=[
        f"{a}–{b}" if n else "–"
        for a, b, n in zip(exponents["size_min"], exponents["size_max"], exponents["n_points"])
    ],
)[
    [
        "sweep",
        "vary",
        "metric",
        "method",
        "threads",
        "exponent",
        "expected",
        "n_points",
        "sizes",
        "n_skipped",
    ]
]
atomic_write_text(sm.output.exponents_md, to_markdown(shown, floatfmt=".2g"))

# Speed-up of greedy RLS over every other method (same sweep, size, threads, run), and of
# every multi-threaded variant over its single-threaded self.
speedups = speedup_table(sweeps, REFERENCE_METHOD)
threading = thread_speedup_table(sweeps)
write_csv(
    pd.concat(
        [
            speedups.assign(kind="greedy_rls_over_method"),
            threading.assign(kind="threads_over_single"),
        ],
        ignore_index=True,
    ),
    sm.output.speedups_csv,
)


def cell(status, seconds, speedup):
    if status != "ok":
        return status
    return f"{seconds:.3g} s (×{speedup:.3g})" if not math.isnan(speedup) else f"{seconds:.3g} s"


lookup = speedups.set_index(["sweep", "threads", "size", "method"])["speedup"]
wide_rows = []
for (sweep, vary, metric, threads, size), grp in sweeps.groupby(
    ["sweep", "vary", "metric", "threads", "size"]
):
    row = {"sweep": sweep, "metric": metric, "threads": int(threads), "size": f"{vary}={size}"}
    for _, r in grp.iterrows():
        speedup = lookup.get((sweep, threads, size, r["method"]), math.nan)
        row[r["method"]] = cell(r["status"], r["time_s"], speedup)
    wide_rows.append(row)
wide = pd.DataFrame(wide_rows).fillna("")
first = ["sweep", "metric", "threads", "size", REFERENCE_METHOD]
wide = wide[
    [c for c in first if c in wide] + [c for c in cfg["methods"] if c in wide and c not in first]
]
text = (
    "Median selection time over the repeats (metric: cpu = CPU seconds of the process, as in "
    "the paper; wall = elapsed seconds); (×s) = speed-up of greedy RLS: the method's time "
    "divided by greedy RLS's time at the same size and thread count in the same run.\n\n"
    + to_markdown(wide)
)
if len(threading):
    shown_threads = threading[
        [
            "sweep",
            "metric",
            "method",
            "size",
            "threads",
            "threads_used",
            "single_s",
            "time_s",
            "speedup",
        ]
    ]
    text += "\nMulti-threaded over single-threaded (speed-up = single / multi):\n\n" + to_markdown(
        shown_threads
    )
atomic_write_text(sm.output.speedups_md, text)

# Per-sweep timings (the data behind the figures).
timing_cols = [
    "sweep",
    "vary",
    "size",
    "metric",
    "method",
    "threads",
    "threads_used",
    "m",
    "n",
    "k",
    "status",
    "time_s",
    "wall_s",
    "cpu_s",
    "job_s",
    "job_max_rss_mb",
    "n_repeats",
    "predicted_s",
    "reason",
]
write_csv(sweeps[timing_cols], sm.output.timings_csv)
atomic_write_text(sm.output.timings_md, to_markdown(sweeps[timing_cols]))

# The paper's headline point: 50 000 examples, 1000 features, 50 selected.
ref = cfg["paper_reference"]
hit = points[
    (points["method"] == ref["method"])
    & (points["m"] == ref["m"])
    & (points["n"] == ref["n"])
    & (points["k"] == ref["k"])
]
rows = [
    {
        "source": ref["source"],
        "m": ref["m"],
        "n": ref["n"],
        "k": ref["k"],
        "threads": 1,
        "cpu_s": float(ref["seconds"]),
        "wall_s": math.nan,
        "note": ref["note"],
        "paper / ours (cpu)": math.nan,
    }
]
for _, r in hit.sort_values("threads").iterrows():
    ok = r["status"] == "ok"
    rows.append(
        {
            "source": f"this run ({r['method']}, median of {r['n_repeats']})",
            "m": r["m"],
            "n": r["n"],
            "k": r["k"],
            "threads": int(r["threads_used"]),
            "cpu_s": r["cpu_s"] if ok else math.nan,
            "wall_s": r["wall_s"] if ok else math.nan,
            "note": (
                f"whole job incl. start-up and data generation: {r['job_s']:.3g} s wall, "
                f"peak RSS {r['job_max_rss_mb']:.0f} MB"
            )
            if ok
            else r["reason"],
            "paper / ours (cpu)": float(ref["seconds"]) / r["cpu_s"] if ok else math.nan,
        }
    )
if hit.empty:
    rows.append(
        {
            "source": "this run",
            "m": ref["m"],
            "n": ref["n"],
            "k": ref["k"],
            "threads": 0,
            "cpu_s": math.nan,
            "wall_s": math.nan,
            "note": "point not in this config's grid (run config/paper.yaml)",
            "paper / ours (cpu)": math.nan,
        }
    )
paper = pd.DataFrame(rows)
write_csv(paper, sm.output.paper_csv)
atomic_write_text(sm.output.paper_md, to_markdown(paper))
logging.info("exponents:\n%s\npaper comparison:\n%s", shown.to_string(), paper.to_string())
