"""Fault injection: bad configuration, found before the first job runs (issue 19, items 4 and 7).

Every case edits the shipped default config (``config/config.yaml``) in one place and reads it
the way the Snakefile does when it is parsed: the top-level schema, the dataset registry, then
each part's section (schema, then the part's ``check``). The error must be a
:class:`~rlsbench.benchmark.config.ConfigError` whose one line starts with the config key. A
few cases run ``snakemake -n`` itself, to show that the run stops with that one line, exit
status 1, no traceback and no job.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError, part_section, validate_config
from rlsbench.benchmark.datasets.rules import registry_entries
from rlsbench.benchmark.parts import installed_parts

REPO = Path(__file__).resolve().parents[2]
TOP_SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"
DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def read_config(config: dict) -> None:
    """What ``workflow/rules/common.smk`` and the parts' rule files do with the config at
    parse time."""
    parts = installed_parts()
    validate_config(config, TOP_SCHEMA, [part.name for part in parts])
    registry = registry_entries(config)
    for part in parts:
        part_section(config, part.name, part.schema, check=part.check_function(), datasets=registry)


def edited(edit) -> dict:
    config = copy.deepcopy(DEFAULT)
    edit(config)
    return config


@pytest.mark.parametrize(
    "path", ["config/config.yaml", "config/paper.yaml", "tests/configs/tiny.yaml"]
)
def test_the_shipped_configs_pass(path):
    # a --configfile says on its own what runs (nothing merged under it)
    config = yaml.safe_load((REPO / path).read_text())
    config.setdefault("run_name", Path(path).stem)
    read_config(config)


def _set(path, value):
    def edit(config):
        node = config
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _update(path, **values):
    def edit(config):
        node = config
        for key in path:
            node = node[key]
        node.update(values)

    return edit


# (case id, edit of the default config, the key the one-line error starts with, its message)
CASES = [
    # ------------------------------------------------------------------ top level
    (
        "top-unknown-key",
        _set(("mian",), {"enabled": True}),
        "(top level)",
        r"'mian' was unexpected",
    ),
    ("top-run-name", _set(("run_name",), "a b/c"), "run_name", r"does not match"),
    ("top-download-type", _set(("download",), {"retries": "3"}), "download.retries", "type"),
    # ------------------------------------------------------------------ main
    (
        "main-unknown-dataset",
        _set(("main", "datasets"), ["breast_cancer", "wien"]),
        "main.datasets[1]",
        "unknown dataset 'wien'",
    ),
    (
        "main-unknown-method",
        _set(("main", "methods"), ["greedy_rsl"]),
        "main.methods[0]",
        "unknown method 'greedy_rsl'",
    ),
    (
        "main-k-over-features",
        _set(("main", "k_max"), 31),
        "main.k_max",
        "k_max = 31 exceeds the 30 features of dataset 'breast_cancer'",
    ),
    # more folds than the smallest class has examples is the protocol's small-sample rule (fewer
    # folds for that dataset, recorded), not a config error: tests/benchmark/test_cv_plan.py
    (
        "main-cv-repeats-zero",
        _set(("main", "cv_repeats"), 0),
        "main.cv_repeats",
        "less than the minimum of 1",
    ),
    (
        "main-empty-lambda-grid",
        _set(("main", "alphas"), {"base": 2, "min_exp": 3, "max_exp": -3}),
        "main.alphas",
        r"λ grid .* is empty",
    ),
    ("main-empty-lambda-list", _set(("main", "alphas"), []), "main.alphas", "should be non-empty"),
    (
        "main-lambda-not-positive",
        _set(("main", "alphas"), [1.0, 0.0]),
        "main.alphas.1",
        "less than or equal to the minimum of 0",
    ),
    (
        "main-empty-seeds",
        _set(("main", "random_seeds"), []),
        "main.random_seeds",
        "should be non-empty",
    ),
    ("main-folds-type", _set(("main", "n_folds"), "ten"), "main.n_folds", "not of type 'integer'"),
    ("main-unknown-key", _set(("main", "n_fold"), 3), "main", "'n_fold' was unexpected"),
    (
        "main-budget-of-unknown-method",
        _set(("main", "time_budget_s"), {"default": 5, "lars": 1}),
        "main.time_budget_s.lars",
        "'lars' is not in main.methods",
    ),
    # ------------------------------------------------------------------ scaling
    (
        "scaling-unknown-method",
        _set(("scaling", "sweeps", "fig3", "methods"), ["greedy"]),
        "scaling.sweeps.fig3.methods[0]",
        "unknown scaling method 'greedy'",
    ),
    (
        "scaling-k-not-below-n",
        _set(("scaling", "sweeps", "fig3", "fixed"), {"n": 50, "k": 50}),
        "scaling.sweeps.fig3",
        "k=50 must be < n=50",
    ),
    (
        "scaling-old-time-budget",
        _set(("scaling", "budget"), {"point_s": 3, "timeout_s": 30}),
        "scaling.budget",
        "'max_flops' is a required property",
    ),
    (
        "scaling-budget-not-positive",
        _update(("scaling", "budget"), max_flops=0),
        "scaling.budget.max_flops",
        "less than or equal to the minimum of 0",
    ),
    (
        "scaling-empty-sizes",
        _set(("scaling", "sweeps", "fig3", "values"), []),
        "scaling.sweeps.fig3.values",
        "should be non-empty",
    ),
    (
        "scaling-method-without-entry",
        lambda c: c["scaling"]["methods"].pop("lowrank_lssvm"),
        "scaling.sweeps.fig1_2.methods[1]",
        "has no entry",
    ),
    # ------------------------------------------------------------------ buteneers
    (
        "buteneers-unknown-dataset",
        _update(("buteneers", "tasks", 0), dataset="diabetis"),
        "buteneers.tasks[0].dataset",
        "unknown dataset 'diabetis'",
    ),
    (
        "buteneers-multiclass-dataset",
        _update(("buteneers", "tasks", 0), dataset="wine"),
        "buteneers.tasks[0].dataset",
        "'wine' is multiclass",
    ),
    (
        "buteneers-train-over-samples",
        _update(("buteneers", "tasks", 0), n_train=442),
        "buteneers.tasks[0].n_train",
        "442 exceeds dataset 'diabetes'",
    ),
    (
        "buteneers-folds-over-train",
        _update(("buteneers", "tasks", 0), n_train=20, n_folds=25),
        "buteneers.tasks[0].n_folds",
        "25 exceeds the 20 training examples",
    ),
    (
        "buteneers-unknown-method",
        _set(("buteneers", "methods"), ["ffs_eigen", "ffs"]),
        "buteneers.methods.1",
        "is not one of",
    ),
    (
        "buteneers-empty-timing-methods",
        _update(("buteneers", "timing"), methods=[]),
        "buteneers.timing.methods",
        "the method list is empty",
    ),
    # ------------------------------------------------------------------ ramona
    (
        "ramona-unknown-dataset",
        _update(("ramona", "realdata", "experiments", "wine"), dataset="wien"),
        "ramona.realdata.experiments.wine.dataset",
        "unknown dataset 'wien'",
    ),
    (
        "ramona-regression-dataset",
        _update(("ramona", "realdata", "experiments", "wine"), dataset="diabetes"),
        "ramona.realdata.experiments.wine.dataset",
        "'diabetes' is a regression task",
    ),
    (
        "ramona-S-over-features",
        _update(("ramona", "realdata", "experiments", "wine"), n_selected=[1, 14]),
        "ramona.realdata.experiments.wine.n_selected",
        "14 exceeds the 13 features",
    ),
    (
        "ramona-train-over-samples",
        _update(("ramona", "realdata", "experiments", "wine"), n_train=178),
        "ramona.realdata.experiments.wine.n_train",
        "178 exceeds the 178 examples",
    ),
    (
        "ramona-per-class-over-smallest-class",
        _update(("ramona", "realdata", "experiments", "wine"), train_per_class=49),
        "ramona.realdata.experiments.wine.train_per_class",
        "49 exceeds the 48 examples",
    ),
    (
        "ramona-unknown-kernel",
        _update(("ramona", "realdata", "experiments", "wine"), kernels=["gaussian"]),
        "ramona.realdata.experiments.wine.kernels.0",
        "is not one of",
    ),
    # ------------------------------------------------------------------ sunyao
    (
        "sunyao-unknown-dataset",
        _update(("sunyao", "table1", "datasets", 0), name="diabetis"),
        "sunyao.table1.datasets[0].name",
        "unknown dataset 'diabetis'",
    ),
    (
        "sunyao-classification-dataset",
        _update(("sunyao", "table1", "datasets", 0), name="wine"),
        "sunyao.table1.datasets[0].name",
        "'wine' is a multiclass task",
    ),
    (
        "sunyao-split-over-samples",
        _update(("sunyao", "table1", "datasets", 0), n_test=101),
        "sunyao.table1.datasets[0].n_test",
        "443 exceeds the 442 examples of dataset 'diabetes'",
    ),
    (
        "sunyao-folds-over-subset",
        _update(("sunyao", "cv"), folds=400),
        "sunyao.cv.folds",
        "400 exceeds the 300 examples of the CV subset",
    ),
    (
        "sunyao-empty-lambda-grid",
        _update(("sunyao", "cv"), lams=[]),
        "sunyao.cv.lams",
        "should be non-empty",
    ),
    ("sunyao-unknown-key", _set(("sunyao", "sigma"), 1.0), "sunyao", "'sigma' was unexpected"),
    (
        "sunyao-unknown-dataset-key",
        _update(("sunyao", "table1", "datasets", 1), nosie=0.1),
        "sunyao.table1.datasets.1",
        "'nosie' was unexpected",
    ),
    (
        "sunyao-fig1-train-over-samples",
        _update(("sunyao", "fig1"), train_sizes=[150, 700]),
        "sunyao.fig1.train_sizes",
        "1200 exceeds the 1100 examples",
    ),
]


@pytest.mark.parametrize(
    "edit, key, message", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_bad_config_is_one_line_naming_the_key(edit, key, message):
    config = edited(edit)
    with pytest.raises(ConfigError) as info:
        read_config(config)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"config key {key}: "), text
    assert re.search(message, text), text


def snakemake_dry_run(workdir: Path, config: dict):
    (workdir / "config").mkdir()
    # the workflow reads config/config.yaml of its working directory
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-s",
            str(REPO / "Snakefile"),
            "-n",
            "--cores",
            "1",
            "--directory",
            str(workdir),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "case",
    ["main-cv-repeats-zero", "scaling-old-time-budget", "ramona-S-over-features"],
)
def test_the_dry_run_stops_with_the_one_line_and_no_job(case, tmp_path):
    _, edit, key, message = next(c for c in CASES if c[0] == case)
    proc = snakemake_dry_run(tmp_path, edited(edit))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]
    lines = [line for line in out.splitlines() if line.startswith("config key")]
    assert len(lines) == 1 and re.search(message, lines[0]), out[-3000:]
    assert "Traceback" not in out and 'File "' not in out
    assert "Job stats" not in out and not (tmp_path / "results").exists()


def test_a_target_of_a_dataset_the_run_does_not_name_has_no_rule(tmp_path):
    """Not a misleading "missing input file results/datasets/prepared/wien.npz"."""
    config = edited(_set(("main", "datasets"), ["wine"]))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    target = "results/runs/default/main/alpha/wien/fold0.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-s",
            str(REPO / "Snakefile"),
            "-n",
            "--cores",
            "1",
            "--directory",
            str(tmp_path),
            target,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1
    assert f"No rule to produce {target}" in out and "Missing input" not in out, out[-2000:]
