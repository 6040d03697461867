"""The sparse baselines of Buteneers et al., Section 5: LARS, OP-LR and OP-RR.

* LARS: the Lasso by least angle regression (:class:`sklearn.linear_model.LassoLarsCV`), its
  penalty chosen by the same K folds (:func:`fit_lars`); or a LARS path of the caller's choice,
  plain least angle (Efron et al. 2004, no Lasso modification) or Lasso, stopped after a number
  of steps chosen by the same K folds, after a fixed count, or at its end (:func:`fit_lars_path`).
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


def lars_path_time(X, y, method: str = "lasso") -> float:
    """Seconds of one full-data LARS path, Lasso (default) or plain LAR (``method="lar"``): the
    fixed cost of the LARS column."""
    import time

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        lars_path(np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64), method=method)
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


#: The paths of :func:`fit_lars_path`: ``lars_path``'s ``method``.
LARS_PATHS = ("lar", "lasso")

#: The stopping rules of :func:`fit_lars_path` besides a fixed number of steps.
LARS_STOPS = ("cv", "end")

#: Steps of a path run to its end: scikit-learn's ``Lars`` default ``n_nonzero_coefs`` (a path
#: on collinear columns can drop and re-add a column, so it may take more steps than columns).
LARS_MAX_STEPS = 500


@dataclass(frozen=True)
class LarsPathModel:
    """Outcome of :func:`fit_lars_path`.

    Attributes
    ----------
    coef : ndarray of shape (n_features,)
        Weights at the chosen step of the full-data path.
    n_steps : int
        Steps of the path taken (for ``"lar"``, the number of features in the model).
    alpha : float
        ``lars_path``'s α at that step (the largest absolute correlation of the residual with a
        column, divided by n_samples).
    cv_sse : ndarray of shape (S + 1,) or None
        K-fold validation squared error after 0..S steps (``stop="cv"``); None otherwise.
    """

    coef: np.ndarray
    n_steps: int
    alpha: float
    cv_sse: np.ndarray | None


def _lars_path(X, y, method, max_iter):
    with warnings.catch_warnings():
        # collinear columns end the path early: LARS' own note
        warnings.simplefilter("ignore", ConvergenceWarning)
        alphas, _, coefs = lars_path(X, y, method=method, max_iter=max_iter)
    return alphas, coefs


def lars_cv_errors(X, y, folds, *, method: str = "lar") -> np.ndarray:
    """K-fold validation squared error of the LARS path after every number of steps.

    For each fold the whole path (up to :data:`LARS_MAX_STEPS` steps) is computed on the other
    folds' rows (``lars_path``, no intercept); a fold whose path ends (all columns in, or the
    rank of its rows reached) before step s keeps its last coefficients there.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    folds : ndarray of shape (n_samples,), int
    method : {"lar", "lasso"}

    Returns
    -------
    ndarray of shape (S + 1,)
        Summed over the folds, after 0..S steps; S is the longest fold path.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    folds = np.asarray(folds)
    residuals = []
    for k in np.unique(folds):
        train, val = folds != k, folds == k
        _, coefs = _lars_path(X[train], y[train], method, max(LARS_MAX_STEPS, X.shape[1]))
        residuals.append(X[val] @ coefs - y[val][:, None])
    n_steps = max(r.shape[1] for r in residuals)
    sse = np.zeros(n_steps)
    for r in residuals:
        per_step = (r**2).sum(axis=0)
        sse += np.concatenate([per_step, np.full(n_steps - per_step.shape[0], per_step[-1])])
    return sse


def fit_lars_path(X, y, folds=None, *, method: str = "lar", stop="cv") -> LarsPathModel:
    """A LARS path on all rows, stopped by a rule (no intercept: X carries its own constant
    column where wanted).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    folds : ndarray of shape (n_samples,), int, optional
        Fold of every row; needed by ``stop="cv"``.
    method : {"lar", "lasso"}
        Plain least angle regression (Efron et al. 2004, Sec. 2) or with the Lasso modification
        (Sec. 3.1): ``lars_path``'s ``method``.
    stop : "cv", "end" or int
        ``"cv"``: the number of steps with the lowest K-fold validation error
        (:func:`lars_cv_errors`; the fewest steps among ties); ``"end"``: the whole path (all
        columns, or the rank of X), as :class:`sklearn.linear_model.Lars` with its default
        ``n_nonzero_coefs=500`` (:data:`LARS_MAX_STEPS`); an int k ≥ 1: k steps (or the
        path's end, if sooner).

    Returns
    -------
    LarsPathModel

    Raises
    ------
    ValueError
        A bad ``method`` or ``stop``, or ``stop="cv"`` without folds; the message names it.
    """
    if method not in LARS_PATHS:
        raise ValueError(f"LARS method must be one of {LARS_PATHS}, got {method!r}")
    fixed_count = isinstance(stop, (int, np.integer)) and not isinstance(stop, bool)
    if not (fixed_count and stop >= 1) and stop not in LARS_STOPS:
        raise ValueError(
            f"LARS stop must be one of {LARS_STOPS} or an integer number of steps >= 1, "
            f"got {stop!r}"
        )
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if y.ndim != 1:
        raise ValueError("LARS needs a single output y of shape (n_samples,)")
    cv_sse = None
    if stop == "cv":
        if folds is None:
            raise ValueError('LARS stop="cv" needs the folds of the rows')
        cv_sse = lars_cv_errors(X, y, folds, method=method)
        steps = int(np.argmin(cv_sse))
    else:
        steps = max(LARS_MAX_STEPS, X.shape[1]) if stop == "end" else int(stop)
    alphas, coefs = _lars_path(X, y, method, max(steps, 1))
    last = min(steps, coefs.shape[1] - 1)
    return LarsPathModel(coefs[:, last].copy(), last, float(alphas[last]), cv_sse)


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


__all__ = [
    "LARS_MAX_STEPS",
    "LARS_PATHS",
    "LARS_STOPS",
    "LarsPathModel",
    "PrunedModel",
    "fit_lars",
    "fit_lars_path",
    "lars_cv_errors",
    "lars_path_time",
    "lars_ranking",
    "op_lr",
    "op_rr",
]
