"""The sparse baselines of Buteneers et al., Section 5: LARS, OP-LR and OP-RR.

* LARS: the Lasso by least angle regression (:class:`sklearn.linear_model.LassoLarsCV`), its
  penalty chosen by the same K folds.
* OP-LR (Miche et al. 2010, the pruning of OP-ELM): rank the features by their order of entry on
  the LAR path, then keep the prefix of that ranking with the lowest K-fold validation error of
  (unregularized) linear regression.
* OP-RR: the same prefixes scored by ridge regression with λ chosen per prefix by the eigen method
  (Section 2.2).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LassoLarsCV, lars_path
from sklearn.model_selection import PredefinedSplit

from rlsbench.numerics.ridgecv.kfold_lambda import FoldStats, _check_lambdas, cv_errors_eigen


@dataclass(frozen=True)
class PrunedModel:
    """Outcome of OP-LR / OP-RR.

    Attributes
    ----------
    ranking : ndarray of shape (N,), int
        LAR order of entry (features LAR never reached appended by decreasing ``|Xᵀy|``).
    cv_sse : ndarray of shape (N + 1,)
        Validation squared error of the prefix of every length 0..N (at its own best λ for OP-RR).
    lambda_index : ndarray of shape (N + 1,), int
        Best λ of each prefix (always 0 for OP-LR).
    n_selected : int
        Chosen prefix length.
    lambdas : ndarray of shape (R,)
    """

    ranking: np.ndarray
    cv_sse: np.ndarray
    lambda_index: np.ndarray
    n_selected: int
    lambdas: np.ndarray

    @property
    def selected(self) -> np.ndarray:
        return self.ranking[: self.n_selected]

    @property
    def alpha(self) -> float:
        return float(self.lambdas[self.lambda_index[self.n_selected]])


def lars_ranking(X, y) -> np.ndarray:
    """Features in their order of entry on the LAR path (:func:`sklearn.linear_model.lars_path`).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if y.ndim != 1:
        raise ValueError("LARS ranking needs a single output y of shape (n_samples,)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        _, active, _ = lars_path(X, y, method="lar", max_iter=X.shape[1])
    active = [int(j) for j in active]
    seen = set(active)
    # LAR stops early on (numerically) collinear columns: rank the rest by correlation.
    rest = sorted((j for j in range(X.shape[1]) if j not in seen), key=lambda j: -abs(X[:, j] @ y))
    return np.array(active + rest, dtype=np.intp)


def lars_path_time(X, y) -> float:
    """Seconds of one full-data Lasso-LARS path (the fixed cost of the LARS column)."""
    import time

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        lars_path(np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64), method="lasso")
    return time.perf_counter() - t0


def fit_lars(X, y, folds):
    """Lasso by LARS with the penalty chosen by K-fold CV on the given folds.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    folds : ndarray of shape (n_samples,), int

    Returns
    -------
    sklearn.linear_model.LassoLarsCV
        Fitted (no intercept: X carries its own constant column where wanted).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return LassoLarsCV(fit_intercept=False, cv=PredefinedSplit(folds), max_n_alphas=4000).fit(
            X, y
        )


def _prefix_errors_ls(stats: FoldStats, ranking, lam: float) -> np.ndarray:
    """Validation error of every prefix of ``ranking`` at one λ: one Cholesky factor per fold.

    The Cholesky factor of a leading principal sub-matrix is the leading block of the full
    factor, so all N prefixes cost O(K N³) together.
    """
    r = np.asarray(ranking)
    N = r.shape[0]
    sse = np.full(N + 1, stats.cv.sum())
    for k in range(stats.n_folds):
        At = stats.At[k][np.ix_(r, r)] + lam * np.eye(N)
        L = scipy.linalg.cholesky(At, lower=True, check_finite=False)
        z = scipy.linalg.solve_triangular(L, stats.Bt[k][r], lower=True, check_finite=False)
        Av, Bv = stats.Av[k][np.ix_(r, r)], stats.Bv[k][r]
        for p in range(1, N + 1):
            w = scipy.linalg.solve_triangular(L[:p, :p].T, z[:p], lower=False, check_finite=False)
            sse[p] += np.einsum("nt,nt->", w, Av[:p, :p] @ w - 2.0 * Bv[:p])
    return sse


def op_lr(stats: FoldStats, ranking, lambdas) -> PrunedModel:
    """OP-LR: best prefix of the LARS ranking for linear regression.

    Linear regression is computed at the smallest λ of the grid (a floor of 1e-8·tr(A)/N with
    :func:`~rlsbench.numerics.ridgecv.kfold_lambda.lambda_grid`), which keeps the Cholesky factor
    of the ill-conditioned covariances (cond. up to 1e19 in Table 6) defined.

    Parameters
    ----------
    stats : FoldStats
    ranking : ndarray of shape (N,), int
    lambdas : ndarray of shape (R,)

    Returns
    -------
    PrunedModel
    """
    lambdas = _check_lambdas(lambdas)
    lam0 = np.array([lambdas.min()])
    sse = _prefix_errors_ls(stats, ranking, float(lam0[0]))
    return PrunedModel(
        np.asarray(ranking), sse, np.zeros(sse.shape[0], dtype=np.intp), int(np.argmin(sse)), lam0
    )


def op_rr(stats: FoldStats, ranking, lambdas) -> PrunedModel:
    """OP-RR: best prefix of the LARS ranking for ridge regression, λ per prefix (eigen method).

    Parameters
    ----------
    stats : FoldStats
    ranking : ndarray of shape (N,), int
    lambdas : ndarray of shape (R,)

    Returns
    -------
    PrunedModel
    """
    lambdas = _check_lambdas(lambdas)
    r = np.asarray(ranking)
    errs = np.stack([cv_errors_eigen(stats.subset(r[:p]), lambdas) for p in range(r.shape[0] + 1)])
    best = errs.min(axis=1)
    return PrunedModel(r, best, errs.argmin(axis=1), int(np.argmin(best)), lambdas)


__all__ = ["PrunedModel", "lars_ranking", "lars_path_time", "fit_lars", "op_lr", "op_rr"]
