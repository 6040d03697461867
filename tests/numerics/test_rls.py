"""RLS solutions, the LOO shortcuts (eq. 7/8) and the λ-grid search against brute force."""

import itertools

import numpy as np
import pytest

from rlsbench.numerics.criteria import best_index, loo_mse, loo_zero_one
from rlsbench.numerics.rls import choose_alpha, fit_rls, loo_grid, loo_predictions, loo_residuals

SHAPES = [(30, 6), (6, 30), (12, 12)]  # primal side, dual side, square


def _design(X, bias):
    return X if bias == 0 else np.hstack([X, np.full((X.shape[0], 1), bias)])


def _direct_ridge(X, y, alpha, bias):
    """Ridge weights by a plain normal-equation solve on the augmented design (eq. 2)."""
    Xa = _design(X, bias)
    return np.linalg.solve(Xa.T @ Xa + alpha * np.eye(Xa.shape[1]), Xa.T @ y)


def _brute_force_loo(X, y, alpha, bias):
    """Train without example j, predict j, for every j (the definition of LOO)."""
    preds = []
    for j in range(X.shape[0]):
        keep = np.arange(X.shape[0]) != j
        w = _direct_ridge(X[keep], y[keep], alpha, bias)
        preds.append(_design(X[j : j + 1], bias)[0] @ w)
    return np.array(preds)


def _problem(m, n, multi, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n)) * rng.uniform(0.1, 3.0, size=n)
    y = rng.normal(size=(m, 3) if multi else m)
    return X, y


CASES = list(itertools.product(SHAPES, [0.0, 1.7], [False, True]))


@pytest.mark.parametrize("shape,bias,multi", CASES)
def test_fit_rls_equals_direct_ridge_solve(shape, bias, multi):
    X, y = _problem(*shape, multi, seed=1)
    coef, intercept = fit_rls(X, y, 0.3, bias=bias)
    w = _direct_ridge(X, y, 0.3, bias)
    np.testing.assert_allclose(coef, w[: shape[1]], rtol=1e-9, atol=1e-12)
    expected_intercept = bias * w[shape[1]] if bias else np.zeros_like(w[0])
    np.testing.assert_allclose(intercept, expected_intercept, rtol=1e-9, atol=1e-12)
    assert np.shape(intercept) == (() if not multi else (3,))


@pytest.mark.parametrize("shape,bias,multi", CASES)
def test_loo_shortcut_equals_brute_force_leave_one_out(shape, bias, multi):
    X, y = _problem(*shape, multi, seed=2)
    for alpha in (1e-3, 0.5, 40.0):
        np.testing.assert_allclose(
            loo_predictions(X, y, alpha, bias=bias),
            _brute_force_loo(X, y, alpha, bias),
            rtol=1e-8,
            atol=1e-10,
        )


@pytest.mark.parametrize("shape,bias,multi", CASES)
def test_loo_grid_equals_shortcut_at_every_lambda(shape, bias, multi):
    X, y = _problem(*shape, multi, seed=3)
    alphas = 2.0 ** np.arange(-8, 9, 2)
    crit, mse = loo_grid(X, y, alphas, bias=bias)
    expected = [loo_mse(loo_residuals(X, y, a, bias=bias)) for a in alphas]
    np.testing.assert_allclose(mse, expected, rtol=1e-8)
    np.testing.assert_array_equal(crit, mse)


def test_loo_grid_zero_one_counts_sign_errors():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 5))
    y = np.sign(X[:, 0] + 0.5 * rng.normal(size=40))
    alphas = [0.1, 1.0, 10.0]
    crit, _ = loo_grid(X, y, alphas, bias=1.0, criterion="zero_one")
    for c, a in zip(crit, alphas):
        pred = loo_predictions(X, y, a, bias=1.0)
        assert c == pytest.approx(np.mean(np.where(pred > 0, 1.0, -1.0) != y))


def test_zero_one_multi_output_compares_arg_max():
    y = -np.ones((4, 3))
    y[np.arange(4), [0, 1, 2, 2]] = 1
    pred = np.array([[0.9, 0.1, 0.0], [0.0, -0.2, -0.1], [0.0, 0.0, 0.3], [0.5, 0.0, 0.4]])
    assert loo_zero_one(y, y - pred) == pytest.approx(2 / 4)


def test_choose_alpha_picks_grid_minimum():
    X, y = _problem(25, 8, False, seed=5)
    alphas = 2.0 ** np.arange(-6, 7)
    crit, _ = loo_grid(X, y, alphas)
    assert choose_alpha(X, y, alphas) == alphas[np.argmin(crit)]


def test_choose_alpha_breaks_ties_by_mse_then_grid_order():
    # Zero-one criterion ties at 0 errors on separable data; the lower LOO MSE must win.
    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    X[:, 0] += 3 * y
    alphas = np.array([100.0, 1.0, 0.01])
    crit, mse = loo_grid(X, y, alphas, criterion="zero_one")
    assert np.all(crit == 0)
    assert choose_alpha(X, y, alphas, criterion="zero_one") == alphas[np.argmin(mse)]
    # Exact ties (duplicated λ): the earliest entry of the grid.
    assert best_index(np.array([1.0, 0.5, 0.5]), np.array([0.0, 2.0, 2.0])) == 1
