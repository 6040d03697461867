"""The hot loop of greedy RLS: one pass over the cache ``C = G X`` scores every candidate.

For candidate ``i`` with cache column ``c = C[:, i]`` the tentative dual variables are (eq. 14-17)

    d̃ = d - c² β_i,   ã = a - c α_i,   β_i = 1 / (1 + s_i),   α_i = (x_i^T a) β_i,

with ``s_i = x_i^T c``, and its LOO residuals are ``ã / d̃`` (eq. 8). ``s`` and ``x_i^T a`` are
kept up to date in O(n) per round by the caller, so the pass needs nothing but ``C`` streamed
row by row (contiguous in the (m, n) C-order layout), with all ``n`` candidates vectorised
along a row.

Rank-one updates of ``C`` (``C ← C - u w^T``, Algorithm 3 line 33) are not written at once:
up to ``max_pending`` of them are kept as ``U`` (m, L) and ``W`` (L, n) and applied to each
row in registers while it is scored; every ``max_pending`` rounds the pass also writes the
updated rows back. Memory traffic per round is then one read of ``C`` (plus a write every few
rounds) instead of a read and a write.

Partial sums are taken over fixed blocks of ``chunk`` rows and added in block order, so the
result does not depend on the number of threads.

Two implementations give the same numbers up to rounding: a numba kernel (parallel over row
blocks) and a numpy fallback (BLAS for the pending updates, blocked temporaries).
"""

from __future__ import annotations

import numpy as np

CHUNK = 512
NUMPY_BLOCK = 64

try:  # numba is a declared dependency, but the numpy path keeps working without it
    from numba import njit, prange

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False


def n_chunks(m, chunk=CHUNK):
    return (m + chunk - 1) // chunk


def score_numpy(
    C,
    U,
    W,
    n_pending,
    writeback,
    a,
    d,
    y,
    ycls,
    beta,
    alphaT,
    zero_one,
    chunk=CHUNK,
    block=NUMPY_BLOCK,
):
    """Score all candidates; see the module docstring.

    Parameters
    ----------
    C : ndarray of shape (m, n), C-contiguous
        Cache without the pending updates (updated in place when ``writeback``).
    U : ndarray of shape (m, L)
    W : ndarray of shape (L, n)
    n_pending : int
        Number of pending rank-one updates (first columns of U / rows of W).
    writeback : bool
    a : ndarray of shape (m, t)
    d : ndarray of shape (m,)
    y : ndarray of shape (m, t)
    ycls : ndarray of shape (m,), int
        Class of each example for the zero-one criterion.
    beta : ndarray of shape (n,)
    alphaT : ndarray of shape (t, n)
    zero_one : bool
    chunk : int
        Rows per partial sum (fixed, so that results do not depend on threads or blocks).
    block : int
        Rows per numpy temporary (small enough to stay in cache); divides ``chunk``.

    Returns
    -------
    sq : ndarray of shape (n,)
        Sum of squared LOO residuals (over examples and outputs) per candidate.
    err : ndarray of shape (n,)
        Number of zero-one LOO errors per candidate (zeros unless ``zero_one``).
    """
    m, n = C.shape
    t = a.shape[1]
    nch = n_chunks(m, chunk)
    sq_part = np.zeros((nch, n))
    err_part = np.zeros((nch, n))
    cur = np.empty((block, n))
    den = np.empty((block, n))
    res = np.empty((block, n))
    for lo in range(0, m, block):
        hi = min(m, lo + block)
        ch = lo // chunk
        nb = hi - lo
        Cb, D, R = cur[:nb], den[:nb], res[:nb]
        if n_pending:
            np.matmul(U[lo:hi, :n_pending], W[:n_pending], out=Cb)
            np.subtract(C[lo:hi], Cb, out=Cb)
            if writeback:
                C[lo:hi] = Cb
        else:
            Cb = C[lo:hi]
        np.multiply(Cb, Cb, out=D)
        D *= beta
        np.subtract(d[lo:hi, None], D, out=D)  # d̃ (eq. 17)
        if t == 1:
            np.multiply(Cb, alphaT[0], out=R)
            np.subtract(a[lo:hi, 0, None], R, out=R)  # ã (eq. 15)
            R /= D  # LOO residual (eq. 8)
            sq_part[ch] += np.einsum("ij,ij->j", R, R)
            if zero_one:
                yb = y[lo:hi, 0, None]
                err_part[ch] += np.count_nonzero((yb - R > 0) != (yb > 0), axis=0)
            continue
        np.divide(1.0, D, out=D)
        if zero_one:
            best_p = np.full((nb, n), -np.inf)
            best_t = np.zeros((nb, n), dtype=np.int64)
        for tt in range(t):
            np.multiply(Cb, alphaT[tt], out=R)
            np.subtract(a[lo:hi, tt, None], R, out=R)
            R *= D
            sq_part[ch] += np.einsum("ij,ij->j", R, R)
            if zero_one:
                P = y[lo:hi, tt, None] - R
                better = P > best_p
                best_p[better] = P[better]
                best_t[better] = tt
        if zero_one:
            err_part[ch] += np.count_nonzero(best_t != ycls[lo:hi, None], axis=0)
    return sq_part.sum(axis=0), err_part.sum(axis=0)


