"""Regularized least-squares (RLS, ridge regression) and its constant-time LOO shortcuts.

Notation follows Pahikkala, Airola & Salakoski (Section 2) with the data transposed to the
scikit-learn convention: ``X`` has shape (n_samples, n_features) = (m, n). A bias is an extra
constant feature of value ``bias`` appended to ``X`` (0 = none); it is regularized like the
other weights (footnote 1 of the paper). The model is ``f(x) = w^T x + intercept`` with
``intercept = bias * w_bias``.

- Primal solution (eq. 3): ``w = (X^T X + λ I)^{-1} X^T y``, cost O(n^2 m + n^3).
- Dual solution (eq. 4-6): ``a = G y`` with ``G = (X X^T + λ I)^{-1}``, ``w = X^T a``,
  cost O(m^2 n + m^3). :func:`fit_rls` picks the cheaper one from the shape.
- LOO residual ``y_j - p_j`` in O(1) per example: ``(y_j - f_j) / (1 - q_j)`` with ``q`` the
  diagonal of the hat matrix (eq. 7), or ``a_j / G_jj`` (eq. 8).
- A whole λ grid from one thin SVD ``X = U diag(σ) V^T`` (:func:`loo_grid`): for each λ the LOO
  residuals cost O(m · min(m, n)) (times the number of outputs).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from rlsbench.numerics._validation import (
    check_alpha,
    check_alphas,
    check_bias,
    check_criterion,
    check_X_y,
)
from rlsbench.numerics.criteria import best_index, criterion_from_residuals, loo_mse

__all__ = ["fit_rls", "loo_predictions", "loo_residuals", "loo_grid", "choose_alpha"]


def _augment(X, bias):
    """``X`` with the constant bias column appended when ``bias != 0``."""
    if bias == 0.0:
        return X
    return np.hstack([X, np.full((X.shape[0], 1), bias)])


def _split(w, n_features, bias):
    """Split augmented weights into (coef, intercept)."""
    coef = w[:n_features]
    if bias == 0.0:
        intercept = 0.0 if w.ndim == 1 else np.zeros(w.shape[1])
    else:
        intercept = bias * w[n_features]
        intercept = float(intercept) if w.ndim == 1 else np.asarray(intercept)
    return coef, intercept


def _solve_spd(A, B):
    """Solve ``A Z = B`` for symmetric positive definite ``A`` (Cholesky)."""
    return scipy.linalg.cho_solve(
        scipy.linalg.cho_factor(A, lower=True, check_finite=False), B, check_finite=False
    )


def _fit_augmented(Xa, y, alpha):
    """RLS weights on the (augmented) design, primal (eq. 3) or dual (eq. 4) by shape."""
    m, n = Xa.shape
    if m >= n:
        return _solve_spd(Xa.T @ Xa + alpha * np.eye(n), Xa.T @ y)
    dual_coef = _solve_spd(Xa @ Xa.T + alpha * np.eye(m), y)
    return Xa.T @ dual_coef


def fit_rls(X, y, alpha, *, bias=0.0):
    """Train RLS on all columns of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alpha : float
        Regularization parameter λ > 0.
    bias : float, default=0.0
        Value of the constant bias feature (0 = no bias).

    Returns
    -------
    coef : ndarray of shape (n_features,) or (n_features, n_targets)
    intercept : float or ndarray of shape (n_targets,)
        ``bias * w_bias`` (0 without a bias feature).

    Notes
    -----
    Primal form (eq. 3) when ``n_samples >= n_features (+1 with bias)``, dual form (eq. 4-6)
    otherwise; both cost O(min(n^2 m, m^2 n)).
    """
    X, y = check_X_y(X, y)
    alpha = check_alpha(alpha)
    bias = check_bias(bias)
    w = _fit_augmented(_augment(X, bias), y, alpha)
    return _split(w, X.shape[1], bias)


def _loo_residuals_augmented(Xa, y, alpha):
    m, n = Xa.shape
    if m >= n:
        # Primal shortcut (eq. 7): residual_j = (y_j - f_j) / (1 - q_j), q = diag(X A^{-1} X^T).
        A = Xa.T @ Xa + alpha * np.eye(n)
        Z = _solve_spd(
            A, np.column_stack([Xa.T, Xa.T @ y]) if y.ndim == 1 else np.hstack([Xa.T, Xa.T @ y])
        )
        q = np.einsum("ij,ji->i", Xa, Z[:, :m])
        f = Xa @ Z[:, m:]
        f = f[:, 0] if y.ndim == 1 else f
        denom = 1.0 - q
        return (y - f) / (denom if y.ndim == 1 else denom[:, None])
    # Dual shortcut (eq. 8): residual_j = a_j / G_jj.
    G = _solve_spd(Xa @ Xa.T + alpha * np.eye(m), np.eye(m))
    a = G @ y
    d = np.diag(G)
    return a / (d if y.ndim == 1 else d[:, None])


def loo_residuals(X, y, alpha, *, bias=0.0):
    """LOO residuals ``y_j - p_j`` of RLS on all columns of ``X`` (eq. 7 or 8).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alpha : float
    bias : float, default=0.0

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, n_targets)
    """
    X, y = check_X_y(X, y)
    alpha = check_alpha(alpha)
    bias = check_bias(bias)
    return _loo_residuals_augmented(_augment(X, bias), y, alpha)


def loo_predictions(X, y, alpha, *, bias=0.0):
    """LOO predictions of RLS in O(1) per example (primal eq. 7 or dual eq. 8, by shape).

    ``p_j`` is the prediction for example ``j`` of the RLS model trained on all other examples.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alpha : float
        λ > 0.
    bias : float, default=0.0

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, n_targets)
    """
    X, y = check_X_y(X, y)
    return y - loo_residuals(X, y, alpha, bias=bias)


def _grid_residuals(Xa, y, alphas):
    """Yield the LOO residuals for each λ from one thin SVD of the augmented design."""
    m, n = Xa.shape
    try:
        U, s, _ = scipy.linalg.svd(Xa, full_matrices=False, check_finite=False)
    except np.linalg.LinAlgError:  # gesdd can fail to converge; gesvd is slower but robust
        U, s, _ = scipy.linalg.svd(
            Xa, full_matrices=False, check_finite=False, lapack_driver="gesvd"
        )
    s2 = s * s
    U2 = U * U
    y2 = y if y.ndim == 2 else y[:, None]
    Uty = U.T @ y2  # (r, t)
    if m > n:
        # Primal side (eq. 7): 1 - q = (1 - h) + Σ_k U_jk² λ/(σ_k²+λ), y - f likewise, where
        # h = rowsum(U²) is the leverage of the unregularized projection.
        resid_proj = y2 - U @ Uty
        one_minus_h = 1.0 - U2.sum(axis=1)
    for alpha in alphas:
        if m <= n:
            # Dual side (eq. 8): U is square, G = U diag(1/(σ²+λ)) U^T.
            g = 1.0 / (s2 + alpha)
            a = U @ (Uty * g[:, None])
            d = U2 @ g
        else:
            g = alpha / (s2 + alpha)
            a = resid_proj + U @ (Uty * g[:, None])
            d = one_minus_h + U2 @ g
        r = a / d[:, None]
        yield r if y.ndim == 2 else r[:, 0]


def loo_grid(X, y, alphas, *, bias=0.0, criterion="squared"):
    """LOO criterion of RLS for a whole grid of λ values from one SVD.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alphas : array-like of shape (R,)
        λ values, each > 0.
    bias : float, default=0.0
    criterion : {"squared", "zero_one"}, default="squared"

    Returns
    -------
    criterion : ndarray of shape (R,)
        The chosen criterion for each λ.
    loo_mse : ndarray of shape (R,)
        Mean squared LOO error (summed over outputs) for each λ.

    Notes
    -----
    One thin SVD ``[X, bias·1] = U diag(σ) V^T`` costs O(m n min(m, n)); each λ then costs
    O(m · min(m, n)): the dual shortcut (eq. 8) with ``G = U diag(1/(σ²+λ)) U^T`` when
    ``m <= n``, the primal one (eq. 7) with hat diagonal ``q = U² σ²/(σ²+λ)`` otherwise.
    """
    X, y = check_X_y(X, y)
    alphas = check_alphas(alphas)
    bias = check_bias(bias)
    criterion = check_criterion(criterion, y)
    crit = np.empty(alphas.shape[0])
    mse = np.empty(alphas.shape[0])
    for i, r in enumerate(_grid_residuals(_augment(X, bias), y, alphas)):
        mse[i] = loo_mse(r)
        crit[i] = mse[i] if criterion == "squared" else criterion_from_residuals(criterion, y, r)
    return crit, mse


def choose_alpha(X, y, alphas, *, bias=0.0, criterion="squared"):
    """λ of the grid with the best LOO criterion on all features (the protocol's inner search).

    Ties: lowest criterion, then lowest mean squared LOO error, then the earliest λ in
    ``alphas``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alphas : array-like of shape (R,)
    bias : float, default=0.0
    criterion : {"squared", "zero_one"}, default="squared"

    Returns
    -------
    float
    """
    alphas = check_alphas(alphas)
    crit, mse = loo_grid(X, y, alphas, bias=bias, criterion=criterion)
    return float(alphas[best_index(crit, mse)])
