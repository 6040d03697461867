"""The method plugin contract (issue 29, item 3): every installed method, called as the protocol
calls it (:meth:`Method.select`), returns exactly k distinct feature indices for every k in
1..n_features, ranks a constant column it cannot score last, and refuses any other k with
:class:`SelectionSizeError` naming the method, k and n_features. Then the rankers at extreme
scales, and adversarial inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.benchmark.methods import SelectionSizeError, get_method, method_names
from rlsbench.benchmark.protocol import standardize
from rlsbench.estimators import R2W2, SCSS, SVMRFE

N_FEATURES = 6
CONSTANT, ORIGINAL, DUPLICATE = 2, 1, 4


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, N_FEATURES))
    X[:, CONSTANT] = 3.0
    X[:, DUPLICATE] = X[:, ORIGINAL]
    w = rng.standard_normal(N_FEATURES)
    y = X @ w + 0.1 * rng.standard_normal(30)
    # the protocol hands methods standardised training splits: the constant column is zeros
    X, _ = standardize(X, X)
    return X, {"binary": np.where(y > np.median(y), 1.0, -1.0), "regression": y}


X, TARGETS = _data()
CASES = [
    (name, task) for name in method_names() for task in TARGETS if task in get_method(name).tasks
]


def _select(name, task, k, X=X, y=None, **kw):
    args = {"alpha": 1.0, "criterion": "squared", "bias": 1.0, "seed": 0, "n_jobs": 1, **kw}
    return get_method(name).select(X, TARGETS[task] if y is None else y, k=k, **args)


@pytest.mark.parametrize("k", range(1, N_FEATURES + 1))
@pytest.mark.parametrize(("name", "task"), CASES)
def test_every_method_returns_exactly_k_distinct_features(name, task, k):
    path = _select(name, task, k)
    selected = np.asarray(path.selected)
    assert selected.shape == (k,)
    assert np.unique(selected).size == k
    assert selected.min() >= 0 and selected.max() < N_FEATURES
    if k < N_FEATURES:
        return
    method = get_method(name)
    if method.tags.get("constant_columns") == "scored":
        # scored like any candidate: the zero column adds a zero weight wherever it comes
        step = int(np.flatnonzero(selected == CONSTANT)[0])
        assert abs(path.coef_path[-1, step]) <= 1e-10 * np.abs(path.coef_path[-1]).max()
    elif not method.randomized:
        assert selected[-1] == CONSTANT


@pytest.mark.parametrize(("name", "task"), CASES)
def test_k_beyond_n_features_is_a_selection_size_error_naming_method_k_and_n(name, task):
    with pytest.raises(SelectionSizeError, match=rf"{name}.*k={N_FEATURES + 1}\b.*n_features=6"):
        _select(name, task, N_FEATURES + 1)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_run_itself_refuses_k_beyond_n_features(name, task):
    # the nine plugins that returned a short path when called directly
    with pytest.raises(ValueError, match=r"7"):
        get_method(name).run(
            X, TARGETS[task], alpha=1.0, k=7, criterion="squared", bias=1.0, seed=0, n_jobs=1
        )


def test_marglik_with_a_constant_feature_and_all_features_ranks_it_last_with_zero_weight():
    # issue 29: k_max null on a set with a constant feature gave n - 1 steps and a RuntimeError
    path = _select("marglik_forward", "regression", N_FEATURES)
    assert path.selected[-1] == CONSTANT
    np.testing.assert_array_equal(path.coef_path[-1, :-1], path.coef_path[-2, :-1])
    assert path.coef_path[-1, -1] == 0.0
    assert path.criterion[-1] == path.criterion[-2]


# -- extreme scales: the linear-kernel rankers' orders are invariant to X's scale (C = 1/R̄²,
# ε ∝ tr K and the separability ratio all scale away), so X·1e±100 must give scale 1's order
SCALE_FREE_RANKERS = {
    "r2w2": lambda: R2W2(kernel="linear", standardize=False),
    "svm_rfe": lambda: SVMRFE(standardize=False),
    "scss": lambda: SCSS(standardize=False),
}


@pytest.mark.parametrize("scale", [1e-100, 1e100, 1e-160, 1e160])
@pytest.mark.parametrize("ranker", sorted(SCALE_FREE_RANKERS))
def test_raw_rankers_give_the_scale_one_order_at_extreme_scales(ranker, scale):
    rng = np.random.default_rng(1)
    Xr = rng.standard_normal((30, 5)) * [1.0, 2.0, 0.5, 3.0, 1.5]
    y = np.where(Xr @ rng.standard_normal(5) > 0, 1, -1)
    make = SCALE_FREE_RANKERS[ranker]
    np.testing.assert_array_equal(make().fit(Xr * scale, y).order_, make().fit(Xr, y).order_)


@pytest.mark.parametrize("scale", [1e-160, 1e160])
@pytest.mark.parametrize("ranker", sorted(SCALE_FREE_RANKERS))
def test_standardising_rankers_give_the_scale_one_order_at_extreme_scales(ranker, scale):
    # the plugins' configuration (standardize=True): the variances over- or underflowed
    rng = np.random.default_rng(1)
    Xr = rng.standard_normal((30, 5)) * [1.0, 2.0, 0.5, 3.0, 1.5]
    y = np.where(Xr @ rng.standard_normal(5) > 0, 1, -1)
    make = SCALE_FREE_RANKERS[ranker]
    at_one = make().set_params(standardize=True).fit(Xr, y).order_
    np.testing.assert_array_equal(
        make().set_params(standardize=True).fit(Xr * scale, y).order_, at_one
    )


# -- adversarial cases of our own ---------------------------------------------------------------
@pytest.mark.parametrize(("name", "task"), CASES)
def test_a_single_feature_is_selected_by_every_method(name, task):
    # svm_rfe raised sklearn's "a minimum of 2 is required by RFE"
    path = _select(name, task, 1, X=X[:, :1])
    assert path.selected.tolist() == [0]


@pytest.mark.parametrize(("name", "task"), CASES)
def test_k_zero_and_non_integer_k_are_selection_size_errors(name, task):
    for k in (0, 2.0, True):
        with pytest.raises(SelectionSizeError, match=rf"method '{name}': k"):
            _select(name, task, k)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_fortran_ordered_and_strided_X_select_as_c_ordered_X(name, task):
    # without the duplicate, whose exact tie a different summation order may break otherwise
    Xd = np.ascontiguousarray(X[:, [0, 1, 3, 5]])
    want = _select(name, task, 3, X=Xd).selected
    strided = np.repeat(Xd, 2, axis=1)[:, ::2]
    np.testing.assert_array_equal(_select(name, task, 3, X=np.asfortranarray(Xd)).selected, want)
    np.testing.assert_array_equal(_select(name, task, 3, X=strided).selected, want)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_integer_and_boolean_X_give_k_steps(name, task):
    for Xa in ((X * 4).round().astype(np.int64), X > 0):
        assert _select(name, task, 2, X=Xa).n_steps == 2


@pytest.mark.parametrize(("name", "task"), CASES)
def test_nan_in_y_is_a_value_error_naming_y(name, task):
    y = TARGETS[task].copy()
    y[3] = np.nan
    with pytest.raises(ValueError, match=r"\by\b.*(NaN|finite)|NaN.*\by\b"):
        _select(name, task, 2, y=y)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_text_labels_are_a_value_error_naming_y(name, task):
    y = np.where(TARGETS[task] > np.median(TARGETS[task]), "a", "b")
    with pytest.raises(ValueError, match=r"\by must be numeric"):
        _select(name, task, 2, y=y)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_a_generator_seed_is_accepted(name, task):
    # ffs and bfs passed it to RandomState, which refuses a Generator
    path = _select(name, task, 2, seed=np.random.default_rng(1))
    assert path.n_steps == 2


@pytest.mark.parametrize(("name", "task"), CASES)
def test_two_samples_per_class_give_k_steps(name, task):
    y = TARGETS[task][:4] if task == "regression" else np.array([1.0, -1.0, 1.0, -1.0])
    assert _select(name, task, 2, X=X[:4], y=y).n_steps == 2
