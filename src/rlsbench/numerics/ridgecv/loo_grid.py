"""The LOO λ grid search of RLS from one eigendecomposition of the smaller Gram matrix.

:func:`rlsbench.numerics.rls.loo_grid` (the protocol's search, whose chosen λ the committed
results record) takes the thin SVD of the wide design ``[X, b·1]`` when m <= n. LAPACK's
``gesdd`` then also forms the m×n right singular vectors, which the LOO shortcut never reads:
on 2000 × 5000 the search took 45 times a fit of greedy RLS at fixed λ (issue 44). Here the
dual side uses the m×m kernel matrix ``K = X Xᵀ + b² 1 1ᵀ = U diag(σ²) Uᵀ`` instead (one
SYRK, O(m² n), and an m×m ``eigh`` by divide and conquer); the primal side (m > n) is
:func:`~rlsbench.numerics.rls.loo_grid` unchanged, which already takes the n×n Gram matrix.
Every λ then costs O(m²) (eq. 8): ``G = U diag(1/(σ² + λ)) Uᵀ``, ``a = G y``,
``d = diag(G)``, residuals ``a / d``.

The scikit-learn estimators use this search for ``alpha="loo"``; the benchmark protocol keeps
:func:`~rlsbench.numerics.rls.choose_alpha`. Both pick the same grid value (ties aside): the
Gram matrix perturbs the residuals by about ``ε σ²_max / λ`` (relative), as on the primal side.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from rlsbench.numerics.array_api import non_numpy_namespace
from rlsbench.numerics.criteria import best_index, criterion_from_residuals, loo_mse
from rlsbench.numerics.rls import choose_alpha, loo_grid
from rlsbench.numerics.selection._common import check_sample_weight
from rlsbench.numerics.validation import check_alphas, check_bias, check_criterion, check_X_y

__all__ = ["loo_grid_gram", "choose_alpha_gram"]


def _dual_grid_residuals(X, y2, alphas, bias):
    """Yield the (m, t) LOO residuals for each λ from one eigendecomposition of
    ``X Xᵀ + b² 1 1ᵀ`` (eq. 8)."""
    # SYRK on the transposed view: a C-ordered X is a Fortran-ordered Xᵀ (no copy).
    kernel = scipy.linalg.blas.dsyrk(1.0, np.asfortranarray(X.T), trans=1, lower=0)
    kernel += bias * bias  # the bias feature's rank-one term; only the upper triangle is read
    # divide and conquer (syevd, NumPy's eigh): on 2000 × 2000 about 1.6x faster than syevr
    s2, U = scipy.linalg.eigh(
        kernel, lower=False, overwrite_a=True, check_finite=False, driver="evd"
    )
    np.maximum(s2, 0.0, out=s2)  # K is PSD; rounding can leave eigenvalues of -ε‖K‖
    g = 1.0 / (s2[:, None] + np.asarray(alphas)[None, :])  # (m, R)
    diag_g = np.square(U) @ g  # diag(G) for every λ, (m, R)
    Uty = U.T @ y2  # (m, t)
    m, t = y2.shape
    dual = (U @ (Uty[:, :, None] * g[:, None, :]).reshape(m, -1)).reshape(m, t, -1)
    for i in range(g.shape[1]):
        yield dual[:, :, i] / diag_g[:, i, None]


def _weighted_design(X, y, sample_weight, bias, criterion):
    """``([sqrt(w) ∘ X, bias·sqrt(w)], sqrt(w) ∘ y, Σw)``: weighted RLS as plain RLS on
    scaled rows with the bias as a last, regularized column (see ``loo_grid_gram``)."""
    X, y = check_X_y(X, y)
    weights = check_sample_weight(sample_weight, X.shape[0], criterion, method="loo_grid_gram")
    bias = check_bias(bias)
    root = np.sqrt(weights)
    design = np.empty((X.shape[0], X.shape[1] + (bias != 0.0)))
    np.multiply(X, root[:, None], out=design[:, : X.shape[1]])
    if bias != 0.0:
        design[:, -1] = bias * root
    return design, y * (root if y.ndim == 1 else root[:, None]), float(weights.sum())


def loo_grid_gram(X, y, alphas, *, bias=0.0, criterion="squared", sample_weight=None):
    """LOO criterion of RLS for a whole λ grid from one eigendecomposition of the smaller
    Gram matrix.

    Same contract as :func:`rlsbench.numerics.rls.loo_grid`; for ``n_samples <= n_features``
    (+1 with a bias) the m×m kernel matrix replaces the thin SVD of the design.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        NumPy; another array-API library's array goes to
        :func:`~rlsbench.numerics.rls.loo_grid`.
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    alphas : array-like of shape (R,)
        λ values, each > 0.
    bias : float, default=0.0
        Value of the constant bias feature (0 = none).
    criterion : {"squared", "zero_one"}, default="squared"
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        Weights ``w_j >= 0`` of the examples (NumPy input, ``criterion="squared"``): RLS on
        the rows scaled by ``sqrt(w_j)`` with the bias column ``bias·sqrt(w)``, and the
        weighted LOO squared error ``Σ_j w_j (y_j - p_j)² / Σ_j w_j`` (example j left out
        with all of its weight), as :func:`rlsbench.numerics.selection.greedy_rls`.

    Returns
    -------
    criterion : ndarray of shape (R,)
        The chosen criterion for each λ.
    loo_mse : ndarray of shape (R,)
        Mean squared LOO error (summed over outputs) for each λ; weighted with weights.

    Notes
    -----
    Cost: O(m² n) for ``K = X Xᵀ`` (one SYRK), O(m³) for its ``eigh``, then O(m² R t) for the
    residuals of the R values of λ (two GEMMs); m > n: :func:`~rlsbench.numerics.rls.loo_grid`
    (O(m n²), the n×n Gram matrix).
    """
    if sample_weight is not None:
        design, y, total_weight = _weighted_design(X, y, sample_weight, bias, criterion)
        crit, mse = loo_grid_gram(design, y, alphas)  # the bias is the design's last column
        scale = design.shape[0] / total_weight  # Σ r² / m → Σ r² / Σw
        return crit * scale, mse * scale
    if non_numpy_namespace(X, y) is not None:
        return loo_grid(X, y, alphas, bias=bias, criterion=criterion)
    X, y = check_X_y(X, y)
    alphas = check_alphas(alphas)
    bias = check_bias(bias)
    criterion = check_criterion(criterion, y)
    m, n = X.shape
    if m > n + (bias != 0.0):
        return loo_grid(X, y, alphas, bias=bias, criterion=criterion)
    crit = np.empty(alphas.shape[0])
    mse = np.empty(alphas.shape[0])
    y2 = y if y.ndim == 2 else y[:, None]
    for i, r in enumerate(_dual_grid_residuals(X, y2, alphas, bias)):
        r = r if y.ndim == 2 else r[:, 0]
        mse[i] = loo_mse(r)
        crit[i] = mse[i] if criterion == "squared" else criterion_from_residuals(criterion, y, r)
    return crit, mse


def choose_alpha_gram(X, y, alphas, *, bias=0.0, criterion="squared", sample_weight=None):
    """λ of the grid with the best LOO criterion on all features, by :func:`loo_grid_gram`.

    The tie rule of :func:`rlsbench.numerics.rls.choose_alpha`: lowest criterion, then lowest
    mean squared LOO error, then the earliest λ in ``alphas``.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    alphas : array-like of shape (R,)
    bias : float, default=0.0
    criterion : {"squared", "zero_one"}, default="squared"
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        As in :func:`loo_grid_gram`.

    Returns
    -------
    float
    """
    if non_numpy_namespace(X, y) is not None and sample_weight is None:
        return choose_alpha(X, y, alphas, bias=bias, criterion=criterion)
    alphas = check_alphas(alphas)
    crit, mse = loo_grid_gram(
        X, y, alphas, bias=bias, criterion=criterion, sample_weight=sample_weight
    )
    return float(alphas[best_index(crit, mse)])
