"""The Sun & Yao experiment helpers: splits, budgets and the Table 1 summary."""

import numpy as np
import pandas as pd
import pytest

from rlsbench.numerics.synthetic import make_sinc
from rlsbench.studies.sunyao.experiments import (
    METHODS,
    PAPER_TABLE1,
    fig1_rows,
    select_inputs,
    split_indices,
    standardize,
    summarize_table1,
    table1_markdown,
    table1_rows,
)

HYPER = {
    "forward": {"width": 0.5, "lam": 0.1, "k_max": 15},
    "rvm_old": {"width": 0.5},
    "rvm_new": {"width": 0.5},
}
RVM = {"rvm_old": {"max_iter": 200, "tol": 1e-3}, "rvm_new": {"max_iter": 2000, "tol": 1e-3}}


def _cells(markdown):
    """A Markdown table with the padding of its cells removed (``| a   | b |`` -> ``| a | b |``)."""
    lines = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        lines.append("|" + "|".join(f" {c} " if c else " " for c in cells) + "|")
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


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
    assert (
        fwd["n_basis_mean"] == 15 and fwd["paper_mse_mean"] == PAPER_TABLE1["ozone"]["forward"][0]
    )
    text = _cells(table1_markdown(summary, {"ozone": (1, 60, 100)}))
    assert "| ozone | ours | 1 | 60 | 100 |" in text and "| | paper | 8 | 250 | 80 |" in text


def test_fig1_stops_a_method_at_the_memory_budget_and_skips_larger_sizes():
    X, y = make_sinc(400, seed=0)
    # rvm_old needs ≈ 40 n² bytes: n = 100 fits in 1 MB, n = 200 does not
    rows = fig1_rows(
        X,
        y,
        "rvm_old",
        HYPER,
        train_sizes=[100, 200, 300],
        n_test=100,
        seed=0,
        sigma2=0.01,
        rvm=RVM,
        k_max_fraction=0.1,
        k_max_cap=500,
        flop_budget=1e12,
        memory_budget_mb=1.0,
    )
    assert [r["status"] for r in rows] == ["ok", "over_memory", "skipped"]
    assert 0 < rows[0]["nmse"] < 0.5
    fwd = fig1_rows(
        X,
        y,
        "forward",
        HYPER,
        train_sizes=[100, 200],
        n_test=100,
        seed=0,
        sigma2=0.01,
        rvm=RVM,
        k_max_fraction=0.1,
        k_max_cap=15,
        flop_budget=1e12,
        memory_budget_mb=1.0,
    )
    assert [r["k_max"] for r in fwd] == [10, 15] and [r["n_basis"] for r in fwd] == [10, 15]


def test_grid_edges_names_boundary_choices_but_not_a_k_max_that_allows_every_vector():
    from rlsbench.numerics.marglik.hyper import grid_edges

    grids = {"width": [1.0, 2.0, 4.0], "lam": [1e-3, 1e-2, 1e-1], "k_max": [50, 100, 200]}
    assert grid_edges({"width": 2.0, "lam": 1e-2, "k_max": 100}, grids) == []
    assert grid_edges({"width": 4.0, "lam": 1e-3, "k_max": 100}, grids) == [
        "width=4 (highest of 3)",
        "lam=0.001 (lowest of 3)",
    ]
    assert grid_edges({"width": 2.0, "lam": 1e-2, "k_max": 200}, grids) == [
        "k_max=200 (highest of 3)"
    ]
    # k_max = 200 reaches the smallest training fold (160): nothing larger can take effect
    assert grid_edges({"width": 2.0, "lam": 1e-2, "k_max": 200}, grids, k_cap=160) == []
    assert grid_edges({"width": 1.0}, {"width": [1.0]}) == []


def test_cv_forward_fits_capped_k_max_once_with_the_scores_of_a_direct_fit():
    from rlsbench.estimators import ForwardMarglikRegressor
    from rlsbench.numerics.marglik.hyper import _folds, cv_forward

    X, y = make_sinc(50, seed=2)  # 40 training examples per fold: k_max 40 and 80 coincide
    best, rows = cv_forward(X, y, [0.5], [1e-2], [10, 40, 80], sigma2=0.01, seed=1)
    by_k = {r["k_max"]: r["cv_mse"] for r in rows}
    assert by_k[40] == by_k[80] and by_k[10] != by_k[40]
    errors = []
    for train, val in _folds(len(y), 5, 1):
        model = ForwardMarglikRegressor(width=0.5, lam=1e-2, k_max=40, sigma2=0.01)
        model.fit(X[train], y[train])
        errors.append(np.mean((model.predict(X[val]) - y[val]) ** 2))
    assert by_k[80] == pytest.approx(np.mean(errors), rel=1e-12)
    assert best["cv_mse"] == min(by_k.values())


