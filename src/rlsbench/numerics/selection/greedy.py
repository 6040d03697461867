"""Greedy RLS (Pahikkala, Airola & Salakoski, Algorithm 3): forward selection by LOO in O(kmn)."""

from __future__ import annotations

import contextlib
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from rlsbench.numerics.rls import _ridge_prefix_path
from rlsbench.numerics.selection._common import (
    PathRecorder,
    bias_shrink,
    initial_dual,
    pick_winner,
    prepare,
    zero_one_targets,
)
from rlsbench.numerics.selection._scoring import HAVE_NUMBA, get_backend

#: Below this many entries of X the numba kernels run on one thread unless ``n_jobs`` says
#: otherwise: a round then takes well under a millisecond, less than waking (or, on a busy
#: machine, waiting for) a second thread at every parallel region.
PARALLEL_MIN_ELEMENTS = 1 << 22


@contextlib.contextmanager
def _numba_threads(n_jobs):
    if not HAVE_NUMBA or n_jobs is None:
        yield
        return
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(n_jobs), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(old)


def greedy_rls(
    X,
    y,
    k,
    alpha,
    *,
    bias=0.0,
    criterion="squared",
    backend="auto",
    n_jobs=None,
    max_pending=None,
):
    """Greedy forward selection for RLS with the LOO criterion in O(kmn) time, O(mn) memory.

    Starting from the empty set (plus the bias feature, if any), each round adds the feature
    whose addition gives the lowest LOO criterion; ties go to the lower mean squared LOO
    error, then the lower feature index. The selection equals that of the standard wrapper
    (Algorithm 1) and of the low-rank updated LS-SVM (Algorithm 2).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
        Real targets, ±1 labels, or one-vs-rest ±1 columns; one feature set serves all outputs.
    k : int
        Number of features to select, ``1 <= k <= n_features``.
    alpha : float
        Regularization parameter λ > 0.
    bias : float, default=0.0
        Value of the constant bias feature (0 = none); always in the model, regularized,
        never a candidate.
    criterion : {"squared", "zero_one"}, default="squared"
        Mean squared LOO error summed over outputs, or LOO zero-one error (sign for one
        output, arg-max for several).
    backend : {"auto", "numba", "numpy"}, default="auto"
        Implementation of the scoring pass; both give the same selections.
    n_jobs : int or None, default=None
        Threads of the numba kernels (None = numba's default, or one thread for small X).
    max_pending : None
        Deprecated and ignored: the rank-one cache update of a round is now applied inside
        the next round's scoring pass, so the cache is written back every round.

    Returns
    -------
    SelectionPath

    Notes
    -----
    State (Algorithm 3, transposed to X of shape (m, n)): dual variables ``a = G y`` (m, t),
    ``d = diag(G)`` (m,), cache ``C = G X`` (m, n, eq. 13, stored as Cᵀ), and per feature
    ``s_i = x_iᵀ G x_i`` and ``x_iᵀ a``. One round:

    1. one pass over the candidates' cache columns applies the previous round's rank-one
       update ``C ← C - u wᵀ`` with ``w = Cᵀ x_b`` (column by column, so X is not read) and
       scores every candidate (eq. 14-17 and eq. 8, see ``_scoring``);
    2. for the winner ``b`` with cache column ``c``: ``γ = 1 / (1 + x_bᵀ c)``, ``u = γ c``
       (eq. 14), ``a -= u (x_bᵀ a)`` (eq. 15), ``d -= u ∘ c`` (eq. 17).

    The weights of every prefix of the selection (Algorithm 3 line 37) are computed once at
    the end from a Cholesky factor of the selected columns' Gram matrix
    (:func:`rlsbench.numerics.rls.ridge_prefix_path`, O(m k²) at BLAS-3 speed), instead of
    ``X_Sᵀ a`` in every round.

    Memory: X, the cache (same size as X) and O(m + n) vectors; never an m×m matrix.

    References
    ----------
    T. Pahikkala, A. Airola, T. Salakoski. Linear time feature selection for regularized
    least-squares. arXiv:1003.3570.
    """
    t_start = time.perf_counter()
    if max_pending is not None:
        warnings.warn(
            "greedy_rls: max_pending is deprecated and ignored (the cache update of a round "
            "is applied in the next round's scoring pass)",
            FutureWarning,
            stacklevel=2,
        )
    X, y2, single, k, alpha, bias, criterion = prepare(
        X, y, k, alpha, bias, criterion, method="greedy_rls"
    )
    backend_name, init, fused_pass = get_backend(backend)
    m, n = X.shape
    t = y2.shape[1]
    zero_one = criterion == "zero_one"
    ycls = zero_one_targets(y2)

    beta0 = bias_shrink(m, alpha, bias)
    a, d = initial_dual(y2, alpha, beta0)
    if n_jobs is None and X.size < PARALLEL_MIN_ELEMENTS:
        n_jobs = 1
    rec = PathRecorder(k, t, single, alpha, criterion, start=t_start)
    # The rounds' BLAS calls are vector products: on one thread, so that idle BLAS threads
    # do not spin against the numba threads of the passes.
    with _numba_threads(n_jobs), threadpool_limits(limits=1, user_api="blas"):
        # cache Cᵀ = (G X)ᵀ (eq. 13), s_i = x_iᵀ G x_i, x_iᵀ a; G holds the bias feature.
        cache_t, s, xta = init(X, y2, alpha, beta0)
        round_ends = [time.perf_counter()]
        active = np.arange(n)
        update = None
        for step in range(k):
            sq, err = fused_pass(cache_t, active, update, s, xta, a, d, y2, ycls, zero_one)
            mse = sq / m
            crit = err / m if zero_one else mse
            b = pick_winner(
                crit,
                rec.selected[:step],
                step,
                tiebreak=mse,
                x_scale=X,
                alpha=alpha,
                method="greedy_rls",
            )
            active = active[active != b]

            c = cache_t[b].copy()
            x_b = np.ascontiguousarray(X[:, b])
            gamma = 1.0 / (1.0 + x_b @ c)  # s_b afresh, eq. 14
            u = c * gamma
            xta_b = x_b @ a
            a -= np.outer(u, xta_b)  # eq. 15
            d -= u * c  # eq. 17
            update = (x_b, u, gamma, xta_b)
            rec.add(b, y2, a / d[:, None])
            round_ends.append(time.perf_counter())
    del cache_t
    coef, intercept, _ = _ridge_prefix_path(X, y2, rec.selected, alpha, bias=bias, residuals=False)
    rec.set_weights(coef, intercept)
    return rec.path(
        method="greedy_rls",
        backend=backend_name,
        init_seconds=round_ends[0] - t_start,
        round_seconds=np.diff(round_ends).tolist(),
        weights_seconds=time.perf_counter() - round_ends[-1],
    )
