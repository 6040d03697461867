"""The main part's statistics across datasets (the ``main.statistics`` config section): its
check, its output files and the job of the ``main_statistics`` rule.

The numbers come from :mod:`rlsbench.benchmark.statistics`; this module only chooses the
operating points the config names, runs every test at each and writes the tables, the
Markdown summary and one critical-difference diagram per operating point.
"""

from __future__ import annotations

import logging

import pandas as pd

from rlsbench.benchmark import statistics as st
from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.results import read_step_table
from rlsbench.benchmark.tables import markdown_table, write_csv, write_markdown

log = logging.getLogger(__name__)

#: The tables of the rule, under ``tables/statistics/`` of the part's run directory.
TABLES = (
    "scores",
    "ranks",
    "friedman",
    "posthoc_nemenyi",
    "posthoc_holm",
    "wilcoxon",
    "bayes",
    "stability",
)


def operating_points(section: dict) -> list[str]:
    """The operating points ``main.statistics.operating_points`` names, in a fixed order:
    ``fixed_k<K>``, ``loo_k``, ``auc`` (also the stems of the diagrams' file names)."""
    points = section.get("operating_points", {})
    names = [f"fixed_k{points['fixed_k']}"] if points.get("fixed_k") is not None else []
    return names + [name for name in ("loo_k", "auc") if points.get(name, False)]


def stability_k(section: dict) -> int | None:
    """k at which the stability is measured: ``stability_k``, else the fixed-k point's k."""
    k = section.get("stability_k")
    return k if k is not None else section.get("operating_points", {}).get("fixed_k")


def check(main: dict) -> dict:
    """The ``main.statistics`` section of a validated ``main`` section, checked ({} when absent).

    Raises
    ------
    ConfigError
        The reference is not a method of the run, no operating point is chosen, or no k is
        given for the stability; the message names the key.
    """
    section = main.get("statistics") or {}
    if not main or not section:
        return {}
    if section["reference"] not in main["methods"]:
        raise ConfigError(
            f"config key main.statistics.reference: {section['reference']!r} is not in "
            f"main.methods ({', '.join(main['methods'])})"
        )
    if not operating_points(section):
        raise ConfigError(
            "config key main.statistics.operating_points: choose at least one of fixed_k: K, "
            "loo_k: true, auc: true"
        )
    if stability_k(section) is None:
        raise ConfigError(
            "config key main.statistics.stability_k: give the k at which the stability of the "
            "selected sets is measured (or operating_points.fixed_k)"
        )
    return section


def outputs(section: dict) -> dict[str, object]:
    """The rule's outputs relative to the part's run directory: one file per table, the
    Markdown summary, and one diagram (PNG; :func:`rlsbench.benchmark.figures.figure_files`
    adds the vector files) per operating point. Empty when the section is absent."""
    if not section:
        return {}
    files: dict[str, object] = {name: f"tables/statistics/{name}.csv" for name in TABLES}
    files["md"] = "tables/statistics/summary.md"
    files["cd"] = [f"figures/statistics/cd_{point}.png" for point in operating_points(section)]
    return files


def target_files(section: dict) -> list[str]:
    """:func:`outputs` as one flat list (the part's targets when the section is present)."""
    files = outputs(section)
    return [f for name, f in files.items() if name != "cd"] + list(files.get("cd", []))


def score_matrix(steps: pd.DataFrame, point: str) -> pd.DataFrame:
    """The datasets × methods test accuracy at one operating point (:func:`operating_points`)."""
    if point.startswith("fixed_k"):
        return st.at_fixed_k(steps, int(point.removeprefix("fixed_k")))
    if point == "loo_k":
        return st.at_loo_k(steps)
    if point == "auc":
        return st.auc_over_k(steps)
    raise ValueError(f"unknown operating point {point!r}")


def _one_point(steps, point, section):
    """Every test at one operating point: the tables' rows and the diagram's inputs."""
    alpha = section["alpha"]
    scores = score_matrix(steps, point)
    long = scores.rename_axis("dataset").reset_index().melt("dataset", var_name="method")
    out = {"scores": long.rename(columns={"value": "score"})}
    complete = st.complete_cases(scores)
    kept = complete.scores
    row = {
        "n_datasets": kept.shape[0],
        "n_methods": kept.shape[1],
        "dropped_datasets": "; ".join(map(str, complete.dropped_datasets)),
        "dropped_methods": "; ".join(map(str, complete.dropped_methods)),
        "alpha": alpha,
        "reason": "",
    }
    diagram = None
    try:
        ranks = st.average_ranks(kept)
        out["ranks"] = ranks.rename_axis("method").reset_index().assign(n_datasets=kept.shape[0])
        result = st.friedman(kept)
        cd = st.critical_difference(kept.shape[1], kept.shape[0], alpha)
        row.update(result._asdict(), critical_difference=cd)
        nemenyi = st.nemenyi(kept)
        out["posthoc_nemenyi"] = st.pairs_table(nemenyi, alpha)
        out["posthoc_holm"] = st.pairs_table(st.holm_wilcoxon(kept), alpha)
        diagram = (ranks, nemenyi, cd)
    except st.StatisticsInputError as exc:
        row["reason"] = str(exc)
    out["friedman"] = pd.DataFrame([row])
    reference = section["reference"]
    if reference in scores.columns and scores[reference].notna().any():
        out["wilcoxon"] = st.wilcoxon_vs_reference(scores, reference, alpha=alpha)
        out["bayes"] = st.bayesian_signed_rank(
            scores,
            reference,
            rope=section["rope"],
            nsamples=section["bayes_samples"],
            random_state=section["seed"],
        )
    return out, diagram


