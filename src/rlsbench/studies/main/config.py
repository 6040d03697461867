"""The ``main`` config section: its checks and the plan of its jobs.

``workflow/rules.smk`` here reads the section with
:func:`rlsbench.benchmark.config.part_section` (schema ``workflow/schema.yaml`` here,
then :func:`check`) and builds its rules from the functions here: one λ-search job per dataset
(all its folds) and one selection job per (dataset, method) (all its folds and seeds), with
resources (``mem_mb``, ``runtime`` in minutes) estimated from the dataset's size, the method's
complexity and the job's threads, which the SLURM profile turns into sbatch options.

Why one job per (dataset, method) and not per fold: a job pays a Python start, imports and a
data load (seconds; mnist5 alone is 440 MB); with one job per (dataset, method, fold, seed) the
default config had 419 jobs of often less than a second of work, and a plain
``snakemake --cores N`` spent most of its time starting them. The folds of a job run side by
side on its threads instead (:mod:`rlsbench.benchmark.parallel`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from rlsbench.benchmark import config as checks
from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.methods import GROUP, get_method, method_names
from rlsbench.benchmark.protocol import estimate_flops, feasibility
from rlsbench.benchmark.protocol_settings import ProtocolSettings, time_budget_for

#: Shape assumed for a dataset the registry gives no shape for.
DEFAULT_SHAPE = (10_000, 1_000)


def _expected(datasets: Mapping, name: str, key: str) -> int | None:
    # registry shapes are pinned under `expected:` (after preprocessing)
    value = (datasets.get(name) or {}).get("expected", {}).get(key)
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def n_outputs(datasets: Mapping, name: str) -> int:
    """Outputs of the encoded targets: the class count for multiclass sets, else 1."""
    entry = datasets.get(name) or {}
    if entry.get("task") == "multiclass":
        return len(entry.get("labels", {}).get("classes", [])) or 10
    return 1


def check(main: dict, datasets: Mapping) -> None:
    """Names and sizes the schema cannot check; raises ConfigError naming the key.

    Parameters
    ----------
    main : dict
        The validated ``main`` section.
    datasets : mapping
        The dataset registry (name -> entry); empty = names are not checked.
    """
    # a selection from the registry becomes its list of names here, once, for every reader
    main["datasets"] = checks.select_datasets(main["datasets"], datasets, "main.datasets")
    if datasets:
        for i, name in enumerate(main["datasets"]):
            if name not in datasets:
                raise ConfigError(
                    f"config key main.datasets[{i}]: unknown dataset {name!r}; known datasets "
                    f"(rlsbench datasets list): {', '.join(sorted(datasets))}"
                )
    known = method_names()
    for i, name in enumerate(main["methods"]):
        if name not in known:
            raise ConfigError(
                f"config key main.methods[{i}]: unknown method {name!r}; known methods "
                f"(entry-point group {GROUP}): {', '.join(known) or '(none installed)'}"
            )
        # a plugin that does not load stops the run here, naming its distribution
        if not get_method(name).tasks:
            raise ConfigError(
                f"config key main.methods[{i}]: method {name!r} runs on no target of the "
                "protocol (its Method has tasks=(): it selects no features, e.g. a reference "
                "model of the K-fold studies)"
            )
    for name in main["k_max_per_dataset"]:
        if name not in main["datasets"]:
            raise ConfigError(
                f"config key main.k_max_per_dataset.{name}: {name!r} is not in main.datasets"
            )
    clip = main.get("k_max_clip", False)
    for name in main["datasets"]:
        n_features = _expected(datasets, name, "n_features")
        if name in main["k_max_per_dataset"]:
            key, k = f"main.k_max_per_dataset.{name}", main["k_max_per_dataset"][name]
        else:
            key, k = "main.k_max", main["k_max"]
        if k is not None and n_features is not None and k > n_features and not clip:
            raise ConfigError(
                f"config key {key}: k_max = {k} exceeds the {n_features} features of "
                f"dataset {name!r}"
            )
    if max(main["report_k"], default=0) < 1:
        raise ConfigError("config key main.report_k: give at least one k >= 1")
    check_ks_within_reach(main, datasets)
    check_grids_and_folds(main, datasets)


def largest_k(main: dict, datasets: Mapping) -> tuple[int, str] | None:
    """The most features any selection of the run reaches, and the key (or shape) that caps
    it, e.g. ``(3, "main.k_max = 3")``; None when a dataset's cap is not known (``k_max:
    null`` and no shape in the registry)."""
    reach = []
    for name in main["datasets"]:
        n_features = _expected(datasets, name, "n_features")
        if (
            main.get("k_max_clip")
            and n_features is not None
            and n_features < (main["k_max_per_dataset"].get(name, main["k_max"]) or n_features + 1)
        ):
            reach.append((n_features, f"the {n_features} features of dataset {name!r}"))
        elif name in main["k_max_per_dataset"]:
            k = main["k_max_per_dataset"][name]
            reach.append((k, f"main.k_max_per_dataset.{name} = {k}"))
        elif main["k_max"] is not None:
            reach.append((main["k_max"], f"main.k_max = {main['k_max']}"))
        elif n_features is not None:
            reach.append((n_features, f"the {n_features} features of dataset {name!r}"))
        else:
            return None
    return max(reach, key=lambda pair: pair[0], default=None)


def check_ks_within_reach(main: dict, datasets: Mapping) -> None:
    """Every k the tables report at (``report_k``, ``statistics.operating_points.fixed_k``,
    ``statistics.stability_k``, ``latex.k``) is one some selection of the run reaches: above
    the largest ``k_max`` a table gets no row for it, or a statistic no method."""
    reach = largest_k(main, datasets)
    if reach is None:
        return
    cap, why = reach
    statistics = main.get("statistics") or {}
    asked = [(f"main.report_k[{i}]", k) for i, k in enumerate(main["report_k"])]
    asked += [
        ("main.statistics.operating_points.fixed_k",
         (statistics.get("operating_points") or {}).get("fixed_k")),
        ("main.statistics.stability_k", statistics.get("stability_k")),
        ("main.latex.k", (main.get("latex") or {}).get("k")),
    ]  # fmt: skip
    for key, k in asked:
        if isinstance(k, int) and not isinstance(k, bool) and k > cap:
            raise ConfigError(
                f"config key {key}: k = {k} exceeds {why}, the most features any selection "
                f"of the run reaches (lower {key.split('[')[0]} or raise the k_max)"
            )


def check_grids_and_folds(main: dict, datasets: Mapping) -> None:
    """The λ grid gives values, every dataset can be split, per-method
    budgets name methods of the run (ConfigError naming the key)."""
    checks.check_lambda_grid(main["alphas"], "main.alphas")
    for i, name in enumerate(main["datasets"]):
        entry = checks.dataset_entry(datasets, name, f"main.datasets[{i}]")
        # a class smaller than n_folds gets fewer folds (the protocol's cv_plan), not an error
        checks.check_splittable(main["n_folds"], entry, f"main.datasets[{i}]", dataset=name)
    if isinstance(main["time_budget_s"], dict):
        for name in main["time_budget_s"]:
            if name != "default" and name not in main["methods"]:
                raise ConfigError(
                    f"config key main.time_budget_s.{name}: {name!r} is not in main.methods"
                )


def check_device(main: dict) -> None:
    """``main.device: cuda`` needs a usable GPU here (ConfigError naming the key otherwise).

    The workflow calls it when the DAG is built and jobs run locally; with a cluster executor
    the selection job checks again where it runs (:func:`rlsbench.benchmark.protocol.
    run_select_job`), since the submitting node need not have a GPU.
    """
    if main.get("device", "cpu") != "cuda":
        return
    from rlsbench.numerics.selection.cuda import gpu_unavailable_reason

    why = gpu_unavailable_reason()
    if why is not None:
        raise ConfigError(
            f"config key main.device: 'cuda' runs greedy_rls on an NVIDIA GPU, but {why}; "
            "set main.device: cpu"
        )


def names_pattern(names) -> str:
    """A wildcard constraint matching exactly ``names`` (nothing when there are none)."""
    return "|".join(re.escape(name) for name in names) or "(?!)"


def seeds(main: dict, method: str) -> list[int]:
    """Randomized methods run once per seed in ``main.random_seeds``; the others once."""
    return ProtocolSettings.of(main).seeds_for(method)


def jobs(main: dict) -> list[tuple[str, str]]:
    """(dataset, method) of every selection job."""
    return [(d, m) for d in main["datasets"] for m in main["methods"]]


def job_tables(main: dict, directory: str) -> list[str]:
    """The selection jobs' step tables under ``directory`` (the part's run directory)."""
    return [f"{directory}/jobs/{d}/{m}.csv" for d, m in jobs(main)]


def alpha_tables(main: dict, directory: str) -> list[str]:
    """The λ-search jobs' tables (one row per fold)."""
    return [f"{directory}/alpha/{d}.csv" for d in main["datasets"]]


