"""Sun & Yao's forward selection by marginal likelihood, its low-rank variant and the RVMs."""

import numpy as np
import pytest
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.utils.estimator_checks import parametrize_with_checks

from rlsbench.estimators import ForwardMarglikRegressor, RVMRegressor
from rlsbench.numerics.marglik import (
    forward_marglik,
    forward_marglik_lowrank,
    gaussian_kernel,
    marginal_loss,
    pivoted_cholesky,
)
from rlsbench.numerics.marglik.lowrank import _squared_distances
from rlsbench.numerics.marglik.rvm import (
    BudgetExceeded,
    _cho_factor,
    _cho_solve,
    rvm_fast,
    rvm_tipping,
)


def _problem(seed, n=40, m=15):
    rng = np.random.default_rng(seed)
    H = rng.standard_normal((n, m)) * rng.uniform(0.2, 3.0, m)
    t = H[:, :4] @ rng.standard_normal(4) + 0.5 * rng.standard_normal(n)
    return H, t


@pytest.mark.parametrize("seed", range(6))
def test_recursive_loss_equals_loss_recomputed_from_scratch(seed):
    H, t = _problem(seed)
    rng = np.random.default_rng(100 + seed)
    lam, sigma2 = rng.uniform(0.05, 5.0), rng.uniform(0.1, 3.0)
    path = forward_marglik(H, t, 10, lam, sigma2=sigma2)
    assert len(path.selected) == 10
    assert np.isclose(path.loss[0], marginal_loss(H[:, :0], t, lam, sigma2), rtol=1e-12)
    for s in range(10):
        chosen = path.selected[: s + 1]
        scratch = marginal_loss(H[:, chosen], t, lam, sigma2)
        assert np.isclose(path.loss[s + 1], scratch, rtol=1e-10, atol=1e-10)
        # ΔJ of eq. (5) = the drop of the loss recomputed from scratch (eq. 3)
        previous = marginal_loss(H[:, chosen[:-1]], t, lam, sigma2)
        assert np.isclose(path.delta_loss[s], previous - scratch, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_each_step_adds_the_candidate_with_the_lowest_recomputed_loss(seed):
    H, t = _problem(seed, n=30, m=12)
    lam, sigma2 = 0.5, 0.7
    path = forward_marglik(H, t, 6, lam, sigma2=sigma2)
    for s in range(6):
        chosen = list(path.selected[:s])
        rest = [i for i in range(H.shape[1]) if i not in chosen]
        losses = [marginal_loss(H[:, chosen + [i]], t, lam, sigma2) for i in rest]
        assert rest[int(np.argmin(losses))] == path.selected[s]


def test_weights_and_loo_are_those_of_ridge_on_the_selected_columns():
    H, t = _problem(7)
    lam = 0.8
    path = forward_marglik(H, t, 8, lam)
    for s in range(8):
        Hs = H[:, path.selected[: s + 1]]
        w = np.linalg.solve(Hs.T @ Hs + lam * np.eye(s + 1), Hs.T @ t)
        np.testing.assert_allclose(path.coef_path[s, : s + 1], w, rtol=1e-9, atol=1e-12)
        assert np.all(path.coef_path[s, s + 1 :] == 0)
        loo = []
        for i in range(len(t)):
            keep = np.arange(len(t)) != i
            wi = np.linalg.solve(Hs[keep].T @ Hs[keep] + lam * np.eye(s + 1), Hs[keep].T @ t[keep])
            loo.append(t[i] - Hs[i] @ wi)
        assert np.isclose(path.loo_mse[s], np.mean(np.square(loo)), rtol=1e-9)


def test_forced_column_is_in_every_model_but_not_reported():
    H, t = _problem(3)
    Hb = np.column_stack([H, np.ones(len(t))])
    path = forward_marglik(Hb, t + 5.0, 5, 0.3, forced=[H.shape[1]])
    assert H.shape[1] not in path.selected
    for s in range(5):
        cols = [H.shape[1], *path.selected[: s + 1]]
        assert np.isclose(path.loss[s + 1], marginal_loss(Hb[:, cols], t + 5.0, 0.3), rtol=1e-10)
        assert path.forced_coef_path.shape == (5, 1)


def test_stop_on_no_gain_stops_where_delta_loss_turns_negative():
    rng = np.random.default_rng(0)
    H = rng.standard_normal((50, 20))
    t = 2.0 * H[:, 0] + 0.1 * rng.standard_normal(50)
    full = forward_marglik(H, t, 20, 1.0, sigma2=0.01)
    stopped = forward_marglik(H, t, 20, 1.0, sigma2=0.01, stop_on_no_gain=True)
    assert stopped.info["stopped"] == "no_gain"
    k = len(stopped.selected)
    assert np.all(full.delta_loss[:k] > 0) and full.delta_loss[k] <= 0
    np.testing.assert_array_equal(stopped.selected, full.selected[:k])


@pytest.mark.parametrize("bad", [{"lam": 0.0}, {"lam": np.nan}, {"sigma2": -1.0}])
def test_bad_hyperparameters_are_rejected_by_name(bad):
    H, t = _problem(0)
    kwargs = {"lam": 1.0, "sigma2": 1.0, **bad}
    with pytest.raises(ValueError, match=next(iter(bad))):
        forward_marglik(H, t, 3, kwargs["lam"], sigma2=kwargs["sigma2"])


@pytest.mark.parametrize("seed", range(4))
def test_kernel_distances_are_scikit_learns_bit_for_bit(seed):
    # _squared_distances replaces euclidean_distances in the pivoted Cholesky's hot loop; the
    # committed Sun & Yao tables depend on its bits (rows, one row, X with itself, F order)
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((57, 1 + 4 * seed)) * rng.uniform(0.01, 100.0)
    X = np.asfortranarray(X) if seed % 2 else X
    Y = rng.standard_normal((23, X.shape[1]))
    for a, b in ((X, Y), (X, X), (X, X[5:6]), (X[::2], X[::3])):
        expected = euclidean_distances(a, b, squared=True)
        np.testing.assert_array_equal(_squared_distances(a, b), np.maximum(expected, 0.0))
    assert np.all(np.diag(_squared_distances(X, X)) == 0.0)
    with pytest.raises(ValueError, match="same number of features"):
        _squared_distances(X, Y[:, :0])


@pytest.mark.parametrize("size", [1, 2, 7, 40])
def test_rvm_cholesky_calls_are_scipys_bit_for_bit(size):
    # the RVM solvers call POTRF/POTRS directly; the committed tables depend on their bits
    rng = np.random.default_rng(size)
    A = rng.standard_normal((size + 3, size))
    S = A.T @ A + 0.1 * np.eye(size)
    ours = _cho_factor(S)
    theirs = cho_factor(S, lower=True, check_finite=False)
    np.testing.assert_array_equal(ours[0], theirs[0])
    for b in (rng.standard_normal(size), np.eye(size)):
        np.testing.assert_array_equal(_cho_solve(ours, b), cho_solve(theirs, b, check_finite=False))
    with pytest.raises(LinAlgError, match="not positive definite"):
        _cho_factor(-S)


@pytest.mark.parametrize("seed", range(3))
def test_full_rank_incomplete_cholesky_reproduces_the_kernel_matrix(seed):
    X = np.random.default_rng(seed).standard_normal((30, 3))
    K = gaussian_kernel(X, X, 6.0)
    chol = pivoted_cholesky(X, 6.0, 30, tol=0.0)
    np.testing.assert_allclose(chol.factor @ chol.factor.T, K, atol=1e-10)
    assert np.abs(np.triu(chol.factor[chol.pivots], 1)).max() < 1e-10


@pytest.mark.parametrize("seed", range(4))
def test_lowrank_forward_at_full_rank_equals_the_exact_one(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((35, 2))
    t = np.sin(2 * X[:, 0]) + 0.1 * rng.standard_normal(35)
    K = gaussian_kernel(X, X, 3.0)
    chol = pivoted_cholesky(X, 3.0, 35, tol=0.0)
    exact = forward_marglik(K, t, 12, 0.05, sigma2=0.2)
    low = forward_marglik_lowrank(chol.factor, t, 12, 0.05, sigma2=0.2)
    np.testing.assert_array_equal(low.selected, exact.selected)
    np.testing.assert_allclose(low.loss, exact.loss, rtol=1e-9)
    np.testing.assert_allclose(low.coef_path, exact.coef_path, rtol=1e-6, atol=1e-8)


def test_lowrank_forward_at_low_rank_is_the_exact_forward_on_the_approximation():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((60, 2))
    t = np.cos(X[:, 1]) + 0.1 * rng.standard_normal(60)
    chol = pivoted_cholesky(X, 1.0, 15)
    Q = chol.factor @ chol.factor.T
    exact = forward_marglik(Q, t, 10, 0.1)
    low = forward_marglik_lowrank(chol.factor, t, 10, 0.1)
    np.testing.assert_array_equal(low.selected, exact.selected)
    np.testing.assert_allclose(low.loss, exact.loss, rtol=1e-9)


def test_forward_regressor_prediction_at_training_points_matches_fitted_values():
    rng = np.random.default_rng(1)
    X = rng.uniform(-5, 5, (80, 1))
    y = np.sinc(X[:, 0] / np.pi) + 0.05 * rng.standard_normal(80)
    model = ForwardMarglikRegressor(width=2.0, lam=0.01, k_max=20, sigma2=0.0025).fit(X, y)
    G = model.chol_.factor
    fitted = (G @ G[model.basis_].T) @ model.coef_ + model.y_mean_
    np.testing.assert_allclose(model.predict(X), fitted, atol=1e-8)
    assert np.mean((model.predict(X) - y) ** 2) < 0.1 * np.var(y)


def _log_ml_direct(Phi, t, result):
    """L = −½[n log 2π + log|C| + tᵀC⁻¹t], C = β⁻¹I + Φ_a A⁻¹ Φ_aᵀ, formed explicitly."""
    Pa = Phi[:, result.active]
    C = np.eye(len(t)) / result.beta + (Pa / result.alpha) @ Pa.T
    f = cho_factor(C)
    return -0.5 * (
        len(t) * np.log(2 * np.pi) + 2 * np.log(np.diag(f[0])).sum() + t @ cho_solve(f, t)
    )


def _stationarity(Phi, t, result):
    """T&F's optimality conditions: θᵢ ≤ 0 off the model, αᵢ = sᵢ²/θᵢ in it."""
    Pa = Phi[:, result.active]
    Cinv = np.linalg.inv(np.eye(len(t)) / result.beta + (Pa / result.alpha) @ Pa.T)
    S = np.einsum("ij,ik,kj->j", Phi, Cinv, Phi)
    Q = Phi.T @ Cinv @ t
    a = result.alpha
    s, q = S.copy(), Q.copy()
    s[result.active] = a * S[result.active] / (a - S[result.active])
    q[result.active] = a * Q[result.active] / (a - S[result.active])
    theta = q**2 - s
    off = np.setdiff1d(np.arange(Phi.shape[1]), result.active)
    return theta[off].max(initial=-np.inf), theta[result.active], s[result.active]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fixed_noise", [True, False])
def test_fast_rvm_reaches_the_marginal_likelihood_of_the_original(seed, fixed_noise):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((60, 10))
    w = np.zeros(10)
    w[:3] = [1.0, -1.0, 0.5]
    t = Phi @ w + 0.5 * rng.standard_normal(60)
    old = rvm_tipping(Phi, t, beta=4.0, fixed_noise=fixed_noise, max_iter=20000, tol=1e-10)
    new = rvm_fast(Phi, t, beta=4.0, fixed_noise=fixed_noise, tol=1e-10)
    assert old.converged and new.converged
    assert np.isclose(new.log_ml, old.log_ml, rtol=1e-7, atol=1e-7)
    np.testing.assert_array_equal(new.active, old.active)
    np.testing.assert_allclose(new.mean, old.mean, rtol=1e-4, atol=1e-6)
    assert np.isclose(new.log_ml, _log_ml_direct(Phi, t, new), rtol=1e-10)


def _sinc_kernel_problem():
    rng = np.random.default_rng(2)
    X = rng.uniform(-10, 10, (80, 1))
    t = np.sinc(X[:, 0] / np.pi) + 0.1 * rng.standard_normal(80)
    return gaussian_kernel(X, X, 8.0), t


def test_fast_rvm_on_a_kernel_stops_at_a_stationary_point_of_the_marginal_likelihood():
    K, t = _sinc_kernel_problem()
    result = rvm_fast(K, t, beta=100.0, fixed_noise=True, tol=1e-9)
    assert result.converged
    assert np.isclose(result.log_ml, _log_ml_direct(K, t, result), rtol=1e-9)
    theta_off, theta_in, s_in = _stationarity(K, t, result)
    assert theta_off <= 0.0
    assert np.all(theta_in > 0)
    np.testing.assert_allclose(result.alpha, s_in**2 / theta_in, rtol=1e-6)
    assert result.active.size < 20


def test_original_rvm_on_a_kernel_increases_the_marginal_likelihood_every_iteration():
    # Re-estimation is an EM-like ascent; on kernels it only creeps towards α → ∞ for the
    # vectors it is about to prune, so we check the ascent and the result, not convergence.
    K, t = _sinc_kernel_problem()
    result = rvm_tipping(K, t, beta=100.0, fixed_noise=True, max_iter=3000, tol=1e-9)
    history = result.info["log_ml_history"]
    assert np.all(np.diff(history) > -1e-9 * np.abs(history).max())
    assert np.isclose(result.log_ml, _log_ml_direct(K, t, result), rtol=1e-9)
    theta_off, theta_in, _ = _stationarity(K, t, result)
    assert theta_off <= 1e-3 * np.abs(theta_in).max()
    assert result.active.size < 20


@pytest.mark.parametrize("method", ["tipping2001", "fast"])
def test_rvm_flop_budget_is_a_deterministic_count_that_stops_before_it_is_exceeded(method):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((150, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(150)
    kw = dict(width=1.0, method=method, max_iter=300, tol=1e-3)
    free = RVMRegressor(**kw).fit(X, y)
    assert free.flops_ > 0 and free.flops_ == RVMRegressor(**kw).fit(X, y).flops_
    # a budget of exactly the count lets the same fit finish, with the same result
    exact = RVMRegressor(**kw, flop_budget=free.flops_).fit(X, y)
    np.testing.assert_array_equal(exact.coef_, free.coef_)
    with pytest.raises(BudgetExceeded, match="estimated flops") as info:
        RVMRegressor(**kw, flop_budget=0.5 * free.flops_).fit(X, y)
    assert 0 < info.value.flops <= 0.5 * free.flops_ and info.value.n_iter < free.n_iter_
    with pytest.raises(BudgetExceeded):
        RVMRegressor(**kw, flop_budget=1.0).fit(X, y)


def test_rvm_flop_counts_follow_the_cost_models():
    from rlsbench.numerics.marglik.rvm import (
        fast_iteration_flops,
        tipping_iteration_flops,
        tipping_setup_flops,
    )

    # Old RVM: ΦᵀΦ (2nm²) then O(M³) per iteration; the first iteration has every vector
    assert tipping_setup_flops(100, 100) == pytest.approx(2e6, rel=0.02)
    assert tipping_iteration_flops(200) / tipping_iteration_flops(100) == pytest.approx(8, rel=0.03)
    # New RVM: S and Q of all m candidates (2mM²) dominate while M ≪ m
    assert fast_iteration_flops(1000, 1000, 10, add=False, noise=False) == pytest.approx(
        2e5 + 4e4 + 3e4 + 10**3 * 7 / 3 + 800, rel=1e-9
    )
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 1))
    K = gaussian_kernel(X, X, 1.0)
    result = rvm_tipping(K, np.sin(X[:, 0]), max_iter=1)
    assert result.info["flops"] == tipping_setup_flops(60, 60) + tipping_iteration_flops(60)


@pytest.mark.parametrize("method", ["tipping2001", "fast"])
def test_rvm_regressor_fits_sinc(method):
    rng = np.random.default_rng(3)
    X = rng.uniform(-10, 10, (100, 1))
    y = np.sinc(X[:, 0] / np.pi) + 0.1 * rng.standard_normal(100)
    Xt = np.linspace(-10, 10, 200)[:, None]
    model = RVMRegressor(width=8.0, method=method).fit(X, y)
    assert np.mean((model.predict(Xt) - np.sinc(Xt[:, 0] / np.pi)) ** 2) < 0.01
    assert 2 <= model.coef_.size < 30


@parametrize_with_checks([ForwardMarglikRegressor(), RVMRegressor(max_iter=50)])
def test_estimators_pass_the_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_forward_marglik_refuses_a_non_finite_gain_instead_of_skipping_it():
    """One basis function scaled to 1e200 makes its ΔJ overflow: np.argmax would have picked
    the NaN or stopped as if the candidates were exhausted."""
    from rlsbench.numerics.marglik.forward import forward_marglik
    from rlsbench.numerics.selection import SelectionError

    rng = np.random.default_rng(0)
    H, t = rng.standard_normal((30, 6)), rng.standard_normal(30)
    H[:, 2] *= 1e200
    with np.errstate(all="ignore"), pytest.raises(SelectionError, match="step 1: 1 of 6"):
        forward_marglik(H, t, 4, 1.0)
