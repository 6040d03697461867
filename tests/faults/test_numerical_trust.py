"""Fault injection: numerical trust in greedy RLS and the selectors' input checks (issue 29,
item 5).

Greedy RLS must say when its answer cannot be trusted although every score was finite: LOO
values that lost their digits to a tiny λ (:class:`LOOPrecisionWarning`) and rounds in which
every candidate tied (:class:`TiedCriteriaWarning`), each naming the remedy; ordinary data
draws neither. A bad input is refused by an error that names the parameter at fault.
"""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import array_api_strict
import numpy as np
import pytest

from rlsbench.estimators import GreedyRLS
from rlsbench.numerics.criteria import loo_mse
from rlsbench.numerics.rls import loo_residuals, ridge_prefix_path
from rlsbench.numerics.selection import (
    LOOPrecisionWarning,
    SelectionError,
    TiedCriteriaWarning,
    greedy_rls,
    lowrank_lssvm,
    wrapper,
)
from rlsbench.numerics.selection import greedy as greedy_module

TRUST_WARNINGS = (LOOPrecisionWarning, TiedCriteriaWarning)
#: The NumPy path (numba or NumPy scorer) and the array-API path on NumPy input.
BACKENDS = ["auto", "array_api"]


def ill_conditioned(m, n, log_cond, seed):
    """X with singular values spread over 10**(log_cond/2), so cond(XᵀX) = 10**log_cond."""
    rng = np.random.default_rng(seed)
    U, _ = np.linalg.qr(rng.standard_normal((m, n)))
    V, _ = np.linalg.qr(rng.standard_normal((n, n)))
    X = (U * np.logspace(0, -log_cond / 2, n)) @ V.T * np.sqrt(m)
    y = X @ rng.standard_normal(n) + 0.1 * rng.standard_normal(m)
    return X, y


def standardised(m, n, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    y = X[:, :3] @ np.array([1.0, -0.5, 2.0]) + rng.standard_normal(m)
    return X, y


def direct_loo_mse(X, y, selected, alpha, bias=0.0):
    """LOO MSE of every prefix of ``selected`` by a direct solve."""
    _, _, residuals = ridge_prefix_path(X, y, selected, alpha, bias=bias, weights=False)
    return np.array([loo_mse(r) for r in residuals])


# --- the cases ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "selector, kwargs",
    [
        (greedy_rls, {}),
        (greedy_rls, {"backend": "array_api"}),
        (lowrank_lssvm, {}),
        (wrapper, {}),
    ],
    ids=["greedy_rls", "greedy_rls-array_api", "lowrank_lssvm", "wrapper"],
)
def test_a_huge_y_is_refused_naming_y_not_X(selector, kwargs):
    X, y = standardised(30, 8, 0)
    with pytest.raises(SelectionError, match=r"y is too large for float64: max \|y\| = ") as info:
        selector(X, y * 1e200, 3, 1.0, **kwargs)
    message = str(info.value)
    assert "scale y" in message and "standardise X" not in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "problem",
    [
        # cond(X) = 1e14: greedy RLS picks the exact order, its LOO MSE percent off
        pytest.param((40, 8, 28, 0, 5, "auto"), id="cond(X)=1e14"),
        # cond(XᵀX) = 1e14: digits lost along the path, on both paths
        pytest.param((200, 15, 14, 0, 15, "auto"), id="cond(XtX)=1e14"),
        pytest.param((200, 15, 14, 0, 15, "array_api"), id="cond(XtX)=1e14-array_api"),
    ],
)
def test_lost_loo_digits_warn_naming_the_remedy(problem):
    m, n, log_cond, seed, k, backend = problem
    X, y = ill_conditioned(m, n, log_cond, seed)
    with pytest.warns(LOOPrecisionWarning, match=r"lost about 1\d of float64's 16") as record:
        path = greedy_rls(X, y, k, 1e-20, backend=backend)
    message = str(record[0].message)
    assert "raise alpha or standardise X" in message
    assert "alpha = 1e-20" in message
    # the warning's gap is there: the values are not those of a direct solve to 1e-6
    reference = direct_loo_mse(X, y, path.selected, 1e-20)
    gap = np.abs(path.loo_mse - reference) / reference
    assert gap.max() > 1e-6


