"""Buteneers et al. Section 2 and 4: the naive, covariance and eigen K-fold λ searches agree."""

import numpy as np
import pytest

from rlsbench.numerics.ridgecv.crrr import (
    balanced_error_rate,
    class_weight_fn,
    class_weighted_fold_statistics,
)
from rlsbench.numerics.ridgecv.kfold_lambda import (
    LAMBDA_METHODS,
    cv_errors_covariance,
    cv_errors_eigen,
    cv_errors_naive,
    fold_statistics,
    lambda_grid,
    make_folds,
    search_lambda,
    shifted_eigh,
)


def ill_conditioned(m, n, log_cond, seed):
    """X with singular values spread over 10**(log_cond/2) so that cond(XᵀX) = 10**log_cond."""
    rng = np.random.default_rng(seed)
    U, _ = np.linalg.qr(rng.standard_normal((m, n)))
    V, _ = np.linalg.qr(rng.standard_normal((n, n)))
    X = (U * np.logspace(0, -log_cond / 2, n)) @ V.T * np.sqrt(m)
    y = X @ rng.standard_normal(n) + 0.1 * rng.standard_normal(m)
    return X, y


def problems():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((150, 12))
    yield "well_conditioned", X, X[:, :4] @ [1.0, -1.0, 0.5, 2.0] + rng.standard_normal(150)
    yield "ill_conditioned_1e11", *ill_conditioned(200, 15, 11, 0)
    yield "ill_conditioned_1e13", *ill_conditioned(200, 15, 13, 1)
    Xc = rng.standard_normal((120, 6))  # exactly collinear column pair + offset column
    Xc = np.hstack([Xc, Xc[:, :1] * 2.0, np.ones((120, 1))])
    yield "rank_deficient", Xc, Xc[:, 0] + 0.2 * rng.standard_normal(120) + 3.0
    Xm = rng.standard_normal((90, 5))
    yield (
        "two_outputs",
        Xm,
        np.stack([Xm[:, 0], Xm[:, 1] - Xm[:, 2]], 1) + rng.standard_normal((90, 2)),
    )


@pytest.mark.parametrize("name,X,y", list(problems()), ids=[p[0] for p in problems()])
def test_naive_covariance_eigen_pick_same_lambda_and_errors(name, X, y):
    if name.startswith("ill"):
        assert np.linalg.cond(X.T @ X) >= 1e10
    folds = make_folds(X.shape[0], 7, seed=0)
    stats = fold_statistics(X, y, folds)
    lambdas = lambda_grid(stats.A, 30)
    errs = {
        "naive": cv_errors_naive(X, y, folds, lambdas),
        "covariance": cv_errors_covariance(stats, lambdas),
        "eigen": cv_errors_eigen(stats, lambdas),
    }
    for method in ("covariance", "eigen"):
        np.testing.assert_allclose(errs[method], errs["naive"], rtol=1e-6)
    picks = {m: search_lambda(X, y, lambdas, folds, method=m).best_index for m in LAMBDA_METHODS}
    assert len(set(picks.values())) == 1, picks


def test_fold_statistics_are_the_fold_covariances():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 4)), rng.standard_normal(40)
    folds = make_folds(40, 4, seed=2)
    st = fold_statistics(X, y, folds)
    for k in range(4):
        t = folds != k
        np.testing.assert_allclose(st.At[k], X[t].T @ X[t], atol=1e-12)
        np.testing.assert_allclose(st.Bt[k][:, 0], X[t].T @ y[t], atol=1e-12)
        np.testing.assert_allclose(st.cv[k, 0], y[~t] @ y[~t])


def test_shifted_eigendecomposition_reconstructs_the_matrix():
    X, _ = ill_conditioned(100, 10, 12, 5)
    A = X.T @ X
    D, C = shifted_eigh(A, 1e3)
    np.testing.assert_allclose(C @ np.diag(D) @ C.T, A, atol=1e-9 * np.abs(A).max())


def test_cv_error_matches_explicit_refit_at_one_lambda():
    rng = np.random.default_rng(1)
    X, y = rng.standard_normal((50, 3)), rng.standard_normal(50)
    folds = make_folds(50, 5, seed=0)
    lam = 0.7
    expected = 0.0
    for k in range(5):
        t = folds != k
        w = np.linalg.solve(X[t].T @ X[t] + lam * np.eye(3), X[t].T @ y[t])
        expected += np.sum((X[~t] @ w - y[~t]) ** 2)
    got = cv_errors_eigen(fold_statistics(X, y, folds), np.array([lam]))
    np.testing.assert_allclose(got, [expected], rtol=1e-10)


def unbalanced(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((160, 6))
    y = np.where(X[:, 0] + 0.7 * rng.standard_normal(160) > 1.0, 1.0, -1.0)
    return X, y


def test_class_reweighted_searches_agree_with_weighted_refit():
    X, y = unbalanced(0)
    assert 0.1 < np.mean(y > 0) < 0.3
    folds = make_folds(160, 5, seed=0)
    st = class_weighted_fold_statistics(X, y, folds)
    lambdas = lambda_grid(st.A, 25)
    naive = cv_errors_naive(X, y, folds, lambdas, sample_weight_fn=class_weight_fn(y))
    np.testing.assert_allclose(cv_errors_covariance(st, lambdas), naive, rtol=1e-8)
    np.testing.assert_allclose(cv_errors_eigen(st, lambdas), naive, rtol=1e-8)
    # the training covariance is XᵀR²X with R² = 1/n_class of the fold's training rows
    t = folds != 0
    n_pos, n_neg = np.sum(y[t] > 0), np.sum(y[t] < 0)
    w = np.where(y[t] > 0, 1 / n_pos, 1 / n_neg)
    np.testing.assert_allclose(st.At[0], (X[t] * w[:, None]).T @ X[t], atol=1e-12)


def test_reweighting_lowers_balanced_error_on_unbalanced_classes():
    X, y = unbalanced(4)
    folds = make_folds(160, 5, seed=0)
    plain = fold_statistics(X, y, folds)
    weighted = class_weighted_fold_statistics(X, y, folds)
    ber = []
    for st in (plain, weighted):
        lambdas = lambda_grid(st.A, 25)
        lam = lambdas[np.argmin(cv_errors_eigen(st, lambdas))]
        w = np.linalg.solve(st.A + lam * np.eye(6), st.B)[:, 0]
        ber.append(balanced_error_rate(y, X @ w))
    assert ber[1] < ber[0]


@pytest.mark.parametrize(
    "bad,match",
    [
        (dict(folds=np.zeros(10, dtype=int)), "folds"),
        (dict(folds=np.arange(9) % 2), "folds"),
        (dict(lambdas=np.array([1.0, -1.0])), "lambdas"),
    ],
)
def test_bad_input_is_named(bad, match):
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((10, 2)), rng.standard_normal(10)
    args = dict(folds=np.arange(10) % 2, lambdas=np.array([1.0]))
    args.update(bad)
    with pytest.raises(ValueError, match=match):
        search_lambda(X, y, args["lambdas"], args["folds"], method="covariance")


def test_crrr_rejects_non_binary_labels():
    with pytest.raises(ValueError, match="±1"):
        class_weighted_fold_statistics(
            np.ones((4, 1)), np.array([0.0, 1, 0, 1]), np.array([0, 1, 0, 1])
        )
