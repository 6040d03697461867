"""The LARS path of Buteneers et al.'s LARS column (:func:`fit_lars_path`): plain least angle
regression is scikit-learn's ``lars_path(method="lar")``, and its K-fold stopping rule picks
the number of steps a direct computation with scikit-learn's ``Lars`` picks."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import Lars, lars_path

from rlsbench.numerics.ridgecv.baselines import fit_lars_path, lars_cv_errors
from rlsbench.numerics.ridgecv.kfold_lambda import make_folds

M, N, K = 60, 12, 5


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((M, N))
    y = X[:, :3] @ [1.5, -1.0, 0.7] + 0.8 * rng.standard_normal(M)
    return X, y, make_folds(M, K, seed=2)


@pytest.mark.parametrize("steps", [1, 4, 9])
def test_a_fixed_count_of_steps_is_that_column_of_sklearns_lar_path(problem, steps):
    X, y, _ = problem
    alphas, active, coefs = lars_path(X, y, method="lar")
    model = fit_lars_path(X, y, method="lar", stop=steps)
    np.testing.assert_allclose(model.coef, coefs[:, steps], rtol=1e-10, atol=1e-12)
    assert model.n_steps == steps
    assert model.alpha == pytest.approx(alphas[steps], rel=1e-12)
    # plain LAR adds one feature a step and never drops one
    assert set(np.flatnonzero(model.coef)) == set(active[:steps])


def test_the_end_of_the_path_is_sklearns_lars_with_its_defaults(problem):
    X, y, _ = problem
    model = fit_lars_path(X, y, method="lar", stop="end")
    reference = Lars(fit_intercept=False).fit(X, y)  # n_nonzero_coefs=500: the whole path
    np.testing.assert_allclose(model.coef, reference.coef_, rtol=1e-8, atol=1e-10)
    assert model.n_steps == N
    # and the least-squares fit, at the end of a LAR path on full-rank X
    np.testing.assert_allclose(model.coef, np.linalg.lstsq(X, y, rcond=None)[0], atol=1e-8)


def test_the_lasso_path_is_sklearns_lasso_lars_path(problem):
    X, y, _ = problem
    _, _, coefs = lars_path(X, y, method="lasso", max_iter=5)
    model = fit_lars_path(X, y, method="lasso", stop=5)
    np.testing.assert_allclose(model.coef, coefs[:, -1], rtol=1e-10, atol=1e-12)


def _direct_cv_errors(X, y, folds, n_steps):
    """Validation SSE after s = 0..n_steps steps, one scikit-learn Lars fit per fold and s."""
    sse = np.zeros(n_steps + 1)
    for k in np.unique(folds):
        train, val = folds != k, folds == k
        for s in range(1, n_steps + 1):
            fit = Lars(fit_intercept=False, n_nonzero_coefs=s).fit(X[train], y[train])
            sse[s] += np.sum((X[val] @ fit.coef_ - y[val]) ** 2)
        sse[0] += np.sum(y[val] ** 2)
    return sse


def test_the_cv_errors_are_sklearns_lars_fitted_per_fold_and_step(problem):
    X, y, folds = problem
    sse = lars_cv_errors(X, y, folds)
    assert sse.shape == (N + 1,)
    np.testing.assert_allclose(sse, _direct_cv_errors(X, y, folds, N), rtol=1e-8)


def test_cv_stops_at_the_step_of_least_validation_error(problem):
    X, y, folds = problem
    direct = _direct_cv_errors(X, y, folds, N)
    model = fit_lars_path(X, y, folds, method="lar", stop="cv")
    assert model.n_steps == int(np.argmin(direct))
    assert 0 < model.n_steps < N  # three informative features out of twelve: an inner optimum
    np.testing.assert_allclose(model.cv_sse, direct, rtol=1e-8)
    full = Lars(fit_intercept=False, n_nonzero_coefs=model.n_steps).fit(X, y)
    np.testing.assert_allclose(model.coef, full.coef_, rtol=1e-8, atol=1e-10)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_fold_whose_path_ends_early_keeps_its_last_model():
    # more columns than training rows: each fold's path ends at the rank of its rows, the
    # folds after different numbers of steps
    rng = np.random.default_rng(1)
    X = rng.standard_normal((14, 15))
    y = X[:, 0] + 0.1 * rng.standard_normal(14)
    folds = make_folds(14, 3, seed=0)
    ends = [lars_path(X[folds != k], y[folds != k], method="lar")[2].shape[1] - 1 for k in range(3)]
    assert len(set(ends)) > 1
    sse = lars_cv_errors(X, y, folds)
    assert sse.shape == (max(ends) + 1,)
    # scikit-learn's Lars asked for more steps than its path has stops at the path's end
    np.testing.assert_allclose(sse, _direct_cv_errors(X, y, folds, max(ends)), rtol=1e-8)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "lasso_cv"}, "LARS method"),
        ({"stop": 0}, "LARS stop"),
        ({"stop": True}, "LARS stop"),
        ({"stop": 2.0}, "LARS stop"),
        ({"stop": "bic"}, "LARS stop"),
        ({"stop": "cv"}, "needs the folds"),
    ],
)
def test_bad_options_are_refused_by_name(problem, kwargs, match):
    X, y, _ = problem
    with pytest.raises(ValueError, match=match):
        fit_lars_path(X, y, **kwargs)
