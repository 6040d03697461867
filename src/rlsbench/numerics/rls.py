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
- A whole λ grid from one decomposition (:func:`loo_grid`): eigendecomposition of ``XᵀX`` when
  m > n, thin SVD of X otherwise; for each λ the LOO residuals then cost O(m · min(m, n))
  (times the number of outputs).
- The RLS path along a fixed feature order (:func:`ridge_prefix_path`): the weights and LOO
  residuals of every prefix from one Cholesky factor of the Gram matrix, O(m k²) with BLAS-3.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
from array_api_compat import device

from rlsbench.numerics.array_api import check_X_y_xp, non_numpy_namespace
from rlsbench.numerics.criteria import best_index, criterion_from_residuals, loo_mse
from rlsbench.numerics.validation import (
    check_alpha,
    check_alphas,
    check_bias,
    check_criterion,
    check_X_y,
)

__all__ = [
    "fit_rls",
    "loo_predictions",
    "loo_residuals",
    "loo_grid",
    "choose_alpha",
    "ridge_prefix_path",
]


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
    """Yield the LOO residuals for each λ from one decomposition of the augmented design.

    ``m > n`` (primal side, eq. 7): eigendecomposition of the Gram matrix
    ``Xaᵀ Xa = V diag(σ²) Vᵀ`` (one SYRK, O(m n²), and an n×n ``eigh``) and ``P = Xa V``
    (one GEMM). With ``g = 1/(σ² + λ)`` the hat diagonal is ``q = (P ∘ P) g`` and the fitted
    values are ``f = P (g ∘ Pᵀy)``: O(m n) per λ, the whole grid in two GEMMs. Rounding in the
    Gram matrix perturbs the residuals by about ``ε σ²_max / λ`` (relative); a tall SVD
    avoids that but costs three times more (QR, Q formed, SVD of R, Q times its U).

    ``m <= n`` (dual side, eq. 8): thin SVD ``Xa = U diag(σ) Vᵀ`` with U square (m×m),
    ``G = U diag(1/(σ²+λ)) Uᵀ``; the SVD costs O(m² n), each λ O(m²).
    """
    m, n = Xa.shape
    y2 = y if y.ndim == 2 else y[:, None]
    t = y2.shape[1]
    if m <= n:
        try:
            U, s, _ = scipy.linalg.svd(Xa, full_matrices=False, check_finite=False)
        except np.linalg.LinAlgError:  # gesdd can fail to converge; gesvd is slower but robust
            U, s, _ = scipy.linalg.svd(
                Xa, full_matrices=False, check_finite=False, lapack_driver="gesvd"
            )
        s2 = s * s
        U2 = U * U
        Uty = U.T @ y2  # (m, t)
        for alpha in alphas:
            g = 1.0 / (s2 + alpha)
            a = U @ (Uty * g[:, None])
            d = U2 @ g
            r = a / d[:, None]
            yield r if y.ndim == 2 else r[:, 0]
        return
    # SYRK on the transposed view: a C-ordered Xa is a Fortran-ordered Xaᵀ (no copy).
    Xa_t = np.asfortranarray(Xa.T)
    gram = scipy.linalg.blas.dsyrk(1.0, Xa_t, trans=0, lower=0)  # upper triangle of Xaᵀ Xa
    s2, V = scipy.linalg.eigh(gram, lower=False, overwrite_a=True, check_finite=False)
    np.maximum(s2, 0.0, out=s2)  # Xaᵀ Xa is PSD; rounding can leave eigenvalues of -ε‖Xa‖²
    P = Xa @ V
    g = 1.0 / (s2[:, None] + np.asarray(alphas)[None, :])  # (n, R)
    Pty = P.T @ y2  # (n, t)
    f = (P @ (Pty[:, :, None] * g[:, None, :]).reshape(n, -1)).reshape(m, t, -1)
    q = np.square(P, out=P) @ g  # hat diagonal for every λ, (m, R)
    for i in range(g.shape[1]):
        r = (y2 - f[:, :, i]) / (1.0 - q[:, i, None])
        yield r if y.ndim == 2 else r[:, 0]


