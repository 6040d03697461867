"""The LOO λ grid from one tridiagonalization of the kernel matrix (issue 44 item 7): the same
dual variables and diag(G) as the eigendecomposition it replaced, the same chosen λ, and the
eigendecomposition of T where an LDLᵀ of T + λI loses its pivots to rounding."""

import numpy as np
import pytest
import scipy.linalg

from rlsbench import GreedyRLS
from rlsbench.numerics.ridgecv import loo_grid as lg
from rlsbench.numerics.rls import choose_alpha, loo_residuals
from rlsbench.numerics.synthetic import make_two_gaussians

ALPHAS = 2.0 ** np.arange(-15, 16)


def _problem(m, n, t, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = X[:, :3] @ rng.standard_normal((3, t)) + rng.standard_normal((m, t))
    return X, y


@pytest.mark.parametrize(("m", "n", "t"), [(3, 5, 1), (40, 90, 1), (64, 70, 3), (130, 300, 2)])
@pytest.mark.parametrize("bias", [0.0, 1.0])
def test_tridiagonal_grid_equals_the_eigendecomposition(m, n, t, bias):
    X, y2 = _problem(m, n, t, seed=m + t)
    dual, diag_g = lg._tridiagonal_grid(lg._kernel_matrix(X, bias, lower=True), y2, ALPHAS)
    dual_e, diag_e = lg._eigh_grid(lg._kernel_matrix(X, bias, lower=False), y2, ALPHAS)
    np.testing.assert_allclose(diag_g, diag_e, rtol=1e-10)
    scale = np.abs(dual_e).max(axis=(0, 1))  # per λ: a = G y may cancel in single entries
    np.testing.assert_allclose(dual / scale, dual_e / scale, rtol=0, atol=1e-10)


def test_inverse_diagonal_of_the_ldl_factors_is_the_explicit_inverse():
    rng = np.random.default_rng(1)
    m = 9
    diag_t, off_t = rng.uniform(1.0, 3.0, m), rng.uniform(-1.0, 1.0, m - 1)
    T = np.diag(diag_t) + np.diag(off_t, 1) + np.diag(off_t, -1)
    Q = np.linalg.qr(rng.standard_normal((m, m)))[0]
    alphas = np.array([0.1, 1.0, 10.0])
    piv, mult = np.empty((3, m)), np.empty((3, m - 1))
    for r, a in enumerate(alphas):
        piv[r], mult[r], _ = scipy.linalg.lapack.dpttrf(diag_t + a, off_t)
    got = lg._ldl_inverse_diagonal(np.asfortranarray(Q), mult, 1.0 / piv)
    for r, a in enumerate(alphas):
        np.testing.assert_allclose(got[r], np.diag(Q @ np.linalg.inv(T + a * np.eye(m)) @ Q.T))


def test_numpy_recurrence_equals_the_numba_kernel(monkeypatch):
    X, y2 = _problem(50, 80, 1, seed=3)
    with_numba = lg._tridiagonal_grid(lg._kernel_matrix(X, 1.0, lower=True), y2, ALPHAS)
    monkeypatch.setattr(lg, "HAVE_NUMBA", False)
    without = lg._tridiagonal_grid(lg._kernel_matrix(X, 1.0, lower=True), y2, ALPHAS)
    np.testing.assert_allclose(without[1], with_numba[1], rtol=1e-12)
    np.testing.assert_allclose(without[0], with_numba[0], rtol=1e-12)


def test_lost_pivots_fall_back_to_the_eigendecomposition_of_t(monkeypatch):
    # rank 3 at scale 1e5: ε‖K‖ ≈ 1e-1 ≫ λ = 1e-8, so T + λI has pivots far below λ
    rng = np.random.default_rng(0)
    X = 1e5 * (rng.standard_normal((40, 3)) @ rng.standard_normal((3, 60)))
    y2 = rng.standard_normal((40, 1))
    alphas = np.array([1e-8, 1.0, 1e12])
    calls = []
    real = lg._spectral_grid
    monkeypatch.setattr(lg, "_spectral_grid", lambda *a: calls.append(1) or real(*a))
    dual, diag_g = lg._tridiagonal_grid(lg._kernel_matrix(X, 1.0, lower=True), y2, alphas)
    assert calls == [1]  # the fallback ran
    dual_e, diag_e = lg._eigh_grid(lg._kernel_matrix(X, 1.0, lower=False), y2, alphas)
    # λ = 1e12 ≫ ε‖K‖: both eigendecompositions agree there
    np.testing.assert_allclose(diag_g[:, 2], diag_e[:, 2], rtol=1e-8)
    np.testing.assert_allclose(dual[:, :, 2], dual_e[:, :, 2], rtol=1e-6, atol=1e-20)


@pytest.mark.parametrize("seed", range(6))
def test_chosen_alpha_is_the_protocols(seed):
    X, y = make_two_gaussians(60, 150, seed=seed, n_informative=5)
    ours = lg.choose_alpha_gram(X, y, ALPHAS, bias=1.0)
    assert ours == choose_alpha(X, y, ALPHAS, bias=1.0)
    crit, _ = lg.loo_grid_gram(X, y, ALPHAS, bias=1.0)
    direct = [np.mean(loo_residuals(X, y, a, bias=1.0) ** 2) for a in ALPHAS]
    np.testing.assert_allclose(crit, direct, rtol=1e-9)


def test_estimator_search_uses_the_tridiagonal_path(monkeypatch):
    X, y = make_two_gaussians(40, 100, seed=7, n_informative=4)
    calls = []
    real = lg._tridiagonal_grid
    monkeypatch.setattr(lg, "_tridiagonal_grid", lambda *a: calls.append(1) or real(*a))
    est = GreedyRLS(3, alpha="loo").fit(X, y)
    assert calls == [1]
    assert est.alpha_ == choose_alpha(X, y, ALPHAS, bias=1.0)
