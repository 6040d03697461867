"""Sun & Yao isolating runs: Table 1 with one setting changed at a time (tiny data)."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets.prepare import Dataset, save_prepared
from rlsbench.studies.sunyao.experiments import METHODS, choose_hyperparameters, load_data
from rlsbench.studies.sunyao.investigations import VARIANTS, run_variants

GRIDS = Path(__file__).resolve().parents[3] / "config" / "investigations" / "sunyao.yaml"


def _section():
    return {
        "enabled": True,
        "seed": 0,
        "sigma2": 0.05,
        "cv": {
            "subset": 60,
            "folds": 2,
            "width_factors": [1.0, 4.0],
            "lams": [0.01, 1.0],
            "k_max": [5, 10],
        },
        "rvm": {
            "rvm_old": {"max_iter": 20, "tol": 1e-3},
            "rvm_new": {"max_iter": 200, "tol": 1e-3},
        },
        "table1": {
            "n_splits": 2,
            "datasets": [
                {"name": "ozone", "n_train": 40, "n_test": 20, "features": {"drop": ["doy"]}}
            ],
        },
    }


@pytest.fixture
def prepared(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((70, 3))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.standard_normal(70)
    names = ["vh", "wind", "doy"]
    save_prepared(
        Dataset(name="ozone", task="regression", X=X, y=y, feature_names=names, provenance={}),
        tmp_path / "ozone.npz",
    )
    return tmp_path


def test_each_variant_changes_one_setting_and_shares_what_it_does_not_change(prepared):
    frame = run_variants(_section(), prepared, ("config", "all_inputs", "paper_k_max"))
    by = frame.set_index(["variant", "method"])
    assert by.loc[("config", "forward"), "d"] == 2 and by.loc[("all_inputs", "forward"), "d"] == 3
    # paper_k_max changes Forward's k_max only: the RVM rows are those of the config run
    for method in ("rvm_old", "rvm_new"):
        pd.testing.assert_series_equal(
            by.loc[("config", method)].drop(["changed", "p_vs_forward"]),
            by.loc[("paper_k_max", method)].drop(["changed", "p_vs_forward"]),
            check_names=False,
        )
    assert by.loc[("paper_k_max", "forward"), "k_max"] == 100  # the paper's Ozone basis count
    assert by.loc[("config", "forward"), "k_max"] in (5, 10)
    fwd = frame[frame["method"] == "forward"]
    assert fwd["best_rvm"].isin(["rvm_old", "rvm_new"]).all()
    assert (fwd["s1_comparable"] == (fwd["s1_p"] >= 0.01)).all()
    again = run_variants(_section(), prepared, ("config",))
    pd.testing.assert_frame_equal(again, frame[frame["variant"] == "config"].reset_index(drop=True))


def test_the_command_writes_the_table_with_provenance_and_refuses_unknown_variants(
    prepared, tmp_path, capsys
):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"sunyao": _section()}))
    out = tmp_path / "out"
    args = ["investigate", "sunyao", "table1_variants", "--config", str(GRIDS)]
    args += ["--paper-config", str(config), "--data", str(prepared), "--out", str(out)]
    assert cli.main([*args, "--set", "variants=[rvm_old_10x_iter]"]) == 0
    assert cli.main([*args, "--set", "variants=[config]"]) == 0  # merged, in VARIANTS order
    table = pd.read_csv(out / "table1_variants.csv")
    assert list(table["variant"]) == ["config"] * 3 + ["rvm_old_10x_iter"] * 3
    assert list(table["method"]) == ["forward", "rvm_old", "rvm_new"] * 2
    assert "config_hash" in table
    commands = list(dict.fromkeys(table["command"]))
    assert commands[0].endswith("--set 'variants=[config]'") and len(commands) == 2
    assert "S1 holds" in (out / "table1_variants.md").read_text()
    capsys.readouterr()
    assert cli.main([*args, "--set", "variants=[config, wrong]"]) == 1
    assert "unknown variant(s) wrong" in capsys.readouterr().err
    assert set(VARIANTS) >= {"config", "all_inputs", "boston_drop_b", "paper_k_max"}


def _workflow_hyper(section, entry, prepared, hyper):
    """The workflow's two steps: one CV job per method, then their merge."""
    from rlsbench.studies.sunyao.jobs import hyper_job, hyper_method_job

    parts = []
    for method in METHODS:
        parts.append(str(hyper.parent / hyper.stem / f"{method}.json"))
        hyper_method_job(
            parts[-1],
            dataset=entry["name"],
            method=method,
            entry=entry,
            cv=section["cv"],
            rvm=None if method == "forward" else section["rvm"],
            sigma2=section["sigma2"],
            seed=section["seed"],
            threads=1,
            data=str(prepared / f"{entry['name']}.npz"),
        )
    hyper_job(
        str(hyper),
        parts=parts,
        entry=entry,
        cv=section["cv"],
        rvm=section["rvm"],
        sigma2=section["sigma2"],
        seed=section["seed"],
    )
    return parts


def test_the_per_method_cv_jobs_merge_to_the_joint_search(prepared, tmp_path):
    """Each method's CV is its own workflow job; merged, they are the one joint search."""
    from rlsbench.studies.sunyao.jobs import merge_hyper

    section = _section()
    entry = section["table1"]["datasets"][0]
    hyper = tmp_path / "hyper" / "ozone.json"
    parts = _workflow_hyper(section, entry, prepared, hyper)
    X, y = load_data("ozone", entry, prepared / "ozone.npz")
    joint = choose_hyperparameters(
        X,
        y,
        section["cv"],
        section["rvm"],
        sigma2=section["sigma2"],
        seed=0,
        target=entry.get("target", "raw"),
    )
    joint = json.loads(json.dumps(joint))  # as JSON stores it (tuples as lists)
    merged = json.loads(hyper.read_text())
    assert merged.pop("provenance")["seed"] == 0
    assert merged == joint
    assert {r["method"] for r in merged["cv_rows"]} == set(METHODS)
    with pytest.raises(ValueError, match="missing for rvm_new"):
        merge_hyper(parts[:2])
    with pytest.raises(ValueError, match="expected one method"):
        merge_hyper([*parts[:2], str(hyper)])


def test_the_workflows_cv_choices_are_reused_only_for_the_settings_they_were_made_with(
    prepared, tmp_path, caplog
):
    section = _section()
    entry = section["table1"]["datasets"][0]
    hyper_dir = tmp_path / "hyper"
    _workflow_hyper(section, entry, prepared, hyper_dir / "ozone.json")
    fresh = run_variants(section, prepared, ("config", "all_inputs"))
    with caplog.at_level("INFO"):
        reused = run_variants(section, prepared, ("config", "all_inputs"), hyper_dir=hyper_dir)
    # the config variant's three choices, not all_inputs' (other inputs, another hash)
    assert re.search(
        r"reused from .*: ozone forward, ozone rvm_old, ozone rvm_new$", caplog.text, re.M
    )
    pd.testing.assert_frame_equal(fresh, reused)
