"""K-fold choice of the ridge parameter λ at a cost independent of the sample count.

Buteneers et al., Section 2: the validation loss of fold ``v`` (eq. 3) only needs the fold's
covariances A_v = X_vᵀX_v, B_v = X_vᵀY_v, c_v = Y_vᵀY_v (eq. 4) and the training weights
W_t = (A − A_v + λI)⁻¹(B − B_v) (eq. 5). Three ways to evaluate the same numbers:

* ``naive``      refit on the training rows for every (fold, λ): O(R K N² M);
* ``covariance`` fold covariances once, then one linear solve per (fold, λ): O(N² M + R K N³);
* ``eigen``      one eigendecomposition A_t = C_t D_t C_tᵀ per fold (eq. 6), then O(N²) per λ
  (eq. 7): O(N² M + K N³ + R K N²).

All three return the summed validation squared error for every λ of the grid and pick the same λ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from rlsbench.numerics.validation import check_numeric

LAMBDA_METHODS = ("naive", "covariance", "eigen")


@dataclass(frozen=True)
class FoldStats:
    """Covariances of every training and validation fold (eq. 4-5).

    Shapes use ``K`` folds, ``N`` features, ``t`` outputs (always present, 1 for a vector y).

    Attributes
    ----------
    At : ndarray of shape (K, N, N)
        Training covariance A_t = A − A_v of each fold.
    Bt : ndarray of shape (K, N, t)
        Training cross-covariance B_t = B − B_v.
    Av : ndarray of shape (K, N, N)
        Validation covariance A_v = X_vᵀ X_v.
    Bv : ndarray of shape (K, N, t)
        Validation cross-covariance B_v = X_vᵀ Y_v.
    cv : ndarray of shape (K, t)
        Validation output energy c_v = Y_vᵀ Y_v (per output).
    A : ndarray of shape (N, N)
        Covariance of all rows (used to refit the final model).
    B : ndarray of shape (N, t)
    n_samples : int
        Total number of rows (validation errors are sums over all of them).
    """

    At: np.ndarray
    Bt: np.ndarray
    Av: np.ndarray
    Bv: np.ndarray
    cv: np.ndarray
    A: np.ndarray
    B: np.ndarray
    n_samples: int

    @property
    def n_folds(self) -> int:
        return int(self.At.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.At.shape[1])

    def subset(self, idx) -> FoldStats:
        """Statistics of the sub-problem on features ``idx`` (sub-matrices, Section 3)."""
        idx = np.asarray(idx, dtype=np.intp)
        ix = np.ix_(idx, idx)
        return FoldStats(
            At=self.At[:, ix[0], ix[1]],
            Bt=self.Bt[:, idx],
            Av=self.Av[:, ix[0], ix[1]],
            Bv=self.Bv[:, idx],
            cv=self.cv,
            A=self.A[ix],
            B=self.B[idx],
            n_samples=self.n_samples,
        )


@dataclass(frozen=True)
class LambdaSearch:
    """Outcome of a K-fold λ search.

    Attributes
    ----------
    lambdas : ndarray of shape (R,)
        The grid.
    cv_sse : ndarray of shape (R,)
        Validation squared error summed over folds, rows and outputs (eq. 3) for every λ.
    best_index : int
        Index of the chosen λ (lowest error; ties → lowest index).
    n_samples : int
    """

    lambdas: np.ndarray
    cv_sse: np.ndarray
    best_index: int
    n_samples: int

    @property
    def alpha(self) -> float:
        return float(self.lambdas[self.best_index])

    @property
    def cv_mse(self) -> np.ndarray:
        return self.cv_sse / self.n_samples


def as_2d_targets(y) -> np.ndarray:
    """y as float64 of shape (n_samples, t)."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 1:
        return y[:, None]
    if y.ndim != 2:
        raise ValueError(f"y must have shape (n_samples,) or (n_samples, t), got {y.shape}")
    return y


def make_folds(n_samples: int, n_folds: int, *, seed: int | None = 0) -> np.ndarray:
    """Fold id of every row, from :class:`sklearn.model_selection.KFold`.

    Parameters
    ----------
    n_samples : int
    n_folds : int
        K, at least 2 and at most ``n_samples``.
    seed : int or None
        Shuffle seed; None keeps contiguous blocks (as for time series).

    Returns
    -------
    ndarray of shape (n_samples,), int
    """
    if not 2 <= n_folds <= n_samples:
        raise ValueError(f"n_folds must be in [2, n_samples={n_samples}], got {n_folds}")
    kf = KFold(n_splits=n_folds, shuffle=seed is not None, random_state=seed)
    folds = np.empty(n_samples, dtype=np.intp)
    for k, (_, val) in enumerate(kf.split(np.empty((n_samples, 1)))):
        folds[val] = k
    return folds


