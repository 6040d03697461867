"""LOO selection criteria computed from LOO residuals.

A LOO residual is ``y_j - p_j`` with ``p_j`` the prediction for example ``j`` of the model
trained without it; for RLS it is ``a_j / G_jj`` (dual form, eq. 8) or
``(y_j - f_j) / (1 - q_j)`` (primal form, eq. 7).
"""

from __future__ import annotations

import numpy as np

__all__ = ["loo_mse", "loo_zero_one", "criterion_from_residuals", "best_index", "TIE_RTOL"]


def loo_mse(residuals):
    """Mean squared LOO error, summed over outputs.

    Parameters
    ----------
    residuals : ndarray of shape (n_samples,) or (n_samples, n_targets)

    Returns
    -------
    float
    """
    r = np.asarray(residuals, dtype=np.float64)
    return float(np.vdot(r, r) / r.shape[0])


def loo_zero_one(y, residuals):
    """LOO zero-one error rate for labels in {-1, +1}.

    One output: the LOO prediction ``p = y - r`` predicts +1 where ``p > 0`` (else -1).
    Several outputs (one-vs-rest coding): the predicted class is ``argmax_t p_t`` and is
    compared with ``argmax_t y_t`` (first maximum on ties, as :func:`numpy.argmax`).

    Parameters
    ----------
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    residuals : ndarray of the same shape

    Returns
    -------
    float
    """
    y = np.asarray(y, dtype=np.float64)
    p = y - residuals
    if y.ndim == 1 or y.shape[1] == 1:
        return float(np.mean((p > 0) != (y > 0)))
    return float(np.mean(np.argmax(p, axis=1) != np.argmax(y, axis=1)))


def criterion_from_residuals(criterion, y, residuals):
    """The named criterion: ``"squared"`` (:func:`loo_mse`) or ``"zero_one"``
    (:func:`loo_zero_one`)."""
    if criterion == "squared":
        return loo_mse(residuals)
    if criterion == "zero_one":
        return loo_zero_one(y, residuals)
    raise ValueError(f"criterion must be 'squared' or 'zero_one', got {criterion!r}")


#: Relative gap below which two criterion values count as tied. Different algorithms compute
#: the same LOO value with different rounding (≈1e-14 relative), so an exact comparison would
#: let rounding, not the data, decide between e.g. two identical columns.
TIE_RTOL = 1e-10


def best_index(criterion, loo_mse, rtol=TIE_RTOL):
    """Index of the best candidate: lowest criterion, then lowest LOO MSE, then lowest index.

    Values within ``rtol`` (relative) of the minimum are ties; NaN and +inf never win unless
    every candidate has them.

    Parameters
    ----------
    criterion : ndarray of shape (n_candidates,)
    loo_mse : ndarray of shape (n_candidates,)
    rtol : float

    Returns
    -------
    int
    """
    crit = np.where(np.isnan(criterion), np.inf, criterion)
    mse = np.where(np.isnan(loo_mse), np.inf, loo_mse)
    best = crit.min()
    if not np.isfinite(best):
        return int(np.argmin(mse)) if np.isfinite(mse.min()) else 0
    tied = crit <= best + rtol * abs(best)
    mse_tied = np.where(tied, mse, np.inf)
    best_mse = mse_tied.min()
    if np.isfinite(best_mse):
        tied &= mse_tied <= best_mse + rtol * abs(best_mse)
    return int(np.flatnonzero(tied)[0])
