"""All RLS selectors make the same choices with the same LOO values (the paper's claim that
greedy RLS is an exact speed-up of the wrapper), and their weights are ridge solutions."""

import itertools

import numpy as np
import pytest

from rlsbench.numerics.selection import (
    greedy_rls,
    lowrank_lssvm,
    random_selection,
    ridge_path,
    subset_models,
    wrapper,
)
from rlsbench.numerics.selection._scoring import HAVE_NUMBA

K = 4
SWEEP = list(
    itertools.product(
        ["m<n", "m>n"], [0.0, 1.5], ["single", "multi"], ["squared", "zero_one"], [0, 1, 2]
    )
)


def make_problem(shape, outputs, criterion, seed):
    """Small random problem with a pair of near-duplicate columns (relative gap 1e-3)."""
    rng = np.random.default_rng([seed, len(shape), len(outputs), len(criterion)])
    m, n = (9, 13) if shape == "m<n" else (22, 8)
    X = rng.normal(size=(m, n)) * rng.uniform(0.2, 2.0, size=n)
    i, j = rng.choice(n, size=2, replace=False)
    X[:, j] = X[:, i] * (1 + 1e-3 * rng.normal(size=m))
    t = 3
    if criterion == "zero_one":
        if outputs == "single":
            y = np.where(X[:, i] + rng.normal(size=m) > 0, 1.0, -1.0)
            y[:2] = [1.0, -1.0]
        else:
            # Every class at least twice: a class present only in the left-out example makes
            # LOO scores of two outputs exactly equal, and rounding would pick the arg-max.
            cls = rng.permutation(np.arange(m) % t)
            y = -np.ones((m, t))
            y[np.arange(m), cls] = 1.0
    else:
        w = rng.normal(size=(n, t) if outputs == "multi" else n)
        y = X @ w + rng.normal(size=(m, t) if outputs == "multi" else m)
    alpha = float(rng.choice([0.05, 0.7, 6.0]))
    return X, y, alpha


def selectors():
    out = {
        "greedy_numpy": lambda *a, **kw: greedy_rls(*a, backend="numpy", **kw),
        "greedy_numpy_writeback_every_round": lambda *a, **kw: greedy_rls(
            *a, backend="numpy", max_pending=1, **kw
        ),
        "lowrank": lowrank_lssvm,
        "wrapper_shortcut": lambda *a, **kw: wrapper(*a, loo="shortcut", **kw),
        "wrapper_blackbox": lambda *a, **kw: wrapper(*a, loo="blackbox", **kw),
    }
    if HAVE_NUMBA:
        out["greedy_numba"] = lambda *a, **kw: greedy_rls(*a, backend="numba", **kw)
    return out


def direct_ridge(X, y, alpha, bias):
    Xa = X if bias == 0 else np.hstack([X, np.full((X.shape[0], 1), bias)])
    return np.linalg.solve(Xa.T @ Xa + alpha * np.eye(Xa.shape[1]), Xa.T @ y)


@pytest.mark.parametrize("shape,bias,outputs,criterion,seed", SWEEP)
def test_all_selectors_choose_same_features_with_same_loo(shape, bias, outputs, criterion, seed):
    X, y, alpha = make_problem(shape, outputs, criterion, seed)
    paths = {
        name: f(X, y, K, alpha, bias=bias, criterion=criterion) for name, f in selectors().items()
    }
    ref = paths.pop("wrapper_blackbox")  # Algorithm 1 literally: m retrainings per set
    assert len(set(ref.selected)) == K
    for name, p in paths.items():
        np.testing.assert_array_equal(p.selected, ref.selected, err_msg=name)
        np.testing.assert_allclose(p.loo_mse, ref.loo_mse, rtol=1e-8, err_msg=name)
        np.testing.assert_allclose(p.criterion, ref.criterion, rtol=1e-8, err_msg=name)
        np.testing.assert_allclose(p.coef_path, ref.coef_path, rtol=1e-8, atol=1e-10, err_msg=name)
        np.testing.assert_allclose(
            p.intercept_path, ref.intercept_path, rtol=1e-8, atol=1e-10, err_msg=name
        )


@pytest.mark.parametrize(
    "shape,bias,outputs", list(itertools.product(["m<n", "m>n"], [0.0, 1.5], ["single", "multi"]))
)
def test_greedy_weights_equal_direct_ridge_on_selected_columns(shape, bias, outputs):
    X, y, alpha = make_problem(shape, outputs, "squared", seed=7)
    path = greedy_rls(X, y, K, alpha, bias=bias)
    n_out = y.shape[1] if y.ndim == 2 else None
    for s in range(K):
        w = direct_ridge(X[:, path.selected[: s + 1]], y, alpha, bias)
        np.testing.assert_allclose(path.coef_path[s, : s + 1], w[: s + 1], rtol=1e-8, atol=1e-10)
        assert np.all(path.coef_path[s, s + 1 :] == 0)
        expected_icpt = bias * w[s + 1] if bias else np.zeros(n_out or ())
        np.testing.assert_allclose(path.intercept_path[s], expected_icpt, rtol=1e-8, atol=1e-10)
    # decision_path scores new data with those weights
    Xt = np.random.default_rng(0).normal(size=(5, X.shape[1]))
    dec = path.decision_path(Xt)
    w = direct_ridge(X[:, path.selected], y, alpha, bias)
    expected = Xt[:, path.selected] @ w[:K] + (bias * w[K] if bias else 0)
    np.testing.assert_allclose(dec[-1], expected, rtol=1e-8, atol=1e-10)


