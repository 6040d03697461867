"""The greedy RLS paper's answers on the report's first page (:mod:`rlsbench.studies.overview`,
``Part.overview`` of the main part).

Two answers, from the tables of the paper's two parts that ran (a part that did not run says
so):

* **speed** — the speed-up of greedy RLS over each other method measured in this run by the
  scaling part (``speedups.csv``: the largest size where both ran, and the range over all
  sizes), and the main part's mean fit time per method and dataset beside greedy RLS's
  (``summary.csv``);
* **accuracy** — per dataset of the main part, the method(s) with the best test score at the
  number of features chosen by LOO on each training split, mean ± standard deviation over the
  folds (and seeds), beside greedy RLS's (``summary.csv``).

The scaling part's table is read through the results tree (its ``Part.overview_tables``), as
the paper's ledger reads it: the two parts' packages import nothing of each other.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

from rlsbench.studies.overview import (
    Answer,
    category_link,
    compact_table,
    sortable_table,
    times,
)

#: The method every other is timed against.
REFERENCE = "greedy_rls"
#: The tables the answers read: (part, path under its run directory).
SPEEDUPS = ("scaling", "tables/speedups.csv")
SUMMARY = ("main", "tables/summary.csv")


def speedup_summary(speedups: pd.DataFrame) -> pd.DataFrame:
    """Per method: the speed-up of greedy RLS at the largest size where both ran (and the
    times there), and the range of the speed-up over every size measured.

    Parameters
    ----------
    speedups : pandas.DataFrame
        The scaling study's ``speedups.csv``.
    """
    rows = speedups[speedups["kind"] == "greedy_rls_over_method"]
    rows = rows[(rows["status"] == "ok") & (rows["reference_status"] == "ok")]
    rows = rows[np.isfinite(rows["speedup"])]
    out = []
    for method, group in rows.groupby("method", sort=False):
        last = group.sort_values(["size", "threads"], kind="mergesort").iloc[-1]
        out.append(
            {
                "method": method,
                "largest size where both ran": f"{last['vary']} = {int(last['size'])} "
                f"({last['sweep']})",
                "greedy RLS (s)": last["reference_s"],
                "method (s)": last["time_s"],
                "speed-up there": last["speedup"],
                "speed-up, all sizes": f"{times(group['speedup'].min())} – "
                f"{times(group['speedup'].max())} ({len(group)} sizes)",
            }
        )
    return pd.DataFrame(out)


def fit_times(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean fit time of one selection job per (dataset, method) of the main part, and its
    ratio to greedy RLS's on the same dataset (blank where a method was skipped)."""
    ok = summary[summary["status"] != "skipped"].copy()
    ok["fit time (s)"] = pd.to_numeric(ok["fit time (s)"], errors="coerce")
    wide = ok.pivot(index="dataset", columns="method", values="fit time (s)")
    if REFERENCE not in wide:
        return wide.reset_index()
    cells = pd.DataFrame(index=wide.index)
    for method in wide:
        ratio = wide[method] / wide[REFERENCE]
        cells[method] = [
            "–"
            if not np.isfinite(t)
            else f"{t:.3g} s" + ("" if method == REFERENCE else f" ({times(r)})")
            for t, r in zip(wide[method], ratio)
        ]
    order = [REFERENCE] + [m for m in cells if m != REFERENCE]
    return cells[order].reset_index()


def speed_section(speedups: pd.DataFrame | None, summary: pd.DataFrame | None):
    """(headline sentence, HTML section) of the speed-ups."""
    parts, headline = ["<h2>Speed of greedy RLS</h2>"], ""
    if speedups is not None:
        table = speedup_summary(speedups)
        if len(table):
            pieces = [
                f"{times(s)} faster than {html.escape(m)}"
                if s >= 1
                else f"{times(1 / s)} slower than {html.escape(m)}"
                for m, s in zip(table["method"], table["speed-up there"])
            ]
            headline = (
                "<b>Speed</b>: at the largest size where both ran, greedy RLS selects "
                + ", ".join(pieces)
                + " (the method's time over greedy RLS's in this run)."
            )
            metric = ", ".join(sorted(set(speedups["metric"].astype(str)))) or "cpu"
            shown = table.assign(
                **{
                    "greedy RLS (s)": table["greedy RLS (s)"].map(lambda v: f"{v:.3g}"),
                    "method (s)": table["method (s)"].map(lambda v: f"{v:.3g}"),
                    "speed-up there": table["speed-up there"].map(times),
                }
            )
            parts.append(
                "<p>Scaling study (Pahikkala et al., Sec. 4.1, on generated data): median "
                f"selection time ({html.escape(metric)} seconds) of each method divided by "
                "greedy RLS's at the same size and thread count in this run.</p>"
                + sortable_table(
                    shown, "speedups", numeric=["greedy RLS (s)", "method (s)", "speed-up there"]
                )
            )
    if summary is not None and "fit time (s)" in summary:
        parts.append(
            "<p>Main part (Pahikkala et al., Sec. 4.2): mean time of one selection job "
            "(every k up to k_max, one fold or seed) per dataset and method, and in brackets "
            "its ratio to greedy RLS's; “–”: skipped by the time or memory budget.</p>"
            + sortable_table(fit_times(summary), "fit_times", numeric=[])
        )
    if len(parts) == 1:
        return "<b>Speed</b>: neither the scaling study nor the main part ran.", ""
    if not headline:
        headline = "<b>Speed</b>: the main part's fit times per method are below."
    return headline, "\n".join(parts)


