"""Low-rank updated LS-SVM (Ojeda, Suykens & De Moor; Algorithm 2 of Pahikkala et al.).

The paper's speed baseline: it keeps the full m×m matrix ``G = (K + λI)^{-1}`` and updates it
with Sherman-Morrison-Woodbury (eq. 10) when a feature is added, so it needs O(m²) memory and
O(k m² n) time.
"""

from __future__ import annotations

import time

import numpy as np

from rlsbench.lazy import lazy_module
from rlsbench.numerics.array_api import numpy_only
from rlsbench.numerics.selection._common import (
    PathRecorder,
    bias_shrink,
    initial_dual,
    pick_winner,
    prepare,
    zero_one_targets,
)

# loaded when a selection runs: memory_bytes (the workflow planning jobs) needs neither
blas = lazy_module("scipy.linalg.blas")
_scoring = lazy_module("rlsbench.numerics.selection._scoring")

#: Default budget for the m×m matrix and the per-round products.
DEFAULT_MAX_MEMORY_BYTES = 2 * 1024**3


def memory_bytes(n_samples, n_features, k=None, n_targets=1):
    """Peak working memory of :func:`lowrank_lssvm` in bytes (beyond X itself).

    The m×m matrix G, the m×n product ``G X`` of one round, a C-contiguous copy of X (made
    only when X is not C-contiguous already) and O(m) vectors.
    """
    m, n = int(n_samples), int(n_features)
    return 8 * (m * m + 2 * m * n + m * (3 * n_targets + 8))


def lowrank_lssvm(
    X, y, k, alpha, *, bias=0.0, criterion="squared", max_memory_bytes=DEFAULT_MAX_MEMORY_BYTES
):
    """Forward selection with the low-rank updated LS-SVM, O(k m² n) time, O(m²) memory.

    Same selections as :func:`greedy_rls` (Algorithm 3) and the wrappers (Algorithm 1).

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
    max_memory_bytes : int or None, default=2 GiB
        Refuse (ValueError) when :func:`memory_bytes` exceeds this budget; None = no limit.

    Returns
    -------
    SelectionPath

    Notes
    -----
    Algorithm 2: ``G ← λ^{-1} I`` and ``a ← λ^{-1} y`` (lines 2-3; with a bias feature its
    rank-one term is already in G). For candidate ``i`` with ``v = x_i`` line 9 forms
    ``G̃ = G - G v (1 + v^T G v)^{-1} v^T G`` (eq. 10) and line 10 ``ã = G̃ y``; the LOO of
    line 13 (eq. 8) only reads ``diag(G̃) = diag(G) - (Gv)² / (1 + v^T G v)`` and
    ``ã = a - G v (v^T a) / (1 + v^T G v)``. Both cost O(m²) per candidate, dominated by
    ``G v``; here the ``G v`` of all candidates are formed at once as one matrix product
    ``G X`` per round (BLAS-3, same O(m² n) operations), after which the diagonal and ``ã``
    of every candidate cost O(m). Lines 21-23 update G by eq. 10 (O(m²)) and ``a = G y``.
    """
    start = time.perf_counter()
    numpy_only("lowrank_lssvm", X, y)
    X, y2, single, k, alpha, bias, criterion = prepare(
        X, y, k, alpha, bias, criterion, method="lowrank_lssvm"
    )
    m, n = X.shape
    t = y2.shape[1]
    need = memory_bytes(m, n, k, t)
    if max_memory_bytes is not None and need > max_memory_bytes:
        raise ValueError(
            f"max_memory_bytes={max_memory_bytes} is too small for the low-rank updated "
            f"LS-SVM on n_samples={m}: its m×m matrix and m×n products need {need} bytes "
            "(O(m²) memory); raise max_memory_bytes or use greedy_rls (O(mn) memory)"
        )
    zero_one = criterion == "zero_one"
    ycls = zero_one_targets(y2)
    beta0 = bias_shrink(m, alpha, bias)
    G = np.full((m, m), -beta0 / alpha)
    G[np.diag_indices(m)] += 1.0 / alpha
    a, _ = initial_dual(y2, alpha, beta0)
    active = np.arange(n)
    rec = PathRecorder(k, t, single, alpha, criterion, start=start)
    for step in range(k):
        GXt = X.T @ G  # row i is (G v)ᵀ for candidate i (G is symmetric)
        s = np.einsum("ji,ij->i", X, GXt)  # v^T G v
        xta = X.T @ a
        d = np.diagonal(G).copy()
        sq, err = _scoring.pass_numpy(GXt, active, None, s, xta, a, d, y2, ycls, zero_one)
        mse = sq / m
        crit = err / m if zero_one else mse
        b = pick_winner(
            crit,
            rec.selected[:step],
            step,
            tiebreak=mse,
            x_scale=X,
            alpha=alpha,
            method="lowrank_lssvm",
        )
        active = active[active != b]
        Gv = GXt[b].copy()
        beta_b = 1.0 / (1.0 + s[b])
        del GXt
        # eq. 10 in place (rank-one BLAS update, no m×m temporary); G is symmetric, so
        # v^T G = (G v)^T and the C-ordered G is its own Fortran-ordered transpose.
        G = blas.dger(-beta_b, Gv, Gv, a=G.T, overwrite_a=True).T
        a = G @ y2  # line 23
        rec.selected[step] = b
        sel = rec.selected[: step + 1]
        coef = X[:, sel].T @ a  # w = X_S^T a (line 26)
        rec.add(b, y2, a / np.diagonal(G)[:, None], coef, bias * bias * a.sum(axis=0))
    return rec.path(method="lowrank_lssvm", memory_bytes=need)
