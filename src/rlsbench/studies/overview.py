"""The first page of the report: what a run found, from the parts' own tables.

Three answers, each from the tables of the parts that ran (a part that did not run says so):

* **fidelity to the papers** — the ledger's verdict counts per paper for the numbered tables
  and figures and for the claims in words, the verdict of every numbered table and figure with
  its reason, and every claim with the verdicts of its checked scopes
  (:mod:`rlsbench.studies.fidelity`, ``fidelity.csv``);
* **speed** — the speed-up of greedy RLS over each other method measured in this run by the
  scaling study (``speedups.csv``: the largest size where both ran, and the range over all
  sizes), and the main part's mean fit time per method and dataset beside greedy RLS's
  (``summary.csv``);
* **accuracy** — per dataset of the main part, the method(s) with the best test score at the
  number of features chosen by LOO on each training split, mean ± standard deviation over the
  folds (and seeds), beside greedy RLS's (``summary.csv``).

:func:`overview_job` writes it as one HTML page (:func:`rlsbench.benchmark.views.page`); the
report shows it as its first page (``workflow/report/workflow.rst``) and as the result "At a
glance".
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

from rlsbench.benchmark._io import atomic_write_text
from rlsbench.benchmark.parts import papers
from rlsbench.benchmark.views import page
from rlsbench.studies.fidelity.transcription import load_claims
from rlsbench.studies.fidelity.verdicts import VERDICTS

log = logging.getLogger(__name__)

#: Background colour of each verdict.
VERDICT_COLOURS = {
    "match": "#b7e4c7",
    "same conclusion": "#d8f3dc",
    "inconclusive": "#e5dbff",
    "contradicts": "#ffc9c9",
    "not public": "#e9ecef",
    "not run": "#fff3bf",
}
REFERENCE = "greedy_rls"

_CSS = """
.rlsbench-view .verdict { padding: 0 .35em; border-radius: 3px; white-space: nowrap;
  line-height: 1.9; }
.rlsbench-view .legend .verdict { margin-right: .4em; }
.rlsbench-view ul.answers li { margin: .25em 0; }
.rlsbench-view .answers b { font-weight: 600; }
"""


def _verdict_html(verdict: str, text: str | None = None) -> str:
    colour = VERDICT_COLOURS.get(verdict, "#ffffff")
    label = html.escape(verdict if text is None else text)
    return (
        f'<span class="verdict" style="background:{colour}" title="{html.escape(verdict)}">'
        f"{label}</span>"
    )


def times(ratio: float) -> str:
    """A speed-up as a reader says it: ×1.5, ×12, ×155, ×7,890."""
    return f"×{ratio:,.0f}" if ratio >= 100 else f"×{ratio:.2g}"


def _table(frame: pd.DataFrame, ident: str, *, escape=True, numeric=()) -> str:
    """A small sortable table (pandas Styler) in the classes of the table views."""
    frame = frame.reset_index(drop=True)
    styler = Styler(frame, uuid=ident, cell_ids=False)
    styler.hide(axis="index")
    styler.format(escape="html" if escape else None, na_rep="–")
    if numeric:
        classes = pd.DataFrame(
            [["num" if c in numeric else "" for c in frame.columns]] * len(frame),
            index=frame.index,
            columns=frame.columns,
        )
        styler.set_td_classes(classes)
    styler.set_table_attributes(f'id="{ident}" class="sortable"')
    return f'<div class="table-wrap">{styler.to_html()}</div>'


# ---------------------------------------------------------------------------------------------
# Fidelity
# ---------------------------------------------------------------------------------------------
def verdict_counts(ledger: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per paper (rows, plus "all") for the numbered tables and figures and the
    claims (column groups), from the ledger's ``item`` and ``claim`` rows."""
    known = papers()
    blocks = {}
    for level, title in (("item", "tables and figures"), ("claim", "claim checks")):
        rows = ledger[ledger["level"] == level]
        counts = pd.crosstab(rows["paper"], rows["verdict"]).reindex(
            index=[p for p in known if p in set(ledger["paper"])], columns=VERDICTS, fill_value=0
        )
        counts.loc["all"] = counts.sum()
        counts["total"] = counts.sum(axis=1)
        blocks[title] = counts
    table = pd.concat(blocks, axis=1)
    table.index = [known.get(p, p) for p in table.index]
    return table.fillna(0).astype(int)


