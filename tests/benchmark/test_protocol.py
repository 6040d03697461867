"""The evaluation protocol's pieces: folds, standardisation, scores, the LOO path, budgets."""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.benchmark.methods import Method, MethodPluginError, get_method
from rlsbench.benchmark.protocol import (
    alpha_grid,
    cv_splits,
    encode_targets,
    estimate_flops,
    feasibility,
    k_max_for,
    loo_decision_path,
    scores,
    standardize,
)
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.benchmark.provenance import config_hash, provenance


def _brute_force_loo(X, Y, alpha, bias):
    """LOO predictions by refitting ridge regression without each example."""
    m = X.shape[0]
    Xa = np.hstack([X, np.full((m, 1), bias)]) if bias else X
    out = np.empty_like(Y, dtype=float)
    for i in range(m):
        keep = np.arange(m) != i
        A = Xa[keep].T @ Xa[keep] + alpha * np.eye(Xa.shape[1])
        w = np.linalg.solve(A, Xa[keep].T @ Y[keep])
        out[i] = Xa[i] @ w
    return out


@pytest.mark.parametrize("bias", [0.0, 1.0, 2.5])
@pytest.mark.parametrize("n_outputs", [1, 3])
def test_loo_decision_path_equals_refitting_without_each_example(bias, n_outputs):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((25, 8))
    Y = rng.standard_normal((25, n_outputs)) if n_outputs > 1 else rng.standard_normal(25)
    order = np.array([5, 0, 7, 2])
    alpha = 0.7
    path = list(loo_decision_path(X, Y, order, alpha, bias=bias))
    assert len(path) == len(order)
    for s, loo in enumerate(path):
        expected = _brute_force_loo(X[:, order[: s + 1]], Y, alpha, bias)
        np.testing.assert_allclose(loo, expected, rtol=1e-10, atol=1e-12)


def test_stratified_folds_partition_the_data_and_keep_class_ratios():
    y = np.array([1.0] * 30 + [-1.0] * 70)
    splits = cv_splits(y, "binary", 10, seed=0)
    tests = np.concatenate([test for _, test in splits])
    assert sorted(tests) == list(range(100))
    for train, test in splits:
        assert np.intersect1d(train, test).size == 0
        assert (y[test] == 1).sum() == 3
    again = cv_splits(y, "binary", 10, seed=0)
    other = cv_splits(y, "binary", 10, seed=1)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again))
    assert not all(np.array_equal(a[1], b[1]) for a, b in zip(splits, other))


def test_regression_folds_are_plain_kfold():
    y = np.linspace(0, 1, 23)
    splits = cv_splits(y, "regression", 5, seed=0)
    assert sorted(np.concatenate([t for _, t in splits])) == list(range(23))


def test_standardize_uses_training_statistics_only():
    rng = np.random.default_rng(0)
    X_train = rng.normal(5.0, 3.0, size=(50, 4))
    X_train[:, 2] = 7.0  # constant feature: centred, not divided by zero
    X_test = rng.normal(5.0, 3.0, size=(10, 4))
    Z_train, Z_test = standardize(X_train, X_test)
    np.testing.assert_allclose(Z_train.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Z_train[:, [0, 1, 3]].std(axis=0), 1)
    np.testing.assert_allclose(Z_train[:, 2], 0)
    mu, sd = X_train.mean(axis=0), X_train.std(axis=0)
    np.testing.assert_allclose(Z_test[:, 0], (X_test[:, 0] - mu[0]) / sd[0])


def test_encode_targets_one_vs_rest_for_multiclass():
    Y = encode_targets(np.array([0, 2, 1, 2]), "multiclass")
    np.testing.assert_array_equal(Y, [[1, -1, -1], [-1, -1, 1], [-1, 1, -1], [-1, -1, 1]])
    with pytest.raises(ValueError, match="task"):
        encode_targets(np.zeros(3), "ranking")


