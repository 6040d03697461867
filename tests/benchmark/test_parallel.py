"""Folds and seeds of one job side by side: same results, in the same order, whatever the
number of threads; progress lines in the log."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest

from rlsbench.benchmark import jobs
from rlsbench.benchmark import tables as tables_mod
from rlsbench.benchmark.parallel import map_tasks, split_threads
from rlsbench.benchmark.progress import Progress


def _square_plus_threads(x, offset, n_jobs=1):
    return x * x + offset, n_jobs


@pytest.mark.parametrize(("n_jobs", "n_tasks"), [(1, 5), (2, 5), (4, 3), (3, 1)])
def test_threads_are_split_without_oversubscription(n_jobs, n_tasks):
    workers, inner = split_threads(n_jobs, n_tasks)
    assert 1 <= workers <= n_tasks and workers * inner <= max(n_jobs, 1)
    assert workers == min(n_jobs, n_tasks)


def test_tasks_return_in_order_in_workers_and_inline():
    tasks = [(x, 10) for x in range(7)]
    inline = map_tasks(_square_plus_threads, tasks, n_jobs=2, parallel=False)
    workers = map_tasks(_square_plus_threads, tasks, n_jobs=2, parallel=True)
    assert [r for r, _ in inline] == [x * x + 10 for x in range(7)] == [r for r, _ in workers]
    assert {t for _, t in workers} == {1}  # 2 threads, 2 workers: one thread each
    assert {t for _, t in inline} == {2}  # one after another: all the threads


def test_progress_lines_count_and_estimate(caplog):
    with caplog.at_level(logging.INFO, logger="rlsbench.benchmark.progress"):
        map_tasks(_square_plus_threads, [(1, 0), (2, 0)], what="fold", label=lambda t: f"x={t[0]}")
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("fold 1/2 (x=1), elapsed") and "left" in lines[0]
    assert lines[1].startswith("fold 2/2 (x=2), elapsed") and "left" not in lines[1]
    assert Progress(4, "round", logger=None).done("r", n=2).startswith("round 2/4 (r)")


def test_a_job_gives_the_same_table_on_one_thread_and_on_two(tmp_path, monkeypatch):
    """The protocol's select job: workers (forced) and one thread write equal tables."""
    from rlsbench.benchmark.datasets import Dataset, save_prepared

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 8))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1.0, -1.0)
    data = tmp_path / "toy.npz"
    save_prepared(Dataset("toy", "binary", X, y, [f"f{j}" for j in range(8)]), data)
    main = {
        "n_folds": 3,
        "cv_seed": 0,
        "random_seeds": [0, 1],
        "alphas": {"base": 2, "min_exp": -3, "max_exp": 3},
        "criterion": "squared",
        "bias": 1.0,
        "k_max": 4,
        "k_max_per_dataset": {},
        "memory_budget_mb": 500,
        "time_budget_s": 10.0,
        "flops_per_second": 2e9,
    }
    jobs.alpha_job(str(data), str(tmp_path / "alphas.csv"), settings=main)
    monkeypatch.setattr(jobs, "PARALLEL_MIN_FLOPS", 0.0)
    tables = {}
    for threads in (1, 2):
        out = tmp_path / f"random-{threads}.csv"
        jobs.select_job(
            str(data),
            str(tmp_path / "alphas.csv"),
            str(out),
            method="random",
            settings=main,
            threads=threads,
        )
        # The rows' provenance says how they were computed (blas_threads: 1 in the workers,
        # what the process had on one thread), so it is left out like the timings: the
        # contract is equal tables without the run-dependent columns.
        tables[threads] = tables_mod.deterministic_part(pd.read_csv(out))
    pd.testing.assert_frame_equal(tables[1], tables[2], check_exact=True)
    assert list(
        tables[1]
        .drop_duplicates(["fold", "seed"])[["fold", "seed"]]
        .itertuples(index=False, name=None)
    ) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]


def test_download_bars_only_on_request(tmp_path):
    """The byte counter of a transfer is a no-op unless the CLI turns bars on (a terminal)."""
    import io

    from rlsbench.benchmark.progress import terminal_bars, transfer_bar

    assert type(transfer_bar("x", 10)).__name__ == "_NoBar"
    with terminal_bars(enabled=True):
        bar = transfer_bar("file.bin", 2048)
        bar.fp = io.StringIO()  # keep the test's stderr clean
        bar.update(1024)
        assert bar.n == 1024
        bar.close()
    with terminal_bars(enabled=False):
        assert type(transfer_bar("x", 10)).__name__ == "_NoBar"