_MEAN_SD = re.compile(r"^\s*([-+0-9.eE]+)\s*±\s*([-+0-9.eE]+)\s*$")


def _mean_sd(cell) -> tuple[float, float]:
    match = _MEAN_SD.match(str(cell))
    return (float(match.group(1)), float(match.group(2))) if match else (np.nan, np.nan)


def best_methods(summary: pd.DataFrame) -> pd.DataFrame:
    """Per dataset of the main part: the method(s) with the best test score at the k chosen by
    LOO on each training split (highest accuracy, lowest MSE; methods whose means agree to the
    table's three decimals are tied), with its spread, beside greedy RLS's.

    Parameters
    ----------
    summary : pandas.DataFrame
        The main part's ``summary.csv`` (:func:`rlsbench.benchmark.results.summary_table`).
    """
    rows = []
    ok = summary[summary["status"] != "skipped"]
    for dataset, group in ok.groupby("dataset", sort=True):
        scores = group["at k by LOO"].map(_mean_sd)
        means = scores.map(lambda t: t[0])
        if means.isna().all():
            continue
        metric = str(group["metric"].iloc[0])
        best = means.max() if metric == "accuracy" else means.min()
        tied = group[np.isclose(means, best, rtol=0, atol=5e-4)]
        first = tied.iloc[0]
        reference = group[group["method"] == REFERENCE]
        rows.append(
            {
                "dataset": dataset,
                "metric": "accuracy" if metric == "accuracy" else "MSE",
                "best method(s)": " = ".join(tied["method"]),
                "test score at k by LOO": first["at k by LOO"],
                "k by LOO (mean)": f"{float(first['k by LOO']):.1f}",
                "greedy RLS": reference["at k by LOO"].iloc[0] if len(reference) else "–",
                "with all features": first["at k_max"],
                "runs": int(first["runs"]),
            }
        )
    return pd.DataFrame(rows)


def accuracy_section(summary: pd.DataFrame | None, folds: str = "") -> tuple[str, str]:
    """(headline sentence, HTML section) of the best accuracy per dataset."""
    if summary is None:
        return "<b>Accuracy</b>: the main part did not run.", ""
    table = best_methods(summary)
    if table.empty:
        return "<b>Accuracy</b>: no method of the main part ran to the end.", ""
    headline = (
        f"<b>Accuracy</b>: on {len(table)} dataset(s) of the main part, the best test score at "
        "the k chosen by LOO, per dataset below (mean ± standard deviation over folds and "
        "seeds)."
    )
    section = (
        "<h2>Accuracy: the best method per dataset</h2>\n"
        "<p>Main part (the greedy RLS paper's protocol, Sec. 4.2): test accuracy (MSE for "
        "regression sets) of RLS on the selected features at the number of features k chosen "
        f"by the LOO estimate on each training split; mean ± standard deviation over the {folds}"
        "folds and seeds (column runs). Methods that compute the same selection (greedy RLS, "
        "the low-rank updated LS-SVM, the wrappers) tie.</p>\n"
        + sortable_table(
            table, "accuracy", numeric=["test score at k by LOO", "greedy RLS", "runs"]
        )
    )
    return headline, section


