"""GreedyRLS as a scikit-learn component (issue 44 item 7): the task scikit-learn's splitters
see, and ``n_features_to_select="auto"`` with ``tol``."""

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.model_selection import cross_val_score
from sklearn.utils._param_validation import InvalidParameterError

from rlsbench import GreedyRLS, WrapperRLS
from rlsbench.numerics.selection import greedy_rls


# -- task="auto" presents as a classifier: integer cv stratifies class labels ------------------
def _sorted_labels(m=100, n=8, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], [40, 60])
    X = rng.normal(size=(m, n))
    X[:, 0] += 2.0 * y
    return X, y


def test_cross_val_score_on_sorted_labels_holds_out_both_classes():
    X, y = _sorted_labels()
    held_out = []

    def recording_accuracy(estimator, X_test, y_test):
        held_out.append(tuple(int(np.sum(y_test == c)) for c in (0, 1)))
        return estimator.score(X_test, y_test)

    scores = cross_val_score(GreedyRLS(2), X, y, cv=5, scoring=recording_accuracy)
    # StratifiedKFold: every test fold holds 40/5 and 60/5 examples (KFold: one class only)
    assert set(held_out) == {(8, 12)}
    assert np.all(scores > 0.5)


def test_auto_task_still_fits_real_targets_as_regression_with_plain_folds():
    X, y = make_regression(n_samples=60, n_features=6, n_informative=2, random_state=0)
    order = np.argsort(y)
    X, y = X[order], y[order]
    est = GreedyRLS(2).fit(X, y)
    assert not hasattr(est, "classes_")
    assert est.predict(X).dtype == np.float64
    # KFold on sorted targets: the first fold holds the 12 smallest values
    held_out = []

    def recording_r2(estimator, X_test, y_test):
        held_out.append(y_test.copy())
        return estimator.score(X_test, y_test)

    cross_val_score(GreedyRLS(2), X, y, cv=5, scoring=recording_r2)
    np.testing.assert_array_equal(held_out[0], y[:12])


# -- n_features_to_select="auto" with tol --------------------------------------------------------
def _regression(n_informative=20, n_features=40, seed=0):
    X, y = make_regression(
        n_samples=80,
        n_features=n_features,
        n_informative=n_informative,
        noise=5.0,
        random_state=seed,
    )
    return X, y / np.std(y)


def test_auto_without_tol_is_half_of_the_features():
    X, y = _regression()
    auto = GreedyRLS("auto").fit(X, y)
    half = GreedyRLS(None).fit(X, y)
    assert auto.n_features_to_select_ == 20
    np.testing.assert_array_equal(auto.selected_, half.selected_)


@pytest.mark.parametrize("tol", [1e-1, 1e-2, 1e-3])
def test_tol_stops_where_the_loo_criterion_falls_by_less_than_tol(tol):
    X, y = _regression()
    est = GreedyRLS("auto", tol=tol, alpha=1.0).fit(X, y)
    k = est.n_features_to_select_
    full = greedy_rls(X, y, X.shape[1], 1.0, bias=1.0)
    np.testing.assert_array_equal(est.selected_, full.selected[:k])
    fall = -np.diff(full.criterion)
    assert np.all(fall[: k - 1] >= tol)  # every kept addition after the first fell by tol
    if k < X.shape[1]:
        assert fall[k - 1] < tol  # the next one would not have
    np.testing.assert_allclose(est.loo_path_, full.criterion[:k])
    assert est.path_.n_steps == k
    assert np.count_nonzero(est.coef_) == k


def test_small_tol_runs_past_the_first_batch_of_steps():
    # more than the first run's 8 steps: the doubling runs are exercised
    X, y = _regression()
    est = GreedyRLS("auto", tol=1e-4).fit(X, y)
    assert est.n_features_to_select_ > 8


def test_huge_tol_keeps_the_first_feature_only():
    X, y = _regression()
    est = WrapperRLS("auto", tol=1e6).fit(X, y)
    assert est.n_features_to_select_ == 1
    assert est.selected_.shape == (1,)


def test_tol_is_ignored_without_auto():
    X, y = _regression()
    est = GreedyRLS(5, tol=1e6).fit(X, y)
    assert est.n_features_to_select_ == 5


@pytest.mark.parametrize("tol", [0.0, -1e-3])
def test_tol_must_be_positive(tol):
    X, y = _regression()
    with pytest.raises(InvalidParameterError, match="'tol' parameter of GreedyRLS"):
        GreedyRLS("auto", tol=tol).fit(X, y)