def test_scores_accuracy_and_mse():
    Y = np.array([1.0, -1.0, 1.0, -1.0])
    decision = np.array([[0.5, -2.0, -0.1, 0.3], [1.0, -1.0, 1.0, -1.0]])
    acc, mse = scores(decision, Y, "binary")
    np.testing.assert_allclose(acc, [0.5, 1.0])
    np.testing.assert_allclose(mse[1], 0.0)
    np.testing.assert_allclose(mse[0], np.mean((decision[0] - Y) ** 2))
    Ymc = encode_targets(np.array([0, 1, 2]), "multiclass")
    dmc = np.array([[[0.9, 0.1, 0.0], [0.0, 0.2, 0.8], [0.0, 0.1, 0.5]]])
    acc, _ = scores(dmc, Ymc, "multiclass")
    np.testing.assert_allclose(acc, [2 / 3])
    acc, mse = scores(np.zeros((1, 3)), np.array([1.0, 2.0, 3.0]), "regression")
    assert np.isnan(acc[0]) and mse[0] == pytest.approx(14 / 3)


def test_alpha_grid_default_is_powers_of_two():
    grid = alpha_grid({"base": 2, "min_exp": -15, "max_exp": 15})
    assert grid.shape == (31,) and grid[0] == 2.0**-15 and grid[-1] == 2.0**15
    np.testing.assert_array_equal(alpha_grid([0.5, 2]), [0.5, 2.0])


def _method(name="greedy_rls", memory=None):
    # a built-in's cost model with a memory model of the test's choosing
    return Method(
        name=name,
        run=lambda *a, **k: None,
        description="",
        memory_bytes=memory,
        flops=get_method(name).flops,
    )


def test_feasibility_names_the_exceeded_budget():
    quadratic = _method("lowrank_lssvm", memory=lambda m, n, k: 8 * m * m)
    small = feasibility(
        quadratic, 500, 30, 30, 1, memory_budget_mb=100, time_budget_s=1e9, flops_per_second=1e9
    )
    assert small.feasible and small.reason == ""
    big = feasibility(
        quadratic, 60_000, 30, 30, 1, memory_budget_mb=100, time_budget_s=1e9, flops_per_second=1e9
    )
    assert not big.feasible and big.reason.startswith("memory")
    slow = feasibility(
        _method("wrapper_blackbox"),
        1000,
        50,
        50,
        1,
        memory_budget_mb=1e6,
        time_budget_s=1.0,
        flops_per_second=1e9,
    )
    assert not slow.feasible and slow.reason.startswith("time")
    # the complexity ordering of the paper: greedy O(kmn) < low-rank O(km²n) < black box
    counts = [
        estimate_flops(get_method(n), 2000, 100, 50)
        for n in ("greedy_rls", "lowrank_lssvm", "wrapper_blackbox")
    ]
    assert counts == sorted(counts)


def test_a_method_without_a_cost_model_is_refused_by_name_not_costed_as_another():
    bare = Method(name="no_cost", run=lambda *a, **k: None, description="")
    with pytest.raises(MethodPluginError, match=r"method 'no_cost' of .* declares no cost model"):
        estimate_flops(bare, 100, 10, 5)
    with pytest.raises(MethodPluginError, match="no cost model"):
        feasibility(
            bare, 100, 10, 5, 1, memory_budget_mb=1e6, time_budget_s=1e9, flops_per_second=1e9
        )
    legacy = Method(
        name="old_style", run=None, description="", tags={"flops": lambda m, n, k, t: 1.0}
    )
    with pytest.raises(MethodPluginError, match=r"move it to Method\(flops=\.\.\.\)"):
        estimate_flops(legacy, 100, 10, 5)


