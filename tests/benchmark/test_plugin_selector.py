"""PluginSelector runs any installed method as the protocol does, and the selectors declare
their task so that scikit-learn stratifies an integer ``cv`` for classification."""

import numpy as np
import pytest
from sklearn.base import is_classifier, is_regressor
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, check_cv
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import parametrize_with_checks

from rlsbench import GreedyRLS, PluginSelector, RandomSelector
from rlsbench.benchmark.estimators import UnsupportedTaskError
from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.protocol import encode_targets, standardize
from rlsbench.errors import RLSBenchError
from rlsbench.numerics.synthetic import make_two_gaussians

# A declared classifier meets scikit-learn's accuracy thresholds (check_classifiers_train: three
# blobs in two features) only on all its features (1.0): one feature cannot separate three blobs.
CHECKED = [
    PluginSelector("greedy_rls"),
    PluginSelector("greedy_rls", task="regression", alpha="loo"),
    PluginSelector("random", random_state=0),
    PluginSelector("fisher_score", 1.0, task="classification"),
    PluginSelector("lasso_path"),
    PluginSelector("f_test", standardize=False),
    PluginSelector("ffs", n_features_to_select=2),  # chooses its own λ
    GreedyRLS(1.0, task="classification"),
    GreedyRLS(task="regression"),
]


def expected_failed_checks(estimator):
    """The classifier checks a selector of ``task="auto"`` fails by design: it fits real
    targets as regression; with fewer than all features it cannot separate three blobs.
    GreedyRLS's weighted LOO leaves out all copies of a repeated row at once, so with fewer
    than all features its selection with integer weights may differ from repeated rows'."""
    weighted = {}
    if isinstance(estimator, GreedyRLS) and estimator.n_features_to_select != 1.0:
        weighted["check_sample_weight_equivalence_on_dense_data"] = (
            "weighted LOO leaves all copies of a repeated row out together"
        )
    if estimator.task != "auto":
        return weighted
    failed = {
        **weighted,
        "check_classifiers_regression_target": "task='auto' fits real targets as regression",
    }
    if estimator.n_features_to_select != 1.0:
        failed["check_classifiers_train"] = "one of two features cannot separate three blobs"
    return failed


@parametrize_with_checks(CHECKED, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _multiclass(seed=0, m=90, n=10):
    rng = np.random.default_rng(seed)
    cls = np.arange(m) % 3
    X = 3.0 * rng.normal(size=(m, n)) + 5.0  # not standardised: fit must do it
    X[:, :3] += 4.0 * np.eye(3)[cls]
    return X, cls


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("greedy_rls", "binary"),
        ("fisher_score", "multiclass"),
        ("lasso_path", "regression"),
        ("ffs", "binary"),
        ("random", "multiclass"),
    ],
)
def test_fit_is_the_protocols_selection_on_standardised_features(name, target):
    rng = np.random.default_rng(3)
    if target == "multiclass":
        X, y = _multiclass()
    else:
        X = 2.0 * rng.normal(size=(70, 9)) - 1.0
        y = X[:, 2] - X[:, 5] + 0.3 * rng.normal(size=70)
        if target == "binary":
            y = np.where(y > 0, 1.0, -1.0)
    criterion = "squared" if target == "regression" else "zero_one"
    est = PluginSelector(name, 4, alpha=0.5, criterion=criterion, random_state=7).fit(X, y)
    Z, _ = standardize(X, X)
    Y = encode_targets(y, target)
    path = get_method(name).select(
        Z, Y, alpha=0.5, k=4, criterion=criterion, bias=1.0, seed=7, n_jobs=1
    )
    assert est.task_ == target
    np.testing.assert_array_equal(est.selected_, path.selected)
    np.testing.assert_array_equal(est.get_support(indices=True), np.sort(path.selected))
    # the model is the path's last step, moved back to the units of X
    np.testing.assert_allclose(est.decision_function(X), path.decision_path(Z)[-1], atol=1e-10)
    assert est.alpha_ == pytest.approx(float(path.alphas[-1]))


def test_standardize_false_gives_the_method_x_as_it_is():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 7)) * np.arange(1, 8)  # scales differ: standardising matters
    y = np.where(X[:, 0] + 0.2 * X[:, 6] > 0, 1.0, -1.0)
    est = PluginSelector("greedy_rls", 3, standardize=False).fit(X, y)
    path = get_method("greedy_rls").select(
        X, y, alpha=1.0, k=3, criterion="squared", bias=1.0, seed=0, n_jobs=1
    )
    np.testing.assert_array_equal(est.selected_, path.selected)
    assert est.scaler_ is None
    ref = GreedyRLS(3).fit(X, y)
    np.testing.assert_allclose(est.coef_, ref.coef_, atol=1e-12)