def loo_grid(X, y, alphas, *, bias=0.0, criterion="squared"):
    """LOO criterion of RLS for a whole grid of λ values from one SVD.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        NumPy, or another array-API library's array (computed in its namespace and device).
    y : array of shape (n_samples,) or (n_samples, n_targets)
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
    One decomposition of ``[X, bias·1]``, then O(m · min(m, n)) per λ: for ``m > n`` the
    eigendecomposition of its Gram matrix (O(m n²): one SYRK, one GEMM) and the primal
    shortcut (eq. 7); for ``m <= n`` its thin SVD (O(m² n)) and the dual shortcut (eq. 8).
    See ``_grid_residuals``. Arrays of another array-API library (CuPy, PyTorch, ...) are
    handled in their own namespace and device; the results are NumPy arrays.
    """
    xp = non_numpy_namespace(X, y)
    if xp is not None:
        X, y = check_X_y_xp(X, y, xp, criterion=criterion)
        return _loo_grid_xp(X, y, check_alphas(alphas), check_bias(bias), criterion, xp)
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
    X : array of shape (n_samples, n_features)
        NumPy, or another array-API library's array (see :func:`loo_grid`).
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


#: Columns of X gathered per block into the ordered design (bounds the temporary copy).
_GATHER_BLOCK = 64


def _ordered_design(X, order, bias):
    """``[bias·1, X[:, order]]`` as a Fortran-ordered (m, k + 1) array (no bias column when
    ``bias == 0``); returns it and the number of leading bias columns (0 or 1)."""
    m = X.shape[0]
    n_bias = int(bias != 0.0)
    Z = np.empty((m, n_bias + len(order)), order="F")
    if n_bias:
        Z[:, 0] = bias
    for lo in range(0, len(order), _GATHER_BLOCK):
        cols = order[lo : lo + _GATHER_BLOCK]
        Z[:, n_bias + lo : n_bias + lo + len(cols)] = X[:, cols]
    return Z, n_bias


def _prefix_factor(Z, alpha):
    """Lower Cholesky factor L of ``ZᵀZ + λI`` (one SYRK and one POTRF)."""
    gram = scipy.linalg.blas.dsyrk(1.0, Z, trans=1, lower=1)
    gram[np.diag_indices_from(gram)] += alpha
    L, info = scipy.linalg.lapack.dpotrf(gram, lower=1, clean=1, overwrite_a=1)
    if info != 0:
        # λ lost to rounding against near-duplicate columns: the same factor from a QR of
        # [Z; √λ I] (RᵀR = ZᵀZ + λI, R's leading blocks are the prefixes'), never forming ZᵀZ.
        k = Z.shape[1]
        R = scipy.linalg.qr(np.vstack([Z, np.sqrt(alpha) * np.eye(k)]), mode="r")[0][:k]
        L = (R * np.where(np.diag(R) < 0, -1.0, 1.0)[:, None]).T
    return L


def _prefix_weights(L, z):
    """Weights of every prefix: row ``P`` holds ``(Z_Pᵀ Z_P + λI)⁻¹ Z_Pᵀ y`` for the first
    ``P + 1`` columns of Z (zeros beyond), shape (p, p, t).

    With ``ZᵀZ + λI = L Lᵀ`` and ``z = L⁻¹ Zᵀy``, the leading blocks give
    ``w_P = L_P⁻ᵀ z_P = Σ_{j ≤ P} (L⁻¹)[j, :]ᵀ z_j``: a cumulative sum over the rows of the
    triangular inverse, O(p³) for all prefixes together.
    """
    Linv, info = scipy.linalg.lapack.dtrtri(L, lower=1)
    if info != 0:  # pragma: no cover - L has a positive diagonal after dpotrf
        raise np.linalg.LinAlgError(f"dtrtri info={info}")
    return np.cumsum(Linv[:, :, None] * z[:, None, :], axis=0)