def _draw(png, point, diagram, reason, alpha):
    from rlsbench.benchmark.figures import save_figure, subplots

    if diagram is None:
        # the file the rule promises, saying why there is no diagram
        fig, ax = subplots(aspect=0.2)
        ax.set_axis_off()
        ax.text(0.5, 0.5, f"{point}: no diagram. {reason}", ha="center", va="center", wrap=True)
    else:
        ranks, p_values, cd = diagram
        title = f"{point}: average ranks, Nemenyi at α = {alpha}"
        fig = st.plot_critical_difference(ranks, p_values, cd, alpha=alpha, title=title)
    save_figure(fig, png)


def _summary(tables: dict, points: list[str], section: dict) -> str:
    lines = [
        "# Statistics across datasets (main part)",
        "",
        "Test accuracy per (dataset, method) as the mean over folds and seeds at each operating "
        "point; ranks 1 = best. Friedman: scipy's χ²_F (corrected for ties) and the "
        "Iman-Davenport F_F. Post-hoc: Nemenyi (scikit-posthocs) and pairwise Wilcoxon, Holm-"
        "corrected. Against the reference "
        f"`{section['reference']}`: Wilcoxon signed-rank (Holm) and the Bayesian signed-rank "
        f"test (baycomp) with rope ±{section['rope']}: p_left = the method better, p_right = "
        "the reference better. Datasets where a method has no score are left out of the "
        "rank-based tests (listed as dropped).",
        "",
    ]
    for point in points:
        lines += [f"## {point}", ""]
        friedman = tables["friedman"].query("operating_point == @point")
        lines += [markdown_table(friedman.drop(columns="operating_point"), floatfmt=".4g"), ""]
        for name in ("ranks", "wilcoxon", "bayes"):
            frame = tables[name]
            if not frame.empty:
                part = frame[frame["operating_point"] == point].drop(columns="operating_point")
                if not part.empty:
                    lines += [f"### {name}", "", markdown_table(part, floatfmt=".4g"), ""]
    stability = tables["stability"]
    lines += [f"## Stability of the selected sets (k = {stability_k(section)})", ""]
    lines += [
        "Nogueira, Sechidis & Brown (2018) index over the runs (folds × seeds), with its "
        f"{100 * (1 - section['alpha']):.0f}% confidence interval; 1 = the same features in "
        "every run, 0 = no more alike than chance.",
        "",
        markdown_table(stability, floatfmt=".4g"),
    ]
    return "\n".join(lines)


def statistics_job(steps, md, cd, *, settings, **tables):
    """Write the statistics across datasets of the main part's step table.

    Parameters
    ----------
    steps : str
        The merged step table (``tables/steps.csv``).
    md : str
        The Markdown summary.
    cd : list of str
        One critical-difference diagram (PNG) per operating point, in the order of
        :func:`operating_points`.
    settings : dict
        The checked ``main.statistics`` section.
    **tables : str
        The CSV files, one per name of :data:`TABLES`.
    """
    if sorted(tables) != sorted(TABLES):
        raise TypeError(f"statistics_job writes the tables {TABLES}, got {sorted(tables)}")
    frame = read_step_table(steps)
    points = operating_points(settings)
    if len(cd) != len(points):
        raise ValueError(f"{len(cd)} diagram file(s) for the operating points {points}")
    parts: dict[str, list] = {name: [] for name in TABLES if name != "stability"}
    for point, png in zip(points, cd, strict=True):
        out, diagram = _one_point(frame, point, settings)
        for name, table in out.items():
            parts[name].append(table.assign(operating_point=point))
        _draw(png, point, diagram, out["friedman"]["reason"].iloc[0], settings["alpha"])
    result = {
        name: _leading(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
        for name, frames in parts.items()
    }
    result["stability"] = st.stability_table(frame, stability_k(settings), alpha=settings["alpha"])
    for name, path in tables.items():
        write_csv(result[name], path)
    write_markdown(md, _summary(result, points, settings))
    log.info("statistics at %s: %s", ", ".join(points), ", ".join(tables.values()))


def _leading(frame: pd.DataFrame) -> pd.DataFrame:
    """The operating point as the first column."""
    return frame[["operating_point", *[c for c in frame if c != "operating_point"]]]
