"""The baselines reviewers ask for (issue 30, item 1), as method plugins under the protocol: each
order equals the one its package computes (LARS-lasso, enet_path, orthogonal_mp, the F-test,
mutual information, RFE), mRMR and stability selection find what they should, abess hands the
protocol one best subset per size, and the protocol scores each such subset with its own RLS
model.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint
from itertools import combinations

import numpy as np
import pytest
from sklearn import feature_selection as skfs
from sklearn import linear_model as sklm
from sklearn.datasets import make_regression

from rlsbench.benchmark import methods
from rlsbench.benchmark.methods import GROUP, Method, get_method
from rlsbench.benchmark.methods.ranking import subsets_path
from rlsbench.benchmark.protocol import (
    _fold_data,
    estimate_flops,
    run_select_job,
    standardize,
)
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.numerics.path import SelectionPath

#: The entry points pyproject.toml declares for these methods.
ENTRY_POINTS = {
    "lasso_path": "rlsbench.benchmark.methods.sparse:lasso_path",
    "enet_path": "rlsbench.benchmark.methods.sparse:enet_path",
    "omp": "rlsbench.benchmark.methods.sparse:omp",
    "f_test": "rlsbench.benchmark.methods.filters:f_test",
    "mutual_info": "rlsbench.benchmark.methods.filters:mutual_info",
    "mrmr": "rlsbench.benchmark.methods.filters:mrmr",
    "rfe_linear": "rlsbench.benchmark.methods.rfe:method",
    "stability_selection": "rlsbench.benchmark.methods.stability:method",
    "abess_best_subset": "rlsbench.benchmark.methods.abess:method",
}


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The methods reachable by name as the protocol reaches them, whether or not the installed
    metadata declares them yet."""
    found = methods._entry_points()
    for name, value in ENTRY_POINTS.items():
        monkeypatch.setitem(found, name, EntryPoint(name, value, GROUP))


def _regression(n_features=15, n_informative=5, m=60, seed=0):
    X, y, coef = make_regression(
        m, n_features, n_informative=n_informative, coef=True, noise=5.0, random_state=seed
    )
    X, _ = standardize(X, X)
    return X, y, np.flatnonzero(coef)


def _select(name, X, y, k, seed=0, alpha=1.0):
    return get_method(name).select(
        X, y, alpha=alpha, k=k, criterion="squared", bias=1.0, seed=seed, n_jobs=1
    )


def _first_nonzero(coefs):
    """Index of the first path column where each feature's coefficient is non-zero (a large
    number for the ones that never are)."""
    nonzero = coefs != 0
    return np.where(nonzero.any(axis=1), nonzero.argmax(axis=1), coefs.shape[1] + 1)


# -- exact orders ---------------------------------------------------------------------------
def test_lasso_order_is_the_order_coefficients_leave_zero_on_lars_path():
    X, y, _ = _regression()
    _, _, coefs = sklm.lars_path(X, y - y.mean(), method="lasso", max_iter=500)
    first = _first_nonzero(coefs)
    entered = np.flatnonzero(first <= coefs.shape[1])
    expected = entered[np.argsort(first[entered], kind="stable")]
    path = _select("lasso_path", X, y, expected.size)
    np.testing.assert_array_equal(path.selected, expected)


def test_lasso_order_with_a_drop_still_lists_k_distinct_entries():
    # with m < n LARS stops at the rank, and the lasso modification drops variables: the
    # completion must still give k distinct features, the LARS entries first
    X, y, _ = _regression(n_features=30, m=12, seed=3)
    path = _select("lasso_path", X, y, 30)
    _, _, coefs = sklm.lars_path(X, y - y.mean(), method="lasso", max_iter=500)
    first = _first_nonzero(coefs)
    entered = np.flatnonzero(first <= coefs.shape[1])
    expected = entered[np.argsort(first[entered], kind="stable")]
    np.testing.assert_array_equal(path.selected[: expected.size], expected)
    assert np.unique(path.selected).size == 30


def test_enet_order_follows_first_entry_on_enet_path():
    X, y, _ = _regression()
    _, coefs, _ = sklm.enet_path(X, y - y.mean(), l1_ratio=0.5, alphas=100)
    first = _first_nonzero(coefs)
    path = _select("enet_path", X, y, X.shape[1])
    entered = np.flatnonzero(first <= coefs.shape[1])
    # every feature that enters the path comes before every one that does not, in order of
    # entry (features entering at one grid λ by decreasing |coefficient| there)
    np.testing.assert_array_equal(np.sort(path.selected[: entered.size]), entered)
    steps = first[path.selected[: entered.size]]
    assert np.all(np.diff(steps) >= 0)
    for step in np.unique(steps):
        same = path.selected[: entered.size][steps == step]
        assert np.all(np.diff(np.abs(coefs[same, step])) <= 0)