def init_numpy(X, a, alpha, beta0):
    """Initial cache and per-feature sums of greedy RLS (Algorithm 3 lines 1-3).

    With the bias feature already in the model, ``G = (I - β 1 1^T) / λ`` and

    - ``C = G X = (X - β 1 (1^T X)) / λ`` (eq. 13),
    - ``s_i = x_i^T G x_i = (x_i^T x_i - β (1^T x_i)²) / λ``,
    - ``x_i^T a`` for the initial dual variables ``a`` (m, t).

    Returns
    -------
    C : ndarray of shape (m, n), C-contiguous
    s : ndarray of shape (n,)
    xta : ndarray of shape (n, t)
    """
    C = np.empty_like(X)
    np.multiply(X, 1.0 / alpha, out=C)
    sq = np.einsum("ij,ij->j", X, X)
    if beta0:
        colsum = X.sum(axis=0)
        C -= (beta0 / alpha) * colsum
        sq -= beta0 * colsum * colsum
    return C, sq / alpha, X.T @ a


def xtc_numpy(X, c):
    """``X^T c`` (one BLAS GEMV over X)."""
    return X.T @ c


if HAVE_NUMBA:

    @njit(parallel=True, cache=True, nogil=True)
    def _colsum_kernel(X, chunk, part):  # pragma: no cover - compiled
        m, n = X.shape
        for ch in prange(part.shape[0]):
            acc = part[ch]
            for i in range(n):
                acc[i] = 0.0
            for j in range(ch * chunk, min(m, (ch + 1) * chunk)):
                for i in range(n):
                    acc[i] += X[j, i]
        return part

    @njit(parallel=True, cache=True, nogil=True)
    def _init_kernel(X, a, inv_alpha, shift, C, sq_part, xta_part, chunk):  # pragma: no cover
        m, n = X.shape
        t = a.shape[1]
        for ch in prange(sq_part.shape[0]):
            sq = sq_part[ch]
            xta = xta_part[ch]
            for i in range(n):
                sq[i] = 0.0
            for tt in range(t):
                for i in range(n):
                    xta[tt, i] = 0.0
            for j in range(ch * chunk, min(m, (ch + 1) * chunk)):
                for i in range(n):
                    x = X[j, i]
                    C[j, i] = (x - shift[i]) * inv_alpha
                    sq[i] += x * x
                for tt in range(t):
                    ajt = a[j, tt]
                    for i in range(n):
                        xta[tt, i] += X[j, i] * ajt

    @njit(parallel=True, cache=True, nogil=True)
    def _xtc_kernel(X, c, chunk, part):  # pragma: no cover - compiled
        m, n = X.shape
        for ch in prange(part.shape[0]):
            acc = part[ch]
            for i in range(n):
                acc[i] = 0.0
            for j in range(ch * chunk, min(m, (ch + 1) * chunk)):
                cj = c[j]
                for i in range(n):
                    acc[i] += cj * X[j, i]

    def xtc_numba(X, c, chunk=CHUNK):
        """``X^T c`` by row blocks on numba's threads (keeps BLAS threads out of the loop)."""
        part = np.empty((n_chunks(X.shape[0], chunk), X.shape[1]))
        _xtc_kernel(X, c, chunk, part)
        return part.sum(axis=0)

    def init_numba(X, a, alpha, beta0, chunk=CHUNK):
        """Numba version of :func:`init_numpy`: one parallel pass over X (two with a bias),
        which also touches the fresh cache pages from both threads."""
        m, n = X.shape
        nch = n_chunks(m, chunk)
        if beta0:
            colsum = _colsum_kernel(X, chunk, np.empty((nch, n))).sum(axis=0)
        else:
            colsum = np.zeros(n)
        C = np.empty_like(X)
        sq_part = np.empty((nch, n))
        xta_part = np.empty((nch, a.shape[1], n))
        _init_kernel(X, a, 1.0 / alpha, beta0 * colsum, C, sq_part, xta_part, chunk)
        s = (sq_part.sum(axis=0) - beta0 * colsum * colsum) / alpha
        return C, s, np.ascontiguousarray(xta_part.sum(axis=0).T)

    @njit(parallel=True, cache=True, nogil=True)
    def _score_kernel(
        C,
        U,
        W,
        n_pending,
        writeback,
        a,
        d,
        y,
        ycls,
        beta,
        alphaT,
        zero_one,
        chunk,
        sq_part,
        err_part,
    ):  # pragma: no cover - compiled
        m, n = C.shape
        t = a.shape[1]
        nch = sq_part.shape[0]
        for ch in prange(nch):
            lo = ch * chunk
            hi = min(m, lo + chunk)
            sq = sq_part[ch]
            err = err_part[ch]
            for i in range(n):
                sq[i] = 0.0
                err[i] = 0.0
            row = np.empty(n)
            inv = np.empty(n)
            best_p = np.empty(n)
            best_t = np.empty(n, dtype=np.int64)
            for j in range(lo, hi):
                for i in range(n):
                    row[i] = C[j, i]
                for p in range(n_pending):
                    uj = U[j, p]
                    for i in range(n):
                        row[i] -= uj * W[p, i]
                if writeback and n_pending > 0:
                    for i in range(n):
                        C[j, i] = row[i]
                dj = d[j]
                if t == 1:
                    aj = a[j, 0]
                    yj = y[j, 0]
                    if zero_one:
                        ypos = yj > 0
                        for i in range(n):
                            c = row[i]
                            r = (aj - c * alphaT[0, i]) / (dj - c * c * beta[i])
                            sq[i] += r * r
                            if ((yj - r) > 0) != ypos:
                                err[i] += 1.0
                    else:
                        for i in range(n):
                            c = row[i]
                            r = (aj - c * alphaT[0, i]) / (dj - c * c * beta[i])
                            sq[i] += r * r
                    continue
                for i in range(n):
                    c = row[i]
                    inv[i] = 1.0 / (dj - c * c * beta[i])
                if zero_one:
                    for i in range(n):
                        best_p[i] = -np.inf
                        best_t[i] = 0
                for tt in range(t):
                    ajt = a[j, tt]
                    yjt = y[j, tt]
                    if zero_one:
                        for i in range(n):
                            r = (ajt - row[i] * alphaT[tt, i]) * inv[i]
                            sq[i] += r * r
                            pr = yjt - r
                            if pr > best_p[i]:
                                best_p[i] = pr
                                best_t[i] = tt
                    else:
                        for i in range(n):
                            r = (ajt - row[i] * alphaT[tt, i]) * inv[i]
                            sq[i] += r * r
                if zero_one:
                    cj = ycls[j]
                    for i in range(n):
                        if best_t[i] != cj:
                            err[i] += 1.0

    def score_numba(
        C, U, W, n_pending, writeback, a, d, y, ycls, beta, alphaT, zero_one, chunk=CHUNK
    ):
        """Numba version of :func:`score_numpy` (same arguments and results)."""
        nch = n_chunks(C.shape[0], chunk)
        sq_part = np.empty((nch, C.shape[1]))
        err_part = np.empty((nch, C.shape[1]))
        _score_kernel(
            C,
            U,
            W,
            n_pending,
            bool(writeback),
            a,
            d,
            y,
            ycls,
            beta,
            alphaT,
            bool(zero_one),
            chunk,
            sq_part,
            err_part,
        )
        return sq_part.sum(axis=0), err_part.sum(axis=0)


def get_backend(backend):
    """(name, init, scoring, X^T c) functions for ``backend`` in {"auto", "numba", "numpy"}."""
    if backend not in ("auto", "numba", "numpy"):
        raise ValueError(f"backend must be 'auto', 'numba' or 'numpy', got {backend!r}")
    if backend == "numpy" or (backend == "auto" and not HAVE_NUMBA):
        return "numpy", init_numpy, score_numpy, xtc_numpy
    if not HAVE_NUMBA:
        raise ValueError("backend='numba' requested but numba is not installed")
    return "numba", init_numba, score_numba, xtc_numba
