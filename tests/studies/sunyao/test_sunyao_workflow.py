"""The sunyao part end to end on generated data: two clean runs give identical result tables
once the measured times are dropped (issue 19.3), and the flop budget, not a clock, decides
which Fig. 1 sizes run. Runs in temporary directories; nothing here touches results/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow

#: Measured times: reported, never deciding a result.
TIMING = ["fit_s", "wall_s", "fit_s_mean"]

SECTION = {
    "enabled": True,
    "seed": 0,
    "threads": 1,
    "sigma2": 0.01,
    "cv": {
        "subset": 80,
        "folds": 2,
        "width_factors": [0.5, 2.0],
        "lams": [0.01, 1.0],
        "k_max": [5, 10],
    },
    "rvm": {"rvm_old": {"max_iter": 100, "tol": 1e-3}, "rvm_new": {"max_iter": 500, "tol": 1e-3}},
    "table1": {
        "n_splits": 2,
        "datasets": [
            {"name": "sinc", "source": "sinc", "n_samples": 160, "n_train": 60, "n_test": 100}
        ],
    },
    "fig1": {
        "dataset": "sinc-scaling",
        "source": "sinc",
        "n_samples": 400,
        "noise": 0.1,
        "sigma2": 0.01,
        "n_test": 100,
        "train_sizes": [60, 120, 240],
        "k_max_fraction": 0.1,
        "k_max_cap": 500,
        "cv_k_max": [10],
        # with the CV's widths the Old RVM counts ≈ 1e7 / 8e7 estimated flops at n = 60 / 120,
        # the New RVM ≈ 6e6 / 3e7 at n = 120 / 240
        "flop_budget": 2.0e7,
        "memory_budget_mb": 100,
    },
}


def _run(workdir, config):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
    proc = subprocess.run(
        [*cmd, "--directory", str(workdir), "--configfile", str(config), "--", "sunyao_all"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return workdir / "results" / "runs" / "sunyao-det" / "sunyao"


def _tables(out):
    tables = {}
    for name in ("table1/table1.csv", "table1/splits.csv", "fig1/fig1.csv"):
        frame = pd.read_csv(out / name)
        tables[name] = frame.drop(columns=[c for c in TIMING if c in frame])
    return tables


def test_two_clean_runs_give_identical_tables_and_the_flop_budget_decides_the_sizes(tmp_path):
    config = tmp_path / "sunyao.yaml"
    config.write_text(yaml.safe_dump({"run_name": "sunyao-det", "sunyao": SECTION}))
    first = _tables(_run(tmp_path / "a", config))
    second = _tables(_run(tmp_path / "b", config))
    for name, frame in first.items():
        pd.testing.assert_frame_equal(frame, second[name], obj=name)
    fig1 = first["fig1/fig1.csv"].set_index(["method", "n_train"])
    assert list(fig1.loc["rvm_old", "status"]) == ["ok", "over_flops", "skipped"]
    assert list(fig1.loc["rvm_new", "status"]) == ["ok", "ok", "over_flops"]
    stopped = fig1[fig1["status"] == "over_flops"]
    assert (stopped["flops"] <= SECTION["fig1"]["flop_budget"]).all()
    assert (fig1.loc["forward", "status"] == "ok").all()
    assert (
        "estimated flops"
        in (tmp_path / "a" / "results/runs/sunyao-det/sunyao/fig1/fig1.md").read_text()
    )
