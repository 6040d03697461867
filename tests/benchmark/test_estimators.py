"""The scikit-learn selectors: the ecosystem's own checks, and what the attributes mean."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from rlsbench import GreedyRLS, LowRankLSSVM, RandomSelector, WrapperRLS
from rlsbench.benchmark.methods import get_method
from rlsbench.numerics.rls import choose_alpha, fit_rls
from rlsbench.numerics.selection import greedy_rls
from rlsbench.numerics.synthetic import make_two_gaussians

ESTIMATORS = [
    GreedyRLS(),
    GreedyRLS(backend="numpy", alpha="loo", criterion="squared"),
    LowRankLSSVM(),
    WrapperRLS(),
    WrapperRLS(loo="blackbox", n_features_to_select=2),
    RandomSelector(random_state=0),
]


def expected_failed_checks(estimator):
    """The classifier checks a selector of ``task="auto"`` fails by design (its docstring):
    it fits real targets as regression, and 2-d 0/1 targets as real outputs side by side."""
    failed = {}
    if isinstance(estimator, GreedyRLS):
        # the weighted LOO leaves an example out with all of its weight, repeated rows one
        # copy at a time: the selections differ, the fits on given features agree
        # (tests/benchmark/test_estimator_weights.py)
        failed["check_sample_weight_equivalence_on_dense_data"] = (
            "weighted LOO leaves all copies of a repeated row out together"
        )
    if estimator.task != "auto":
        return failed
    return {
        **failed,
        "check_classifiers_regression_target": "task='auto' fits real targets as regression",
        "check_classifier_multioutput": "task='auto' fits 2-d targets as real outputs",
        # three blobs in two features: half of the features (one) cannot separate them
        "check_classifiers_train": "one of two features cannot separate three blobs",
    }


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_fitted_attributes_describe_the_final_rls_model():
    X, y = make_two_gaussians(80, 12, seed=1, n_informative=3)
    est = GreedyRLS(n_features_to_select=4, alpha=2.0, bias=1.0).fit(X, y)
    path = greedy_rls(X, y, 4, 2.0, bias=1.0)
    np.testing.assert_array_equal(est.selected_, path.selected)
    np.testing.assert_allclose(est.loo_path_, path.criterion)
    assert est.alpha_ == 2.0
    assert np.count_nonzero(est.coef_) == 4
    assert np.all(est.coef_[np.setdiff1d(np.arange(12), est.selected_)] == 0)
    coef, intercept = fit_rls(X[:, est.selected_], y, 2.0, bias=1.0)
    np.testing.assert_allclose(est.coef_[est.selected_], coef, rtol=1e-9)
    assert est.intercept_ == pytest.approx(intercept, rel=1e-9)
    np.testing.assert_array_equal(est.get_support(indices=True), np.sort(est.selected_))
    np.testing.assert_array_equal(est.transform(X), X[:, np.sort(est.selected_)])
    dec = est.decision_function(X)
    np.testing.assert_allclose(dec, X @ est.coef_ + est.intercept_)
    np.testing.assert_array_equal(est.predict(X), np.where(dec > 0, 1.0, -1.0))


def test_alpha_loo_uses_the_grid_search_on_all_features():
    X, y = make_two_gaussians(60, 10, seed=2, n_informative=2)
    alphas = [0.01, 1.0, 100.0]
    est = GreedyRLS(n_features_to_select=3, alpha="loo", alphas=alphas, criterion="zero_one")
    est.fit(X, y)
    assert est.alpha_ == choose_alpha(X, y, alphas, bias=1.0, criterion="zero_one")


def test_string_labels_map_to_plus_minus_one_and_back():
    X, y = make_two_gaussians(50, 6, seed=3)
    labels = np.where(y > 0, "spam", "ham")
    est = WrapperRLS(n_features_to_select=2, criterion="zero_one").fit(X, labels)
    np.testing.assert_array_equal(est.classes_, ["ham", "spam"])
    ref = greedy_rls(
        X, np.where(labels == "spam", 1.0, -1.0), 2, 1.0, bias=1.0, criterion="zero_one"
    )
    np.testing.assert_array_equal(est.selected_, ref.selected)
    assert set(est.predict(X)) <= {"ham", "spam"}


def test_multiclass_is_one_vs_rest_with_arg_max_prediction():
    rng = np.random.default_rng(4)
    cls = np.arange(90) % 3
    X = rng.normal(size=(90, 8))
    X[:, :3] += 2.0 * np.eye(3)[cls]
    est = GreedyRLS(n_features_to_select=3, criterion="zero_one").fit(X, cls)
    assert est.coef_.shape == (3, 8) and est.intercept_.shape == (3,)
    assert set(est.selected_) == {0, 1, 2}
    np.testing.assert_array_equal(est.predict(X), np.argmax(est.decision_function(X), axis=1))
    assert np.mean(est.predict(X) == cls) > 0.8


def test_float_targets_are_regression():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 6))
    y = np.round(3 * X[:, 1]) + 10.0  # integer-valued floats: still regression
    est = LowRankLSSVM(n_features_to_select=1).fit(X, y)
    assert not hasattr(est, "classes_")
    assert est.selected_[0] == 1
    np.testing.assert_allclose(est.predict(X), est.decision_function(X))


def test_random_selector_is_reproducible():
    X, y = make_two_gaussians(40, 20, seed=6)
    a = RandomSelector(n_features_to_select=5, random_state=1).fit(X, y).selected_
    b = RandomSelector(n_features_to_select=5, random_state=1).fit(X, y).selected_
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "name", ["greedy_rls", "lowrank_lssvm", "wrapper_blackbox", "wrapper_loo", "random"]
)
def test_registered_methods_return_a_path_of_k_steps(name):
    X, y = make_two_gaussians(30, 8, seed=7, n_informative=2)
    method = get_method(name)
    path = method.run(X, y, alpha=1.0, k=3, criterion="zero_one", bias=1.0, seed=0, n_jobs=1)
    assert path.selected.shape == (3,) and len(set(path.selected)) == 3
    assert path.coef_path.shape == (3, 3)
    assert np.all((path.criterion >= 0) & (path.criterion <= 1))
    assert method.randomized == (name == "random")
    if name != "random":
        ref = get_method("wrapper_loo").run(
            X, y, alpha=1.0, k=3, criterion="zero_one", bias=1.0, seed=0, n_jobs=1
        )
        np.testing.assert_array_equal(path.selected, ref.selected)


def test_lowrank_memory_estimate_is_registered_and_quadratic():
    mem = get_method("lowrank_lssvm").memory_bytes
    assert mem(2000, 10, 5) > 3.5 * mem(1000, 10, 5)
    assert get_method("greedy_rls").memory_bytes is None


def test_make_two_gaussians_follows_its_definition():
    X, y = make_two_gaussians(4000, 30, seed=0, n_informative=5, class_sep=2.0)
    assert X.shape == (4000, 30) and X.dtype == np.float64
    assert np.sum(y == 1) == 2000 and set(np.unique(y)) == {-1.0, 1.0}
    gap = X[y == 1].mean(axis=0) - X[y == -1].mean(axis=0)
    assert np.sum(np.abs(gap - 2.0) < 0.2) == 5 and np.sum(np.abs(gap) < 0.2) == 25
    np.testing.assert_allclose(X[y == 1].std(axis=0), 1.0, atol=0.06)
    X2, y2 = make_two_gaussians(4000, 30, seed=0, n_informative=5, class_sep=2.0)
    np.testing.assert_array_equal(X, X2)


def test_score_is_accuracy_for_labels_and_r2_for_values():
    from sklearn.metrics import accuracy_score, r2_score

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 12))
    y_reg = X[:, 0] - 2 * X[:, 3] + 0.1 * rng.normal(size=120)
    y_cls = np.where(y_reg > 0, "pos", "neg")
    clf = GreedyRLS(3).fit(X[:80], y_cls[:80])
    assert clf.score(X[80:], y_cls[80:]) == accuracy_score(y_cls[80:], clf.predict(X[80:]))
    reg = GreedyRLS(3).fit(X[:80], y_reg[:80])
    assert reg.score(X[80:], y_reg[80:]) == pytest.approx(r2_score(y_reg[80:], reg.predict(X[80:])))
    assert reg.score(X[80:], y_reg[80:]) > 0.9  # the two relevant features explain y


@pytest.mark.parametrize("target", ["classification", "regression"])
def test_grid_search_needs_no_scoring(target):
    """GridSearchCV falls back on ``score``: the search picks the k that fits the data."""
    from sklearn.model_selection import GridSearchCV

    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 10))
    y = X[:, 1] + X[:, 4] + X[:, 7] + 0.05 * rng.normal(size=150)
    if target == "classification":
        y = np.sign(y)
    search = GridSearchCV(GreedyRLS(), {"n_features_to_select": [1, 3, 8]}, cv=3).fit(X, y)
    assert search.best_params_["n_features_to_select"] >= 3
    if target == "regression":
        assert set(search.best_estimator_.selected_[:3]) == {1, 4, 7}
