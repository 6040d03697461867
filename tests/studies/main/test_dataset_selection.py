"""The ``main`` section's registry selection (``datasets: {registry: [...], except: [...]}``) and
``k_max_clip``: a new registry entry joins such a run by itself, and a cap above a dataset's
feature count selects all of them instead of stopping the run (issue 41)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError, select_datasets, validate_section
from rlsbench.benchmark.datasets.registry import load_registry
from rlsbench.benchmark.protocol import k_max_for
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.studies.main import config as main_config

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "src" / "rlsbench" / "studies" / "main" / "workflow" / "schema.yaml"


def _registry():
    return {
        "a": {"task": "binary", "expected": {"n_samples": 100, "n_features": 5}},
        "b": {"task": "regression", "expected": {"n_samples": 100, "n_features": 80}},
        "b-copy": {"task": "regression", "duplicate_of": "b", "expected": {"n_features": 80}},
        "c": {"task": "multiclass", "expected": {"n_samples": 100, "n_features": 3}},
    }


def _main(**extra):
    section = {"datasets": ["a"], "methods": ["greedy_rls"], **extra}
    return validate_section(section, SCHEMA, "main")


def test_a_selection_takes_the_registry_s_datasets_of_its_tasks_in_order():
    registry = _registry()
    assert select_datasets({"registry": ["binary", "regression"]}, registry, "k") == ["a", "b"]
    assert select_datasets({"registry": ["binary", "multiclass"], "except": ["a"]}, registry,
                           "k") == ["c"]  # fmt: skip
    # a list is the list, whatever the registry
    assert select_datasets(["c", "a"], registry, "k") == ["c", "a"]


def test_a_new_registry_entry_joins_a_selection_without_another_edit():
    registry = _registry()
    spec = {"registry": ["binary", "multiclass", "regression"]}
    before = select_datasets(spec, registry, "main.datasets")
    registry["d"] = {"task": "binary", "expected": {"n_features": 7}}
    assert select_datasets(spec, registry, "main.datasets") == before + ["d"]


@pytest.mark.parametrize(
    ("spec", "registry", "message"),
    [
        ({"registry": ["binary"], "except": ["zz"]}, _registry(),
         r"main\.datasets\.except\[0\]: unknown dataset 'zz'"),
        ({"registry": ["binary"], "except": ["a"]}, _registry(), r"main\.datasets: the selection"),
        ({"registry": ["binary"]}, {}, r"main\.datasets: a registry selection needs"),
    ],
)  # fmt: skip
def test_a_selection_that_cannot_be_made_names_its_key(spec, registry, message):
    with pytest.raises(ConfigError, match=message):
        select_datasets(spec, registry, "main.datasets")


def test_the_schema_refuses_a_task_it_does_not_know():
    with pytest.raises(ConfigError, match="main.datasets"):
        _main(datasets={"registry": ["ranking"]})


def test_the_main_check_turns_a_selection_into_its_names_once_for_every_reader():
    main = _main(datasets={"registry": ["binary", "regression"]}, k_max=10, k_max_clip=True)
    main_config.check(main, _registry())
    assert main["datasets"] == ["a", "b"]


def test_without_clip_a_cap_above_the_features_stops_the_run_with_clip_it_takes_them_all():
    with pytest.raises(ConfigError, match=r"main\.k_max: k_max = 10 exceeds the 5 features"):
        main_config.check(_main(datasets=["a", "b"], k_max=10), _registry())
    main = _main(datasets=["a", "b"], k_max=10, k_max_clip=True, report_k=[1, 10])
    main_config.check(main, _registry())
    settings = ProtocolSettings.from_section(main)
    assert settings.k_for("a", 5) == 5 and settings.k_for("b", 80) == 10
    assert k_max_for(settings, "a", 5) == 5 and k_max_for(settings, "b", 80) == 10
    assert main_config.train_shape(main, _registry(), "a")[2] == 5


def test_with_clip_report_k_is_checked_against_what_the_selections_reach():
    main = _main(datasets=["a", "c"], k_max=10, k_max_clip=True, report_k=[1, 10])
    with pytest.raises(ConfigError, match=r"report_k\[1\]: k = 10 exceeds the 5 features"):
        main_config.check(main, _registry())


def test_clip_enters_the_job_settings_only_where_written():
    plain = ProtocolSettings.from_section(_main(k_max=10))
    clipped = ProtocolSettings.from_section(_main(k_max=10, k_max_clip=True))
    assert "k_max_clip" not in plain.job_settings("a")
    assert clipped.job_settings("a")["k_max_clip"] is True
    with pytest.raises(ConfigError, match=r"main\.k_max_clip: 'yes' is not true or false"):
        ProtocolSettings(k_max_clip="yes")


def test_the_benchmark_config_selects_from_the_real_registry():
    main = yaml.safe_load((REPO / "config" / "benchmark.yaml").read_text())["main"]
    registry = load_registry().as_dicts()
    names = select_datasets(main["datasets"], registry, "main.datasets")
    assert len(names) >= 100 and len(set(names)) == len(names)
    assert not {"breast_cancer", "synth_small"} & set(names)
    assert all(not registry[name].get("duplicate_of") for name in names)
    full = copy.deepcopy(main)
    main_config.check(validate_section(full, SCHEMA, "main"), registry)
    assert full["datasets"] == names
