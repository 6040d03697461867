"""The jobs of the scaling study's rules (``workflow/rules.smk`` here): files in, files out.

* :func:`point_job` — one timing point, once per repeat of ``benchmark: repeat(...)``;
* :func:`collect_job` — every point record and its benchmark into ``points.csv``;
* :func:`agreement_job` — the methods' selections compared (fails on a disagreement);
* :func:`tables_job` — exponents, speed-ups, timings and the paper's headline point;
* :func:`figure_job` — time against the swept size for one sweep (Figs. 1-3).
"""

from __future__ import annotations

import json
import logging
import math
import platform
from pathlib import Path

import pandas as pd

from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import markdown_table, write_csv, write_markdown
from rlsbench.benchmark.workflow import JobError
from rlsbench.studies.scaling.experiment import (
    REFERENCE_METHOD,
    Point,
    add_repeat,
    agreement_table,
    check_agreement,
    fit_exponents,
    get_scaling_method,
    point_record,
    points_frame,
    read_points,
    speedup_table,
    sweep_frame,
    thread_speedup_table,
    time_selection,
)

log = logging.getLogger(__name__)


def process_usage() -> dict:
    """CPU seconds (user + system, its finished workers included) and peak resident memory
    (MB) of this process since it started (a child of the job server: since its fork)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "cpu_s": own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime,
        # Linux reports kilobytes
        "max_rss_mb": max(own.ru_maxrss, workers.ru_maxrss) / 1024.0,
    }


def point_job(record, *, point, settings, threads, bench_iteration=0):
    """Time one point (one repeat per call) and write its record (JSON).

    Snakemake's ``benchmark: repeat(..., N)`` runs the job N times in a row;
    ``bench_iteration`` says which call this is. The first call starts the record; every call
    appends its in-process selection time, so the record ends with one time per repeat
    (Snakemake removes a job's outputs before the first call, never between repeats). Only
    points within the budget are jobs (:func:`~rlsbench.studies.scaling.experiment.run_points`).

    Parameters
    ----------
    record : str
        The point's record (JSON), read back by later repeats.
    point : dict
        Fields of :class:`~rlsbench.studies.scaling.experiment.Point` (without its sweeps).
    settings : dict
        ``alpha``, ``seed``, ``timeout_s`` (the hard limit of the point's method, wall
        seconds) and ``timeout_key`` (the config key it came from).
    threads : int
        Threads of the job (at least the point's own count unless ``exclusive``).
    bench_iteration : int

    Raises
    ------
    JobError
        The selection ran past ``timeout_s``: the job fails rather than record a row that
        would depend on the machine's speed.
    """
    from rlsbench.numerics.synthetic import make_two_gaussians

    point = Point(**point)
    out = Path(record)
    threads_used = min(point.threads, int(threads))
    if bench_iteration > 0 and out.exists():
        rec = json.loads(out.read_text())
    else:
        rec = point_record(
            point, alpha=settings["alpha"], seed=settings["seed"], threads_used=threads_used
        )
        rec["host"] = platform.node()

    X, y = make_two_gaussians(point.m, point.n, seed=settings["seed"])
    result = time_selection(
        get_scaling_method(point.method).select,
        X,
        y,
        k=point.k,
        alpha=settings["alpha"],
        threads=threads_used,
        timeout_s=settings["timeout_s"],
    )
    if result["status"] != "ok":
        raise JobError(
            f"scaling point {point.key}: {result['reason']} (config key "
            f"{settings['timeout_key']}); the budget is in estimated flops, so lower "
            f"scaling.methods.{point.method}.max_flops or raise the limit"
        )
    add_repeat(rec, result)
    # the job's own process (a fresh interpreter, or a child forked by the job server): its
    # CPU time and peak memory, which Snakemake's benchmark sees only for a process it started
    usage = process_usage()
    rec.setdefault("process_cpu_s", []).append(usage["cpu_s"])
    rec.setdefault("process_max_rss_mb", []).append(usage["max_rss_mb"])
    log.info(
        "%s repeat %d: %.4f s wall, %.4f s cpu, %d thread(s)",
        point.key,
        bench_iteration,
        result["wall_s"],
        result["cpu_s"],
        threads_used,
    )
    atomic_write_text(out, json.dumps(rec, indent=1) + "\n")


def collect_job(records, benchmarks, points, provenance_json, *, plan, section):
    """Every planned point, its budget decision and (for a point that ran) its record and
    Snakemake benchmark into one tidy table (``points.csv``), and the run's provenance (JSON).

    ``records`` and ``benchmarks`` are in the order of the points of ``plan`` that run.
    """
    ran = [row["key"] for row in plan if row["status"] == "ok"]
    if len(ran) != len(records) or len(ran) != len(benchmarks):
        raise JobError(
            f"scaling_collect: {len(records)} record(s) and {len(benchmarks)} benchmark(s) "
            f"for {len(ran)} point(s) that run"
        )
    recs = {key: json.loads(Path(path).read_text()) for key, path in zip(ran, records)}
    benches = {key: pd.read_csv(path, sep="\t") for key, path in zip(ran, benchmarks)}
    frame = points_frame(plan, recs, benches)
    write_csv(frame, points)
    log.info("%d points: %s", len(frame), frame["status"].value_counts().to_dict())
    info = provenance(section, section.get("seed"))
    info["hosts_of_points"] = sorted({r.get("host", "") for r in recs.values()})
    atomic_write_text(provenance_json, json.dumps(info, indent=1, default=str) + "\n")


def agreement_job(points, csv, md, *, excluded):
    """Check that all methods made the same selections wherever more than one ran.

    Raises :class:`~rlsbench.studies.scaling.experiment.SelectionDisagreement` (nothing
    written) when a comparable method disagrees, naming the points.
    """
    table = agreement_table(read_points(points), excluded=excluded)
    log.info("agreement table:\n%s", table.to_string())
    check_agreement(table)
    compared = table[table["compared_by"] != "excluded"]
    summary = (
        f"{len(compared)} comparison(s) at "
        f"{compared[['m', 'n', 'k']].drop_duplicates().shape[0]} size(s): all identical. "
        f"Excluded (other criterion): {', '.join(excluded) or 'none'}."
    )
    log.info(summary)
    write_csv(table, csv)
    write_markdown(md, summary + "\n\n" + markdown_table(table, floatfmt=".3g"))


def _pm(value, err):
    if math.isnan(value):
        return "–"
    return f"{value:.2f}" if math.isnan(err) else f"{value:.2f} ± {err:.2f}"


def _cell(status, seconds, speedup):
    if status != "ok":
        return status
    return f"{seconds:.3g} s (×{speedup:.3g})" if not math.isnan(speedup) else f"{seconds:.3g} s"


#: Columns of ``timings.csv``: one row per (sweep, point).
SWEEP_COLUMNS = [
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
    "estimated_flops",
    "budget_flops",
    "reason",
]


def tables_job(
    points,
    agreement,
    exponents_csv,
    exponents_md,
    speedups_csv,
    speedups_md,
    timings_csv,
    timings_md,
    paper_csv,
    paper_md,
    *,
    settings,
):
    """Exponent fits, speed-ups of greedy RLS, per-sweep timings and the paper comparison.

    Runs only after the agreement check passed (``agreement`` is an input for that reason).
    CSV for machines, Markdown for the report and the README. Every sweep is timed in its own
    metric (CPU seconds as in the paper, or wall seconds for thread comparisons; column
    ``metric``).

    Parameters
    ----------
    points, agreement : str
        ``points.csv`` and ``agreement.csv``.
    exponents_csv, ..., paper_md : str
        Output paths.
    settings : dict
        The ``scaling`` section.
    """
    cfg = settings
    pts = read_points(points)
    sweeps = sweep_frame(pts, cfg["sweeps"], cfg.get("metric", "cpu"))
    expected = {name: spec["exponents"] for name, spec in cfg["methods"].items()}

    # Exponent of the swept size on a log-log scale, per method and thread count.
    fitted = [name for name, spec in cfg["sweeps"].items() if spec.get("fit", True)]
    exponents = fit_exponents(
        sweeps[sweeps["sweep"].isin(fitted)], expected, min_points=cfg.get("fit_min_points", 3)
    )
    write_csv(exponents, exponents_csv)
    shown = exponents.assign(
        exponent=[_pm(e, s) for e, s in zip(exponents["exponent"], exponents["stderr"])],
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
    write_markdown(exponents_md, markdown_table(shown, floatfmt=".2g"))

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
        speedups_csv,
    )
    lookup = speedups.set_index(["sweep", "threads", "size", "method"])["speedup"]
    wide_rows = []
    for (sweep, vary, metric, threads, size), grp in sweeps.groupby(
        ["sweep", "vary", "metric", "threads", "size"]
    ):
        row = {"sweep": sweep, "metric": metric, "threads": int(threads), "size": f"{vary}={size}"}
        for _, r in grp.iterrows():
            speedup = lookup.get((sweep, threads, size, r["method"]), math.nan)
            row[r["method"]] = _cell(r["status"], r["time_s"], speedup)
        wide_rows.append(row)
    wide = pd.DataFrame(wide_rows).fillna("")
    first = ["sweep", "metric", "threads", "size", REFERENCE_METHOD]
    wide = wide[
        [c for c in first if c in wide]
        + [c for c in cfg["methods"] if c in wide and c not in first]
    ]
    text = (
        "Median selection time over the repeats (metric: cpu = CPU seconds of the process, as "
        "in the paper; wall = elapsed seconds); (×s) = speed-up of greedy RLS: the method's "
        "time divided by greedy RLS's time at the same size and thread count in the same "
        "run.\n\n" + markdown_table(wide, floatfmt=".3g")
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
        text += (
            "\nMulti-threaded over single-threaded (speed-up = single / multi):\n\n"
            + markdown_table(shown_threads, floatfmt=".3g")
        )
    write_markdown(speedups_md, text)

    # Per-sweep timings (the data behind the figures).
    write_csv(sweeps[SWEEP_COLUMNS], timings_csv)
    write_markdown(timings_md, markdown_table(sweeps[SWEEP_COLUMNS], floatfmt=".3g"))

    paper = paper_table(pts, cfg["paper_reference"])
    write_csv(paper, paper_csv)
    write_markdown(paper_md, markdown_table(paper, floatfmt=".3g"))
    log.info("exponents:\n%s\npaper comparison:\n%s", shown.to_string(), paper.to_string())


def paper_table(points: pd.DataFrame, ref: dict) -> pd.DataFrame:
    """The paper's headline point (50 000 examples, 1000 features, 50 selected) beside ours.

    Parameters
    ----------
    points : DataFrame
        ``points.csv``.
    ref : dict
        ``scaling.paper_reference``: method, m, n, k, seconds, source, note.
    """
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
            "job_s": math.nan,
            "job_max_rss_mb": math.nan,
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
                "job_s": r["job_s"] if ok else math.nan,
                "job_max_rss_mb": r["job_max_rss_mb"] if ok else math.nan,
                "note": "job_s, job_max_rss_mb: the whole job incl. data generation"
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
                "job_s": math.nan,
                "job_max_rss_mb": math.nan,
                "note": "point not in this config's grid (run config/paper.yaml)",
                "paper / ours (cpu)": math.nan,
            }
        )
    return pd.DataFrame(rows)


def figure_job(points, agreement, figure, *, sweep, scale, settings, labels):
    """Running time against the swept size for one sweep (Figs. 1-3 of the greedy RLS paper).

    One line per method and thread count: median selection time over the repeats in the
    sweep's metric (CPU seconds as in the paper, or wall seconds), bars from the fastest to
    the slowest repeat. Points over the budget are not drawn; the timings table
    lists them with their reason.
    """
    from matplotlib.ticker import FuncFormatter, NullFormatter

    from rlsbench.benchmark import figures

    spec = settings["sweeps"][sweep]
    metric = spec.get("metric", settings.get("metric", "cpu"))
    data = sweep_frame(read_points(points), {sweep: spec}, metric)
    ok = data[data["status"] == "ok"]

    fig, ax = figures.subplots(aspect=0.62)
    for (method, threads), grp in ok.groupby(["method", "threads"], sort=True):
        grp = grp.sort_values("size")
        ax.errorbar(
            grp["size"],
            grp["time_s"],
            yerr=[grp["time_s"] - grp["time_s_min"], grp["time_s_max"] - grp["time_s"]],
            # the threads, not the method, choose the line style here
            **{
                **figures.method_style(method),
                "linestyle": "-" if threads == 1 else "--",
            },
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
    lines = ok.groupby(["method", "threads"]).ngroups
    if lines > 3:  # more entries than a corner holds without hiding points: below the panel
        figures.legend_below(fig, ncols=2)
    elif lines:
        ax.legend(fontsize=8)
    figures.save_figure(fig, figure)
    log.info("%s %s: %d points drawn, %d not run", sweep, scale, len(ok), len(data) - len(ok))
