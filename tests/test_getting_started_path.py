"""The Getting started page's "Your next paper" path, run from its own files
(docs/examples/next_paper/): a method of the user's as an installed plugin, a CSV dataset of the
user's registered by ``rlsbench datasets hash``, and ``rlsbench run`` with the statistics and
the LaTeX table, in an empty directory outside the checkout. Only the number of folds, k and the
datasets (the user's and two of the suite's) are made smaller here, so that the test is quick;
every other setting is the page's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "next_paper"
RLSBENCH = [sys.executable, "-m", "rlsbench"]


def _run(cmd, cwd, env, timeout=600):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_the_page_shows_the_example_files():
    page = (REPO / "docs" / "getting_started.rst").read_text(encoding="utf-8")
    for name in ("my-ranker/my_ranker.py", "next_paper.yaml"):
        assert f"examples/next_paper/{name}" in page
    for command in (
        "pip install -e ./my-ranker",
        "python make_my_data.py",
        "rlsbench datasets hash my_data.csv --name my_data --target label > my_datasets.yaml",
        "rlsbench datasets hash my_prices.csv --name my_prices --target price --task regression"
        " > my_prices.yaml",
        "rlsbench run --configfile next_paper.yaml --cores 2 main_all",
    ):
        assert command in page, command


@pytest.mark.slow
def test_own_method_own_dataset_and_the_statistics_from_the_pages_files(tmp_path):
    work = tmp_path / "my_project"
    shutil.copytree(EXAMPLE, work)
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    # 1. the method: pip install of the plugin's own directory (no index: setuptools is here)
    _run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
        + ["--no-build-isolation", "--target", str(site), "./my-ranker"],
        work,
        env,
    )
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    listed = _run([*RLSBENCH, "methods", "list"], work, env).stdout
    assert any(line.split()[:2] == ["corr_ranker", "my-ranker"] for line in listed.splitlines())
    # 2. the dataset: written by the page's script, registered by its digests
    _run([sys.executable, "make_my_data.py"], work, env)
    registry = _run(
        [*RLSBENCH, "datasets", "hash", "my_data.csv", "--name", "my_data", "--target", "label"],
        work,
        env,
    ).stdout
    (work / "my_datasets.yaml").write_text(registry)
    assert yaml.safe_load(registry)["datasets"]["my_data"]["expected"]["n_samples"] == 300
    prices = [*RLSBENCH, "datasets", "hash", "my_prices.csv", "--name", "my_prices"]
    registry = _run([*prices, "--target", "price", "--task", "regression"], work, env).stdout
    (work / "my_prices.yaml").write_text(registry)
    # 3. the run, with fewer folds and features than the page (time only)
    config = yaml.safe_load((work / "next_paper.yaml").read_text())
    config["main"].update(n_folds=3, k_max=5, report_k=[1, 5])
    assert {"my_data", "my_prices", "diabetes"} <= set(config["main"]["datasets"])
    config["main"]["datasets"] = ["my_data", "breast_cancer", "wine", "my_prices", "diabetes"]
    config["main"]["statistics"]["bayes_samples"] = 2000
    (work / "next_paper.yaml").write_text(yaml.safe_dump(config))
    _run(
        [*RLSBENCH, "run", "--configfile", "next_paper.yaml", "--cores", "2", "main_all"],
        work,
        env,
        timeout=1200,
    )
    run = work / "results" / "runs" / "next_paper" / "main"
    steps = pd.read_csv(run / "tables" / "steps.csv")
    ok = steps[steps["status"] == "ok"]
    assert set(ok["dataset"]) == set(config["main"]["datasets"])
    assert set(ok["method"]) == set(config["main"]["methods"])
    ranks = pd.read_csv(run / "tables" / "statistics" / "ranks.csv")
    assert set(ranks["method"]) == set(config["main"]["methods"])
    # both tasks compared (the regression sets on R², not dropped); ranks of 6 methods over
    # the datasets sum to 1 + ... + 6 at every (comparison, operating point)
    assert set(ranks["group"]) == {"classification", "regression"}
    sums = ranks.groupby(["group", "operating_point"])["average_rank"].sum()
    assert sums.round(9).eq(21.0).all()
    wilcoxon = pd.read_csv(run / "tables" / "statistics" / "wilcoxon.csv")
    assert "corr_ranker" not in set(wilcoxon["method"])  # the reference itself
    assert set(wilcoxon["method"]) == set(config["main"]["methods"]) - {"corr_ranker"}
    for task in ("classification", "regression"):
        for point in ("fixed_k5", "loo_k", "auc"):
            png = run / "figures" / "statistics" / f"cd_{task}_{point}.png"
            assert png.stat().st_size > 0
    tex = (run / "tables" / "paper_table.tex").read_text()
    # one float per task; the plugin's label (tags["label"]) names its column
    assert tex.count(r"\begin{table") == 2 and "regression datasets" in tex
    assert "corr. ranker" in tex and r"\textbf{" in tex
