"""The protocol's settings are one typed object parsed once from a config section: its λ grid,
its k caps, budgets and seeds; the parts of the section a job depends on are exactly the dicts
the main part's rules gave Snakemake before the object existed (no committed run re-runs, no
provenance hash moves); its errors name the section's key."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import numpy as np
import pytest
import yaml

from rlsbench.benchmark.config import (
    ConfigError,
    check_lambda_grid,
    select_datasets,
    validate_section,
)
from rlsbench.benchmark.datasets.registry import load_registry
from rlsbench.benchmark.protocol_settings import (
    ALPHA_KEYS,
    DEFAULT_LAMBDA_GRID,
    JOB_KEYS,
    LambdaGrid,
    ProtocolSettings,
)

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "src" / "rlsbench" / "studies" / "main" / "workflow" / "schema.yaml"
CONFIGS = ("config.yaml", "benchmark.yaml", "paper.yaml")


def _main(name):
    return yaml.safe_load((REPO / "config" / name).read_text())["main"]


def _as_the_rules_see_it(name):
    """The ``main`` section as ``part_section`` gives it to the rules: the default config under
    the file's keys (Snakemake's merge of ``--configfile``), with the schema's defaults."""
    main = copy.deepcopy(_main("config.yaml"))
    main.update(copy.deepcopy(_main(name)))
    return validate_section(main, SCHEMA, "main")


# The functions the rules called before the settings were a type, kept verbatim: the object's
# dicts must stay theirs, value for value and key for key (Snakemake compares their repr).
def _old_alpha_settings(main):
    return {key: main[key] for key in ALPHA_KEYS if key in main}


def _old_job_settings(main, dataset_name):
    settings = {key: main[key] for key in JOB_KEYS if key in main}
    if main.get("device", "cpu") != "cpu":
        settings["device"] = main["device"]
    caps = settings.pop("k_max_per_dataset", {}) or {}
    if dataset_name in caps:
        settings["k_max_per_dataset"] = {dataset_name: caps[dataset_name]}
    return settings


def test_the_default_config_s_main_section_parses_into_typed_fields():
    settings = ProtocolSettings.from_section(_as_the_rules_see_it("config.yaml"))
    assert (settings.key, settings.n_folds, settings.cv_seed) == ("main", 10, 0)
    assert settings.random_seeds == (0, 1, 2)
    assert settings.alphas == LambdaGrid(base=2, min_exp=-15, max_exp=15) == DEFAULT_LAMBDA_GRID
    assert (settings.criterion, settings.bias, settings.standardize) == ("squared", 1.0, True)
    assert (settings.k_max, settings.k_max_per_dataset) == (10, {})
    assert (settings.memory_budget_mb, settings.time_budget_s) == (2000, 5)
    assert (settings.flops_per_second, settings.device) == (2.0e9, "cpu")
    # the grid the λ search runs on
    np.testing.assert_array_equal(settings.alphas.values(), 2.0 ** np.arange(-15, 16))
    assert settings.alphas.values().dtype == np.float64 and len(settings.alphas) == 31


def test_job_and_alpha_settings_are_the_dicts_the_rules_gave_snakemake():
    wine = ProtocolSettings.from_section(_as_the_rules_see_it("config.yaml")).job_settings("wine")
    assert wine == {
        "n_folds": 10,
        "cv_seed": 0,
        "random_seeds": [0, 1, 2],
        "alphas": {"base": 2, "min_exp": -15, "max_exp": 15},
        "criterion": "squared",
        "bias": 1.0,
        "standardize": True,
        "k_max": 10,
        "memory_budget_mb": 2000,
        "time_budget_s": 5,
        "flops_per_second": 2.0e9,
    }
    # keys written in the section only (cv_repeats and cv_repeat_below are not, here)
    assert list(wine) == [k for k in JOB_KEYS if k in wine]
    assert set(JOB_KEYS) - set(wine) == {
        "k_max_per_dataset",
        "k_max_clip",
        "cv_repeats",
        "cv_repeat_below",
    }
    # a dataset's own cap moves to the end; device only when it is not cpu, after the keys
    pima = ProtocolSettings.from_section(
        {
            **_as_the_rules_see_it("benchmark.yaml"),
            "device": "cuda",
            "k_max_per_dataset": {"pima": 8},
        }
    ).job_settings("pima")
    assert list(pima)[-2:] == ["device", "k_max_per_dataset"]
    assert pima["k_max_per_dataset"] == {"pima": 8} and pima["k_max"] == 50
    alpha = ProtocolSettings.from_section(_as_the_rules_see_it("paper.yaml")).alpha_settings()
    assert list(alpha) == [k for k in ALPHA_KEYS if not k.startswith("cv_repeat")]
    assert alpha["criterion"] == "zero_one"


