"""The standard wrapper (Algorithm 1): RLS retrained for every candidate feature set.

Two variants: ``loo="blackbox"`` retrains RLS from scratch for every held-out example
(O(min(k³m²n, k²m³n))), ``loo="shortcut"`` computes the LOO of each candidate set by the
constant-time shortcut (eq. 7 or 8, O(min(k³mn, k²m²n))).
"""

from __future__ import annotations

import contextlib
import time

import numpy as np
from joblib import Parallel, delayed, parallel_config

from rlsbench.numerics.array_api import numpy_only
from rlsbench.numerics.rls import _augment, _fit_augmented, _loo_residuals_augmented
from rlsbench.numerics.selection._common import PathRecorder, loo_errors, pick_winner, prepare

LOO_MODES = ("shortcut", "blackbox")


def _blackbox_residuals(Xa, y2, alpha):
    """Algorithm 1 lines 8-13: train without example j, predict it, for every j."""
    m = Xa.shape[0]
    res = np.empty_like(y2)
    keep = np.ones(m, dtype=bool)
    for j in range(m):
        keep[j] = False
        w = _fit_augmented(Xa[keep], y2[keep], alpha)
        res[j] = y2[j] - Xa[j] @ w
        keep[j] = True
    return res


def _score_candidates(Xa, y2, alpha, selected, base, candidates, loo, criterion):
    """Algorithm 1 lines 5-15 for some candidates: the LOO criterion and MSE of S ∪ {i}."""
    loo_fn = _blackbox_residuals if loo == "blackbox" else _loo_residuals_augmented
    crit = np.empty(len(candidates))
    mse = np.empty(len(candidates))
    for pos, i in enumerate(candidates):
        try:
            res = loo_fn(Xa[:, selected + [i] + base], y2, alpha)
        except np.linalg.LinAlgError:
            # λ lost to rounding against the set's Gram matrix: the set cannot be scored
            # in float64; a NaN score keeps it from winning (pick_winner)
            crit[pos] = mse[pos] = np.nan
            continue
        mse[pos], zo = loo_errors(y2, res)
        crit[pos] = mse[pos] if criterion == "squared" else zo
    return crit, mse


def wrapper(X, y, k, alpha, *, bias=0.0, criterion="squared", loo="shortcut", n_jobs=None):
    """Greedy forward selection with RLS retrained as a black box (Algorithm 1).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        NumPy input only: a CuPy or PyTorch array raises ``TypeError``
        (:func:`~rlsbench.numerics.selection.greedy_rls` runs on other array libraries).
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    k : int
    alpha : float
        λ > 0.
    bias : float, default=0.0
    criterion : {"squared", "zero_one"}, default="squared"
    loo : {"shortcut", "blackbox"}, default="shortcut"
        How the LOO of a candidate set is computed: eq. 7/8 on one fit, or m fits.
    n_jobs : int or None, default=None
        Worker processes that score the candidates of a round side by side (joblib, loky);
        each worker's BLAS runs on one thread, so workers × BLAS threads ≤ n_jobs. None or 1
        scores them in this process. The selection does not depend on it.

    Returns
    -------
    SelectionPath
    """
    if loo not in LOO_MODES:
        raise ValueError(f"loo must be one of {LOO_MODES}, got {loo!r}")
    start = time.perf_counter()
    numpy_only("wrapper", X, y)
    X, y2, single, k, alpha, bias, criterion = prepare(
        X, y, k, alpha, bias, criterion, method=f"wrapper_{loo}"
    )
    m, n = X.shape
    n_workers = 1 if n_jobs is None else max(1, int(n_jobs))
    Xa = _augment(X, bias)  # the bias column (if any) is the last one, always in the model
    base = [n] if bias != 0.0 else []
    loo_fn = _blackbox_residuals if loo == "blackbox" else _loo_residuals_augmented
    selected = []
    rec = PathRecorder(k, y2.shape[1], single, alpha, criterion, start=start)
    with contextlib.ExitStack() as stack:
        if n_workers > 1:
            stack.enter_context(parallel_config(backend="loky", inner_max_num_threads=1))
            pool = stack.enter_context(Parallel(n_jobs=n_workers))
        for step in range(k):
            crit = np.full(n, np.inf)
            mse = np.full(n, np.inf)
            candidates = [i for i in range(n) if i not in selected]
            if n_workers > 1:
                # one task per worker: a contiguous share of the candidates
                shares = np.array_split(np.asarray(candidates), n_workers)
                parts = pool(
                    delayed(_score_candidates)(
                        Xa, y2, alpha, selected, base, share.tolist(), loo, criterion
                    )
                    for share in shares
                    if share.size
                )
                crit[candidates] = np.concatenate([p[0] for p in parts])
                mse[candidates] = np.concatenate([p[1] for p in parts])
            else:
                crit[candidates], mse[candidates] = _score_candidates(
                    Xa, y2, alpha, selected, base, candidates, loo, criterion
                )
            b = pick_winner(
                crit,
                selected,
                step,
                tiebreak=mse,
                x_scale=X,
                alpha=alpha,
                method=f"wrapper_{loo}",
            )
            selected.append(b)
            cols = selected + base
            w = _fit_augmented(Xa[:, cols], y2, alpha)
            res = loo_fn(Xa[:, cols], y2, alpha)
            intercept = bias * w[-1] if base else np.zeros(y2.shape[1])
            rec.add(b, y2, res, w[: len(selected)], intercept)
    return rec.path(method=f"wrapper_{loo}")
