# Config validation and helpers shared by the rule files (the run directory, the checks that
# stop a bad config before any job starts, the job lists of the main part, and the per-rule
# `threads`/`resources` functions; profiles/ for SLURM build on these, see issue 9).
import math
from pathlib import Path

import yaml
from snakemake.utils import validate

validate(config, "../schemas/config.schema.yaml")

RUN = config["run_name"]
RUNDIR = f"results/runs/{RUN}"
REPO = Path(workflow.basedir)


def part_enabled(name):
    """A part (main, scaling, buteneers, ramona, sunyao) runs when its section says enabled."""
    return bool(config.get(name, {}).get("enabled", False))


class ConfigError(ValueError):
    """A config value that names no dataset/method or asks for the impossible."""


# ---------------------------------------------------------------------------------------------
# The dataset registry (config/datasets.yaml, owned by the datasets part): names and shapes.
# ---------------------------------------------------------------------------------------------
def _load_registry():
    """The built-in registry (package data) plus the config's dataset_registries and datasets."""
    from rlsbench.benchmark.datasets.rules import registry_entries

    return registry_entries(config)


DATASET_REGISTRY = _load_registry()


def _registry_int(name, key):
    # shapes are pinned under `expected:` (after preprocessing)
    value = DATASET_REGISTRY.get(name, {}).get("expected", {}).get(key)
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def dataset_n_features(name):
    """Feature count from the registry (None if the registry does not say)."""
    return _registry_int(name, "n_features")


def dataset_n_samples(name):
    """Example count from the registry (None if the registry does not say)."""
    return _registry_int(name, "n_samples")


def dataset_n_outputs(name):
    """Outputs of the encoded targets: the class count for multiclass sets, else 1."""
    entry = DATASET_REGISTRY.get(name, {})
    if entry.get("task") == "multiclass":
        return len(entry.get("labels", {}).get("classes", [])) or 10
    return 1


# ---------------------------------------------------------------------------------------------
# The main part: validate its section, then check names and k_max against the registries.
# ---------------------------------------------------------------------------------------------
MAIN = config.get("main", {})
if MAIN:
    validate(MAIN, "../schemas/main.schema.yaml")


def _check_main(main):
    from rlsbench.benchmark.methods import METHODS

    if DATASET_REGISTRY:
        for i, name in enumerate(main["datasets"]):
            if name not in DATASET_REGISTRY:
                raise ConfigError(
                    f"config key main.datasets[{i}]: unknown dataset {name!r}; known datasets "
                    f"(config/datasets.yaml): {', '.join(sorted(DATASET_REGISTRY))}"
                )
    for i, name in enumerate(main["methods"]):
        if name not in METHODS:
            raise ConfigError(
                f"config key main.methods[{i}]: unknown method {name!r}; known methods "
                f"(rlsbench.benchmark.methods): {', '.join(sorted(METHODS)) or '(none registered)'}"
            )
    for name in main["k_max_per_dataset"]:
        if name not in main["datasets"]:
            raise ConfigError(
                f"config key main.k_max_per_dataset.{name}: {name!r} is not in main.datasets"
            )
    for name in main["datasets"]:
        n_features = dataset_n_features(name)
        if name in main["k_max_per_dataset"]:
            key, k = f"main.k_max_per_dataset.{name}", main["k_max_per_dataset"][name]
        else:
            key, k = "main.k_max", main["k_max"]
        if k is not None and n_features is not None and k > n_features:
            raise ConfigError(
                f"config key {key}: k_max = {k} exceeds the {n_features} features of "
                f"dataset {name!r}"
            )
    if max(main["report_k"], default=0) < 1:
        raise ConfigError("config key main.report_k: give at least one k >= 1")


if part_enabled("main"):
    _check_main(MAIN)


def main_seeds(method):
    """Randomized methods run once per seed in main.random_seeds; the others once."""
    from rlsbench.benchmark.methods import get_method

    return MAIN["random_seeds"] if get_method(method).randomized else [MAIN["cv_seed"]]


def main_jobs():
    """(dataset, method, fold, seed) of every selection job of the main part."""
    return [
        (d, m, f, s)
        for d in MAIN["datasets"]
        for m in MAIN["methods"]
        for f in range(MAIN["n_folds"])
        for s in main_seeds(m)
    ]


# ---------------------------------------------------------------------------------------------
# Threads and resources (mem_mb, runtime in minutes), from the dataset's size and the method's
# complexity. The SLURM profile (profiles/slurm) maps them to sbatch options.
# ---------------------------------------------------------------------------------------------
def main_threads(wildcards=None):
    return MAIN.get("threads", 1)


def _train_shape(dataset):
    m = dataset_n_samples(dataset) or 10_000
    n = dataset_n_features(dataset) or 1_000
    m_train = math.ceil(m * (MAIN.get("n_folds", 10) - 1) / MAIN.get("n_folds", 10))
    k = MAIN.get("k_max_per_dataset", {}).get(dataset, MAIN.get("k_max")) or n
    return m_train, n, min(k, n)


