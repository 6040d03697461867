"""The runtime table (rlsbench.benchmark.results.runtime_table): where each job's time goes.

A job's wall time (Snakemake's benchmark) splits into the method's own selection (its table's
``fit_time_s``, once per fold and seed), the protocol's work (the λ search of a λ-search job,
``alpha_time_s``; the scoring of a selection job, ``score_time_s``) and the rest; the peak
memory is the job's own when its table records it.
"""

from __future__ import annotations

import os

import pandas as pd
import pytest

from rlsbench.benchmark.results import runtime_table


def _bench(path, seconds, max_rss="-"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"s\th:m:s\tmax_rss\n{seconds}\t0:00:01\t{max_rss}\n")
    return str(path)


@pytest.fixture
def run(tmp_path):
    prefix = tmp_path / "benchmarks"
    benches = [
        _bench(prefix / "alpha" / "wine.tsv", 2.0, 300.0),
        _bench(prefix / "select" / "wine" / "greedy_rls.tsv", 5.0, 300.0),
    ]
    os.utime(benches[0], (1000.0, 1000.0))
    os.utime(benches[1], (1010.0, 1010.0))
    alpha = tmp_path / "alpha.csv"
    # two folds: the λ search took 0.5 s and 0.25 s
    pd.DataFrame(
        {"dataset": "wine", "fold": [0, 1], "alpha": 1.0, "alpha_time_s": [0.5, 0.25]}
    ).to_csv(alpha, index=False)
    steps = tmp_path / "steps.csv"
    # two folds × one seed × three steps: fit and score times repeat on a task's rows
    pd.DataFrame(
        {
            "dataset": "wine",
            "method": "greedy_rls",
            "fold": [0, 0, 0, 1, 1, 1],
            "seed": 0,
            "k": [1, 2, 3] * 2,
            "fit_time_s": [1.0] * 3 + [2.0] * 3,
            "score_time_s": [0.25] * 3 + [0.5] * 3,
            "job_max_rss_mb": 123.4,
        }
    ).to_csv(steps, index=False)
    return benches, str(prefix) + "/", [str(alpha), str(steps)]


def test_a_jobs_wall_time_splits_into_method_protocol_and_the_rest(run):
    benches, prefix, tables = run
    table = runtime_table(benches, prefix, tables).set_index("stage")
    select = table.loc["select"]
    assert select["total_s"] == 5.0
    assert select["method_s"] == 3.0  # once per task, not per step
    assert select["protocol_s"] == 0.75
    assert select["other_s"] == 1.25
    assert select["other_share"] == 0.25
    assert select["max_rss_mb"] == 123.4  # the job's own measurement wins

    alpha = table.loc["alpha"]
    assert alpha["method_s"] == 0.0 and alpha["protocol_s"] == 0.75
    assert alpha["other_s"] == 1.25
    assert alpha["max_rss_mb"] == 300.0  # no column of its own: Snakemake's benchmark

    total = table.loc["all"]
    assert total["jobs"] == 2 and total["total_s"] == 7.0
    assert total["method_s"] == 3.0 and total["protocol_s"] == 1.5 and total["other_s"] == 2.5
    # span: first start (1000 − 2) to last end (1010)
    assert total["mean_s"] == 12.0


def test_without_the_jobs_tables_the_split_is_left_empty(run):
    benches, prefix, _ = run
    table = runtime_table(benches, prefix)
    assert table["method_s"].isna().all() and table["other_s"].isna().all()
    assert list(table["total_s"]) == [2.0, 5.0, 7.0]


def test_a_table_for_every_benchmark_or_none(run):
    benches, prefix, tables = run
    with pytest.raises(ValueError, match="1 job table"):
        runtime_table(benches, prefix, tables[:1])
