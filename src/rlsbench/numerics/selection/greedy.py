"""Greedy RLS (Pahikkala, Airola & Salakoski, Algorithm 3): forward selection by LOO in O(kmn)."""

from __future__ import annotations

import contextlib
import time

import numpy as np

from rlsbench.numerics.criteria import best_index
from rlsbench.numerics.selection._common import (
    PathRecorder,
    bias_shrink,
    initial_dual,
    prepare,
    zero_one_targets,
)
from rlsbench.numerics.selection._scoring import HAVE_NUMBA, get_backend

#: Rank-one cache updates applied on the fly before the cache is written back (see _scoring).
MAX_PENDING = 4

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
    max_pending=MAX_PENDING,
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
    max_pending : int, default=4
        Rank-one cache updates kept pending between write-backs of the cache.

    Returns
    -------
    SelectionPath

    Notes
    -----
    State (Algorithm 3, transposed to X of shape (m, n)): dual variables ``a = G y`` (m, t),
    ``d = diag(G)`` (m,), cache ``C = G X`` (m, n, eq. 13), and per feature
    ``s_i = x_i^T G x_i`` and ``x_i^T a``. One round:

    1. score every candidate in one pass over ``C`` (eq. 14-17 and eq. 8, see ``_scoring``);
    2. for the winner ``b`` with cache column ``c``: ``w = X^T c`` (one GEMV over X; by the
       symmetry of G, ``w = x_b^T C``), ``u = c / (1 + s_b)`` (eq. 14), then
       ``a -= u (x_b^T a)`` (eq. 15), ``d -= u ∘ c`` (eq. 17), ``C -= u w^T``,
       ``s -= w² / (1 + s_b)`` and ``X^T a -= w (x_b^T a) / (1 + s_b)``; the cache update is
       deferred into the next scoring passes.

    Memory: X, the cache (same size as X) and O(m + n) vectors; never an m×m matrix.

    References
    ----------
    T. Pahikkala, A. Airola, T. Salakoski. Linear time feature selection for regularized
    least-squares. arXiv:1003.3570.
    """
    t_start = time.perf_counter()
    X, y2, single, k, alpha, bias, criterion = prepare(X, y, k, alpha, bias, criterion)
    backend_name, init, score, xtc = get_backend(backend)
    max_pending = max(1, int(max_pending))
    m, n = X.shape
    t = y2.shape[1]
    zero_one = criterion == "zero_one"
    ycls = zero_one_targets(y2)

    beta0 = bias_shrink(m, alpha, bias)
    a, d = initial_dual(y2, alpha, beta0)
    # cache C = G X (eq. 13), s_i = x_i^T G x_i, x_i^T a; G holds the bias feature already.
    cache, s, xta = init(X, a, alpha, beta0)

    U = np.zeros((m, max_pending))
    W = np.zeros((max_pending, n))
    n_pending = 0
    chosen = np.zeros(n, dtype=bool)
    X_sel = np.empty((m, k))
    rec = PathRecorder(k, t, single, alpha, criterion, start=t_start)
    round_ends = [time.perf_counter()]

    if n_jobs is None and X.size < PARALLEL_MIN_ELEMENTS:
        n_jobs = 1
    with _numba_threads(n_jobs):
        for step in range(k):
            beta = 1.0 / (1.0 + s)
            alphaT = np.ascontiguousarray((xta * beta[:, None]).T)
            writeback = n_pending == max_pending
            sq, err = score(
                cache, U, W, n_pending, writeback, a, d, y2, ycls, beta, alphaT, zero_one
            )
            if writeback:
                n_pending = 0
            mse = sq / m
            crit = err / m if zero_one else mse
            crit[chosen] = np.inf
            mse[chosen] = np.inf
            b = best_index(crit, mse)

            c = cache[:, b] - U[:, :n_pending] @ W[:n_pending, b]
            x_b = X[:, b]
            X_sel[:, step] = x_b
            gamma = 1.0 / (1.0 + x_b @ c)  # s_b afresh, eq. 14
            u = c * gamma
            xta_b = x_b @ a
            a -= np.outer(u, xta_b)  # eq. 15
            d -= u * c  # eq. 17
            chosen[b] = True
            if step + 1 < k:  # the cache and per-feature sums are not needed after the last
                w = xtc(X, c)
                s -= w * w * gamma
                xta -= np.outer(w * gamma, xta_b)
                U[:, n_pending] = u
                W[n_pending] = w
                n_pending += 1

            coef = X_sel[:, : step + 1].T @ a  # w = X_S^T a (Algorithm 3 line 37)
            rec.add(b, y2, a / d[:, None], coef, bias * bias * a.sum(axis=0))
            round_ends.append(time.perf_counter())
    return rec.path(
        method="greedy_rls",
        backend=backend_name,
        max_pending=max_pending,
        init_seconds=round_ends[0] - t_start,
        round_seconds=np.diff(round_ends).tolist(),
    )
