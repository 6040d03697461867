"""The Buteneers task runs every column of its tables through the ``rlsbench.methods`` plugins
(``tags["kfold"]``): each row is what the column's solver gives when called directly."""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.benchmark.methods import MethodPluginError, get_method
from rlsbench.benchmark.methods.kfold import kfold_runner
from rlsbench.numerics.ridgecv.baselines import (
    fit_lars,
    fit_lars_path,
    lars_ranking,
    op_lr,
    op_rr,
)
from rlsbench.numerics.ridgecv.ffs_bfs import backward_selection, forward_selection, refit
from rlsbench.numerics.ridgecv.kfold_lambda import (
    fold_statistics,
    lambda_grid,
    make_folds,
    ridge_weights,
    search_lambda,
)
from rlsbench.studies.buteneers import experiment
from rlsbench.studies.buteneers.experiment import COLUMNS, TABLE_METHODS, run_task

M_TRAIN, N, N_FOLDS, N_LAMBDAS, SEED = 80, 8, 4, 9, 3


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(11)
    X = np.hstack([rng.standard_normal((120, N)), np.ones((120, 1))])
    y = X[:, :3] @ [1.0, -0.8, 0.5] + 0.4 * rng.standard_normal(120)
    X_train, y_train, X_test, y_test = X[:M_TRAIN], y[:M_TRAIN], X[M_TRAIN:], y[M_TRAIN:]
    rows = run_task(
        X_train,
        y_train,
        X_test,
        y_test,
        task="regression",
        n_folds=N_FOLDS,
        n_lambdas=N_LAMBDAS,
        seed=SEED,
        fixed=[N],
    )
    folds = make_folds(M_TRAIN, N_FOLDS, seed=SEED)
    stats = fold_statistics(X_train, y_train, folds)
    lambdas = lambda_grid(stats.A, N_LAMBDAS)
    return dict(
        rows={r["method"]: r for r in rows},
        X=X_train,
        y=y_train,
        X_test=X_test,
        y_test=y_test,
        folds=folds,
        stats=stats,
        lambdas=lambdas,
    )


def _expect(p, row, selected, alpha, coef, cv_sse=None):
    """The row holds the model (features, λ, test error, validation error) given directly."""
    selected = np.asarray(selected)
    assert row["n_selected"] == len([j for j in selected if j != N])
    assert row["alpha"] == alpha
    error = experiment.test_error("regression", p["y_test"], p["X_test"][:, selected] @ coef)
    assert row["error"] == error
    if cv_sse is None:
        assert np.isnan(row["cv_mse"])
    else:
        assert row["cv_mse"] == cv_sse / M_TRAIN


def test_every_column_is_an_installed_plugin_with_a_kfold_runner():
    assert tuple(COLUMNS) == TABLE_METHODS
    for plugin, _ in COLUMNS.values():
        assert callable(kfold_runner(get_method(plugin)))


@pytest.mark.parametrize("search", ["naive", "covariance", "eigen"])
def test_rr_columns_are_the_ridge_search_called_directly(problem, search):
    p = problem
    res = search_lambda(
        p["X"],
        p["y"],
        p["lambdas"],
        p["folds"],
        method=search,
        stats=None if search == "naive" else p["stats"],
    )
    coef = ridge_weights(p["stats"].A, p["stats"].B, res.alpha)[:, 0]
    row = p["rows"][f"rr_{search}"]
    _expect(p, row, np.arange(N + 1), res.alpha, coef, res.cv_sse[res.best_index])
    assert np.isnan(row["t_fixed"]) == (search == "naive")


@pytest.mark.parametrize("fs", ["ffs", "bfs"])
@pytest.mark.parametrize("variant", ["eigen", "covariance"])
def test_ffs_bfs_columns_are_the_selection_called_directly(problem, fs, variant):
    p = problem
    select = forward_selection if fs == "ffs" else backward_selection
    res = select(p["stats"], p["lambdas"], variant=variant, fixed=[N], run_to_end=False)
    coef = refit(p["stats"], res.selected, res.alpha)[:, 0]
    row = p["rows"][f"{fs}_{variant}"]
    _expect(p, row, res.selected, res.alpha, coef, res.cv_sse[res.stop_step])
    assert row["n_steps"] == res.order.shape[0]


def test_lars_column_is_lasso_lars_cv_called_directly(problem):
    p = problem
    model = fit_lars(p["X"], p["y"], p["folds"])
    sel = np.flatnonzero(model.coef_)
    _expect(p, p["rows"]["lars"], sel, float(model.alpha_), model.coef_[sel])