def _prefix_loo_residuals(Z, L, z, y2, n_bias):
    """Yield the LOO residuals (m, t) of every prefix with at least one feature.

    ``U = Z L⁻ᵀ`` (one TRSM, in place in Z) has orthonormal-like columns with
    ``U_P U_Pᵀ`` the hat matrix of prefix P: its diagonal and the fitted values
    ``f = U_P (U_Pᵀ y) = U_P z_P`` are cumulative sums over U's columns; the LOO residual is
    ``(y - f) / (1 - q)`` (eq. 7).
    """
    U = scipy.linalg.blas.dtrsm(1.0, L, Z, side=1, lower=1, trans_a=1, overwrite_b=1)
    hat = np.zeros(U.shape[0])
    fitted = np.zeros_like(y2)
    for j in range(U.shape[1]):
        u = U[:, j]
        hat += u * u
        fitted += u[:, None] * z[j]
        if j >= n_bias:
            yield (y2 - fitted) / (1.0 - hat)[:, None]


def ridge_prefix_path(X, y, order, alpha, *, bias=0.0, weights=True, residuals=True):
    """RLS on every prefix of a fixed feature order: weights and LOO residuals, BLAS-3.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        NumPy, or another array-API library's array: the outputs are then arrays of that
        namespace on X's device (residuals a list instead of an iterator).
    y : array of shape (n_samples,) or (n_samples, n_targets)
    order : ndarray of shape (k,), int
        Feature indices in the order they join the model.
    alpha : float
        λ > 0.
    bias : float, default=0.0
        Value of the constant bias feature: always in the model, regularized like the others.
    weights, residuals : bool, default=True
        Which of the two outputs to compute.

    Returns
    -------
    coef_path : ndarray of shape (k, k) or (k, k, n_targets), or None
        Row ``s`` holds the weights of ``order[:s + 1]`` (zeros beyond ``s``).
    intercept_path : ndarray of shape (k,) or (k, n_targets), or None
        ``bias * w_bias`` after each addition.
    loo_residuals : iterator of k ndarrays of shape (n_samples,) or (n_samples, n_targets), or None
        LOO residuals ``y - p`` after each addition (eq. 7).

    Notes
    -----
    The design ``Z = [bias·1, X[:, order]]`` (m, p) is factored once: ``ZᵀZ + λI = L Lᵀ``
    (one SYRK, O(m p²), and a p×p Cholesky). The factor of every leading block of ``ZᵀZ + λI``
    is the leading block of L (prefix property), so every prefix model follows from the same
    L: the weights by a triangular inverse (O(p³), see ``_prefix_weights``), the hat diagonal
    and fitted values from ``U = Z L⁻ᵀ`` (one TRSM, O(m p²)). Total O(m k² + k³) at BLAS-3
    speed, against O(m k²) memory-bound rank-one updates along the path.

    With fewer examples than columns (m < p) the dual side is cheaper: ``G = (Z_P Z_Pᵀ + λI)⁻¹``
    (m×m) takes one Sherman-Morrison update per column (eq. 10, O(m²)), the LOO residuals are
    ``G y / diag(G)`` (eq. 8) and the weights ``Z_Pᵀ G y``: O(m² k + m k²) in all.
    """
    xp = non_numpy_namespace(X, y)
    if xp is not None:
        X, y = check_X_y_xp(X, y, xp)
        order = _check_order(order, X.shape[1])
        return _ridge_prefix_path_xp(
            X,
            y,
            order,
            check_alpha(alpha),
            xp,
            bias=check_bias(bias),
            weights=weights,
            residuals=residuals,
        )
    X, y = check_X_y(X, y)
    order = _check_order(order, X.shape[1])
    return _ridge_prefix_path(
        X, y, order, check_alpha(alpha), bias=check_bias(bias), weights=weights, residuals=residuals
    )