@pytest.mark.parametrize("name", CONFIGS)
@pytest.mark.parametrize("seen_by", ["file", "rules"])
def test_every_dataset_s_settings_equal_the_old_functions_key_for_key(name, seen_by):
    main = _main(name) if seen_by == "file" else _as_the_rules_see_it(name)
    names = main["datasets"]
    if isinstance(names, dict):  # a selection from the registry (config/benchmark.yaml)
        names = select_datasets(names, load_registry().as_dicts(), "main.datasets")
    for extra in ({}, {"device": "cuda"}, {"k_max_per_dataset": {names[0]: 3}}):
        section = {**main, **extra}
        settings = ProtocolSettings.from_section(section)
        assert repr(settings.alpha_settings()) == repr(_old_alpha_settings(section))
        for dataset in names:
            assert repr(settings.job_settings(dataset)) == repr(_old_job_settings(section, dataset))
            # a job parses what the rule gave it: the same dict again
            again = ProtocolSettings.from_section(settings.job_settings(dataset))
            assert repr(again.job_settings(dataset)) == repr(settings.job_settings(dataset))


def test_caps_budgets_and_seeds_come_from_the_object():
    settings = ProtocolSettings.from_section(
        {
            "k_max": 5,
            "k_max_per_dataset": {"wine": 3},
            "random_seeds": [4, 5],
            "cv_seed": 7,
            "time_budget_s": {"default": 900, "wrapper_blackbox": 20},
        }
    )
    assert settings.k_for("wine", 13) == 3 and settings.k_for("digits5", 64) == 5
    assert ProtocolSettings.from_section({}).k_for("wine", 13) == 13
    assert settings.time_budget_for("wrapper_blackbox") == 20.0
    assert settings.time_budget_for("greedy_rls") == 900.0
    assert settings.seeds_for("random") == [4, 5] and settings.seeds_for("greedy_rls") == [7]
    # jobs hand it to joblib workers
    assert pickle.loads(pickle.dumps(settings)) == settings


def test_settings_made_in_code_say_what_they_hold():
    settings = ProtocolSettings(n_folds=3, k_max=2, alphas=LambdaGrid(listed=(0.5, 2.0)))
    assert settings.job_settings("toy") == {
        "n_folds": 3,
        "cv_seed": 0,
        "random_seeds": [0, 1, 2],
        "alphas": [0.5, 2.0],
        "criterion": "squared",
        "bias": 1.0,
        "standardize": True,
        "k_max": 2,
        "memory_budget_mb": 8000,
        "time_budget_s": 3600,
        "flops_per_second": 2.0e9,
    }
    assert ProtocolSettings.from_section(settings.section) == settings