def test_choose_hyperparameters_flags_grid_edges_and_the_table_prints_them(caplog):
    from rlsbench.studies.sunyao.experiments import choose_hyperparameters, hyper_markdown

    X, y = make_sinc(60, seed=0)
    cv = {"subset": 60, "folds": 3, "width_factors": [0.5], "lams": [1e-2, 10.0], "k_max": [5, 20]}
    with caplog.at_level("INFO", logger="rlsbench.benchmark.progress"):
        hyper = choose_hyperparameters(X, y, cv, RVM, sigma2=0.01, seed=0)
    # the search logs each grid point: 4 of Forward's (r, λ, k_max), one width per RVM
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("CV grid")]
    assert len(lines) == 6 and lines[0].startswith("CV grid point 1/6 (forward r=0.5, λ=0.01")
    assert lines[-1].startswith("CV grid point 6/6 (rvm_new r=0.5: CV MSE")
    fwd = hyper["forward"]
    # a single width cannot be on an edge; λ and k_max have two values, so each is on one
    assert len(fwd["at_grid_edge"]) == 2 and hyper["rvm_old"]["at_grid_edge"] == []
    assert {e.split("=")[0] for e in fwd["at_grid_edge"]} == {"lam", "k_max"}
    text = _cells(hyper_markdown({"sinc": hyper}, {"sinc": 1}))
    assert "| sinc | Forward | 0.5 (0.5) |" in text and fwd["at_grid_edge"][0] in text
    assert text.count("\n") == 2 + len(METHODS)


def test_fig1_stops_a_method_at_the_flop_budget_the_same_way_every_run():
    X, y = make_sinc(500, seed=0)
    kw = dict(
        train_sizes=[100, 200, 300],
        n_test=100,
        seed=0,
        sigma2=0.01,
        rvm=RVM,
        k_max_fraction=0.1,
        k_max_cap=500,
        memory_budget_mb=100.0,
    )
    free = fig1_rows(X, y, "rvm_old", HYPER, flop_budget=1e15, **kw)
    assert [r["status"] for r in free] == ["ok"] * 3
    flops = [r["flops"] for r in free]
    assert flops[0] < flops[1] < flops[2]  # Old RVM: O(n³) setup and iterations
    budget = (flops[0] + flops[1]) / 2
    rows = fig1_rows(X, y, "rvm_old", HYPER, flop_budget=budget, **kw)
    again = fig1_rows(X, y, "rvm_old", HYPER, flop_budget=budget, **kw)
    assert [r["status"] for r in rows] == ["ok", "over_flops", "skipped"]
    assert [r["status"] for r in again] == [r["status"] for r in rows]
    assert rows[0]["nmse"] == free[0]["nmse"] and rows[0]["flops"] == flops[0]
    assert 0 < rows[1]["flops"] <= budget and "estimated flops" in rows[1]["reason"]
    assert np.isfinite(rows[1]["fit_s"])  # measured, and reported, but decides nothing
    fwd = fig1_rows(X, y, "forward", HYPER, flop_budget=1.0, **kw)  # Forward has no cut
    assert [r["status"] for r in fwd] == ["ok"] * 3 and all(r["flops"] > 0 for r in fwd)


def test_select_inputs_drops_columns_and_folds_one_hot_levels_into_codes():
    names = ["sex=F", "sex=I", "sex=M", "length", "doy"]
    X = np.array([[0, 0, 1, 0.5, 3], [1, 0, 0, 0.6, 4], [0, 1, 0, 0.2, 5]], dtype=float)
    Xs, kept = select_inputs(X, names, {"drop": ["doy"], "codes": {"sex": ["M", "F", "I"]}})
    assert kept == ["sex", "length"]
    np.testing.assert_array_equal(Xs, [[1, 0.5], [2, 0.6], [3, 0.2]])
    same, all_names = select_inputs(X, names, None)
    assert all_names == names and np.array_equal(same, X)
    with pytest.raises(ValueError, match=r"features\.drop names 'CHAS'"):
        select_inputs(X, names, {"drop": ["CHAS"]}, dataset="ozone")
    with pytest.raises(ValueError, match=r"sex=X"):
        select_inputs(X, names, {"codes": {"sex": ["M", "F", "X"]}})
    with pytest.raises(ValueError, match="not one-hot"):
        select_inputs(X, names, {"codes": {"sex": ["M", "F"]}})


def test_the_rvms_keep_the_fixed_noise_variance_unless_the_config_says_estimated():
    """The paper fixes σ² for all its experiments (Sec. 4): rvm.noise fixed (the default) gives
    the RVMs the section's σ²; estimated (the variant) lets them re-estimate it, and the fits
    differ; anything else is refused, naming the key."""
    from rlsbench.studies.sunyao.experiments import make_model, rvm_sigma2

    assert rvm_sigma2(RVM, 2.0) == 2.0
    assert rvm_sigma2({**RVM, "noise": "fixed"}, 2.0) == 2.0
    assert rvm_sigma2({**RVM, "noise": "estimated"}, 2.0) is None
    with pytest.raises(ValueError, match="sunyao.rvm.noise"):
        rvm_sigma2({**RVM, "noise": "sometimes"}, 1.0)
    X, y = make_sinc(80, noise=0.2, seed=0)
    fits = {}
    for noise in ("fixed", "estimated"):
        for method in ("rvm_old", "rvm_new"):
            model = make_model(method, HYPER, sigma2=1.0, rvm={**RVM, "noise": noise})
            assert model.sigma2 == (1.0 if noise == "fixed" else None)
            fits[noise, method] = model.fit(X, y).predict(X)
    for method in ("rvm_old", "rvm_new"):
        assert not np.allclose(fits["fixed", method], fits["estimated", method])
    forward = make_model("forward", HYPER, sigma2=1.0, rvm={**RVM, "noise": "estimated"})
    assert forward.sigma2 == 1.0
