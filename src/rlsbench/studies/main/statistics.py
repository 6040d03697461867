"""The main part's statistics across datasets (the ``main.statistics`` config section): its
check, its output files and the job of the ``main_statistics`` rule.

The numbers come from :mod:`rlsbench.benchmark.statistics`; this module only chooses the
operating points the config names, runs every test at each and writes the tables, the
Markdown summary and one critical-difference diagram per operating point.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import NamedTuple

from rlsbench.benchmark import statistics as st
from rlsbench.benchmark.config import ConfigError
from rlsbench.lazy import lazy_module

# the rule files call check() and outputs() while Snakemake reads them: pandas (and the table
# modules, which import it) on first use, in the jobs
pd = lazy_module("pandas")

log = logging.getLogger(__name__)

#: The comparisons of ``by_task: true`` (the default): name -> (tasks, test score, LOO column to
#: maximise). Regression is scored by the held-out R² (scale-free, so datasets are
#: commensurable in the signed-rank tests and the rope) and its k chosen by the smallest LOO
#: MSE.
TASK_GROUPS = {
    "classification": (("binary", "multiclass"), "test_accuracy", "loo_accuracy"),
    "regression": (("regression",), "test_r2", "loo_neg_mse"),
}
#: The one comparison of ``by_task: false`` (test accuracy over every dataset that has one: a
#: regression dataset drops out, and :func:`check` warns).
ALL = {"all": (None, "test_accuracy", "loo_accuracy")}
#: ``main.statistics.by_task`` when the config does not say (the schema's default).
BY_TASK = True


class Comparison(NamedTuple):
    """One comparison across datasets: the tasks of its datasets (None: every dataset), the
    step table's test score and the LOO column that chooses k, and, for a regime, the names of
    its datasets (None: every dataset of the tasks)."""

    tasks: tuple | None
    score: str
    loo: str
    datasets: tuple | None = None


#: The regimes of ``main.statistics.high_dim_features``: suffix of the comparison's name and
#: whether its datasets have at least that many features.
REGIMES = {"low": False, "high": True}
#: The fewest datasets a regime's comparison needs (a rank test on one dataset says nothing).
MIN_REGIME_DATASETS = 2

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


def groups(section: dict) -> dict[str, tuple]:
    """The comparisons the section asks for: with ``by_task`` (the default), the
    :data:`TASK_GROUPS` of the tasks the run has (``section["groups"]``, set by :func:`check`
    from the registry; every group when it is not known), else :data:`ALL`."""
    if not section.get("by_task", BY_TASK):
        return {name: Comparison(*value) for name, value in ALL.items()}
    present = section.get("groups", list(TASK_GROUPS))
    out = {}
    for name in TASK_GROUPS:
        if name not in present:
            continue
        out[name] = Comparison(*TASK_GROUPS[name])
        # the regimes apart (high_dim_features; check() names their datasets)
        for regime, members in (section.get("regimes") or {}).get(name, {}).items():
            out[f"{name}_{regime}"] = Comparison(*TASK_GROUPS[name], datasets=tuple(members))
    return out


def regimes(main: dict, datasets: Mapping, threshold: int) -> dict[str, dict[str, list]]:
    """``{task group: {"low": [...], "high": [...]}}``: the run's datasets of each task group
    with fewer than ``threshold`` features and with at least that many (the registry entries'
    ``expected.n_features``), for the groups where both regimes have
    :data:`MIN_REGIME_DATASETS` datasets or more."""
    out = {}
    for group, (tasks, _, _) in TASK_GROUPS.items():
        split: dict[str, list] = {regime: [] for regime in REGIMES}
        for name in main.get("datasets", []):
            entry = datasets.get(name) or {}
            n_features = (entry.get("expected") or {}).get("n_features")
            if entry.get("task") not in tasks or n_features is None:
                continue
            high = n_features >= threshold
            split[next(r for r, is_high in REGIMES.items() if is_high == high)].append(name)
        if all(len(members) >= MIN_REGIME_DATASETS for members in split.values()):
            out[group] = {regime: sorted(members) for regime, members in split.items()}
    return out


def diagram_stems(section: dict) -> list[str]:
    """One stem per (comparison, operating point), in the order the job draws them:
    ``<point>`` where the run has one comparison, ``<group>_<point>`` where it has two
    (classification and regression, ``by_task``)."""
    points = operating_points(section)
    compared = groups(section)
    if len(compared) == 1:
        return points
    return [f"{group}_{point}" for group in compared for point in points]


def task_groups(main: dict, datasets: Mapping) -> list[str] | None:
    """The :data:`TASK_GROUPS` that the run's datasets (``main.datasets``) fall in, by their
    registry entries' ``task``; None when a dataset's task is not known."""
    tasks = [(datasets.get(name) or {}).get("task") for name in main.get("datasets", [])]
    if not tasks or None in tasks:
        return None
    return [name for name, (members, _, _) in TASK_GROUPS.items() if set(members) & set(tasks)]


def left_out(main: dict, datasets: Mapping) -> list[str]:
    """The run's datasets that ``by_task: false`` leaves out of the statistics: those with no
    test accuracy (regression)."""
    return [
        name
        for name in main.get("datasets", [])
        if (datasets.get(name) or {}).get("task") == "regression"
    ]


def left_out_warning(names) -> str:
    """The one line that says which datasets ``by_task: false`` leaves out, and the key."""
    return (
        f"main.statistics: the regression dataset(s) {', '.join(names)} have no test accuracy "
        "and are left out of the statistics and their diagrams (by_task: false); set "
        "main.statistics.by_task: true to compare them on the held-out R²"
    )


def stability_k(section: dict) -> int | None:
    """k at which the stability is measured: ``stability_k``, else the fixed-k point's k."""
    k = section.get("stability_k")
    return k if k is not None else section.get("operating_points", {}).get("fixed_k")


