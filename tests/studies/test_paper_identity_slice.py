"""A committed paper table comes out of the paper config again: a slice of config/paper.yaml's
``main`` part (one of its datasets, two of its methods, every other key as it is: 10 folds,
the λ grid, the zero-one criterion, all features) gives the committed rows of
results/paper/main/tables/curves.csv for those (dataset, method) pairs, cell for cell as
written (issue 42 item 4: CI checks a part's identity on a small slice; the reference
benchmark's own slice is tests/benchmark/test_reference_identity.py).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.datasets._testing import FAST_FAIL_ENV, run_snakemake

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "datasets"
COMMITTED = REPO / "results" / "paper" / "main" / "tables" / "curves.csv"
#: the paper's smallest dataset; the paper's method and the randomized baseline (three seeds)
DATASETS = ["australian"]
METHODS = ["greedy_rls", "random"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}"),
]

snakemake = functools.partial(run_snakemake, REPO, env=FAST_FAIL_ENV)


def _slice(tmp_path) -> Path:
    config = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    main = config["main"]
    assert set(DATASETS) <= set(main["datasets"]) and set(METHODS) <= set(main["methods"])
    slice_config = {
        "run_name": "paper_slice",
        # report_k picks the summary's columns (not compared here); the run refuses one above
        # the slice's 14 features
        "main": {
            **main,
            "datasets": DATASETS,
            "methods": METHODS,
            "report_k": [k for k in main["report_k"] if k <= 14],
            # per-method budgets name only the slice's methods
            "time_budget_s": {
                m: b for m, b in main["time_budget_s"].items() if m in {"default", *METHODS}
            },
        },
        # only the main part: the others are off
        **{part: {"enabled": False} for part in ("scaling", "buteneers", "ramona", "sunyao")},
    }
    path = tmp_path / "paper_slice.yaml"
    path.write_text(yaml.safe_dump(slice_config, sort_keys=False))
    return path


def test_a_slice_of_the_paper_config_gives_the_committed_main_curves(tmp_path):
    config = _slice(tmp_path)
    curves = "results/runs/paper_slice/main/tables/curves.csv"
    run = snakemake(tmp_path, [curves], [str(SHARED)], "--configfile", str(config))
    assert run.returncode == 0, run.stderr[-3000:]
    ours = pd.read_csv(tmp_path / curves, dtype=str, keep_default_na=False)
    committed = pd.read_csv(COMMITTED, dtype=str, keep_default_na=False)
    keep = committed["dataset"].isin(DATASETS) & committed["method"].isin(METHODS)
    committed = committed[keep]
    assert len(committed) == 2 * 14  # every k of australian's 14 features, both methods
    key = ["dataset", "method", "k"]

    def ordered(frame):
        return frame.sort_values(key, key=lambda c: c.astype(int) if c.name == "k" else c)

    pd.testing.assert_frame_equal(
        ordered(ours).reset_index(drop=True), ordered(committed).reset_index(drop=True)
    )