def test_a_method_is_refused_targets_outside_its_tasks():
    X, y = make_two_gaussians(40, 6, seed=1)
    with pytest.raises(UnsupportedTaskError, match=r"'marglik_forward' of distribution .*binary"):
        PluginSelector("marglik_forward", 2).fit(X, y)
    with pytest.raises(UnsupportedTaskError, match=r"'fisher_score'.*regression targets"):
        PluginSelector("fisher_score", 2, task="regression").fit(X, y)
    assert issubclass(UnsupportedTaskError, RLSBenchError)
    assert issubclass(UnsupportedTaskError, ValueError)
    # the same target read as regression is one marglik_forward supports
    PluginSelector("marglik_forward", 2, task="regression").fit(X, y)


def test_an_unknown_method_name_lists_the_installed_ones_at_fit():
    X, y = make_two_gaussians(30, 5, seed=2)
    est = PluginSelector("no_such_method")  # constructing it checks nothing (sklearn's rule)
    with pytest.raises(InvalidParameterError, match=r"'method' parameter .*'greedy_rls'"):
        est.fit(X, y)


def test_random_state_is_the_seed_of_a_randomized_method():
    X, y = make_two_gaussians(40, 20, seed=6)
    a = PluginSelector("random", 5, random_state=3).fit(X, y).selected_
    b = PluginSelector("random", 5, random_state=3).fit(X, y).selected_
    c = PluginSelector("random", 5, random_state=4).fit(X, y).selected_
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_feature_names_follow_the_selection():
    pd = pytest.importorskip("pandas")
    X, y = make_two_gaussians(60, 6, seed=8, n_informative=1)
    frame = pd.DataFrame(X, columns=[f"gene{j}" for j in range(6)])
    est = PluginSelector("f_test", 1).fit(frame, y)
    np.testing.assert_array_equal(est.feature_names_in_, frame.columns)
    assert est.get_feature_names_out().tolist() == [f"gene{est.selected_[0]}"]


# -- the task scikit-learn's splitters see --------------------------------------------------
@pytest.mark.parametrize(
    "est",
    [
        GreedyRLS(task="classification"),
        RandomSelector(task="classification"),
        PluginSelector("fisher_score", task="classification"),
    ],
)
def test_classification_task_makes_an_integer_cv_stratified(est):
    y = np.repeat([0, 1], [30, 70])
    assert is_classifier(est) and not is_regressor(est)
    assert isinstance(check_cv(5, y, classifier=is_classifier(est)), StratifiedKFold)


def test_regression_task_keeps_plain_kfold():
    est = PluginSelector(task="regression")
    assert not is_classifier(est) and is_regressor(est)
    cv = check_cv(5, np.repeat([0, 1], [30, 70]), classifier=is_classifier(est))
    assert type(cv) is KFold


@pytest.mark.parametrize(
    "est", [GreedyRLS(), RandomSelector(), PluginSelector()], ids=["greedy", "random", "plugin"]
)
def test_auto_task_stratifies_labels_and_not_real_targets(est):
    assert is_classifier(est) and not is_regressor(est)
    labels = np.repeat([0, 1], [30, 70])
    assert isinstance(check_cv(5, labels, classifier=is_classifier(est)), StratifiedKFold)
    real = np.linspace(0.0, 1.0, 100)
    assert type(check_cv(5, real, classifier=is_classifier(est))) is KFold


def _held_out_class_counts(task):
    """The class counts of every test fold GridSearchCV(GreedyRLS(task=task), cv=5) scored,
    on labels sorted by class (the issue's sonar case)."""
    rng = np.random.default_rng(0)
    y = np.repeat([-1.0, 1.0], [40, 60])
    X = rng.normal(size=(100, 8))
    X[:, 0] += y
    seen = []

    def recording_accuracy(estimator, X_test, y_test):
        seen.append(tuple(int(np.sum(y_test == c)) for c in (-1.0, 1.0)))
        return estimator.score(X_test, y_test)

    search = GridSearchCV(
        GreedyRLS(task=task), {"n_features_to_select": [1, 2]}, cv=5, scoring=recording_accuracy
    )
    search.fit(X, y)
    return seen


def test_grid_search_on_sorted_labels_holds_out_both_classes_in_proportion():
    # StratifiedKFold: each of the 5 test folds holds 40/5 and 60/5 examples
    assert set(_held_out_class_counts("classification")) == {(8, 12)}
    # the failure (unshuffled KFold, one-class folds) is gone for task="auto" too
    assert set(_held_out_class_counts("auto")) == {(8, 12)}
    assert (20, 0) in set(_held_out_class_counts("regression"))
