"""The committed reference benchmark comes out of its own config again: a slice of
config/benchmark.yaml (three of its datasets, four of its methods, every other key as it is)
gives the committed rows of results/benchmark/tables/curves.csv for those (dataset, method)
pairs, cell for cell as written (issue 42 item 4 and issue 46 item 5: CI checks identity on a
small slice; a change of the engine or of a method that moves a number fails here).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.config import select_datasets
from rlsbench.benchmark.datasets._testing import FAST_FAIL_ENV, run_snakemake
from rlsbench.benchmark.datasets.registry import load_registry

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "datasets"
TABLES = REPO / "results" / "benchmark" / "tables"
#: the committed curves: gzip-compressed from the publication that applies
#: main.publish_gzip on (config/benchmark.yaml), plain in the one before
COMMITTED = next(
    (p for p in (TABLES / "curves.csv.gz", TABLES / "curves.csv") if p.is_file()),
    TABLES / "curves.csv.gz",
)
#: a binary, a multiclass and a regression set (with a k cap of the config's own); a
#: deterministic selector, the two path methods and the randomized baseline
DATASETS = ["sonar", "wine", "machine-cpu"]
METHODS = ["greedy_rls", "lasso_path", "enet_path", "random"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}"),
]

snakemake = functools.partial(run_snakemake, REPO, env=FAST_FAIL_ENV)


def _slice(tmp_path) -> tuple[Path, str]:
    config = yaml.safe_load((REPO / "config" / "benchmark.yaml").read_text())
    main = config["main"]
    registry = load_registry().as_dicts()
    names = select_datasets(main["datasets"], registry, "main.datasets")
    assert set(DATASETS) <= set(names) and set(METHODS) <= set(main["methods"])
    main["datasets"] = DATASETS
    main["methods"] = METHODS
    main["k_max_per_dataset"] = {
        name: k for name, k in main.get("k_max_per_dataset", {}).items() if name in DATASETS
    }
    budgets = main.get("time_budget_s")
    if isinstance(budgets, dict):  # per-method budgets name only the slice's methods
        main["time_budget_s"] = {m: s for m, s in budgets.items() if m in {"default", *METHODS}}
    main.pop("statistics", None)  # across two datasets they say nothing; not compared here
    main.pop("publish_to", None)
    config["run_name"] = "reference_slice"
    path = tmp_path / "reference_slice.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path, "results/runs/reference_slice/main/tables/curves.csv"


def test_a_slice_of_the_benchmark_config_gives_the_committed_curves(tmp_path):
    config, curves = _slice(tmp_path)
    run = snakemake(tmp_path, [curves], [str(SHARED)], "--configfile", str(config))
    assert run.returncode == 0, run.stderr[-3000:]
    ours = pd.read_csv(tmp_path / curves, dtype=str, keep_default_na=False)
    committed = pd.read_csv(COMMITTED, dtype=str, keep_default_na=False)
    keep = committed["dataset"].isin(DATASETS) & committed["method"].isin(METHODS)
    committed = committed[keep].reset_index(drop=True)
    assert len(committed) > 0
    key = ["dataset", "method", "k"]
    ours = ours.sort_values(key, key=lambda c: c.astype(int) if c.name == "k" else c)
    committed = committed.sort_values(key, key=lambda c: c.astype(int) if c.name == "k" else c)
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), committed.reset_index(drop=True))
