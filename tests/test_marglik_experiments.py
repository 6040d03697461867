"""The Sun & Yao experiment helpers: splits, budgets and the Table 1 summary."""

import numpy as np
import pandas as pd
import pytest

from rlsbench.marglik.experiments import (
    METHODS,
    PAPER_TABLE1,
    fig1_rows,
    make_sinc,
    split_indices,
    standardize,
    summarize_table1,
    table1_markdown,
    table1_rows,
)

HYPER = {"forward": {"width": 0.5, "lam": 0.1, "k_max": 15}, "rvm_old": {"width": 0.5},
         "rvm_new": {"width": 0.5}}
RVM = {"rvm_old": {"max_iter": 200, "tol": 1e-3}, "rvm_new": {"max_iter": 2000, "tol": 1e-3}}


def test_splits_are_disjoint_reproducible_and_differ_between_splits():
    a_train, a_test = split_indices(100, 60, 30, seed=3, split=0)
    assert len(set(a_train) | set(a_test)) == 90
    b_train, _ = split_indices(100, 60, 30, seed=3, split=0)
    np.testing.assert_array_equal(a_train, b_train)
    c_train, _ = split_indices(100, 60, 30, seed=3, split=1)
    assert not np.array_equal(a_train, c_train)
    with pytest.raises(ValueError, match="exceeds"):
        split_indices(100, 80, 30, seed=0, split=0)


def test_standardize_uses_training_statistics_only():
    X, y = make_sinc(50, seed=1)
    train = np.arange(30)
    Xs, ys = standardize(X, y, train, target="standardize")
    assert np.allclose(Xs[train].mean(0), 0) and np.allclose(Xs[train].std(0), 1)
    assert np.isclose(ys[train].std(), 1) and not np.isclose(ys.std(), 1)
    with pytest.raises(ValueError, match="target"):
        standardize(X, y, train, target="log")


def test_table1_rows_are_identical_for_the_same_seed_and_summarised_per_method():
    X, y = make_sinc(160, seed=0)
    frames = []
    for method in METHODS:
        kw = dict(n_train=60, n_test=100, n_splits=2, seed=0, sigma2=0.01, rvm=RVM)
        rows = table1_rows(X, y, method, HYPER, **kw)
        again = table1_rows(X, y, method, HYPER, **kw)
        assert [r["mse"] for r in rows] == [r["mse"] for r in again]
        assert all(r["status"] == "ok" and r["mse"] < 0.05 for r in rows)
        frames.append(pd.DataFrame(rows))
    splits = pd.concat(frames).assign(dataset="ozone")
    summary = summarize_table1(splits)
    assert list(summary["method"]) == list(METHODS)
    fwd = summary.set_index("method").loc["forward"]
    assert fwd["n_basis_mean"] == 15 and fwd["paper_mse_mean"] == PAPER_TABLE1["ozone"]["forward"][0]
    text = table1_markdown(summary, {"ozone": (1, 60, 100)})
    assert "| ozone | ours | 1 | 60 | 100 |" in text and "| | paper | 8 | 250 | 80 |" in text


def test_fig1_stops_a_method_at_the_memory_budget_and_skips_larger_sizes():
    X, y = make_sinc(400, seed=0)
    # rvm_old needs ≈ 40 n² bytes: n = 100 fits in 1 MB, n = 200 does not
    rows = fig1_rows(X, y, "rvm_old", HYPER, train_sizes=[100, 200, 300], n_test=100, seed=0,
                     sigma2=0.01, rvm=RVM, k_max_fraction=0.1, k_max_cap=500,
                     time_budget_s=60, memory_budget_mb=1.0)
    assert [r["status"] for r in rows] == ["ok", "over_memory", "skipped"]
    assert 0 < rows[0]["nmse"] < 0.5
    fwd = fig1_rows(X, y, "forward", HYPER, train_sizes=[100, 200], n_test=100, seed=0,
                    sigma2=0.01, rvm=RVM, k_max_fraction=0.1, k_max_cap=15,
                    time_budget_s=60, memory_budget_mb=1.0)
    assert [r["k_max"] for r in fwd] == [10, 15] and [r["n_basis"] for r in fwd] == [10, 15]