def _fit_time_ratios(summary: pd.DataFrame) -> pd.DataFrame:
    """Per method: its mean fit time over greedy RLS's, the range over the datasets."""
    ok = summary[summary["status"] != "skipped"].copy()
    ok["fit"] = pd.to_numeric(ok["fit time (s)"], errors="coerce")
    wide = ok.pivot(index="dataset", columns="method", values="fit")
    if REFERENCE not in wide:
        return pd.DataFrame()
    rows = []
    for method in wide:
        if method == REFERENCE:
            continue
        ratio = (wide[method] / wide[REFERENCE]).dropna()
        ratio = ratio[np.isfinite(ratio)]
        if ratio.empty:
            continue
        spread = (
            times(ratio.iloc[0])
            if len(ratio) == 1
            else f"{times(ratio.min())} – {times(ratio.max())}"
        )
        rows.append(
            {
                "method": html.escape(method),
                "datasets": str(len(ratio)),
                "time ÷ greedy RLS's": spread,
            }
        )
    return pd.DataFrame(rows)


def speed_first_page(speedups: pd.DataFrame | None, summary: pd.DataFrame | None) -> str:
    """The speed answer on the landing page: the speed-up of greedy RLS over each other method
    (scaling part, at the largest size where both ran; else the main part's fit times)."""
    out = []
    table = speedup_summary(speedups) if speedups is not None else pd.DataFrame()
    if len(table):
        out.append(
            "<p><b>Speed</b>: median selection time of each method over greedy RLS's, "
            "measured in this run (scaling study, at the largest size where both ran; "
            + category_link("Scaling", "Scaling")
            + ").</p>"
        )
        shown = pd.DataFrame(
            {
                "method": table["method"].map(html.escape),
                "size": table["largest size where both ran"].map(
                    lambda s: html.escape(s.split(" (")[0])
                ),
                "time ÷ greedy RLS's": table["speed-up there"].map(times),
            }
        )
        out.append(compact_table(shown, numeric=("time ÷ greedy RLS's",)))
    elif summary is not None and "fit time (s)" in summary:
        ratios = _fit_time_ratios(summary)
        out.append(
            "<p><b>Speed</b>: mean fit time of one selection job per method over greedy "
            "RLS's on the same dataset, measured in this run (main part; the scaling study "
            "did not run).</p>"
        )
        if len(ratios):
            out.append(compact_table(ratios, numeric=("time ÷ greedy RLS's",)))
    else:
        out.append("<p><b>Speed</b>: neither the scaling study nor the main part ran.</p>")
    return "\n".join(out)


def accuracy_first_page(summary: pd.DataFrame | None) -> str:
    """The accuracy answer on the landing page: per dataset, the best method's test score with
    its spread beside greedy RLS's."""
    best = best_methods(summary) if summary is not None else pd.DataFrame()
    if not len(best):
        return "<p><b>Accuracy</b>: the main part did not run.</p>"
    shown = pd.DataFrame(
        {
            "dataset": best["dataset"].map(html.escape) + " (" + best["metric"] + ")",
            "best method": best["best method(s)"].map(
                lambda m: html.escape(m.replace(" = ", ", "))
            ),
            "score": best["test score at k by LOO"].map(html.escape),
            "greedy RLS": best["greedy RLS"].map(html.escape),
        }
    )
    return "\n".join(
        [
            "<p><b>Accuracy</b>: per dataset, the best test score at the number of features "
            "chosen by LOO, mean ± standard deviation over folds and seeds (main part; "
            + category_link("Main", "Main")
            + ").</p>",
            compact_table(shown, numeric=("score", "greedy RLS")),
        ]
    )


def paper_answers(
    speedups: pd.DataFrame | None, summary: pd.DataFrame | None, folds: str = ""
) -> list[Answer]:
    """The speed and accuracy answers from the scaling part's ``speedups.csv`` and the main
    part's ``summary.csv`` (``None``: the part did not run); ``folds`` (e.g. ``"10 "``) is how
    many folds the main part used, for the accuracy caption."""
    speed_head, speed = speed_section(speedups, summary)
    accuracy_head, accuracy = accuracy_section(summary, folds)
    return [
        Answer(speed_head, speed, speed_first_page(speedups, summary)),
        Answer(accuracy_head, accuracy, accuracy_first_page(summary)),
    ]


def answers(tree, sections) -> list[Answer]:
    """The paper's answers on the first page (``Part.overview`` of the main part).

    Parameters
    ----------
    tree : rlsbench.studies.fidelity.ours.RunTree
        The run's tables that the first page may read (those of the parts that ran).
    sections : dict
        Each part's config section (``{}`` when it did not run).
    """
    main = sections.get(SUMMARY[0]) or {}
    folds = f"{main['n_folds']} " if main else ""
    return paper_answers(tree.table(*SPEEDUPS), tree.table(*SUMMARY), folds)