def job_benchmarks(main: dict, directory: str) -> list[str]:
    """Snakemake's benchmark files of every λ-search and selection job."""
    alphas = [f"{directory}/benchmarks/alpha/{d}.tsv" for d in main["datasets"]]
    selects = [f"{directory}/benchmarks/select/{d}/{m}.tsv" for d, m in jobs(main)]
    return alphas + selects


def outputs(main: dict) -> list[str]:
    """The part's tables and figures, relative to its run directory (what `main_all` builds
    and `main_publish` copies)."""
    return (
        [f"tables/summary.{ext}" for ext in ("csv", "md", "tex")]
        + ["tables/curves.csv", "tables/runtime.csv", "tables/alphas.csv"]
        + ["tables/paper_checks.csv"]
        + ["tables/paper_checks.md"]
        + [
            f"figures/{kind}_{d}.png"
            for d in main.get("datasets", [])
            for kind in ("test", "loo_vs_test")
        ]
    )


def published(
    main: Mapping, sources: list[str], run_dir: str, publish_to: str
) -> tuple[list[tuple[str, str]], list[str]]:
    """What ``main_publish`` writes and what it removes.

    The first list: ``(source, target)`` of every file written, each file of ``sources``
    (what ``main_all`` builds, under ``run_dir``) at the same place under ``publish_to``, but

    - none that ``main.publish_exclude`` names (:mod:`fnmatch` globs on the path under
      ``run_dir``, ``*`` crossing folders, e.g. ``*.svg``: a large run's vector copies of its
      PNG and PDF figures);
    - those that ``main.publish_gzip`` names as ``<name>.gz`` (gzip without a name or time in
      its header, so the same file gives the same bytes; ``pandas.read_csv`` reads it as it
      is).

    The second: the files under ``publish_to`` that an earlier publication without those
    settings wrote and this one does not (the excluded files, the uncompressed copies), for
    the publication to remove: the committed copy stays the run's.

    Raises
    ------
    ConfigError
        A pattern that matches none of the files, naming the key and the pattern (a typo
        would otherwise publish everything).
    """
    import fnmatch

    relative = {source: source.removeprefix(f"{run_dir}/") for source in sources}
    patterns = {key: list(main.get(key) or []) for key in ("publish_exclude", "publish_gzip")}

    def named(name, key):
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns[key])

    for key, listed in patterns.items():
        for pattern in listed:
            if not any(fnmatch.fnmatchcase(name, pattern) for name in relative.values()):
                raise ConfigError(
                    f"config key main.{key}: {pattern!r} matches none of the files main_all "
                    f"builds (globs on the path under the part's folder, e.g. figures/*.svg)"
                )

    out, left_out = [], []
    for source, name in relative.items():
        if named(name, "publish_exclude"):
            left_out.append(f"{publish_to}/{name}")
        elif named(name, "publish_gzip"):
            out.append((source, f"{publish_to}/{name}.gz"))
            left_out.append(f"{publish_to}/{name}")
        else:
            out.append((source, f"{publish_to}/{name}"))
    return out, left_out


