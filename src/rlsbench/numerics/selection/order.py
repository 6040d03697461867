"""RLS along a given feature order: the model and its LOO criterion after every addition.

Used by random selection and by rankers/filters of other papers that join the protocol: they
choose the order, this module supplies the same path record as the RLS wrappers.
"""

from __future__ import annotations

import dataclasses
import time

from rlsbench.numerics.array_api import check_X_y_xp, non_numpy_namespace
from rlsbench.numerics.rls import (
    _check_order,
    _loo_errors_xp,
    _ridge_prefix_path,
    _ridge_prefix_path_xp,
)
from rlsbench.numerics.selection._common import PathRecorder, loo_errors, prepare
from rlsbench.numerics.validation import check_alpha, check_bias


def ridge_path(X, y, order, alpha, *, bias=0.0, criterion="squared"):
    """RLS models and LOO criteria after adding the features of ``order`` one by one.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        NumPy, or another array-API library's array (see Notes).
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    order : array-like of int, shape (k,)
        Feature indices in the order they join the model.
    alpha : float
        λ > 0.
    bias : float, default=0.0
        Value of the constant bias feature (always in the model, never in ``order``).
    criterion : {"squared", "zero_one"}, default="squared"

    Returns
    -------
    SelectionPath
        ``selected == order``.

    Notes
    -----
    One Cholesky factor of the Gram matrix of ``[bias·1, X[:, order]]`` gives the model of
    every prefix (:func:`rlsbench.numerics.rls.ridge_prefix_path`): O(m k²) time at BLAS-3
    speed and O(m k) memory. Arrays of another array-API library (CuPy, PyTorch, ...) are
    handled in their namespace and device; ``coef_path`` and ``intercept_path`` stay there.
    """
    start = time.perf_counter()
    xp = non_numpy_namespace(X, y)
    if xp is not None:
        return _ridge_path_xp(X, y, order, alpha, bias, criterion, xp, start)
    X, y2, single, _, alpha, bias, criterion = prepare(
        X, y, 1, alpha, bias, criterion, method="ridge_path"
    )
    order = _check_order(order, X.shape[1])
    coef, intercept, residuals = _ridge_prefix_path(X, y2, order, alpha, bias=bias)
    rec = PathRecorder(order.size, y2.shape[1], single, alpha, criterion, start=start)
    for s, res in enumerate(residuals):
        rec.add(order[s], y2, res, coef[s, : s + 1], intercept[s])
    return rec.path(method="ridge_path")


def subset_models(X, y, subsets, alpha, *, bias=0.0, criterion="squared"):
    """The RLS model of each feature subset: for each, the last step of
    ``ridge_path(X, y, subset, alpha, ...)``, the same numbers, with X checked once.

    For a method whose subsets are not nested (one model per subset size): ``ridge_path``
    per subset checks all of X each time and records every prefix, which costs more than
    the models on a tall X (PMLB's coil2000, 8839 × 85, 50 subsets: 3.5 of the 5.8 s of a
    training split).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    subsets : sequence of array-likes of int
        Feature indices of each model, in the order of its path (the last prefix is all).
    alpha, bias, criterion
        As :func:`ridge_path`.

    Returns
    -------
    list of tuple
        Per subset ``(coef, intercept, criterion, loo_mse)``: ``coef`` of shape (s,) or
        (s, n_targets), ``intercept`` a float or shape (n_targets,), the floats of the
        model's LOO criterion and LOO mean squared error.
    """
    X, y2, single, _, alpha, bias, criterion = prepare(
        X, y, 1, alpha, bias, criterion, method="subset_models"
    )
    models = []
    for subset in subsets:
        order = _check_order(subset, X.shape[1])
        coef, intercept, residuals = _ridge_prefix_path(X, y2, order, alpha, bias=bias)
        *_, last = residuals  # every prefix's residuals come from one pass; the last is all
        mse, zero_one = (float(e) for e in loo_errors(y2, last))
        coef, intercept = coef[-1], intercept[-1]
        if single:
            coef, intercept = coef[:, 0], float(intercept[0])
        models.append((coef, intercept, mse if criterion == "squared" else zero_one, mse))
    return models


def _ridge_path_xp(X, y, order, alpha, bias, criterion, xp, start):
    """:func:`ridge_path` for arrays of namespace ``xp``."""
    X, y = check_X_y_xp(X, y, xp, criterion=criterion)
    alpha, bias = check_alpha(alpha), check_bias(bias)
    order = _check_order(order, X.shape[1])
    y2 = xp.reshape(y, (y.shape[0], -1))
    coef, intercept, residuals = _ridge_prefix_path_xp(X, y2, order, alpha, xp, bias=bias)
    rec = PathRecorder(order.size, y2.shape[1], y.ndim == 1, alpha, criterion, start=start)
    for s, res in enumerate(residuals):
        rec.add_errors(order[s], *_loo_errors_xp(y2, res, xp))
    path = rec.path(method="ridge_path")
    if y.ndim == 1:
        coef, intercept = coef[:, :, 0], intercept[:, 0]
    return dataclasses.replace(path, coef_path=coef, intercept_path=intercept)