def shared_families(main: dict, datasets: Mapping) -> dict[str, str]:
    """``{dataset: family}`` for the run's datasets that share their registry ``family`` with
    another dataset of the run (ALLAML and leukemia: the same patients): the tests across
    datasets count such a family once, by the mean of its members' scores."""
    members: dict[str, list] = {}
    for name in main.get("datasets", []):
        entry = datasets.get(name) or {}
        members.setdefault(entry.get("family", name), []).append(name)
    return {name: family for family, names in members.items() if len(names) > 1 for name in names}


def by_family(scores: pd.DataFrame, families: Mapping[str, str]) -> pd.DataFrame:
    """Datasets × methods scores with the datasets of one family merged into one row (named by
    the family), the mean of theirs; a method missing on any member is missing for the family.
    Datasets not in ``families`` keep their row."""
    if not families:
        return scores
    key = pd.Index([families.get(name, name) for name in scores.index], name=scores.index.name)
    mean = scores.groupby(key, sort=False).mean()
    missing = scores.isna().groupby(key, sort=False).any()
    return mean.mask(missing)


def check(main: dict, datasets: Mapping | None = None) -> dict:
    """The ``main.statistics`` section of a validated ``main`` section, checked ({} when absent).

    Parameters
    ----------
    main : dict
        The validated ``main`` section.
    datasets : mapping, optional
        The dataset registry (name -> entry): with ``by_task``, the section returned names the
        comparisons of the tasks the run has (``groups``), so that a classification-only run
        draws no regression diagram; with ``by_task: false``, a regression dataset of the run
        is left out, and a warning says so (:func:`left_out_warning`).

    Raises
    ------
    ConfigError
        The reference is not a method of the run, no operating point is chosen, or no k is
        given for the stability; the message names the key.
    """
    section = main.get("statistics") or {}
    if not main or not section:
        return {}
    if datasets:
        if section.get("by_task", BY_TASK):
            present = task_groups(main, datasets)
            if present:
                section = {**section, "groups": present}
        elif names := left_out(main, datasets):
            log.warning(left_out_warning(names))
        if families := shared_families(main, datasets):  # only then: other runs' params stay
            section = {**section, "families": families}
        threshold = section.get("high_dim_features")
        if threshold is not None and section.get("by_task", BY_TASK):
            if split := regimes(main, datasets, threshold):
                section = {**section, "regimes": split}
            else:
                log.warning(
                    "main.statistics.high_dim_features: %d: no task of the run has %d or more "
                    "datasets on each side, so no regime is compared apart",
                    threshold,
                    MIN_REGIME_DATASETS,
                )
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
    files["cd"] = [f"figures/statistics/cd_{stem}.png" for stem in diagram_stems(section)]
    return files


def target_files(section: dict) -> list[str]:
    """:func:`outputs` as one flat list (the part's targets when the section is present)."""
    files = outputs(section)
    return [f for name, f in files.items() if name != "cd"] + list(files.get("cd", []))


