"""The estimators' LOO λ search from one eigendecomposition of the smaller Gram matrix agrees
with the protocol's search (thin SVD) and with one direct LOO solve per λ."""

import numpy as np
import pytest

from rlsbench.numerics.criteria import loo_mse, loo_zero_one
from rlsbench.numerics.ridgecv.loo_grid import choose_alpha_gram, loo_grid_gram
from rlsbench.numerics.rls import choose_alpha, loo_grid, loo_residuals

ALPHAS = 2.0 ** np.arange(-15, 16)


def _problem(m, n, t, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    w = rng.standard_normal((n, t))
    y = X @ w + rng.standard_normal((m, t))
    return X, (np.sign(y[:, 0]) if t == 1 else y)


@pytest.mark.parametrize("bias", [0.0, 1.0, 3.0])
@pytest.mark.parametrize(
    ("m", "n", "t"),
    [(30, 80, 1), (40, 100, 3), (25, 24, 1), (25, 25, 1), (60, 20, 1)],
    ids=["wide", "wide-3-outputs", "square-with-bias", "square", "tall"],
)
def test_grid_equals_the_svd_search_and_a_direct_solve_per_alpha(m, n, t, bias):
    X, y = _problem(m, n, t, seed=m + n + t)
    crit, mse = loo_grid_gram(X, y, ALPHAS, bias=bias)
    crit_svd, mse_svd = loo_grid(X, y, ALPHAS, bias=bias)
    direct = np.array([loo_mse(loo_residuals(X, y, a, bias=bias)) for a in ALPHAS])
    np.testing.assert_allclose(crit, crit_svd, rtol=1e-10)
    np.testing.assert_allclose(mse, direct, rtol=1e-8)
    assert choose_alpha_gram(X, y, ALPHAS, bias=bias) == choose_alpha(X, y, ALPHAS, bias=bias)


def test_zero_one_criterion_counts_the_direct_loo_errors():
    X, y = _problem(40, 90, 1, seed=5)
    crit, _ = loo_grid_gram(X, y, ALPHAS, bias=1.0, criterion="zero_one")
    direct = [loo_zero_one(y, loo_residuals(X, y, a, bias=1.0)) for a in ALPHAS]
    np.testing.assert_array_equal(crit, direct)
    assert choose_alpha_gram(X, y, ALPHAS, bias=1.0, criterion="zero_one") == choose_alpha(
        X, y, ALPHAS, bias=1.0, criterion="zero_one"
    )


def test_rank_deficient_design_keeps_the_chosen_alpha():
    # duplicated rows and columns: zero eigenvalues of the kernel matrix, clamped at 0
    X, y = _problem(20, 30, 1, seed=9)
    X = np.vstack([X, X[:5]])
    X = np.hstack([X, X[:, :4]])
    y = np.concatenate([y, y[:5]])
    crit, _ = loo_grid_gram(X, y, ALPHAS, bias=1.0)
    crit_svd, _ = loo_grid(X, y, ALPHAS, bias=1.0)
    np.testing.assert_allclose(crit, crit_svd, rtol=1e-6)
    assert choose_alpha_gram(X, y, ALPHAS, bias=1.0) == choose_alpha(X, y, ALPHAS, bias=1.0)
