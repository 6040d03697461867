"""The LOO λ grid search of RLS from one tridiagonalization of the smaller Gram matrix.

:func:`rlsbench.numerics.rls.loo_grid` (the protocol's search, whose chosen λ the committed
results record) takes the thin SVD of the wide design ``[X, b·1]`` when m <= n. LAPACK's
``gesdd`` then also forms the m×n right singular vectors, which the LOO shortcut never reads:
on 2000 × 5000 the search took 45 times a fit of greedy RLS at fixed λ (issue 44). Here the
dual side uses the m×m kernel matrix ``K = X Xᵀ + b² 1 1ᵀ`` instead (one SYRK, O(m² n)),
reduced once to tridiagonal form ``K = Q T Qᵀ`` (Householder, SYTRD, and Q formed in place by
ORGHR);
every λ then costs O(m²) (eq. 8): ``G = Q (T + λI)⁻¹ Qᵀ`` by an LDLᵀ of the tridiagonal
``T + λI`` (O(m)), ``a = G y`` by one GEMM for the whole grid, ``d = diag(G)`` by a forward
recurrence over the columns of Q, residuals ``a / d``. An eigendecomposition of K (the
previous implementation, the fallback where an LDLᵀ loses its pivots) costs a D&C solve and an
m×m GEMM more: on 2000 × 5000, quiet 2-core machine, the tridiagonal search took 1.43 s against
1.68 s for the eigh one (``benchmarks/bench_greedy_rls_loo.py``; both on the BLAS's threads).
The primal side (m > n) is
:func:`~rlsbench.numerics.rls.loo_grid` unchanged, which already takes the n×n Gram matrix.

Where the time goes (2000 × 5000, 31 values of λ, CPU seconds on one BLAS thread, load 9 on
2 cores): SYRK 0.61, SYTRD 0.97, ORGQR 0.49, the whole grid 0.08, against 0.88 for the fit
at fixed λ (k = 50), so that ``alpha="loo"`` took 3.4 fits; at load 3 SYTRD took 0.64 (its
half of matrix-vector products reads the trailing matrix from a shared cache). The
factorizations are the floor; what was tried against them:

- the fit that follows cannot reuse K or its factors: greedy RLS keeps ``G = (X_S X_Sᵀ +
  λI)⁻¹`` of the selected columns only (the cache ``G X``), never the kernel of all of them;
- Q cannot stay implicit: ``diag(G)_j = e_jᵀ Q (T + λI)⁻¹ Qᵀ e_j`` reads every row of Q, and
  applying the reflectors (ORMTR) to the identity costs 2m³ against ORGQR's 4m³/3; ORMTR
  would only replace the GEMMs of ``a = G y``, which take 0.01 s;
- the two-stage reduction (SYTRD_2STAGE: BLAS-3 to a band, then bulge chasing) is in neither
  ``scipy.linalg.lapack`` nor ``cython_lapack``, LAPACK has no routine that applies its
  second stage's reflectors, and keeping the band makes ``diag(G)`` O(m² b) per λ;
- ORGQR from NumPy GEMMs on blocks of 64-256 reflectors: 0.52-0.82 s against LAPACK's 0.48.

ORGQR on the reflectors copied out of the packed matrix, with Q assembled in a new array, took
0.11 s more than ORGHR in place (median of 9, 2000 × 2000, quiet machine): the same Q, bit for
bit.

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


#: Rows of Q per block of the numba kernel (one thread's share of the LDLᵀ recurrence).
_DIAG_BLOCK = 64

try:  # numba is a declared dependency; the NumPy recurrence keeps working without it
    from numba import njit, prange

    @njit(parallel=True, cache=True, nogil=True)
    def _ldl_inverse_diagonal_kernel(Q, mult, inv_piv, block, out):  # pragma: no cover
        m = Q.shape[0]
        n_alphas = inv_piv.shape[0]
        for blk in prange((m + block - 1) // block):
            lo = blk * block
            nj = min(block, m - lo)
            w = np.empty((n_alphas, nj))
            acc = np.empty((n_alphas, nj))
            # one λ's row of the state as a 1-d slice: LLVM vectorizes the loop over j then
            # (indexing the 2-d state in the inner loop took twice as long, 2000 × 2000, R = 31)
            q = Q[lo : lo + nj, 0]
            for r in range(n_alphas):
                p = inv_piv[r, 0]
                w_r = w[r]
                acc_r = acc[r]
                for j in range(nj):
                    w_r[j] = q[j]
                    acc_r[j] = q[j] * q[j] * p
            for i in range(1, m):
                q = Q[lo : lo + nj, i]
                for r in range(n_alphas):
                    lr = mult[r, i - 1]
                    p = inv_piv[r, i]
                    w_r = w[r]
                    acc_r = acc[r]
                    for j in range(nj):
                        v = q[j] - lr * w_r[j]
                        w_r[j] = v
                        acc_r[j] += v * v * p
            for r in range(n_alphas):
                out[r, lo : lo + nj] = acc[r]

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False


def _ldl_inverse_diagonal(Q, mult, inv_piv):
    """``diag(Q (L D Lᵀ)⁻¹ Qᵀ)`` for every λ, shape (R, m): with ``W = L⁻¹ Qᵀ`` (forward
    substitution, row i of W is ``Q[:, i] - l_{i-1} W[i-1]``) it is ``Σ_i W[i]² / D_i``,
    a sum of positive terms. ``mult`` (R, m-1) holds the subdiagonals of the unit lower
    bidiagonal L, ``inv_piv`` (R, m) the 1/D."""
    m = Q.shape[0]
    out = np.empty(inv_piv.shape)
    if HAVE_NUMBA:
        _ldl_inverse_diagonal_kernel(Q, mult, inv_piv, _DIAG_BLOCK, out)
        return out
    w = np.repeat(Q[None, :, 0], inv_piv.shape[0], axis=0)
    out[:] = w * w * inv_piv[:, :1]
    for i in range(1, m):
        w *= -mult[:, i - 1, None]
        w += Q[:, i]
        out += w * w * inv_piv[:, i, None]
    return out


def _kernel_matrix(X, bias, *, lower):
    """One triangle of ``K = X Xᵀ + b² 1 1ᵀ`` (the other is not set), Fortran-ordered."""
    # SYRK on the transposed view: a C-ordered X is a Fortran-ordered Xᵀ (no copy).
    kernel = scipy.linalg.blas.dsyrk(1.0, np.asfortranarray(X.T), trans=1, lower=int(lower))
    kernel += bias * bias  # the bias feature's rank-one term
    return kernel


def _spectral_grid(s2, U, y2, alphas):
    """``(a, diag(G))`` for every λ from ``K = U diag(σ²) Uᵀ``: shapes (m, t, R), (m, R)."""
    np.maximum(s2, 0.0, out=s2)  # K is PSD; rounding can leave eigenvalues of -ε‖K‖
    g = 1.0 / (s2[:, None] + np.asarray(alphas)[None, :])  # (m, R)
    diag_g = np.square(U) @ g  # diag(G) for every λ, (m, R)
    Uty = U.T @ y2  # (m, t)
    m, t = y2.shape
    dual = (U @ (Uty[:, :, None] * g[:, None, :]).reshape(m, -1)).reshape(m, t, -1)
    return dual, diag_g


def _eigh_grid(kernel, y2, alphas):
    """:func:`_spectral_grid` from one ``eigh`` of K (upper triangle)."""
    # divide and conquer (syevd, NumPy's eigh): on 2000 × 2000 about 1.6x faster than syevr
    s2, U = scipy.linalg.eigh(
        kernel, lower=False, overwrite_a=True, check_finite=False, driver="evd"
    )
    return _spectral_grid(s2, U, y2, alphas)


def _tridiagonalize(kernel):
    """``(Q, diag(T), subdiag(T))`` of ``K = Q T Qᵀ`` from the lower triangle of K (destroyed).

    On the BLAS's threads, like every other product here (threadpoolctl or OMP_NUM_THREADS
    set them). SYTRD is m rank-2 steps of which half are matrix-vector products, and ORGQR
    many narrow GEMMs, so each call of a threaded BLAS waits for all of its threads: on the
    quiet 2-core machine two threads took 1.43 s against 1.85 s for one (2000 × 5000), but on
    a loaded one (load 5-11) two took 4-9 times as long as one; there, one thread is faster.
    """
    lapack = scipy.linalg.lapack
    m = kernel.shape[0]
    lwork = int(lapack.dsytrd_lwork(m, lower=1)[0])
    packed, diag_t, off_t, tau, info = lapack.dsytrd(kernel, lower=1, lwork=lwork, overwrite_a=1)
    if info != 0:  # pragma: no cover - SYTRD has no failing case on finite input
        raise np.linalg.LinAlgError(f"dsytrd info={info}")
    # Q = H(1) … H(m-1), reflector i stored below the subdiagonal of column i: the layout of
    # a Hessenberg reduction's reflectors (GEHRD with ilo = 1, ihi = m), so ORGHR forms Q in
    # place (what LAPACK's ORGTR does for uplo='L': ORGQR on the trailing (m-1)×(m-1)
    # block). Forming it in place instead of copying the block out and Q back in is the same
    # Q, bit for bit, and saved 0.11 s of 0.64 s (median of 9) on 2000 × 2000.
    lwork = int(lapack.dorghr_lwork(m, lo=0, hi=m - 1)[0])
    Q, info = lapack.dorghr(packed, tau[: m - 1], lo=0, hi=m - 1, lwork=lwork, overwrite_a=1)
    if info != 0:  # pragma: no cover
        raise np.linalg.LinAlgError(f"dorghr info={info}")
    return Q, diag_t, off_t


def _tridiagonal_grid(kernel, y2, alphas):
    """``(a, diag(G))`` for every λ from ``K = Q T Qᵀ`` (lower triangle; T tridiagonal).

    One Householder tridiagonalization (SYTRD, O(m³) of which half BLAS-2) and Q formed
    (ORGQR, BLAS-3), then :func:`_grid_from_tridiagonal`. An eigendecomposition also
    diagonalises T and multiplies Q by its eigenvectors (a D&C solve and an m×m GEMM more).
    """
    return _grid_from_tridiagonal(*_tridiagonalize(kernel), y2, alphas)


def _grid_from_tridiagonal(Q, diag_t, off_t, y2, alphas):
    """``(a, diag(G))`` for every λ from ``K = Q T Qᵀ`` (T by its diagonal and subdiagonal).

    Per λ the LDLᵀ of ``T + λI`` (PTTRF, O(m)), ``a = Q (T + λI)⁻¹ Qᵀ y`` (PTTRS, one GEMM
    for the whole grid) and ``diag(G) = Σ_i (L⁻¹ Qᵀ)[i]² / D_i``
    (:func:`_ldl_inverse_diagonal`, O(m²) per λ).

    T is PSD, so every pivot of ``T + λI`` is at least λ in exact arithmetic; a pivot below
    λ/2 (rounding at the scale of λ: λ ≪ ε‖K‖ on a rank-deficient K) sends the whole grid to
    the eigendecomposition ``T = V diag(σ²) Vᵀ`` (STEVD) with ``U = Q V``, which clamps the
    eigenvalues at 0 as :func:`_eigh_grid` does.
    """
    lapack = scipy.linalg.lapack
    m = Q.shape[0]
    n_alphas = len(alphas)
    t = y2.shape[1]
    piv = np.empty((n_alphas, m))
    mult = np.empty((n_alphas, m - 1))
    qty = Q.T @ y2  # (m, t)
    solved = np.empty((m, t, n_alphas))
    for r, alpha in enumerate(alphas):
        piv[r], mult[r], info = lapack.dpttrf(diag_t + alpha, off_t)
        if info != 0 or not np.all(piv[r] >= 0.5 * alpha):
            s2, V, info = lapack.dstevd(diag_t, off_t, compute_v=1)
            if info != 0:  # pragma: no cover
                raise np.linalg.LinAlgError(f"dstevd info={info}")
            return _spectral_grid(s2, Q @ V, y2, alphas)
        solved[:, :, r], info = lapack.dpttrs(piv[r], mult[r], qty)
    dual = (Q @ solved.reshape(m, -1)).reshape(m, t, n_alphas)
    diag_g = _ldl_inverse_diagonal(Q, mult, 1.0 / piv).T  # (m, R)
    return dual, diag_g


def _dual_grid_residuals(X, y2, alphas, bias):
    """Yield the (m, t) LOO residuals ``a / diag(G)`` (eq. 8) for each λ from one
    tridiagonalization of ``K = X Xᵀ + b² 1 1ᵀ`` (:func:`_tridiagonal_grid`)."""
    if X.shape[0] < 3:
        dual, diag_g = _eigh_grid(_kernel_matrix(X, bias, lower=False), y2, alphas)
    else:
        dual, diag_g = _tridiagonal_grid(_kernel_matrix(X, bias, lower=True), y2, alphas)
    for i in range(diag_g.shape[1]):
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
    """LOO criterion of RLS for a whole λ grid from one tridiagonalization of the smaller
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
    Cost: O(m² n) for ``K = X Xᵀ`` (one SYRK), O(m³) for ``K = Q T Qᵀ`` (SYTRD, ORGQR), then
    O(m² R t) for the residuals of the R values of λ (one GEMM and the O(m²) recurrence of
    ``diag(G)`` per λ); m > n: :func:`~rlsbench.numerics.rls.loo_grid` (O(m n²), the n×n Gram
    matrix).
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