def _ridge_prefix_path(X, y, order, alpha, *, bias=0.0, weights=True, residuals=True):
    """:func:`ridge_prefix_path` on validated arguments."""
    y2 = y.reshape(y.shape[0], -1)
    Z, n_bias = _ordered_design(X, np.asarray(order), bias)
    if Z.shape[0] < Z.shape[1]:
        w, res = _dual_prefix_path(Z, y2, alpha, n_bias, weights, residuals)
    else:
        L = _prefix_factor(Z, alpha)
        z = scipy.linalg.solve_triangular(L, Z.T @ y2, lower=True, check_finite=False)  # L⁻¹Zᵀy
        w = _prefix_weights(L, z)[n_bias:] if weights else None  # prefixes with a feature
        res = _prefix_loo_residuals(Z, L, z, y2, n_bias) if residuals else None
    coef = intercept = None
    if weights:
        coef = w[:, n_bias:]
        intercept = bias * w[:, 0] if n_bias else np.zeros((w.shape[0], y2.shape[1]))
        if y.ndim == 1:
            coef, intercept = coef[:, :, 0], intercept[:, 0]
    if residuals and y.ndim == 1:
        res = (r[:, 0] for r in res)
    return coef, intercept, res


def _dual_prefix_steps(Z, y2, alpha):
    """Yield ``(j, a, G)`` after adding column j of Z: ``G = (Z_P Z_Pᵀ + λI)⁻¹`` by one
    Sherman-Morrison update per column (eq. 10, O(m²)) and ``a = G y`` (eq. 5); both are
    updated in place afterwards."""
    m, p = Z.shape
    G = np.eye(m) / alpha
    dual = y2 / alpha
    for j in range(p):
        g = G @ Z[:, j]
        gamma = 1.0 / (1.0 + Z[:, j] @ g)
        G -= gamma * np.outer(g, g)
        dual -= np.outer(gamma * g, g @ y2)
        yield j, dual, G


def _dual_prefix_path(Z, y2, alpha, n_bias, weights, residuals):
    """Dual side of :func:`ridge_prefix_path` (m < p): weights (p - n_bias, p, t) or None,
    and an iterator over the LOO residuals ``a / diag(G)`` (eq. 8) or None."""
    p = Z.shape[1]
    steps = (step for step in _dual_prefix_steps(Z, y2, alpha) if step[0] >= n_bias)
    if not weights:
        return None, (dual / np.diagonal(G)[:, None] for _, dual, G in steps)
    w = np.zeros((p - n_bias, p, y2.shape[1]))
    res = []
    for j, dual, G in steps:
        w[j - n_bias, : j + 1] = Z[:, : j + 1].T @ dual  # w = Zᵀ a (eq. 6)
        if residuals:
            res.append(dual / np.diagonal(G)[:, None])
    return w, iter(res) if residuals else None


# ---------------------------------------------------------------------------------------------
# Namespace-generic versions (CuPy, PyTorch, array-api-strict): array API functions only.
# NumPy input never reaches them (the public functions dispatch on the namespace first).
# ---------------------------------------------------------------------------------------------
def _augment_xp(X, bias, xp):
    """``X`` with the constant bias column appended when ``bias != 0`` (namespace ``xp``)."""
    if bias == 0.0:
        return X
    ones = xp.full((X.shape[0], 1), bias, dtype=X.dtype, device=device(X))
    return xp.concat([X, ones], axis=1)


def _grid_residuals_xp(Xa, y2, alphas, xp):
    """:func:`_grid_residuals` in namespace ``xp``: yields the (m, t) LOO residuals per λ."""
    m, n = Xa.shape
    if m <= n:
        U, s, _ = xp.linalg.svd(Xa, full_matrices=False)
        s2 = s * s
        U2 = U * U
        Uty = U.T @ y2
        for alpha in alphas:
            g = 1.0 / (s2 + float(alpha))
            a = U @ (Uty * g[:, None])
            d = U2 @ g
            yield a / d[:, None]
        return
    s2, V = xp.linalg.eigh(Xa.T @ Xa)
    s2 = xp.clip(s2, min=0.0)  # Xaᵀ Xa is PSD; rounding can leave eigenvalues of -ε‖Xa‖²
    P = Xa @ V
    P2 = P * P
    Pty = P.T @ y2  # (n, t)
    for alpha in alphas:
        g = 1.0 / (s2 + float(alpha))
        f = P @ (Pty * g[:, None])
        q = P2 @ g
        yield (y2 - f) / (1.0 - q)[:, None]


