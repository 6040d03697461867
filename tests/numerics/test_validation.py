"""Bad input raises a clear error that names the offending parameter."""

import numpy as np
import pytest

from rlsbench import GreedyRLS, LowRankLSSVM
from rlsbench.numerics._scan import MIN_ELEMENTS, max_abs
from rlsbench.numerics.rls import choose_alpha, fit_rls, loo_grid, loo_predictions
from rlsbench.numerics.selection import (
    greedy_rls,
    lowrank_lssvm,
    random_selection,
    ridge_path,
    wrapper,
)
from rlsbench.numerics.synthetic import make_two_gaussians
from rlsbench.numerics.validation import check_X_y

SELECTORS = [greedy_rls, lowrank_lssvm, wrapper, random_selection]


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 5))
    y = np.where(rng.normal(size=12) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    return X, y


@pytest.mark.parametrize("f", SELECTORS)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_X_is_rejected(f, bad, data):
    X, y = data
    X = X.copy()
    X[3, 1] = bad
    with pytest.raises(ValueError, match="X"):
        f(X, y, 2, 1.0)


@pytest.mark.parametrize("f", SELECTORS + [ridge_path])
def test_non_finite_y_is_rejected(f, data):
    X, y = data
    y = y.copy()
    y[0] = np.nan
    args = (X, y, [0, 1], 1.0) if f is ridge_path else (X, y, 2, 1.0)
    with pytest.raises(ValueError, match="y"):
        f(*args)


@pytest.mark.parametrize("f", SELECTORS + [fit_rls, loo_predictions])
def test_mismatched_shapes_are_rejected(f, data):
    X, y = data
    args = (X, y[:-1], 1.0) if f in (fit_rls, loo_predictions) else (X, y[:-1], 2, 1.0)
    with pytest.raises(ValueError, match="y has 11 samples but X has 12"):
        f(*args)


@pytest.mark.parametrize("f", SELECTORS)
def test_k_larger_than_n_features_is_rejected(f, data):
    X, y = data
    with pytest.raises(ValueError, match=r"k=6 is larger than the number of features"):
        f(X, y, 6, 1.0)
    with pytest.raises(ValueError, match=r"k must be >= 1"):
        f(X, y, 0, 1.0)


@pytest.mark.parametrize("alpha", [0.0, -1.0, np.nan, np.inf])
@pytest.mark.parametrize("f", SELECTORS + [fit_rls, loo_predictions])
def test_non_positive_lambda_is_rejected(f, alpha, data):
    X, y = data
    args = (X, y, alpha) if f in (fit_rls, loo_predictions) else (X, y, 2, alpha)
    with pytest.raises(ValueError, match="alpha"):
        f(*args)


@pytest.mark.parametrize("f", [loo_grid, choose_alpha])
def test_non_positive_lambda_in_grid_is_rejected(f, data):
    X, y = data
    with pytest.raises(ValueError, match="alphas"):
        f(X, y, [1.0, 0.0])


@pytest.mark.parametrize("f", SELECTORS)
def test_single_class_with_zero_one_is_rejected(f, data):
    X, _ = data
    with pytest.raises(ValueError, match="criterion='zero_one'.*single class"):
        f(X, np.ones(12), 2, 1.0, criterion="zero_one")
    with pytest.raises(ValueError, match="criterion='zero_one' needs labels"):
        f(X, np.linspace(-1, 1, 12), 2, 1.0, criterion="zero_one")


def test_single_class_with_zero_one_is_rejected_by_estimator(data):
    X, _ = data
    with pytest.raises(ValueError, match="single class"):
        GreedyRLS(n_features_to_select=2, criterion="zero_one").fit(X, np.zeros(12, int))


def test_unknown_criterion_and_backend_are_rejected(data):
    X, y = data
    with pytest.raises(ValueError, match="criterion must be one of"):
        greedy_rls(X, y, 2, 1.0, criterion="hinge")
    with pytest.raises(ValueError, match="backend"):
        greedy_rls(X, y, 2, 1.0, backend="cuda")
    with pytest.raises(ValueError, match="loo must be one of"):
        wrapper(X, y, 2, 1.0, loo="fast")


def test_lowrank_refuses_beyond_memory_budget(data):
    X, y = data
    with pytest.raises(ValueError, match="max_memory_bytes=1000 is too small"):
        lowrank_lssvm(X, y, 2, 1.0, max_memory_bytes=1000)
    with pytest.raises(ValueError, match="max_memory_bytes"):
        LowRankLSSVM(n_features_to_select=2, max_memory_bytes=1000).fit(X, y)
    lowrank_lssvm(X, y, 2, 1.0, max_memory_bytes=None)  # no limit


def test_estimator_names_n_features_to_select(data):
    X, y = data
    with pytest.raises(ValueError, match="n_features_to_select=9 is larger"):
        GreedyRLS(n_features_to_select=9).fit(X, y)
    with pytest.raises(ValueError, match="'alpha' parameter"):
        GreedyRLS(alpha=-1.0).fit(X, y)


def test_ridge_path_order_is_checked(data):
    X, y = data
    for order, msg in [
        ([0, 0], "repeat"),
        ([0, 5], "outside"),
        ([], "non-empty"),
        ([0.5], "integer"),
    ]:
        with pytest.raises(ValueError, match=f"order.*{msg}|{msg}"):
            ridge_path(X, y, order, 1.0)


def test_make_two_gaussians_checks_its_arguments():
    with pytest.raises(ValueError, match="n_samples"):
        make_two_gaussians(1, 3)
    with pytest.raises(ValueError, match="n_informative"):
        make_two_gaussians(10, 3, n_informative=4)


@pytest.mark.parametrize("shape", [(3, 4), (600, 500)])  # numpy's passes / numba's one pass
def test_max_abs_finds_the_largest_magnitude_and_every_non_finite_entry(shape):
    rng = np.random.default_rng(3)
    X = rng.normal(size=shape) * np.exp(rng.uniform(-300, 300, size=shape))
    assert (X.size >= MIN_ELEMENTS) == (shape == (600, 500))
    assert max_abs(X) == np.abs(X).max()
    X[-1, -1] = -2.0 * np.abs(X).max()  # a negative entry is the largest magnitude
    assert max_abs(X) == -X[-1, -1]
    X[1, 2] = -np.inf
    assert max_abs(X) == np.inf
    X[2, 1] = np.nan
    assert np.isnan(max_abs(X))
    assert max_abs(np.zeros((0, 5))) == 0.0


def test_large_non_finite_X_keeps_scikit_learns_message():
    X = np.zeros((600, 500))
    X[17, 3] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        check_X_y(X, np.ones(600))
    X[17, 3] = np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        check_X_y(X, np.ones(600))