def test_every_built_in_method_has_its_own_cost_model_in_its_method():
    from rlsbench.benchmark.methods import method_names

    built_ins = [
        name
        for name in method_names()
        if get_method(name).run.__module__.startswith("rlsbench.benchmark.methods.")
    ]
    assert len(built_ins) >= 16
    for name in built_ins:
        method = get_method(name)
        assert callable(method.flops), name
        assert estimate_flops(method, 200, 30, 5, 2) == method.flops(200, 30, 5, 2) > 0, name
    # the paper's complexities (Pahikkala et al., Section 3) scale as stated
    greedy, lowrank = get_method("greedy_rls"), get_method("lowrank_lssvm")
    assert estimate_flops(greedy, 200, 30, 5) * 2 == estimate_flops(greedy, 400, 30, 5)
    assert estimate_flops(lowrank, 200, 30, 5) * 4 == estimate_flops(lowrank, 400, 30, 5)


def test_k_max_per_dataset_overrides_global():
    main = {"k_max": 5, "k_max_per_dataset": {"wine": 3}}
    assert k_max_for(main, "wine", 13) == 3
    assert k_max_for(main, "digits5", 64) == 5
    assert k_max_for({"k_max": None, "k_max_per_dataset": {}}, "wine", 13) == 13


def test_job_settings_ignore_other_datasets_caps_and_report_keys():
    main = {
        "n_folds": 10,
        "cv_seed": 0,
        "k_max": None,
        "report_k": [1],
        "k_max_per_dataset": {"wine": 3, "digits5": 9},
    }
    a = ProtocolSettings.from_section(main).job_settings("wine")
    b = ProtocolSettings.from_section(
        {**main, "report_k": [1, 2], "k_max_per_dataset": {"wine": 3, "digits5": 10}}
    ).job_settings("wine")
    assert a == b and a["k_max_per_dataset"] == {"wine": 3}
    assert config_hash(a) == config_hash(dict(reversed(list(a.items()))))


def test_provenance_columns():
    row = provenance({"a": 1}, 7)
    for key in ("numpy_version", "scikit_learn_version", "git_commit", "config_hash", "host"):
        assert row[key]
    assert row["seed"] == 7
    assert row["config_hash"] != provenance({"a": 2}, 7)["config_hash"]


def test_time_budget_per_method_with_default():
    from rlsbench.benchmark.protocol import time_budget_for

    budget = {"default": 900, "wrapper_blackbox": 20}
    assert time_budget_for(budget, "wrapper_blackbox") == 20
    assert time_budget_for(budget, "greedy_rls") == 900
    assert time_budget_for(60, "random") == 60
    slow = feasibility(
        _method("wrapper_blackbox"),
        900,
        24,
        24,
        1,
        memory_budget_mb=1e6,
        time_budget_s=budget,
        flops_per_second=2e9,
    )
    fast = feasibility(
        _method("greedy_rls"),
        900,
        24,
        24,
        1,
        memory_budget_mb=1e6,
        time_budget_s=budget,
        flops_per_second=2e9,
    )
    assert not slow.feasible and "budget 20" in slow.reason and fast.feasible


def _steps_frame():
    """Two methods, two folds, k = 1..3 on one binary dataset, plus a skipped method."""
    import pandas as pd

    rows = []
    for method, acc, loo in (
        ("greedy_rls", [0.8, 0.9, 0.9], [0.9, 1.0, 1.0]),
        ("random", [0.5, 0.7, 0.9], [0.5, 0.7, 0.9]),
    ):
        for fold in (0, 1):
            for k in (1, 2, 3):
                rows.append(
                    {
                        "dataset": "d",
                        "task": "binary",
                        "method": method,
                        "fold": fold,
                        "seed": 0,
                        "k": k,
                        "status": "ok",
                        "reason": "",
                        "k_max": 3,
                        "n_train": 9,
                        "n_features": 3,
                        "test_accuracy": acc[k - 1] + 0.02 * fold,
                        "loo_accuracy": loo[k - 1],
                        "test_mse": 1.0,
                        "loo_mse": 1.0,
                        "fit_time_s": 0.5,
                    }
                )
    rows.append(
        {
            "dataset": "d",
            "task": "binary",
            "method": "wrapper_blackbox",
            "fold": 0,
            "seed": 0,
            "k": 0,
            "status": "skipped",
            "reason": "time: needs ~9 s > budget 1 s (m=9, n=3, k=3)",
        }
    )
    return pd.DataFrame(rows)


