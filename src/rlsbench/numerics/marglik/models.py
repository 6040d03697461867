"""Fit/predict estimators for the Sun & Yao comparison: the kernel forward model and the RVMs.

All three use the Gaussian kernel ``exp(−‖x − y‖²/r)`` on the training inputs and fit the
centred targets (the training mean is added back at prediction): the paper's models carry no
bias term, and centring treats all three methods alike.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from rlsbench.numerics.marglik.lowrank import (
    forward_marglik_lowrank,
    gaussian_kernel,
    nystroem_features,
    pivoted_cholesky,
)
from rlsbench.numerics.marglik.rvm import rvm_fast, rvm_tipping


class ForwardMarglikRegressor(RegressorMixin, BaseEstimator):
    """Sun & Yao's forward kernel regression on a rank-p incomplete Cholesky factor.

    Parameters
    ----------
    width : float or None, default=None
        Gaussian kernel width r; None: the number of features.
    lam : float, default=1.0
        λ = σ² α (eq. 2).
    k_max : int, default=50
        Number of basis vectors (kernel columns) selected.
    sigma2 : float, default=1.0
        Fixed noise variance σ².
    rank : int or None, default=None
        Rank p of the factor; None: ``k_max`` (the paper's choice).

    Attributes
    ----------
    path_ : ForwardPath
    basis_ : ndarray of shape (k,), int
        Training examples whose kernel columns were selected.
    coef_ : ndarray of shape (k,)
    y_mean_ : float

    Notes
    -----
    Training uses ``Q = G Gᵀ`` in place of K; prediction uses the same approximation through
    the Nyström extension of G, ``Q(x, ·) = g(x) Gᵀ`` (exact on the pivot columns).
    """

    _parameter_constraints = {
        "width": [Interval(Real, 0, None, closed="neither"), None],
        "lam": [Interval(Real, 0, None, closed="neither")],
        "k_max": [Interval(Integral, 1, None, closed="left")],
        "sigma2": [Interval(Real, 0, None, closed="neither")],
        "rank": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, width=None, lam=1.0, k_max=50, sigma2=1.0, rank=None):
        self.width = width
        self.lam = lam
        self.k_max = k_max
        self.sigma2 = sigma2
        self.rank = rank

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self.X_fit_ = X
        self.y_mean_ = float(y.mean())
        self.width_ = float(self.width or X.shape[1])
        self.chol_ = pivoted_cholesky(X, self.width_, self.rank or self.k_max)
        self.path_ = forward_marglik_lowrank(
            self.chol_.factor, y - self.y_mean_, self.k_max, self.lam, sigma2=self.sigma2
        )
        self.basis_ = self.path_.selected
        self.coef_ = self.path_.coef_path[-1] if len(self.basis_) else np.zeros(0)
        return self

    def predict_path(self, X, steps=None):
        """Predictions after each number of selected basis vectors.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        steps : sequence of int or None
            Model sizes k (1-based); None: all.

        Returns
        -------
        ndarray of shape (len(steps), n_samples)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        steps = np.arange(1, len(self.basis_) + 1) if steps is None else np.asarray(steps)
        g = nystroem_features(X, self.X_fit_, self.chol_, self.width_)
        Qx = g @ self.chol_.factor[self.basis_].T  # (n_samples, k)
        return self.path_.coef_path[steps - 1] @ Qx.T + self.y_mean_

    def predict(self, X):
        check_is_fitted(self)
        return self.predict_path(X, [len(self.basis_)])[0]


class RVMRegressor(RegressorMixin, BaseEstimator):
    """Relevance vector machine on the full Gaussian kernel matrix.

    Parameters
    ----------
    width : float or None, default=None
        Gaussian kernel width r; None: the number of features.
    method : {"tipping2001", "fast"}, default="fast"
        :func:`~rlsbench.numerics.marglik.rvm.rvm_tipping` ("Old RVM") or
        :func:`~rlsbench.numerics.marglik.rvm.rvm_fast` (Tipping & Faul 2003, "New RVM").
    sigma2 : float or None, default=None
        Noise variance: fixed at this value if given, else re-estimated (both RVM papers).
    max_iter : int, default=2000
    tol : float, default=1e-6
    flop_budget : float or None, default=None
        Estimated floating-point operations of the solver (its own cost model, see
        :mod:`rlsbench.numerics.marglik.rvm`); the fit raises
        :class:`~rlsbench.numerics.marglik.rvm.BudgetExceeded` before exceeding it. A count,
        not a clock: the same data and settings stop at the same iteration on any machine.

    Attributes
    ----------
    result_ : RVMResult
    n_iter_ : int
    relevance_vectors_ : ndarray of shape (M, n_features)
    coef_ : ndarray of shape (M,)
    y_mean_ : float
    flops_ : float
        Estimated floating-point operations of the solver (``result_.info["flops"]``).
    """

    _parameter_constraints = {
        "width": [Interval(Real, 0, None, closed="neither"), None],
        "method": [StrOptions({"tipping2001", "fast"})],
        "sigma2": [Interval(Real, 0, None, closed="neither"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "flop_budget": [Interval(Real, 0, None, closed="neither"), None],
    }

    def __init__(
        self, width=None, method="fast", sigma2=None, max_iter=2000, tol=1e-6, flop_budget=None
    ):
        self.width = width
        self.method = method
        self.sigma2 = sigma2
        self.max_iter = max_iter
        self.tol = tol
        self.flop_budget = flop_budget

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self.y_mean_ = float(y.mean())
        self.width_ = float(self.width or X.shape[1])
        K = gaussian_kernel(X, X, self.width_)
        solver = rvm_tipping if self.method == "tipping2001" else rvm_fast
        fixed = self.sigma2 is not None
        self.result_ = solver(
            K,
            y - self.y_mean_,
            beta=1.0 / self.sigma2 if fixed else None,
            fixed_noise=fixed,
            max_iter=self.max_iter,
            tol=self.tol,
            flop_budget=self.flop_budget,
        )
        self.n_iter_ = self.result_.n_iter
        self.flops_ = float(self.result_.info["flops"])
        self.relevance_vectors_ = X[self.result_.active]
        self.coef_ = self.result_.mean
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.coef_.size == 0:
            return np.full(X.shape[0], self.y_mean_)
        return gaussian_kernel(X, self.relevance_vectors_, self.width_) @ self.coef_ + self.y_mean_
