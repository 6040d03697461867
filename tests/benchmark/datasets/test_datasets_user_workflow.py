"""A user's own dataset through the workflow, without editing the package: a registry file
(`dataset_registries`) and an inline entry (`datasets`) in a temporary copy of the workflow,
downloaded, prepared and used by the main part; a clash with a built-in name stops the run
before any job, naming both files."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.datasets import load_prepared
from rlsbench.benchmark.datasets.registry import builtin_registry_file

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow


def _csv(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, "pos", "neg")
    lines = ["a,b,c,label"] + [f"{r[0]:.6f},{r[1]:.6f},{r[2]:.6f},{t}" for r, t in zip(X, y)]
    return ("\n".join(lines) + "\n").encode(), int((y == "pos").sum())


def _entry(path, data, n_pos, n=60):
    import hashlib

    return {
        "description": "a user's CSV",
        "task": "binary",
        "format": "uci-csv",
        "files": [{"name": "mine.csv", "path": path, "sha256": hashlib.sha256(data).hexdigest()}],
        "read": {"sep": ",", "header": True, "target": "label"},
        "labels": {"positive": ["pos"], "negative": ["neg"]},
        "expected": {
            "n_samples": n,
            "n_features": 3,
            "class_counts": {"+1": n_pos, "-1": n - n_pos},
        },
        "preprocessing": "none",
    }


@pytest.fixture
def workflow_copy(tmp_path):
    """The workflow (Snakefile, workflow/, config/) copied into a temporary directory."""
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(REPO / name, copy / name)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "workflow", copy / "workflow", ignore=ignore)
    shutil.copytree(REPO / "config", copy / "config", ignore=ignore)
    return copy


def snakemake(copy, *args):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", *map(str, args)],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_user_datasets_download_prepare_and_run_in_the_main_part(workflow_copy, tmp_path):
    data, n_pos = _csv()
    inline_data, inline_pos = _csv(seed=1)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mine.csv").write_bytes(data)
    (tmp_path / "data" / "inline.csv").write_bytes(inline_data)
    registry = {"version": 1, "datasets": {"my_set": _entry("../data/mine.csv", data, n_pos)}}
    (workflow_copy / "my_datasets.yaml").write_text(yaml.safe_dump(registry))
    config = {
        "run_name": "mine",
        "dataset_registries": ["my_datasets.yaml"],
        "datasets": {"my_inline": _entry("../data/inline.csv", inline_data, inline_pos)},
        "main": {
            **yaml.safe_load((REPO / "tests" / "configs" / "tiny.yaml").read_text())["main"],
            "datasets": ["my_set"],
            "methods": ["greedy_rls"],
            "k_max": 2,
            "k_max_per_dataset": {},
            "report_k": [1, 2],
        },
    }
    (workflow_copy / "my.yaml").write_text(yaml.safe_dump(config))
    prepared = ["results/datasets/prepared/my_set.npz", "results/datasets/prepared/my_inline.npz"]
    run = snakemake(workflow_copy, *prepared, "--configfile", "my.yaml")
    assert run.returncode == 0, run.stderr[-3000:]
    ds = load_prepared(workflow_copy / prepared[0])
    assert ds.X.shape == (60, 3) and ds.class_counts() == {"+1": n_pos, "-1": 60 - n_pos}
    url = ds.provenance["files"][0]["url"]
    assert url == (tmp_path / "data" / "mine.csv").resolve().as_uri()
    assert load_prepared(workflow_copy / prepared[1]).class_counts()["+1"] == inline_pos

    # the main part takes the user's dataset like a built-in one
    run = snakemake(workflow_copy, "main_all", "--configfile", "my.yaml")
    assert run.returncode == 0, run.stderr[-3000:]
    summary = pd.read_csv(workflow_copy / "results/runs/mine/main/tables/summary.csv")
    assert set(summary["dataset"]) == {"my_set"}


def test_a_user_entry_shadowing_a_builtin_stops_before_any_job(workflow_copy, tmp_path):
    data, n_pos = _csv()
    (tmp_path / "mine.csv").write_bytes(data)
    registry = {"version": 1, "datasets": {"wine": _entry(str(tmp_path / "mine.csv"), data, n_pos)}}
    (workflow_copy / "my_datasets.yaml").write_text(yaml.safe_dump(registry, sort_keys=False))
    (workflow_copy / "my.yaml").write_text(
        yaml.safe_dump({"run_name": "x", "dataset_registries": ["my_datasets.yaml"]})
    )
    run = snakemake(workflow_copy, "-n", "datasets_all", "--configfile", "my.yaml")
    assert run.returncode != 0
    output = run.stdout + run.stderr
    assert "'wine' is already registered in" in output
    assert str(builtin_registry_file()) in output and "my_datasets.yaml', line 3" in output
    assert not (workflow_copy / "results").exists()
