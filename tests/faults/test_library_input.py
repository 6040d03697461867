"""Fault injection: bad input to the library's public numerics (issue 19, item 7).

Each public function gets NaN and infinity, the wrong shapes, empty arrays, text, k out of
range and λ <= 0; each must refuse with a one-line ValueError that names the parameter (no
silent result, no error from deep inside a solver).
"""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.estimators import GreedyRLS
from rlsbench.numerics import rls
from rlsbench.numerics.marglik import forward_marglik
from rlsbench.numerics.ridgecv.kfold_lambda import make_folds, search_lambda
from rlsbench.numerics.selection import (
    SelectionError,
    greedy_rls,
    lowrank_lssvm,
    random_selection,
    wrapper,
)

RNG = np.random.default_rng(0)
X = RNG.standard_normal((12, 5))
Y = np.where(RNG.standard_normal(12) > 0, 1.0, -1.0)
Y[:2] = [1.0, -1.0]


def _with(array, index, value):
    out = array.copy()
    out[index] = value
    return out


#: fault -> (keyword arguments replacing the good ones, the message it must give)
DATA_FAULTS = {
    "nan-X": ({"X": _with(X, (3, 1), np.nan)}, r"(X|H) contains NaN|X must be finite"),
    "inf-X": ({"X": _with(X, (3, 1), np.inf)}, r"(X|H) contains infinity|X must be finite"),
    "nan-y": ({"y": _with(Y, 2, np.nan)}, r"(y|t) (contains NaN|must be finite)"),
    "short-y": ({"y": Y[:-1]}, r"y has 11 samples but X has 12|(t|y) must (have shape|be)"),
    "1d-X": ({"X": X[:, 0]}, r"(X|H) must be 2-d|X must be \(n_samples, n_features\)"),
    "no-rows": ({"X": X[:0], "y": Y[:0]}, r"(X|H): Found array with 0 sample|n_samples=0"),
    "no-features": ({"X": X[:, :0]}, r"(X|H): Found array with 0 feature|X has no features"),
    "text-X": ({"X": np.full((12, 5), "a")}, r"(X|H) must be numeric"),
}
K_FAULTS = {
    "k-zero": ({"k": 0}, r"k must be >= 1"),
    "k-over-features": ({"k": 6}, r"k=6 is larger than the number of features n_features=5"),
    "k-not-integer": ({"k": 2.5}, r"k must be an integer"),
}
ALPHA_FAULTS = {
    "alpha-zero": ({"alpha": 0.0}, r"alpha must be a finite real number > 0"),
    "alpha-negative": ({"alpha": -1.0}, r"alpha must be a finite real number > 0"),
    "alpha-nan": ({"alpha": float("nan")}, r"alpha must be a finite real number > 0"),
}


def _fit_rls(X=X, y=Y, alpha=1.0):
    return rls.fit_rls(X, y, alpha)


def _loo_residuals(X=X, y=Y, alpha=1.0):
    return rls.loo_residuals(X, y, alpha)


def _choose_alpha(X=X, y=Y, alpha=1.0):
    return rls.choose_alpha(X, y, [2.0, alpha])


def _selector(function):
    def call(X=X, y=Y, k=2, alpha=1.0):
        return function(X, y, k, alpha)

    call.__name__ = function.__name__
    return call


SELECTORS = [_selector(f) for f in (greedy_rls, lowrank_lssvm, wrapper, random_selection)]
FUNCTIONS = [_fit_rls, _loo_residuals, _choose_alpha, *SELECTORS]


def _cases():
    for function in FUNCTIONS:
        faults = {**DATA_FAULTS, **ALPHA_FAULTS}
        if function in SELECTORS:
            faults.update(K_FAULTS)
        for fault, (kwargs, message) in faults.items():
            if function is _choose_alpha and fault.startswith("alpha"):
                message = r"alphas must all be finite and > 0"
            if function.__name__ == "random_selection" and fault == "no-features":
                message = r"n_features=0"
            yield pytest.param(function, kwargs, message, id=f"{function.__name__}-{fault}")


@pytest.mark.parametrize("function, kwargs, message", list(_cases()))
def test_rls_core_and_selectors_refuse_bad_input_naming_the_parameter(function, kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        function(**kwargs)
    assert "\n" not in str(info.value)


def _forward(X=X, y=Y, k=2, alpha=1.0):
    return forward_marglik(X, y, k, alpha)


def _search_lambda(X=X, y=Y, alpha=1.0):
    return search_lambda(X, y, [alpha, 2.0], make_folds(len(y), 3))


@pytest.mark.parametrize(
    "function, kwargs, message",
    [
        pytest.param(_forward, kwargs, message, id=f"forward_marglik-{fault}")
        for fault, (kwargs, message) in DATA_FAULTS.items()
    ]
    + [
        pytest.param(_forward, {"alpha": 0.0}, r"lam must be a positive", id="forward-lam-zero"),
        pytest.param(_forward, {"k": 2.5}, r"k_max must be an integer", id="forward-k-float"),
        pytest.param(_forward, {"k": -1}, r"k_max must be >= 0", id="forward-k-negative"),
    ]
    + [
        pytest.param(_search_lambda, kwargs, message, id=f"search_lambda-{fault}")
        for fault, (kwargs, message) in DATA_FAULTS.items()
        if fault != "short-y"
    ]
    + [
        pytest.param(_search_lambda, {"alpha": -1.0}, r"lambdas must be", id="search-lambda-neg"),
    ],
)
def test_marglik_and_ridgecv_refuse_bad_input_naming_the_parameter(function, kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        function(**kwargs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "estimator, X_, message",
    [
        (GreedyRLS(2, alpha=1.0), _with(X, (0, 0), np.nan), r"Input X contains NaN"),
        (GreedyRLS(0, alpha=1.0), X, r"'n_features_to_select' parameter of GreedyRLS"),
        (GreedyRLS(6, alpha=1.0), X, r"n_features_to_select=6 is larger than"),
        (GreedyRLS(2, alpha=-1.0), X, r"'alpha' parameter of GreedyRLS"),
    ],
    ids=["nan-X", "k-zero", "k-over-features", "alpha-negative"],
)
def test_the_estimator_refuses_bad_input_naming_the_parameter(estimator, X_, message):
    with pytest.raises(ValueError, match=message):
        estimator.fit(X_, Y)


@pytest.mark.parametrize("selector", [greedy_rls, lowrank_lssvm, wrapper], ids=lambda f: f.__name__)
@pytest.mark.parametrize("scale", [1e155, 1e160, 1e200], ids=lambda s: f"scale-{s:g}")
def test_a_selection_that_would_overflow_is_refused_naming_scale_and_alpha(selector, scale):
    X_big = RNG.standard_normal((30, 8)) * scale
    y = np.where(RNG.standard_normal(30) > 0, 1.0, -1.0)
    with pytest.raises(SelectionError, match=r"max \|x\| = .*standardise X") as info:
        selector(X_big, y, 4, 1.0)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, FloatingPointError)