def test_a_precision_warning_leaves_the_selection_unchanged():
    X, y = ill_conditioned(200, 15, 14, 0)
    with pytest.warns(LOOPrecisionWarning):
        path = greedy_rls(X, y, 15, 1e-20)
    # the black-box wrapper refits every candidate from scratch: the same order
    np.testing.assert_array_equal(path.selected, wrapper(X, y, 15, 1e-20, loo="blackbox").selected)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "scale_X, alpha, remedy",
    [(1e-100, 1.0, "standardise X"), (1.0, 1e300, "lower alpha")],
    ids=["X-times-1e-100", "alpha-1e300"],
)
def test_all_tied_criteria_warn_naming_the_remedy(scale_X, alpha, remedy, backend):
    X, y = standardised(30, 8, 1)
    with pytest.warns(TiedCriteriaWarning, match=r"in 3 of 3 rounds \(rounds 1, 2, 3\)") as rec:
        path = greedy_rls(X * scale_X, y, 3, alpha, backend=backend)
    assert remedy in str(rec[0].message)
    assert "lowest feature index was picked" in str(rec[0].message)
    np.testing.assert_array_equal(path.selected, [0, 1, 2])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bias", [0.0, 1.0])
@pytest.mark.parametrize("alpha", [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3])
def test_ordinary_data_draws_no_trust_warning(alpha, bias, backend):
    X, y = standardised(120, 40, 2)
    labels = np.where(y > np.median(y), 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LOOPrecisionWarning)
        warnings.simplefilter("error", TiedCriteriaWarning)
        greedy_rls(X, y, 40, alpha, bias=bias, backend=backend)
        greedy_rls(X, labels, 10, alpha, bias=bias, criterion="zero_one", backend=backend)
        greedy_rls(X[:30], y[:30], 40, alpha, bias=bias, backend=backend)  # m < k: dual side


def test_a_trust_warning_stays_a_warning_in_the_estimator_and_the_test_config():
    X, y = standardised(30, 8, 3)
    with pytest.warns(TiedCriteriaWarning):
        GreedyRLS(3, alpha=1e300).fit(X, y)
    # a filterwarnings = error would turn them into failed selections in tests and runs
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    config = tomllib.loads(pyproject.read_text())["tool"]["pytest"]["ini_options"]
    assert not any(f.startswith("error") for f in config.get("filterwarnings", []))
    assert all(issubclass(w, UserWarning) for w in TRUST_WARNINGS)


