"""RLS along a given feature order: the model and its LOO criterion after every addition.

Used by random selection and by rankers/filters of other papers that join the protocol: they
choose the order, this module supplies the same path record as the RLS wrappers.
"""

from __future__ import annotations

import time

import numpy as np

from rlsbench.numerics.selection._common import PathRecorder, bias_shrink, initial_dual, prepare


def _check_order(order, n_features):
    order = np.asarray(order)
    if order.ndim != 1 or order.size == 0:
        raise ValueError(
            f"order must be a non-empty 1-d sequence of feature indices, got shape {order.shape}"
        )
    if not np.issubdtype(order.dtype, np.integer):
        raise ValueError(f"order must hold integer feature indices, got dtype {order.dtype}")
    if order.min() < 0 or order.max() >= n_features:
        raise ValueError(f"order holds indices outside [0, n_features={n_features})")
    if np.unique(order).size != order.size:
        raise ValueError("order must not repeat a feature index")
    return order.astype(np.intp)


def ridge_path(X, y, order, alpha, *, bias=0.0, criterion="squared"):
    """RLS models and LOO criteria after adding the features of ``order`` one by one.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
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
    The rank-one dual updates of Algorithm 3 (eq. 14-17) restricted to the columns of
    ``order``: cache ``C = G X_order`` of shape (m, k), so the whole path costs O(k² m) time
    and O(k m) memory.
    """
    start = time.perf_counter()
    X, y2, single, _, alpha, bias, criterion = prepare(X, y, 1, alpha, bias, criterion)
    order = _check_order(order, X.shape[1])
    m, k = X.shape[0], order.size
    beta = bias_shrink(m, alpha, bias)
    Xo = X[:, order]
    cache = (Xo - beta * Xo.sum(axis=0)) / alpha  # C = G X_order (eq. 13)
    a, d = initial_dual(y2, alpha, beta)
    rec = PathRecorder(k, y2.shape[1], single, alpha, criterion, start=start)
    for s in range(k):
        v, c = Xo[:, s], cache[:, s].copy()
        u = c / (1.0 + v @ c)  # eq. 14
        a -= np.outer(u, v @ a)  # eq. 15
        d -= u * c  # eq. 17
        cache[:, s + 1 :] -= np.outer(u, v @ cache[:, s + 1 :])
        coef = Xo[:, : s + 1].T @ a
        rec.add(order[s], y2, a / d[:, None], coef, bias * bias * a.sum(axis=0))
    return rec.path(method="ridge_path")
