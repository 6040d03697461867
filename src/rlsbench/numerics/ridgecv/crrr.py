"""Class-reweighted ridge regression (CRRR, Toh 2008) with the covariance shortcuts.

Buteneers et al., Section 4: CRRR minimises ‖R_t(X_t W_t − Y_t)‖² + λ‖W_t‖² with R_t the diagonal
matrix weighting positive rows by 1/√n_pos and negative rows by 1/√n_neg. The covariances are
accumulated per class and combined as A = A⁺/n_pos + A⁻/n_neg, after which every algorithm of
:mod:`~rlsbench.numerics.ridgecv.kfold_lambda` and :mod:`~rlsbench.numerics.ridgecv.ffs_bfs`
runs unchanged.
The class counts are those of each fold's training (resp. validation) rows.
"""

from __future__ import annotations

import numpy as np

from rlsbench.numerics.ridgecv.kfold_lambda import FoldStats, _check_folds, as_2d_targets


def _binary_labels(y) -> np.ndarray:
    y = np.asarray(y, dtype=np.float64)
    if y.ndim != 1 or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must be a 1-d array of ±1 labels for class reweighting")
    return y


def class_weights(y, mask) -> np.ndarray:
    """Row weights 1/n_class of the rows in ``mask`` (the squared diagonal of R_t).

    Parameters
    ----------
    y : ndarray of shape (n_samples,), ±1
    mask : ndarray of shape (n_samples,), bool

    Returns
    -------
    ndarray of shape (mask.sum(),)
    """
    y = _binary_labels(y)[mask]
    n_pos, n_neg = np.sum(y > 0), np.sum(y < 0)
    return np.where(y > 0, 1.0 / max(n_pos, 1), 1.0 / max(n_neg, 1))


def class_weight_fn(y):
    """``sample_weight_fn`` for :func:`~rlsbench.numerics.ridgecv.kfold_lambda.cv_errors_naive`."""
    return lambda train, val: (class_weights(y, train), class_weights(y, val))


def class_weighted_fold_statistics(X, y, folds) -> FoldStats:
    """Fold covariances of CRRR: per-class covariances combined with 1/n_class (Section 4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), ±1
    folds : ndarray of shape (n_samples,), int

    Returns
    -------
    FoldStats
        ``At[k] = (A⁺ − A⁺_v)/n⁺_t + (A⁻ − A⁻_v)/n⁻_t`` and ``Av[k] = A⁺_v/n⁺_v + A⁻_v/n⁻_v``
        (same for B, c); ``A`` and ``B`` use the counts of all rows.
    """
    X = np.asarray(X, dtype=np.float64)
    y = _binary_labels(y)
    Y = as_2d_targets(y)
    folds = _check_folds(folds, X.shape[0])
    K = int(folds.max()) + 1

    def cov(mask):
        return X[mask].T @ X[mask], X[mask].T @ Y[mask], np.einsum("mt,mt->t", Y[mask], Y[mask])

    classes = (y > 0, y < 0)
    total = [cov(c) for c in classes]
    n_tot = [int(c.sum()) for c in classes]
    At, Bt, Av, Bv, cv = [], [], [], [], []
    for k in range(K):
        val = folds == k
        parts_v = [cov(val & c) for c in classes]
        n_v = [int((val & c).sum()) for c in classes]
        n_t = [n - nv for n, nv in zip(n_tot, n_v)]
        inv = lambda n: 1.0 / n if n else 0.0  # noqa: E731  (a class absent from the fold)
        At.append(sum((T[0] - V[0]) * inv(n) for T, V, n in zip(total, parts_v, n_t)))
        Bt.append(sum((T[1] - V[1]) * inv(n) for T, V, n in zip(total, parts_v, n_t)))
        Av.append(sum(V[0] * inv(n) for V, n in zip(parts_v, n_v)))
        Bv.append(sum(V[1] * inv(n) for V, n in zip(parts_v, n_v)))
        cv.append(sum(V[2] * inv(n) for V, n in zip(parts_v, n_v)))
    A = sum(T[0] / n for T, n in zip(total, n_tot) if n)
    B = sum(T[1] / n for T, n in zip(total, n_tot) if n)
    return FoldStats(
        np.stack(At), np.stack(Bt), np.stack(Av), np.stack(Bv), np.stack(cv), A, B, int(X.shape[0])
    )


def balanced_error_rate(y_true, decision) -> float:
    """Mean of the error rates on the positive and the negative class (the paper's BER)."""
    y_true = _binary_labels(y_true)
    pred = np.where(np.asarray(decision) >= 0, 1.0, -1.0)
    return float(
        np.mean([np.mean(pred[y_true == c] != c) for c in (1.0, -1.0) if np.any(y_true == c)])
    )