def _check_folds(folds, n_samples: int) -> np.ndarray:
    folds = np.asarray(folds)
    if folds.shape != (n_samples,) or not np.issubdtype(folds.dtype, np.integer):
        raise ValueError(
            f"folds must be an integer array of shape ({n_samples},), got {folds.shape}"
        )
    if folds.min() < 0 or len(np.unique(folds)) != folds.max() + 1 or folds.max() < 1:
        raise ValueError("folds must number the folds 0..K-1 (K >= 2), each non-empty")
    return folds


def fold_statistics(X, y, folds, *, sample_weight=None) -> FoldStats:
    """Per-fold covariances A_v, B_v, c_v and training covariances A − A_v (eq. 4-5).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    folds : ndarray of shape (n_samples,), int
        Fold id 0..K-1 of every row (see :func:`make_folds`).
    sample_weight : ndarray of shape (n_samples,), optional
        Weight of every row's squared error (rows scaled by its square root).

    Returns
    -------
    FoldStats
        Costs O(N² M) once; everything after is independent of M.
    """
    X = check_numeric(X, "X", ensure_all_finite=False, ensure_min_features=0)
    Y = as_2d_targets(y)
    if X.ndim != 2 or Y.shape[0] != X.shape[0]:
        raise ValueError(f"X must be (n_samples, n_features) matching y; got {X.shape}, {Y.shape}")
    if X.shape[1] == 0:
        raise ValueError("X has no features (columns)")
    for name, values in (("X", X), ("y", Y)):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} must be finite; it holds NaN or infinity")
    folds = _check_folds(folds, X.shape[0])
    if sample_weight is not None:
        s = np.sqrt(np.asarray(sample_weight, dtype=np.float64))
        X, Y = X * s[:, None], Y * s[:, None]
    K = int(folds.max()) + 1
    Av = np.stack([X[folds == k].T @ X[folds == k] for k in range(K)])
    Bv = np.stack([X[folds == k].T @ Y[folds == k] for k in range(K)])
    cv = np.stack([np.einsum("mt,mt->t", Y[folds == k], Y[folds == k]) for k in range(K)])
    A, B = Av.sum(axis=0), Bv.sum(axis=0)
    return FoldStats(A[None] - Av, B[None] - Bv, Av, Bv, cv, A, B, int(X.shape[0]))


def lambda_grid(A, n_lambdas: int, *, low: float = 1e-8, high: float = 1e2) -> np.ndarray:
    """Log-spaced λ grid relative to the mean eigenvalue tr(A)/N of the covariance.

    Parameters
    ----------
    A : ndarray of shape (N, N)
    n_lambdas : int
        R.
    low, high : float
        Smallest and largest λ as multiples of tr(A)/N.

    Returns
    -------
    ndarray of shape (R,), increasing
    """
    A = np.asarray(A, dtype=np.float64)
    scale = np.trace(A) / A.shape[0]
    if not scale > 0:
        raise ValueError("covariance has zero trace: all features are zero")
    return scale * np.logspace(np.log10(low), np.log10(high), int(n_lambdas))


def _check_lambdas(lambdas) -> np.ndarray:
    lambdas = np.asarray(lambdas, dtype=np.float64)
    if lambdas.ndim != 1 or lambdas.size == 0 or not np.all(lambdas > 0):
        raise ValueError("lambdas must be a non-empty 1-d array of positive values")
    return lambdas


def _pick(lambdas, sse, n_samples) -> LambdaSearch:
    return LambdaSearch(lambdas, sse, int(np.argmin(sse)), n_samples)


def cv_errors_naive(X, y, folds, lambdas, *, sample_weight_fn=None) -> np.ndarray:
    """Validation error of every λ by refitting on each training fold (Section 2, O(R K N² M)).

    Uses :class:`sklearn.linear_model.Ridge` (Cholesky solver, no intercept), an
    implementation independent of the covariance and eigen methods.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    folds : ndarray of shape (n_samples,), int
    lambdas : ndarray of shape (R,)
    sample_weight_fn : callable, optional
        ``sample_weight_fn(train_mask, val_mask) -> (w_train, w_val)`` row weights of one fold
        (class reweighting, Section 4).

    Returns
    -------
    ndarray of shape (R,)
        Summed validation squared error (eq. 3).
    """
    X = np.asarray(X, dtype=np.float64)
    Y = as_2d_targets(y)
    folds = _check_folds(folds, X.shape[0])
    lambdas = _check_lambdas(lambdas)
    sse = np.zeros(lambdas.shape[0])
    for k in range(int(folds.max()) + 1):
        val = folds == k
        wt = wv = None
        if sample_weight_fn is not None:
            wt, wv = sample_weight_fn(~val, val)
        for r, lam in enumerate(lambdas):
            model = Ridge(alpha=lam, fit_intercept=False, solver="cholesky")
            model.fit(X[~val], Y[~val], sample_weight=wt)
            resid = model.predict(X[val]).reshape(-1, Y.shape[1]) - Y[val]
            w = np.ones(resid.shape[0]) if wv is None else wv
            sse[r] += np.einsum("m,mt,mt->", w, resid, resid)
    return sse