def test_greedy_picks_the_lowest_loo_feature_each_round():
    # Independent of the other selectors: each round's choice is the argmin of the LOO MSE
    # of RLS refitted on S ∪ {i}, computed by brute-force leave-one-out.
    X, y, alpha = make_problem("m>n", "single", "squared", seed=3)
    path = greedy_rls(X, y, 3, alpha, bias=1.0)
    chosen = []
    for s in range(3):
        errs = []
        for i in range(X.shape[1]):
            if i in chosen:
                errs.append(np.inf)
                continue
            cols = chosen + [i]
            res = [
                y[j]
                - np.r_[X[j, cols], 1.0]
                @ direct_ridge(np.delete(X[:, cols], j, 0), np.delete(y, j), alpha, 1.0)
                for j in range(len(y))
            ]
            errs.append(np.mean(np.square(res)))
        chosen.append(int(np.argmin(errs)))
        assert path.selected[s] == chosen[-1]
        assert path.loo_mse[s] == pytest.approx(min(errs), rel=1e-9)


def test_exact_duplicate_columns_go_to_lower_index():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(30, 5))
    y = X[:, 2] + 0.1 * rng.normal(size=30)
    X = np.hstack([X, X[:, [2]]])  # column 5 duplicates column 2
    for f in (greedy_rls, lowrank_lssvm, wrapper):
        assert f(X, y, 1, 1.0).selected[0] == 2, f.__name__


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed")
def test_greedy_numba_result_independent_of_thread_count():
    X, y, alpha = make_problem("m>n", "multi", "squared", seed=5)
    noise = np.random.default_rng(0).normal(size=(60 * X.shape[0], X.shape[1]))
    X = np.tile(X, (60, 1)) + 1e-2 * noise
    y = np.tile(y, (60, 1))
    a = greedy_rls(X, y, 5, alpha, bias=1.0, backend="numba", n_jobs=1)
    b = greedy_rls(X, y, 5, alpha, bias=1.0, backend="numba", n_jobs=2)
    np.testing.assert_array_equal(a.selected, b.selected)
    np.testing.assert_array_equal(a.loo_mse, b.loo_mse)


def test_ridge_path_follows_given_order_and_matches_wrapper_values():
    X, y, alpha = make_problem("m<n", "single", "squared", seed=2)
    ref = wrapper(X, y, K, alpha, bias=1.5)
    path = ridge_path(X, y, ref.selected, alpha, bias=1.5)
    np.testing.assert_array_equal(path.selected, ref.selected)
    np.testing.assert_allclose(path.loo_mse, ref.loo_mse, rtol=1e-8)
    np.testing.assert_allclose(path.coef_path, ref.coef_path, rtol=1e-8, atol=1e-10)
    order = np.array([3, 0, 7])
    np.testing.assert_array_equal(ridge_path(X, y, order, alpha).selected, order)


@pytest.mark.parametrize("shape", ["m>n", "m<n"])
@pytest.mark.parametrize("targets", ["single", "multi"])
@pytest.mark.parametrize("criterion", ["squared", "zero_one"])
def test_subset_models_are_the_last_steps_of_ridge_path_bit_for_bit(shape, targets, criterion):
    """One model per subset (the abess and RFE baselines' subsets are not nested): the
    same numbers as the last step of ridge_path on each subset."""
    X, y, alpha = make_problem(shape, targets, criterion, seed=5)
    rng = np.random.default_rng(0)
    subsets = [rng.choice(X.shape[1], size=s, replace=False) for s in (1, 3, 2, 5)]
    models = subset_models(X, y, subsets, alpha, bias=1.5, criterion=criterion)
    assert len(models) == len(subsets)
    for subset, (coef, intercept, crit, mse) in zip(subsets, models, strict=True):
        path = ridge_path(X, y, subset, alpha, bias=1.5, criterion=criterion)
        np.testing.assert_array_equal(coef, path.coef_path[-1])
        np.testing.assert_array_equal(intercept, path.intercept_path[-1])
        assert crit == path.criterion[-1] and mse == path.loo_mse[-1]


def test_random_selection_is_seeded():
    X, y, alpha = make_problem("m>n", "single", "squared", seed=0)
    a = random_selection(X, y, 5, alpha, seed=3)
    b = random_selection(X, y, 5, alpha, seed=3)
    c = random_selection(X, y, 5, alpha, seed=4)
    np.testing.assert_array_equal(a.selected, b.selected)
    assert len(set(a.selected)) == 5
    assert not np.array_equal(a.selected, c.selected)
    np.testing.assert_allclose(a.loo_mse, ridge_path(X, y, a.selected, alpha).loo_mse)


@pytest.mark.parametrize("backend", ["numpy"] + (["numba"] if HAVE_NUMBA else []))
def test_greedy_memory_is_linear_in_m_never_an_m_by_m_matrix(backend):
    import tracemalloc

    rng = np.random.default_rng(1)
    m, n = 4000, 25
    X = rng.normal(size=(m, n))
    y = np.where(X[:, 0] + rng.normal(size=m) > 0, 1.0, -1.0)
    greedy_rls(X[:50], y[:50], 2, 1.0, backend=backend)  # load kernels outside the trace
    tracemalloc.start()
    greedy_rls(X, y, 5, 1.0, bias=1.0, criterion="zero_one", backend=backend)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4 * X.nbytes  # the cache (= X) plus O(m + n) vectors
    assert peak < 8 * m * m / 10  # an m×m float64 matrix would be 16× X here