def score_matrix(
    steps: pd.DataFrame, point: str, *, score: str = "test_accuracy", loo: str = "loo_accuracy"
) -> pd.DataFrame:
    """The datasets × methods test score at one operating point (:func:`operating_points`).

    ``score`` is the step table's column compared (higher is better), ``loo`` the training
    split's column whose maximum chooses k at ``loo_k``."""
    if point.startswith("fixed_k"):
        return st.at_fixed_k(steps, int(point.removeprefix("fixed_k")), score=score)
    if point == "loo_k":
        return st.at_loo_k(steps, score=score, loo=loo)
    if point == "auc":
        return st.auc_over_k(steps, score=score)
    raise ValueError(f"unknown operating point {point!r}")


def group_steps(steps: pd.DataFrame, tasks, datasets=None) -> pd.DataFrame:
    """The rows of one comparison (every row for ``tasks=None``; only the rows of
    ``datasets`` where given: a regime), with ``loo_neg_mse``.

    Raises
    ------
    KeyError
        A regression comparison on a step table without ``test_r2`` (written before the
        protocol recorded it): the message says to rerun the selection jobs.
    """
    frame = steps if tasks is None else steps[steps["task"].isin(tasks)]
    if datasets is not None:
        frame = frame[frame["dataset"].isin(datasets)]
    if tasks is not None and "regression" in tasks and len(frame) and "test_r2" not in frame:
        raise KeyError(
            "step table lacks the column test_r2 that the regression comparison scores: it "
            "was written by an older rlsbench; rerun the main part's selection jobs"
        )
    return frame.assign(loo_neg_mse=-frame["loo_mse"]) if "loo_mse" in frame else frame


def _one_point(steps, point, section, *, score="test_accuracy", loo="loo_accuracy"):
    """Every test at one operating point: the tables' rows and the diagram's inputs."""
    alpha = section["alpha"]
    # one source counts once: the members of a family are one row, their mean
    scores = by_family(score_matrix(steps, point, score=score, loo=loo), section.get("families"))
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


#: The test score of each comparison, as a title says it.
SCORE_WORDS = {"test_accuracy": "test accuracy", "test_r2": "test R²"}


def point_words(point: str, score: str = "test_accuracy") -> str:
    """An operating point as a reader says it: ``fixed_k5`` -> "test accuracy at k = 5",
    ``loo_k`` -> "... at the k chosen by LOO", ``auc`` -> "mean ... over k"."""
    what = SCORE_WORDS.get(score, score)
    if point.startswith("fixed_k"):
        return f"{what} at k = {int(point.removeprefix('fixed_k'))}"
    if point == "loo_k":
        return f"{what} at the k chosen by LOO"
    if point == "auc":
        return f"mean {what} over k = 1..K"
    raise ValueError(f"unknown operating point {point!r}")


def diagram_title(group: str, point: str, score: str, n_datasets: int, alpha: float) -> str:
    """The title of one critical-difference diagram, in words: the comparison, the score and
    the operating point, the datasets ranked over, the test (``cd_<...>.png``'s stem is the
    file name, not the title)."""
    what = point_words(point, score)
    what = what[0].upper() + what[1:]
    datasets = f"{n_datasets} {'' if group == 'all' else group_words(group) + ' '}dataset(s)"
    return f"{what}, {datasets} (Nemenyi test, α = {alpha:g})"


def group_words(group: str) -> str:
    """A comparison as a reader says it: ``classification_high`` -> "high-dimensional
    classification"."""
    task, _, regime = group.partition("_")
    return f"{regime}-dimensional {task}" if regime in REGIMES else group


def _draw(png, title, diagram, reason, alpha):
    from rlsbench.benchmark.figures import save_figure, subplots

    if diagram is None:
        # the file the rule promises, saying why there is no diagram
        fig, ax = subplots(aspect=0.2)
        ax.set_axis_off()
        why = f"{title}: no diagram. {reason[:1].upper()}{reason[1:]}"
        ax.text(0.5, 0.5, why, ha="center", va="center", wrap=True)
    else:
        ranks, p_values, cd = diagram
        fig = st.plot_critical_difference(ranks, p_values, cd, alpha=alpha, title=title)
    save_figure(fig, png)