def item_verdicts(ledger: pd.DataFrame) -> pd.DataFrame:
    """One row per numbered table and figure: paper, item, verdict, reason."""
    items = ledger[ledger["level"] == "item"]
    known = papers()
    return pd.DataFrame(
        {
            "paper": items["paper"].map(lambda p: known.get(p, p)),
            "item": items["item"],
            "verdict": items["verdict"],
            "why": items["reason"].fillna(""),
        }
    )


def claim_verdicts(ledger: pd.DataFrame, claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per claim in words: paper, id, the claim, and how many of its checked scopes
    got each verdict (the ledger has one row per scope)."""
    if claims is None:
        claims = load_claims()
    rows = ledger[ledger["level"] == "claim"]
    text = claims.set_index(["paper", "claim_id"])["claim"]
    known = papers()
    out = []
    for (paper, cid), group in rows.groupby(["paper", "claim_id"], sort=False):
        counts = group["verdict"].value_counts()
        out.append(
            {
                "paper": known.get(paper, paper),
                "claim": cid,
                "what the paper says": text.get((paper, cid), ""),
                "verdicts of its scopes": ", ".join(
                    f"{int(counts[v])} {v}" for v in VERDICTS if v in counts
                ),
                "worst": next(v for v in ("contradicts", *VERDICTS) if v in counts),
            }
        )
    return pd.DataFrame(out)


def fidelity_section(ledger: pd.DataFrame | None) -> tuple[str, str]:
    """(headline sentence, HTML section) of the fidelity ledger."""
    if ledger is None:
        return (
            "<b>Fidelity</b>: the ledger was not computed in this run (no part it reads ran).",
            "",
        )
    items = ledger[ledger["level"] == "item"]["verdict"].value_counts()
    claims = ledger[ledger["level"] == "claim"]["verdict"].value_counts()

    def spell(counts):
        return ", ".join(f"{int(counts.get(v, 0))} {v}" for v in VERDICTS)

    headline = (
        f"<b>Fidelity to the papers</b>: of {int(items.sum())} numbered tables and figures, "
        f"{spell(items)}; of {int(claims.sum())} checked scopes of the papers' claims in "
        f"words, {spell(claims)}."
    )
    counts = verdict_counts(ledger)
    counts_html = _table(
        counts.reset_index(names="paper").set_axis(
            pd.MultiIndex.from_tuples([("", "paper"), *counts.columns]), axis=1
        ),
        "fidelity_counts",
        numeric=list(counts.columns),
    )
    item_table = item_verdicts(ledger)
    chips = (
        item_table.groupby("paper", sort=False)
        .apply(
            lambda g: " ".join(_verdict_html(v, i) for i, v in zip(g["item"], g["verdict"])),
            include_groups=False,
        )
        .rename("tables and figures, coloured by verdict")
        .reset_index()
    )
    legend = '<p class="legend">' + "".join(_verdict_html(v) for v in VERDICTS) + "</p>"
    item_table["verdict"] = item_table["verdict"].map(_verdict_html)
    item_table["why"] = item_table["why"].map(html.escape)
    claim_table = claim_verdicts(ledger)
    claim_table["worst"] = claim_table["worst"].map(_verdict_html)
    for col in ("paper", "claim", "what the paper says", "verdicts of its scopes"):
        claim_table[col] = claim_table[col].map(lambda v: html.escape(str(v)))
    section = (
        "<h2>Fidelity to the papers</h2>\n"
        "<p>Verdicts of the fidelity ledger: every numbered table and figure of the four papers "
        "and every claim they make in words, judged against this run by written rules "
        "(<em>match</em>: within the spread of our repetitions or the paper's precision; "
        "<em>same conclusion</em>: the paper's ordering or claim holds, the numbers differ; "
        "<em>inconclusive</em>: within the spread of our own repetitions, or a measured "
        "exponent whose confidence interval straddles the claim's threshold; "
        "<em>contradicts</em>; <em>not public</em>: the data are not available; "
        "<em>not run</em>: not in this run's configuration). Every cell and series with its "
        "reason: the Fidelity category.</p>\n"
        + counts_html
        + "<h3>Numbered tables and figures</h3>\n"
        + legend
        + _table(chips, "fidelity_chips", escape=False)
        + "<details><summary>Every numbered table and figure with the reason of its verdict"
        + "</summary>\n"
        + _table(item_table, "fidelity_items", escape=False)
        + "</details>\n"
        + f"<details><summary>The {len(claim_table)} claims in words</summary>\n"
        + _table(claim_table, "fidelity_claims", escape=False)
        + "</details>\n"
    )
    return headline, section


# ---------------------------------------------------------------------------------------------
# Speed
# ---------------------------------------------------------------------------------------------
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
                + _table(
                    shown, "speedups", numeric=["greedy RLS (s)", "method (s)", "speed-up there"]
                )
            )
    if summary is not None and "fit time (s)" in summary:
        parts.append(
            "<p>Main part (Pahikkala et al., Sec. 4.2): mean time of one selection job "
            "(every k up to k_max, one fold or seed) per dataset and method, and in brackets "
            "its ratio to greedy RLS's; “–”: skipped by the time or memory budget.</p>"
            + _table(fit_times(summary), "fit_times", numeric=[])
        )
    if len(parts) == 1:
        return "<b>Speed</b>: neither the scaling study nor the main part ran.", ""
    if not headline:
        headline = "<b>Speed</b>: the main part's fit times per method are below."
    return headline, "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Accuracy
# ---------------------------------------------------------------------------------------------
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
        + _table(table, "accuracy", numeric=["test score at k by LOO", "greedy RLS", "runs"])
    )
    return headline, section


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------
def overview_html(
    *,
    ledger: pd.DataFrame | None,
    speedups: pd.DataFrame | None,
    summary: pd.DataFrame | None,
    run: str,
    configfiles=(),
    folds: str = "",
) -> str:
    """The first page as one HTML document (see the module text)."""
    fid_head, fid = fidelity_section(ledger)
    speed_head, speed = speed_section(speedups, summary)
    acc_head, acc = accuracy_section(summary, folds)
    config = ", ".join(f"<code>{html.escape(str(c))}</code>" for c in configfiles) or "–"
    answers = "".join(f"<li>{h}</li>" for h in (fid_head, speed_head, acc_head))
    body = (
        f"<style>{_CSS}</style>\n"
        "<p>rlsbench reruns four papers on wrapper feature selection with regularized least "
        f"squares. This page answers what run <code>{html.escape(run)}</code> (config {config}) "
        "found; every table and figure behind it is in the categories of this report.</p>\n"
        f'<ul class="answers">{answers}</ul>\n' + fid + speed + acc
    )
    return page("At a glance: what this run found", body)


# ---------------------------------------------------------------------------------------------
# The report's landing page
# ---------------------------------------------------------------------------------------------
# Snakemake's report puts the workflow description (workflow/report/workflow.rst) into its
# landing page with innerHTML, inside a column 32 rem wide beside the rule graph, and embeds it
# in a <script> as a JSON string: the fragment holds no <script> (a "</script>" in it ends the
# report's own script and blanks the page) and no <style> (it would restyle the whole report),
# only elements with inline styles, and tables of at most four columns.
_CELL = "padding:.15em .5em;border-bottom:1px solid #e4e7eb;vertical-align:top;"
_NUM = _CELL + "text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;"


def _compact_table(frame: pd.DataFrame, numeric=()) -> str:
    """A small HTML table with inline styles; cells are HTML already."""
    head = "".join(
        f'<th style="{_NUM if c in numeric else _CELL}">{html.escape(str(c))}</th>' for c in frame
    )
    rows = "".join(
        "<tr>"
        + "".join(f'<td style="{_NUM if c in numeric else _CELL}">{v}</td>' for c, v in row.items())
        + "</tr>"
        for _, row in frame.iterrows()
    )
    return (
        '<table style="border-collapse:collapse;margin:.3em 0 .8em;font-size:.95em">'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _category_link(category: str, text: str) -> str:
    # app.showCategory is the report's own navigation (the links its RST captions get)
    return f"<a href=\"javascript:app.showCategory('{category}')\">{html.escape(text)}</a>"


def first_page_html(
    *,
    ledger: pd.DataFrame | None,
    speedups: pd.DataFrame | None,
    summary: pd.DataFrame | None,
) -> str:
    """The answers of the overview as an HTML fragment for the report's landing page.

    Three short sections, each a sentence and a table of at most four columns: the fidelity
    ledger's verdict counts (tables and figures, claim checks), the speed-up of greedy RLS over
    each other method (scaling study at the largest size where both ran, else the main part's
    fit times), and per dataset the best method's test score with its spread beside greedy
    RLS's. The parts that did not run are named as such.
    """
    out = ['<div class="rlsbench-first" id="rlsbench-first">']
    # fidelity
    if ledger is None:
        out.append("<p><b>Fidelity to the papers</b>: the ledger was not computed.</p>")
    else:
        items = ledger[ledger["level"] == "item"]["verdict"].value_counts()
        claims = ledger[ledger["level"] == "claim"]["verdict"].value_counts()
        counts = pd.DataFrame(
            {
                "verdict": [_verdict_html(v) for v in VERDICTS] + ["<b>total</b>"],
                "tables and figures": [int(items.get(v, 0)) for v in VERDICTS] + [int(items.sum())],
                "claim checks": [int(claims.get(v, 0)) for v in VERDICTS] + [int(claims.sum())],
            }
        )
        confirmed = int(items.get("match", 0) + items.get("same conclusion", 0))
        out.append(
            "<p><b>Fidelity to the papers</b>: "
            f"{confirmed} of {int(items.sum())} numbered tables and figures of the four papers "
            f"confirmed (match or same conclusion), {int(items.get('contradicts', 0))} "
            f"contradicted; of {int(claims.sum())} checks of their claims in words, "
            f"{int(claims.get('match', 0) + claims.get('same conclusion', 0))} confirmed, "
            f"{int(claims.get('contradicts', 0))} contradicted, "
            f"{int(claims.get('inconclusive', 0))} inconclusive (within our own runs' spread). "
            "Every row with its reason: " + _category_link("Fidelity", "Fidelity") + ".</p>"
        )
        out.append(_compact_table(counts, numeric=("tables and figures", "claim checks")))
    # speed
    table = speedup_summary(speedups) if speedups is not None else pd.DataFrame()
    if len(table):
        out.append(
            "<p><b>Speed</b>: median selection time of each method over greedy RLS's, "
            "measured in this run (scaling study, at the largest size where both ran; "
            + _category_link("Scaling", "Scaling")
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
        out.append(_compact_table(shown, numeric=("time ÷ greedy RLS's",)))
    elif summary is not None and "fit time (s)" in summary:
        ratios = _fit_time_ratios(summary)
        out.append(
            "<p><b>Speed</b>: mean fit time of one selection job per method over greedy "
            "RLS's on the same dataset, measured in this run (main part; the scaling study "
            "did not run).</p>"
        )
        if len(ratios):
            out.append(_compact_table(ratios, numeric=("time ÷ greedy RLS's",)))
    else:
        out.append("<p><b>Speed</b>: neither the scaling study nor the main part ran.</p>")
    # accuracy
    best = best_methods(summary) if summary is not None else pd.DataFrame()
    if len(best):
        out.append(
            "<p><b>Accuracy</b>: per dataset, the best test score at the number of features "
            "chosen by LOO, mean ± standard deviation over folds and seeds (main part; "
            + _category_link("Main", "Main")
            + ").</p>"
        )
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
        out.append(_compact_table(shown, numeric=("score", "greedy RLS")))
    else:
        out.append("<p><b>Accuracy</b>: the main part did not run.</p>")
    out.append(
        "<p>All of it with every table behind it: "
        + _category_link("At a glance", "At a glance")
        + ".</p></div>"
    )
    return "\n".join(out)


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


def _read(path):
    return pd.read_csv(path) if path else None


def overview_job(
    overview,
    first_page,
    *,
    run,
    configfiles,
    folds="",
    ledger=None,
    speedups=None,
    summary=None,
):
    """Write the overview page (:func:`overview_html`) and the report's landing-page fragment
    (:func:`first_page_html`) from the tables of the parts that ran.

    Parameters
    ----------
    overview : str
        The HTML page written (the report's result "At a glance").
    first_page : str
        The HTML fragment written (the report's landing page, ``workflow/report/workflow.rst``).
    run : str
        The run's name.
    configfiles : list of str
        The run's config file(s).
    folds : str
        How many folds the main part used (e.g. ``"10 "``), for the accuracy caption.
    ledger, speedups, summary : str, optional
        ``fidelity.csv``, the scaling study's ``speedups.csv`` and the main part's
        ``summary.csv``; absent when the part did not run.
    """
    tables = {"ledger": _read(ledger), "speedups": _read(speedups), "summary": _read(summary)}
    text = overview_html(**tables, run=run, configfiles=configfiles, folds=folds)
    atomic_write_text(overview, text)
    log.info("%s (%d bytes)", Path(overview), len(text))
    fragment = first_page_html(**tables)
    atomic_write_text(first_page, fragment)
    log.info("%s (%d bytes)", Path(first_page), len(fragment))