def _loo_errors_xp(y2, r, xp):
    """(mean squared LOO error summed over outputs, zero-one LOO error) as Python floats,
    from LOO residuals ``r`` (m, t): :func:`rlsbench.numerics.criteria.loo_mse` and
    :func:`~rlsbench.numerics.criteria.loo_zero_one` in namespace ``xp``."""
    m = r.shape[0]
    mse = float(xp.sum(r * r)) / m
    p = y2 - r
    if y2.shape[1] == 1:
        wrong = (p[:, 0] > 0) != (y2[:, 0] > 0)
    else:
        wrong = xp.argmax(p, axis=1) != xp.argmax(y2, axis=1)
    return mse, float(xp.sum(xp.astype(wrong, xp.float64))) / m


def _loo_grid_xp(X, y, alphas, bias, criterion, xp):
    """:func:`loo_grid` on validated arrays of namespace ``xp``; results on the host."""
    y2 = xp.reshape(y, (y.shape[0], -1))
    crit = np.empty(alphas.shape[0])
    mse = np.empty(alphas.shape[0])
    for i, r in enumerate(_grid_residuals_xp(_augment_xp(X, bias, xp), y2, alphas, xp)):
        mse[i], zero_one = _loo_errors_xp(y2, r, xp)
        crit[i] = mse[i] if criterion == "squared" else zero_one
    return crit, mse


def _ridge_prefix_path_xp(X, y, order, alpha, xp, *, bias=0.0, weights=True, residuals=True):
    """:func:`_ridge_prefix_path` in namespace ``xp`` (``order`` a host integer array).

    The same algebra: one Cholesky factor ``ZᵀZ + λI = L Lᵀ`` of ``Z = [bias·1, X[:, order]]``
    gives every prefix (``L⁻¹`` by ``xp.linalg.inv``, the standard has no triangular solve;
    p ≤ k + 1 is small); with fewer examples than columns the dual side takes one Sherman-
    Morrison update of the m×m ``G`` per column (eq. 10). Residuals are (m, t) arrays,
    weights (k, p, t) with ``p = k + [bias != 0]``; ``residuals="mse"`` gives instead the
    mean squared LOO error of every prefix, an array of shape (k,) on the device.
    """
    y2 = xp.reshape(y, (y.shape[0], -1))
    m = X.shape[0]
    dev = device(X)
    idx = xp.asarray(np.asarray(order, dtype=np.int64), device=dev)
    n_bias = int(bias != 0.0)
    Z = xp.take(X, idx, axis=1)
    if n_bias:
        Z = xp.concat([xp.full((m, 1), bias, dtype=X.dtype, device=dev), Z], axis=1)
    p = Z.shape[1]
    if m < p:
        w, res = _dual_prefix_path_xp(Z, y2, alpha, n_bias, xp)
    else:
        L = _prefix_factor_xp(Z, alpha, xp)
        # a general inverse can leave rounding (~1e-16) above the diagonal (it did on the
        # Intel Xeon VM of 2026-12-01), which gave a feature a weight before the step that
        # selects it; L⁻¹ of a lower-triangular L is lower-triangular
        Linv = xp.tril(xp.linalg.inv(L))
        z = Linv @ (Z.T @ y2)  # L⁻¹ Zᵀ y, (p, t)
        w = xp.cumulative_sum(Linv[:, :, None] * z[:, None, :], axis=0)[n_bias:, ...]
        res = None
        if residuals == "mse":
            res = _prefix_loo_mse_xp(Z @ Linv.T, z, y2, n_bias, xp)
        elif residuals:
            U = Z @ Linv.T  # orthonormal-like columns, U_P U_Pᵀ = hat matrix of prefix P
            hat = xp.cumulative_sum(U * U, axis=1)  # (m, p)
            fitted = xp.cumulative_sum(U[:, :, None] * z[None, :, :], axis=1)  # (m, p, t)
            res = [(y2 - fitted[:, j, :]) / (1.0 - hat[:, j])[:, None] for j in range(n_bias, p)]
    coef = intercept = None
    if weights:
        coef = w[:, n_bias:, :]
        if n_bias:
            intercept = bias * w[:, 0, :]
        else:
            intercept = xp.zeros((w.shape[0], y2.shape[1]), dtype=X.dtype, device=dev)
        if y.ndim == 1:
            coef, intercept = coef[:, :, 0], intercept[:, 0]
    if not residuals:
        res = None
    elif residuals == "mse":
        if isinstance(res, list):  # the dual side's residuals
            res = xp.stack([xp.sum(r * r) for r in res]) / m
    elif y.ndim == 1:
        res = [r[:, 0] for r in res]
    return coef, intercept, res