def _summary(tables: dict, points: list[str], section: dict, left=()) -> str:
    from rlsbench.benchmark.tables import markdown_table

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
    compared = groups(section)
    tasks = [group for group in compared if group in TASK_GROUPS]
    if len(tasks) == 2:
        lines += [
            "Two comparisons: `classification` (test accuracy; k at `loo_k` by the LOO "
            "accuracy) and `regression` (test R² on the held-out fold; k at `loo_k` by the "
            "LOO MSE); the rope is in those units.",
            "",
        ]
    elif tasks == ["regression"]:
        lines += [
            "One comparison: `regression` (the run's datasets are regression sets; test R² on "
            "the held-out fold in place of the accuracy above; k at `loo_k` by the LOO MSE); "
            "the rope is in R² units.",
            "",
        ]
    if section.get("regimes"):
        lines += [
            "Each regime also apart: `<comparison>_high`, the datasets with at least "
            f"{section['high_dim_features']} features, and `<comparison>_low`, the others "
            "(`main.statistics.high_dim_features`), each ranked and tested on its own datasets.",
            "",
        ]
    if left:
        lines += [left_out_warning(left) + ".", ""]
    families: dict[str, list] = {}
    for name, family in (section.get("families") or {}).items():
        families.setdefault(family, []).append(name)
    if families:
        merged = "; ".join(f"`{f}` ({', '.join(sorted(n))})" for f, n in sorted(families.items()))
        lines += [
            "Datasets of one source count once: the tests see one row per family, the mean of "
            f"its members' scores (the registry's `family`): {merged}.",
            "",
        ]
    for group in groups(section):
        for point in points:
            title = point if group == "all" else f"{group}: {point}"
            lines += [f"## {title}", ""]

            def rows(frame, group=group, point=point):
                keep = (frame["operating_point"] == point) & (frame["group"] == group)
                return frame[keep].drop(columns=["operating_point", "group"])

            lines += [markdown_table(rows(tables["friedman"]), floatfmt=".4g"), ""]
            for name in ("ranks", "wilcoxon", "bayes"):
                frame = tables[name]
                if not frame.empty:
                    part = rows(frame)
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
    from rlsbench.benchmark.results import read_step_table
    from rlsbench.benchmark.tables import write_csv, write_markdown

    frame = read_step_table(steps)
    points = operating_points(settings)
    stems = diagram_stems(settings)
    if len(cd) != len(stems):
        raise ValueError(f"{len(cd)} diagram file(s) for the comparisons {stems}")
    pngs = iter(cd)
    parts: dict[str, list] = {name: [] for name in TABLES if name != "stability"}
    for group, comparison in groups(settings).items():
        rows = group_steps(frame, comparison.tasks, comparison.datasets)
        score, loo = comparison.score, comparison.loo
        for point in points:
            out, diagram = _one_point(rows, point, settings, score=score, loo=loo)
            for name, table in out.items():
                parts[name].append(table.assign(group=group, operating_point=point))
            friedman = out["friedman"].iloc[0]
            title = diagram_title(group, point, score, friedman["n_datasets"], settings["alpha"])
            _draw(next(pngs), title, diagram, friedman["reason"], settings["alpha"])
    result = {
        name: _leading(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
        for name, frames in parts.items()
    }
    result["stability"] = st.stability_table(frame, stability_k(settings), alpha=settings["alpha"])
    result["ranks"] = with_mean_stability(result["ranks"], result["stability"], frame, settings)
    left = []
    if not settings.get("by_task", BY_TASK) and "task" in frame:
        left = sorted(set(frame.loc[frame["task"] == "regression", "dataset"]))
        if left:
            log.warning(left_out_warning(left))
    for name, path in tables.items():
        write_csv(result[name], path)
    write_markdown(md, _summary(result, points, settings, left))
    log.info("statistics at %s: %s", ", ".join(points), ", ".join(tables.values()))


def with_mean_stability(ranks, stability, steps, section) -> pd.DataFrame:
    """The rank table with each method's mean stability index over the comparison's datasets
    (``mean_stability``, NaN where no dataset has an index) beside its average rank."""
    if ranks.empty:
        return ranks
    means = {}
    for group, comparison in groups(section).items():
        datasets = set(group_steps(steps, comparison.tasks, comparison.datasets)["dataset"])
        rows = stability[stability["dataset"].isin(datasets)]
        for method, value in rows.groupby("method")["stability"].mean().items():
            means[group, method] = value
    keys = zip(ranks["group"], ranks["method"], strict=True)
    return ranks.assign(mean_stability=[means.get(key, float("nan")) for key in keys])


def _leading(frame: pd.DataFrame) -> pd.DataFrame:
    """The comparison and the operating point as the first columns."""
    lead = ["group", "operating_point"]
    return frame[[*lead, *[c for c in frame if c not in lead]]]