# --- adversarial cases ------------------------------------------------------------------------
def test_a_huge_bias_is_blamed_on_bias_not_X():
    X, y = standardised(12, 5, 4)
    with pytest.raises(SelectionError, match=r"greedy_rls: bias is too large for float64") as info:
        greedy_rls(X, y, 2, 1.0, bias=1e200)
    assert "use a bias near 1" in str(info.value) and "standardise X" not in str(info.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_tiny_y_is_refused_naming_y_instead_of_returning_the_index_order(backend):
    X, y = standardised(12, 5, 5)
    with pytest.raises(SelectionError, match=r"y is too small for float64: max \|y\| = ") as info:
        greedy_rls(X, y * 1e-200, 2, 1.0, backend=backend)
    assert "scale y" in str(info.value)


@pytest.mark.parametrize(
    "X_test, message",
    [
        (np.ones(5), r"X must be 2-d"),
        (np.ones((3, 2)), r"X has 2 features, but the path selected feature 4"),
        (np.full((3, 5), np.nan), r"Input X contains NaN"),
    ],
    ids=["1d-X", "too-few-columns", "nan-X"],
)
def test_decision_path_refuses_bad_X_naming_X(X_test, message):
    X, y = standardised(12, 5, 6)
    path = greedy_rls(X, y, 5, 1.0)
    with pytest.raises(ValueError, match=message):
        path.decision_path(X_test)


def test_alpha_as_a_0d_array_is_the_same_lambda():
    X, y = standardised(12, 5, 7)
    got = greedy_rls(X, y, 3, np.median(np.array([[0.5], [1.0], [2.0]]), axis=0)[0, ...])
    np.testing.assert_array_equal(got.selected, greedy_rls(X, y, 3, 1.0).selected)
    np.testing.assert_array_equal(got.loo_mse, greedy_rls(X, y, 3, 1.0).loo_mse)
    with pytest.raises(ValueError, match=r"alpha must be a real number > 0"):
        greedy_rls(X, y, 3, np.array(True))


@pytest.mark.parametrize("n_jobs", [0, -1, 2.0, True])
def test_n_jobs_below_one_is_refused_naming_n_jobs(n_jobs):
    # n_jobs = 0 or -1 used to run on one thread without a word (-1 means "all" elsewhere)
    X, y = standardised(12, 5, 8)
    with pytest.raises(ValueError, match=r"n_jobs must be None or an integer >= 1"):
        greedy_rls(X, y, 2, 1.0, n_jobs=n_jobs)
    assert greedy_module._check_n_jobs(3) == 3


@pytest.mark.parametrize("selector", [greedy_rls, lowrank_lssvm, wrapper], ids=lambda f: f.__name__)
@pytest.mark.parametrize("bias", [0.0, 1.0])
def test_two_samples_give_the_direct_loo_values(selector, bias):
    X, y = standardised(12, 5, 9)
    X, y = X[:2], y[:2]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LOOPrecisionWarning)
        path = selector(X, y, 5, 1.0, bias=bias)
    np.testing.assert_allclose(
        path.loo_mse, direct_loo_mse(X, y, path.selected, 1.0, bias=bias), rtol=1e-12
    )
    # one feature: the LOO residuals of plain RLS on that column
    last = path.selected[0]
    np.testing.assert_allclose(
        path.loo_mse[0], loo_mse(loo_residuals(X[:, [last]], y, 1.0, bias=bias)), rtol=1e-12
    )


def test_tie_warning_names_only_the_rounds_left_to_zero_columns():
    X, y = standardised(20, 3, 10)
    X[:, 1] = 0.0
    X[:, 2] = 0.0  # rounds 2 and 3 have only zero columns; round 3 has one candidate left
    with pytest.warns(TiedCriteriaWarning, match=r"in 1 of 3 rounds \(rounds 2\)"):
        path = greedy_rls(X, y, 3, 1.0)
    np.testing.assert_array_equal(path.selected, [0, 1, 2])


@pytest.mark.parametrize("dtype", [np.float32, np.int64, bool])
def test_other_dtypes_of_X_select_as_their_float64_values(dtype):
    X, y = standardised(30, 6, 11)
    X_other = (X > 0) if dtype is bool else (X * 10).astype(dtype)
    path = greedy_rls(X_other, y, 4, 1.0)
    reference = greedy_rls(X_other.astype(np.float64), y, 4, 1.0)
    assert path.coef_path.dtype == np.float64
    np.testing.assert_array_equal(path.selected, reference.selected)
    np.testing.assert_array_equal(path.loo_mse, reference.loo_mse)


def test_array_api_strict_input_warns_like_numpy():
    X, y = standardised(30, 8, 12)
    with pytest.warns(TiedCriteriaWarning, match=r"rounds 1, 2"):
        greedy_rls(array_api_strict.asarray(X * 1e-100), array_api_strict.asarray(y), 2, 1.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_ill_conditioned_path_gets_weights_on_both_paths(backend):
    # cond(X) = 1e14, λ = 1e-20: the Gram matrix of the selected columns is not positive
    # definite in float64; the array-API path raised LinAlgError after all rounds
    X, y = ill_conditioned(40, 8, 28, 0)
    with pytest.warns(LOOPrecisionWarning):
        path = greedy_rls(X, y, 5, 1e-20, backend=backend)
    assert np.all(np.isfinite(path.coef_path))
    # the first steps are well conditioned: their weights are those of a direct solve
    coef, _, _ = ridge_prefix_path(X, y, path.selected[:2], 1e-20, residuals=False)
    np.testing.assert_allclose(np.asarray(path.coef_path)[:2, :2], coef, rtol=1e-8)