def _prefix_loo_mse_xp(U, z, y2, n_bias, xp):
    """Mean squared LOO error (summed over outputs) of every prefix with a feature, shape
    (p - n_bias,), from ``U = Z L⁻ᵀ`` and ``z = L⁻¹ Zᵀ y`` in O(m t) memory: the residuals
    of :func:`_ridge_prefix_path_xp` one prefix at a time, not all (m, p, t) at once."""
    m = U.shape[0]
    hat = xp.zeros((m,), dtype=U.dtype, device=device(U))
    fitted = xp.zeros(y2.shape, dtype=U.dtype, device=device(U))
    mse = []
    for j in range(U.shape[1]):
        u = U[:, j]
        hat = hat + u * u
        fitted = fitted + u[:, None] * z[j : j + 1, :]
        if j >= n_bias:
            r = (y2 - fitted) / (1.0 - hat)[:, None]
            mse.append(xp.sum(r * r))
    return xp.stack(mse) / m


def _prefix_factor_xp(Z, alpha, xp):
    """:func:`_prefix_factor` in namespace ``xp``: the Cholesky factor of ``ZᵀZ + λI``, or
    where that fails (λ lost to rounding against near-duplicate columns; NumPy raises,
    CuPy returns NaN) the same factor from a QR of ``[Z; √λ I]``."""
    p = Z.shape[1]
    eye = xp.eye(p, dtype=Z.dtype, device=device(Z))
    try:
        L = xp.linalg.cholesky(Z.T @ Z + alpha * eye)
        if bool(xp.all(xp.isfinite(xp.linalg.diagonal(L)))):
            return L
    except (ValueError, RuntimeError):  # numpy's LinAlgError, torch's (a RuntimeError)
        pass
    _, R = xp.linalg.qr(xp.concat([Z, math.sqrt(alpha) * eye], axis=0))
    sign = xp.where(xp.linalg.diagonal(R) < 0, -1.0, 1.0)
    return (R * sign[:, None]).T


def _dual_prefix_path_xp(Z, y2, alpha, n_bias, xp):
    """Dual side of :func:`_ridge_prefix_path_xp` (m < p): weights (p - n_bias, p, t) and the
    LOO residuals ``a / diag(G)`` (eq. 8) of each prefix with a feature."""
    m, p = Z.shape
    dev = device(Z)
    G = xp.eye(m, dtype=Z.dtype, device=dev) / alpha
    dual = y2 / alpha
    rows, res = [], []
    zero = xp.zeros((p, y2.shape[1]), dtype=Z.dtype, device=dev)
    for j in range(p):
        zj = Z[:, j]
        g = G @ zj
        gamma = 1.0 / (1.0 + xp.sum(zj * g))
        G = G - gamma * (g[:, None] * g[None, :])
        dual = dual - (gamma * g)[:, None] * (g @ y2)[None, :]
        if j >= n_bias:
            wj = Z[:, : j + 1].T @ dual  # w = Zᵀ a (eq. 6)
            rows.append(xp.concat([wj, zero[j + 1 :, :]], axis=0))
            res.append(dual / xp.linalg.diagonal(G)[:, None])
    return xp.stack(rows, axis=0), res