def test_summary_table_reports_means_chosen_k_and_skips():
    from rlsbench.benchmark.results import summary_table

    table = summary_table(_steps_frame(), [1, 3]).set_index("method")
    assert table.loc["greedy_rls", "k=1"] == "0.810 ± 0.010"
    assert table.loc["random", "k=3"] == "0.910 ± 0.010"
    # LOO picks k = 2 for greedy (first maximum), k = 3 for random
    assert table.loc["greedy_rls", "k by LOO"] == "2.0"
    assert table.loc["greedy_rls", "at k by LOO"] == "0.910 ± 0.010"
    assert table.loc["wrapper_blackbox", "status"] == "skipped"
    assert table.loc["wrapper_blackbox", "reason"] == "time: needs ~9 s > budget 1 s"


def test_paper_checks_measure_greedy_minus_random_and_loo_gap():
    from rlsbench.studies.main.report import paper_checks

    row = paper_checks(_steps_frame(), [1, 2]).iloc[0]
    assert row["greedy_rls − random at k=1"] == "+0.300"
    assert row["greedy_rls − random at k=2"] == "+0.200"
    # LOO − test of greedy: 0.09, 0.09, 0.09 (test is 0.81, 0.91, 0.91 on average)
    assert row["LOO − test (mean over k)"] == "+0.090"


def test_report_jobs_run_on_files_without_snakemake(tmp_path):
    import pandas as pd

    from rlsbench.benchmark.results import curves_job, summary_job
    from rlsbench.studies.main.jobs import checks_job, figures_job

    steps = tmp_path / "steps.csv"
    _steps_frame().to_csv(steps, index=False)
    out = {name: tmp_path / name for name in ("s.csv", "s.md", "s.tex", "c.csv", "k.csv", "k.md")}
    summary_job(steps, out["s.csv"], out["s.md"], report_k=[1, 2])
    curves_job(steps, out["c.csv"])
    checks_job(steps, out["k.csv"], out["k.md"], report_k=[1])
    figures_job(steps, tmp_path / "t.png", tmp_path / "l.png", dataset="d")
    summary = pd.read_csv(out["s.csv"])
    assert set(summary["method"]) == {"greedy_rls", "random", "wrapper_blackbox"}
    assert (out["s.md"]).read_text().startswith("| dataset")
    assert "greedy_rls − random at k=1" in out["k.md"].read_text()
    assert pd.read_csv(out["c.csv"])["runs"].min() >= 1
    for png in ("t.png", "l.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"


def test_the_protocol_can_leave_the_features_unscaled():
    """``main.standardize: false`` feeds the selectors the features as the dataset gives them
    (the greedy RLS paper states no scaling); the default standardises by the training split."""
    from types import SimpleNamespace

    from rlsbench.benchmark.protocol import _fold_data

    rng = np.random.default_rng(0)
    X = rng.normal(5.0, 3.0, size=(40, 3))
    data = SimpleNamespace(X=X, y=np.repeat([0, 1], 20), task="binary")
    main = {"n_folds": 4, "cv_seed": 0}
    train, test = cv_splits(data.y, "binary", 4, 0)[0]
    raw_train, _, raw_test, _ = _fold_data(data, 0, {**main, "standardize": False})
    np.testing.assert_array_equal(raw_train, X[train])
    np.testing.assert_array_equal(raw_test, X[test])
    std_train, _, _, _ = _fold_data(data, 0, main)
    np.testing.assert_allclose(std_train.mean(axis=0), 0.0, atol=1e-12)