# ---------------------------------------------------------------------------------------------
# Resources of one job (mem_mb, runtime in minutes)
# ---------------------------------------------------------------------------------------------
def train_shape(main: dict, datasets: Mapping, dataset: str) -> tuple[int, int, int]:
    """(training examples, features, k) of one fold, from the registry's shapes."""
    m = _expected(datasets, dataset, "n_samples") or DEFAULT_SHAPE[0]
    n = _expected(datasets, dataset, "n_features") or DEFAULT_SHAPE[1]
    n_folds = main.get("n_folds", 10)
    m_train = math.ceil(m * (n_folds - 1) / n_folds)
    k = main.get("k_max_per_dataset", {}).get(dataset, main.get("k_max")) or n
    return m_train, n, min(k, n)


def _workers(main: dict, threads: int, n_tasks: int) -> int:
    from rlsbench.benchmark.parallel import split_threads

    return split_threads(threads, n_tasks)[0]


def alpha_mem_mb(main: dict, datasets: Mapping, dataset: str, threads: int = 1) -> int:
    """Megabytes of one λ-search job: the data, and per worker a fold's standardised copy and
    the n×n Gram matrix with its eigenvectors."""
    m, n, _ = train_shape(main, datasets, dataset)
    workers = _workers(main, threads, main.get("n_folds", 10))
    data = 8 * 1.12 * m * n
    return 300 + math.ceil((data + workers * 8 * (2 * m * n + 3 * n * n)) / 2**20)