def _solve_pd(M, b) -> np.ndarray:
    try:
        return scipy.linalg.solve(M, b, assume_a="pos", check_finite=False)
    except np.linalg.LinAlgError:  # numerically indefinite for λ near the rounding level
        return scipy.linalg.solve(M, b, assume_a="sym", check_finite=False)


def cv_errors_covariance(stats: FoldStats, lambdas) -> np.ndarray:
    """Validation error of every λ from the fold covariances (eq. 4-5, O(R K N³)).

    Parameters
    ----------
    stats : FoldStats
    lambdas : ndarray of shape (R,)

    Returns
    -------
    ndarray of shape (R,)
        f_loss,v,λ = W_tᵀ(A_v W_t − 2 B_v) + c_v summed over folds and outputs.
    """
    lambdas = _check_lambdas(lambdas)
    N = stats.n_features
    sse = np.full(lambdas.shape[0], stats.cv.sum())
    if N == 0:
        return sse
    eye = np.eye(N)
    for k in range(stats.n_folds):
        for r, lam in enumerate(lambdas):
            W = _solve_pd(stats.At[k] + lam * eye, stats.Bt[k])  # eq. 5
            sse[r] += np.einsum("nt,nt->", W, stats.Av[k] @ W - 2.0 * stats.Bv[k])  # eq. 4
    return sse


def shifted_eigh(At, shift: float):
    """Eigendecomposition A_t = C D Cᵀ computed on A_t + shift·I (Section 2.2).

    Adding λ_max·I before the decomposition and subtracting it from the eigenvalues keeps the
    decomposition well conditioned for the λ range that is used (Golub & Van Loan).

    Parameters
    ----------
    At : ndarray of shape (N, N)
    shift : float
        λ_max of the grid.

    Returns
    -------
    D : ndarray of shape (N,)
    C : ndarray of shape (N, N)
    """
    n = At.shape[0]
    D, C = scipy.linalg.eigh(At + shift * np.eye(n), check_finite=False)
    return D - shift, C


def cv_errors_eigen(stats: FoldStats, lambdas) -> np.ndarray:
    """Validation error of every λ from one eigendecomposition per fold (eq. 6-7).

    Parameters
    ----------
    stats : FoldStats
    lambdas : ndarray of shape (R,)

    Returns
    -------
    ndarray of shape (R,)
    """
    lambdas = _check_lambdas(lambdas)
    sse = np.full(lambdas.shape[0], stats.cv.sum())
    if stats.n_features == 0:
        return sse
    for k in range(stats.n_folds):
        D, C = shifted_eigh(stats.At[k], lambdas.max())
        ACv = C.T @ stats.Av[k] @ C
        BCt = C.T @ stats.Bt[k]
        BCv = C.T @ stats.Bv[k]
        W = BCt[None] / (D[None, :, None] + lambdas[:, None, None])  # eq. 7, (R, N, t)
        sse += np.einsum("rnt,rnt->r", W, np.matmul(ACv, W) - 2.0 * BCv[None])
    return sse


def search_lambda(
    X,
    y,
    lambdas,
    folds,
    *,
    method: str = "eigen",
    stats: FoldStats | None = None,
    sample_weight=None,
) -> LambdaSearch:
    """K-fold λ search for ridge regression by one of the three methods of Section 2.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    lambdas : ndarray of shape (R,)
    folds : ndarray of shape (n_samples,), int
    method : {"naive", "covariance", "eigen"}
    stats : FoldStats, optional
        Precomputed fold covariances (the fixed cost), reused by covariance/eigen.
    sample_weight : ndarray of shape (n_samples,), optional

    Returns
    -------
    LambdaSearch
    """
    if method not in LAMBDA_METHODS:
        raise ValueError(f"method must be one of {LAMBDA_METHODS}, got {method!r}")
    lambdas = _check_lambdas(lambdas)
    n = np.asarray(X).shape[0]
    if method == "naive":
        fn = None
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=np.float64)
            fn = lambda tr, va: (w[tr], w[va])  # noqa: E731
        return _pick(lambdas, cv_errors_naive(X, y, folds, lambdas, sample_weight_fn=fn), n)
    if stats is None:
        stats = fold_statistics(X, y, folds, sample_weight=sample_weight)
    errors = cv_errors_covariance if method == "covariance" else cv_errors_eigen
    return _pick(lambdas, errors(stats, lambdas), stats.n_samples)


def ridge_weights(A, B, lam: float) -> np.ndarray:
    """W = (A + λI)⁻¹ B (eq. 2) from covariances of the whole training set.

    Parameters
    ----------
    A : ndarray of shape (N, N)
    B : ndarray of shape (N,) or (N, t)
    lam : float

    Returns
    -------
    ndarray of the shape of B
    """
    if A.shape[0] == 0:
        return np.zeros_like(B)
    return _solve_pd(A + lam * np.eye(A.shape[0]), B)