def test_omp_order_is_the_support_order_of_orthogonal_mp():
    X, y, _ = _regression()
    k = 8
    coefs = sklm.orthogonal_mp(X, y - y.mean(), n_nonzero_coefs=k, return_path=True)
    expected = []
    for step in range(k):
        expected += [j for j in np.flatnonzero(coefs[:, step]) if j not in expected]
    np.testing.assert_array_equal(_select("omp", X, y, k).selected, expected)


def test_f_test_order_is_argsort_of_f_regression_and_of_f_classif():
    X, y, _ = _regression()
    expected = np.argsort(-skfs.f_regression(X, y)[0], kind="stable")
    np.testing.assert_array_equal(_select("f_test", X, y, 15).selected, expected)
    # binary ±1: the two-sample F equals the regression F, so f_classif gives the same order
    yb = np.where(y > np.median(y), 1.0, -1.0)
    expected = np.argsort(-skfs.f_classif(X, yb)[0], kind="stable")
    np.testing.assert_array_equal(_select("f_test", X, yb, 15).selected, expected)
    # one-vs-rest columns: the ANOVA F between the classes behind them
    labels = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))
    Y = np.where(labels[:, None] == np.arange(3), 1.0, -1.0)
    expected = np.argsort(-skfs.f_classif(X, labels)[0], kind="stable")
    np.testing.assert_array_equal(_select("f_test", X, Y, 15).selected, expected)


def test_mutual_info_order_is_argsort_of_sklearn_estimates_for_the_seed():
    X, y, _ = _regression()
    expected = np.argsort(-skfs.mutual_info_regression(X, y, random_state=4), kind="stable")
    np.testing.assert_array_equal(_select("mutual_info", X, y, 15, seed=4).selected, expected)
    yb = np.where(y > np.median(y), 1.0, -1.0)
    expected = np.argsort(-skfs.mutual_info_classif(X, yb, random_state=4), kind="stable")
    np.testing.assert_array_equal(_select("mutual_info", X, yb, 15, seed=4).selected, expected)


def test_rfe_order_is_the_reverse_elimination_order_of_sklearn_rfe():
    X, y, _ = _regression()
    rfe = skfs.RFE(sklm.Ridge(alpha=3.0), n_features_to_select=1, step=1).fit(X, y)
    expected = np.argsort(rfe.ranking_, kind="stable")
    np.testing.assert_array_equal(_select("rfe_linear", X, y, 15, alpha=3.0).selected, expected)


# -- sanity ---------------------------------------------------------------------------------
def test_mrmr_passes_over_a_near_copy_of_its_first_pick_that_mutual_info_ranks_next():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((150, 6))
    y = 3 * X[:, 0] + 1.5 * X[:, 3] + 0.3 * rng.standard_normal(150)
    X[:, 5] = X[:, 0] + 0.01 * rng.standard_normal(150)  # redundant with feature 0
    X, _ = standardize(X, X)
    by_mi = _select("mutual_info", X, y, 6).selected
    by_mrmr = _select("mrmr", X, y, 3).selected
    assert set(by_mi[:2]) == {0, 5}
    assert by_mrmr[0] == by_mi[0]
    assert by_mrmr[1] == 3  # relevant and not redundant: the copy's MI with the pick is large


def test_stability_selection_is_deterministic_for_a_seed_and_finds_the_informative_features():
    X, y, informative = _regression(n_features=20, n_informative=3, m=100)
    first = _select("stability_selection", X, y, 5, seed=7)
    again = _select("stability_selection", X, y, 5, seed=7)
    np.testing.assert_array_equal(first.selected, again.selected)
    assert first.info["order"] == again.info["order"]
    assert set(first.selected[:3]) == set(informative)
    assert get_method("stability_selection").randomized


def test_lasso_and_enet_rank_the_class_features_first_on_one_vs_rest_columns():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((120, 10))
    labels = (X[:, 2] > 0).astype(int) + (X[:, 7] > 0.5).astype(int)
    Y = np.where(labels[:, None] == np.arange(3), 1.0, -1.0)
    for name in ("lasso_path", "enet_path"):
        assert set(_select(name, X, Y, 2).selected) == {2, 7}, name


# -- abess: one best subset per size ---------------------------------------------------------
def test_abess_subsets_have_k_features_and_hold_the_true_ones_on_an_easy_problem():
    pytest.importorskip("abess")
    X, y, informative = _regression(n_features=20, n_informative=3, m=100)
    path = _select("abess_best_subset", X, y, 6)
    assert len(path.subsets) == 6 and not path.nested
    for s, subset in enumerate(path.subsets):
        assert subset.shape == (s + 1,) and np.unique(subset).size == s + 1
    assert set(path.subsets[2]) == set(informative)
    np.testing.assert_array_equal(path.subsets[-1], path.selected)


