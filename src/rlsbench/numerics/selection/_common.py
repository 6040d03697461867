"""State and bookkeeping shared by the RLS selectors (dual-variable form of Section 3)."""

from __future__ import annotations

import time

import numpy as np

from rlsbench.numerics._validation import check_problem
from rlsbench.numerics.criteria import loo_mse, loo_zero_one
from rlsbench.numerics.path import SelectionPath


def prepare(X, y, k, alpha, bias, criterion):
    """Validate a selector call; return ``X`` (C-contiguous), ``y`` as (m, t) and a flag.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
    y2 : ndarray of shape (n_samples, n_targets)
    single : bool
        True when ``y`` was given as a vector (outputs are then squeezed back).
    k, alpha, bias, criterion : validated scalars
    """
    X, y, k, alpha, bias, criterion = check_problem(X, y, k, alpha, bias, criterion)
    single = y.ndim == 1
    y2 = np.ascontiguousarray(y.reshape(y.shape[0], -1))
    return np.ascontiguousarray(X), y2, single, k, alpha, bias, criterion


def bias_shrink(m, alpha, bias):
    """β of the empty model's dual matrix with the bias feature ``b·1`` already in it.

    ``G = (b² 1 1^T + λ I)^{-1} = (I - β 1 1^T) / λ`` with ``β = b² / (λ + m b²)`` (Sherman-
    Morrison on eq. 5); β = 0 without a bias.
    """
    return bias * bias / (alpha + m * bias * bias)


def initial_dual(y2, alpha, beta):
    """Dual variables ``a = G y`` (eq. 5) and ``d = diag(G)`` of the empty (bias-only) model."""
    m = y2.shape[0]
    a = (y2 - beta * y2.sum(axis=0)) / alpha
    d = np.full(m, (1.0 - beta) / alpha)
    return a, d


def zero_one_targets(y2):
    """Per-example class used by the zero-one criterion: sign (one output) or arg-max."""
    if y2.shape[1] == 1:
        return (y2[:, 0] > 0).astype(np.int64)
    return np.argmax(y2, axis=1).astype(np.int64)


def loo_errors(y2, residuals):
    """(mean squared LOO error summed over outputs, zero-one LOO error) from LOO residuals."""
    return loo_mse(residuals), loo_zero_one(y2, residuals)


class PathRecorder:
    """Collects the model after every addition and builds the :class:`SelectionPath`."""

    def __init__(self, k, n_targets, single, alpha, criterion, start=None):
        self.start = time.perf_counter() if start is None else start
        self.elapsed = np.full(k, np.nan)
        self.k = k
        self.single = single
        self.criterion_name = criterion
        self.alpha = alpha
        self.selected = np.zeros(k, dtype=np.intp)
        self.criterion = np.full(k, np.nan)
        self.loo_mse = np.full(k, np.nan)
        self.coef = np.zeros((k, k, n_targets))
        self.intercept = np.zeros((k, n_targets))
        self.step = 0

    def add(self, feature, y2, residuals, coef=None, intercept=None):
        """Record step ``s``: feature, LOO residuals (m, t), weights (s+1, t), intercept (t,).

        Weights left out here are given for all steps at once by :meth:`set_weights`.
        """
        self.add_errors(feature, *loo_errors(y2, residuals), coef=coef, intercept=intercept)

    def add_errors(self, feature, mse, zero_one, coef=None, intercept=None):
        """:meth:`add` from the LOO errors already reduced: mean squared, zero-one (floats)."""
        s = self.step
        mse, zo = float(mse), float(zero_one)
        self.selected[s] = feature
        self.loo_mse[s] = mse
        self.criterion[s] = mse if self.criterion_name == "squared" else zo
        if coef is not None:
            self.coef[s, : s + 1] = coef
            self.intercept[s] = intercept
        self.elapsed[s] = time.perf_counter() - self.start
        self.step += 1

    def set_weights(self, coef, intercept):
        """Weights of every recorded step: ``coef`` (steps, steps, t), ``intercept`` (steps, t)."""
        steps = coef.shape[0]
        self.coef[:steps, :steps] = coef
        self.intercept[:steps] = intercept

    def path(self, **info):
        coef, intercept = self.coef, self.intercept
        if self.single:
            coef, intercept = coef[:, :, 0], intercept[:, 0]
        return SelectionPath(
            selected=self.selected[: self.step].copy(),
            criterion=self.criterion[: self.step].copy(),
            loo_mse=self.loo_mse[: self.step].copy(),
            coef_path=coef[: self.step, : self.step].copy(),
            intercept_path=intercept[: self.step].copy(),
            alphas=np.full(self.step, self.alpha),
            # elapsed_s: seconds from the call to each addition (machine-dependent).
            info={
                "criterion": self.criterion_name,
                "elapsed_s": self.elapsed[: self.step].copy(),
                **info,
            },
        )