def test_errors_name_the_key_of_the_section_they_come_from():
    settings = ProtocolSettings.from_section({"k_max": 999}, key="mysection")
    with pytest.raises(ValueError, match=r"^mysection\.k_max \(999\) exceeds the 13 features"):
        settings.k_for("wine", 13)
    capped = ProtocolSettings.from_section({"k_max_per_dataset": {"wine": 14}}, key="mysection")
    with pytest.raises(ValueError, match=r"^mysection\.k_max_per_dataset\.wine \(14\) exceeds"):
        capped.k_for("wine", 13)
    with pytest.raises(ConfigError, match=r"^config key mysection\.device: 'gpu' is not one of"):
        ProtocolSettings.from_section({"device": "gpu"}, key="mysection")
    with pytest.raises(ConfigError, match=r"^config key mysection\.alphas: the λ list is empty"):
        ProtocolSettings.from_section({"alphas": []}, key="mysection")
    with pytest.raises(ConfigError, match=r"^config key mysection\.n_folds: 1 is not an integer"):
        ProtocolSettings.from_section({"n_folds": 1}, key="mysection")
    with pytest.raises(ConfigError, match=r"^config key mysection\.time_budget_s: a per-method"):
        ProtocolSettings.from_section({"time_budget_s": {"greedy_rls": 5}}, key="mysection")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ([], r"^config key g: the λ list is empty$"),
        ([1.0, 1.0e-320], r"^config key g\[1\]: λ = 1e-320 is outside 2\.225e-308 \.\.\. "),
        ([1.0, 1.0e308], r"^config key g\[1\]: λ = 1e\+308 is outside"),
        (
            {"base": 2, "min_exp": 3, "max_exp": -3},
            r"^config key g: the λ grid \(base\*\*min_exp \.\.\. base\*\*max_exp\) is empty$",
        ),
        (
            {"base": 10, "min_exp": -400, "max_exp": 400},
            r"^config key g\.min_exp: λ = 0\.0 is outside .* \(as base\*\*min_exp = 10\*\*-400\)$",
        ),
        (
            {"base": 10, "min_exp": -3, "max_exp": 400},
            r"^config key g\.max_exp: λ = inf is outside .* \(as base\*\*max_exp = 10\*\*400\)$",
        ),
    ],
)
def test_a_lambda_grid_without_normal_values_is_refused_naming_its_key(spec, message):
    with pytest.raises(ConfigError, match=message):
        LambdaGrid.from_spec(spec, key="g")
    with pytest.raises(ConfigError, match=message):  # the config check is the grid's own
        check_lambda_grid(spec, "g")


def test_a_listed_grid_keeps_its_values_and_order():
    grid = LambdaGrid.from_spec([2, 0.5, 8.0], key="g")
    np.testing.assert_array_equal(grid.values(), [2.0, 0.5, 8.0])
    assert grid.values().dtype == np.float64 and len(grid) == 3
    assert LambdaGrid.from_spec({"min_exp": -1, "max_exp": 1}) == LambdaGrid(min_exp=-1, max_exp=1)


def test_the_estimators_default_grid_is_the_protocol_s():
    from rlsbench.benchmark.estimators import DEFAULT_ALPHAS

    np.testing.assert_array_equal(DEFAULT_ALPHAS, DEFAULT_LAMBDA_GRID.values())
    np.testing.assert_array_equal(DEFAULT_ALPHAS, 2.0 ** np.arange(-15, 16))


def test_the_rules_function_names_reach_the_jobs_module():
    """The rules name their functions as the committed runs recorded them (a Snakemake param:
    a new name would re-run every job); they are the file-in/file-out jobs."""
    from rlsbench.benchmark import jobs
    from rlsbench.benchmark.workflow import resolve

    rules = (REPO / "src/rlsbench/studies/main/workflow/rules.smk").read_text()
    for name in ("alpha_job", "select_job"):
        assert f'function="rlsbench.benchmark.protocol.{name}"' in rules
        assert resolve(f"rlsbench.benchmark.protocol.{name}") is getattr(jobs, name)


def test_a_row_s_config_hash_is_that_of_the_section_the_job_was_given():
    from rlsbench.benchmark.datasets import Dataset
    from rlsbench.benchmark.protocol import run_alpha_job, run_select_job
    from rlsbench.benchmark.provenance import config_hash

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    dataset = Dataset("toy", "binary", X, y, [f"f{j}" for j in range(5)])
    section = _old_job_settings(
        {**_as_the_rules_see_it("config.yaml"), "n_folds": 3, "k_max": 2}, "toy"
    )
    settings = ProtocolSettings.from_section(section)
    record = run_alpha_job(dataset, 0, settings)
    rows = run_select_job(dataset, "greedy_rls", 0, 0, record, settings)
    assert [row["k"] for row in rows] == [1, 2]
    assert {row["config_hash"] for row in rows} == {config_hash(section)}
    # a section given as a dict is parsed on the way in, to the same rows
    again = run_select_job(dataset, "greedy_rls", 0, 0, record, section)
    assert [r["feature"] for r in again] == [r["feature"] for r in rows]