def test_abess_subsets_are_abess_fits_per_size_and_each_model_is_the_rls_fit_on_its_subset():
    abess_linear = pytest.importorskip("abess.linear")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 5))
    X[:, 2] = X[:, 0] + X[:, 1] + 0.3 * rng.standard_normal(30)
    y = X[:, 0] + X[:, 1] + 0.01 * rng.standard_normal(30)
    X, _ = standardize(X, X)
    path = _select("abess_best_subset", X, y, 5, alpha=0.5)
    decision = path.decision_path(X)
    for s, subset in enumerate(path.subsets):
        fit = abess_linear.LinearRegression(support_size=[s + 1]).fit(X, y)
        assert set(subset) == set(np.flatnonzero(fit.coef_))
        Z = np.hstack([X[:, subset], np.ones((30, 1))])  # bias 1, regularised like the rest
        w = np.linalg.solve(Z.T @ Z + 0.5 * np.eye(s + 2), Z.T @ y)
        np.testing.assert_allclose(decision[s], Z @ w, rtol=1e-10, atol=1e-10)


def test_a_selection_path_refuses_subsets_of_the_wrong_sizes_or_not_ending_in_selected():
    k = 2
    fields = dict(
        criterion=np.zeros(k),
        loo_mse=np.zeros(k),
        coef_path=np.zeros((k, k)),
        intercept_path=np.zeros(k),
        alphas=np.ones(k),
    )
    with pytest.raises(ValueError, match=r"subsets\[1\] must hold 2 distinct"):
        SelectionPath(
            selected=np.array([0, 1]), subsets=(np.array([0]), np.array([1, 1])), **fields
        )
    with pytest.raises(ValueError, match=r"subsets\[-1\].*must equal selected"):
        SelectionPath(
            selected=np.array([0, 1]), subsets=(np.array([2]), np.array([1, 0])), **fields
        )
    with pytest.raises(ValueError, match="holds 1 subsets for 2 steps"):
        SelectionPath(selected=np.array([0, 1]), subsets=(np.array([0]),), **fields)


# -- the protocol ---------------------------------------------------------------------------
MAIN = {
    "n_folds": 3,
    "cv_seed": 0,
    "random_seeds": [0],
    "alphas": {"base": 2, "min_exp": -3, "max_exp": 3},
    "criterion": "squared",
    "bias": 1.0,
    "k_max": 4,
    "k_max_per_dataset": {},
    "memory_budget_mb": 500,
    "time_budget_s": 60.0,
    "flops_per_second": 2e9,
}
#: The protocol's settings of MAIN, as a job parses them.
SETTINGS = ProtocolSettings.from_section(MAIN)