def alpha_runtime(main: dict, datasets: Mapping, dataset: str, threads: int = 1) -> int:
    """Minutes: 3× the estimated time of all folds on the job's threads, at least 5."""
    m, n, _ = train_shape(main, datasets, dataset)
    flops = (2.0 * m * n * min(m, n) + 31 * 4 * m * n) * main.get("n_folds", 10)
    return max(5, math.ceil(3 * flops / max(1, threads) / main.get("flops_per_second", 2e9) / 60))


def _n_tasks(main: dict, method: str) -> int:
    return main.get("n_folds", 10) * len(seeds(main, method))


def select_mem_mb(
    main: dict, datasets: Mapping, dataset: str, method: str, threads: int = 1
) -> int:
    """Megabytes of one selection job: the data, and per worker the method's peak."""
    m, n, k = train_shape(main, datasets, dataset)
    feas = feasibility(
        get_method(method),
        m,
        n,
        k,
        n_outputs(datasets, dataset),
        memory_budget_mb=main["memory_budget_mb"],
        time_budget_s=main["time_budget_s"],
        flops_per_second=main["flops_per_second"],
    )
    # a skipped task only loads the data
    need = feas.memory_bytes if feas.feasible else 8 * 3 * m * n
    workers = _workers(main, threads, _n_tasks(main, method))
    return 300 + math.ceil((8 * 1.12 * m * n + workers * 1.5 * need) / 2**20)


def select_runtime(
    main: dict, datasets: Mapping, dataset: str, method: str, threads: int = 1
) -> int:
    """Minutes: 3× the estimated time of all tasks on the job's threads (each capped by the
    time budget), at least 5."""
    m, n, k = train_shape(main, datasets, dataset)
    flops = estimate_flops(get_method(method), m, n, k, n_outputs(datasets, dataset))
    sec = flops / main["flops_per_second"]
    budget = time_budget_for(main["time_budget_s"], method)
    # a task over budget is skipped; the LOO path of the protocol costs O(k²m) on top
    sec = min(sec, budget) + 8.0 * m * k * k / main["flops_per_second"]
    total = sec * _n_tasks(main, method) / max(1, threads)
    return max(5, math.ceil(3 * total / 60))


# ---------------------------------------------------------------------------------------------
# The plan a run prints before any job starts (rlsbench.studies.plan, Part.plan)
# ---------------------------------------------------------------------------------------------
def main_seconds(main: Mapping, datasets: Mapping) -> float:
    """Estimated single-core seconds of the main part: every λ search and every selection
    task the protocol will run (a task over the memory or time budget is skipped, as the
    protocol skips it) with its LOO path."""
    from rlsbench.studies.plan import DEFAULT_FLOPS_PER_SECOND

    rate = main.get("flops_per_second", DEFAULT_FLOPS_PER_SECOND)
    total = 0.0
    for dataset in main.get("datasets", []):
        m, n, k = train_shape(main, datasets, dataset)
        total += (2.0 * m * n * min(m, n) + 124.0 * m * n) * main.get("n_folds", 10) / rate
        for method in main.get("methods", []):
            feas = feasibility(
                get_method(method),
                m,
                n,
                k,
                n_outputs(datasets, dataset),
                memory_budget_mb=main["memory_budget_mb"],
                time_budget_s=main["time_budget_s"],
                flops_per_second=rate,
            )
            if feas.feasible:
                total += (feas.seconds + 8.0 * m * k * k / rate) * _n_tasks(main, method)
    return total


def plan_line(main: Mapping, datasets: Mapping) -> str:
    """The main part's line of the plan: datasets, methods and the cost model's CPU time."""
    from rlsbench.studies.plan import minutes, names

    what = f"datasets {names(main['datasets'])}; methods {names(main['methods'])}"
    cpu = minutes(main_seconds(main, datasets))
    return f"{what}; up to {cpu} of CPU (the budgets' cost model)"
