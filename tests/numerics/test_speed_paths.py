"""The fast paths against the direct computation: the RLS path along a fixed order (one
Cholesky factor), the λ grid (one decomposition), greedy RLS's fused pass (both backends),
the protocol's LOO path and the wrapper's parallel candidates."""

import itertools

import numpy as np
import pytest

from rlsbench.benchmark.protocol import loo_decision_path
from rlsbench.numerics.rls import (
    choose_alpha,
    fit_rls,
    loo_grid,
    loo_residuals,
    ridge_prefix_path,
)
from rlsbench.numerics.selection import greedy_rls, random_selection, ridge_path, wrapper
from rlsbench.numerics.selection._scoring import HAVE_NUMBA, get_backend


def _problem(m, n, t, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n)) * rng.uniform(0.2, 3.0, size=n)
    y = rng.normal(size=(m, t)) if t else rng.normal(size=m)
    return X, y


PREFIX_CASES = list(itertools.product([(40, 7), (9, 14)], [0.0, 1.3], [0, 2], [0.05, 4.0]))


@pytest.mark.parametrize("shape,bias,t,alpha", PREFIX_CASES)
def test_prefix_path_equals_a_fit_per_prefix(shape, bias, t, alpha):
    X, y = _problem(*shape, t, seed=1)
    order = np.random.default_rng(2).permutation(shape[1])[: min(shape[1], 10)]
    coef, intercept, residuals = ridge_prefix_path(X, y, order, alpha, bias=bias)
    residuals = list(residuals)
    assert len(residuals) == order.size
    for s in range(order.size):
        Xs = X[:, order[: s + 1]]
        w, b = fit_rls(Xs, y, alpha, bias=bias)
        np.testing.assert_allclose(coef[s, : s + 1], w, rtol=1e-9, atol=1e-12)
        assert np.all(coef[s, s + 1 :] == 0)
        np.testing.assert_allclose(intercept[s], b, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(
            residuals[s], loo_residuals(Xs, y, alpha, bias=bias), rtol=1e-9, atol=1e-12
        )


def test_prefix_path_outputs_can_be_skipped():
    X, y = _problem(30, 5, 0, seed=3)
    coef, intercept, res = ridge_prefix_path(X, y, [4, 1], 0.5, residuals=False)
    assert res is None and coef.shape == (2, 2) and intercept.shape == (2,)
    coef, intercept, res = ridge_prefix_path(X, y, [4, 1], 0.5, weights=False)
    assert coef is None and intercept is None and len(list(res)) == 2


@pytest.mark.parametrize("bias,t", [(0.0, 0), (1.0, 0), (1.0, 3)])
def test_protocol_loo_path_equals_loo_shortcut_per_prefix(bias, t):
    X, y = _problem(35, 6, t, seed=4)
    order = np.array([5, 0, 3])
    for s, pred in enumerate(loo_decision_path(X, y, order, 0.7, bias=bias)):
        expected = y - loo_residuals(X[:, order[: s + 1]], y, 0.7, bias=bias)
        np.testing.assert_allclose(pred, expected, rtol=1e-9, atol=1e-12)


def test_random_selection_values_equal_refits_along_its_order():
    X, y = _problem(50, 12, 0, seed=5)
    y = np.sign(y)
    path = random_selection(X, y, 6, 0.3, bias=1.0, criterion="zero_one", seed=7)
    for s in range(6):
        Xs = X[:, path.selected[: s + 1]]
        r = loo_residuals(Xs, y, 0.3, bias=1.0)
        assert path.loo_mse[s] == pytest.approx(np.mean(r**2), rel=1e-9)
        assert path.criterion[s] == pytest.approx(np.mean((y - r > 0) != (y > 0)))


@pytest.mark.parametrize("t", [0, 2])
def test_loo_grid_eigen_route_handles_zero_and_duplicate_columns(t):
    # m > n takes the Gram eigendecomposition: a zero column gives a zero eigenvalue and a
    # duplicated column a rank deficiency; neither may disturb the LOO values.
    X, y = _problem(60, 6, t, seed=6)
    X[:, 2] = 0.0
    X[:, 4] = X[:, 1]
    alphas = 2.0 ** np.arange(-10, 11, 4)
    _, mse = loo_grid(X, y, alphas, bias=1.0)
    expected = [
        np.mean(np.sum(np.reshape(loo_residuals(X, y, a, bias=1.0), (60, -1)) ** 2, 1))
        for a in alphas
    ]
    np.testing.assert_allclose(mse, expected, rtol=1e-8)


def test_choose_alpha_same_on_both_sides_of_the_shape_switch():
    # The same problem once with m > n (eigendecomposition of XᵀX) and once padded with zero
    # columns to m <= n (SVD): zero columns change no RLS model, so the choice is the same.
    X, y = _problem(30, 6, 0, seed=8)
    y = np.sign(y)
    alphas = 2.0 ** np.arange(-6, 7)
    wide = np.hstack([X, np.zeros((30, 30))])
    a = choose_alpha(X, y, alphas, bias=1.0, criterion="zero_one")
    b = choose_alpha(wide, y, alphas, bias=1.0, criterion="zero_one")
    assert a == b
    np.testing.assert_allclose(
        loo_grid(X, y, alphas, bias=1.0)[1], loo_grid(wide, y, alphas, bias=1.0)[1], rtol=1e-8
    )


BACKENDS = ["numpy"] + (["numba"] if HAVE_NUMBA else [])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t,zero_one", [(1, False), (1, True), (3, False), (3, True)])
def test_fused_pass_equals_update_then_score(backend, t, zero_one):
    # One pass = the previous round's rank-one update of the cache followed by the scoring of
    # every candidate; compare with both done separately in plain numpy.
    rng = np.random.default_rng(9)
    m, n, alpha = 37, 11, 0.8
    X = rng.normal(size=(m, n))
    y2 = np.where(rng.normal(size=(m, t)) > 0, 1.0, -1.0)
    ycls = (y2[:, 0] > 0).astype(np.int64) if t == 1 else np.argmax(y2, axis=1)
    _, init, fused = get_backend(backend)
    cache_t, s, xta = init(X, y2, alpha, 0.0)
    G = np.eye(m) / alpha
    a = G @ y2
    b = 3
    x_b = X[:, b].copy()
    c = G @ x_b
    gamma = 1.0 / (1.0 + x_b @ c)
    u = gamma * c
    xta_b = x_b @ a
    G2 = G - np.outer(u, c)  # eq. 10
    a2, d2 = G2 @ y2, np.diag(G2).copy()
    active = np.array([0, 1, 2, 4, 5, 6, 7, 8, 9, 10])
    sq, err = fused(cache_t, active, (x_b, u, gamma, xta_b), s, xta, a2, d2, y2, ycls, zero_one)
    np.testing.assert_allclose(cache_t[active], (G2 @ X).T[active], rtol=1e-10, atol=1e-13)
    for i in active:
        v = X[:, i]
        Gv = G2 @ v
        G3 = G2 - np.outer(Gv, Gv) / (1.0 + v @ Gv)
        res = (G3 @ y2) / np.diag(G3)[:, None]
        assert sq[i] == pytest.approx(np.sum(res**2), rel=1e-9)
        if zero_one:
            pred = y2 - res
            wrong = (pred[:, 0] > 0) != (y2[:, 0] > 0) if t == 1 else pred.argmax(1) != ycls
            assert err[i] == np.count_nonzero(wrong)
    assert np.isinf(sq[b]) and np.isinf(err[b])


@pytest.mark.parametrize("criterion", ["squared", "zero_one"])
@pytest.mark.parametrize("t", [0, 2])
def test_greedy_backends_agree_on_a_larger_problem(criterion, t):
    # Several candidate groups of four and a remainder in the numba kernel, a bias, k > 4.
    rng = np.random.default_rng(10)
    X = rng.normal(size=(300, 23))
    y = X[:, :3] @ rng.normal(size=(3, max(t, 1))) + rng.normal(size=(300, max(t, 1)))
    if criterion == "zero_one":
        y = (
            np.where(y > 0, 1.0, -1.0)
            if t == 0
            else np.where(y == y.max(1, keepdims=True), 1.0, -1.0)
        )
    y = y[:, 0] if t == 0 else y
    paths = [greedy_rls(X, y, 9, 0.5, bias=1.0, criterion=criterion, backend=b) for b in BACKENDS]
    direct = ridge_path(X, y, paths[0].selected, 0.5, bias=1.0, criterion=criterion)
    for p in paths:
        np.testing.assert_array_equal(p.selected, paths[0].selected)
        np.testing.assert_allclose(p.loo_mse, direct.loo_mse, rtol=1e-9)
        np.testing.assert_allclose(p.criterion, direct.criterion, rtol=1e-9)
        np.testing.assert_allclose(p.coef_path, direct.coef_path, rtol=1e-9, atol=1e-12)


def test_greedy_max_pending_is_deprecated_and_ignored():
    X, y = _problem(40, 6, 0, seed=11)
    with pytest.warns(FutureWarning, match="max_pending"):
        a = greedy_rls(X, y, 3, 1.0, max_pending=2)
    np.testing.assert_array_equal(a.selected, greedy_rls(X, y, 3, 1.0).selected)


@pytest.mark.parametrize("loo", ["shortcut", "blackbox"])
def test_wrapper_candidates_in_parallel_give_the_same_path(loo):
    X, y = _problem(25, 7, 0, seed=12)
    y = np.sign(y)
    one = wrapper(X, y, 3, 0.5, bias=1.0, criterion="zero_one", loo=loo)
    two = wrapper(X, y, 3, 0.5, bias=1.0, criterion="zero_one", loo=loo, n_jobs=2)
    np.testing.assert_array_equal(one.selected, two.selected)
    np.testing.assert_array_equal(one.loo_mse, two.loo_mse)
    np.testing.assert_array_equal(one.coef_path, two.coef_path)


def test_prefix_path_checks_its_arguments():
    X, y = _problem(20, 4, 0, seed=13)
    with pytest.raises(ValueError, match="repeat"):
        ridge_prefix_path(X, y, [1, 1], 1.0)
    with pytest.raises(ValueError, match="outside"):
        ridge_prefix_path(X, y, [4], 1.0)
    with pytest.raises(ValueError, match="alpha"):
        ridge_prefix_path(X, y, [0], 0.0)
    with pytest.raises(ValueError, match="same number of rows"):
        ridge_prefix_path(X, y[:5], [0], 1.0)