@pytest.mark.parametrize("prune", ["lr", "rr"])
def test_op_columns_are_the_lars_ranking_pruned_directly(problem, prune):
    p = problem
    free = np.arange(N)
    ranking = np.concatenate([[N], free[lars_ranking(p["X"][:, free], p["y"])]])
    pruned = (op_lr if prune == "lr" else op_rr)(p["stats"], ranking, p["lambdas"])
    sel = np.unique(np.concatenate([[N], pruned.selected]))
    coef = refit(p["stats"], sel, pruned.alpha)[:, 0]
    _expect(p, p["rows"][f"op_{prune}"], sel, pruned.alpha, coef, pruned.cv_sse[pruned.n_selected])


def test_an_unknown_column_is_refused_by_name(problem):
    p = problem
    with pytest.raises(ValueError, match="unknown methods \\['rr_loo'\\]"):
        run_task(
            p["X"],
            p["y"],
            p["X_test"],
            p["y_test"],
            task="regression",
            methods=["rr_loo"],
            n_folds=N_FOLDS,
            n_lambdas=N_LAMBDAS,
            seed=SEED,
        )


def test_a_plugin_without_a_kfold_runner_is_refused_naming_it(problem, monkeypatch):
    p = problem
    monkeypatch.setitem(COLUMNS, "rr_eigen", ("greedy_rls", {}))
    with pytest.raises(MethodPluginError, match="'greedy_rls' of distribution .* K-fold"):
        run_task(
            p["X"],
            p["y"],
            p["X_test"],
            p["y_test"],
            task="regression",
            methods=["rr_eigen"],
            n_folds=N_FOLDS,
            n_lambdas=N_LAMBDAS,
            seed=SEED,
        )


def test_a_bad_option_of_a_runner_is_refused_naming_it(problem, monkeypatch):
    p = problem
    monkeypatch.setitem(COLUMNS, "rr_eigen", ("ridge_kfold", {"search": "loo"}))
    with pytest.raises(ValueError, match="search must be one of .* got 'loo'"):
        run_task(
            p["X"],
            p["y"],
            p["X_test"],
            p["y_test"],
            task="regression",
            methods=["rr_eigen"],
            n_folds=N_FOLDS,
            n_lambdas=N_LAMBDAS,
            seed=SEED,
        )


def test_ridge_kfold_selects_nothing_so_the_protocol_and_scaling_refuse_it():
    from rlsbench.benchmark.config import ConfigError
    from rlsbench.studies.main.config import check
    from rlsbench.studies.scaling.experiment import check_method

    main = {"datasets": [], "methods": ["greedy_rls", "ridge_kfold"], "k_max_per_dataset": {}}
    with pytest.raises(ConfigError, match=r"main.methods\[1\]: method 'ridge_kfold' runs on no"):
        check(dict(main, k_max=5), {})
    with pytest.raises(ConfigError, match="'ridge_kfold' runs on no protocol targets"):
        check_method("ridge_kfold", "scaling.sweeps.x.methods[0]")
    with pytest.raises(MethodPluginError, match="selects no features"):
        get_method("ridge_kfold").select(
            np.zeros((4, 2)),
            np.zeros(4),
            alpha=1.0,
            k=1,
            criterion="squared",
            bias=0.0,
            seed=0,
            n_jobs=1,
        )


def _lars_rows(p, method_options):
    """The LARS column of ``run_task`` on the problem ``p`` with ``method_options``."""
    return run_task(
        p["X"],
        p["y"],
        p["X_test"],
        p["y_test"],
        task="regression",
        methods=["lars"],
        n_folds=N_FOLDS,
        n_lambdas=N_LAMBDAS,
        seed=SEED,
        fixed=[N],
        method_options=method_options,
    )


@pytest.mark.parametrize("stop", ["cv", "end", 3])
def test_plain_lars_column_is_the_lar_path_stopped_as_asked(problem, stop):
    p = problem
    row = _lars_rows(p, {"lars": {"path": "lar", "stop": stop}})[0]
    model = fit_lars_path(p["X"], p["y"], p["folds"], method="lar", stop=stop)
    sel = np.flatnonzero(model.coef)
    cv_sse = None if model.cv_sse is None else model.cv_sse[model.n_steps]
    _expect(p, row, sel, model.alpha, model.coef[sel], cv_sse)
    assert row["n_steps"] == model.n_steps
    # the default column is another model: LassoLarsCV
    assert row["error"] != p["rows"]["lars"]["error"]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"lars": {"path": "lars"}}, "option path"),
        ({"lars": {"path": "lar", "stop": 0}}, "option stop"),
        ({"lars": {"stop": "aic"}}, "option stop"),
        ({"lasso": {"path": "lar"}}, "method_options: unknown methods"),
    ],
)
def test_bad_lars_options_are_refused_by_name(problem, options, match):
    with pytest.raises(ValueError, match=match):
        _lars_rows(problem, options)