def _exhaustive_best_subsets(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    # the exact best subset of every size (least squares with an intercept): not nested on the
    # data below, whatever abess's local search finds
    def rss(subset):
        Z = np.hstack([X[:, subset], np.ones((len(y), 1))])
        return np.sum((Z @ np.linalg.lstsq(Z, y, rcond=None)[0] - y) ** 2)

    subsets = [
        list(min(combinations(range(X.shape[1]), size), key=lambda c: rss(list(c))))
        for size in range(1, k + 1)
    ]
    return subsets_path(X, y, subsets, alpha=alpha, bias=bias, criterion=criterion)


EXHAUSTIVE = Method(
    "best_subset_exhaustive",
    _exhaustive_best_subsets,
    "exact best subsets",
    # every subset of every size: 2^n RLS fits of at most k features
    flops=lambda m, n, k, t: 2.0**n * 2.0 * m * k * k * t,
)


def _brute_force_loo(Z, y, alpha):
    out = np.empty_like(y)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        w = np.linalg.solve(Z[keep].T @ Z[keep] + alpha * np.eye(Z.shape[1]), Z[keep].T @ y[keep])
        out[i] = Z[i] @ w
    return out


@pytest.mark.parametrize("name", ["best_subset_exhaustive", "abess_best_subset"])
def test_the_protocol_scores_each_subset_of_a_non_nested_method_with_its_own_rls_model(
    name, monkeypatch
):
    from rlsbench.benchmark.datasets import Dataset

    if name == "abess_best_subset":
        pytest.importorskip("abess")
    plugin = methods.get_method
    monkeypatch.setattr(
        methods, "get_method", lambda n: EXHAUSTIVE if n == EXHAUSTIVE.name else plugin(n)
    )
    # y = x0 + x1 and x2 = x0 + x1 + noise: the best single feature is x2, the best pair
    # {x0, x1}
    rng = np.random.default_rng(0)
    X = rng.standard_normal((45, 6))
    X[:, 2] = X[:, 0] + X[:, 1] + 0.3 * rng.standard_normal(45)
    y = X[:, 0] + X[:, 1] + 0.05 * rng.standard_normal(45)
    dataset = Dataset("toy", "regression", X, y, [f"f{j}" for j in range(6)])
    alpha = {"alpha": 0.5, "alpha_index": 0, "alpha_time_s": 0.0}
    rows = run_select_job(dataset, name, 1, 0, alpha, SETTINGS)
    X_train, Y_train, X_test, Y_test = _fold_data(dataset, 1, SETTINGS)
    assert [row["k"] for row in rows] == [1, 2, 3, 4]
    subsets = [[int(j) for j in row["subset"].split()] for row in rows]
    if name == "best_subset_exhaustive":
        assert subsets[0] == [2] and set(subsets[1]) == {0, 1}
    for row, subset in zip(rows, subsets, strict=True):
        assert row["status"] == "ok" and len(subset) == row["k"]
        Z = np.hstack([X_train[:, subset], np.ones((len(Y_train), 1))])
        w = np.linalg.solve(Z.T @ Z + 0.5 * np.eye(Z.shape[1]), Z.T @ Y_train)
        Z_test = np.hstack([X_test[:, subset], np.ones((len(Y_test), 1))])
        assert row["test_mse"] == pytest.approx(np.mean((Z_test @ w - Y_test) ** 2), rel=1e-9)
        loo = _brute_force_loo(Z, Y_train, 0.5)
        assert row["loo_mse"] == pytest.approx(np.mean((loo - Y_train) ** 2), rel=1e-9)
    assert rows[-1]["feature"] == subsets[-1][-1]


def test_a_nested_method_s_rows_have_no_subset_column():
    from rlsbench.benchmark.datasets import Dataset

    X, y, _ = _regression(n_features=8, m=45)
    dataset = Dataset("toy", "regression", X, y, [f"f{j}" for j in range(8)])
    alpha = {"alpha": 0.5, "alpha_index": 0, "alpha_time_s": 0.0}
    rows = run_select_job(dataset, "lasso_path", 1, 0, alpha, SETTINGS)
    assert [row["status"] for row in rows] == ["ok"] * 4
    assert all("subset" not in row for row in rows)


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_every_baseline_declares_a_flops_count_that_grows_with_the_features(name):
    method = get_method(name)
    assert callable(method.flops)
    small, large = (estimate_flops(method, 200, n, 10, 1) for n in (50, 500))
    assert 0 < small < large < np.inf


def test_stability_selection_ranks_a_constant_column_last_though_randomized():
    # the contract test checks this only for methods that are not randomized
    X, y, _ = _regression(n_features=6, m=40)
    X[:, 2] = 0.0  # a constant column after the protocol's standardisation
    assert _select("stability_selection", X, y, 6, seed=3).selected[-1] == 2


@pytest.mark.parametrize(
    "name",
    sorted(
        n for n, v in ENTRY_POINTS.items() if "multiclass" in EntryPoint(n, v, GROUP).load().tasks
    ),
)
def test_every_multiclass_baseline_selects_k_features_with_a_model_per_class(name):
    if name == "abess_best_subset":
        pytest.importorskip("abess")
    X, y, _ = _regression(n_features=8, m=45)
    labels = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))
    Y = np.where(labels[:, None] == np.arange(3), 1.0, -1.0)
    path = _select(name, X, Y, 4)
    assert np.unique(path.selected).size == 4
    assert path.coef_path.shape == (4, 4, 3) and path.decision_path(X).shape == (4, 45, 3)


def test_a_select_job_of_abess_writes_each_step_s_subset_into_its_table(tmp_path):
    pytest.importorskip("abess")
    import pandas as pd

    from rlsbench.benchmark import jobs
    from rlsbench.benchmark.datasets import Dataset, save_prepared

    X, y, _ = _regression(n_features=8, m=45)
    data = tmp_path / "toy.npz"
    save_prepared(Dataset("toy", "regression", X, y, [f"f{j}" for j in range(8)]), data)
    jobs.alpha_job(str(data), str(tmp_path / "alphas.csv"), settings=MAIN)
    out = tmp_path / "abess.csv"
    jobs.select_job(
        str(data), str(tmp_path / "alphas.csv"), str(out), method="abess_best_subset", settings=MAIN
    )
    table = pd.read_csv(out, dtype={"subset": str})
    assert len(table) == MAIN["n_folds"] * MAIN["k_max"]
    assert (table["subset"].str.split().str.len() == table["k"]).all()