def main_alpha_mem_mb(wildcards):
    m, n, _ = _train_shape(wildcards.dataset)
    # X, its standardised copy, the n×n Gram matrix and its eigenvectors
    return 300 + math.ceil((8 * (3 * m * n + 3 * n * n)) / 2**20)


def main_alpha_runtime(wildcards):
    m, n, _ = _train_shape(wildcards.dataset)
    flops = 2.0 * m * n * min(m, n) + 31 * 4 * m * n
    return max(5, math.ceil(3 * flops / MAIN.get("flops_per_second", 2e9) / 60))


def main_select_mem_mb(wildcards):
    from rlsbench.benchmark.methods import get_method
    from rlsbench.benchmark.protocol import feasibility

    m, n, k = _train_shape(wildcards.dataset)
    method = get_method(wildcards.method)
    feas = feasibility(
        method,
        m,
        n,
        k,
        dataset_n_outputs(wildcards.dataset),
        memory_budget_mb=MAIN["memory_budget_mb"],
        time_budget_s=MAIN["time_budget_s"],
        flops_per_second=MAIN["flops_per_second"],
    )
    # a skipped job only loads the data
    need = feas.memory_bytes if feas.feasible else 8 * 3 * m * n
    return 300 + math.ceil(1.5 * need / 2**20)


def main_select_runtime(wildcards):
    """Minutes: 3× the estimated time (capped by the time budget), at least 5."""
    from rlsbench.benchmark.methods import get_method
    from rlsbench.benchmark.protocol import estimate_flops, time_budget_for

    m, n, k = _train_shape(wildcards.dataset)
    sec = (
        estimate_flops(get_method(wildcards.method), m, n, k, dataset_n_outputs(wildcards.dataset))
        / MAIN["flops_per_second"]
    )
    budget = time_budget_for(MAIN["time_budget_s"], wildcards.method)
    # a job over budget is skipped; the LOO path of the protocol costs O(k²m) on top
    sec = min(sec, budget) + 8.0 * m * k * k / MAIN["flops_per_second"]
    return max(5, math.ceil(3 * sec / 60))


def main_job_settings(dataset):
    """The `main` settings one dataset's jobs depend on (a change re-runs only those jobs)."""
    from rlsbench.benchmark.protocol import job_settings

    return job_settings(MAIN, dataset)


def main_alpha_settings(wildcards):
    """The `main` settings a λ search depends on (budgets or k caps do not re-run it)."""
    from rlsbench.benchmark.protocol import alpha_settings

    return alpha_settings(MAIN)


def main_job_tables(wildcards=None):
    return [f"{RUNDIR}/main/jobs/{d}/{m}/fold{f}-seed{s}.csv" for d, m, f, s in main_jobs()]


def main_benchmarks(wildcards=None):
    alphas = [
        f"{RUNDIR}/main/benchmarks/alpha/{d}/fold{f}.tsv"
        for d in MAIN["datasets"]
        for f in range(MAIN["n_folds"])
    ]
    selects = [
        f"{RUNDIR}/main/benchmarks/select/{d}/{m}/fold{f}-seed{s}.tsv" for d, m, f, s in main_jobs()
    ]
    return alphas + selects


# Input functions of the Sun & Yao part (workflow/rules/sunyao.smk, which defines SUNYAO_*).
def sunyao_entry(study, dataset):
    """The config entry of a dataset in a study (table1: its datasets map; fig1: the section)."""
    if study == "table1":
        if dataset not in SUNYAO_T1["datasets"]:
            raise ValueError(
                f"config key sunyao.table1.datasets: no dataset {dataset!r} "
                f"(known: {', '.join(SUNYAO_T1['datasets'])})"
            )
        return SUNYAO_T1["datasets"][dataset]
    if not SUNYAO_F1 or SUNYAO_F1["dataset"] != dataset:
        raise ValueError(f"config key sunyao.fig1.dataset is not {dataset!r}")
    return SUNYAO_F1


def sunyao_data_of(study, dataset):
    if sunyao_entry(study, dataset).get("source", "prepared") == "prepared":
        return {"data": f"results/datasets/prepared/{dataset}.npz"}
    return {}


def sunyao_hyper_data(wildcards):
    return sunyao_data_of(wildcards.sy_study, wildcards.sy_dataset)


def sunyao_table1_data(wildcards):
    return sunyao_data_of("table1", wildcards.sy_dataset)


def sunyao_fig1_data(wildcards):
    return sunyao_data_of("fig1", SUNYAO_F1["dataset"])


def sunyao_cv(study):
    cv = dict(SUNYAO["cv"])
    if study == "fig1":
        cv["k_max"] = SUNYAO_F1["cv_k_max"]
    return cv
